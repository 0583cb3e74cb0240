"""Book section 11 (engineers and pioneers) and 15.5 (pontoon bridges) on the measured table.

11: "Engineers and their attached Pioneers can try to destroy bridges. They need three movement
phases with no other activity to demolish wooden bridges (six phases for stone bridges). During the
3rd or 6th turn, 1d6 is rolled with 5 or 6 destroying a 1" span of the bridge. Only one attempt may
be made to destroy a bridge. To remove an obstacle, such as a roadblock, an Engineer and two Pioneer
stands can remove a 1" wide obstacle per Movement Phase with no other activity (no movement, firing
or formation change)." 15.5: "A pontoon bridge takes six Movement Phases to deploy and requires an
Engineer, four Pioneers and four other foot stands to construct per 2" wide and 4" long span."

The orders, each in the side's own part of the Movement Phase (RULINGS.md 11 and 15.5):

* ``ENGINEER demolish BRIDGE``, said in successive Movement Phases (three for a ``bridge``, six for a
  ``stone-bridge``); the last rolls the book's ``check demolish`` die and, on 5 or 6, cuts a 1" gap
  across the bridge's roadway in mid-stream: the river is no longer crossed there.
* ``ENGINEER clear OBSTACLE`` removes 1" of a wall or barricade nearest the engineer, in the phase.
* ``ENGINEER pontoon RIVER with UNIT``, said in six successive Movement Phases with a foot unit of four
  stands or more beside him, lays a 2" x 4" pontoon across the river: a bridge units cross.

A phase of work is the unit's whole turn: a worker that moved, fired, charged or changed formation
this turn may not work, and one at work does nothing else that turn. A Movement Phase without the
order, or with other activity since the last, starts the job again from its first phase.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.core.geometry import (
    EPS,
    Point,
    Polygon,
    add,
    dot,
    length,
    normalise,
    polygon_distance,
    scale,
    signed_area,
    sub,
)
from games.core.geometry import clip_half_plane as clip
from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.days_of_iron.data import house, rules
from games.days_of_iron.orders import (
    Charge,
    ChargeHome,
    Clear,
    Demolish,
    Dismount,
    DoiOrder,
    Face,
    Fire,
    Form,
    Fortify,
    GoToGround,
    Mount,
    Move,
    Pontoon,
    SquadronCharge,
)
from games.days_of_iron.rules import staff_14
from games.days_of_iron.rules.cover_17_5_6 import busy_since
from games.days_of_iron.rules.formations_12 import arm, base, on_table
from games.days_of_iron.rules.movement_17_4 import check_movement_order, intersection, outline
from games.days_of_iron.state import ON_TABLE, State, TerrainPiece, Unit, Works

PONTOON = "pontoon-bridge"  # the terrain sheet's laid pontoon (a crossing, 15.5)
PONTOON_WORKS = "pontoon-works"  # the terrain sheet's pontoon being laid (no crossing yet)
STONE = "stone-bridge"  # the terrain sheet's stone bridge (six phases to demolish, 11)
ACTIVITY = (Move, Form, Face, Fire, Charge, ChargeHome, SquadronCharge, Dismount, Mount, Fortify, GoToGround)
WorkOrder = Demolish | Clear | Pontoon


# --- geometry: which way a piece runs, and cutting a strip out of it -----------------------------


def _axis(piece: TerrainPiece) -> Point:
    """The unit vector along a piece's longest side: a river runs along it, a wall too."""
    ring = outline(piece)
    a, b = max(((p, ring[(i + 1) % len(ring)]) for i, p in enumerate(ring)), key=lambda e: length(sub(e[1], e[0])))
    return normalise(sub(b, a))


def _span(piece: TerrainPiece, way: Point) -> tuple[float, float]:
    """How far a piece reaches along a direction (the least and the most of its corners)."""
    along = [dot(p, way) for p in outline(piece)]
    return min(along), max(along)


