"""Book section 18 (ending the game): the players agree to end after a turn's Close Assault phase,
and 18.2 (calculating the winner): points lost, half for routing units and units under half
strength, the margin read against the victory bands; or objectives taken and held.

Points are counted in half points (integers) so that a routing unit's half value stays exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.errors import IllegalOrder, NotAllowed, NotYourTurn, WrongPhase
from games.core.geometry import Point, point_in_polygon, point_segment_distance
from games.core.ruleset import UMPIRE, Event, Outcome, public
from games.days_of_iron import data
from games.days_of_iron.data import RulesFile, rules, victory_sheet
from games.days_of_iron.orders import End, Fate, Loss, Objective, Surrender, own_unit
from games.days_of_iron.rules import losses_17_5
from games.days_of_iron.rules.formations_12 import base, in_contact, measured, on_table
from games.days_of_iron.rules.points_5 import side_points
from games.days_of_iron.state import (
    CAPTURED,
    DESTROYED,
    DISORDERED,
    GONE,
    GOOD,
    INITIATIVE,
    ON_TABLE,
    OVER,
    ROUTED_OFF,
    ROUTING,
    SHAKEN,
    STAFF,
    STEPS,
    SURRENDERED,
    TURN,
    State,
    Unit,
)


def lost_halves(unit: Unit) -> int:
    """A unit's loss in half points (18.2): full if gone, half if routing or under half strength."""
    if unit.status in GONE:
        return 2 * unit.points
    if unit.status == ROUTING or 2 * unit.stands < unit.start_stands:
        return unit.points
    return 0


def side_lost_halves(state: State, side: str) -> int:
    """All a side has lost, in half points (18.2)."""
    return sum(lost_halves(u) for u in state.units if u.side == side)


def fmt_halves(halves: int) -> str:
    """Half points as the log prints them: 12 or 12.5."""
    return f"{halves // 2}" + (".5" if halves % 2 else "")


@dataclass(frozen=True)
class Margin:
    leader: str  # side id that lost fewer points, "" when level
    difference_halves: int
    result: str  # Draw, Minor Victory, ...
    thresholds: tuple[int, ...]


def thresholds(book: RulesFile, points_limit: int, scaled: bool) -> tuple[int, ...]:
    """The band limits of 18.2; scaled to the game's size when the option asks for it."""
    limits = [band.upto for band in book.victory.bands if band.upto >= 0]
    if scaled:
        limits = [round(upto * points_limit / book.victory.standard_points) for upto in limits]
    return tuple(limits)


def margin(state: State, book: RulesFile, scaled: bool) -> Margin:
    """The margin of victory (18.2): the difference in points lost, read against the bands."""
    a, b = state.sides[0].id, state.sides[1].id
    lost_a, lost_b = side_lost_halves(state, a), side_lost_halves(state, b)
    diff = abs(lost_a - lost_b)
    limits = thresholds(book, state.points_limit, scaled)
    result = book.victory.bands[-1].result
    for limit, band in zip(limits, book.victory.bands, strict=False):
        if diff <= 2 * limit:  # "0 to 150" is a draw, anything more is the next band
            result = band.result
            break
    leader = "" if lost_a == lost_b else (a if lost_a < lost_b else b)
    return Margin(leader, diff, result, limits)


def objectives_achieved(state: State, side: str) -> bool:
    """A side achieves its objectives (18.2) when it holds every objective it was set (and has some)."""
    wanted = [o for o in state.objectives if o.wanted_by == side]
    return bool(wanted) and all(o.held_by == side for o in wanted)


def check_objectives_set(state: State) -> None:
    """Objectives (18.2) are recorded only where the scenario sets some."""
    if not state.objectives:
        raise IllegalOrder("this scenario sets no objectives.")


def check_objective_order(state: State, order: Objective) -> None:
    """On the measured table an objective with a point is held by whoever stands on it (house
    sheet), not by the players' word; the umpire's word still counts nowhere else either."""
    if measured(state) and objective_point(state, order.objective) is not None:
        radius = victory_sheet().objective_radius
        raise IllegalOrder(f"{order.objective} is decided on the table: at the end of each turn it is held by the side "
                           f"whose nearest unit in good order stands within {radius:g}\" of it (house, 18.2).",
                           hint="Move a unit onto it; `/game status` shows who holds it.")


def objective(state: State, order: Objective) -> list[Event]:
    """Record who holds an objective now, as the players say (18.2)."""
    held = next(o for o in state.objectives if o.name == order.objective)
    held.held_by = "" if order.holder == "none" else order.holder
    return [public(f"Objective {held.name} is now held by the {state.side_name(held.held_by)}.")]


