"""Book section 17.3, the Shooting Phase, on the measured table (option board=measured): a unit
fires once a turn at an enemy unit inside its 45-degree arcs from the front corners of its stands
(17.3) and in range of its chart; infantry and cavalry must fire at the NEAREST visible eligible
enemy, artillery may pick any (17.3); a unit may not fire if a friendly unit stands in the
corridor between its front corners and the target (17.3.4, endangering friendly troops); only
skirmishers may fire at staff (17.3.5). Firing is simultaneous: every unit rolls with the stands
it started the phase with, and the hits are applied when the phase ends (17.3). One 1d6 per
firing stand or gun on the house small arms or artillery chart, read in the range band's column
(``data/days_of_iron/reference/sheets``: house numbers until an owner's sheet replaces them);
each H removes a stand (17.3) through the losses of 17.5 (shattered units, 17.5.8).

Terrain (section 15, house effects from the terrain sheet): a wood, town or hill between firer
and target blocks the line of sight unless one of them stands in it; a target in light or heavy
cover takes -1 or -2 on each die (15.11, house).

The Mitrailleuse fires in a 22.5-degree arc (17.3). Elevated and dead ground (17.3.3, hills of
the terrain sheet with elevation 1 low, 2 high): only howitzers and guns on a hill fire at targets
on a high hill; guns on a high hill cannot fire at targets 6" or closer to their front, and fire
over friends, endangering only those within 4" of the target; a howitzer shells targets in woods,
towns or on hills over friends' heads. From a high hill troops are seen 8" beyond a wood or town
not itself on a hill (15.7, 15.8).

Damage to artillery (17.3.5, house chart): a gun lost, a gun's crew hit (it fires at half effect
until the next Shooting phase ends) or the limber team lost (the battery cannot limber).

NOT carried out here yet: the 4-stand multiples of line infantry.

Hills (15.1): a line of sight over a crest line of a hill is open only to a unit within 1" of that
crest (house: a piece's crests are the two centre lines of its bounding box, the spine along the
longer side).
"""

from __future__ import annotations

import math

from games.core.dice import roll
from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.core.geometry import (
    Point,
    Polygon,
    add,
    closest_points,
    convex_hull,
    overlaps,
    point_in_polygon,
    polygon_distance,
    scale,
    segment_crosses_polygon,
    segment_distance,
    segments_intersect,
    sub,
)
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, public
from games.days_of_iron.data import ChartFile, house
from games.days_of_iron.orders import Face, Fire, Form, Move
from games.days_of_iron.rules import fires_15_9, formations_12, losses_17_5, staff_14
from games.days_of_iron.rules.formations_12 import (
    COLUMN,
    SKIRMISH,
    arc_degrees,
    base,
    far_apart,
    firing_arc,
    front_centre,
    in_contact,
    on_table,
)
from games.days_of_iron.rules.movement_17_4 import (
    HORSE_ARTILLERY,
    LIMBER_CASUALTIES_TO_FOOT,
    fmt,
    used,
    visible_enemies,
)
from games.days_of_iron.schema import Target
from games.days_of_iron.state import GONE, ON_TABLE, STAFF, STEPS, TURN, State, TerrainPiece, Unit

SHOOTERS = ("infantry", "cavalry", "artillery")


def chart_of(unit: Unit) -> ChartFile:
    """The artillery chart for guns, the small arms chart for everyone else (17.3)."""
    return house().charts["artillery" if unit.type == "artillery" else "small-arms"]


def reach(unit: Unit) -> float:
    """The longest range of the unit's chart, in inches."""
    chart = chart_of(unit)
    return chart.ranges[-1] if chart.ranges else 12.0


def in_arc(unit: Unit, target: Unit) -> bool:
    """Any part of the target inside the arcs from the unit's front corners (17.3)."""
    return overlaps(firing_arc(unit, reach(unit) * 2), base(target).polygon(), tolerance=0.0)


