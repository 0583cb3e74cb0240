"""Set-ups for the Oak & Iron book tests: a game from the ruleset's own ``setup``, ships stood where
a section needs them, then nothing but order text through ``parse_order``/``apply`` (as the table
service sends it), ``legal_orders`` and ``view``. Where a position or a state (a Crippled ship, a
Fatigue count) is needed it is set on the game's state before the orders start, as a player would
stand the models and tokens on a real table."""

from __future__ import annotations

import copy
from typing import Any

from games.core.rng import Rng
from games.oak_and_iron.state import ShipState, State
from tests.oak_and_iron.helpers import fails, order, place, rng, ruleset, started, texts

__all__ = [
    "abreast",
    "anchor_others",
    "begin",
    "dice_ahead",
    "entangle",
    "fails",
    "order",
    "place",
    "play_out",
    "rng",
    "ruleset",
    "started",
    "texts",
]


def anchor_others(state: State, *keep: str) -> None:
    """Every ship not named stands anchored far apart along the bottom edge, out of every range."""
    x = 2.0
    for ship in state.ships:
        if ship.id not in keep:
            ship.x, ship.y, ship.heading, ship.sail = x, state.table_height - 2.0, 90.0, "anchored"
            x += 14.0


def dice_ahead(stream: Rng, n: int) -> list[str]:
    """The next ``n`` faces the game's stream will give (the custom die of data/dice)."""
    from games.oak_and_iron.rules import dice_2 as dice

    return dice.roll(copy.copy(stream), n)


def _pick(rs: Any, state: State, seat: str) -> Any:
    """The quietest legal order: end an activation, hold fire, else a plain move."""
    legal = rs.legal_orders(state, seat)
    for kind in ("Done", "Hold", "Move"):
        for o in legal:
            if type(o).__name__ == kind and getattr(o, "when", None) is None:
                return o
    raise AssertionError(f"no quiet order for {seat}: {legal}")


def play_out(state: State, stream: Rng, until: str = "end", limit: int = 60) -> list[str]:
    """Play quiet orders (done / hold / move) until the phase is ``until`` or a choice is pending."""
    rs = ruleset()
    log: list[str] = []
    for _ in range(limit):
        if state.phase == until or state.pending or state.phase in ("over", "select"):
            return log
        seat = rs.to_act(state)[0]
        o = _pick(rs, state, seat)
        log += [e.text for e in rs.apply(state, seat, o, stream)]
    raise AssertionError("the phase never came")


def abreast(
    state: State, left: str, right: str, x: float = 20.0, y: float = 20.0, heading: float = 180.0
) -> tuple[ShipState, ShipState]:
    """Two ships side by side, bases touching along their sides."""
    a, b = state.ship(left), state.ship(right)
    place(state, left, x, y, heading)
    place(state, right, x + a.beam / 2 + b.beam / 2, y, heading)
    return a, b


def entangle(a: ShipState, b: ShipState) -> None:
    a.entangled, b.entangled = [b.id], [a.id]


def begin(scenario: str = "skirmish", seed: int = 1, options: dict[str, str] | None = None) -> tuple[State, Rng]:
    """A game through its first Initiative Phase (each seat seals the first card it may), in the
    Movement Phase of turn 1."""
    rs, stream = ruleset(), rng(seed)
    state = rs.setup(scenario, dict(options or {}), stream)
    for _ in range(12):
        if state.phase == "movement":
            return state, stream
        for seat in rs.to_act(state):
            rs.apply(state, seat, rs.legal_orders(state, seat)[0], stream)
    raise AssertionError(f"no Movement Phase: {state.phase}")