def _cut(piece: TerrainPiece, way: Point, middle: float, width: float) -> list[TerrainPiece]:
    """The piece without the strip ``width`` wide across ``way`` centred ``middle`` along it: the
    parts left on either side (convex, as every piece is), same type and name."""
    ring = outline(piece)
    parts: list[Polygon] = [clip(ring, scale(way, middle + width / 2), way),
                            clip(ring, scale(way, middle - width / 2), scale(way, -1.0))]
    return [TerrainPiece(piece.type, piece.name, [[round(x, 4), round(y, 4)] for x, y in part])
            for part in parts if len(part) >= 3 and abs(signed_area(part)) > EPS]


def _replace(state: State, old: TerrainPiece, new: list[TerrainPiece]) -> None:
    """Put ``new`` where ``old`` lay in the terrain list (drawing order and names stay)."""
    at = state.terrain.index(old)
    state.terrain[at:at + 1] = new


def _gap(unit: Unit, piece: TerrainPiece) -> float:
    """Edge-to-edge inches from a unit's stands to a terrain piece (0: on it)."""
    return polygon_distance(base(unit).polygon(), outline(piece))


def _water_under(state: State, bridge: TerrainPiece) -> TerrainPiece | None:
    """The river a bridge crosses: the water piece most of it lies over."""
    types = house().terrain
    wet = [(abs(signed_area(part)), t) for t in state.terrain if types[t.type].water
           for part in [intersection(outline(bridge), outline(t))] if len(part) >= 3]
    wet = [w for w in wet if w[0] > EPS]
    return max(wet, key=lambda w: w[0])[1] if wet else None


# --- who may work, and at what -------------------------------------------------------------------


def _busy(state: State, unit: Unit, turn: int) -> str:
    """What the unit has done since ``turn`` began that is "other activity" (11: "no movement,
    firing or formation change"), "" if nothing."""
    if unit.changed_turn >= turn:
        return "changed formation"
    return busy_since(state, unit, turn)


def _job(state: State, unit_id: str) -> Works | None:
    """The work an engineer has under way (one job at a time), or a unit's as a pontoon crew."""
    return next((w for w in state.works if unit_id in (w.engineer, w.helper)), None)


def at_work(state: State, unit: Unit) -> Works | None:
    """The job a unit has worked at in this turn's Movement Phase (it does nothing else this turn)."""
    job = _job(state, unit.id)
    return job if job is not None and job.turn == state.turn else None


def check_not_at_work(state: State, order: DoiOrder) -> None:
    """11, 15.5: workers have "no other activity" in their Movement Phase: a unit that has worked
    this turn neither moves, changes formation, charges nor fires until the next turn."""
    if not isinstance(order, ACTIVITY):
        return
    unit = state.unit(order.unit)
    job = at_work(state, unit)
    if job is not None:
        raise IllegalOrder(f"{unit.name} is at work this turn ({_doing(state, job)}): workers do nothing else in "
                           "that Movement phase (11: \"no movement, firing or formation change\").")


def _doing(state: State, job: Works) -> str:
    what = {"demolish": "demolishing", "clear": "clearing", "pontoon": "laying a pontoon over"}[job.kind]
    return f"{state.unit(job.engineer).name} {what} {job.target}"


def _check_worker(state: State, seat: str, order: WorkOrder) -> Unit:
    """An engineer of the acting side, on the table, that has done nothing else this turn (11)."""
    unit = state.unit(order.unit)
    check_movement_order(state, seat, unit, order.text)
    if unit.type != "engineer":
        raise IllegalOrder(f"{unit.name} is {unit.type}, not an engineer: only an Engineer and his Pioneers "
                           "demolish bridges, clear obstacles and lay pontoons (11, 15.5).")
    if at_work(state, unit) is not None:
        raise IllegalOrder(f"{unit.name} has already worked this Movement phase; say it again next turn.")
    if not staff_14.in_command(state, unit):  # house (RULINGS.md 17.3.5): wounded, he cannot work meanwhile
        raise IllegalOrder(f"{unit.name} is wounded (17.3.5) and cannot work yet.")
    busy = _busy(state, unit, state.turn)
    if busy:
        raise IllegalOrder(f"{unit.name} has {busy} this turn: engineers work only in a Movement phase with no "
                           "other activity (11).")
    return unit