def check_end(state: State, seat: str) -> None:
    """A side may ask to end in the Initiative phase after a turn (18), once; the umpire any time."""
    if seat == UMPIRE:
        return
    if state.phase != INITIATIVE or state.turn == 0:
        raise WrongPhase("a game ends after a turn's Close Assault phase (18).",
                         hint="Say `end` in the Initiative phase, before rolling `initiative`.")
    if state.side(seat).wants_end:
        raise IllegalOrder("you have already asked to end; waiting for the other side.")


def end(state: State, seat: str) -> list[Event]:
    """The umpire ends the battle; a side proposes, and when both have, it ends (18)."""
    if seat == UMPIRE:
        return finish(state, "The umpire ended the battle.")
    ss = state.side(seat)
    ss.wants_end = True
    if all(s.wants_end for s in state.sides):
        return finish(state, "Both players agreed to end the battle.")
    other = state.side_name(state.other(ss.id))
    return [public(f"The {ss.name} propose to end the battle; the {other} agree with `end` "
                   "or play on with `initiative`.")]


def finish(state: State, reason: str) -> list[Event]:
    """The battle is over: every sealed record is opened and the winner worked out (18.2)."""
    held = [e.text for e in hold_objectives(state)]
    state.phase = OVER
    lines = [f"**The battle ends.** {reason}", *held]
    for r in state.sealed:
        if not r.revealed and not r.cancelled:
            r.revealed = True
            lines.append(f"Record #{r.number} ({state.side_name(r.side)}) opened: {r.text} (nonce `{r.nonce}`).")
    outcome = result(state)
    state.winner = outcome.winner or ""
    state.end_reason = f"{reason} {outcome.reason}"
    return [public("\n".join(lines), reveals=True)]


def result(state: State) -> Outcome:
    """Who won and why (18.2), with each side's losses and the objectives as details."""
    book = rules()
    scaled = state.options.get("margin") == "scaled"
    m = margin(state, book, scaled)
    line = breakdown_line if measured(state) else points_line
    details = [line(state, s.id) for s in state.sides]
    lead = (f"the {state.side_name(m.leader)} lost {fmt_halves(m.difference_halves)} points fewer"
            if m.leader else "both lost the same points")
    size = f" scaled to {state.points_limit} points" if scaled else " for 800 points"
    details.append(f"Points (18.2): {lead}: {m.result} (bands up to {', '.join(map(str, m.thresholds))}{size}).")
    if state.objectives:
        details.append("Objectives: " + "; ".join(
            f"{o.name} (wanted by the {state.side_name(o.wanted_by)}) held by the "
            f"{state.side_name(o.held_by)}" for o in state.objectives) + ".")
    if state.options.get("victory") == "objectives":
        winner, reason = _on_objectives(state)
    else:
        winner = m.leader if m.result != book.victory.bands[0].result and m.leader else None
        reason = f"{m.result} for the {state.side_name(winner)}." if winner else f"{m.result} on points lost."
    return Outcome(winner, reason, tuple(details))


def _on_objectives(state: State) -> tuple[str | None, str]:
    """The winner on objectives (18.2): the one side that achieved its own; else a draw."""
    got = [s.id for s in state.sides if objectives_achieved(state, s.id)]
    if len(got) == 1:
        other = state.other(got[0])
        wanted = [o for o in state.objectives if o.wanted_by == other]
        held = sum(o.held_by == other for o in wanted)
        theirs = (f"the {state.side_name(other)} took only {held} of {len(wanted)}" if held
                  else f"the {state.side_name(other)} took none of theirs" if wanted
                  else f"the {state.side_name(other)} had none to take")
        return got[0], f"The {state.side_name(got[0])} took their objectives; {theirs}."
    return None, "Both sides achieved their objectives: a draw." if got else "Neither side achieved its objectives: a draw."


def points_line(state: State, side: str) -> str:
    """A side's losses for the result (18.2): the total and each unit that counts."""
    lost = side_lost_halves(state, side)
    units = [f"{u.name} {fmt_halves(lost_halves(u))}" for u in state.units if u.side == side and lost_halves(u)]
    return (f"{state.side_name(side)}: lost {fmt_halves(lost)} of {side_points(state, side)} points"
            + (f" ({', '.join(units)})" if units else "") + ".")


def outcome(state: State) -> Outcome | None:
    """None while the battle runs; else the result recorded when it ended (18, 18.2)."""
    if state.phase != OVER:
        return None
    return Outcome(state.winner or None, state.end_reason, result(state).details)


# --- the measured table (option board=measured): the table decides the result ---------------------

HAND_RECORDS = ("loss", "destroyed", "routed-off")  # what fire, close assault and routing decide there
HAND_FATES = ("rout", "killed", "captured")  # what the morale tests and the staff rolls decide there


