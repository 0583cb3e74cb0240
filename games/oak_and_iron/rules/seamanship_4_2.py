"""Book section 4.2 (The Movement Phase, step 2: Seamanship Action): before it moves, a ship that is not Shaken may take
a Skill Test to Change Heading, Adjust Speed or Cut Free."""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.core.geometry import Point, bearing_of
from games.core.rng import Rng
from games.core.ruleset import Event
from games.oak_and_iron.data import rules
from games.oak_and_iron.rules import public_lines
from games.oak_and_iron.rules.collisions_5_1 import directly_away
from games.oak_and_iron.rules.initiative_4_1 import card_amount, skill_test
from games.oak_and_iron.rules.movement_4_2 import activate, cannot_move_reason, execute_move, finish_activation
from games.oak_and_iron.rules.off_table_5_2 import check_off_table
from games.oak_and_iron.state import Mark, ShipState, State


def seamanship(
    state: State, seat: str, ship_id: str, action: str, rng: Rng, *,
    delta: int = 0, direction: str = "", degrees: float = 0.0, fortune: bool = False,
) -> list[Event]:
    """SEAMANSHIP ACTION (4.2 step 2): ``adjust`` (speed by ``delta``), ``heading`` (a turn before
    the move with the speed 1 tool) or ``cutfree``; a Fortune Point (5.3) may re-roll the test."""
    ship, events = activate(state, seat, ship_id)
    act = state.activation
    if act.step != "start":
        raise IllegalOrder(f"{ship.name} has already {'moved' if act.step == 'moved' else 'tried a Seamanship Action'}; a Seamanship Action comes before the move.")
    if ship.shaken:
        raise IllegalOrder(f"{ship.name} is Shaken (Fatigue {ship.fatigue}) and may not take Seamanship Actions.")
    auto = bool(card_amount(state, ship.controller, "seamanship_auto", ship))
    _check_can_steer(state, ship, action, degrees)
    away = _cut_free_vector(state, ship) if action == "cutfree" else None
    test = skill_test(state, ship, rng, fortune=fortune, auto=auto)
    act.step = "seamanship"
    lines = [f"{ship.name} attempts {action}: {test.text}."]
    if test.passed:
        if action == "adjust":
            r = rules()
            cap = min(r.max_speed, r.crippled_max_speed) if ship.crippled else r.max_speed
            act.speed = max(0, min(cap, act.speed + delta))
            lines.append(f"{ship.name}'s speed for this move is {act.speed}.")
        elif action == "heading":
            lines += execute_move(
                state, ship, rng, forward=0.0, turn_when="start", direction=direction, degrees=degrees, speed_for_collision=act.speed
            )
        elif away is not None:
            lines += _cut_free(state, ship, away)
    return events + public_lines(lines) + (finish_activation(state, ship, []) if not ship.can_act else [])


def _check_can_steer(state: State, ship: ShipState, action: str, degrees: float) -> None:
    """CHANGE HEADING and ADJUST SPEED: not In the Wind's Eye, Entangled, Aground or Anchored; the
    turn no wider than the tool's turning edge."""
    if action in ("adjust", "heading"):
        reason = cannot_move_reason(state, ship)
        if state.activation.point_of_sail == "wind's eye":
            reason = f"{ship.name} is In the Wind's Eye"
        if reason:
            raise IllegalOrder(f"{reason}: no {'Adjust Speed' if action == 'adjust' else 'Change Heading'}.")
    r = rules()
    if action == "heading" and degrees > r.turn_angle + 1e-9:
        raise IllegalOrder(f"A turn of {degrees:g} degrees is beyond the speed 1 tool's turning edge ({r.turn_angle:g} degrees).")


def _cut_free_vector(state: State, ship: ShipState) -> Point:
    """CUT FREE: a Yard Arm Directly Away from the ships it is Entangled with, or no Cut Free at all."""
    r = rules()
    if not ship.entangled:
        raise IllegalOrder(f"{ship.name} is not Entangled; there is nothing to cut free from.")
    centres = [state.ship(e).base.centre for e in ship.entangled]
    mean = (sum(c[0] for c in centres) / len(centres), sum(c[1] for c in centres) / len(centres))
    yard = r.distance("yard_arm")
    vec, frac = cut_free_direction(state, ship, mean, yard)
    if frac < 1 - 1e-9:
        raise IllegalOrder(
            f"{ship.name} can move only {yard * frac:.2f}\" directly away, less than Yard Arm ({yard:g}\"): it cannot Cut Free."
        )
    return vec


def _cut_free(state: State, ship: ShipState, away: Point) -> list[str]:
    """CUT FREE, passed: no longer Entangled, moved away, speed at most 1 for the rest of the activation."""
    for other_id in list(ship.entangled):
        other = state.ship(other_id)
        other.entangled.remove(ship.id)
    ship.entangled = []
    start = ship.base.centre
    ship.place(ship.base.translated(away))
    act = state.activation
    act.speed = min(act.speed, 1)
    state.marks = [m for m in state.marks if m.kind != "path"] + [Mark("path", [start, ship.base.centre], ship.controller, ship.name)]
    lines = [f"{ship.name} cuts free, moving {rules().distance('yard_arm'):g}\" on bearing {bearing_of(away):.0f}; speed at most 1 this turn."]
    check_off_table(state, ship, lines)
    return lines


def cut_free_direction(state: State, ship: ShipState, away_from: Point, inches: float) -> tuple[Point, float]:
    """Directly away from the ships it was Entangled with, ignoring them as obstacles."""
    saved = {e: state.ship(e).status for e in ship.entangled}
    for e in saved:
        state.ship(e).status = "cutting"
    try:
        return directly_away(state, ship, away_from, inches)
    finally:
        for e, status in saved.items():
            state.ship(e).status = status
