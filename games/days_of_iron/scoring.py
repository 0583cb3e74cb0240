"""Points lost and the margin of victory (18.2), and objective results.

Points are counted in half points (integers) so that a routing unit's half value stays exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.days_of_iron.records import Rules
from games.days_of_iron.state import GONE, ROUTING, GameState, Unit


def lost_halves(unit: Unit) -> int:
    """A unit's loss in half points: full if gone, half if routing or under half strength."""
    if unit.status in GONE:
        return 2 * unit.points
    if unit.status == ROUTING or 2 * unit.stands < unit.start_stands:
        return unit.points
    return 0


def side_lost_halves(state: GameState, side: str) -> int:
    return sum(lost_halves(u) for u in state.units if u.side == side)


def side_points(state: GameState, side: str) -> int:
    return sum(u.points for u in state.units if u.side == side)


def fmt_halves(halves: int) -> str:
    return f"{halves // 2}" + (".5" if halves % 2 else "")


@dataclass(frozen=True)
class Margin:
    leader: str  # side id that lost fewer points, "" when level
    difference_halves: int
    result: str  # Draw, Minor Victory, ...
    thresholds: tuple[int, ...]


def thresholds(rules: Rules, points_limit: int, scaled: bool) -> tuple[int, ...]:
    """The band limits of 18.2; scaled to the game's size when the option asks for it."""
    limits = [upto for upto, _ in rules.victory_bands if upto >= 0]
    if scaled:
        limits = [round(upto * points_limit / rules.victory_points) for upto in limits]
    return tuple(limits)


def margin(state: GameState, rules: Rules, scaled: bool) -> Margin:
    a, b = state.sides[0].id, state.sides[1].id
    lost_a, lost_b = side_lost_halves(state, a), side_lost_halves(state, b)
    diff = abs(lost_a - lost_b)
    limits = thresholds(rules, state.points_limit, scaled)
    result = rules.victory_bands[-1][1]
    for limit, (_, name) in zip(limits, rules.victory_bands, strict=False):
        if diff <= 2 * limit:  # "0 to 150" is a draw, anything more is the next band
            result = name
            break
    leader = "" if lost_a == lost_b else (a if lost_a < lost_b else b)
    return Margin(leader, diff, result, limits)


def objectives_achieved(state: GameState, side: str) -> bool:
    """A side achieves its objectives when it holds every objective it was set (and has some)."""
    wanted = [o for o in state.objectives if o.wanted_by == side]
    return bool(wanted) and all(o.held_by == side for o in wanted)
