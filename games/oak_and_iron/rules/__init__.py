"""The rules of Oak & Iron (book 001), one module per section of the book.

A module's name ends with its section: the chapter, then the part within it. Chapter 4 (Playing the
Game) numbers its phases I-IV, so ``initiative_4_1`` is the Initiative Phase, ``movement_4_2``,
``seamanship_4_2`` and ``crew_actions_4_2`` the Movement Phase (speed and move, Seamanship
Actions, Crew Actions), ``ship_status_4_2`` its new terms (Fatigue, Damage, Shaken, Crippled,
Entangled, Aground; Out of Action from 4.3), ``attack_4_3`` and ``close_combat_4_3`` the Attack
Phase and ``end_phase_4_4`` the End Phase; ``activation_4`` (who acts) and ``turn_4`` (the turn
running through its phases) are the chapter's opening. Chapter 5 (Additional Rules) has unnumbered
headings, numbered here in the book's order: 5.1 Collisions (``collisions_5_1``), 5.2 Moving off the
table (``off_table_5_2``), 5.3 Fortune Points (spent inside skill tests and attacks), 5.4 Events
(``events_5_4``), 5.5 Formation (``formation_5_5``), 5.6 Raking Shots, 5.7 Targeting Rigging and
5.8 Targeting Crew (in ``attack_4_3``), 5.9 Terrain and Weather (``terrain_5_9``). Chapter 2 (Game
Components) gives the die (``dice_2``) and the range ruler (``range_ruler_2``, the ``measure``
order); chapter 6 Creating a Squadron (``squadron_6``); chapter 7 Starting a Game and chapter 3's
quick start (``starting_7``).

The card game (faction, upgrade and captain cards, ch. 2 and 6, house contents): building with
them and their limits are in ``squadron_6``; ``captains_6`` has the captain in play (face down
under the Admiral, lost to a struck helm). ``scenario_cards_7`` is Starting a Game with the
objective, setting, deployment and advantage decks as set-up orders (option ``start=book``).
``fleet_battles_9`` is chapter 9 (the ``fleet`` scenario): squadrons within a fleet, each with its
own admiral and hand; the initiative, activation and end-phase rules ask it who holds the cards. Rulings where the book is silent are in
``data/oak_and_iron/RULINGS.md``.

Lower sections never import ``turn_4``, which moves the turn from phase to phase and so calls the
others; the rule functions change the ``State`` they are given and return their log lines or
events (the table service applies every order to a copy and drops it on error).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.ruleset import Event, public


def public_lines(lines: Sequence[str]) -> list[Event]:
    """Log lines as public events; they may show dice, so the order cannot simply be taken back."""
    return [public(line, reveals=True) for line in lines if line]
