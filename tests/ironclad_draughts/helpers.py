"""Building Ironclad Draughts positions directly, and random streams with wanted dice."""

from __future__ import annotations

from games.core.decks import rank_of
from games.core.rng import Rng, seed_from_number
from games.core.squaregrid import HEADING_NAMES
from games.ironclad_draughts.rules.sequence_3 import resolve_ship
from games.ironclad_draughts.ruleset import IroncladDraughts
from games.ironclad_draughts.state import KIND_OF_RANK, DamageCard, Ship, State, ship_by_id

RS = IroncladDraughts()


def new_game(scenario: str = "standard", seed: int = 1, **options: str) -> State:
    return RS.setup(scenario, dict(options), Rng(seed_from_number(seed)))


def ship(state: State, name: str) -> Ship:
    return ship_by_id(state, resolve_ship(state, name).id)


def place(state: State, name: str, square: str, heading: str) -> Ship:
    s = ship(state, name)
    s.x, s.y = ord(square[0]) - ord("a"), int(square[1:]) - 1
    s.heading = HEADING_NAMES.index(heading)
    return s


def park(state: State, *names: str) -> None:
    """Move ships out of the way: they are taken out of play as if they had left the board."""
    for name in names:
        ship(state, name).status = "off"


def activate(state: State, name: str, card: str = "2H") -> Ship:
    """Make ``name`` the active ship with ``card``; every other ship has already acted."""
    s = ship(state, name)
    for other in state.ships:
        other.activated = True
        other.card = ""
    s.card, s.activated = card, False
    state.phase, state.active = "activate", s.id
    return s


def damage(state: State, name: str, *cards: str) -> Ship:
    """Put damage cards in force on a ship, taking them out of the damage pack."""
    s = ship(state, name)
    for card in cards:
        pull(state, card)
        s.damage.append(DamageCard(card, KIND_OF_RANK[rank_of(card)]))
    return s


def pull(state: State, card: str) -> None:
    deck = state.damage_deck
    for pile in (deck.draw_pile, deck.discards):
        if card in pile:
            pile.remove(card)


def stack(state: State, *cards: str) -> None:
    """Put these damage cards on top of the pack, the first listed drawn first."""
    for card in cards:
        pull(state, card)
    state.damage_deck.draw_pile.extend(reversed(cards))


def rng_rolling(wanted: list[int], limit: int = 200_000) -> Rng:
    """A stream whose first d6 rolls are ``wanted`` (found by searching seeds)."""
    for n in range(limit):
        probe = Rng(seed_from_number(n))
        if [probe.die(6) for _ in wanted] == wanted:
            return Rng(seed_from_number(n))
    raise AssertionError(f"no seed rolls {wanted}")


def order(state: State, seat: str, text: str, rng: Rng | None = None) -> str:
    """Parse and apply, returning the single public event's text."""
    o = RS.parse_order(state, seat, text)
    events = RS.apply(state, seat, o, rng or Rng(seed_from_number(99)))
    assert len(events) == 1 and events[0].public
    return events[0].text
