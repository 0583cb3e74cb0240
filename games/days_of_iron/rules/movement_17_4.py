"""Book section 17.4, the Movement Phase, on the measured table (option board=measured): a unit
moves straight ahead from its command stand's front edge, wheels on a front corner (the outer arc
costs double), changes formation about its command stand, or makes a forced march in column
(12.1). Its allowance is the movement sheet's rate for its arm and the formation it started the
phase in (``data/days_of_iron/reference/sheets/movement.toml``: house numbers until an owner's sheet
replaces them). A unit may not end within 1" of an enemy it can see and has not charged, nor
leave the table. ``measure`` gives the edge-to-edge distance between two units a seat can see.

Hidden enemies (16.4) are not on the table until revealed: a move never stops short of one, so
a refusal can never tell a player where an enemy hides.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence

from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.core.geometry import (
    Base,
    Point,
    Polygon,
    angle_diff,
    bearing_of,
    clip_half_plane,
    convex_hull,
    cross,
    oriented,
    overlaps,
    point_in_polygon,
    point_segment_distance,
    polygon_distance,
    scale,
    signed_area,
    sub,
)
from games.core.ruleset import UMPIRE, Event, private, public
from games.days_of_iron.data import house
from games.days_of_iron.orders import Face, Form, Measure, Move
from games.days_of_iron.rules.formations_12 import (
    COLUMN,
    FORMATIONS,
    LINE,
    MARCH,
    SKIRMISH,
    SQUARE,
    arm,
    base,
    far_apart,
    footprint,
    formation_bar,
    guests,
    marches,
    on_table,
    reform,
    shape,
    sheltered_in,
    square_bar,
)
from games.days_of_iron.state import (
    DISORDERED,
    GOOD,
    HIDDEN,
    OFF_BOARD,
    ON_TABLE,
    SETUP,
    SHAKEN,
    STAFF,
    STEPS,
    TURN,
    State,
    TerrainPiece,
    Unit,
)

EPS = 1e-6
FORCED_MARCH_CLEARANCE = 12.0  # book 17.4.5: forced marches not within 12" of a visible formed enemy
FOOT_ONLY = {"heavy-wood": "15.8", "swamp": "15.6"}  # terrain only foot troops enter (book section)
MOUNTED_ARMS = ("cavalry", "artillery")  # 15.6, 15.8: not "units on foot"
CLEAR_STEP = 0.1  # inches: the step in which the bot looks for where a move, impulse or evade may end


HORSE_ARTILLERY = "horse-artillery"  # the order-of-battle modifier (5.4) that makes a battery horse artillery (10.3)
LIMBER_CASUALTIES_TO_FOOT = 2  # book (10.3): "two limber casualties" and a horse battery moves as foot artillery


def horse_artillery(unit: Unit) -> bool:
    """Whether the battery still moves as horse artillery (10.3): horse artillery in its order of
    battle, and fewer than two limber casualties ("If a Horse battery suffers two limber casualties
    ... it may only move as limbered foot artillery")."""
    return HORSE_ARTILLERY in unit.modifiers and unit.limber_casualties < LIMBER_CASUALTIES_TO_FOOT


def fmt(inches: float) -> str:
    """Inches as players write them: ``6``, ``6.5``, ``3.14``."""
    return f"{inches:.2f}".rstrip("0").rstrip(".")


def used(state: State, unit: Unit) -> float:
    """Inches of its allowance the unit has spent this turn."""
    return unit.moved if unit.moved_turn == state.turn else 0.0


def start_formation(state: State, unit: Unit) -> str:
    """The formation the unit started this Movement Phase in (a march column is "march", 12.1): it
    sets the rate (17.4)."""
    return unit.start_formation if unit.moved_turn == state.turn and unit.start_formation else shape(unit)


def allowance(state: State, unit: Unit, forced: bool = False) -> float:
    """The unit's full allowance this phase from the movement sheet (forced march: march column, 12.1):
    the rate of the formation it started the phase in, or, once it has changed formation, the lower
    of the two (17.4.3: "the formation with the lowest movement allowance, of the two the unit uses,
    determines how much movement remains")."""
    mv = house().movement
    rates = mv.rates[arm(unit)]
    rate = rates.of(start_formation(state, unit))
    if unit.formation in (*FORMATIONS, SQUARE):
        rate = min(rate, rates.of(shape(unit)))
    return rate * (1 + mv.costs.forced_march_bonus) if forced else rate


def rate_label(state: State, unit: Unit) -> str:
    """Which rate the allowance is: the starting formation's, or after a change the slower one's (17.4.3)."""
    start, now = start_formation(state, unit), shape(unit)
    if now == start:
        return f"{start} rate"
    rates = house().movement.rates[arm(unit)]
    return f"{min((start, now), key=rates.of)} rate, the slower of {start} and {now}"


def left(state: State, unit: Unit, forced: bool = False) -> float:
    """Inches of its allowance the unit still has this turn (17.4)."""
    return max(0.0, allowance(state, unit, forced) - used(state, unit))


def wheel_cost(unit: Unit, degrees: float) -> float:
    """The outer arc of a wheel on a front corner, doubled (17.4): width x angle in radians x factor."""
    width, _ = footprint(unit)
    return width * math.radians(degrees) * house().movement.costs.wheel_factor


def move_going(state: State, unit: Unit, order: Move) -> tuple[Going, list[Unit]]:
    """What a move costs (``going``: its straight part over the ground, 17.4.4; the wheel's doubled
    outer arc on top, 17.4.6) and the friendly lines it passes through (17.4.9)."""
    start = base(unit)
    passed = lines_passed(state, unit, start, moved_base(unit, order))
    way = going(state, unit, start, order.inches, passed)
    wheel = wheel_cost(unit, order.degrees) if order.degrees else 0.0
    return dataclasses.replace(way, cost=way.cost + wheel), passed


def moved_base(unit: Unit, order: Move) -> Base:
    """Where the unit's footprint ends: straight ahead, then the wheel on the inner front corner."""
    b = base(unit).moved(order.inches)
    if order.turn and order.degrees:
        bow_port, bow_starboard, _, _ = b.corners()
        b = b.pivoted(bow_port, -order.degrees) if order.turn == "left" else b.pivoted(bow_starboard, order.degrees)
    return b


def visible_enemies(state: State, side: str) -> list[Unit]:
    """Enemy units standing on the table (hidden ones are not there until revealed, 16.4)."""
    return [u for u in state.units if u.side != side and on_table(u)]



def pieces_under(state: State, polygon: Sequence[Point]) -> list[TerrainPiece]:
    """The terrain pieces (15) a footprint or swept area overlaps."""
    return [t for t in state.terrain if overlaps(polygon, [(p[0], p[1]) for p in t.points])]


def _crossings(moving: Sequence[Point], way: Point, fixed: Sequence[Point]) -> list[float]:
    """The distances along ``way`` (a unit vector) at which a corner of ``moving`` crosses the line of
    an edge of ``fixed`` or a corner of ``fixed`` crosses the line of an edge of ``moving``: between
    two of them neither overlapping nor lying wholly inside changes (a superset of the places where
    they do)."""
    out: list[float] = []
    for corners, edges, sign in ((moving, fixed, -1.0), (fixed, moving, 1.0)):  # a moving edge meets a corner the other way
        for i, q in enumerate(edges):
            edge = sub(edges[(i + 1) % len(edges)], q)
            across = cross(edge, way)
            if abs(across) > EPS:
                out += [sign * cross(edge, sub(p, q)) / across for p in corners]
    return out


@dataclasses.dataclass(frozen=True)
class Going:
    """What a straight move costs over the ground (17.4.4, section 15): ``cost`` in inches of
    allowance, and the slowest (or, all fast, the fastest) multiplier met and what set it."""

    cost: float
    factor: float
    slowest: str


def _ground_at(state: State, unit: Unit, where: Base, pieces: Sequence[TerrainPiece],
               passed: Sequence[Unit]) -> tuple[float, str]:
    """The multiplier where the unit's footprint stands now: the slowest non-water piece under it
    (section 15; rivers are refused outright, ``impassable``); else, for a column wholly on a road,
    the road's bonus (15.2); lowered to the passage-of-lines multiplier while it overlaps a friendly
    line it passes through (17.4.9, house)."""
    types = house().terrain
    outline_now = where.polygon()
    under = [p for p in pieces if overlaps(outline_now, outline(p))]
    slow = [(types[p.type].move, p.name) for p in under if not types[p.type].water and types[p.type].move < 1]
    factor, name = min(slow) if slow else (1.0, "")
    if not slow and unit.formation == COLUMN:
        roads = [(types[p.type].move, p.name) for p in under if types[p.type].move > 1
                 and all(point_in_polygon(q, outline(p), 1e-6) for q in outline_now)]
        factor, name = max(roads) if roads else (1.0, "")
    penalty = house().movement.costs.passage_of_lines
    friend = next((f for f in passed if overlaps(outline_now, base(f).polygon())), None)
    if friend is not None and 0 < penalty < factor:
        factor, name = penalty, friend.name
    return factor, name


def _legs(state: State, unit: Unit, start: Base, inches: float, passed: Sequence[Unit]) -> list[tuple[float, float, str]]:
    """The straight move cut where the ground under the footprint changes: (inches, multiplier,
    what sets it) for each stretch in turn (17.4.4: only the ground moved over slows the move)."""
    if inches <= EPS:
        return []
    end = start.moved(inches)
    swept = convex_hull([*start.polygon(), *end.polygon()])
    pieces = pieces_under(state, swept)
    friends = [f for f in passed if overlaps(swept, base(f).polygon())]
    first = start.polygon()
    cuts = {0.0, inches}
    for area in [outline(p) for p in pieces] + [base(f).polygon() for f in friends]:
        cuts.update(c for c in _crossings(first, start.forward, area) if EPS < c < inches - EPS)
    ordered = sorted(cuts)
    legs: list[tuple[float, float, str]] = []
    for a, b in itertools.pairwise(ordered):
        if b - a <= EPS:
            continue
        factor, name = _ground_at(state, unit, start.moved((a + b) / 2), pieces, friends)
        if legs and legs[-1][1:] == (factor, name):
            legs[-1] = (legs[-1][0] + b - a, factor, name)
        else:
            legs.append((b - a, factor, name))
    return legs


def going(state: State, unit: Unit, start: Base, inches: float, passed: Sequence[Unit]) -> Going:
    """17.4.4: "Moving over certain types of terrain reduces unit movement": each stretch of the
    straight move costs its length divided by the multiplier of the ground under the footprint there
    (house reading, RULINGS.md 17.4.4): a move ending a little inside a wood pays the wood's rate only
    for the part in it, so one order costs what the same ground split into several orders costs."""
    legs = _legs(state, unit, start, inches, passed)
    cost = sum(length / factor for length, factor, _ in legs)
    slow = [(factor, name) for _, factor, name in legs if name and factor < 1]
    fast = [(factor, name) for _, factor, name in legs if name and factor > 1]
    factor, slowest = min(slow) if slow else max(fast) if fast else (1.0, "")
    return Going(cost, factor, slowest)


def reach(state: State, unit: Unit, room: float, forced: bool = False) -> float:
    """The farthest straight move (no wheel) whose cost over the ground fits ``room`` inches of
    allowance (``going`` inverted; 17.4.4), before any other check (units, rivers, the table edge)."""
    start = base(unit)
    longest = room / min(1.0, house().movement.costs.passage_of_lines, *(
        t.move for t in house().terrain.values() if t.move > 0))
    passed = lines_passed(state, unit, start, start.moved(longest))
    done = spent = 0.0
    for length, factor, _ in _legs(state, unit, start, longest, passed):
        if spent + length / factor >= room - EPS:
            return done + (room - spent) * factor
        done, spent = done + length, spent + length / factor
    return done


def impassable(state: State, start: Base, end: Base) -> str:
    """15.3: the river a move (its straight part and its wheel) would cross away from every bridge
    and ford wholly covering its path over the water ("" if none)."""
    swept = convex_hull([*start.polygon(), *end.polygon()])
    types = house().terrain
    river = next((p for p in pieces_under(state, swept) if types[p.type].water and uncrossed(state, swept, p)), None)
    return river.name if river is not None else ""


def outline(piece: TerrainPiece) -> list[Point]:
    """A terrain piece's convex outline as points."""
    return [(p[0], p[1]) for p in piece.points]


def intersection(a: Sequence[Point], b: Sequence[Point]) -> Polygon:
    """The common part of two convex polygons (``a`` clipped by each edge of ``b``)."""
    ring = oriented(b)
    out: Polygon = tuple(a)
    for i, p in enumerate(ring):
        edge = sub(ring[(i + 1) % len(ring)], p)
        if out:
            out = clip_half_plane(out, p, (-edge[1], edge[0]))
    return out


def uncrossed(state: State, area: Sequence[Point], water: TerrainPiece) -> bool:
    """15.3, 15.4: some of ``area`` lies in the river outside every bridge and ford over it: each
    corner of the part in the river must lie in one crossing piece (convex, so all of it does)."""
    wet = intersection(area, outline(water))
    if len(wet) < 3 or abs(signed_area(wet)) < EPS:
        return False
    types = house().terrain
    return not any(types[c.type].crossing and all(point_in_polygon(p, outline(c), 1e-6) for p in wet)
                   for c in state.terrain)


def in_water(state: State, footprint: Base) -> TerrainPiece | None:
    """The river a unit's footprint stands in away from a bridge or ford (15.3), if any: a unit
    whose compulsory rout ends there drowns, surrenders or disperses and is removed (17.5.1;
    rules/routing_17_4_14.py may call this too)."""
    types = house().terrain
    area = footprint.polygon()
    return next((t for t in pieces_under(state, area) if types[t.type].water and uncrossed(state, area, t)), None)


def closed_to(state: State, unit: Unit, start: Base, end: Base) -> TerrainPiece | None:
    """15.6: "Swamps are impassable to all but infantry and dismounted cavalry units"; 15.8: "only
    units on foot ... can pass through heavy woods, unless on a road". The swamp or heavy wood a
    mounted unit's move (horse or guns) would enter, if any; in a wood, the part on a road is open."""
    if arm(unit) not in MOUNTED_ARMS:
        return None
    swept = convex_hull([*start.polygon(), *end.polygon()])
    for piece in pieces_under(state, swept):
        if piece.type not in FOOT_ONLY:
            continue
        inside = intersection(swept, outline(piece))
        if len(inside) < 3 or abs(signed_area(inside)) < EPS:
            continue
        on_road = piece.type == "heavy-wood" and any(
            t.type == "road" and all(point_in_polygon(p, outline(t), 1e-6) for p in inside) for t in state.terrain)
        if not on_road:
            return piece
    return None


def closed_text(unit: Unit, piece: TerrainPiece) -> str:
    """Why a mounted unit may not go into ``piece`` (15.6, 15.8)."""
    return (f"{unit.name} ({unit.type}) cannot enter {piece.name}: only units on foot pass through "
            f"{'swamps' if piece.type == 'swamp' else 'heavy woods (off the roads)'} ({FOOT_ONLY[piece.type]}).")


def lines_passed(state: State, unit: Unit, start: Base, end: Base) -> list[Unit]:
    """17.4.9: the friendly LINES a move goes through (a passage of lines: "the replacing unit moves
    through a line to its immediate front"), not counting one it already overlapped where it started.
    Generals and engineers move among the troops freely, anyone may pass through a deployed battery
    (17.4.8), and the book says nothing of passing through columns or skirmishers (left free, house)."""
    if unit.type in ("general", "engineer"):
        return []
    swept = convex_hull([*start.polygon(), *end.polygon()])
    return [f for f in state.units if f.side == unit.side and f.id != unit.id and on_table(f)
            and f.type in ("infantry", "cavalry") and f.formation == LINE
            and overlaps(swept, base(f).polygon()) and not overlaps(start.polygon(), base(f).polygon())]


def limbered_passed(state: State, unit: Unit, start: Base, end: Base) -> Unit | None:
    """17.4.8: troops pass through a deployed battery, but "this cannot be done through a massed or
    limbered battery": the friendly limbered battery (a battery in column) the move goes through."""
    if unit.type == "general":
        return None
    swept = convex_hull([*start.polygon(), *end.polygon()])
    return next((f for f in state.units if f.side == unit.side and f.id != unit.id and on_table(f)
                 and f.type == "artillery" and f.formation == COLUMN
                 and overlaps(swept, base(f).polygon()) and not overlaps(start.polygon(), base(f).polygon())), None)


def passed_lines(state: State, unit: Unit) -> bool:
    """Whether the unit made a passage of lines this turn: it may not charge (17.4.9)."""
    return unit.passage_turn == state.turn


def _check_passage(state: State, unit: Unit, start: Base, end: Base, passed: list[Unit]) -> None:
    """17.4.9: only Class 2 and better, in the open or a light wood (house: ground that gives no
    cover, or a light wood), and not by a unit charging this turn."""
    if unit.cls < 2:
        raise IllegalOrder(f"{unit.name} (Class {unit.cls}) may not pass through {passed[0].name}: only Class 2 "
                           f"and better units make a passage of lines (17.4.9).")
    types = house().terrain
    swept = convex_hull([*start.polygon(), *end.polygon()])
    rough = [p for p in pieces_under(state, swept)
             if not (types[p.type].cover == "none" and types[p.type].move >= 0.75 and not types[p.type].water)
             and not (types[p.type].cover == "light" and types[p.type].blocks_sight)]
    if rough:
        raise IllegalOrder(f"a passage of lines (through {passed[0].name}) is made only in the open or a light "
                           f"wood (17.4.9); {rough[0].name} is in the way.")
    if unit.charge_turn == state.turn and unit.charging:
        raise IllegalOrder(f"{unit.name} is charging this turn and may not pass through {passed[0].name} (17.4.9).")


def fords_crossed(state: State, start: Base, end: Base) -> list[TerrainPiece]:
    """The fords (15.4) a move's path touches."""
    swept = convex_hull([*start.polygon(), *end.polygon()])
    types = house().terrain
    return [t for t in pieces_under(state, swept) if types[t.type].crossing == "ford"]


def obstacles_crossed(state: State, start: Base, end: Base) -> list[TerrainPiece]:
    """15.10: the obstacles (walls, hedges, fortifications) a move goes into or over; one the unit
    only comes up against (its path touching but not entering the piece) is defended, not crossed."""
    swept = convex_hull([*start.polygon(), *end.polygon()])
    types = house().terrain
    return [t for t in pieces_under(state, swept) if types[t.type].obstacle
            and len(inside := intersection(swept, outline(t))) >= 3 and abs(signed_area(inside)) > EPS
            and not overlaps(start.polygon(), outline(t))]


def in_the_way(state: State, unit: Unit, end: Base, *, ignore: frozenset[str] = frozenset()) -> Unit | None:
    """17.4.8-17.4.9: units pass through friends (a deployed battery, a line by a passage of lines)
    but no unit ENDS on another's base, friend or enemy: the first unit standing on the table where
    ``end`` would put ``unit``. Generals ride among the troops: they neither block nor are blocked
    (house). Hidden enemies are not on the table, so a refusal never tells where one hides."""
    if unit.type == "general":
        return None
    outline = end.polygon()
    return next((o for o in state.units if o.id != unit.id and o.id not in ignore and o.type != "general"
                 and on_table(o) and _may_overlap(end, base(o)) and overlaps(outline, base(o).polygon())), None)


def _may_overlap(a: Base, b: Base) -> bool:
    """False when two bases are certainly apart (``far_apart``): ``overlaps`` would say so too."""
    return not far_apart(math.dist(a.centre, b.centre), a, b, 0.0)


def farthest_clear(state: State, unit: Unit, order: Move) -> float | None:
    """The longest move short of ``order.inches`` (the same wheel) that ends on no unit, to the
    bot's 0.1" step; None when even staying put (and wheeling) would."""
    reach = math.hypot(*footprint(unit)) * 2 + order.inches
    near = [o for o in state.units if o.id != unit.id and on_table(o)
            and math.hypot(o.x - unit.x, o.y - unit.y) <= reach + math.hypot(*footprint(o))]
    saved = state.units
    try:
        state.units = [unit, *near]
        for i in range(int(order.inches / CLEAR_STEP + EPS), -1, -1):
            trial = dataclasses.replace(order, inches=round(i * CLEAR_STEP, 6))
            if in_the_way(state, unit, moved_base(unit, trial)) is None:
                return trial.inches
    finally:
        state.units = saved
    return None


def run_stopper(state: State, unit: Unit, start: Base, end: Base, target: str, ignore: frozenset[str]) -> str:
    """Why a push straight from ``start`` may not reach ``end`` ("" if it may): it would end on
    another unit's base (17.4.8; one it already stood on does not count), or its path enters a
    river outside its crossings (15.3)."""
    outline, first = end.polygon(), start.polygon()
    for o in state.units:
        if o.id in (unit.id, target) or o.id in ignore or o.type == "general" or not on_table(o):
            continue
        there = base(o).polygon()
        if overlaps(outline, there) and not overlaps(first, there):
            return o.name
    return impassable(state, start, end)


def clear_run(state: State, unit: Unit, start: Base, direction: Point, inches: float, *, target: str = "",
              ignore: frozenset[str] = frozenset()) -> tuple[float, str]:
    """How far a unit pushed straight along ``direction`` (a charge's impulse, an evade) goes, up to
    ``inches``: it stops at the last place before the first one ``run_stopper`` refuses (0.1" steps,
    then halved ten times): (inches, what stopped it or "")."""
    done = 0.0
    steps = max(1, math.ceil(inches / CLEAR_STEP - EPS))
    for i in range(1, steps + 1):
        d = min(inches, i * CLEAR_STEP)
        why = run_stopper(state, unit, start, start.translated(scale(direction, d)), target, ignore)
        if why:
            lo, hi = done, d
            for _ in range(10):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if not run_stopper(state, unit, start, start.translated(scale(direction, mid)),
                                                      target, ignore) else (lo, mid)
            return round(lo, 6), why
        done = d
    return inches, ""


def too_near(state: State, unit: Unit, start: Base, end: Base, target: str,
             ignore: frozenset[str] = frozenset()) -> str:
    """17.4: the enemy other than ``target`` (and those in ``ignore``) that ``end`` would bring the
    unit within 1" of, closer than it stood at ``start`` ("" if none)."""
    clearance = house().movement.costs.enemy_clearance
    outline, first = end.polygon(), start.polygon()
    for o in visible_enemies(state, unit.side):
        if o.id == target or o.id in ignore or (o.type in STAFF and o.attached):
            continue
        there = base(o).polygon()
        if polygon_distance(outline, there) < min(clearance, polygon_distance(first, there)) - EPS:
            return o.name
    return ""


def back_off(state: State, unit: Unit, start: Base, direction: Point, inches: float, target: str = "",
             ignore: frozenset[str] = frozenset()) -> tuple[float, str]:
    """Shorten a push that would END within 1" of an enemy it did not charge (17.4), in 0.1" steps:
    (inches, the enemy that shortened it or "")."""
    why = too_near(state, unit, start, start.translated(scale(direction, inches)), target, ignore)
    if not why:
        return inches, ""
    d = inches
    while d > EPS and too_near(state, unit, start, start.translated(scale(direction, d)), target, ignore):
        d = max(0.0, round(d - CLEAR_STEP, 6))
    return d, why


def check_movement_order(state: State, seat: str, unit: Unit, text: str) -> None:
    """Movement orders belong to the acting side's part of the Movement Phase (17.4), for its own
    units standing on the table and not routing."""
    if state.phase != TURN or STEPS[state.step] != "Movement":
        raise WrongPhase("units move in the Movement phase.", hint="Say `next` to reach it.")
    if seat not in (UMPIRE, state.acting_side()):
        raise NotYourTurn(f"the {state.side_name(state.acting_side())} move now.")
    if unit.side != state.acting_side():
        raise IllegalOrder(f"{unit.name} belongs to the {state.side_name(unit.side)}; the "
                           f"{state.side_name(state.acting_side())} move now.")
    if not on_table(unit) or unit.status != ON_TABLE:
        raise IllegalOrder(f"{unit.name} is not standing on the table in good order.")


def charge_not_home(state: State, side: str) -> Unit | None:
    """A unit of ``side`` whose charge passed its To Charge test this turn and has made neither its
    2nd Impulse nor a feint (17.4.1: those moves come before normal movement)."""
    return next((u for u in state.units if u.side == side and u.charging and u.charge_turn == state.turn
                 and u.home_turn != state.turn and on_table(u) and u.status == ON_TABLE), None)


def check_normal_movement(state: State, seat: str, unit: Unit, text: str) -> None:
    """17.4.1: "The order of movement of units is: routers, 2nd impulse movements and then normal
    movements (including 1st impulse movements)": routers have run when the side's part began (rules/
    routing_17_4_14.py); a normal move, formation change or opportunity charge waits for the side's
    charges to go home (or feint). 17.4.2: "2nd Impulse moves occur before normal movement and no
    formation changes, wheeling or changing of direction is allowed": nor does the charger itself
    move, form or turn before its own."""
    check_movement_order(state, seat, unit, text)
    if unit.charging and unit.charge_turn == state.turn and unit.home_turn != state.turn:
        raise IllegalOrder(f"{unit.name} is charging: its 2nd Impulse comes first, and no formation change, wheeling "
                           "or changing of direction is allowed before it (17.4.2).",
                           hint=f"`{unit.id} charge home`, or `{unit.id} feint` if it may.")
    charger = charge_not_home(state, unit.side)
    if charger is not None:
        raise IllegalOrder(f"{charger.name}'s charge has not gone in: 2nd Impulse moves come before normal "
                           "movement (17.4.1).", hint=f"`{charger.id} charge home` or `{charger.id} feint` first.")


def check_move(state: State, seat: str, order: Move) -> Move:
    """17.4: the whole move, wheel included at double cost, fits the allowance; forced marches are
    in column; the unit ends on the table and not within 1" of a visible enemy."""
    unit = state.unit(order.unit)
    check_normal_movement(state, seat, unit, order.text)
    check_not_square(unit)
    if unit.shelter:  # leaving a square it sheltered in (17.4.16): it sets out from there at its own size
        inside, unit.shelter = unit.shelter, ""
        try:
            return check_move(state, seat, order)
        finally:
            unit.shelter = inside
    if (order.turn is None) != (order.degrees is None):
        raise IllegalOrder("write the wheel as `wheel left 30` or `wheel right 30`.")
    if order.forced:
        _check_march_column(state, unit)
    _check_brigade_march(state, unit, order)
    end = moved_base(unit, order)
    river = impassable(state, base(unit), end)
    if river:
        raise IllegalOrder(f"{unit.name} cannot cross {river} (15.3: only at bridges and fords).")
    way, passed = move_going(state, unit, order)
    closed = closed_to(state, unit, base(unit), end)
    if closed is not None:
        raise IllegalOrder(closed_text(unit, closed))
    fords = fords_crossed(state, base(unit), end)
    if fords and unit.formation != COLUMN:
        raise IllegalOrder(f"{unit.name} must be in column to cross {fords[0].name} (15.4); it is in {unit.formation}.",
                           hint=f"`{unit.id} form column` first.")
    if passed:
        _check_passage(state, unit, base(unit), end, passed)
    limbered = limbered_passed(state, unit, base(unit), end)
    if limbered is not None:
        raise IllegalOrder(f"{unit.name} may not pass through {limbered.name}: troops pass through a deployed battery, "
                           "never a limbered one (17.4.8).", hint=f"Go round it, or wait until {limbered.name} unlimbers.")
    room = left(state, unit, order.forced)
    if way.cost > room + EPS:
        raise IllegalOrder(f"that costs {fmt(way.cost)}\" and {unit.name} has {fmt(room)}\" left "
                           f"this turn ({rate_label(state, unit)} {fmt(allowance(state, unit, order.forced))}\").",
                           hint=_dear_hint(state, unit, order, way, passed, room))
    _check_on_table(state, order.text, end)
    clearance = house().movement.costs.enemy_clearance
    for enemy in visible_enemies(state, unit.side):
        there = base(enemy)
        if far_apart(math.dist(end.centre, there.centre), end, there, clearance):
            continue
        gap = polygon_distance(end.polygon(), there.polygon())
        if gap < clearance - EPS:
            raise IllegalOrder(f"it would end {fmt(gap)}\" from {enemy.name}; a unit may not come "
                               f"within {fmt(clearance)}\" of an enemy it has not charged (17.4).")
    _check_path_clear(state, unit, end, clearance)
    _check_end_clear(state, unit, order, end)
    if order.forced:
        _check_forced_clearance(state, unit, end)
    return order


def _dear_hint(state: State, unit: Unit, order: Move, way: Going, passed: list[Unit], room: float) -> str:
    """What makes a move too dear, and the farthest straight move the allowance pays for (17.4.4)."""
    slows = ""
    if way.slowest and way.factor < 1:
        why = "a passage of lines, 17.4.9" if passed and way.slowest == passed[0].name else "17.4.4, section 15"
        slows = f"{way.slowest} slows it (x{fmt(way.factor)}; {why}) for the part of the move over it. "
    wheel = "A wheel costs double its outer arc (17.4). " if order.degrees else ""
    most = math.floor(reach(state, unit, room, order.forced) * 100 + EPS) / 100
    forced = " forced" if order.forced else ""
    return slows + wheel + (f"Straight ahead it can go {fmt(most)}\" (`{unit.id} move {fmt(most)}{forced}`)."
                            if most > 0 else "")


def _check_path_clear(state: State, unit: Unit, end: Base, clearance: float) -> None:
    """17.4: "A unit cannot come within 1\" of an enemy unit it has not charged" on the way either:
    the ground the move sweeps (house: the hull of where it starts and ends) keeps 1" from every
    enemy it can see, or no nearer than it already stood."""
    began = base(unit)
    start = began.polygon()
    path = convex_hull([*start, *end.polygon()])
    for enemy in visible_enemies(state, unit.side):
        standing = base(enemy)
        # the swept ground lies within half the unit's diagonal (the larger, start or end) of the
        # segment its centre moves along
        along = point_segment_distance(standing.centre, began.centre, end.centre)
        if far_apart(along, began, standing, clearance) and far_apart(along, end, standing, clearance):
            continue
        there = standing.polygon()
        gap = polygon_distance(path, there)
        # gap < min(clearance, to start) - EPS, the second distance only when the first part holds
        if gap < clearance - EPS and gap < polygon_distance(start, there) - EPS:
            raise IllegalOrder(f"on the way it would pass {fmt(gap)}\" from {enemy.name}; a unit may not come "
                               f"within {fmt(clearance)}\" of an enemy it has not charged (17.4).",
                               hint="Go round, keeping 1\" from it.")


def _check_march_column(state: State, unit: Unit) -> None:
    """12.1: "A March column is 1-2 stands wide and is used to may make forced marches"; 17.4.5:
    "Units, which must be in march column, can force march": infantry that started the phase in
    march column; cavalry, guns and the rest from their column ("no such distinction is made for
    cavalry or artillery columns", 12.1)."""
    need = MARCH if marches(unit) else COLUMN
    if start_formation(state, unit) == need:
        return
    if need == MARCH:
        raise IllegalOrder(f"only a unit that started the phase in march column may force march (12.1, 17.4.5); "
                           f"{unit.name} started it in {start_formation(state, unit)}.",
                           hint=f"`{unit.id} form march` now (1-2 stands wide, 12.1), then force march next turn.")
    raise IllegalOrder("only a unit that started the phase in column may force march (12.1, 17.4.5).")


def _brigade_mates(state: State, unit: Unit) -> list[Unit]:
    """The unit's brigade on the table, Generals aside (17.4.5 speaks of the brigade's units)."""
    return [u for u in state.units if u.brigade and u.brigade == unit.brigade and u.id != unit.id
            and u.type != "general" and on_table(u)]


def _check_brigade_march(state: State, unit: Unit, order: Move) -> None:
    """17.4.5, "units cannot force march unless their whole brigade makes a forced march" (house
    reading, checked order by order): once a unit of the brigade has force marched this turn, its
    brigade-mates move only by forced march (or stay put); once one has moved, formed or charged
    otherwise, none of them force marches this turn."""
    if unit.type == "general":
        return
    mates = _brigade_mates(state, unit)
    if order.forced:
        other = next((u for u in mates if u.moved_turn == state.turn and u.moved > 0 and u.forced_turn != state.turn), None)
        if other is not None:
            raise IllegalOrder(f"{other.name} of the same brigade has moved this turn without a forced march: a unit "
                               "force marches only when its whole brigade does (17.4.5).",
                               hint=f"`{unit.id} move N` without `forced`.")
        return
    marcher = next((u for u in mates if u.forced_turn == state.turn), None)
    if marcher is not None:
        raise IllegalOrder(f"{marcher.name} of the same brigade has force marched this turn: the whole brigade "
                           "makes the forced march (17.4.5), so its units move only with `forced` this turn.",
                           hint=f"`{unit.id} move N forced` (from column), or leave it where it is.")


def _check_forced_clearance(state: State, unit: Unit, end: Base) -> None:
    """17.4.5: "Brigades making forced marches can not move within 12" of a *visible* formed enemy
    unit" (house: formed troops are foot or horse in line or column, not routing; skirmishers,
    batteries and Generals are not formed units; hidden enemies are not visible)."""
    for enemy in visible_enemies(state, unit.side):
        if enemy.type not in ("infantry", "cavalry") or enemy.formation == SKIRMISH or enemy.status != ON_TABLE:
            continue
        gap = polygon_distance(end.polygon(), base(enemy).polygon())
        if gap < FORCED_MARCH_CLEARANCE - EPS:
            raise IllegalOrder(f"a forced march may not come within {fmt(FORCED_MARCH_CLEARANCE)}\" of a visible formed "
                               f"enemy (17.4.5); it would end {fmt(gap)}\" from {enemy.name}.",
                               hint=f"A normal move: `{unit.id} move N`.")


def _check_end_clear(state: State, unit: Unit, order: Move, end: Base) -> None:
    """17.4.8-17.4.9: a move may pass through friends but not end on any unit's base."""
    other = in_the_way(state, unit, end)
    if other is None:
        return
    room = farthest_clear(state, unit, order)
    wheel = f" wheel {order.turn} {fmt(order.degrees)}" if order.turn and order.degrees else ""
    hint = (f"It can end clear short of it: at most `{unit.id} move {fmt(room)}{wheel}`." if room is not None
            else "Move it clear another way first.")
    raise IllegalOrder(f"{unit.name} would end on top of {other.name}: a unit may pass through friends "
                       f"(17.4.8, 17.4.9) but not end on another unit's base.", hint=hint)


def _check_on_table(state: State, text: str, end: Base) -> None:
    for x, y in end.polygon():
        if not (-EPS <= x <= state.table_width + EPS and -EPS <= y <= state.table_height + EPS):
            raise IllegalOrder("the unit would leave the table.")


def move(state: State, order: Move) -> list[Event]:
    """Carry out a checked move and say what it cost (a unit inside a square leaves it, 17.4.16)."""
    unit = state.unit(order.unit)
    unit.shelter = ""
    end = moved_base(unit, order)
    way, passed = move_going(state, unit, order)
    cost, slowest = way.cost, way.slowest
    spend(state, unit, cost)
    wheel = f" and wheels {order.turn} {fmt(order.degrees)}°" if order.degrees else ""
    forced = " (forced march)" if order.forced else ""
    forced += f" through {slowest}" if slowest and not (passed and slowest == passed[0].name) else ""
    start = base(unit)
    fords = fords_crossed(state, start, end)
    unit.x, unit.y = end.centre
    unit.facing = round(end.heading, 6) % 360.0
    if fords:  # 15.4: fording disorders the unit (17.2.8; rules/morale_17_2.py rallies it)
        unit.order, unit.order_turn = DISORDERED, state.turn
        forced += f" (fording {fords[0].name} disorders it, 15.4)"
    crossed = obstacles_crossed(state, start, end)
    if crossed:  # 15.10: crossing a wall or fortification disorders the unit
        if unit.order == GOOD:
            unit.order = DISORDERED
        unit.order_turn = state.turn
        forced += f" (crossing {crossed[0].name} disorders it, 15.10)"
    if passed:  # 17.4.9: no charge this turn; through shaken troops of a better Class, disordered
        unit.passage_turn = state.turn
        forced += f" (a passage of lines through {', '.join(f.name for f in passed)}, 17.4.9"
        better = next((f for f in passed if f.order == SHAKEN and f.cls > unit.cls), None)
        if better is not None and unit.order == GOOD:
            unit.order, unit.order_turn = DISORDERED, state.turn
            forced += f"; the shaken {better.name} disorder it"
        forced += ")"
    return [public(f"{unit.name} moves {fmt(order.inches)}\"{wheel}{forced}: it costs {fmt(cost)}\", "
                   f"{fmt(left(state, unit, order.forced))}\" left this turn.")]


def spend(state: State, unit: Unit, cost: float) -> None:
    """Count inches against the unit's allowance this turn (a new turn starts from nothing)."""
    if unit.moved_turn != state.turn:
        unit.moved_turn, unit.moved, unit.start_formation = state.turn, 0.0, shape(unit)
    unit.moved = round(unit.moved + cost, 6)


def check_not_square(unit: Unit) -> None:
    """House (RULINGS.md, Squares 2): a square stands where it formed; it only forms line or column again."""
    if unit.formation == SQUARE:
        raise IllegalOrder(f"{unit.name} is in square: a square does not move or turn (house); it may only form line "
                           "or column again.", hint=f"`{unit.id} form line` or `{unit.id} form column` (a formation "
                           "change, 17.4.7).")


def check_not_sheltered(state: State, unit: Unit) -> None:
    """House (RULINGS.md, Squares 4): a unit inside a square leaves it with a move before anything else."""
    square = sheltered_in(state, unit)
    if square is not None:
        raise IllegalOrder(f"{unit.name} shelters inside the square of {square.name} (17.4.16): it leaves with a "
                           "move first.", hint=f"`{unit.id} move N`.")


def check_change(state: State, unit: Unit) -> None:
    """17.4.7: a formation change (turning 90 or 180 degrees is one) once a turn, never in a heavy
    wood, and its cost (house: part of the allowance) must fit what is left."""
    check_not_sheltered(state, unit)
    if unit.changed_turn == state.turn or (unit.moved_turn == state.turn and shape(unit) != unit.start_formation):
        raise IllegalOrder(f"{unit.name} has changed formation or turned this turn: units can make only one formation "
                           "change a turn (17.4.7).")
    wood = next((t for t in pieces_under(state, base(unit).polygon()) if t.type == "heavy-wood"), None)
    if wood is not None:
        raise IllegalOrder(f"{unit.name} is in {wood.name}, a heavy wood: a unit may change formation in a light "
                           "wood or urban area but not in a heavy wood (17.4.7).", hint="Move it out of the wood first.")
    cost = change_cost(state, unit)
    if cost > left(state, unit) + EPS:
        raise IllegalOrder(f"changing formation costs {fmt(cost)}\"; {unit.name} has "
                           f"{fmt(left(state, unit))}\" left this turn.")


def change_cost(state: State, unit: Unit) -> float:
    """A formation change's cost: the sheet's fraction of the allowance of the formation the unit
    started in (17.4.7: "make movement deductions from the formation the unit starts the turn in")."""
    return house().movement.costs.formation_change * allowance(state, unit)


def check_lands(state: State, unit: Unit, trial: Unit, text: str, what: str) -> None:
    """The changed footprint stays on the table, out of a river away from its crossings (15.3) and
    on no other unit's base (17.4.8)."""
    _check_on_table(state, text, base(trial))
    water = in_water(state, base(trial))
    if water is not None and in_water(state, base(unit)) is None:
        raise IllegalOrder(f"{what} would put {unit.name} in {water.name}: a river is crossed only at bridges and "
                           "fords (15.3).", hint=f"Move {unit.name} clear of the water first.")
    other = in_the_way(state, trial, base(trial))
    if other is not None:
        raise IllegalOrder(f"{what} would lay {unit.name} across {other.name}: no unit ends "
                           "on another unit's base (17.4.8).", hint=f"Move {unit.name} clear of {other.name} first.")


def check_form(state: State, seat: str, order: Form) -> Form:
    """12, 17.4: a formation change costs part of the allowance and the new footprint stays on the table."""
    unit = state.unit(order.unit)
    if state.phase == SETUP:
        return _check_set_out_form(state, seat, unit, order)
    check_normal_movement(state, seat, unit, order.text)
    if unit.dismounted:
        raise IllegalOrder(f"{unit.name} is dismounted: on foot it fights in skirmish order (9.1).",
                           hint=f"`{unit.id} mount` first (a formation change of its own).")
    if shape(unit) == order.formation:
        raise IllegalOrder(f"{unit.name} is already in {order.formation}.")
    bar = formation_bar(unit, order.formation)
    if bar:
        raise IllegalOrder(bar)
    if order.formation == SQUARE and square_bar(unit):
        raise IllegalOrder(square_bar(unit), hint=f"`{unit.id} form column` or `{unit.id} form line` first.")
    if unit.formation == SQUARE and order.formation not in (LINE, COLUMN):
        raise IllegalOrder(f"{unit.name} is in square: a square forms line or column again (17.4.7: \"from line or "
                           "column to square or vice versa\").", hint=f"`{unit.id} form column` or `{unit.id} form line`.")
    inside = guests(state, unit)
    if inside:
        raise IllegalOrder(f"{', '.join(u.name for u in inside)} shelter inside {unit.name}'s square: it keeps its "
                           "square until they leave (house, 17.4.16).", hint=f"`{inside[0].id} move N` first.")
    if unit.type == "artillery" and order.formation == COLUMN and unit.fired_turn == state.turn \
            and not horse_artillery(unit):
        since = " (two limber casualties: it moves only as limbered foot artillery now)" \
            if HORSE_ARTILLERY in unit.modifiers else ""
        raise IllegalOrder(f"{unit.name} has fired this turn: only horse artillery can shoot and limber and move "
                           f"in one turn (10.3){since}.", hint="It may limber next turn.")
    check_change(state, unit)
    trial = Unit(**{**unit.__dict__})
    reform(trial, order.formation)
    check_lands(state, unit, trial, order.text, f"forming {order.formation}")
    return order


def _check_set_out_form(state: State, seat: str, unit: Unit, order: Form) -> Form:
    """16.2: each side deploys its own units; the bot sets them out in column, and before the side is
    ready its infantry may be set out in march column instead (12.1: the column that force marches,
    17.4.5, so a forced march is open from turn 1), or back in manoeuvre column. Not a unit hidden
    or held off the table (16.4, 16.5: its sealed record places it)."""
    if seat not in (UMPIRE, unit.side):
        raise IllegalOrder(f"{unit.name} belongs to the {state.side_name(unit.side)}.")
    if state.side(unit.side).ready:
        raise IllegalOrder(f"the {state.side_name(unit.side)} are ready: their units are set out as they are.")
    if unit.status in (HIDDEN, OFF_BOARD):
        raise IllegalOrder(f"{unit.name} is {unit.status}: its sealed record places it (16.4, 16.5).")
    if order.formation not in (COLUMN, MARCH):
        raise IllegalOrder("units are set out in column (16.2): before the battle only `UNIT form march` (march "
                           "column, 12.1) or `UNIT form column`; other formations in the Movement phase.")
    bar = formation_bar(unit, order.formation)
    if bar:
        raise IllegalOrder(bar)
    if unit.march == (order.formation == MARCH):
        raise IllegalOrder(f"{unit.name} is already to be set out in {order.formation}.")
    return order


def set_out_form(state: State, order: Form) -> list[Event]:
    """A checked set-up ``form`` (16.2, 12.1): how the unit will be set out."""
    unit = state.unit(order.unit)
    unit.march = order.formation == MARCH
    what = "march column" if unit.march else "manoeuvre column"
    return [public(f"{unit.name} will be set out in {what} (12.1, 16.2).")]


def form(state: State, order: Form) -> list[Event]:
    """Carry out a checked formation change (12, 17.4) and say what is left of the allowance."""
    unit = state.unit(order.unit)
    spend(state, unit, change_cost(state, unit))
    reform(unit, order.formation)
    unit.changed_turn = state.turn
    return [public(f"{unit.name} forms {order.formation} ({fmt(left(state, unit))}\" left this turn).")]


TURNS = {"left": -90.0, "right": 90.0, "about": 180.0}  # 17.4.7: the turns that count as formation changes


def turned(unit: Unit, way: str) -> Unit:
    """The unit turned where it stands: about its centre, facing 90 degrees left or right, or about."""
    trial = Unit(**{**unit.__dict__})
    trial.facing = (unit.facing + TURNS[way]) % 360.0
    return trial


def check_face(state: State, seat: str, order: Face) -> Face:
    """17.4.7: "Turning 90° or about 180° ... are considered formation changes": once a turn, not in
    a heavy wood, costing what a formation change costs. Generals and engineers have no formation
    (house): they turn by moving."""
    unit = state.unit(order.unit)
    check_normal_movement(state, seat, unit, order.text)
    if unit.type in ("general", "engineer"):
        raise IllegalOrder(f"a {unit.type} has no formation to turn; move him instead.")
    check_not_square(unit)
    check_change(state, unit)
    check_lands(state, unit, turned(unit, order.way), order.text, f"turning {order.way}")
    return order


def face(state: State, order: Face) -> list[Event]:
    """Carry out a checked turn (17.4.7) and say what is left of the allowance."""
    unit = state.unit(order.unit)
    spend(state, unit, change_cost(state, unit))
    unit.facing = turned(unit, order.way).facing
    unit.changed_turn = state.turn
    what = "turns about" if order.way == "about" else f"turns {order.way}"
    return [public(f"{unit.name} {what}, a formation change (17.4.7; {fmt(left(state, unit))}\" left this turn).")]


def check_measure(state: State, seat: str, order: Measure) -> Measure:
    """A side measures from one of its own units; both must stand on the table where the seat can
    see them: the same refusal for an enemy that is hidden, off board or gone, so measuring is
    never a probe."""
    first = state.unit(order.unit)
    if seat not in (UMPIRE, first.side):
        raise IllegalOrder(f"measure from one of your own units; {first.name} belongs to the {state.side_name(first.side)}.")
    for uid in (order.unit, order.target):
        unit = state.unit(uid)
        if not on_table(unit) and not (seat in (UMPIRE, unit.side) and unit.formation):
            raise IllegalOrder(f"{unit.name} is not on the table.")
    if order.unit == order.target:
        raise IllegalOrder("name two different units.")
    return order


def describe_measure(a: Unit, b: Unit) -> str:
    """Edge-to-edge distance, and where ``b`` lies from ``a``'s front (degrees off its facing)."""
    pa, pb = base(a).polygon(), base(b).polygon()
    gap = polygon_distance(pa, pb)
    off = angle_diff(a.facing, bearing_of(sub(base(b).centre, base(a).centre)))
    side = "ahead" if abs(off) <= 45 else "behind" if abs(off) >= 135 else ("to the right" if off > 0 else "to the left")
    return f"{a.name} to {b.name}: {fmt(gap)}\" edge to edge, {side} ({fmt(abs(off))}° off its facing)"


def measure(state: State, seat: str, order: Measure) -> list[Event]:
    """Answer only the asker (and the umpire): measuring changes nothing."""
    text = describe_measure(state.unit(order.unit), state.unit(order.target))
    return [private(text, seat)]
