"""The free table's state: its sides, its board and the pieces on it (no secrets: all is public)."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.squaregrid import Square


@dataclass
class Piece:
    label: str
    side: str  # the owning side's seat id (its name in lower case)
    square: Square
    heading: int | None = None  # 0..7, N clockwise in 45-degree steps; None: not facing anywhere


@dataclass
class State:
    sides: list[str]  # side names as given, e.g. ["Red", "Blue"]
    width: int
    height: int
    pieces: list[Piece] = field(default_factory=list)
    conceded: list[str] = field(default_factory=list)
    last_move: list[int] = field(default_factory=list)  # x0, y0, x1, y1 of the last move, drawn as its path


def side_name(state: State, seat: str) -> str:
    """How a seat signs its orders: its side's name, or "Umpire"."""
    return next((s for s in state.sides if s.lower() == seat), "Umpire")
