"""Book section 17.2 (morale phase). With board=tape: morale tests read from the owner's reference
sheets (the text has none): the factors add up and the unit passes when 1d6 is HIGHER than the
total. On the measured table (below): a unit's order and status (17.2.8-17.2.10), the Casualties
from Shooting test at the end of the Shooting phase (17.3), rallying (17.2.11), attached Generals'
factors and risk (14.2, 14.4, 17.3.5), on the house sheet ``reference/sheets/morale-tests.toml``.

A wounded General has no command for the Casualties to Staff chart's turns (14.3; rules/staff_14.py):
no attached factor, not in anyone's command radius. A halted unit moves normally again after it
passes a later test: the rally when the next Morale phase opens, or a Casualties from Shooting test
in a later turn (17.2.10).

NOT done: cavalry Generals not commanding infantry (14.2), "dispersed target" shooting columns for units gone to ground (the house small arms chart
reads range bands only; a dispersed target is a unit gone to ground or an unattached General,
17.2.9 and 14)."""

from __future__ import annotations

from games.core.dice import roll
from games.core.errors import IllegalOrder, NotYourTurn, UnknownName, WrongPhase, quote
from games.core.geometry import Base, overlaps, polygon_distance
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, public
from games.days_of_iron.data import house, morale_sheet, reference
from games.days_of_iron.orders import GoToGround, Morale, Rally
from games.days_of_iron.rules import routing_17_4_14, staff_14
from games.days_of_iron.rules.formations_12 import COLUMN, LINE, base, on_table, reform
from games.days_of_iron.rules.losses_17_5 import check_in_play
from games.days_of_iron.rules.movement_17_4 import check_movement_order
from games.days_of_iron.rules.staff_14 import commander_quality
from games.days_of_iron.state import DISORDERED, GOOD, ON_TABLE, ROUTING, SHAKEN, STAFF, STEPS, TURN, State, Unit


def check_tests_loaded() -> None:
    """Morale tests (17.2) need the owner's sheets loaded as a data pack."""
    if not reference().morale:
        raise IllegalOrder("no morale table is loaded; the shipped game has none.",
                           hint="Load your reference sheets as a data pack (see the help).")


def check_morale(unit: Unit, order: Morale) -> None:
    """A unit in play takes the test (17.2); the factors named must be the test's own."""
    check_in_play(unit)
    test = reference().morale[order.test]
    for word in order.factors:
        if word not in test.factors:
            raise UnknownName(f"{test.name} has no factor {quote(word)}.", hint=f"Factors: {', '.join(test.factors) or 'none'}.")


def morale_test(state: State, order: Morale, rng: Rng) -> list[Event]:
    """Add the factors (base, class, the commanding General's quality (14.2), those named) and roll."""
    unit = state.unit(order.unit)
    test = reference().morale[order.test]
    parts: list[tuple[str, int]] = []
    if test.base:
        parts.append(("base", test.base))
    if test.by_class and unit.cls:
        parts.append((f"Class {unit.cls}", test.by_class[unit.cls - 1]))
    quality = commander_quality(state, unit)
    if quality in test.by_staff:
        parts.append((f"{quality} General" if quality != "none" else "no General", test.by_staff[quality]))
    parts += [(f, test.factors[f]) for f in order.factors]
    total = sum(v for _, v in parts)
    roll = rng.die(6)
    passed = roll > total
    detail = ", ".join(f"{name} {value:+d}" for name, value in parts) or "no factors"
    return [public(f"**{test.name}** for {unit.name}: factors {detail} = {total}; 1d6 = {roll}: "
                   f"{'PASSED' if passed else 'FAILED'} - {test.on_pass if passed else test.on_fail}",
                   reveals=True)]


# --- the measured table (option board=measured): order, status, casualty tests and rallies -------
#
# 17.2.8-17.2.11 and 17.3 on the house sheet ``reference/sheets/morale-tests.toml`` (every number
# house, until an owner's sheet replaces it): a test rolls its dice, adds the named factors that
# apply to the unit and reads the total in the unit's Class column.

STATUS_WORDS = {DISORDERED: "disordered", SHAKEN: "shaken"}
WORSE = {GOOD: 0, DISORDERED: 1, SHAKEN: 2}


def status_words(unit: Unit) -> list[str]:
    """What a player sees of a unit's order and status (17.2.8-17.2.10): disordered, shaken,
    halted, gone to ground, routing."""
    words = [STATUS_WORDS[unit.order]] if unit.order in STATUS_WORDS else []
    words += [w for w, on in (("halted", unit.halted), ("gone to ground", unit.ground), ("routing", unit.status == ROUTING)) if on]
    return words


