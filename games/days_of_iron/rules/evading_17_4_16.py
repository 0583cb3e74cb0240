"""Book section 17.4.16 (Evading) on the measured table (option board=measured): a skirmisher, a battery's
crew or a General charged by the enemy may evade after passing its Being Charged test (the test
and the ``UNIT evade`` answer are in ``rules/charges_17_2.py``). It moves up to half its normal
move for its formation directly away from the charger, without changing formation (it keeps its
facing); a battery's crew leave their guns where they stand, and the battery may not fire until
they come back in the Movement Phase (17.4.8), but limbered horse artillery not contacted by the
1st Impulse evades with its guns (10.3). A unit whose evade takes it off the table may come
back three turns later in the Movement Phase (``UNIT return``), where it left.

Into cover (17.4.16: "Infantry, staff and artillery crew evade movement may be into cover"):
``UNIT evade into PIECE`` takes the evader the shortest way into a piece of terrain that gives
cover, up to the same half move, ending in it (RULINGS.md 17.4.16). A battery's crews may go into
cover or behind a friendly infantry unit (10.2, ``UNIT evade behind FRIEND``), on foot, as far as
half an infantry skirmish move; the bot keeps no piece for the crews, so it checks they can get
there and says where they went (RULINGS.md 10.2).

Inside a square (17.4.16: "... or inside infantry in square formations"): ``UNIT evade into
SQUARE`` takes a skirmisher or a General inside a friendly infantry square whose nearest edge is
within its half move; its stands huddle at the square's centre (``Unit.shelter``; a small base
that touches nothing outside the square), where it is neither charged nor shot at on its own, and
it leaves with a normal move later. A battery's crews go in on foot, as far as into cover, and
leave the guns (RULINGS.md, Squares 4). House: the evade stops short of a unit it would end on and of a river
outside its crossings (15.3, 17.4.8), and not within 1" of another enemy (17.4).
"""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.core.geometry import (
    Base,
    Point,
    closest_points,
    normalise,
    overlaps,
    point_in_polygon,
    point_segment_distance,
    polygon_distance,
    sub,
)
from games.core.ruleset import Event, public
from games.days_of_iron.data import house
from games.days_of_iron.orders import Evade, Return
from games.days_of_iron.rules.formations_12 import COLUMN, SKIRMISH, SQUARE, base, in_contact, on_table, sheltered_in
from games.days_of_iron.rules.movement_17_4 import (
    CLEAR_STEP,
    EPS,
    allowance,
    back_off,
    check_movement_order,
    clear_run,
    closed_text,
    closed_to,
    fmt,
    horse_artillery,
    left,
    outline,
    spend,
    visible_enemies,
)
from games.days_of_iron.state import EVADED_OFF, ON_TABLE, State, TerrainPiece, Unit

RETURN_AFTER = 3  # book 17.4.16: an evader off the table may return three turns later


def can_evade(unit: Unit) -> bool:
    """17.4.16: units in skirmish formation, artillery crew and staff may evade."""
    return unit.formation == SKIRMISH or unit.type in ("artillery", "general")


def _inside(state: State, unit: Unit) -> bool:
    return all(-EPS <= x <= state.table_width + EPS and -EPS <= y <= state.table_height + EPS
               for x, y in base(unit).polygon())


def limbered_horse(unit: Unit, charger: Unit) -> bool:
    """10.3: "Limbered Horse artillery may evade with their guns if charged as long as they are not
    contacted during the 1st impulse move" (limbered: in column); not once two limber casualties
    make it move as foot artillery."""
    return horse_artillery(unit) and unit.formation == COLUMN and not in_contact(unit, charger)


def crews_only(unit: Unit, charger: Unit) -> bool:
    """A battery whose crews evade without the guns (all but limbered horse artillery, 10.3)."""
    return unit.type == "artillery" and not limbered_horse(unit, charger)


def crew_reach() -> float:
    """RULINGS.md 10.2: crews that leave their guns go on foot, half an infantry skirmish move."""
    return house().movement.rates["infantry"].of(SKIRMISH) / 2


def is_cover(piece: TerrainPiece) -> bool:
    """Terrain the sheet classes as light or heavy cover (15.11)."""
    return house().terrain[piece.type].cover != "none"


def piece_named(state: State, name: str) -> TerrainPiece:
    """The terrain piece an evade names (the order's name was checked against the table's pieces)."""
    return next(t for t in state.terrain if t.name == name)