def gap(unit: Unit, target: Unit) -> float:
    """Range: the shortest distance between the two units' stands."""
    return polygon_distance(base(unit).polygon(), base(target).polygon())


def files(unit: Unit) -> list[tuple[float, float, int]]:
    """The unit's front shared among its files of stands (12.1-12.3): each file's left and right ends
    as inches from the front's left corner, and the stands that fire along it (one in a line or a
    skirmish screen; in a column each file is several stands deep and fires along its front)."""
    stand = house().movement.stands[formations_12.arm(unit)][0]
    width, _ = formations_12.footprint(unit)
    n = max(1, unit.stands)
    across = n if unit.formation in (formations_12.LINE, SKIRMISH) else max(1, min(n, round(width / stand)))
    step = (width - stand) / (across - 1) if across > 1 else 0.0
    return [(i * step, i * step + stand, len(range(i, n, across))) for i in range(across)]


def corridor(unit: Unit, target: Unit, left: float, right: float) -> Polygon:
    """17.3.4: the zone between lines run parallel from a firing stand's front corners (``left`` and
    ``right`` inches along the unit's front) to the nearest part of the target ("a rectangular zone
    (effectively) between firer and target")."""
    b = base(unit)
    port = b.corners()[0]
    front = (add(port, scale(b.starboard, left)), add(port, scale(b.starboard, right)))
    near, far = closest_points(front, base(target).polygon())
    to_target = sub(far, near)
    return convex_hull([*front, *(add(p, to_target) for p in front)])


def endangered(state: State, unit: Unit, target: Unit) -> list[tuple[int, Unit | None]]:
    """For each file of the unit's stands (``files``), its stands and the friendly unit its fire
    would endanger (17.3.4: "Units are Endangered if any part of their stand crosses a parallel line
    from the front corners of firing stand to the target ... Stands cannot fire if friendly troops
    are endangered"), None where its line is clear. 17.3.3: a howitzer shells a target in a wood, a
    town or on a hill over the heads of friends; artillery on a high hill fires over them,
    endangering only friends within 4" of the target."""
    lines = files(unit)
    if unit.type == "artillery" and unit.gun == "howitzer" and sheltered(state, target):
        return [(n, None) for _, _, n in lines]
    over = unit.type == "artillery" and elevation(state, unit)[0] == HIGH
    friends = [f for f in state.units if f.side == unit.side and f.id != unit.id and on_table(f)
               and (not over or polygon_distance(base(f).polygon(), base(target).polygon()) <= OVER_FRIENDS + 1e-9)]
    out: list[tuple[int, Unit | None]] = []
    for left, right, n in lines:
        zone = corridor(unit, target, left, right)
        out.append((n, next((f for f in friends if len(zone) > 2 and overlaps(zone, base(f).polygon())), None)))
    return out


def held_back(state: State, unit: Unit, target: Unit) -> tuple[int, Unit | None]:
    """How many of the unit's stands may not fire at the target because friends stand in their
    lines (17.3.4), and the first friend so endangered."""
    blocked = [(n, f) for n, f in endangered(state, unit, target) if f is not None]
    return sum(n for n, _ in blocked), (blocked[0][1] if blocked else None)


LOW, HIGH = 1, 2  # elevations of the terrain sheet (17.3.3)
DEAD_GROUND = 6.0  # book 17.3.3: artillery on a high hill cannot hit targets this close to its front
OVER_FRIENDS = 4.0  # book 17.3.3: friends this close to the target are endangered by fire from a high hill
SEEN_IN = {"heavy": 4.0, "light": 6.0}  # book 16.3: formed units in heavy / light woods and towns are seen this far
SKIRMISHERS_SEEN = 2.0  # book 16.3: skirmishers in woods and towns are seen at 2"
CREST_VIEW = 8.0  # book 15.7, 15.8: from a high hill's crest troops are seen this far beyond a wood or town
OVER_CREST = 1.0  # book 15.1: "Units can see over the crest of the hill as long as they are within 1\" of the crest"


