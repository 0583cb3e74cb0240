"""Book section 17.2 (declared charges in the Morale Phase) with their impulses of 17.4, on the
measured table (option board=measured). In its side's part of the Morale Phase a foot or horse
unit declares a charge at a visible enemy in front of it and within its allowance and takes the
To Charge test; passing, it turns to face the target and makes its 1st Impulse (halfway to
the target, 17.2.3); failing, it may not move closer to the enemy this turn. In the
Movement Phase the charger goes in with ``charge home``: the target's reserved defensive fire
(17.3.1), the Charge Home test, then the rest of the move into base-to-base contact; failing, it
halts 2" in front of its target (17.4.10), or it stops with ``feint`` (17.4.2, 17.4.12).

The charged unit (17.2.2): when every 1st Impulse is made (the end of the Morale Phase) it takes
the Being Charged test on the house Being Charged chart and stands, or is disordered and halted,
or routs; its owner may answer first with ``UNIT stand`` or ``UNIT evade`` (skirmishers, battery
crews and Generals, 17.4.16: ``rules/evading_17_4_16.py``); units of the initiative side that
could evade get their own part of the phase to answer (no new charges then). A unit charged from
within 2" by foot or 6" by horse is caught (17.2.3): no test, no evade, no formation change. Enemy
skirmishers in the open on the ground a formed charger's 1st Impulse sweeps rout at once, and a
screen charged by formed troops must evade (17.2.7). The new enemy of a Break-Through Attack
(17.5.4) tests with the charged units: passing, it stands fast; failing, it routs. A charge at a charging
enemy is a counter charge (17.4.13): the counter-charged unit tests at once. Infantry and
irregulars charge once a turn, never at mounted troops, and artillery never charges (17.2.4); a
unit whose declared charge went ahead may not shoot (17.2.5). In the Movement Phase a unit that
declared no charge may make an opportunity charge (17.4.11): the To Charge test, the target's
Being Charged test and defensive fire, then half its move straight ahead (no wheel, no formation
change), only at an enemy within 2" if it shot this turn.

The tests read the house charts (1d6 in the unit's Class column): To Charge and Charge Home on
``data/days_of_iron/reference/sheets/morale-chart.toml``, Being Charged on
``being-charged-chart.toml`` (the book's factors are on the missing sheets). Turning to face the
target is free (house). Close assault then follows in 17.5.
"""

from __future__ import annotations

import math

from games.core.dice import roll
from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.core.geometry import (
    Base,
    bearing_of,
    convex_hull,
    overlaps,
    point_segment_distance,
    polygon_distance,
    scale,
    slide_contact,
    sub,
)
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, public
from games.days_of_iron.data import house
from games.days_of_iron.orders import (
    Charge,
    ChargeHome,
    Dismount,
    DoiOrder,
    Evade,
    Face,
    Feint,
    Fire,
    Form,
    Mount,
    ReserveFire,
    Return,
    Stand,
)
from games.days_of_iron.rules import close_assault_17_5, evading_17_4_16, formations_12, losses_17_5, routing_17_4_14
from games.days_of_iron.rules import shooting_17_3 as shooting
from games.days_of_iron.rules.formations_12 import (
    LINE,
    MIN_CONTACT,
    SKIRMISH,
    SQUARE,
    arm,
    base,
    front_centre,
    in_contact,
    on_table,
    sheltered_in,
)
from games.days_of_iron.rules.movement_17_4 import (
    allowance,
    back_off,
    charge_not_home,
    clear_run,
    closed_text,
    closed_to,
    fmt,
    in_the_way,
    left,
    passed_lines,
    spend,
    visible_enemies,
)
from games.days_of_iron.state import DISORDERED, EVADED_OFF, ON_TABLE, ROUTING, STEPS, TURN, State, Unit

CHARGERS = ("infantry", "cavalry")
MOUNTED = ("cavalry", "general")  # 17.2.4: infantry may not charge mounted troops (horse, mounted staff)
CONTACT = 0.05  # inches: closer than this is base to base
HALT_SHORT = 2.0  # book 17.4.10: a failed Charge Home halts 2" in front of the target
CAUGHT = {"infantry": 2.0, "cavalry": 6.0}  # book 17.2.3: a target this close is caught
SHOT_REACH = 2.0  # book 17.2.5, 17.4.11: a unit that shot opportunity-charges only an enemy this close


def morale_test(unit: Unit, rng: Rng, what: str, chart_id: str = "morale", *, plus: int = 0,
                why: str = "") -> tuple[str, str]:
    """One roll on a house chart in the unit's Class column, ``plus`` added (``why``): (result, text
    for the log)."""
    chart = house().charts[chart_id]
    column = f"class-{min(max(unit.cls, 1), 4)}"
    index = chart.columns.index(column) if column in chart.columns else 0
    die = roll(chart.dice, rng).total
    result = chart.lookup(die + plus, index)
    added = f" {plus:+d} {why} = {die + plus}" if plus else ""
    return result, f"{what} ({chart.name}, {column}): {chart.dice} = {die}{added}: {result.upper()}"


def passes(unit: Unit, rng: Rng, what: str) -> tuple[bool, str]:
    """A To Charge or Charge Home test on the morale chart: (passed, text)."""
    result, text = morale_test(unit, rng, what)
    return result == "pass", text


def gap(a: Unit, b: Unit) -> float:
    """Edge-to-edge distance between two units' bases (17.2.3's 2" and 6" are measured so)."""
    return polygon_distance(base(a).polygon(), base(b).polygon())


def phase_is(state: State, phase: str) -> bool:
    """Whether the turn is in ``phase`` (17), the window each charge order belongs to."""
    return state.phase == TURN and STEPS[state.step] == phase