def check_route(state: State, unit: Unit, charger: Unit, order: Evade) -> None:
    """17.4.16, 10.2: an evade into cover is for infantry, staff and crews, into a piece that gives
    cover and that the evade reaches; behind a friend only for a battery's crews, to a friendly
    infantry unit whose rear they reach."""
    named = [x for x in (order.cover, order.square, order.friend) if x is not None]
    if not named:
        return
    if len(named) > 1:
        raise IllegalOrder("an evade goes into cover, inside a square or behind a friendly unit: one of them.",
                           hint=f"`{unit.id} evade into {named[0]}`.")
    crews = crews_only(unit, charger)
    if order.friend is not None:
        _check_behind(state, unit, crews, state.unit(order.friend))
        return
    if unit.type not in ("infantry", "general") and not crews:
        raise IllegalOrder(f"only infantry, staff and artillery crews evade into cover or inside a square (17.4.16); "
                           f"{unit.name} is {'limbered horse artillery' if unit.type == 'artillery' else unit.type}: "
                           "it evades directly away.", hint=f"`{unit.id} evade`.")
    if order.square is not None:
        _check_square(state, unit, crews, state.unit(order.square))
        return
    assert order.cover is not None
    piece = piece_named(state, order.cover)
    if not is_cover(piece):
        raise IllegalOrder(f"{piece.name} ({house().terrain[piece.type].name}) gives no cover (15.11): an evade goes "
                           "into cover or directly away (17.4.16).", hint=f"`{unit.id} evade`.")
    if crews:
        far = _crew_distance(unit, outline(piece))
        if far > crew_reach() + EPS:
            raise IllegalOrder(f"{piece.name} is {fmt(far)}\" from {unit.name}'s guns: its crews on foot evade "
                               f"{fmt(crew_reach())}\" at most (10.2, 17.4.16).", hint=f"`{unit.id} evade`.")
        return
    _end, _moved, why = into_cover(state, unit, charger, piece)
    if why:
        raise IllegalOrder(f"{unit.name} cannot evade into {piece.name}: {why} (17.4.16).", hint=f"`{unit.id} evade`.")


def routes(state: State, unit: Unit, charger: Unit) -> list[Evade]:
    """The evades into cover (17.4.16) and, for crews, behind friendly infantry (10.2) that
    ``unit`` could make from where it stands (each one ``check_route`` passes)."""
    out: list[Evade] = []
    reach = crew_reach() if crews_only(unit, charger) else allowance(state, unit) / 2
    here = base(unit).polygon()
    for piece in state.terrain:
        if is_cover(piece) and polygon_distance(here, outline(piece)) <= reach + EPS:
            out.append(Evade(unit.id, cover=piece.name))
    if crews_only(unit, charger):
        out += [Evade(unit.id, friend=f.id) for f in state.units if f.side == unit.side and f.type == "infantry"
                and on_table(f) and polygon_distance(here, base(f).polygon()) <= reach + EPS]
    out += [Evade(unit.id, square=f.id) for f in state.units if f.side == unit.side and f.formation == SQUARE
            and on_table(f) and polygon_distance(here, base(f).polygon()) <= reach + EPS]
    good: list[Evade] = []
    for route in out:
        try:
            check_route(state, unit, charger, route)
        except IllegalOrder:
            continue
        good.append(route)
    return good


def _crew_distance(unit: Unit, area: list[Point]) -> float:
    """How far the crews, setting off from the guns, go to reach ``area``."""
    centre = base(unit).centre
    if point_in_polygon(centre, area):
        return 0.0
    return min(point_segment_distance(centre, area[i], area[(i + 1) % len(area)]) for i in range(len(area)))


def _check_behind(state: State, unit: Unit, crews: bool, friend: Unit) -> None:
    """10.2: crews "might evade behind cover or a friendly infantry unit" within their reach."""
    if not crews:
        raise IllegalOrder(f"only a battery's crews evade behind a friendly infantry unit (10.2); {unit.name} "
                           "evades directly away or into cover (17.4.16).", hint=f"`{unit.id} evade`.")
    if friend.side != unit.side or friend.type != "infantry" or not on_table(friend) or friend.status != ON_TABLE:
        raise IllegalOrder(f"{friend.name} is not a friendly infantry unit standing on the table: crews evade behind "
                           "one of those (10.2).")
    rear = base(friend).edge("stern")
    far = point_segment_distance(base(unit).centre, rear[0], rear[1])
    if far > crew_reach() + EPS:
        raise IllegalOrder(f"the rear of {friend.name} is {fmt(far)}\" from {unit.name}'s guns: its crews on foot "
                           f"evade {fmt(crew_reach())}\" at most (10.2, 17.4.16).", hint=f"`{unit.id} evade`.")