def elevation(state: State, unit: Unit) -> tuple[int, str]:
    """The hill a unit stands on (17.3.3; house: the one under its centre): (elevation, name)."""
    types = house().terrain
    centre = base(unit).centre
    return max(((types[p.type].elevation, p.name) for p in state.terrain
                if types[p.type].elevation and point_in_polygon(centre, _outline(p))), default=(0, ""))


def sheltered(state: State, target: Unit) -> bool:
    """The target stands in a wood or a town or on a hill (17.3.3): the pieces that block sight."""
    types = house().terrain
    return any(types[p.type].blocks_sight and overlaps(base(target).polygon(), _outline(p)) for p in state.terrain)


def ground_bar(state: State, unit: Unit, target: Unit) -> str:
    """17.3.3, why a battery may not fire at a target because of the ground ("" if it may): only
    howitzers and guns on a hill fire at targets on a high hill; guns on a high hill cannot reach
    down to targets 6" or closer to their front."""
    if unit.type != "artillery":
        return ""
    (up, _), (there, hill) = elevation(state, unit), elevation(state, target)
    if there == HIGH and up == 0 and unit.gun != "howitzer":
        return (f"{target.name} stands on a high hill ({hill}): only howitzers or guns sited on a hill "
                f"may fire at it (17.3.3).")
    if up == HIGH and gap(unit, target) <= DEAD_GROUND + 1e-9:
        return (f"{target.name} is in dead ground, {fmt(gap(unit, target))}\" below the front of {unit.name} "
                f"on its high hill (17.3.3: guns on a high hill cannot fire at targets {fmt(DEAD_GROUND)}\" or closer).")
    return ""


def _outline(piece: TerrainPiece) -> list[tuple[float, float]]:
    return [(p[0], p[1]) for p in piece.points]


COVER = {"none": 0, "light": -1, "heavy": -2}  # house: modifier on each die at a target in cover (15.11)
COVER_NAMES = {v: k for k, v in COVER.items()}
BEHIND_COVER = 1.0  # book 15.11: a unit "within 1\" and behind terrain" classified as cover is a target in cover
URBAN = "urban"  # the terrain sheet's urban area (15.2: no cover on its roads)


def in_sight(state: State, unit: Unit, target: Unit) -> bool:
    """Section 15 (house where the sheets are missing): the line from the firer's command stand to
    the target's centre may not cross a piece that blocks sight (a wood, a town, a hill) unless the
    firer or the target stands in it (troops at its edge see and are seen)."""
    types = house().terrain
    hidden_by = seen_within(state, target)
    if hidden_by is not None and gap(unit, target) > hidden_by + 1e-9:
        return False
    start, end = front_centre(unit), base(target).centre
    crest = elevation(state, unit)[0] == HIGH
    for piece in state.terrain:
        if not types[piece.type].blocks_sight:
            continue
        outline = [(p[0], p[1]) for p in piece.points]
        if not segment_crosses_polygon(start, end, outline):
            continue
        on_it = [u for u in (unit, target) if overlaps(base(u).polygon(), outline)]
        if not on_it:
            if crest and _seen_over(state, piece, target):
                continue
            return False
        if types[piece.type].elevation and not _over_crests(start, end, outline, on_it):
            return False
    return True


def crests(outline: list[tuple[float, float]]) -> list[tuple[Point, Point]]:
    """15.1: "There are generally two crest lines on a hill, one centrally along the 'spine' of the
    hill and the other across its widest point" (house: the two centre lines of the piece's
    bounding box, the spine first, along its longer side)."""
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    (x0, x1), (y0, y1) = (min(xs), max(xs)), (min(ys), max(ys))
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    along_x, along_y = ((x0, my), (x1, my)), ((mx, y0), (mx, y1))
    return [along_x, along_y] if x1 - x0 >= y1 - y0 else [along_y, along_x]


