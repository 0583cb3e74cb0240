"""Book section 12, Formations (with 4.1 basing): on the measured table (option board=measured) a
unit is a block of 1"-wide stands in column, line or skirmish order. Its footprint is one
rectangle (``games.core.geometry.Base``, the same geometry Oak & Iron measures with): the stands
shoulder to shoulder in a line (12.2), four infantry stands abreast in a manoeuvre column (12.1),
stands with a 1" gap in a skirmish screen (12.3), and (house, the book names squares only in 17.4.7
and 17.4.16) formed infantry's stands in a hollow square, each of its 4 faces ceil(stands / 4)
stands wide. Stand sizes and column widths are read from the
movement sheet (``data/days_of_iron/reference/sheets/movement.toml``, house where the book is silent).

It also sets the armies out at the start of the battle (16.2): each side's units in column in its
deployment zone, facing the enemy, brigade by brigade from the left; players then move them.
"""

from __future__ import annotations

import math

from games.core.geometry import (
    Base,
    Point,
    Polygon,
    add,
    bearing_vector,
    point_in_polygon,
    point_segment_distance,
    polygon_distance,
    scale,
)
from games.days_of_iron.data import house, rules, victory_sheet
from games.days_of_iron.schema import Arms
from games.days_of_iron.state import HIDDEN, OFF_BOARD, ON_TABLE, ROUTING, State, Unit

COLUMN, LINE, SKIRMISH = "column", "line", "skirmish"
FORMATIONS = (COLUMN, LINE, SKIRMISH)
SQUARE = "square"  # house: formed infantry in a hollow square (RULINGS.md, Squares); it does not move
SQUARE_FACES = 4  # a square's faces, its stands shared among them
MARCH = "march"  # 12.1: an infantry march column (formation "column" with ``Unit.march``), as orders name it
TOUCH = 0.05  # inches: bases closer than this touch
MIN_CONTACT = 1.0  # book 17.4.2, 17.4.15: "base-to-base contact with 1\" or more" is contact
SAMPLE = 0.05  # inches between the points a base's edges are sampled at to measure contact


SKIRMISH_CLASS = 2  # book 8.1: "Class 2 and above rated infantry may also fight in skirmish order"


def formation_bar(unit: Unit, formation: str) -> str:
    """Why a unit may not take a formation at all ("" if it may): Generals and engineers keep none,
    guns do not skirmish, Class 1 infantry fight only in close order (8.1), and only infantry tell a
    march column from a manoeuvre column (12.1); only infantry form square (house, 17.4.16)."""
    if formation == SQUARE and not (unit.type == "infantry" and not unit.dismounted):
        return (f"only formed infantry form square (17.4.16: \"infantry in square formations\"); {unit.name} is "
                f"{'dismounted cavalry' if unit.dismounted else unit.type}.")
    if unit.type in ("general", "engineer") or (unit.type == "artillery" and formation == SKIRMISH):
        return f"a {unit.type} cannot form {formation}."
    if formation == MARCH and not marches(unit):
        return (f"only infantry form march or manoeuvre columns; \"no such distinction is made for cavalry or "
                f"artillery columns\" (12.1): {unit.name}'s column is its march column.")
    if unit.type == "infantry" and formation == SKIRMISH and unit.cls < SKIRMISH_CLASS:
        return (f"{unit.name} is Class {unit.cls} infantry: only Class {SKIRMISH_CLASS} and above rated infantry "
                "may fight in skirmish order (8.1).")
    return ""


def square_bar(unit: Unit) -> str:
    """Why a unit may not form square from where it stands ("" if it may): 17.4.7 names "changing
    from line or column to square", so a skirmish screen closes up first and a march column first
    forms manoeuvre column or line (house: march to manoeuvre column is a change of its own)."""
    if shape(unit) == MARCH:
        return (f"{unit.name} is in march column: a square forms from line or column (17.4.7); form manoeuvre "
                "column or line first (house).")
    if unit.formation not in (LINE, COLUMN):
        return f"{unit.name} is in {unit.formation}: a square forms from line or column (17.4.7)."
    return ""


def square_against_cavalry(unit: Unit, enemy: Unit) -> int:
    """House (RULINGS.md, Squares 3): what a square gains when cavalry charge or fight it."""
    return rules().squares.against_cavalry if unit.formation == SQUARE and enemy.type == "cavalry" else 0