def must_rally(unit: Unit) -> bool:
    """17.2: "units not in good order must try to rally at the first opportunity" (a halted unit or
    one gone to ground too: 17.2.9-17.2.10); a router may try (17.2.11)."""
    return unit.order != GOOD or unit.halted or unit.ground or unit.status == ROUTING


def _column(columns: tuple[str, ...], unit: Unit) -> int:
    """The unit's Class column (Class 1-4; artillery and units without a Class read class-1)."""
    name = f"class-{min(max(unit.cls, 1), 4)}"
    return columns.index(name) if name in columns else 0


def take_test(unit: Unit, test_id: str, applies: list[tuple[str, int]], rng: Rng) -> tuple[str, str]:
    """Roll the sheet's test for the unit with the named factors that apply (name, times):
    (result, log text)."""
    sheet = morale_sheet()
    test, factors = sheet.tests[test_id], sheet.tests[test_id].factors
    parts = [(name, factors[name] * times) for name, times in applies if name in factors and times]
    die = roll(sheet.dice, rng).total
    total = die + sum(v for _, v in parts)
    column = _column(sheet.columns, unit)
    result = test.lookup(total, column)
    said = "".join(f" {v:+d} {name}" for name, v in parts if v)
    return result, (f"**{test.name}** for {unit.name} ({sheet.columns[column]}): {sheet.dice} = {die}{said}"
                    f" = {total}: {result.upper()}")


def attached_to(state: State, unit: Unit) -> Unit | None:
    """The General attached to the unit (14.4), if any."""
    return next((g for g in state.units if g.type == "general" and g.attached == unit.id
                 and g.status in (ON_TABLE, ROUTING)), None)


def commanding_generals(state: State, unit: Unit) -> list[Unit]:
    """Generals of the unit's command standing on the table within the command radius (14.2: its
    brigade's own, or a division, corps or army General; one attached elsewhere commands no one else)."""
    radius = morale_sheet().command_radius
    out = []
    for g in state.units:
        if g.side != unit.side or g.type != "general" or g.status != ON_TABLE or not g.formation:
            continue
        if (g.attached and g.attached != unit.id) or not staff_14.in_command(state, g):
            continue
        if not ((g.brigade and g.brigade == unit.brigade) or g.rank in ("division", "corps", "army")):
            continue
        if polygon_distance(base(g).polygon(), base(unit).polygon()) <= radius + 1e-9:
            out.append(g)
    return out


QUALITY_ORDER = {"exceptional": 0, "capable": 1, "inept": 2, "": 3}


def staff_factor(state: State, unit: Unit, test_id: str) -> tuple[str, int]:
    """The staff factor of a test (14.2, 14.4): the attached General's quality, else (for a rally) the
    best General of its command within the command radius, else out of command; a wounded General
    counts for neither (14.3)."""
    general = attached_to(state, unit)
    rallying = test_id == "rally"  # 17.2.11: "Unless the Generals themselves are routing they can try to rally units"
    if general is not None and staff_14.in_command(state, general) and not (rallying and general.status == ROUTING):
        return f"attached-{general.quality or 'capable'}", 1
    if not rallying:
        return "", 0
    near = sorted((g for g in commanding_generals(state, unit) if g.status != ROUTING),
                  key=lambda g: QUALITY_ORDER.get(g.quality, 3))
    return (f"general-{near[0].quality or 'capable'}", 1) if near else ("out-of-command", 1)


def _in_cover(state: State, unit: Unit) -> bool:
    from games.days_of_iron.rules.shooting_17_3 import cover_of

    return cover_of(state, unit)[0] < 0


def after_shooting(state: State, hit: dict[str, int], lost: dict[str, int], rng: Rng) -> list[Event]:
    """The end of the Shooting phase (17.3), after the casualties come off: an attached General's
    risk (17.3.5, 14.4), then the Casualties from Shooting test of every unit that took hits.
    ``hit``: unit id -> hits taken; ``lost``: unit id -> stands lost."""
    events: list[Event] = []
    for unit in [u for u in state.units if hit.get(u.id)]:
        if unit.type == "general":
            continue
        for staff in routing_17_4_14.attached_staff(state, unit):  # 17.3.5: "Staff or engineers ... attached"
            events += staff_risk(state, staff, rng)
        if unit.status != ON_TABLE:
            continue
        applies = [("per-stand-lost", max(0, lost.get(unit.id, 0) - 1)),
                   ("under-half", int(2 * unit.stands < unit.start_stands)),
                   (STATUS_WORDS.get(unit.order, ""), 1), ("halted", int(unit.halted)), ("ground", int(unit.ground)),
                   ("in-cover", int(_in_cover(state, unit))), staff_factor(state, unit, "casualties")]
        result, text = take_test(unit, "casualties", applies, rng)
        events.append(public(text + "."))
        events += _passed_when_halted(state, unit) if result == "pass" else apply_result(state, unit, result)
    return events


