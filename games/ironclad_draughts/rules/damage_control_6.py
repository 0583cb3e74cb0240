"""Book section 6, Damage Control: each activation starts with one draw against the most serious
Damage Card in force (order: conning tower, fire, steering, engine); the same suit repairs it,
some other ranks cause further damage (Damage Control 2), a Joker against a fire blows the ship up.
"""

from __future__ import annotations

from games.core.decks import card_name, is_joker, rank_of, suit_of
from games.core.rng import Rng
from games.ironclad_draughts.rules.firing_5 import draw_damage, place_damage, turn_word
from games.ironclad_draughts.rules.sinking_7 import sink
from games.ironclad_draughts.state import CONNING, ENGINE, FIRE, PRIORITY, STEERING, DamageCard, Ship, State

# Ineffective damage control: card rank drawn -> further damage, per damage kind in force.
FURTHER_DAMAGE: dict[str, dict[str, str]] = {
    CONNING: {"K": ENGINE, "Q": STEERING},
    STEERING: {"K": ENGINE},
    FIRE: {"JOKER": "blow up", "A": CONNING, "K": ENGINE, "Q": STEERING, "J": FIRE},
    ENGINE: {},
}


def most_serious(ship: Ship) -> DamageCard | None:
    """The card damage control tackles (Damage Control 1); the oldest of a kind first (house)."""
    for kind in PRIORITY:
        for dmg in ship.damage:
            if dmg.kind == kind:
                return dmg
    return None


def damage_control(state: State, ship: Ship, rng: Rng, lines: list[str]) -> None:
    """The activation's Damage Control draw against the most serious card in force (Damage Control 2)."""
    worst = most_serious(ship)
    if worst is None:
        return
    card = draw_damage(state, rng)
    if card is None:
        lines.append(f"{ship.name}: the damage pack is exhausted, no damage control draw.")
        return
    head = f"{ship.name} damage control against {worst.kind} ({card_name(worst.card)}): drew {card_name(card)}"
    if suit_of(card) and suit_of(card) == suit_of(worst.card):
        ship.damage.remove(worst)
        state.damage_deck.discard(worst.card)
        state.damage_deck.discard(card)
        lines.append(f"{head}, same suit: {worst.kind} repaired.")
        return
    rank = "JOKER" if is_joker(card) else rank_of(card)
    further = FURTHER_DAMAGE[worst.kind].get(rank, "")
    if further == "blow up":
        state.damage_deck.discard(card)
        lines.append(f"{head}: the fire reaches the magazine.")
        sink(state, ship, lines, "blows up")
    elif further:
        place_damage(ship, card, further)
        extra = f" ({turn_word(card)})" if further == STEERING else ""
        word = "another fire starts" if further == FIRE else f"further damage: {further} hit{extra}"
        lines.append(f"{head}: {word}.")
    else:
        state.damage_deck.discard(card)
        lines.append(f"{head}: no effect.")