def _acting(state: State, seat: str, unit: Unit, phase: str) -> None:
    if not phase_is(state, phase):
        raise WrongPhase(f"this is done in the {phase} phase.", hint="Say `next` to reach it.")
    if seat not in (UMPIRE, state.acting_side()):
        raise NotYourTurn(f"the {state.side_name(state.acting_side())} act now.")
    if unit.side != state.acting_side():
        raise IllegalOrder(f"{unit.name} belongs to the {state.side_name(unit.side)}.")
    if not on_table(unit) or unit.status != ON_TABLE:
        raise IllegalOrder(f"{unit.name} is not standing on the table in good order.")


def _bearing_off(unit: Unit, target: Unit) -> float:
    return abs((bearing_of(sub(base(target).centre, front_centre(unit))) - unit.facing + 180) % 360 - 180)


def check_charge(state: State, seat: str, order: Charge) -> Charge:
    """17.2: declared in the Morale phase by a foot or horse unit, at a visible enemy ahead of it
    (within 45 degrees of its facing, in its line of sight, 16.3) and no farther than its allowance; in the Movement phase an
    opportunity charge (17.4.11) by a unit that declared none, within half its move."""
    unit, target = state.unit(order.unit), state.unit(order.target)
    opportunity = phase_is(state, "Movement")
    _acting(state, seat, unit, "Movement" if opportunity else "Morale")
    if not opportunity and state.step_side >= 2:
        raise IllegalOrder("the charges are declared: this part of the Morale phase is for answering them (17.2.2).",
                           hint="`UNIT evade` or `UNIT stand`, then `next`.")
    if unit.type not in CHARGERS:
        raise IllegalOrder(f"only infantry and cavalry charge; {unit.name} is {unit.type} (17.2.4).")
    if unit.charge_turn == state.turn:
        raise IllegalOrder(f"{unit.name} has declared its charge this turn"
                           + (" (17.4.11: an opportunity charge only by a unit that declared none)." if opportunity
                              else " (17.2.4: once a turn)."))
    if not on_table(target) or target.side == unit.side:
        raise IllegalOrder(f"{target.name} is not an enemy on the table.")
    shelter = sheltered_in(state, target)
    if shelter is not None:
        raise IllegalOrder(f"{target.name} shelters inside the square of {shelter.name} (17.4.16): it is not charged on "
                           f"its own; the charge is at the square.", hint=f"`{unit.id} charge {shelter.id}`.")
    if unit.formation == SQUARE:
        raise IllegalOrder(f"{unit.name} is in square: a square does not move (house); it may only form line or column.",
                           hint=f"`{unit.id} form line` in the Movement phase first.")
    if arm(unit) == "infantry" and target.type in MOUNTED and not target.dismounted:
        raise IllegalOrder(f"infantry cannot charge mounted troops; {target.name} is {target.type} (17.2.4).")
    if unit.formation == SKIRMISH and not skirmisher_may_charge(target):
        raise IllegalOrder(f"skirmishers cannot charge into contact with formed units; {target.name} is in "
                           f"{target.formation} (12.3: only routing units, other skirmishers and artillery).",
                           hint=f"`{unit.id} form line` or `form column` in the Movement phase first.")
    if unit.halted:
        raise IllegalOrder(f"{unit.name} is halted: it may not move closer to the enemy (17.2.10).")
    off = _bearing_off(unit, target)
    if off > 45:
        raise IllegalOrder(f"{target.name} is not ahead of {unit.name} ({fmt(off)}° off its facing; at most 45).")
    if not shooting.in_sight(state, unit, target):
        raise IllegalOrder(f"{unit.name} cannot see {target.name} (16.3: woods and towns hide formed units beyond "
                           "4\" or 6\", skirmishers beyond 2\"; woods, towns and hills block the line of sight, "
                           "15.1): a charge is declared only at an enemy the charger can see (17.2.2).")
    distance = gap(unit, target)
    if opportunity:
        _check_opportunity(state, unit, target, distance)
    elif distance > allowance(state, unit) + 1e-9:
        raise IllegalOrder(f"{target.name} is {fmt(distance)}\" away, beyond {unit.name}'s {fmt(allowance(state, unit))}\" move.")
    _check_path(state, unit, target, opportunity)
    return order


def skirmisher_may_charge(target: Unit) -> bool:
    """12.3: skirmishers "can only charge and perform Close Assaults on routing units, other
    skirmishers and artillery troops" (and staff, who are not formed troops, 14)."""
    return (target.status == ROUTING or target.formation == SKIRMISH
            or target.type in ("artillery", "general", "engineer"))


def _check_opportunity(state: State, unit: Unit, target: Unit, distance: float) -> None:
    """17.4.11: half the normal move, straight ahead; a unit that shot only at an enemy within 2";
    17.4.9: not after a passage of lines; 17.4.1: after the side's 2nd Impulses."""
    if passed_lines(state, unit):
        raise IllegalOrder(f"{unit.name} made a passage of lines this turn: units performing the manoeuvre can not "
                           "perform a charge in the same turn (17.4.9).")
    charger = charge_not_home(state, unit.side)
    if charger is not None:
        raise IllegalOrder(f"{charger.name}'s charge has not gone in: 2nd Impulse moves come before normal movement, "
                           "opportunity charges among them (17.4.1).", hint=f"`{charger.id} charge home` or "
                           f"`{charger.id} feint` first.")
    if unit.fired_turn == state.turn and distance > SHOT_REACH + 1e-9:
        raise IllegalOrder(f"{unit.name} shot this turn: it may opportunity-charge only an enemy within "
                           f"{fmt(SHOT_REACH)}\"; {target.name} is {fmt(distance)}\" away (17.2.5, 17.4.11).")
    reach = opportunity_reach(state, unit)
    if reach <= 0:
        raise IllegalOrder(f"{unit.name} has no move left this turn.")
    if distance > reach + 1e-9:
        raise IllegalOrder(f"{target.name} is {fmt(distance)}\" away, beyond the {fmt(reach)}\" of an opportunity "
                           f"charge (half {unit.name}'s move, 17.4.11).")


