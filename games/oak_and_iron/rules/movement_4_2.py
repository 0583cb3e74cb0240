"""Book section 4.2 (ch. 4, phase II: The Movement Phase): players alternate activating one ship at a time; each
determines its speed rating from its point of sail, may take a Seamanship Action
(``seamanship_4_2``), moves the full distance with one turn at the start or the end, and may take
a Crew Action (``crew_actions_4_2``).

The movement tool is exact geometry: the base slides forward and pivots on the corner of the
tool, stopping at the first contact (collisions, 5.1); shoals (5.9) and the table edge (5.2) are
checked once the move is done.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from games.core.errors import IllegalOrder, WrongPhase
from games.core.geometry import Base, Point, pivot_contact, scale, slide_contact
from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.oak_and_iron.data import rules
from games.oak_and_iron.measure import point_of_sail
from games.oak_and_iron.rules import public_lines
from games.oak_and_iron.rules.activation_4 import own_ship
from games.oak_and_iron.rules.collisions_5_1 import Obstacle, obstacles_for, resolve_collision
from games.oak_and_iron.rules.dice_2 import count, roll, show
from games.oak_and_iron.rules.events_5_4 import event_amount
from games.oak_and_iron.rules.fleet_battles_9 import in_moving_squadron
from games.oak_and_iron.rules.initiative_4_1 import card_amount
from games.oak_and_iron.rules.off_table_5_2 import check_off_table
from games.oak_and_iron.rules.scrolling_sea_5_2 import scroll_shift, scroll_table
from games.oak_and_iron.rules.ship_status_4_2 import describe_ship
from games.oak_and_iron.rules.terrain_5_9 import crossed_shoals
from games.oak_and_iron.state import Activation, Mark, ShipState, State


def speed_rating(state: State, ship: ShipState) -> tuple[int, str, str]:
    """DETERMINE SPEED RATING (4.2 step 1): (speed, point of sail used, how it was worked out)
    from where the ship starts its activation; sail setting, cards and Crippled adjust it."""
    r = rules()
    pos = point_of_sail(ship.base, state.weather_edge, state.table_width, state.table_height)
    if pos.options == ("wind's eye",):
        return 0, "wind's eye", f"Point of sail: {pos.describe()}: no forward movement"
    base_speeds = {"large": ship.large, "windward": ship.windward}
    chosen = max(pos.options, key=lambda o: base_speeds[o])
    speed = base_speeds[chosen]
    notes = [f"Point of sail: {pos.describe()}; {chosen.title()} speed {speed}"]
    if ship.sail == "anchored":
        return 0, chosen, "; ".join([*notes, "Anchored: no movement"])
    if ship.sail == "full":
        speed += 1
        notes.append("Full Sail +1")
    elif ship.sail == "minimal":
        speed -= 1
        notes.append("Minimal Sail -1")
    bonus = card_amount(state, ship.controller, "speed", ship) + event_amount(state, "speed")
    if bonus:
        speed += bonus
        notes.append(f"cards {bonus:+d}")
    if ship.crippled and speed > r.crippled_max_speed:
        speed = r.crippled_max_speed
        notes.append(f"Crippled: at most {r.crippled_max_speed}")
    speed = max(0, min(r.max_speed, speed))
    notes.append(f"speed {speed}")
    return speed, chosen, "; ".join(notes)


# --- moving bases with exact collisions ----------------------------------------------------------


@dataclass
class MoveResult:
    base: Base
    path: list[Point]
    hit: Obstacle | None = None
    moved_inches: float = 0.0
    turned: float = 0.0
    shoals: list[str] = field(default_factory=list)


def pivot_point(base: Base, direction: str) -> Point:
    """A turn pivots on the side mid-point toward which the ship turns (the tool's corner)."""
    return base.edge_midpoint("starboard" if direction == "starboard" else "port")


def do_pivot(state: State, ship: ShipState, base: Base, direction: str, degrees: float, result: MoveResult) -> Base:
    """MOVE (4.2 step 3), the turn: pivot up to ``degrees``, stopping at the first contact."""
    signed = degrees if direction == "starboard" else -degrees
    pivot = pivot_point(base, direction)
    best: tuple[float, Obstacle] | None = None
    for ob in obstacles_for(state, ship.id):
        ang = pivot_contact(base.polygon(), pivot, signed, ob.poly)
        if ang is not None and (best is None or ang < best[0]):
            best = (ang, ob)
    allowed = degrees if best is None else best[0]
    turned = base.pivoted(pivot, math.copysign(allowed, signed))
    result.shoals += crossed_shoals(state, base, turned, slide=None, pivot=(pivot, math.copysign(allowed, signed)))
    result.turned += allowed
    result.path.append(turned.centre)
    if best is not None:
        result.hit = best[1]
    return turned


def do_slide(state: State, ship: ShipState, base: Base, inches: float, result: MoveResult, direction: Point | None = None) -> Base:
    """MOVE (4.2 step 3), the slide along the tool, stopping at the first contact."""
    vec = scale(direction if direction is not None else base.forward, inches)
    best: tuple[float, Obstacle] | None = None
    for ob in obstacles_for(state, ship.id):
        t = slide_contact(base.polygon(), vec, ob.poly)
        if t is not None and (best is None or t < best[0]):
            best = (t, ob)
    frac = 1.0 if best is None else best[0]
    moved = base.translated(scale(vec, frac))
    result.shoals += crossed_shoals(state, base, moved, slide=scale(vec, frac), pivot=None)
    result.moved_inches += inches * frac
    result.path.append(moved.centre)
    if best is not None:
        result.hit = best[1]
    return moved


def after_move(state: State, ship: ShipState, result: MoveResult, speed: int, rng: Rng, notes: list[str]) -> None:
    """Place the ship, then collisions (5.1), shoals (5.9) and the table edge (5.2), in the book's order."""
    ship.place(result.base)
    if (result.moved_inches > 1e-9 or result.turned > 1e-9) and ship.landing is not None:
        ship.landing = None
        notes.append(f"{ship.name}'s Landing Party is withdrawn (the ship moved)")
    if result.hit is not None:
        resolve_collision(state, ship, result.hit, speed, rng, notes)
    if result.shoals and ship.on_table:
        n = ship.fortitude
        faces = roll(rng, n)
        struck = count(faces, rules().faces_of("shoal_strike"))
        notes.append(f"Crossed {', '.join(sorted(set(result.shoals)))}: {n} dice: {show(faces)}")
        if struck:
            ship.aground = True
            notes.append(f"{ship.name} strikes bottom and is Aground")
    check_off_table(state, ship, notes)
    state.marks = [m for m in state.marks if m.kind != "path"]
    state.marks.append(Mark("path", list(result.path), ship.controller, ship.name))


def execute_move(
    state: State,
    ship: ShipState,
    rng: Rng,
    *,
    forward: float,
    turn_when: str = "",
    direction: str = "",
    degrees: float = 0.0,
    speed_for_collision: int,
) -> list[str]:
    """MOVE (4.2 step 3): an optional pivot at the start, the forward slide, an optional pivot at the
    end. With a scrolling sea, a move that would leave the table is made again once everything on
    the table has moved away from that edge (``scrolling_sea_5_2``)."""

    def planned() -> MoveResult:
        start = ship.base
        result = MoveResult(start, [start.centre])
        base = start
        if turn_when == "start" and degrees > 0:
            base = do_pivot(state, ship, base, direction, degrees, result)
        if result.hit is None and forward > 0:
            base = do_slide(state, ship, base, forward, result)
        if result.hit is None and turn_when == "end" and degrees > 0:
            base = do_pivot(state, ship, base, direction, degrees, result)
        result.base = base
        return result

    result = planned()
    notes: list[str] = []
    shift = scroll_shift(state, result.base)
    if shift is not None and scroll_table(state, ship, shift, notes):
        result = planned()
    start, base = ship.base, result.base  # the ship is placed by after_move: it still stands at the start
    pieces = []
    if turn_when and degrees > 0:
        pieces.append(f"turn {turn_when} {direction} {result.turned:.1f} deg")
    pieces.append(f"forward {result.moved_inches:.2f}\"")
    notes += [
        f"{ship.name} moves: {'; '.join(pieces)}; from ({start.centre[0]:.2f}, {start.centre[1]:.2f}) heading "
        f"{start.heading:.0f} to ({base.centre[0]:.2f}, {base.centre[1]:.2f}) heading {base.heading:.0f}"
    ]
    if result.hit is not None:
        notes.append(f"stopped on contact with {result.hit.ref or result.hit.kind}")
    after_move(state, ship, result, speed_for_collision, rng, notes)
    return notes


# --- activations ----------------------------------------------------------------------------------


def activate(state: State, seat: str, ship_id: str) -> tuple[ShipState, list[Event]]:
    """The ship an order names starts its activation (speed worked out once, where it starts), or
    continues the one under way; another ship's activation must be finished first."""
    if state.phase != "movement":
        raise WrongPhase(f"That is a Movement Phase order; it is now the {state.phase} phase.")
    ship = own_ship(state, seat, ship_id)
    act = state.activation
    if act.ship and act.ship != ship.id:
        cur = state.ship(act.ship)
        raise IllegalOrder(f"{cur.name} is still activating: finish it first (a Crew Action or `{cur.name} done`).")
    if not act.ship:
        if ship.moved:
            raise IllegalOrder(f"{ship.name} has already activated this turn (its wake is on the table).")
        if not in_moving_squadron(state, ship):
            rest = ", ".join(s.name for s in state.ships if s.squadron == state.moving_squadron and not s.moved and s.can_act)
            raise IllegalOrder(f"{ship.name} is not in the squadron activating now: a fleet activates all of one squadron first "
                               f"(ch. 9).", hint=f"Still to activate: {rest}.")
        speed, pos, text = speed_rating(state, ship)
        state.activation = Activation(ship.id, "start", speed, pos, text)
        if ship.squadron:  # Fleet Battles: the fleet is now activating this squadron (ch. 9)
            state.moving_squadron = ship.squadron
        state.focus = ship.id
        return ship, [public(f"{ship.name} activates. {text}.")]
    state.focus = ship.id
    return ship, []


def cannot_move_reason(state: State, ship: ShipState) -> str:
    """ENTANGLED, AGROUND (4.2) and ANCHORED ships do not move."""
    if ship.entangled:
        return f"{ship.name} is Entangled (with {', '.join(state.ship(e).name for e in ship.entangled)}) and will not move"
    if ship.aground:
        return f"{ship.name} is Aground and may not move until the token is removed"
    if ship.sail == "anchored":
        return f"{ship.name} is Anchored and cannot move"
    return ""


def must_still_move(state: State, ship: ShipState) -> bool:
    """A ship must always move the full distance (4.2 step 3) before its Crew Action or ending."""
    act = state.activation
    return act.step != "moved" and not cannot_move_reason(state, ship) and act.point_of_sail != "wind's eye" and act.speed > 0


def finish_activation(state: State, ship: ShipState, lines: list[str]) -> list[Event]:
    """The activation's steps are done: the Wake marker goes down (``turn_4`` picks who activates next)."""
    ship.moved = True
    state.activation = Activation()
    lines.append(f"{ship.name}'s activation ends: {describe_ship(ship)}." if ship.on_table else f"{ship.name}'s activation ends.")
    return public_lines(lines)


def move(state: State, seat: str, ship_id: str, when: str, direction: str, degrees: float, rng: Rng) -> list[Event]:
    """MOVE (4.2 step 3): the full speed forward with one turn of at most the tool's turning edge
    at the start or end (``when``); In the Wind's Eye only the turn, with the speed 1 tool."""
    ship, events = activate(state, seat, ship_id)
    act = state.activation
    if act.step == "moved":
        raise IllegalOrder(f"{ship.name} has already moved this activation.")
    reason = cannot_move_reason(state, ship)
    if reason:
        raise IllegalOrder(f"{reason}: take a Crew Action or `{ship.name} done`.")
    forward = _forward_inches(state, ship, when, degrees)
    lines = execute_move(
        state, ship, rng, forward=forward, turn_when=when, direction=direction, degrees=degrees, speed_for_collision=max(act.speed, 1)
    )
    act.step = "moved"
    if ship.can_act:  # a collision can leave it Out of Action: then nothing more is left to it (4.2)
        pos = point_of_sail(ship.base, state.weather_edge, state.table_width, state.table_height)
        lines.append(f"{ship.name} now lies {pos.describe()}.")
        return events + public_lines(lines)
    return events + finish_activation(state, ship, lines)


def _forward_inches(state: State, ship: ShipState, when: str, deg: float) -> float:
    """How far the move goes, refusing a turn beyond the tool's edge or a ship that cannot go forward."""
    act = state.activation
    r = rules()
    if act.point_of_sail == "wind's eye":
        if not when:
            pos = point_of_sail(ship.base, state.weather_edge, state.table_width, state.table_height)
            raise IllegalOrder(
                f"{ship.name} is {pos.describe()}: it cannot move forward.",
                hint=f"It may turn with the speed 1 tool: `{ship.name} move turn-start port 45`, or take a Crew Action.",
            )
        if deg > r.turn_angle + 1e-9:
            raise IllegalOrder(f"A turn of {deg:g} degrees is beyond the speed 1 tool's turning edge ({r.turn_angle:g} degrees).")
        return 0.0
    if act.speed <= 0:
        raise IllegalOrder(f"{ship.name}'s speed rating is 0 ({act.pos_text}): take a Crew Action or `{ship.name} done`.")
    if when and deg > r.turn_angle + 1e-9:
        raise IllegalOrder(f"A turn of {deg:g} degrees is beyond the speed {act.speed} tool's turning edge ({r.turn_angle:g} degrees).")
    return act.speed * r.inches_per_speed


def done(state: State, seat: str, ship_id: str) -> list[Event]:
    """The ship ends its activation without a Crew Action (once it has moved, if it must)."""
    ship, events = activate(state, seat, ship_id)
    if must_still_move(state, ship):
        raise IllegalOrder(
            f"{ship.name} must move first (speed {state.activation.speed}): every ship moves the full distance forward.",
            hint=f"Write `{ship.name} move` or `{ship.name} move turn-end port 45`.",
        )
    return events + finish_activation(state, ship, [])