def _over_crests(start: Point, end: Point, outline: list[tuple[float, float]], on_it: list[Unit]) -> bool:
    """15.1: "Units can see over the crest of the hill as long as they are within 1\" of the crest":
    every crest line the sight line crosses has a unit on the hill within 1" of it."""
    for a, b in crests(outline):
        if segments_intersect(start, end, a, b) and not any(
                min(segment_distance(p, q, a, b) for p, q in _edges_of(base(u).polygon())) <= OVER_CREST + 1e-9
                for u in on_it):
            return False
    return True


def _edges_of(poly: Polygon) -> list[tuple[Point, Point]]:
    return [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]


def seen_within(state: State, target: Unit) -> float | None:
    """16.3: "Formed units are visible at 4\" in heavy urban areas and woods and at 6\" in light urban
    areas and woods. Skirmishers in urban areas and woods are visible at 2\"." The distance a target
    standing in a wood or town (a level piece that blocks sight) is seen from, or None in the open;
    heavy or light is the piece's cover on the terrain sheet (an urban area is heavy on the house sheet)."""
    types = house().terrain
    best: float | None = None
    for piece in state.terrain:
        kind = types[piece.type]
        if kind.blocks_sight and not kind.elevation and kind.cover in SEEN_IN and overlaps(
                base(target).polygon(), _outline(piece)):
            reach = SKIRMISHERS_SEEN if target.formation == SKIRMISH else SEEN_IN[kind.cover]
            best = reach if best is None else min(best, reach)
    return best


def _seen_over(state: State, piece: TerrainPiece, target: Unit) -> bool:
    """15.7, 15.8: from the crest of a high hill (house: anywhere on it) troops are seen up to 8"
    beyond a wood or town, unless that wood or town is on a hill too."""
    types = house().terrain
    if types[piece.type].elevation or any(types[h.type].elevation and overlaps(_outline(h), _outline(piece))
                                          for h in state.terrain):
        return False
    return polygon_distance(base(target).polygon(), _outline(piece)) <= CREST_VIEW + 1e-9


def cover_of(state: State, target: Unit, firer: Unit | None = None) -> tuple[int, str]:
    """The best cover the target has (15.11): (modifier, piece name). It has the cover of a piece it
    stands in and, shot at by ``firer``, of one it stands within 1" behind (15.11: "within 1\" and
    behind terrain classified as heavy or light cover"; house: the line from the firer's front to
    the target's centre crosses the piece). 15.2: a unit standing wholly on a road has no cover
    from the urban area the road runs through."""
    types = house().terrain
    footprint = base(target).polygon()
    on_road = any(types[p.type].move > 1 and all(point_in_polygon(q, _outline(p), 1e-6) for q in footprint)
                  for p in state.terrain)
    best = (0, "")
    for piece in state.terrain:
        outline = _outline(piece)
        if on_road and piece.type == URBAN:
            continue
        behind = firer is not None and polygon_distance(footprint, outline) <= BEHIND_COVER + 1e-9 \
            and segment_crosses_polygon(front_centre(firer), base(target).centre, outline)
        if behind or overlaps(footprint, outline):
            best = min(best, (COVER[types[piece.type].cover], piece.name))
    return best


def eligible(state: State, unit: Unit) -> list[Unit]:
    """Visible enemies in the unit's arc, sight and range, nearest first (staff only for skirmishers).
    An enemy certainly out of range (``far_apart``) is passed over before the arc is worked out:
    each test is pure, so the list is the same."""
    own = base(unit)
    out = [e for e in visible_enemies(state, unit.side)
           if not far_apart(math.dist(own.centre, (e.x, e.y)), own, base(e), reach(unit) + 1e-9)
           and in_arc(unit, e) and gap(unit, e) <= reach(unit) + 1e-9 and in_sight(state, unit, e)
           and (e.type != "general" or unit.formation == SKIRMISH) and not ground_bar(state, unit, e)
           and melee_friend(state, e, unit.side) is None
           and formations_12.sheltered_in(state, e) is None]  # 17.4.16: inside a square, the square is shot at
    return sorted(out, key=lambda e: gap(unit, e))


