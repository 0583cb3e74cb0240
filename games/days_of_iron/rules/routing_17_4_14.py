"""Book section 17.4.14 (and 17.4.15): routing on the measured table (option board=measured).

A unit forced to rout (a failed morale test, a lost close assault) turns its back on the enemy that
caused it and makes an initial rout of HALF its rout distance directly away from that enemy, in the
phase the rout happens; no deductions for the turn or formation (17.4.14). An unlimbered battery
(artillery not in column) is destroyed instead; a limbered one routs with its guns. Afterwards the
router makes continued routs, the full distance each Movement Phase before every other move (17.4.1)
but never more than one full rout distance in a turn (an initial half made this turn leaves the other
half), until it rallies (rules/morale_17_2.py), is destroyed or leaves the table: a unit that routs
off the table never returns (it counts as a full loss, 18.2).

17.4.15: a router that meets friendly infantry or artillery in line or skirmish order bursts through
them and they are disordered; friendly columns (and limbered batteries, and cavalry, house) it goes
around, sidestepping to the nearer side; a router forced into an enemy is dispersed and removed.
An attached General (14.4, 17.3.5) routs with his unit and is carried along.

17.5.1, 15.3: every rout (from a morale test, a lost close assault or a continued rout) whose path
enters or crosses a river away from a ford or bridge, or ends in one, drowns the unit: drowned,
surrendered or dispersed, it is removed from play (``water_crossed``, shared with the compulsory
moves of rules/close_assault_17_5.py).

The rout distances are house values (``morale-tests.toml`` [rout]; the book's movement chart is not
in its text).
"""

from __future__ import annotations

import math

from games.core.geometry import (
    Base,
    Point,
    Polygon,
    add,
    bearing_of,
    convex_hull,
    dot,
    length,
    overlaps,
    polygon_distance,
    scale,
    slide_contact,
    sub,
)
from games.core.ruleset import Event, public
from games.days_of_iron.data import house, morale_sheet
from games.days_of_iron.rules.formations_12 import (
    COLUMN,
    LINE,
    MIN_CONTACT,
    SKIRMISH,
    SQUARE,
    arm,
    base,
    in_contact,
    on_table,
    reform,
)
from games.days_of_iron.rules.movement_17_4 import fmt, in_water, pieces_under, uncrossed
from games.days_of_iron.state import DESTROYED, DISORDERED, GOOD, ON_TABLE, ROUTED_OFF, ROUTING, STAFF, State, Unit

EPS = 1e-6
SIDESTEP = 0.5  # inches per try when a router goes around a friendly column (17.4.15), house
SIDESTEP_TRIES = 24


def rout_distance(unit: Unit) -> float:
    """One full rout move for the unit's arm (house sheet; 17.4.14 refers to the movement chart)."""
    return morale_sheet().rout[arm(unit)]


def rout(state: State, unit: Unit, away_from: Point, *, cause: str = "") -> list[Event]:
    """The unit routs (17.4.14): it faces directly away from ``away_from`` (the enemy that caused
    it: a point on the table) and makes its initial rout, half its rout distance, now. Callable from
    any phase (a failed morale test, a lost close assault). Returns the public events."""
    why = f" ({cause})" if cause else ""
    if unit.type == "artillery" and unit.formation != COLUMN:
        unit.status, unit.pending_hits = DESTROYED, 0
        return [public(f"{unit.name} routs{why}: an unlimbered battery is destroyed (17.4.14).")]
    broke = ""
    if unit.formation == SQUARE:  # house (RULINGS.md, Squares): a routing square breaks up into a mass
        reform(unit, COLUMN)
        broke = " Its square breaks up: it routs as a column (house)."
    centre = (unit.x, unit.y)
    away = sub(centre, away_from)
    unit.rout_bearing = round(bearing_of(away), 6) % 360.0 if length(away) > EPS else (unit.facing + 180.0) % 360.0
    unit.status, unit.charging, unit.halted, unit.ground = ROUTING, "", False, False
    unit.rout_turn, unit.rout_done = state.turn, 0.0
    staff = attached_staff(state, unit)
    for general in staff:
        general.status = ROUTING
    events = [public(f"{unit.name} routs{why}: initial rout of {fmt(rout_distance(unit) / 2)}\" (17.4.14).{broke}")]
    events += [public(f"{g.name}, attached to {unit.name}, routs with it (17.3.5: \"if they are attached to a unit "
                      "that routs they will also rout\").") for g in staff]
    return events + rout_move(state, unit, rout_distance(unit) / 2)