def opportunity_reach(state: State, unit: Unit) -> float:
    """Half the normal move (17.4.11), no more than what is left of it this turn."""
    return min(allowance(state, unit) / 2, left(state, unit))


def _advance(state: State, unit: Unit, target: Unit, inches: float,
             ignore: frozenset[str] = frozenset(), swept: frozenset[str] = frozenset(),
             through: frozenset[str] = frozenset()) -> tuple[float, bool]:
    """Move straight ahead up to ``inches``, stopping at contact with the target, before a unit or
    a river outside its crossings in the way (15.3, 17.4.8), and, short of contact, not within 1"
    of another enemy (17.4): (moved, contact). ``ignore``: units that stop nothing; ``swept``:
    screens overrun by this charge (17.2.7), which it may come near but not end on; ``through``:
    friendly deployed batteries it may pass through but not end on (17.4.8)."""
    b = base(unit)
    delta = scale(b.forward, inches)
    t = slide_contact(b.polygon(), delta, base(target).polygon())
    moved = inches if t is None else inches * t
    moved, _ = clear_run(state, unit, b, b.forward, moved, target=target.id, ignore=ignore | through)
    moved = _off_batteries(state, b, moved, through)
    if polygon_distance(b.moved(moved).polygon(), base(target).polygon()) >= CONTACT:
        moved, _ = back_off(state, unit, b, b.forward, moved, target.id, ignore | swept)
    unit.x, unit.y = b.moved(moved).centre
    if gap(unit, target) < CONTACT and not in_contact(unit, target):
        conform(state, unit, target)
    return moved, in_contact(unit, target)


def conform(state: State, unit: Unit, target: Unit) -> None:
    """A charge that meets its target on a corner (less than the 1" of base contact 17.4.2 asks)
    closes up square to the target's edge it touches, its front on that edge with 1" or more of
    it (house, as charges conform in most rules; the book is silent). Nothing moves if the closed-up
    place would lie on another unit's base."""
    poly = base(target).polygon()
    front = front_centre(unit)
    edges = [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
    a, b = min(edges, key=lambda e: point_segment_distance(front, e[0], e[1]))
    length = math.dist(a, b)
    if length < MIN_CONTACT:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    half = base(unit).beam / 2
    along = (front[0] - a[0]) * ux + (front[1] - a[1]) * uy
    lo, hi = MIN_CONTACT - half, length - MIN_CONTACT + half
    along = min(max(along, lo), hi) if lo <= hi else length / 2
    point = (a[0] + ux * along, a[1] + uy * along)
    facing = round(bearing_of(sub(base(target).centre, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))), 6)
    trial = Unit(**{**unit.__dict__})
    trial.facing = facing
    tb = base(trial)
    trial.x, trial.y = point[0] - tb.forward[0] * tb.length / 2, point[1] - tb.forward[1] * tb.length / 2
    if in_the_way(state, trial, base(trial), ignore=frozenset({target.id})) is None:
        unit.facing, unit.x, unit.y = trial.facing, trial.x, trial.y


def batteries(state: State, unit: Unit) -> frozenset[str]:
    """17.4.8: the friendly deployed (unlimbered) batteries a declared charge's 1st Impulse may pass
    through; a limbered battery (in column) may not be passed through."""
    return frozenset(f.id for f in state.units if f.side == unit.side and f.id != unit.id and f.type == "artillery"
                     and f.formation == LINE and f.status == ON_TABLE and on_table(f))


def _off_batteries(state: State, start: Base, moved: float, through: frozenset[str]) -> float:
    """Shorten an impulse that would END on a battery it may pass through (17.4.8), in 0.1" steps."""
    outlines = [base(state.unit(i)).polygon() for i in through]
    while moved > 0 and any(overlaps(start.moved(moved).polygon(), o) for o in outlines):
        moved = max(0.0, round(moved - 0.1, 6))
    return moved


def through_batteries(state: State, unit: Unit, start: Base, through: frozenset[str]) -> list[Event]:
    """17.4.8: a charger that went through a friendly deployed battery is disordered; the gunners
    evade it and the battery may not fire until they return to the guns in the Movement phase."""
    swept = convex_hull([*start.polygon(), *base(unit).polygon()])
    passed = [state.unit(i) for i in sorted(through) if overlaps(swept, base(state.unit(i)).polygon())]
    if not passed:
        return []
    unit.order, unit.order_turn = DISORDERED, state.turn
    for battery in passed:
        battery.fired_turn = state.turn
    names = " and ".join(b.name for b in passed)
    return [public(f"{unit.name} charges through {names}: it is disordered; the gunners evade it and {names} may "
                   "not fire until they return to the guns in the Movement phase (17.4.8).")]


def screens(state: State, unit: Unit) -> frozenset[str]:
    """17.2.7: the enemy skirmish screens in the open a formed charger's 1st Impulse goes through
    (they rout as it comes on), so they do not stop its path."""
    if unit.formation == SKIRMISH:
        return frozenset()
    return frozenset(e.id for e in visible_enemies(state, unit.side)
                     if e.formation == SKIRMISH and e.status == ON_TABLE and in_the_open(state, e))


def _check_path(state: State, unit: Unit, target: Unit, opportunity: bool) -> None:
    """A charge's path obeys the ground as a move does (15.3: rivers only at bridges and fords) and
    no unit may stand in its way (17.4.8; enemy screens in the open are swept aside, 17.2.7): a
    charge that cannot reach its target is refused."""
    trial = Unit(**{**unit.__dict__})
    if not opportunity:
        trial.facing = round(bearing_of(sub(base(target).centre, front_centre(unit))), 6)
    reach = opportunity_reach(state, unit) if opportunity else allowance(state, unit)
    b = base(trial)
    t = slide_contact(b.polygon(), scale(b.forward, reach), base(target).polygon())
    if t is None:
        return
    closed = closed_to(state, trial, b, b.moved(reach * t))
    if closed is not None:
        raise IllegalOrder(closed_text(unit, closed))
    through = frozenset() if opportunity else batteries(state, unit)
    run, why = clear_run(state, trial, b, b.forward, reach * t, target=target.id, ignore=screens(state, unit) | through)
    if why:
        raise IllegalOrder(f"{unit.name} cannot reach {target.name}: {why} is in the way after {fmt(run)}\" "
                           "(a charge crosses rivers only at bridges and fords, 15.3, and ends on no unit, 17.4.8).")