def melee_friend(state: State, target: Unit, side: str) -> Unit | None:
    """17.3.2: "Units cannot intentionally fire into a Close Assault melee": the unit of ``side`` in
    base contact with ``target`` (17.4.2), if any."""
    return next((u for u in state.units if u.side == side and u.type != "general" and on_table(u)
                 and u.status not in GONE and in_contact(u, target)), None)


def check_fire(state: State, seat: str, order: Fire) -> Fire:
    """17.3: the acting side's own unit, in the Shooting phase, once a turn, at an eligible target
    (the nearest for foot and horse), not endangering friends."""
    unit, target = state.unit(order.unit), state.unit(order.target)
    check_firer(state, seat, unit, target)
    targets = eligible(state, unit)
    if target not in targets:
        raise IllegalOrder(_why_not(state, unit, target), hint=_offer(targets))
    if unit.type != "artillery" and targets[0] is not target and gap(unit, targets[0]) < gap(unit, target) - 1e-9:
        raise IllegalOrder(f"{unit.name} must fire at the nearest visible enemy, {targets[0].name} "
                           f"({fmt(gap(unit, targets[0]))}\"; 17.3: only artillery may choose).")
    check_endangered(state, unit, target)
    check_deployed(unit)  # last: what is wrong with the target is said first, whatever the guns' state
    return order


def check_endangered(state: State, unit: Unit, target: Unit) -> None:
    """17.3.4: "Stands cannot fire if friendly troops are endangered": refused when no stand's line
    to the target is clear (the stands whose lines are clear fire; ``fire`` leaves the others out)."""
    blocked, friend = held_back(state, unit, target)
    if friend is not None and blocked >= unit.stands:
        raise IllegalOrder(f"{friend.name} would be endangered: it stands between {unit.name} and {target.name} "
                           "(17.3.4); no stand of it has a clear line.")


def check_firer(state: State, seat: str, unit: Unit, target: Unit) -> None:
    """17.3: the acting side's own unit that can fire, in the Shooting phase, once a turn, at an enemy on the table."""
    if state.phase != TURN or STEPS[state.step] != "Shooting":
        raise WrongPhase("units fire in the Shooting phase.", hint="Say `next` to reach it.")
    if seat not in (UMPIRE, state.acting_side()):
        raise NotYourTurn(f"the {state.side_name(state.acting_side())} fire now.")
    if unit.side != state.acting_side():
        raise IllegalOrder(f"{unit.name} belongs to the {state.side_name(unit.side)}; the "
                           f"{state.side_name(state.acting_side())} fire now.")
    if not on_table(unit) or unit.status != ON_TABLE or unit.type not in SHOOTERS:
        raise IllegalOrder(f"{unit.name} cannot fire (it must be infantry, cavalry or artillery on the table in good order).")
    if unit.fired_turn == state.turn:
        raise IllegalOrder(f"{unit.name} has fired this turn (a unit shoots once per turn, 17.3).")
    if not on_table(target) or target.side == unit.side:
        raise IllegalOrder(f"{target.name} is not an enemy on the table.")


def limbered(unit: Unit) -> bool:
    """A battery in column is limbered (the help's `form column`; 10.1: "while limbered it is a
    dense target and when deployed it is a line target")."""
    return unit.type == "artillery" and unit.formation == COLUMN


def check_deployed(unit: Unit) -> None:
    """10.3: "Horse Artillery can shoot and limber and move or they can move and deploy (but not
    fire)": a battery fires only deployed, never limbered."""
    if limbered(unit):
        raise IllegalOrder(f"{unit.name} is limbered: a battery fires only when deployed (10.1, 10.3).",
                           hint=f"`{unit.id} form line` in the Movement phase deploys it; it may fire the turn after.")


