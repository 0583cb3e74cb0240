"""Book-test set-ups for Days of Iron on the measured table: the meeting scenario as set out,
terrain cleared, units placed where a test needs them, then driven by order text only."""

from __future__ import annotations

from games.core.rng import Rng, seed_from_number
from games.core.ruleset import Event
from games.days_of_iron.state import STEPS, State, TerrainPiece, Unit
from tests.days_of_iron.helpers import RS, finish_turn, new_game, order, ready_both, start_turn, unit
from tests.scripted import DiceThenStream


def place(state: State, name: str, x: float, y: float, facing: float, formation: str = "line") -> Unit:
    """Stand a unit on the table (its command stand's centre at x, y inches, facing a bearing)."""
    u = unit(state, name)
    u.x, u.y, u.facing, u.formation = x, y, facing, formation
    return u


def piece(state: State, kind: str, name: str, x0: float, y0: float, x1: float, y1: float) -> None:
    """Lay a rectangle of terrain of a terrain-sheet type."""
    state.terrain.append(TerrainPiece(kind, name, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))


def table(*, french_first: bool = True) -> tuple[State, Rng]:
    """The meeting engagement set out, no terrain, every unit moved off to the flanks so a test
    places only the units it needs; turn 1 begun with the initiative as asked."""
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    state.terrain.clear()
    for side in ("french", "prussian"):  # park each side's units 5" apart along its own baseline
        for i, u in enumerate(v for v in state.units if v.side == side):
            if u.type == "general":
                u.quality = "capable"
            u.formation, u.facing = "column", 0.0 if side == "french" else 180.0
            u.x = 4.0 + 5.0 * (i % 14)
            u.y = (44.0 - 4.0 * (i // 14)) if side == "french" else (4.0 + 4.0 * (i // 14))
    start_turn(state, french_first=french_first)
    return state, rng


def to_step(state: State, step: str, rng: Rng | None = None) -> list[Event]:
    """Say `next` for whoever acts until the phase named begins."""
    rng = rng or Rng(seed_from_number(7))
    events: list[Event] = []
    while STEPS[state.step] != step:
        events += order(state, RS.to_act(state)[0], "next", rng)
    return events


def next_movement(state: State, rng: Rng) -> None:
    """Play on to the next turn's Movement phase, the French holding the initiative."""
    finish_turn(state, rng)
    start_turn(state)
    to_step(state, "Movement", rng)


def text_of(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def set_alight(kind: str = "light-wood", name: str = "the wood", y0: float = 24.0, y1: float = 40.0,
               wind: str = "") -> tuple[State, Rng, Unit, str]:
    """A piece x 20-52, y0-y1, the 63e in column at (36, 29) in it and, in the Shooting phase of
    turn 1, its `check fire about` the piece rolling a 6 (15.9); ``wind`` the point it blows from.
    Returns the state, the stream, the 63e and what the check said."""
    state, rng = table()
    state.wind = wind
    piece(state, kind, name, 20.0, y0, 52.0, y1)
    col = place(state, "63e de Ligne", 36.0, 29.0, 0.0, "column")
    to_step(state, "Shooting", rng)
    said = text_of(order(state, "french", f"check fire about {name}", DiceThenStream([6])))
    return state, rng, col, said
