"""Book section 17.2 (declared charges in the Morale Phase) with their impulses of 17.4, on the
measured table (option board=measured). In its side's part of the Morale Phase a foot or horse
unit declares a charge at a visible enemy in front of it and within its allowance and takes the
To Charge test; passing, it turns to face the target and makes its 1st Impulse (half its
allowance, never past contact); failing, it may not move closer to the enemy this turn. In the
Movement Phase the charger goes in with ``charge home``: the Charge Home test, then the rest of
the move into base-to-base contact; failing, it halts 2" in front of its target (17.4).

The tests read the house morale chart (1d6 in the unit's Class column, pass or fail:
``data/days_of_iron/reference/sheets/morale-chart.toml``; the book's factors are on the missing
sheets). Turning to face the target is free (house). Close assault then follows in 17.5.
"""

from __future__ import annotations

from games.core.dice import roll
from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.core.geometry import bearing_of, polygon_distance, scale, slide_contact, sub
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, public
from games.days_of_iron.data import house
from games.days_of_iron.orders import Charge, ChargeHome
from games.days_of_iron.rules.formations_12 import base, front_centre, on_table
from games.days_of_iron.rules.movement_17_4 import allowance, fmt, left, spend
from games.days_of_iron.state import ON_TABLE, STEPS, TURN, State, Unit

CHARGERS = ("infantry", "cavalry")
CONTACT = 0.05  # inches: closer than this is base to base
HALT_SHORT = 2.0  # book 17.4: a failed Charge Home halts 2" in front of the target


def morale_test(unit: Unit, rng: Rng, what: str) -> tuple[bool, str]:
    """One roll on the morale chart in the unit's Class column: (passed, text for the log)."""
    chart = house().charts["morale"]
    column = f"class-{min(max(unit.cls, 1), 4)}"
    index = chart.table.columns.index(column) if column in chart.table.columns else 0
    die = roll(chart.table.dice, rng).total
    result = chart.table.lookup(die, index)
    return result == "pass", f"{what} ({chart.table.name}, {column}): {chart.table.dice} = {die}: {result.upper()}"


def in_contact(a: Unit, b: Unit) -> bool:
    """Base to base (17.4: a unit touching an enemy is in contact)."""
    return polygon_distance(base(a).polygon(), base(b).polygon()) < CONTACT


def _acting(state: State, seat: str, unit: Unit, phase: str) -> None:
    if state.phase != TURN or STEPS[state.step] != phase:
        raise WrongPhase(f"this is done in the {phase} phase.", hint="Say `next` to reach it.")
    if seat not in (UMPIRE, state.acting_side()):
        raise NotYourTurn(f"the {state.side_name(state.acting_side())} act now.")
    if unit.side != state.acting_side():
        raise IllegalOrder(f"{unit.name} belongs to the {state.side_name(unit.side)}.")
    if not on_table(unit) or unit.status != ON_TABLE:
        raise IllegalOrder(f"{unit.name} is not standing on the table in good order.")


def check_charge(state: State, seat: str, order: Charge) -> Charge:
    """17.2: declared in the Morale phase by a foot or horse unit, at a visible enemy ahead of it
    (within 45 degrees of its facing) and no farther than its allowance."""
    unit, target = state.unit(order.unit), state.unit(order.target)
    _acting(state, seat, unit, "Morale")
    if unit.type not in CHARGERS:
        raise IllegalOrder(f"only infantry and cavalry charge; {unit.name} is {unit.type}.")
    if unit.charge_turn == state.turn:
        raise IllegalOrder(f"{unit.name} has declared its charge this turn.")
    if not on_table(target) or target.side == unit.side:
        raise IllegalOrder(f"{target.name} is not an enemy on the table.")
    off = abs((bearing_of(sub(base(target).centre, front_centre(unit))) - unit.facing + 180) % 360 - 180)
    if off > 45:
        raise IllegalOrder(f"{target.name} is not ahead of {unit.name} ({fmt(off)}° off its facing; at most 45).")
    gap = polygon_distance(base(unit).polygon(), base(target).polygon())
    if gap > allowance(state, unit) + 1e-9:
        raise IllegalOrder(f"{target.name} is {fmt(gap)}\" away, beyond {unit.name}'s {fmt(allowance(state, unit))}\" move.")
    return order