def rout_left(state: State, unit: Unit) -> float:
    """Inches of rout the unit still makes this turn: one full rout distance a turn at most (17.4.14)."""
    done = unit.rout_done if unit.rout_turn == state.turn else 0.0
    return max(0.0, rout_distance(unit) - done)


def continue_routs(state: State, side: str) -> list[Event]:
    """The side's routers make their continued rout at the start of its part of the Movement Phase,
    before any other move (17.4.1); a router in contact with an enemy stays until the Close Assault
    is resolved (17.4.10)."""
    events: list[Event] = []
    for unit in [u for u in state.units if u.side == side and u.status == ROUTING and u.type != "general"
                 and on_table(u)]:
        enemies = [e for e in state.units if e.side != unit.side and on_table(e) and e.type != "general"]
        if any(in_contact(unit, e) for e in enemies):
            continue
        if unit.rout_turn == 0:  # routing before the table kept routs (a stored game): left where it is
            continue
        inches = rout_left(state, unit)
        if inches > EPS:
            events.append(public(f"{unit.name} continues its rout: {fmt(inches)}\" (17.4.14)."))
            events += rout_move(state, unit, inches)
    return events


def attached_staff(state: State, unit: Unit) -> list[Unit]:
    """Generals (14.4) and engineers (17.3.5, 17.5.7) attached to the unit: they share its risks and rout with it."""
    return [g for g in state.units if g.type in STAFF and g.attached == unit.id
            and g.status in (ON_TABLE, ROUTING)]


def _friend_blocks(friend: Unit) -> str:
    """17.4.15: "burst" through foot or guns in line or skirmish order, "around" columns (and
    limbered batteries); cavalry and Generals are gone around too (house)."""
    if friend.type in ("infantry", "artillery", "engineer") and friend.formation in (LINE, SKIRMISH):
        return "burst"
    return "around"


def _across(start: Base, polygon: Polygon) -> float:
    """Inches of the router's front an enemy's base stands across: 17.4.15, "if less than 1\" base
    contact, no 'contact' is deemed to take place" (RULINGS.md 17.4.15: the router brushes past)."""
    half = start.beam / 2
    side = [dot(sub(p, start.centre), start.starboard) for p in polygon]
    return max(0.0, min(half, max(side)) - max(-half, min(side)))


def rout_move(state: State, unit: Unit, inches: float) -> list[Event]:
    """Move a router ``inches`` along its rout bearing (17.4.14-15): off the table it is gone for
    good; into an enemy it is dispersed; friends in line are burst through and disordered; friendly
    columns are gone around."""
    if unit.rout_turn != state.turn:
        unit.rout_turn, unit.rout_done = state.turn, 0.0
    unit.rout_done = round(unit.rout_done + inches, 6)
    start_centre = (unit.x, unit.y)
    unit.facing = unit.rout_bearing
    start = base(unit)
    delta = scale(start.forward, inches)
    events: list[Event] = []
    enemies = [e for e in state.units if e.side != unit.side and on_table(e) and e.type != "general"]
    hit = [(t, e) for e in enemies if (t := slide_contact(start.polygon(), delta, base(e).polygon())) is not None
           and _across(start, base(e).polygon()) >= MIN_CONTACT - 1e-6]
    t, enemy = min(hit, key=lambda pair: pair[0]) if hit else (1.0, None)
    end = start.translated(scale(delta, t))
    river = water_crossed(state, start, end)
    if river:
        _place(state, unit, end, start_centre)
        return _gone(state, unit, DESTROYED, drowned(unit, river))
    if enemy is not None:
        _place(state, unit, end, start_centre)
        return _gone(state, unit, DESTROYED,
                     f"{unit.name} is forced into {enemy.name} and dispersed: removed from play (17.4.15).")
    swept = convex_hull([*start.polygon(), *end.polygon()])
    friends = [f for f in state.units if f.side == unit.side and f.id != unit.id and on_table(f)
               and f.type != "general" and f.status == ON_TABLE]
    for friend in friends:
        if overlaps(swept, base(friend).polygon()) and _friend_blocks(friend) == "burst":
            if friend.order == GOOD:
                friend.order, friend.order_turn = DISORDERED, state.turn
            events.append(public(f"{unit.name} bursts through {friend.name}, which is disordered (17.4.15)."))
    end, short = _clear_of(state, start, end, _blockers(state, unit))
    if short:
        events.append(public(f"{unit.name} stops short of {short}: no unit ends on another's base (17.4.8, 17.4.15)."))
    river = water_crossed(state, end, end)
    if river:  # gone round a column into the water
        _place(state, unit, end, start_centre)
        return [*events, *_gone(state, unit, DESTROYED, drowned(unit, river))]
    if not _on_table(state, end):
        _place(state, unit, end, start_centre)
        return [*events, *_gone(state, unit, ROUTED_OFF,
                               f"{unit.name} routs off the table and will not return (17.4.14).")]
    _place(state, unit, end, start_centre)
    return events