def _pieces(state: State, name: str) -> list[TerrainPiece]:
    return [t for t in state.terrain if t.name == name]


def _near(state: State, unit: Unit, name: str, what: str) -> TerrainPiece:
    """The piece of that name nearest the unit, if within the house reach (movement sheet)."""
    reach = house().movement.engineers.reach
    piece = min(_pieces(state, name), key=lambda t: _gap(unit, t))
    gap = _gap(unit, piece)
    if gap > reach + EPS:
        raise IllegalOrder(f"{unit.name} is {gap:.1f}\" from {name}: an engineer works at {what} within {reach:g}\" "
                           "of it (house).")
    return piece


def check_demolish(state: State, seat: str, order: Demolish) -> Demolish:
    """11: a bridge within reach, with a river under it, not tried before nor worked by another."""
    unit = _check_worker(state, seat, order)
    types = house().terrain
    if not any(types[t.type].crossing == "bridge" for t in _pieces(state, order.bridge)):
        raise IllegalOrder(f"{order.bridge} is not a bridge: engineers demolish bridges (11); `clear` removes an "
                           "obstacle.")
    if order.bridge in state.bridges_tried:
        raise IllegalOrder(f"{order.bridge} has had its attempt: only one attempt may be made to destroy a bridge (11).")
    bridge = _near(state, unit, order.bridge, "a bridge")
    if _water_under(state, bridge) is None:
        raise IllegalOrder(f"{order.bridge} crosses no river on this table: there is no span to destroy (11).")
    _check_not_taken(state, unit, "demolish", order.bridge)
    return order


def _check_not_taken(state: State, unit: Unit, kind: str, target: str) -> None:
    other = next((w for w in state.works if w.kind == kind and w.target == target and w.engineer != unit.id
                  and w.turn >= state.turn - 1), None)
    if other is not None:
        raise IllegalOrder(f"{_doing(state, other)} already: one engineer works at it at a time (11, house).")


def check_clear(state: State, seat: str, order: Clear) -> Clear:
    """11: an obstacle (a wall, fence or barricade, 15.10) within reach."""
    unit = _check_worker(state, seat, order)
    types = house().terrain
    if not any(types[t.type].obstacle for t in _pieces(state, order.obstacle)):
        raise IllegalOrder(f"{order.obstacle} is not an obstacle: engineers clear walls, fences, hedges and "
                           "barricades (11, 15.10).")
    _near(state, unit, order.obstacle, "an obstacle")
    return order


def check_pontoon(state: State, seat: str, order: Pontoon) -> Pontoon:
    """15.5: a river within reach no wider than a span, one pontoon per engineer (5.1: his bridge
    train), and a foot unit of four stands or more beside him doing nothing else."""
    unit = _check_worker(state, seat, order)
    book = rules().engineers
    river = next((t for t in _pieces(state, order.river) if house().terrain[t.type].water), None)
    if river is None:
        raise IllegalOrder(f"{order.river} is not a river: a pontoon bridge is laid over a river (15.3, 15.5).")
    _near(state, unit, order.river, "a river bank")
    low, high = _span(river, _across(river))
    if high - low > book.pontoon_length + EPS:
        raise IllegalOrder(f"{order.river} is {high - low:g}\" wide: one pontoon span is {book.pontoon_length:g}\" "
                           "long and the bot lays one span (15.5, house).")
    if any(t.type == PONTOON for t in _pieces(state, pontoon_name(unit))):
        raise IllegalOrder(f"{unit.name} has laid its pontoon bridge already: a detachment carries one (5.1).")
    _check_crew(state, unit, state.unit(order.helper))
    _check_not_taken(state, unit, "pontoon", order.river)
    return order