def check_by_hand(state: State, seat: str, order: Loss | Fate) -> None:
    """On the measured table the losses that score (18.2) come from the table: fire and close
    assault take stands (17.3, 17.5), routing units leave it (17.4.14); units rout on failed
    tests (17.2, 17.5) and Generals are lost on the Casualties to Staff rolls (14.3, 14.5).
    Players do not record them by hand there (they still do with board=tape); the umpire may,
    to correct the table."""
    verb = "loss" if isinstance(order, Loss) else order.fate
    if not measured(state) or seat == UMPIRE:
        return
    if verb in HAND_RECORDS:
        raise NotAllowed(f"`{verb}` is decided on the measured table: losses come from fire and close assault "
                         "(17.3, 17.5) and routing units leave the table (17.4.14); the result counts them (18.2).",
                         hint="Surrender an affected unit with `UNIT surrender` at the end of the Close Assault "
                              "phase (18.1); the umpire may correct the table.")
    if verb in HAND_FATES:
        why = ("units rout when they fail a morale test (17.2) or lose a close assault (17.5)" if verb == "rout"
               else "Generals are killed or captured by the Casualties to Staff rolls (14.3) and in close assault (14.5)")
        raise NotAllowed(f"`{verb}` is decided on the measured table: {why}.",
                         hint="The umpire may correct the table.")


def check_record(state: State, seat: str, order: Loss | Fate) -> Loss | Fate | Surrender:
    """A record of losses or a fate (17.5): on the measured table `surrender UNIT` is the 18.1
    surrender and the losses that score are the table's (``check_by_hand``)."""
    if isinstance(order, Fate) and order.fate == "surrender" and measured(state):
        return check_surrender(state, seat, Surrender(order.unit))
    unit = own_unit(state, seat, order.unit)
    if isinstance(order, Loss):
        losses_17_5.check_loss(unit, order.stands)
    else:
        losses_17_5.check_fate(unit, order)
    check_by_hand(state, seat, order)
    return order


def check_order(state: State, seat: str, order: Surrender | Objective) -> Surrender | Objective:
    """Section 18's orders checked: a surrender (18.1), an objective's holder (18.2)."""
    if isinstance(order, Surrender):
        return check_surrender(state, seat, order)
    check_objective_order(state, order)
    return order


def play(state: State, seat: str, order: End | Objective | Surrender) -> list[Event]:
    """Section 18's orders carried out: ending the battle, an objective's holder, a surrender."""
    match order:
        case End():
            return end(state, seat)
        case Objective():
            return objective(state, order)
        case Surrender():
            return surrender(state, state.unit(order.unit))


def candidates(state: State, units: list[Unit]) -> list[Surrender]:
    """The surrenders worth offering (18.1): in the Close Assault phase, the acting side's affected units."""
    if state.phase != TURN or STEPS[state.step] != "Close Assault":
        return []
    return [Surrender(u.id) for u in units if u.side == state.acting_side() and u.type != "general"
            and on_table(u) and affected(state, u)]


def affected(state: State, unit: Unit) -> list[str]:
    """Why a unit counts as affected for 18.1 (the house reading in the victory sheet): routing,
    in contact with a visible enemy, under half strength, disordered or shaken. Empty: not affected."""
    why = {
        "routing": unit.status == ROUTING,
        "contact": any(in_contact(unit, e) for e in state.units if e.side != unit.side and on_table(e)),
        "under-half": 2 * unit.stands < unit.start_stands,
        "disordered": unit.order == DISORDERED,
        "shaken": unit.order == SHAKEN,
    }
    return [reason for reason in victory_sheet().surrender_when if why[reason]]


def check_surrender(state: State, seat: str, order: Surrender) -> Surrender:
    """18.1: at the end of the Close Assault Phase a player may surrender their affected units:
    here in the side's own part of that phase (after the melees), its own units on the table."""
    unit = state.unit(order.unit)
    if not measured(state):
        raise NotAllowed("with board=tape record a surrender as `surrender UNIT`.")
    if seat not in (UMPIRE, unit.side):
        raise NotAllowed(f"{unit.name} belongs to the {state.side_name(unit.side)}; only its own side may surrender it.")
    if state.phase != TURN or STEPS[state.step] != "Close Assault":
        raise WrongPhase("units surrender at the end of the Close Assault phase (18.1).",
                         hint="Say `next` until the Close Assault phase; surrender in your own part of it.")
    if unit.side != state.acting_side():
        raise NotYourTurn(f"the {state.side_name(state.acting_side())} act now; surrender in your own part "
                          "of the Close Assault phase (18.1).")
    if unit.type == "general":
        raise IllegalOrder(f"{unit.name} is a General: Generals are captured (14.5), not surrendered.")
    if not on_table(unit):
        raise IllegalOrder(f"{unit.name} is not on the table ({unit.status}).")
    if not affected(state, unit):
        reasons = ", ".join(victory_sheet().surrender_when)
        raise IllegalOrder(f"{unit.name} is not affected: it is in good order, in contact with no enemy and at "
                           f"{unit.stands}/{unit.start_stands} stands.",
                           hint=f"Only affected units surrender (18.1; house reading: {reasons}).")
    return Surrender(unit.id)


