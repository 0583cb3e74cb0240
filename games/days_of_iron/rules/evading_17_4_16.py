"""Book section 17.4.16 (Evading) on the measured table (option board=measured): a skirmisher, a battery's
crew or a General charged by the enemy may evade after passing its Being Charged test (the test
and the ``UNIT evade`` answer are in ``rules/charges_17_2.py``). It moves up to half its normal
move for its formation directly away from the charger, without changing formation (it keeps its
facing); a battery's crew leave their guns where they stand, and the battery may not fire until
they come back in the Movement Phase (17.4.8), but limbered horse artillery not contacted by the
1st Impulse evades with its guns (10.3). A unit whose evade takes it off the table may come
back three turns later in the Movement Phase (``UNIT return``), where it left.

Not done: evading into cover or into an infantry square (the bot has no squares). House: the
evade stops short of a unit it would end on and of a river outside its crossings (15.3, 17.4.8),
and not within 1" of another enemy (17.4).
"""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.core.geometry import normalise, polygon_distance, sub
from games.core.ruleset import Event, public
from games.days_of_iron.data import house
from games.days_of_iron.orders import Return
from games.days_of_iron.rules.formations_12 import COLUMN, SKIRMISH, base, in_contact
from games.days_of_iron.rules.movement_17_4 import (
    EPS,
    HORSE_ARTILLERY,
    allowance,
    back_off,
    check_movement_order,
    clear_run,
    fmt,
    left,
    spend,
    visible_enemies,
)
from games.days_of_iron.state import EVADED_OFF, ON_TABLE, State, Unit

RETURN_AFTER = 3  # book 17.4.16: an evader off the table may return three turns later


def can_evade(unit: Unit) -> bool:
    """17.4.16: units in skirmish formation, artillery crew and staff may evade."""
    return unit.formation == SKIRMISH or unit.type in ("artillery", "general")


def _inside(state: State, unit: Unit) -> bool:
    return all(-EPS <= x <= state.table_width + EPS and -EPS <= y <= state.table_height + EPS
               for x, y in base(unit).polygon())


def limbered_horse(unit: Unit, charger: Unit) -> bool:
    """10.3: "Limbered Horse artillery may evade with their guns if charged as long as they are not
    contacted during the 1st impulse move" (limbered: in column)."""
    return HORSE_ARTILLERY in unit.modifiers and unit.formation == COLUMN and not in_contact(unit, charger)


def evade(state: State, unit: Unit, charger: Unit) -> list[Event]:
    """Half the normal move directly away from the charger (no formation change); a battery's crew
    leave the guns, unless it is limbered horse artillery, which evades with them (10.3); off the
    table, the unit may come back three turns later."""
    if unit.type == "artillery" and not limbered_horse(unit, charger):
        unit.fired_turn = state.turn  # the guns stay; with no crew they do not fire this turn (17.4.8)
        return [public(f"The crew of {unit.name} leave their guns and evade; the battery may not fire "
                       "until they come back in the Movement phase (17.4.8, 17.4.16).")]
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