def square_side(unit: Unit) -> float:
    """A square's side in inches: each of its 4 faces ceil(stands / 4) stands wide (house)."""
    return math.ceil(max(1, unit.stands) / SQUARE_FACES) * house().movement.stands[arm(unit)][0]


def sheltered_in(state: State, unit: Unit) -> Unit | None:
    """The friendly square ``unit`` shelters inside (17.4.16), while it still stands there: the square
    on the table in good standing, in square, its centre where the unit huddles; else None."""
    if not unit.shelter:
        return None
    square = state.unit(unit.shelter)
    if square.status == ON_TABLE and square.formation == SQUARE and math.dist((square.x, square.y), (unit.x, unit.y)) < 1e-6:
        return square
    return None


def guests(state: State, square: Unit) -> list[Unit]:
    """The units sheltering inside a square (17.4.16)."""
    return [u for u in state.units if u.shelter == square.id and sheltered_in(state, u) is square]


def marches(unit: Unit) -> bool:
    """12.1: "Infantry units can form march or manoeuvre columns" (infantry on their own feet, not
    dismounted cavalry, who fight in skirmish order, 9.1)."""
    return unit.type == "infantry" and not unit.dismounted


def shape(unit: Unit) -> str:
    """The unit's formation as orders and the movement sheet name it: "march" for an infantry march
    column (12.1), else its formation."""
    return shape_in(unit, unit.formation)


def shape_in(unit: Unit, formation: str) -> str:
    """``shape`` of the unit were it in ``formation`` (its march column flag as it is)."""
    return MARCH if formation == COLUMN and unit.march else formation


def measured(state: State) -> bool:
    """Whether the bot keeps the units' positions (option board=measured)."""
    return state.options.get("board", "tape") == "measured"


def arm(unit: Unit) -> Arms:
    """The arm whose stand size and rates a unit uses (Generals have their own line in the sheet);
    dismounted cavalry are infantry (9.1, rules/dismounting_9_1.py)."""
    if unit.dismounted:
        return "infantry"
    return next((a for a in house().movement.stands if a == unit.type), "infantry")


def footprint(unit: Unit, formation: str | None = None) -> tuple[float, float]:
    """(width, depth) in inches of the unit's stands in a formation (12.1-12.3, 4.1); ``formation``
    "column" is a manoeuvre column, "march" a march column, None the unit's own."""
    mv = house().movement
    w, d = mv.stands[arm(unit)]
    if unit.shelter and formation is None:  # inside a square (17.4.16): huddled, half a stand each way, at its centre
        return (w / 2, d / 2)
    n = max(1, unit.stands)
    form = formation or shape(unit) or COLUMN
    if form == SQUARE:
        side = square_side(unit)
        return (side, side)
    if form == LINE:
        return (n * w, d)
    if form == SKIRMISH:
        return (n * w + (n - 1) * mv.formations.skirmish_gap, d)
    wide = mv.formations.march_width if form == MARCH else mv.formations.column_width.get(arm(unit), 1)
    abreast = min(n, wide)
    return (abreast * w, math.ceil(n / abreast) * d)


def base(unit: Unit, formation: str | None = None) -> Base:
    """The unit's footprint as a rectangle on the table: ``length`` along its facing is the depth."""
    width, depth = footprint(unit, formation)
    return Base((unit.x, unit.y), unit.facing, depth, width)


FAR_MARGIN = 1e-6  # inches: far more than the rounding of a corner's place


def far_apart(between: float, a: Base, b: Base, gap: float) -> bool:
    """Whether bases whose centres are ``between`` inches apart (or a base swept along a segment
    that far from the other's centre) are certainly more than ``gap`` apart: each lies within
    half its diagonal of its centre. A check may skip a unit that cannot come within its limit
    before working out polygons; what it finds and says for the others is the same."""
    return between - math.hypot(a.length, a.beam) / 2 - math.hypot(b.length, b.beam) / 2 > gap + FAR_MARGIN


