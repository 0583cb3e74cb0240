"""Book section 18 (ending the game): the players agree to end after a turn's Close Assault phase,
and 18.2 (calculating the winner): points lost, half for routing units and units under half
strength, the margin read against the victory bands; or objectives taken and held.

Points are counted in half points (integers) so that a routing unit's half value stays exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.errors import IllegalOrder, WrongPhase
from games.core.ruleset import UMPIRE, Event, Outcome, public
from games.days_of_iron.data import Rules, rules
from games.days_of_iron.orders import Objective
from games.days_of_iron.rules.points_5 import side_points
from games.days_of_iron.state import GONE, INITIATIVE, OVER, ROUTING, State, Unit


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


def thresholds(book: Rules, points_limit: int, scaled: bool) -> tuple[int, ...]:
    """The band limits of 18.2; scaled to the game's size when the option asks for it."""
    limits = [upto for upto, _ in book.victory_bands if upto >= 0]
    if scaled:
        limits = [round(upto * points_limit / book.victory_points) for upto in limits]
    return tuple(limits)


def margin(state: State, book: Rules, scaled: bool) -> Margin:
    """The margin of victory (18.2): the difference in points lost, read against the bands."""
    a, b = state.sides[0].id, state.sides[1].id
    lost_a, lost_b = side_lost_halves(state, a), side_lost_halves(state, b)
    diff = abs(lost_a - lost_b)
    limits = thresholds(book, state.points_limit, scaled)
    result = book.victory_bands[-1][1]
    for limit, (_, name) in zip(limits, book.victory_bands, strict=False):
        if diff <= 2 * limit:  # "0 to 150" is a draw, anything more is the next band
            result = name
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
    state.phase = OVER
    lines = [f"**The battle ends.** {reason}"]
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
    details = [points_line(state, s.id) for s in state.sides]
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
        winner = m.leader if m.result != book.victory_bands[0][1] and m.leader else None
        reason = f"{m.result} for the {state.side_name(winner)}." if winner else f"{m.result} on points lost."
    return Outcome(winner, reason, tuple(details))


def _on_objectives(state: State) -> tuple[str | None, str]:
    """The winner on objectives (18.2): the one side that achieved its own; else a draw."""
    got = [s.id for s in state.sides if objectives_achieved(state, s.id)]
    if len(got) == 1:
        return got[0], f"The {state.side_name(got[0])} took their objectives and denied the enemy theirs."
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