def _check_crew(state: State, unit: Unit, crew: Unit) -> None:
    """15.5: "four other foot stands": a foot unit of the side, beside the engineer, not at other work."""
    book = rules().engineers
    reach = house().movement.engineers.crew_reach
    if crew.side != unit.side or not on_table(crew) or crew.status != ON_TABLE:
        raise IllegalOrder(f"{crew.name} is not a unit of the {state.side_name(unit.side)} standing on the table.")
    if arm(crew) != "infantry" or crew.type == "engineer" or crew.stands < book.pontoon_foot_stands:
        raise IllegalOrder(f"{crew.name} is not {book.pontoon_foot_stands} foot stands: a pontoon needs an Engineer, "
                           f"his Pioneers and {book.pontoon_foot_stands} other foot stands (15.5).")
    gap = polygon_distance(base(unit).polygon(), base(crew).polygon())
    if gap > reach + EPS:
        raise IllegalOrder(f"{crew.name} is {gap:.1f}\" from {unit.name}: the foot stands laying a pontoon stand "
                           f"within {reach:g}\" of the engineer (house).")
    job = _job(state, crew.id)
    if job is not None and job.engineer != unit.id and job.turn >= state.turn - 1:
        raise IllegalOrder(f"{crew.name} is at other work ({_doing(state, job)}).")
    busy = _busy(state, crew, state.turn)
    if busy:
        raise IllegalOrder(f"{crew.name} has {busy} this turn: the pontoon crew works with no other activity (15.5).")


def _across(river: TerrainPiece) -> Point:
    """The way across a river (square to its length)."""
    along = _axis(river)
    return (-along[1], along[0])


def pontoon_name(unit: Unit) -> str:
    """The terrain piece an engineer's pontoon is (one per detachment, RULINGS.md 15.5)."""
    return f"{unit.name}'s pontoon"


# --- the work ------------------------------------------------------------------------------------


def _progress(state: State, unit: Unit, kind: str, target: str, helper: str = "") -> tuple[Works, str]:
    """This phase's work: the same job carried on (worked last turn, nobody busy since) or begun
    again from its first phase, with why it starts again; the engineer's other job is dropped."""
    job = next((w for w in state.works if w.engineer == unit.id), None)
    why = ""
    if job is not None and (job.kind, job.target, job.helper) == (kind, target, helper):
        workers = [unit, *([state.unit(helper)] if helper else [])]
        idle = [f"{w.name} {b}" for w in workers for b in [_busy(state, w, job.turn)] if b]
        if job.turn != state.turn - 1:
            why = " (interrupted: a Movement phase passed without the work, so it starts again)"
        elif idle:
            why = f" (interrupted: {', '.join(idle)}, so it starts again)"
        else:
            job.phases += 1
            job.turn = state.turn
            return job, ""
    if job is not None:
        state.works.remove(job)
        if job.kind == "pontoon":
            _drop_works(state, unit)
    job = Works(kind, unit.id, target, helper, 1, state.turn)
    state.works.append(job)
    return job, why