def water_crossed(state: State, start: Base, end: Base) -> str:
    """The river a move from ``start`` to ``end`` enters or crosses away from a ford or bridge, or
    ends in ("" if none; 15.3, 17.5.1)."""
    swept = convex_hull([*start.polygon(), *end.polygon()])
    types = house().terrain
    river = next((t for t in pieces_under(state, swept) if types[t.type].water and uncrossed(state, swept, t)), None)
    if river is None:
        river = in_water(state, end)
    return river.name if river is not None else ""


def drowned(unit: Unit, river: str) -> str:
    """What the log says of a router taken into a river (17.5.1)."""
    return (f"{unit.name} is routed into {river} away from a ford: drowned, surrendered or dispersed, "
            "it is removed from play (15.3, 17.5.1).")


def _blockers(state: State, unit: Unit) -> list[Unit]:
    """Every unit on the table a router may not end on (17.4.8): friends in any state, routing ones
    and Generals included, and enemies; not itself nor the Generals attached to it (they go with it)."""
    carried = {g.id for g in attached_staff(state, unit)}
    return [o for o in state.units if o.id != unit.id and o.id not in carried and on_table(o)]


def _clear_of(state: State, start: Base, end: Base, blockers: list[Unit]) -> tuple[Base, str]:
    """The end of a rout moved sideways, to the nearer side, until it stands clear of the friendly
    units it goes around (17.4.15) and of any other base (it cannot end on top of one); failing
    that, stopped short along its path at the last clear place. Returns the end and, when it
    stopped short, the name of the unit it stopped short of."""
    outlines = [(o.name, base(o).polygon()) for o in blockers]

    def in_the_way(b: Base) -> str:
        return next((name for name, poly in outlines if overlaps(b.polygon(), poly)), "")

    blocker = in_the_way(end)
    if not blocker:
        return end, ""
    for i in range(1, SIDESTEP_TRIES + 1):
        for sign in (1, -1):
            trial = end.translated(scale(end.starboard, sign * i * SIDESTEP))
            if not in_the_way(trial) and _on_table(state, trial):
                return trial, ""
    path = sub(end.centre, start.centre)
    steps = max(1, math.ceil(math.hypot(*path) / SIDESTEP))
    for k in range(steps - 1, -1, -1):
        trial = start.translated(scale(path, k / steps))
        if not in_the_way(trial):
            return trial, blocker
    return start, blocker


def _on_table(state: State, b: Base) -> bool:
    return all(-EPS <= x <= state.table_width + EPS and -EPS <= y <= state.table_height + EPS for x, y in b.polygon())


def _place(state: State, unit: Unit, b: Base, start_centre: Point) -> None:
    """Put the router's footprint at ``b`` and carry its attached Generals along by the same shift."""
    unit.x, unit.y = round(b.centre[0], 6), round(b.centre[1], 6)
    shift = sub((unit.x, unit.y), start_centre)
    for general in attached_staff(state, unit):
        general.x, general.y = add((general.x, general.y), shift)


def _gone(state: State, unit: Unit, fate: str, text: str) -> list[Event]:
    unit.status, unit.pending_hits = fate, 0
    for general in attached_staff(state, unit):
        general.attached, general.status = "", ON_TABLE
        general.x = min(max(general.x, 0.0), float(state.table_width))
        general.y = min(max(general.y, 0.0), float(state.table_height))
    return [public(text)]


def rout_by_hand(state: State, unit: Unit) -> list[Event]:
    """``rout UNIT`` on the measured table: the unit routs away from the nearest enemy on the table."""
    enemies = [e for e in state.units if e.side != unit.side and on_table(e) and e.type != "general"]
    if not enemies:
        unit.status, unit.rout_turn, unit.rout_done = ROUTING, state.turn, 0.0
        unit.rout_bearing = (unit.facing + 180.0) % 360.0
        return [public(f"{unit.name} routs (17.4.14).")]
    nearest = min(enemies, key=lambda e: polygon_distance(base(unit).polygon(), base(e).polygon()))
    return rout(state, unit, (nearest.x, nearest.y), cause=f"recorded by hand, away from {nearest.name}")
