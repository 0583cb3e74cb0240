"""What everyone sees of the free table (it has no secrets): the board, its pieces, the last move."""

from __future__ import annotations

from games.core.view import Board, Counter, Overlay, SideInfo, View
from games.table.data import settings
from games.table.rules import conceding_3
from games.table.state import State


def view(state: State, seat: str | None) -> View:
    """The one picture of the table. It has no turns, so no highlight ring ("acts now"); the last
    move is drawn as a path in the mover's colour, as in the other systems."""
    palette = settings().palette
    board = Board(kind="square", key=f"table:{state.width}x{state.height}", width=state.width, height=state.height)
    sides = tuple(SideInfo(s.lower(), s, palette[i % len(palette)]) for i, s in enumerate(state.sides))
    counters = tuple(
        Counter(id=p.label, label=p.label, side=p.side, pos=(p.square.x, p.square.y),
                facing=None if p.heading is None else 45.0 * p.heading)
        for p in state.pieces
    )
    moved = state.last_move
    mover = next((p.side for p in state.pieces if moved[2:] == [p.square.x, p.square.y]), "") if moved else ""
    overlays = (Overlay("path", ((moved[0], moved[1]), (moved[2], moved[3])), side=mover),) if len(moved) == 4 else ()
    status = (f"Free table: {', '.join(state.sides)}", f"{len(state.pieces)} pieces on the board",
              *([f"Out: {', '.join(conceding_3.out(state))} (conceded)"] if state.conceded else []))
    return View(board=board, viewer=seat, sides=sides, counters=counters, overlays=overlays, status=status,
                title="Free table")