def demolish(state: State, order: Demolish, rng: Rng) -> list[Event]:
    """A phase of demolition; on the last (3rd wooden, 6th stone) the die: 5-6 a span is gone (11)."""
    unit = state.unit(order.unit)
    job, why = _progress(state, unit, "demolish", order.bridge)
    bridge = _near(state, unit, order.bridge, "a bridge")
    book = rules().engineers
    needed = book.stone_phases if bridge.type == STONE else book.wooden_phases
    kind = "stone" if bridge.type == STONE else "wooden"
    if job.phases < needed:
        return [public(f"{unit.name} works at demolishing {order.bridge}, a {kind} bridge: Movement phase "
                       f"{job.phases} of {needed} with no other activity (11){why}. {_again(needed - job.phases, unit.name + ' demolish ' + order.bridge)}")]
    state.works.remove(job)
    state.bridges_tried.append(order.bridge)
    check = rules().checks["demolish"]
    roll = rng.die(6)
    said = f"{unit.name} blows {order.bridge} ({kind}, {needed} quiet Movement phases, 11): 1d6 = {roll}: {check.result(roll)}"
    if check.result(roll) != check.result(6):
        return [public(said + ".", reveals=True)]
    river = _water_under(state, bridge)
    assert river is not None  # check_demolish: a bridge over a river
    across = _across(river)
    wet = intersection(outline(bridge), outline(river))
    middle = sum(dot(p, across) for p in wet) / len(wet)
    _replace(state, bridge, _cut(bridge, across, middle, book.span_inches))
    state.spans_down.append(order.bridge)
    return [public(f"{said}: {order.bridge} is cut in mid-stream and no unit crosses {river.name} on it (11).",
                   reveals=True)]


def clear(state: State, order: Clear) -> list[Event]:
    """11: 1" of the obstacle nearest the engineer is removed this phase."""
    unit = state.unit(order.unit)
    _progress(state, unit, "clear", order.obstacle)
    piece = _near(state, unit, order.obstacle, "an obstacle")
    width = rules().engineers.obstacle_inches
    along = _axis(piece)
    low, high = _span(piece, along)
    if high - low <= width + EPS:
        _replace(state, piece, [])
        return [public(f"{unit.name} removes the last of {order.obstacle} there ({high - low:.1f}\", 11).")]
    here = dot(base(unit).centre, along)
    middle = min(max(here, low + width / 2), high - width / 2)
    _replace(state, piece, _cut(piece, along, middle, width))
    return [public(f"{unit.name} removes {width:g}\" of {order.obstacle} (11: an Engineer and his Pioneers, a "
                   "Movement phase with no other activity); units pass the gap without crossing it.")]


def pontoon(state: State, order: Pontoon) -> list[Event]:
    """A phase of laying a pontoon (15.5); on the sixth the works become a bridge."""
    unit = state.unit(order.unit)
    crew = state.unit(order.helper)
    job, why = _progress(state, unit, "pontoon", order.river, crew.id)
    book = rules().engineers
    river = next(t for t in _pieces(state, order.river) if house().terrain[t.type].water)
    if job.phases == 1:
        job.at = _place(unit, river)
        _drop_works(state, unit)
        state.terrain.append(TerrainPiece(PONTOON_WORKS, pontoon_name(unit), _rectangle(job.at, river)))
    if job.phases < book.pontoon_phases:
        return [public(f"{unit.name}, his Pioneers and {crew.name} lay a pontoon over {order.river}: Movement phase "
                       f"{job.phases} of {book.pontoon_phases} with no other activity (15.5){why}. "
                       f"{_again(book.pontoon_phases - job.phases, f'{unit.name} pontoon {order.river} with {crew.name}')}")]
    state.works.remove(job)
    for piece in _pieces(state, pontoon_name(unit)):
        if piece.type == PONTOON_WORKS:
            piece.type = PONTOON
    return [public(f"{unit.name} has laid a pontoon bridge over {order.river} ({book.pontoon_width:g}\" wide, "
                   f"{book.pontoon_length:g}\" long, 15.5): units cross the river on it.")]


def _again(left: int, text: str) -> str:
    """What to say to carry the work on: the same order, in each of the next ``left`` Movement phases."""
    phases = "the next Movement phase" if left == 1 else f"each of the next {left} Movement phases"
    return f"Say `{text}` again in {phases}."


def _drop_works(state: State, unit: Unit) -> None:
    """An unfinished pontoon's works come up when the job starts again (the finished bridge stays)."""
    state.terrain[:] = [t for t in state.terrain if not (t.type == PONTOON_WORKS and t.name == pontoon_name(unit))]