def _edge_length_touching(a: Polygon, b: Polygon) -> float:
    """Inches of ``a``'s outline lying on or inside ``b`` (within ``TOUCH``), sampled."""
    total = 0.0
    for i, p in enumerate(a):
        q = a[(i + 1) % len(a)]
        length = math.dist(p, q)
        n = max(1, math.ceil(length / SAMPLE))
        for k in range(n):
            t = (k + 0.5) / n
            point = (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
            if point_in_polygon(point, b) or min(
                    point_segment_distance(point, b[j], b[(j + 1) % len(b)]) for j in range(len(b))) < TOUCH:
                total += length / n
    return total


def in_contact(a: Unit, b: Unit) -> bool:
    """17.4.2: "A unit needs to make base-to-base contact with 1\" or more of an enemy unit to be 'in
    contact'" (17.4.15: "if less than 1\" base contact, no 'contact' is deemed to take place"). A
    base narrower than 1" (a General) is in contact along its whole width."""
    ba, bb = base(a), base(b)
    if far_apart(math.dist(ba.centre, bb.centre), ba, bb, TOUCH):
        return False
    pa, pb = ba.polygon(), bb.polygon()
    if polygon_distance(pa, pb) >= TOUCH:
        return False
    need = min(MIN_CONTACT, *footprint(a), *footprint(b)) - SAMPLE
    return max(_edge_length_touching(pa, pb), _edge_length_touching(pb, pa)) >= need


def front_centre(unit: Unit) -> tuple[float, float]:
    """The middle of the unit's front edge: where the command stand stands and moves are measured from (17.4)."""
    return base(unit).edge_midpoint("bow")


def on_table(unit: Unit) -> bool:
    """Standing on the table and visible to everyone (not hidden, off board or gone)."""
    return bool(unit.formation) and unit.status in (ON_TABLE, ROUTING)


def deploy(state: State) -> list[str]:
    """Set out both armies in column in their deployment zones (16.2), the first side along the
    bottom edge facing up the table, the second along the top facing down. Each unit gets a slot as
    wide as its line, so it may form line where it stands (17.4.8: no unit ends on another's base);
    rows go back from the front of the zone when a row is full, and each General stands in the gap
    behind his brigade. Units on the table are placed first, so where they stand never depends on the
    hidden or off-board units (placed after them, out of sight until revealed or arriving)."""
    depth = float(min(rules().deployment.depth_inches, state.table_height // 2))
    for index, side in enumerate(state.sides):
        units = [u for u in state.units if u.side == side.id and u.status in (ON_TABLE, HIDDEN, OFF_BOARD)]
        troops = [u for u in units if u.type != "general" and u.status == ON_TABLE]
        staff = [u for u in units if u.type == "general" and u.status == ON_TABLE]
        rest = [u for u in units if u.status != ON_TABLE]
        bottom = index == 0
        rows = _set_out(state, troops, bottom=bottom, depth=depth, row_front=victory_sheet().set_out_front)
        _set_generals(state, staff, rows, bottom=bottom, depth=depth)
        back = rows[-1][0] + rows[-1][1] + victory_sheet().set_out_gap if rows else victory_sheet().set_out_front
        _set_out(state, rest, bottom=bottom, depth=depth, row_front=back)
    return ["The units are set out in column in their deployment zones, facing the enemy, each with room "
            "to form line where it stands and its General behind it (move them with `UNIT move N`, "
            "`UNIT form line`)."]


def slot(unit: Unit) -> float:
    """The room a unit set out takes along its row: its widest formation (line), at least the
    victory sheet's ``set_out_slot`` (house)."""
    return max(footprint(unit, LINE)[0], footprint(unit, COLUMN)[0], victory_sheet().set_out_slot)


def _place(state: State, unit: Unit, left: float, width: float, row_front: float, *, bottom: bool, depth: float) -> None:
    """Stand a unit in column in the slot ``left``..``left + width`` (inches from its own left), its
    front ``row_front`` inches behind the zone's front edge (kept inside the zone)."""
    unit.formation = COLUMN
    unit.facing = 0.0 if bottom else 180.0
    unit.moved = 0.0
    d = footprint(unit)[1]
    front = min(row_front, max(0.0, depth - d))
    centre_from_front = front + d / 2
    unit.y = state.table_height - depth + centre_from_front if bottom else depth - centre_from_front
    unit.x = left + width / 2 if bottom else state.table_width - left - width / 2


Row = tuple[float, float, list[Unit]]  # front (inches behind the zone's front), depth, the units in it


def _set_out(state: State, units: list[Unit], *, bottom: bool, depth: float, row_front: float) -> list[Row]:
    """Pack units left to right (from their own side) in rows from ``row_front`` backwards, each in a
    slot as wide as its line, the sheet's ``set_out_gap`` between rows (room for the Generals)."""
    rows: list[Row] = []
    margin, gap = victory_sheet().set_out_margin, victory_sheet().set_out_gap
    x = margin
    for unit in units:
        width = slot(unit)
        if not rows or (x + width > state.table_width - margin and x > margin):
            front = rows[-1][0] + rows[-1][1] + gap if rows else row_front
            rows.append((front, 0.0, []))
            x = margin
        front, row_depth, members = rows[-1]
        _place(state, unit, x, width, front, bottom=bottom, depth=depth)
        rows[-1] = (front, max(row_depth, footprint(unit)[1]), [*members, unit])
        x += width + 1.0
    return rows


def _set_generals(state: State, staff: list[Unit], rows: list[Row], *, bottom: bool, depth: float) -> None:
    """Each General in the gap behind the row holding his brigade, behind its middle (the army's own
    Generals behind the middle of the front row), pushed aside where he would touch another."""
    def own_x(u: Unit) -> float:
        return u.x if bottom else state.table_width - u.x

    def post(g: Unit) -> tuple[int, float]:
        for index, (_, _, members) in enumerate(rows):
            mine = [u for u in members if u.brigade == g.brigade and g.brigade]
            if mine:
                return index, sum(own_x(u) for u in mine) / len(mine)
        members = rows[0][2] if rows else []
        return 0, (sum(own_x(u) for u in members) / len(members) if members else state.table_width / 2)

    sheet = victory_sheet()
    floors: dict[int, float] = {}
    for g in sorted(staff, key=post):
        index, want = post(g)
        width, d = footprint(g)
        front = (rows[index][0] + rows[index][1] + (sheet.set_out_gap - d) / 2) if rows else sheet.set_out_front
        left = min(max(want - width / 2, floors.get(index, sheet.set_out_margin)),
                   state.table_width - sheet.set_out_margin - width)
        _place(state, g, left, width, front, bottom=bottom, depth=depth)
        floors[index] = left + width + 1.0


def reform(unit: Unit, formation: str, front: Point | None = None) -> None:
    """Change formation about the command stand (17.4): the front edge's centre stays (``front``:
    where it stood before the unit's stands changed), the unit forms up in the direction it faces.
    ``formation`` may be "march": an infantry march column (12.1). Into or out of square the unit's
    centre stays instead (house: the square forms about its middle)."""
    if SQUARE in (formation, unit.formation):
        unit.formation, unit.march = (COLUMN, True) if formation == MARCH else (formation, False)
        return
    front = front or front_centre(unit)
    unit.formation, unit.march = (COLUMN, True) if formation == MARCH else (formation, False)
    _, depth = footprint(unit)
    unit.x, unit.y = add(front, scale(base(unit).forward, -depth / 2))


def arc_degrees(unit: Unit) -> float:
    """How far out to each side of straight ahead a unit fires (17.3): 45 degrees, the
    Mitrailleuse 22.5 (book)."""
    return 22.5 if unit.gun == "mitrailleuse" else 45.0


def firing_arc(unit: Unit, reach: float) -> tuple[tuple[float, float], ...]:
    """The unit's field of fire (17.3): from its front corners, ``arc_degrees`` out to each side of
    straight ahead, to ``reach`` inches: a polygon of front corners and the arc's far points."""
    b = base(unit)
    bow_port, bow_starboard, _, _ = b.corners()
    spread = arc_degrees(unit)
    far_left = add(bow_port, scale(bearing_vector(unit.facing - spread), reach))
    far_right = add(bow_starboard, scale(bearing_vector(unit.facing + spread), reach))
    ahead_left = add(bow_port, scale(b.forward, reach))
    ahead_right = add(bow_starboard, scale(b.forward, reach))
    return (bow_port, far_left, ahead_left, ahead_right, far_right, bow_starboard)