def _why_not(state: State, unit: Unit, target: Unit) -> str:
    friend = melee_friend(state, target, unit.side)
    if friend is not None:
        return (f"{target.name} is in a close assault melee with {friend.name}: units cannot intentionally fire "
                "into a Close Assault melee (17.3.2).")
    if target.type == "general" and unit.formation != SKIRMISH:
        return "only skirmishers may fire at staff (17.3.5)."
    shelter = formations_12.sheltered_in(state, target)
    if shelter is not None:
        return f"{target.name} shelters inside the square of {shelter.name} (17.4.16): fire at the square."
    if not in_sight(state, unit, target):
        return f"{unit.name} cannot see {target.name}: terrain blocks the line (section 15)."
    if not in_arc(unit, target):
        what = " (a Mitrailleuse fires in a 22.5-degree arc)" if unit.gun == "mitrailleuse" else ""
        return f"{target.name} is outside the {fmt(arc_degrees(unit))}-degree arcs of {unit.name}{what} (17.3)."
    if gap(unit, target) <= reach(unit) + 1e-9 and ground_bar(state, unit, target):
        return ground_bar(state, unit, target)
    return f"{target.name} is out of range: {fmt(gap(unit, target))}\", the chart reaches {fmt(reach(unit))}\"."


def _offer(targets: list[Unit]) -> str:
    return ("Targets now: " + ", ".join(t.name for t in targets) + ".") if targets else "No enemy is in its arc and range."


TWO_DICE_GUNS = ("breech", "mitrailleuse")  # book 10.1: Krupp breech loaders and Mitrailleuses roll 2d6 a gun
FAST_CHARGE = 8.0  # book 13.4: charging cavalry that move over 8" (both impulses) are fast targets


def dice_count(unit: Unit, stands: int) -> int:
    """One die per firing stand or gun model; a breech loaded gun or a Mitrailleuse rolls two (10.1,
    each die read on the chart on its own: RULINGS.md)."""
    return stands * (2 if unit.type == "artillery" and unit.gun in TWO_DICE_GUNS else 1)


def charge_run(state: State, unit: Unit) -> float:
    """Inches a unit charging this turn covers to make its charge, both impulses (13.4): its 1st
    Impulse (a declared charge's spent inches) and what is left to its target; 0 if not charging."""
    if not unit.charging or unit.charge_turn != state.turn or not on_table(state.unit(unit.charging)):
        return 0.0
    first = used(state, unit) if unit.declared_turn == state.turn else 0.0
    return first + gap(unit, state.unit(unit.charging))


def target_class(state: State, target: Unit) -> Target:
    """Section 13: staff, skirmishers and units gone to ground are dispersed (13.1, 14); cavalry
    charging over 8" are fast (13.4); columns, limbered batteries included, are dense (13.3), and
    so are squares (house, RULINGS.md Squares); lines and deployed batteries are line targets (13.2)."""
    if target.type == "general" or target.formation == SKIRMISH or target.ground:
        return "dispersed"
    if target.type == "cavalry" and not target.dismounted and charge_run(state, target) > FAST_CHARGE + 1e-9:
        return "fast"
    return "dense" if target.formation in (COLUMN, formations_12.SQUARE) else "line"


