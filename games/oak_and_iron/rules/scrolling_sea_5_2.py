"""Book section 5.2 (Moving off the Table), the designer's note SCROLLING SEA (option
``scrolling_sea=yes``; off by default): "If a ship's move would cause it to move off of the table,
return the ship to its starting position and move all ships and Terrain elements on the table an
equal distance away from the board edge the ship would have sailed off of. A distance of at least
Musket Shot should be used for this. If any Terrain would be moved off the table as a result, the
player who wasn't moving the ship that caused the table to be scrolled places the Terrain anywhere
within Musket Shot of the opposite table edge it was forced off of."

House readings (RULINGS.md, Scrolling Sea): the table scrolls by Musket Shot, or by as much as the
move would have overshot the edge when that is more, so the repeated move ends on the table; a move
off a corner scrolls away from both edges. A ship the scroll would carry off the far edge shortens
it ("should be used" is advice), down to what the move overshot; if even that would carry a ship
off, the sea does not scroll: the move is made, 5.2 removes the ship as usual, and the post says
why. It scrolls only for a ship's own move (4.2 MOVE and the Seamanship Actions' moves), not for a
ship pushed by a collision or cutting free. Terrain forced off is placed by the bot, not by a player: the same
piece, at the same place along the edge, against the table edge opposite the one it was forced off
(so well within Musket Shot of it); a piece that would lie on a ship there is set aside.
"""

from __future__ import annotations

from games.core.geometry import Base, Point, overlaps
from games.oak_and_iron.data import rules
from games.oak_and_iron.rules.off_table_5_2 import beyond_edge, off_table
from games.oak_and_iron.state import ShipState, State, TerrainPiece

OPTION = "scrolling_sea"


def scrolling(state: State) -> bool:
    """Whether the players chose the scrolling sea (the option ``scrolling_sea``)."""
    return state.options.get(OPTION, "no") == "yes"


def scroll_shift(state: State, end: Base) -> Point | None:
    """How far everything moves so that a move ending at ``end`` stays on the table (None: the
    option is off, or the move ends on the table anyway): on each axis the move went past an edge,
    Musket Shot, less where a ship would be carried off the far edge, but never less than the move
    went past (then the sea cannot scroll: ``scroll_table`` says so)."""
    if not scrolling(state) or not off_table(state, end):
        return None
    least = rules().distance("musket_shot")
    afloat = [c for s in state.ships if s.on_table for c in s.base.corners()]

    def along(ends: list[float], ships: list[float], size: float) -> float:
        if min(ends) < 0:  # off the low edge: everything moves up, as far as the ships allow
            over, room = -min(ends), size - max(ships)
            return max(over, min(least, room))
        if max(ends) > size:
            over, room = max(ends) - size, min(ships)
            return -max(over, min(least, room))
        return 0.0

    corners = end.corners()
    return (along([x for x, _ in corners], [x for x, _ in afloat], state.table_width),
            along([y for _, y in corners], [y for _, y in afloat], state.table_height))


def _moved(points: list[tuple[float, float]], d: Point) -> list[tuple[float, float]]:
    return [(x + d[0], y + d[1]) for x, y in points]


def _wrapped(state: State, points: list[tuple[float, float]], d: Point) -> list[tuple[float, float]]:
    """A piece forced off the table, set against the opposite edge (house): on each axis the table
    scrolled along, its side nearest the edge the ship sailed towards touches that edge."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    wx = -min(xs) if d[0] > 0 and max(xs) > state.table_width else state.table_width - max(xs) if d[0] < 0 and min(xs) < 0 else 0.0
    wy = -min(ys) if d[1] > 0 and max(ys) > state.table_height else state.table_height - max(ys) if d[1] < 0 and min(ys) < 0 else 0.0
    return _moved(points, (wx, wy))


def direction(d: Point) -> str:
    """The compass words for a scroll (north is the table's top edge, y = 0)."""
    ways = [w for w, on in (("north", d[1] < 0), ("south", d[1] > 0), ("west", d[0] < 0), ("east", d[0] > 0)) if on]
    return "-".join(ways)


def scroll_table(state: State, mover: ShipState, d: Point, notes: list[str]) -> bool:
    """Move every ship on the table (``mover`` still at its starting position), its Landing Party,
    the terrain and the last marks by ``d``; False, changing nothing, when a ship would leave the
    table."""
    afloat = [s for s in state.ships if s.on_table]
    pushed_off = [s.name for s in afloat if off_table(state, s.base.translated(d))]
    if pushed_off:
        notes.append(f"The sea cannot scroll (5.2 Scrolling Sea): it would carry {', '.join(pushed_off)} off the table.")
        return False
    size = max(abs(d[0]), abs(d[1]))
    short = " (less than Musket Shot, so that no ship is carried off the far edge)" \
        if min(abs(c) for c in d if c) < rules().distance("musket_shot") - 1e-9 else ""
    notes.append(f"The sea scrolls (5.2 Scrolling Sea): every ship and piece of terrain moves {size:.2f}\" "
                 f"{direction(d)}{short}.")
    for s in afloat:
        s.place(s.base.translated(d))
        if s.landing is not None:
            s.landing = (s.landing[0] + d[0], s.landing[1] + d[1])
    kept: list[TerrainPiece] = []
    for piece in state.terrain:
        points = _moved(piece.points, d)
        if beyond_edge(state, points):
            points = _wrapped(state, points, d)
            if any(overlaps(s.base.polygon(), points, tolerance=1e-6) for s in afloat):
                notes.append(f"{piece.label} is forced off the table and set aside: a ship lies where it would go.")
                continue
            notes.append(f"{piece.label} is forced off the table and placed against the opposite edge.")
        kept.append(TerrainPiece(piece.kind, piece.label, points))
    state.terrain = kept
    for mark in state.marks:
        mark.points = _moved(mark.points, d)
    return True