def _check_square(state: State, unit: Unit, crews: bool, square: Unit) -> None:
    """17.4.16: "inside infantry in square formations": a friendly infantry square on the table whose
    nearest edge is within the evade (half the normal move; crews, from the guns, as into cover)."""
    if square.side != unit.side:
        raise IllegalOrder(f"{square.name} is not a friendly unit: an evade goes inside a square of its own side "
                           "(17.4.16).", hint=f"`{unit.id} evade`.")
    if square.formation != SQUARE or square.status != ON_TABLE:
        now = "routing" if square.status != ON_TABLE else f"in {square.formation}"
        raise IllegalOrder(f"{square.name} is not in square (it is {now}): an evade goes inside infantry in square "
                           "formation (17.4.16).", hint=f"`{unit.id} evade`.")
    area = list(base(square).polygon())
    far = _crew_distance(unit, area) if crews else polygon_distance(base(unit).polygon(), area)
    reach = crew_reach() if crews else allowance(state, unit) / 2
    if far > reach + EPS:
        who = f"{unit.name}'s guns: its crews on foot evade" if crews else f"{unit.name}: it evades half its move"
        raise IllegalOrder(f"{square.name} is {fmt(far)}\" from {who} ({fmt(reach)}\") at most (17.4.16).",
                           hint=f"`{unit.id} evade`.")


def into_cover(state: State, unit: Unit, charger: Unit, piece: TerrainPiece) -> tuple[Base, float, str]:
    """Where an evade into ``piece`` ends (RULINGS.md 17.4.16): straight the shortest way into it (from
    the unit's nearest point to the piece's; already in it, towards its middle), up to half the normal
    move, stopping short of units and rivers (15.3, 17.4.8) and 1" from other enemies (17.4), and
    no farther than it stays in the piece. (end, inches, why it may not go there or "")."""
    start = base(unit)
    area = outline(piece)
    inches = allowance(state, unit) / 2
    near, far = closest_points(start.polygon(), area)
    if polygon_distance(start.polygon(), area) > EPS:
        way = normalise(sub(far, near))
    else:
        middle = (sum(p[0] for p in area) / len(area), sum(p[1] for p in area) / len(area))
        way = normalise(sub(middle, start.centre)) if middle != start.centre else start.forward
    room, stopper = clear_run(state, unit, start, way, inches, target=charger.id)
    room, near_enemy = back_off(state, unit, start, way, room, charger.id)
    while room > EPS and not overlaps(start.translated((way[0] * room, way[1] * room)).polygon(), area):
        room = max(0.0, round(room - CLEAR_STEP, 6))
    end = start.translated((way[0] * room, way[1] * room))
    if not overlaps(end.polygon(), area):
        blocked = stopper or near_enemy
        why = (f"{blocked} is in the way" if blocked else
               f"it is {fmt(polygon_distance(start.polygon(), area))}\" away, beyond half {unit.name}'s move "
               f"({fmt(inches)}\")")
        return end, room, why
    closed = closed_to(state, unit, start, end)
    if closed is not None:
        return end, room, closed_text(unit, closed)
    if not all(-EPS <= x <= state.table_width + EPS and -EPS <= y <= state.table_height + EPS for x, y in end.polygon()):
        return end, room, "the way there leaves the table"
    if polygon_distance(end.polygon(), base(charger).polygon()) < polygon_distance(start.polygon(), base(charger).polygon()) - EPS:
        return end, room, f"the way there goes towards {charger.name} (an evade goes away from the charge)"
    return end, room, ""