def volley(state: State, unit: Unit, target: Unit, rng: Rng, stands: int | None = None) -> tuple[int, str]:
    """Roll a unit's fire at a target (17.3): the dice (10.1) of ``stands`` of its stands (default
    all) read in the range band's column, each with the chart's modifier for the target definition
    (13) and the target's cover (13.5, 13.6, 15.11). A battery's guns whose crews were hit (the
    Damage to Artillery chart, house) fire at half effect: the H their dice score are halved,
    rounded down. Returns the hits and the roll as the log shows it."""
    chart = chart_of(unit)
    distance = gap(unit, target)
    column = chart.column_for(distance)
    assert column is not None
    guns = unit.stands if stands is None else stands
    dice = [roll(chart.dice, rng).total for _ in range(dice_count(unit, guns))]
    kind = target_class(state, target)
    shape = chart.targets.get(kind, 0)
    cover, where = cover_of(state, target, unit)
    cells = [chart.lookup(d + shape + cover, column) for d in dice]
    scored = [c.count("H") for c in cells]
    weak = dice_count(unit, min(unit.crew_hit, guns)) if unit.type == "artillery" else 0
    halved = sum(scored[:weak])
    hits = sum(scored[weak:]) + halved // 2
    crew = (f"; {min(unit.crew_hit, guns)} gun{'s' if min(unit.crew_hit, guns) > 1 else ''} with crew hit "
            f"at half effect ({halved} H of the first {weak} dice count {halved // 2})") if weak else ""
    return hits, (f"{fmt(distance)}\" ({chart.columns[column]}), {len(dice)} x {chart.dice} "
                  f"[{', '.join(map(str, dice))}]" + (f" {shape:+d} each for a {kind} target" if shape else "")
                  + (f" {cover:+d} each for cover in {where}" if cover else "") + crew
                  + f" = {hits} H on a {kind} target" + (f" in {COVER_NAMES[cover]} cover" if cover else "")
                  + (fires_15_9.artillery_f(state, target) if any("F" in c for c in cells) else ""))


def fire(state: State, order: Fire, rng: Rng, aim: Unit | None = None, why: str = "") -> list[Event]:
    """Roll the unit's dice now (per stand or gun it started the phase with) and hold the hits
    on the target until the phase ends (simultaneous fire, 17.3). ``aim``: the target as the fire
    measures it, if not where it stands (seen passing last turn, rules/seen_fire_17_3.py), ``why``
    said after the roll."""
    unit, target = state.unit(order.unit), state.unit(order.target)
    kept = unit.reserve_stands if unit.reserve_turn == state.turn else 0  # 17.3.1: part kept for defensive fire
    blocked, friend = held_back(state, unit, aim or target)  # 17.3.4: stands whose line a friend stands in
    firing = min(unit.stands - kept, unit.stands - blocked)
    hits, said = volley(state, unit, aim or target, rng, firing)
    said += why
    if friend is not None:
        said += (f"; {blocked} stand{'s do' if blocked > 1 else ' does'} not fire: {friend.name} stands in "
                 f"{'their' if blocked > 1 else 'its'} line to {target.name} (17.3.4)")
    unit.fired_turn = state.turn
    target.pending_hits += hits
    if target.type == "artillery" and unit.type != "artillery":
        target.pending_small_arms += hits
    return [public(f"{unit.name} fire at {target.name}: {said} ({chart_of(unit).name}); "
                   "casualties come off at the end of the phase.")]


CREW_HIT, TEAM_LOST, GUN_LOST = "crew hit", "limber or team lost", "gun destroyed"  # the chart's results


def end_of_phase(state: State, rng: Rng) -> list[Event]:
    """Apply the Shooting phase's hits together (17.3): one stand per H, command stands last; a
    battery rolls on the Damage to Artillery chart for each H (17.3.5) and loses a gun, has guns'
    crews hit (half effect until the next Shooting phase ends) or loses its limber team (it cannot
    limber) as the chart says. Small arms never destroy a gun ("Small arms fire may only kill crew
    or horses and will not damage the guns themselves"): a gun destroyed from small arms is read as
    a crew hit. A General rolls on the Casualties to Staff chart (17.3.5)."""
    events: list[Event] = []
    for unit in state.units:
        hits, unit.pending_hits = unit.pending_hits, 0
        small, unit.pending_small_arms = unit.pending_small_arms, 0
        unit.crew_hit = 0  # last phase's crew hits have had their phase of half effect
        if not hits or unit.status in GONE:
            continue
        if unit.type == "artillery":
            lost, text = _artillery_damage(unit, hits - small, small, rng)
        elif unit.type in STAFF:  # 17.3.5: "unattached engineers or staff stands ... hit": the
            # Casualties to Staff chart for each H (a General lost or wounded without command, 14.3)
            events += staff_14.staff_hits(state, unit, hits, rng)
            continue
        else:
            lost, text = min(hits, unit.stands), ""
        if text:
            events.append(public(text))
        if lost:
            events += losses_17_5.loss(state, unit, min(lost, unit.stands))
    return events