def _passed_when_halted(state: State, unit: Unit) -> list[Event]:
    """17.2.10: a unit halted in an earlier turn that passes a morale test in a following turn may
    move normally again. Halted in an earlier turn: it took (and failed) its rally test when this
    Morale phase opened, and no Being Charged result halted and disordered it again this turn."""
    if not unit.halted or unit.ground or unit.rally_turn != state.turn or unit.order_turn == state.turn:
        return []
    unit.halted = False
    return [public(f"{unit.name} passed: it is no longer halted and may move normally (17.2.10).")]


def apply_result(state: State, unit: Unit, result: str) -> list[Event]:
    """Carry out a Casualties from Shooting result: halted, gone to ground (infantry; others halt),
    disordered, shaken (never better than it was), rout (away from the enemy who shot it)."""
    if result == "pass":
        return []
    if result in ("halted", "ground"):
        unit.halted = True
        unit.ground = unit.ground or (result == "ground" and unit.type == "infantry")
        what = "goes to ground (17.2.9)" if unit.ground else "is halted (17.2.10)"
        return [public(f"{unit.name} {what}.")]
    if result in (DISORDERED, SHAKEN):
        if WORSE[result] >= WORSE.get(unit.order, 0):
            unit.order, unit.order_turn = result, state.turn
        return [public(f"{unit.name} is {STATUS_WORDS[unit.order]} (17.2.8).")]
    if result == "rout":
        enemy = _who_shot(state, unit)
        where = (enemy.x, enemy.y) if enemy else (unit.x, unit.y)
        return routing_17_4_14.rout(state, unit, where, cause=f"under fire from {enemy.name}" if enemy else "")
    return [public(f"{unit.name}: {result} (no effect on the table).")]


def check_go_to_ground(state: State, seat: str, order: GoToGround) -> GoToGround:
    """17.2.9: "Infantry units may voluntarily go to ground if they choose" (RULINGS.md 17.2.9: in
    the side's own part of the Movement phase)."""
    unit = state.unit(order.unit)
    check_movement_order(state, seat, unit, order.text)
    if unit.type != "infantry":
        raise IllegalOrder(f"only infantry go to ground of their own accord; {unit.name} is {unit.type} (17.2.9).")
    if unit.ground:
        raise IllegalOrder(f"{unit.name} has gone to ground already; it comes out of it by passing a rally test (17.2.9).")
    return order


def go_to_ground(state: State, order: GoToGround) -> list[Event]:
    """17.2.9: gone to ground, a dispersed target that must pass a rally test to move again."""
    unit = state.unit(order.unit)
    unit.ground = unit.halted = True
    return [public(f"{unit.name} goes to ground of its own accord (17.2.9): it must pass a rally test to move again.")]


def _who_shot(state: State, unit: Unit) -> Unit | None:
    """The enemy that caused a rout by fire (17.4.14): the nearest visible enemy that fired this
    turn (the bot does not keep who fired at whom past the phase), else the nearest."""
    enemies = [e for e in state.units if e.side != unit.side and on_table(e) and e.type != "general"]
    fired = [e for e in enemies if e.fired_turn == state.turn] or enemies
    return min(fired, key=lambda e: polygon_distance(base(e).polygon(), base(unit).polygon()), default=None)


STAFF_HIT = 6  # book 14.4: the opponent rolls 1d6 for an attached General, a 6 hits him


def staff_risk(state: State, general: Unit, rng: Rng, rule: str = "17.3.5") -> list[Event]:
    """17.3.5, 14.4 (and 17.5.7 in a close assault, ``rule``): a General attached to a unit that
    takes casualties or fights rolls an extra 1d6; on a 6 he is hit and rolls on the Casualties to
    Staff chart (lost, or wounded without command: rules/staff_14.py). Not a second hit on the unit
    for morale."""
    die = rng.die(6)
    if die != STAFF_HIT:
        return [public(f"{general.name} (attached): 1d6 = {die}, unhurt ({rule}).")]
    chart = house().charts["staff-casualties"]
    second = roll(chart.dice, rng).total
    result = chart.lookup(second, 0)
    events = [public(f"{general.name} (attached): 1d6 = {die}, HIT; {chart.name}: {second}: {result} ({rule}).")]
    return events + staff_14.staff_casualty(state, general, result)