def surrender(state: State, unit: Unit) -> list[Event]:
    """The unit lays down its arms (18.1): it leaves the table and counts its full points lost (18.2)."""
    why = ", ".join(affected(state, unit))
    unit.status = SURRENDERED
    unit.charging = ""
    text = f"{unit.name} surrenders (18.1; {why}): it leaves the table and counts its full {unit.points} points lost (18.2)."
    for general in state.units:  # house: a General (14.4) or engineer attached to it goes into captivity with it
        if general.type in STAFF and general.attached == unit.id and on_table(general):
            general.status = CAPTURED
            general.attached = ""
            general.lost_turn = state.turn
            text += (f" {general.name}, attached to it, is captured with it (14.5: a loss; his command may be "
                     "replaced from the next turn, 14.3).")
    return [public(text)]


WHY_FULL = {DESTROYED: "destroyed", ROUTED_OFF: "routed off the table", SURRENDERED: "surrendered"}


def why_lost(unit: Unit) -> str:
    """Why a unit counts for points lost (18.2), for the breakdown."""
    if unit.status in GONE:
        return WHY_FULL.get(unit.status, unit.status)
    if unit.status == ROUTING:
        return "routing"
    return f"under half strength, {unit.stands}/{unit.start_stands}"


def breakdown_line(state: State, side: str) -> str:
    """A side's losses counted from the table (18.2): which units count full and which half, and why."""
    lost = side_lost_halves(state, side)
    full = [u for u in state.units if u.side == side and u.status in GONE and u.points]
    half = [u for u in state.units if u.side == side and u.status not in GONE and lost_halves(u)]
    parts = []
    for label, units in (("full", full), ("half", half)):
        if units:
            parts.append(f"{label}: " + ", ".join(f"{u.name} {fmt_halves(lost_halves(u))} ({why_lost(u)})" for u in units))
    return (f"{state.side_name(side)}: lost {fmt_halves(lost)} of {side_points(state, side)} points"
            + (" - " + "; ".join(parts) if parts else "") + ".")


def objective_point(state: State, name: str) -> Point | None:
    """The point of a scenario objective on the measured table (the scenario's `at`), if it has one."""
    spec = next((o for o in data.scenario(state.scenario).objectives if o.name == name), None)
    return spec.at if spec is not None else None


def reach(unit: Unit, point: Point) -> float:
    """Inches from the unit's footprint to a point (0 inside it)."""
    poly = base(unit).polygon()
    if point_in_polygon(point, poly):
        return 0.0
    return min(point_segment_distance(point, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


def holder(state: State, point: Point) -> tuple[str, Unit | None, float]:
    """Who holds a point (house, victory sheet): the side of the nearest unit in good order within the
    objective radius; "" when no such unit is there or the two sides' nearest stand equally close."""
    radius = victory_sheet().objective_radius
    best: dict[str, tuple[float, Unit]] = {}
    for u in state.units:
        if u.type == "general" or u.status != ON_TABLE or not on_table(u) or u.order != GOOD:
            continue
        d = reach(u, point)
        if d <= radius + 1e-9 and (u.side not in best or d < best[u.side][0]):
            best[u.side] = (d, u)
    if not best:
        return "", None, 0.0
    ranked = sorted(best.items(), key=lambda kv: kv[1][0])
    if len(ranked) > 1 and abs(ranked[0][1][0] - ranked[1][1][0]) < 1e-9:
        return "", None, 0.0
    side, (d, unit) = ranked[0]
    return side, unit, d


def hold_objectives(state: State) -> list[Event]:
    """At the end of a turn and of the game the measured table decides who holds each objective with
    a point (18.2, house radius): a change is announced, otherwise the holder keeps it."""
    if not measured(state):
        return []
    events = []
    for o in state.objectives:
        point = objective_point(state, o.name)
        if point is None:
            continue
        side, unit, d = holder(state, point)
        if side and unit is not None and side != o.held_by:
            o.held_by = side
            events.append(public(f"Objective {o.name} is now held by the {state.side_name(side)}: {unit.name} "
                                 f"stands {d:.2f}\" from it (18.2)."))
    return events