def evade(state: State, unit: Unit, charger: Unit, route: Evade | None = None) -> list[Event]:
    """Half the normal move directly away from the charger (no formation change), or into cover
    (17.4.16); a battery's crew leave the guns, unless it is limbered horse artillery, which evades
    with them (10.3), and may go into cover or behind a friendly infantry unit (10.2); off the
    table, the unit may come back three turns later."""
    cover = route.cover if route is not None else None
    friend = route.friend if route is not None else None
    square = state.unit(route.square) if route is not None and route.square is not None else None
    if crews_only(unit, charger):
        unit.fired_turn = state.turn  # the guns stay; with no crew they do not fire this turn (17.4.8)
        where = (f" into {cover} (17.4.16)" if cover else
                 f" inside the square of {square.name} (17.4.16)" if square else
                 f" behind {state.unit(friend).name} (10.2)" if friend else "")
        return [public(f"The crew of {unit.name} leave their guns and evade{where}; the battery may not fire "
                       "until they come back in the Movement phase (17.4.8, 17.4.16).")]
    if square is not None:  # its stands huddle at the square's centre (RULINGS.md, Squares 4)
        unit.x, unit.y, unit.shelter = square.x, square.y, square.id
        return [public(f"{unit.name} evades inside the square of {square.name}, away from {charger.name} (17.4.16); "
                       "it leaves with a move.")]
    if cover is not None:
        end, moved, _ = into_cover(state, unit, charger, piece_named(state, cover))
        unit.x, unit.y = end.centre
        return [public(f"{unit.name} evades {fmt(moved)}\" into {cover}, away from {charger.name} (17.4.16).")]
    inches = allowance(state, unit) / 2
    away = normalise(sub(base(unit).centre, base(charger).centre))
    start = (unit.x, unit.y)
    b = base(unit)
    room, stopper = clear_run(state, unit, b, away, inches, target=charger.id)
    room, near = back_off(state, unit, b, away, room, charger.id)
    if room < inches - EPS:
        unit.x, unit.y = start[0] + away[0] * room, start[1] + away[1] * room
        return [public(f"{unit.name} evades {fmt(room)}\" directly away from {charger.name}, stopping short of "
                       f"{stopper or near} (17.4.16).")]
    unit.x, unit.y = start[0] + away[0] * inches, start[1] + away[1] * inches
    if _inside(state, unit):
        return [public(f"{unit.name} evades {fmt(inches)}\" directly away from {charger.name} (17.4.16).")]
    # off the table: it left where its path crossed the edge; keep the last place wholly on the table
    lo, hi = 0.0, inches
    for _ in range(30):
        mid = (lo + hi) / 2
        unit.x, unit.y = start[0] + away[0] * mid, start[1] + away[1] * mid
        lo, hi = (mid, hi) if _inside(state, unit) else (lo, mid)
    unit.x, unit.y = start[0] + away[0] * lo, start[1] + away[1] * lo
    unit.status = EVADED_OFF
    unit.return_turn = state.turn + RETURN_AFTER
    return [public(f"{unit.name} evades off the table away from {charger.name}; it may come back in the "
                   f"Movement phase of turn {unit.return_turn} (`{unit.id} return`, 17.4.16).")]


def check_return(state: State, seat: str, order: Return) -> Return:
    """17.4.16: in its side's Movement phase, three turns after it evaded off the table, clear of the enemy."""
    unit = state.unit(order.unit)
    if unit.status != EVADED_OFF:
        raise IllegalOrder(f"{unit.name} has not evaded off the table.")
    unit.status = ON_TABLE  # checked as a unit on the table, then put back
    try:
        check_movement_order(state, seat, unit, order.text)
    finally:
        unit.status = EVADED_OFF
    if state.turn < unit.return_turn:
        raise IllegalOrder(f"{unit.name} may come back in turn {unit.return_turn} (three turns after it evaded, 17.4.16).")
    clearance = house().movement.costs.enemy_clearance
    for enemy in visible_enemies(state, unit.side):
        if polygon_distance(base(unit).polygon(), base(enemy).polygon()) < clearance - EPS:
            raise IllegalOrder(f"{enemy.name} stands where {unit.name} left the table; it cannot come back there now.")
    return order


def come_back(state: State, order: Return) -> list[Event]:
    """Back on the table where it left, its move for the turn spent coming on."""
    unit = state.unit(order.unit)
    unit.status = ON_TABLE
    spend(state, unit, left(state, unit))
    return [public(f"{unit.name} comes back onto the table where it left it (17.4.16).")]


def expose(state: State) -> list[Event]:
    """House (RULINGS.md, Squares 4): a unit whose square is no longer there to shelter it (it routed,
    fell back, was removed) stands exposed where it huddled, at its own size again."""
    out: list[Event] = []
    for unit in state.units:
        if unit.shelter and sheltered_in(state, unit) is None:
            square = state.unit(unit.shelter)
            unit.shelter = ""
            if on_table(unit):
                out.append(public(f"{square.name} no longer shelters {unit.name}: it stands in the open (17.4.16)."))
    return out