def _advance(unit: Unit, target: Unit, inches: float) -> tuple[float, bool]:
    """Move straight ahead up to ``inches``, stopping at contact with the target: (moved, contact)."""
    b = base(unit)
    delta = scale(b.forward, inches)
    t = slide_contact(b.polygon(), delta, base(target).polygon())
    moved = inches if t is None else inches * t
    unit.x, unit.y = b.moved(moved).centre
    return moved, in_contact(unit, target)


def charge(state: State, order: Charge, rng: Rng) -> list[Event]:
    """The To Charge test, then the 1st Impulse: face the target and move half the allowance."""
    unit, target = state.unit(order.unit), state.unit(order.target)
    unit.charge_turn = state.turn
    passed, text = morale_test(unit, rng, "To Charge test")
    if not passed:
        spend(state, unit, left(state, unit))
        return [public(f"{unit.name} declares a charge at {target.name}. {text}: it may not move closer "
                       "to the enemy this turn.")]
    unit.facing = round(bearing_of(sub(base(target).centre, front_centre(unit))), 6)
    moved, contact = _advance(unit, target, allowance(state, unit) / 2)
    spend(state, unit, moved)
    unit.charging = target.id
    where = "into contact" if contact else f"{fmt(polygon_distance(base(unit).polygon(), base(target).polygon()))}\" short"
    return [public(f"{unit.name} declares a charge at {target.name}. {text}. 1st Impulse: {fmt(moved)}\" "
                   f"({where}); `charge home` in the Movement phase.")]


def check_charge_home(state: State, seat: str, order: ChargeHome) -> ChargeHome:
    """17.4: a unit that passed its To Charge test this turn goes in, before its other moves."""
    unit = state.unit(order.unit)
    _acting(state, seat, unit, "Movement")
    if unit.charge_turn != state.turn or not unit.charging:
        raise IllegalOrder(f"{unit.name} has no charge under way this turn.", hint="Declare charges in the Morale phase.")
    if unit.home_turn == state.turn:
        raise IllegalOrder(f"{unit.name} has made its 2nd Impulse this turn.")
    if not on_table(state.unit(unit.charging)):
        raise IllegalOrder(f"{unit.name}'s target is no longer on the table.")
    return order


def charge_home(state: State, order: ChargeHome, rng: Rng) -> list[Event]:
    """The Charge Home test, then the rest of the move into contact, or a halt 2" short (17.4)."""
    unit = state.unit(order.unit)
    target = state.unit(unit.charging)
    unit.home_turn = state.turn
    passed, text = morale_test(unit, rng, "Charge Home test")
    gap = polygon_distance(base(unit).polygon(), base(target).polygon())
    if not passed:
        unit.charging = ""  # no charger's bonus in a melee it did not press home
        if gap < HALT_SHORT:  # already closer (contact in the 1st Impulse): it pulls back to 2"
            unit.x, unit.y = base(unit).moved(gap - HALT_SHORT).centre
        else:
            _advance(unit, target, min(gap - HALT_SHORT, left(state, unit)))
        spend(state, unit, left(state, unit))
        return [public(f"{unit.name}: {text}: it halts {fmt(HALT_SHORT)}\" "
                       f"in front of {target.name} (17.4).")]
    moved, contact = _advance(unit, target, left(state, unit))
    spend(state, unit, left(state, unit))
    result = f"in contact with {target.name}: close assault follows (17.5)" if contact else f"it falls short of {target.name}"
    return [public(f"{unit.name}: {text}. 2nd Impulse {fmt(moved)}\": {result}.")]