def caught(unit: Unit, distance: float) -> bool:
    """17.2.3: charged from within 2" by foot or 6" by horse, with no formation change (the bot's
    1st Impulse never changes formation), the target is caught."""
    return distance <= CAUGHT.get(arm(unit), 0.0) + 1e-9


def square_on(unit: Unit, target: Unit) -> float:
    """17.2.3: the 1st Impulse may wheel. The charger faces square on to the target's edge nearest
    it when going straight on from there meets that edge with 1" or more of base (17.4.2), else
    towards the target's centre (house: so a charge from an angle ends in contact, not on a corner)."""
    towards = round(bearing_of(sub(base(target).centre, front_centre(unit))), 6)
    poly = base(target).polygon()
    front = front_centre(unit)
    edges = [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
    a, b = min(edges, key=lambda e: point_segment_distance(front, e[0], e[1]))
    centre = base(target).centre
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    square = round(bearing_of(sub(centre, mid)), 6)  # across the edge, into the target
    trial = Unit(**{**unit.__dict__})
    trial.facing = square
    tb = base(trial)
    t = slide_contact(tb.polygon(), scale(tb.forward, gap(unit, target) + tb.length), poly)
    if t is None:
        return towards
    reach = (gap(unit, target) + tb.length) * t
    trial.x, trial.y = tb.moved(reach).centre
    return square if in_contact(trial, target) else towards


def first_impulse(unit: Unit, target: Unit) -> float:
    """17.2.3: the 1st Impulse advances "to a point that is over a quarter but up to halfway to the
    target unit"; the bot goes halfway (RULINGS.md 17.2.3), measured edge to edge once it faces it."""
    return gap(unit, target) / 2


def charge(state: State, order: Charge, rng: Rng) -> list[Event]:
    """17.2.2: in the Morale phase a charge is only declared; the To Charge tests and 1st Impulses
    follow "once all charges are declared" (``resolve_declared``). In the Movement phase, an
    opportunity charge (17.4.11)."""
    if phase_is(state, "Movement"):
        return _opportunity(state, order, rng)
    unit, target = state.unit(order.unit), state.unit(order.target)
    unit.charge_turn = state.turn
    unit.charging = ""  # a charge of an earlier turn is over: only one that passes its test now goes home
    unit.declared = target.id
    unit.declared_seq = 1 + max((u.declared_seq for u in state.units if u.declared), default=0)
    return [public(f"{unit.name} declares a charge at {target.name}: the To Charge tests are taken once all "
                   "charges are declared (17.2.2).")]


def resolve_declared(state: State, rng: Rng) -> list[Event]:
    """17.2.2: "Once all charges are declared, the players use the To Charge table": each declared
    charge in turn, the initiative player's first, each side's in the order declared (RULINGS.md
    17.2.2): its To Charge test, then its 1st Impulse. A charger no longer able to go (routed by an
    earlier charge, its target gone) stays where it is."""
    events: list[Event] = []
    declared = sorted((u for u in state.units if u.declared), key=lambda u: (u.side != state.initiative, u.declared_seq))
    for unit in declared:
        target = state.unit(unit.declared)
        unit.declared, unit.declared_seq = "", 0
        if not (on_table(unit) and unit.status == ON_TABLE and on_table(target)):
            events.append(public(f"{unit.name}'s charge at {target.name} does not go ahead (17.2.2)."))
            continue
        events += _first_impulse(state, unit, target, rng)
    return events


def _first_impulse(state: State, unit: Unit, target: Unit, rng: Rng) -> list[Event]:
    """The To Charge test, then the 1st Impulse: face the target and move halfway to it (17.2.3); the
    target is caught, counter-charged (tests at once) or tests when the 1st Impulses are done."""
    distance = gap(unit, target)
    counter = _counter(state, target)
    text, what, refused = _to_charge(state, unit, target, rng, opportunity=False)
    if refused:
        return refused
    unit.declared_turn = state.turn
    unit.facing = square_on(unit, target)
    impulse = first_impulse(unit, target)
    trial = Unit(**{**unit.__dict__})  # where the 1st Impulse will take it: the screens it sweeps rout first
    swept, through = screens(state, unit), batteries(state, unit)
    _advance(state, trial, target, impulse, swept, through=through)
    overrun = overrun_screens(state, unit, trial)
    start = base(unit)
    moved, contact = _advance(state, unit, target, impulse, swept=swept, through=through)
    overrun += through_batteries(state, unit, start, through)
    spend(state, unit, moved)
    unit.charging = target.id
    where = "into contact" if contact else f"{fmt(gap(unit, target))}\" short"
    events = [public(f"{unit.name} declares {what} at {target.name}. {text}. 1st Impulse: {fmt(moved)}\" "
                     f"({where}); `charge home` in the Movement phase."), *overrun]
    return events + _answer(state, unit, target, distance, counter, rng)


def in_the_open(state: State, unit: Unit) -> bool:
    """17.2.7: not in a wood or an urban area."""
    outline = base(unit).polygon()
    return not any(("wood" in t.type or "urban" in t.type) and overlaps(outline, [(p[0], p[1]) for p in t.points])
                   for t in state.terrain)


def overrun_screens(state: State, unit: Unit, end: Unit) -> list[Event]:
    """17.2.7: enemy skirmishers in the open on the ground a formed unit's 1st Impulse sweeps (from
    ``unit`` to ``end``, or touching it there) rout at once, directly away from the charger, and may
    not shoot this turn; the charge goes on through them to its target. They rout before the
    charger's footprint is moved, so their rout starts clear of it."""
    if unit.formation == SKIRMISH:
        return []
    start = base(unit)
    swept = convex_hull([*start.polygon(), *base(end).polygon()])
    events: list[Event] = []
    for enemy in visible_enemies(state, unit.side):
        if enemy.formation != SKIRMISH or enemy.status != ON_TABLE or not in_the_open(state, enemy):
            continue
        if overlaps(swept, base(enemy).polygon()) or in_contact(end, enemy):
            enemy.tested_turn = enemy.fired_turn = state.turn
            events.append(public(f"{enemy.name}, a skirmish screen in the open within {unit.name}'s 1st Impulse, "
                                 "routs at once and may not shoot this turn (17.2.7)."))
            events += routing_17_4_14.rout(state, enemy, start.centre, cause=f"overrun by {unit.name}")
    return events


def _counter(state: State, target: Unit) -> bool:
    """17.4.13: the target is itself charging this turn."""
    return bool(target.charging) and target.charge_turn == state.turn


def _answer(state: State, unit: Unit, target: Unit, distance: float, counter: bool, rng: Rng) -> list[Event]:
    """What the charged unit does now: caught (17.2.3), tests at once (counter charge, 17.4.13), or
    waits for the end of the 1st Impulses (17.2.2)."""
    if target.tested_turn == state.turn:
        return []
    if caught(unit, distance):
        target.tested_turn = target.caught_turn = state.turn
        return [public(f"{target.name} is caught ({fmt(distance)}\" from {unit.name}, within "
                       f"{fmt(CAUGHT[arm(unit)])}\"): no Being Charged test, no evade or formation change (17.2.3).")]
    if counter:
        return being_charged(state, target, unit, rng, why="counter charged (17.4.13)")
    if must_evade(state, target):
        how = f"`{target.id} evade` (a skirmish screen must evade formed troops, 17.2.7)"
    elif evading_17_4_16.can_evade(target):
        how = f"`{target.id} stand` or `{target.id} evade`"
    else:
        how = f"`{target.id} stand`"
    return [public(f"{target.name} takes its Being Charged test when the 1st Impulses are done (17.2.2): {how}.")]


def being_charged(state: State, unit: Unit, charger: Unit, rng: Rng, *, why: str = "", evade: bool = False,
                  route: Evade | None = None) -> list[Event]:
    """17.2.2: the Being Charged test on the house chart: stand (and evade if asked, 17.4.16),
    disordered and halted (a charge of its own stops), or rout (the initial rout of 17.4.14)."""
    unit.tested_turn = state.turn
    plus = formations_12.square_against_cavalry(unit, charger)
    result, text = morale_test(unit, rng, "Being Charged test", "being-charged", plus=plus,
                               why="square against cavalry (house)")
    if broken_into(state, unit, charger):  # 17.5.4: passing, it stands fast; failing, it routs
        why = why or f"a Break-Through Attack by {charger.name} (17.5.4)"
        if result == "stand":
            unit.caught_turn = state.turn
            return [public(f"{unit.name}, {why}: {text}: it stands; it may not change formation or evade this turn.")]
        result = "rout"
    head = f"{unit.name}" + (f", {why}" if why else "") + f": {text}"
    if result == "rout":  # the initial rout, half the rout distance directly away (17.4.14)
        events = [public(f"{head}: it routs away from {charger.name}."),
                  *routing_17_4_14.rout(state, unit, base(charger).centre, cause=f"charged by {charger.name}")]
        if broken_into(state, unit, charger):  # 17.5.4: the victor advances the balance of its move
            events += close_assault_17_5.advance_balance(state, charger)
        return events
    if result == "disordered":
        unit.order, unit.order_turn, unit.halted = DISORDERED, state.turn, True
        stops = " and its own charge stops" if unit.charging else ""
        unit.charging = ""
        return [public(f"{head}: it is disordered and halted{stops} (17.2.8, 17.2.10)" + (
            ", so it does not evade: only a unit that passes evades (17.4.16)." if evade else "."))]
    if evade:
        return [public(f"{head}: passed, it evades."), *evading_17_4_16.evade(state, unit, charger, route)]
    return [public(f"{head}: it stands.")]


def pending(state: State) -> list[tuple[Unit, Unit]]:
    """Units still to take their Being Charged test this turn, each with (the first of) its chargers."""
    out: dict[str, tuple[Unit, Unit]] = {}
    for c in state.units:
        if c.charging and c.declared_turn == state.turn and on_table(c) and c.status == ON_TABLE:
            t = state.unit(c.charging)
            if t.id not in out and t.tested_turn != state.turn and on_table(t) and t.status == ON_TABLE:
                out[t.id] = (t, c)
    for c in state.units:  # 17.5.4: the new enemy of a Break-Through Attack tests in this Morale Phase
        if c.breakthrough and c.breakthrough_turn == state.turn and on_table(c) and c.status == ON_TABLE:
            t = state.unit(c.breakthrough)
            if t.id not in out and t.tested_turn != state.turn and on_table(t) and t.status == ON_TABLE:
                out[t.id] = (t, c)
    return list(out.values())


def broken_into(state: State, unit: Unit, attacker: Unit) -> bool:
    """Whether ``attacker``'s Break-Through Attack (17.5.4) is what ``unit`` answers this turn."""
    return attacker.breakthrough == unit.id and attacker.breakthrough_turn == state.turn and attacker.charging != unit.id


def may_evade(state: State, unit: Unit) -> bool:
    """17.4.16, except against a Break-Through Attack (17.5.4: no evade, no formation change)."""
    charger = charger_of(state, unit)
    return evading_17_4_16.can_evade(unit) and not (charger is not None and broken_into(state, unit, charger))


def charger_of(state: State, unit: Unit) -> Unit | None:
    """The unit whose charge ``unit`` must still answer (17.2.2), if any."""
    return next((c for t, c in pending(state) if t.id == unit.id), None)


def check_reaction(state: State, seat: str, order: Stand | Evade) -> Stand | Evade:
    """17.2.2, 17.4.16: a charged unit answers in its side's part of the Morale phase, once."""
    unit = state.unit(order.unit)
    _acting(state, seat, unit, "Morale")
    charger = charger_of(state, unit)
    if charger is None:
        raise IllegalOrder(f"{unit.name} has no Being Charged test to take (no charge at it waits for one).",
                           hint="Caught units take none (17.2.3); counter-charged units test at once (17.4.13).")
    if isinstance(order, Stand) and must_evade(state, unit):
        raise IllegalOrder(f"{unit.name} is a skirmish screen charged by formed troops: it must evade (17.2.7).",
                           hint=f"`{unit.id} evade`.")
    if isinstance(order, Evade) and not may_evade(state, unit):
        raise IllegalOrder(f"only skirmishers, battery crews and Generals evade (17.4.16); {unit.name} is "
                           f"{unit.type} in {unit.formation}.", hint=f"`{unit.id} stand`.")
    if isinstance(order, Evade):
        evading_17_4_16.check_route(state, unit, charger, order)
    return order


def must_evade(state: State, unit: Unit) -> bool:
    """17.2.7: a skirmish screen charged by formed troops must evade if it can."""
    charger = charger_of(state, unit)
    return (unit.formation == SKIRMISH and charger is not None and charger.formation != SKIRMISH
            and not broken_into(state, unit, charger))


def react(state: State, order: Stand | Evade, rng: Rng) -> list[Event]:
    """17.2.2, 17.4.16: the charged unit's Being Charged test, standing or evading."""
    unit = state.unit(order.unit)
    charger = charger_of(state, unit)
    assert charger is not None
    evade = order if isinstance(order, Evade) else None
    return being_charged(state, unit, charger, rng, evade=evade is not None, route=evade)


def end_of_morale(state: State, rng: Rng) -> list[Event]:
    """A side's `next` in the Morale phase after the initiative player's declarations (17.2.2). When the
    non-initiative player is done declaring (``step_side`` 1) the declared charges are resolved
    (``resolve_declared``); then every charged unit takes its Being Charged test, except that a side
    whose charged units could evade first gets a part of the phase to answer, the initiative side's
    (``step_side`` 2) before the other's (3); a side's `next` there makes the rest of its own stand.
    ``step_side`` is left at 1 when the phase may end, else at the part that answers next."""
    events = resolve_declared(state, rng) if state.step_side == 1 else []
    first = state.initiative
    order = [first, state.other(first)]
    answered = order[: state.step_side - 1] if state.step_side >= 2 else []
    for side in answered:  # the side that just said `next` in its answering part: the rest stand
        events += _test_all(state, rng, side)
    for part, side in ((2, order[0]), (3, order[1])):
        if part <= state.step_side and state.step_side >= 2:
            continue
        if any(t.side == side and _chooses(state, t) for t, _ in pending(state)):
            state.step_side = part
            names = ", ".join(f"`{t.id} evade` or `{t.id} stand`" for t, _ in pending(state) if t.side == side)
            return [*events, public(f"Turn {state.turn}, Morale phase: the 1st Impulses are done. The "
                                    f"{state.side_name(side)} answer the charges: {names}; `next` and the rest "
                                    "stand (17.2.2).")]
    for side in order:
        events += _test_all(state, rng, side)
    state.step_side = 1
    return events


def _test_all(state: State, rng: Rng, side: str) -> list[Event]:
    """Every unit of ``side`` still to answer a charge takes its Being Charged test (a skirmish screen
    charged by formed troops evades, 17.2.7)."""
    events: list[Event] = []
    for t, c in pending(state):
        if t.side == side:
            events += being_charged(state, t, c, rng, evade=must_evade(state, t))
    return events


def _chooses(state: State, unit: Unit) -> bool:
    """A charged unit whose owner has a choice to make: it may evade and need not (17.4.16, 17.2.7),
    or, a screen that must evade, it may go into cover within its reach instead of directly away
    (17.4.16)."""
    if not may_evade(state, unit):
        return False
    if not must_evade(state, unit):
        return True
    charger = charger_of(state, unit)
    return charger is not None and bool(evading_17_4_16.routes(state, unit, charger))


def check_fire_allowed(state: State, order: Fire) -> None:
    """17.2.5: a unit whose declared charge went ahead may not shoot this turn; 17.3.1: nor one
    that reserved its fire (it fires only at an enemy charging it)."""
    unit = state.unit(order.unit)
    if unit.declared_turn == state.turn:
        raise IllegalOrder(f"{unit.name} made a declared charge this turn and may not shoot (17.2.5).")
    if unit.reserve_turn == state.turn and not unit.reserve_stands:
        raise IllegalOrder(f"{unit.name} has reserved its fire for defensive fire at an enemy charging it (17.3.1).")


def check_form_allowed(state: State, order: Form | Face | Dismount | Mount) -> None:
    """17.2.3: a caught unit may not change formation (nor turn, 17.4.7) this turn."""
    unit = state.unit(order.unit)
    if unit.caught_turn == state.turn:
        raise IllegalOrder(f"{unit.name} was caught by a charge this turn: no formation change (17.2.3).")


def check_reserve(state: State, seat: str, order: ReserveFire) -> ReserveFire:
    """17.3.1: in the Shooting phase, a unit that has not fired keeps its fire for the Movement phase."""
    unit = state.unit(order.unit)
    _acting(state, seat, unit, "Shooting")
    if unit.type not in shooting.SHOOTERS:
        raise IllegalOrder(f"{unit.name} cannot fire (it must be infantry, cavalry or artillery).")
    if unit.fired_turn == state.turn:
        raise IllegalOrder(f"{unit.name} has fired this turn: only stands that did not fire reserve it (17.3.1).")
    if unit.reserve_turn == state.turn:
        raise IllegalOrder(f"{unit.name} has reserved its fire already.")
    shooting.check_deployed(unit)
    if order.stands is not None and order.stands >= unit.stands:
        raise IllegalOrder(f"{unit.name} has {unit.stands} stands: reserve fewer, or all of its fire with "
                           f"`{unit.id} reserve fire` (17.3.1).")
    if unit.declared_turn == state.turn:
        raise IllegalOrder(f"{unit.name} made a declared charge this turn and may not shoot (17.2.5).")
    return order


def reserve(state: State, order: ReserveFire) -> list[Event]:
    """17.3.1: the unit keeps its fire, or part of it ("reserve part of their unit's fire"), for
    defensive fire at a unit charging it; with part kept, the other stands may fire now."""
    unit = state.unit(order.unit)
    unit.reserve_turn, unit.reserve_stands = state.turn, order.stands or 0
    if order.stands:
        return [public(f"{order.stands} of {unit.name}'s {unit.stands} stands hold their fire for defensive fire at an "
                       f"enemy charging it; the other {unit.stands - order.stands} may fire now (17.3.1).")]
    return [public(f"{unit.name} holds its fire for defensive fire at an enemy charging it (17.3.1).")]


def reserved(state: State, unit: Unit) -> int:
    """The stands whose fire the unit keeps this turn for defensive fire (17.3.1)."""
    if unit.reserve_turn != state.turn:
        return 0
    return min(unit.reserve_stands or unit.stands, unit.stands)


def defensive_fire(state: State, charger: Unit, target: Unit, rng: Rng) -> list[Event]:
    """17.3.1, 17.4.10: a target that reserved its fire (or part of it) shoots at the unit charging
    it before its Charge Home test (or before an opportunity charge goes in) with the stands that
    kept their fire, if the charger is in its arcs, sight and range; the hits come off at once."""
    if not reserved(state, target) or not on_table(target) or target.status != ON_TABLE:
        return []
    if shooting.limbered(target):  # it limbered since it kept its fire (10.3: a limbered battery does not fire)
        return [public(f"{target.name} holds defensive fire: it is limbered (10.3).")]
    if not (shooting.in_arc(target, charger) and shooting.gap(target, charger) <= shooting.reach(target) + 1e-9
            and shooting.in_sight(state, target, charger)):
        return [public(f"{target.name} holds defensive fire: {charger.name} is not in its arcs and range (17.3.1).")]
    hits, said = shooting.volley(state, target, charger, rng, reserved(state, target))
    target.fired_turn, target.reserve_turn = state.turn, 0  # the reserve is spent
    events = [public(f"{target.name} defensive fire at {charger.name} (17.3.1): {said}.")]
    if hits:
        events += losses_17_5.loss(state, charger, min(hits, charger.stands))
    return events


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
    """The target's defensive fire, the Charge Home test, then the rest of the move into contact,
    or a halt 2" short (17.4.10)."""
    unit = state.unit(order.unit)
    target = state.unit(unit.charging)
    shelter = sheltered_in(state, target)
    if shelter is not None:  # its target evaded inside a square (17.4.16): the charge goes in at the square
        target, unit.charging = shelter, shelter.id
    unit.home_turn = state.turn
    fired = defensive_fire(state, unit, target, rng)
    if not on_table(unit):
        unit.charging = ""
        return fired
    passed, text = passes(unit, rng, "Charge Home test")
    return fired + _go_in(state, unit, target, passed, text, second_impulse(state, unit))


def second_impulse(state: State, unit: Unit) -> float:
    """17.4.2: "2nd Impulse moves may only be up to half the remaining move of the charging unit"
    (RULINGS.md 17.4.2: the remaining half of its move, no more than it has left after the 1st
    Impulse's wheel or formation change)."""
    return min(allowance(state, unit) / 2, left(state, unit))


def _go_in(state: State, unit: Unit, target: Unit, passed: bool, text: str, inches: float) -> list[Event]:
    """Into contact up to ``inches`` on a pass, else a halt 2" in front of the target (17.4.10)."""
    distance = gap(unit, target)
    if not passed:
        unit.charging = ""  # no charger's bonus in a melee it did not press home
        if distance < HALT_SHORT:  # already closer (contact in the 1st Impulse): it pulls back to 2"
            unit.x, unit.y = base(unit).moved(distance - HALT_SHORT).centre
        else:
            _advance(state, unit, target, min(distance - HALT_SHORT, inches))
        spend(state, unit, left(state, unit))
        return [public(f"{unit.name}: {text}: it halts {fmt(HALT_SHORT)}\" "
                       f"in front of {target.name} (17.4).")]
    moved, contact = _advance(state, unit, target, inches)
    spend(state, unit, left(state, unit))
    result = f"in contact with {target.name}: close assault follows (17.5)" if contact else f"it falls short of {target.name}"
    return [public(f"{unit.name}: {text}. 2nd Impulse {fmt(moved)}\": {result}.")]


def _to_charge(state: State, unit: Unit, target: Unit, rng: Rng, *, opportunity: bool) -> tuple[str, str, list[Event]]:
    """The To Charge test (17.2.2, 17.4.11): its dice text, what the charge is called, and, when it
    fails, the events of a unit that may not move closer to the enemy this turn (else none): it keeps
    what is left of its move, to use as a halted unit may (17.2.10, ``morale_17_2.check_status_move``)."""
    passed, text = passes(unit, rng, "To Charge test")
    what = ("an opportunity " if opportunity else "a ") + ("counter charge" if _counter(state, target) else "charge")
    if passed:
        return text, what, []
    unit.refused_turn = state.turn  # no closer to the enemy; it keeps its move to turn or go away (RULINGS.md)
    said = "makes" if opportunity else "declares"
    return text, what, [public(f"{unit.name} {said} {what} at {target.name}. {text}: it may not move closer "
                               "to the enemy this turn (17.2.2); it may still turn, change formation or move away.")]


def _opportunity(state: State, order: Charge, rng: Rng) -> list[Event]:
    """17.4.11: the To Charge test; the target's Being Charged test (at once, 17.4.13 for a
    charging target) unless caught, and its defensive fire (17.3.1); then half the move straight
    ahead into contact (no wheel, no formation change)."""
    unit, target = state.unit(order.unit), state.unit(order.target)
    unit.charge_turn = unit.home_turn = state.turn
    distance = gap(unit, target)
    reach = opportunity_reach(state, unit)
    counter = _counter(state, target)
    text, what, refused = _to_charge(state, unit, target, rng, opportunity=True)
    if refused:
        return refused
    events = [public(f"{unit.name} makes {what} at {target.name} (17.4.11). {text}.")]
    if target.tested_turn != state.turn:
        if caught(unit, distance):
            events += _answer(state, unit, target, distance, False, rng)
        else:
            screen = target.formation == SKIRMISH and unit.formation != SKIRMISH  # 17.2.7: it must evade
            events += being_charged(state, target, unit, rng, why="counter charged (17.4.13)" if counter else "",
                                    evade=screen)
    events += defensive_fire(state, unit, target, rng)
    if not on_table(unit):
        return events
    unit.charging = target.id
    moved, contact = _advance(state, unit, target, reach)
    spend(state, unit, left(state, unit))
    result = f"in contact with {target.name}: close assault follows (17.5)" if contact else f"it falls short of {target.name}"
    return [*events, public(f"{unit.name} charges {fmt(moved)}\" straight ahead: {result}.")]


def check_feint(state: State, seat: str, order: Feint) -> Feint:
    """17.4.12: a declared charge not yet in contact, after its target's Being Charged test, stops; never by Class 1."""
    unit = state.unit(order.unit)
    _acting(state, seat, unit, "Movement")
    if unit.charge_turn != state.turn or not unit.charging or unit.home_turn == state.turn:
        raise IllegalOrder(f"{unit.name} has no declared charge to break off this turn.")
    if unit.cls == 1:
        raise IllegalOrder(f"{unit.name} is Class 1: Class 1 troops cannot make feint charges (17.4.12).",
                           hint=f"`{unit.id} charge home`.")
    target = state.unit(unit.charging)
    if on_table(target) and in_contact(unit, target):
        raise IllegalOrder(f"{unit.name} is already in contact with {target.name}.")
    return order


def unfinished_class_1(state: State, side: str) -> Unit | None:
    """A Class 1 unit of ``side`` whose declared charge is still short of its target in the Movement
    phase: ending the side's part there would be a feint, which "Class 1 troops cannot make" (17.4.12;
    RULINGS.md 17.4.12)."""
    for unit in state.units:
        if (unit.side == side and unit.cls == 1 and unit.charging and unit.charge_turn == state.turn
                and unit.home_turn != state.turn and on_table(unit) and unit.status == ON_TABLE):
            target = state.unit(unit.charging)
            if on_table(target) and not in_contact(unit, target):
                return unit
    return None


def check_next(state: State, side: str) -> None:
    """17.4.12: a side's part of the Movement phase ends only when its Class 1 charges have gone in."""
    if phase_is(state, "Movement"):
        unit = unfinished_class_1(state, side)
        if unit is not None:
            raise IllegalOrder(f"{unit.name} is Class 1 and its declared charge has not gone in: Class 1 troops "
                               "cannot make feint charges (17.4.12).", hint=f"`{unit.id} charge home` first.")


def feint(state: State, order: Feint) -> list[Event]:
    """17.4.12: the charge stops where it is; the unit moves no further this turn."""
    unit = state.unit(order.unit)
    target = state.unit(unit.charging)
    unit.charging = ""
    unit.home_turn = state.turn
    spend(state, unit, left(state, unit))
    return [public(f"{unit.name} makes a feint charge at {target.name}: it moves no further this turn (17.4.12).")]


def candidates(state: State, sides: list[str]) -> list[DoiOrder]:
    """Answers and charge orders worth offering now (each is checked as if typed before it is listed):
    the Being Charged answers in the Morale phase, reserved fire in the Shooting phase, feints,
    opportunity charges at the nearest enemies ahead and returns in the Movement phase."""
    out: list[DoiOrder] = []
    if state.phase != TURN:
        return out
    own = [u for u in state.units if u.side in sides and u.side == state.acting_side()]
    step = STEPS[state.step]
    if step == "Morale":
        for t, c in pending(state):
            if t in own:
                out += [*([] if must_evade(state, t) else [Stand(t.id)]),
                        *([Evade(t.id), *evading_17_4_16.routes(state, t, c)] if may_evade(state, t) else [])]
    if step == "Shooting":
        out += [ReserveFire(u.id) for u in own if on_table(u) and u.type in shooting.SHOOTERS
                and u.fired_turn != state.turn and u.reserve_turn != state.turn]
    if step == "Movement":
        for u in own:
            if u.status == EVADED_OFF and u.return_turn <= state.turn:
                out.append(Return(u.id))
            if not on_table(u) or u.type not in CHARGERS:
                continue
            if u.charging and u.charge_turn == state.turn and u.home_turn != state.turn:
                out.append(Feint(u.id))
            elif u.charge_turn != state.turn:
                ahead = [e for e in visible_enemies(state, u.side) if _bearing_off(u, e) <= 45]
                out += [Charge(u.id, e.id) for e in sorted(ahead, key=lambda e: gap(u, e))[:2]]
    return out