def _artillery_damage(unit: Unit, heavy: int, small: int, rng: Rng) -> tuple[int, str]:
    """Roll the Damage to Artillery chart for each H on a battery (``heavy`` from guns, ``small``
    from small arms): the guns lost, with the crews hit and the limber team recorded on the unit,
    and the text for the log, which says what each small arms roll did in the end."""
    chart = house().charts["artillery-damage"]
    said, lost, crews = [], 0, 0
    for i in range(heavy + small):
        d = roll(chart.dice, rng).total
        result = chart.lookup(d, 0)
        if GUN_LOST in result and i >= heavy:
            crews += 1
            said.append(f"{d}: {result.split(':')[0]} - but small arms never destroy a gun (17.3.5): a crew hit "
                        "instead")
            continue
        lost += GUN_LOST in result
        crews += CREW_HIT in result
        if TEAM_LOST in result and HORSE_ARTILLERY in unit.modifiers:  # 10.3 counts a horse battery's instead
            unit.limber_casualties += 1
            said.append(f"{d}: {result.split(':')[0]} - for horse artillery a limber casualty "
                        f"({unit.limber_casualties} of {LIMBER_CASUALTIES_TO_FOOT}, 10.3)"
                        + (" (from small arms)" if i >= heavy else ""))
            continue
        unit.team_lost = unit.team_lost or TEAM_LOST in result
        said.append(f"{d}: {result}" + (" (from small arms)" if i >= heavy else ""))
    unit.crew_hit = min(unit.crew_hit + crews, max(unit.stands - lost, 0))
    hits = heavy + small
    return lost, f"{unit.name} hit {hits} time{'s' if hits > 1 else ''} ({chart.name}): {'; '.join(said)}."


def damage_words(unit: Unit) -> list[str]:
    """What the status shows of a battery's damage that lasts (the house Damage to Artillery chart)."""
    crews = [f"{unit.crew_hit} gun{'s' if unit.crew_hit > 1 else ''} at half effect until the next Shooting "
             "phase ends (crew hit)"] if unit.crew_hit else []
    limbers = unit.limber_casualties
    horses = [] if not limbers else [f"{limbers} limber casualt{'ies' if limbers > 1 else 'y'}" + (
        ": it moves only as limbered foot artillery (10.3)" if limbers >= LIMBER_CASUALTIES_TO_FOOT else " (10.3)")]
    team = "it cannot move until it unlimbers" if unit.formation == COLUMN else "it cannot limber"
    return crews + ([f"limber team lost: {team}"] if unit.team_lost else []) + horses


def check_limber(state: State, order: Form | Move | Face) -> None:
    """The house Damage to Artillery chart: a battery whose limber team is lost cannot limber
    (`form column`, the help's limbering), and one that was limbered when the team was lost has no
    horses to pull its guns, so it cannot move until it unlimbers (`form line`) where it stands
    (RULINGS.md 17.3.5)."""
    unit = state.unit(order.unit)
    if unit.type != "artillery" or not unit.team_lost:
        return
    if isinstance(order, Form) and order.formation == COLUMN:
        raise IllegalOrder(f"{unit.name} has lost its limber team (Damage to Artillery chart, house): it cannot "
                           "limber.", hint="It stays deployed; it may still fire.")
    if isinstance(order, (Move, Face)) and unit.formation == COLUMN:
        raise IllegalOrder(f"{unit.name} has lost its limber team (Damage to Artillery chart, house): its limbered "
                           "guns have no horses to pull them.", hint=f"Unlimber it where it stands: `{unit.id} form line`.")