# --- rallying (17.2.11) and the Morale Phase's automatic tests -------------------------------------


def check_rally(state: State, seat: str, unit: Unit) -> Rally:
    """17.2.11: in its side's part of the Morale phase a unit not in good order (or routing) may
    take one rally test a turn; not one disordered only by the ground it stands in (no test could
    restore it: the phase's opening passes it over too)."""
    if unit.type == "general":  # a routing General rallies with the unit he routed with (17.3.5)
        with_unit = f": he rallies with {state.unit(unit.attached).name}, `{unit.attached} rally`" if unit.attached else ""
        raise IllegalOrder(f"{unit.name} is a General and takes no rally test of his own (17.2.11){with_unit}.")
    if not on_table(unit):
        raise IllegalOrder(f"{unit.name} is not a unit standing on the table.")
    if not must_rally(unit):
        raise IllegalOrder(f"{unit.name} is not routing and is in good order: nothing to rally.")
    if state.phase != TURN or STEPS[state.step] != "Morale":
        raise WrongPhase("units rally in the Morale phase (17.2.11).", hint="Say `next` to reach it.")
    if seat not in (UMPIRE, state.acting_side()) or unit.side != state.acting_side():
        raise NotYourTurn(f"the {state.side_name(state.acting_side())} rally now, their own units.")
    if unit.rally_turn == state.turn:
        raise IllegalOrder(f"{unit.name} has taken its rally test this turn.")
    if _ground_only(state, unit):
        raise IllegalOrder(f"{unit.name} is disordered only by standing in {disordering_ground(state, unit)}: it stays "
                           "disordered until it moves out (15.7, 17.2.8), so a rally test has nothing to restore.",
                           hint=f"Move {unit.name} out of it in the Movement phase.")
    return Rally(unit.id)


def rally(state: State, unit: Unit, rng: Rng) -> list[Event]:
    """The rally test (17.2.11): passing, the unit is in good order again; a router halts and
    faces back, the opposite way to its rout, in line (if it was in line) or column."""
    unit.rally_turn = state.turn
    applies = [("routing", int(unit.status == ROUTING)), ("shaken", int(unit.order == SHAKEN)),
               ("ground", int(unit.ground)), ("under-half", int(2 * unit.stands < unit.start_stands)),
               staff_factor(state, unit, "rally")]
    result, text = take_test(unit, "rally", applies, rng)
    if result != "pass":
        return [public(f"{text}: {unit.name} stays {', '.join(status_words(unit))}.")]
    was_routing = unit.status == ROUTING
    unit.order, unit.halted, unit.ground = GOOD, False, False
    ground = disordering_ground(state, unit)
    if ground:  # 15.7, 15.8, 17.2.8: in a town or wood it is disordered until it moves out
        unit.order = DISORDERED
    if not was_routing:
        if ground:
            return [public(f"{text}: {unit.name} rallies but stays disordered in {ground} (15.7, 17.2.8).")]
        return [public(f"{text}: {unit.name} rallies to good order (17.2.11).")]
    unit.status = ON_TABLE
    for general in routing_17_4_14.attached_staff(state, unit):
        general.status = ON_TABLE
    unit.facing = (unit.rout_bearing + 180.0) % 360.0
    reform(unit, LINE if unit.formation == LINE else COLUMN)
    return [public(f"{text}: {unit.name} halts and rallies in {unit.formation}, facing back the way it "
                   "routed (17.2.11).")]


def morale_opens(state: State, rng: Rng) -> list[Event]:
    """The Morale phase begins (17.2): disorder lifts from a unit that made no move, fire or
    charge for a whole turn (17.2.8); then every unit not in good order, halted or gone to ground
    must try to rally (initiative side first). Routers rally only by order (17.2.11: they "may")."""
    events: list[Event] = []
    last = state.turn - 1
    for unit in state.units:
        if (unit.order == DISORDERED and unit.order_turn < last and on_table(unit) and unit.status == ON_TABLE
                and not (unit.moved_turn == last and unit.moved > 0) and unit.fired_turn != last
                and unit.charge_turn != last and not disordering_ground(state, unit)):
            unit.order = GOOD
            events.append(public(f"{unit.name} recovers from disorder after a turn without action (17.2.8)."))
    sides = [state.initiative, state.other(state.initiative)]
    for side in sides:
        for unit in state.units:
            if (unit.side == side and unit.type != "general" and on_table(unit) and unit.status == ON_TABLE
                    and must_rally(unit) and not _ground_only(state, unit)):
                events += rally(state, unit, rng)
    return events