def _place(unit: Unit, river: TerrainPiece) -> list[float]:
    """Where the pontoon goes: across the river's middle, level with the engineer along its bank."""
    along, across = _axis(river), _across(river)
    low, high = _span(river, across)
    centre = add(scale(along, dot(base(unit).centre, along)), scale(across, (low + high) / 2))
    return [round(centre[0], 4), round(centre[1], 4)]


def _rectangle(at: list[float], river: TerrainPiece) -> list[list[float]]:
    """The pontoon's outline: 2" along the river, 4" across it (15.5)."""
    book = rules().engineers
    along, across = scale(_axis(river), book.pontoon_width / 2), scale(_across(river), book.pontoon_length / 2)
    centre = (at[0], at[1])
    corners = [add(add(centre, scale(along, a)), scale(across, b)) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return [[round(x, 4), round(y, 4)] for x, y in corners]


# --- what the players see and may say -------------------------------------------------------------


def label(state: State, piece: TerrainPiece) -> str:
    """A piece's caption on the board with the engineers' work on it (11, 15.5)."""
    if piece.name in state.spans_down:
        return f"{piece.name} (span destroyed)"
    book = rules().engineers
    for job in state.works:
        if job.kind == "demolish" and job.target == piece.name:
            needed = book.stone_phases if piece.type == STONE else book.wooden_phases
            return f"{piece.name} (demolition {job.phases}/{needed})"
        if job.kind == "pontoon" and piece.type == PONTOON_WORKS and piece.name == pontoon_name(state.unit(job.engineer)):
            return f"pontoon (laying {job.phases}/{book.pontoon_phases})"  # short: it sits on a 2" piece
    return piece.name


def status(state: State) -> list[str]:
    """The status lines for engineers' work under way and bridges tried (11, 15.5)."""
    book = rules().engineers
    lines = []
    work = []
    for job in state.works:
        if job.kind == "clear":
            continue
        needed = book.pontoon_phases if job.kind == "pontoon" else (
            book.stone_phases if any(t.type == STONE for t in _pieces(state, job.target)) else book.wooden_phases)
        lapsed = "" if job.turn >= state.turn - 1 else ", stopped: starts again"
        work.append(f"{_doing(state, job)} {job.phases}/{needed} (last turn {job.turn}{lapsed})")
    if work:
        lines.append("Engineers at work: " + "; ".join(work) + ".")
    if state.bridges_tried:
        lines.append("Bridges tried (one attempt each, 11): " + "; ".join(
            f"{b} {'span destroyed' if b in state.spans_down else 'stands'}" for b in state.bridges_tried) + ".")
    return lines


def candidates(state: State, unit: Unit) -> list[DoiOrder]:
    """An engineer's work worth offering in the Movement phase (``parse_order`` keeps the legal ones)."""
    if unit.type != "engineer":
        return []
    types = house().terrain
    reach = house().movement.engineers.reach
    near = {t.name: t for t in state.terrain if _gap(unit, t) <= reach + EPS}
    out: list[DoiOrder] = [Demolish(unit.id, n) for n, t in near.items() if types[t.type].crossing == "bridge"]
    out += [Clear(unit.id, n) for n, t in near.items() if types[t.type].obstacle]
    rivers = [n for n, t in near.items() if types[t.type].water]
    if rivers:
        crew_reach = house().movement.engineers.crew_reach
        crews = sorted((u for u in state.units if u.side == unit.side and u.type != "engineer" and on_table(u)
                        and arm(u) == "infantry" and u.stands >= rules().engineers.pontoon_foot_stands),
                       key=lambda u: polygon_distance(base(unit).polygon(), base(u).polygon()))
        crews = [u for u in crews if polygon_distance(base(unit).polygon(), base(u).polygon()) <= crew_reach + EPS]
        out += [Pontoon(unit.id, r, c.id) for r in rivers for c in crews[:1]]
    return out
