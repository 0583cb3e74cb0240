"""Book section 9.1, Cavalry: "A Cavalry unit can deploy as skirmishers or may dismount and deploy
as skirmishing infantry." On the measured table `UNIT dismount` and `UNIT mount`, in the Movement
phase.

RULINGS (data/days_of_iron/RULINGS.md 9.1): dismounting and mounting are each a formation change
(17.4.7: once a turn, not in a heavy wood, at a formation change's cost, not for a caught unit nor a
charger before its 2nd Impulse). Dismounted, the unit is infantry in skirmish order for every rule
(``formations_12.arm``: the infantry line of the movement sheet for its rates, stand size and rout
distance; on foot for terrain; not mounted for charges, so infantry may charge it and it may not
charge horse; not fast as a target) until it mounts, when it forms column again; it keeps its own
Class. It may not change formation on foot (it mounts first).
"""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.core.ruleset import Event, public
from games.days_of_iron.orders import Dismount, Mount
from games.days_of_iron.rules import movement_17_4
from games.days_of_iron.rules.formations_12 import COLUMN, SKIRMISH, front_centre, reform
from games.days_of_iron.state import State, Unit


def check(state: State, seat: str, order: Dismount | Mount) -> Dismount | Mount:
    """In the side's Movement phase, with a formation change to spend: a mounted cavalry unit
    dismounts, a dismounted one mounts."""
    unit = state.unit(order.unit)
    movement_17_4.check_normal_movement(state, seat, unit, order.text)
    down = isinstance(order, Dismount)
    if down and unit.type != "cavalry":
        raise IllegalOrder(f"only cavalry dismount (9.1); {unit.name} is {unit.type}.")
    if down and unit.dismounted:
        raise IllegalOrder(f"{unit.name} is dismounted already.", hint=f"`{unit.id} mount` to take the horses again.")
    if not down and not unit.dismounted:
        raise IllegalOrder(f"{unit.name} is not dismounted.", hint="Only dismounted cavalry (`UNIT dismount`, 9.1) mount.")
    movement_17_4.check_change(state, unit)
    movement_17_4.check_lands(state, unit, _changed(unit, dismounted=down), order.text,
                              "dismounting" if down else "mounting")
    return order


def carry_out(state: State, order: Dismount | Mount) -> list[Event]:
    """A checked dismount or mount: the formation change's cost, then on foot in skirmish order or
    on the horses in column."""
    unit = state.unit(order.unit)
    down = isinstance(order, Dismount)
    movement_17_4.spend(state, unit, movement_17_4.change_cost(state, unit))
    _change(unit, dismounted=down)
    unit.changed_turn = state.turn
    done = "dismounts and deploys as skirmishing infantry" if down else "mounts and forms column"
    return [public(f"{unit.name} {done} (9.1; {movement_17_4.fmt(movement_17_4.left(state, unit))}\" left this turn).")]


def _changed(unit: Unit, *, dismounted: bool) -> Unit:
    trial = Unit(**{**unit.__dict__})
    _change(trial, dismounted=dismounted)
    return trial


def _change(unit: Unit, *, dismounted: bool) -> None:
    """On foot in skirmish order, or back on the horses in column, about the front's centre."""
    front = front_centre(unit)  # before its stands change size
    unit.dismounted = dismounted
    reform(unit, SKIRMISH if dismounted else COLUMN, front)