def _ground_only(state: State, unit: Unit) -> bool:
    """Disordered and nothing else, standing in ground that disorders (15.7: "disordered until it
    moves out of the area"): a rally test could not restore its order, so none is taken."""
    return (unit.order == DISORDERED and not unit.halted and not unit.ground
            and bool(disordering_ground(state, unit)))


def disordering_ground(state: State, unit: Unit) -> str:
    """17.2.8: the name of the urban area, wood, ford, swamp or difficult ground the unit stands
    in ("" if none): units there are disordered."""
    kinds = morale_sheet().disordering_terrain
    outline = base(unit).polygon()
    for piece in state.terrain:
        if piece.type in kinds and overlaps(outline, [(p[0], p[1]) for p in piece.points]):
            return piece.name
    return ""


def after_move(state: State, unit: Unit, forced: bool) -> list[Event]:
    """After a move or formation change (17.2.8): disordered in disordering ground, or by a forced
    march (17.4.5: "Units forced marching are disordered"; 17.2.8's "two forced march moves" is
    read as covered by it, ruling in data/days_of_iron/reference/README.md); an attached General
    moves with the unit."""
    events: list[Event] = []
    reason = ""
    ground = disordering_ground(state, unit)
    if ground:
        reason = f"in {ground} (17.2.8)"
    if forced:
        reason = reason or "by its forced march (17.4.5)"
        unit.forced_turn = state.turn
    if reason and unit.order == GOOD:
        unit.order, unit.order_turn = DISORDERED, state.turn
        events.append(public(f"{unit.name} is disordered {reason}."))
    elif reason and unit.order == DISORDERED:
        unit.order_turn = state.turn
    if unit.type in STAFF and unit.attached:
        left_unit = state.unit(unit.attached)
        unit.attached = ""
        events.append(public(f"{unit.name} moves away from {left_unit.name} and is no longer attached (14.4)."))
    staff_14.carry(state, unit)
    return events


def check_status_move(state: State, unit: Unit, end: Base | None) -> None:
    """What a status forbids (17.2.9-17.2.10): a unit gone to ground moves only after a rally; a
    halted unit, or one that failed its To Charge test this turn (17.2.2), may not end closer to any
    enemy it can see (``end``: where the move would leave
    it; None for a charge, always toward the enemy)."""
    if unit.ground:
        raise IllegalOrder(f"{unit.name} has gone to ground: it must pass a rally test before it moves (17.2.9).")
    if unit.halted:
        why, rule = "is halted", "17.2.10"
    elif unit.refused_turn == state.turn:
        why, rule = "failed its To Charge test this turn", "17.2.2"
    else:
        return
    if end is None:
        raise IllegalOrder(f"{unit.name} {why}: it may not move toward the enemy this turn ({rule}).")
    enemies = [e for e in state.units if e.side != unit.side and on_table(e)]
    for enemy in enemies:
        now = polygon_distance(base(unit).polygon(), base(enemy).polygon())
        then = polygon_distance(end.polygon(), base(enemy).polygon())
        if then < now - 1e-6:
            raise IllegalOrder(f"{unit.name} {why}: it may not move closer to {enemy.name} ({rule}).",
                               hint="It may move away, or change formation without coming closer.")


def check_status(state: State, order: object) -> None:
    """After an order's own checks: what the unit's status forbids it (17.2.9-17.2.10)."""
    from games.days_of_iron.orders import Charge, Face, Form, Move
    from games.days_of_iron.rules.movement_17_4 import moved_base, turned

    if not isinstance(order, (Move, Form, Face, Charge)):
        return
    unit = state.unit(order.unit)
    if isinstance(order, Move):
        check_status_move(state, unit, moved_base(unit, order))
    elif isinstance(order, Charge):
        check_status_move(state, unit, None)
    elif isinstance(order, Face):
        check_status_move(state, unit, base(turned(unit, order.way)))
    else:
        trial = Unit(**{**unit.__dict__})
        reform(trial, order.formation)
        check_status_move(state, unit, base(trial))
