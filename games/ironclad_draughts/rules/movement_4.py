"""Book section 4, Movement: one or two squares orthogonally or one diagonally, within 45 degrees
of the bow (ruling), never astern (Movement 3), then an optional 90-degree turn (Movement 1);
ships may not stop unless damaged (Movement 2); a move ending in an occupied square rams (Movement
4, section 8); leaving the board is for good (Movement 5), which also tracks the pass-through-and-
return manoeuvre. The moves damage imposes (Firing 4) are here too.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.decks import is_red
from games.core.errors import IllegalOrder, quote
from games.core.squaregrid import Square, is_diagonal, step
from games.ironclad_draughts.orders import Move
from games.ironclad_draughts.state import (
    CONNING,
    ENGINE,
    STEERING,
    Ship,
    State,
    exit_text,
    label,
    on_board,
    ship_at,
    ship_by_id,
)


@dataclass
class MoveResult:
    path: list[Square]  # start square first; a final off-board square if the ship leaves
    final: Square
    heading: int
    left: bool = False
    blocked_by: str = ""  # a ship in the way before the last square of a two-square move
    rams: str = ""
    avoids: str = ""


def movement_mode(ship: Ship) -> str:
    """``free``, ``ahead`` (one square straight ahead, forced) or ``stopped`` (Firing 4)."""
    if any(d.kind == ENGINE and d.spent for d in ship.damage):
        return "stopped"
    if any(d.kind in (CONNING, ENGINE, STEERING) for d in ship.damage):
        return "ahead"
    return "free"


def steering_turn(ship: Ship) -> int:
    """45-degree steps the steering hit forces: port (-1) for a red card, starboard (+1) for black (Firing 4)."""
    for dmg in ship.damage:
        if dmg.kind == STEERING:
            return -1 if is_red(dmg.card) else 1
    return 0


def damage_reason(ship: Ship) -> str:
    """Why a damaged ship cannot choose its move (Firing 4), for messages."""
    if movement_mode(ship) == "stopped":
        return "its engine is hit and it is stopped"
    kinds = [d.kind for d in ship.damage if d.kind in (CONNING, ENGINE, STEERING)]
    return f"{' and '.join(dict.fromkeys(kinds))} hit: it moves one square straight ahead"


def may_stop(state: State, ship: Ship) -> bool:
    """Option damaged_may_stop=yes: a ship with damage in force or flotation lost may stop (Movement 2)."""
    damaged = bool(ship.damage) or ship.flotation < ship.flotation_max
    return state.options.get("damaged_may_stop") == "yes" and damaged


def free_distances(heading: int, offset: int) -> tuple[int, ...]:
    """1 or 2 squares orthogonally, 1 diagonally (Movement 1)."""
    return (1,) if is_diagonal(heading + offset) else (1, 2)


def _step_onto(state: State, ship: Ship, result: MoveResult, nxt: Square, last: bool) -> bool:
    """One square of a move: False when the move ends here (off the board, blocked, ram, avoid)."""
    if not on_board(state, nxt):
        result.path.append(nxt)
        result.left = True
        result.heading = ship.heading
        return False
    other = ship_at(state, nxt)
    if other is None:
        result.path.append(nxt)
        result.final = nxt
        return True
    if not last:
        if state.options.get("pass_through") != "yes":
            result.blocked_by = other.id
            return False
        result.path.append(nxt)  # passing through (option): the path goes on, the end does not
        return True
    if other.side != ship.side or is_red(ship.card):
        result.rams = other.id  # Ramming 1-3
    else:
        result.avoids = other.id  # Ramming 2: a black card avoids a friend
    return False


def simulate_move(state: State, ship: Ship, offset: int, distance: int, turn: int) -> MoveResult:
    """Where a move ends. ``offset`` -1/0/+1 is 45 degrees to port/ahead/starboard.

    A ship may not pass through another unless the ``pass_through`` option says so; a move that
    ends in an occupied square rams (or avoids a friend) from the last empty square of its path
    (Movement 4, Ramming 1-3).
    """
    direction = (ship.heading + offset) % 8
    start = Square(ship.x, ship.y)
    result = MoveResult([start], start, (ship.heading + turn) % 8)
    cur = start
    for i in range(distance):
        nxt = step(cur, direction)
        if not _step_onto(state, ship, result, nxt, i == distance - 1):
            break
        cur = nxt
    if not result.left:  # the path ends at the last empty square
        del result.path[result.path.index(result.final) + 1 :]
    return result


def forced_move(state: State, ship: Ship) -> MoveResult:
    """The move damage imposes: one square straight ahead (plus the steering turn), or none (Firing 4)."""
    if movement_mode(ship) == "stopped":
        return stay(ship)
    return simulate_move(state, ship, 0, 1, steering_turn(ship))


def stay(ship: Ship) -> MoveResult:
    """No move at all: a stopped ship, or a damaged one stopping (option ``damaged_may_stop``, Movement 2)."""
    here = Square(ship.x, ship.y)
    return MoveResult([here], here, ship.heading)


def update_manoeuvre(ship: Ship) -> None:
    """Track the pass-through-and-return manoeuvre (Movement 5)."""
    if ship.y == ship.far_rank:
        ship.reached_far = True
    elif ship.reached_far and ship.y == ship.home_rank:
        ship.returned = True


def check_move(state: State, ship: Ship, order: Move, text: str) -> MoveResult:
    """Refuse a move the book forbids (Movement 1, 4, 5; Firing 1 for a ram); else where it ends."""
    allowed = free_distances(ship.heading, order.steps)
    if order.distance not in allowed:
        diagonal = len(allowed) == 1
        raise IllegalOrder(
            f"{quote(text)}: {ship.name} may move {'only 1 square diagonally' if diagonal else '1 or 2 squares'} "
            f"in that direction, not {order.distance}.",
            hint="Ships move 1-2 squares orthogonally or 1 diagonally, within 45 degrees of the bow.",
        )
    result = simulate_move(state, ship, order.steps, order.distance, order.turn_steps)
    if result.blocked_by:
        other = ship_by_id(state, result.blocked_by)
        raise IllegalOrder(
            f"{quote(text)}: {other.name} at {label(Square(other.x, other.y))} is in the way.",
            hint="A ship may not pass through another; `move 1` ends in its square (a ram).",
        )
    if result.left and not order.leave:
        raise IllegalOrder(
            f"{quote(text)}: that move takes {ship.name} off the board over {exit_text(state, result.path[-1])}.",
            hint="Add `leave` if you mean it (a ship that leaves can never return), or choose another move.",
        )
    if order.leave and not result.left:
        raise IllegalOrder(f"{quote(text)}: `leave` given but that move stays on the board.", hint="Drop `leave`.")
    if result.left and (order.turn or order.target):
        raise IllegalOrder(f"{quote(text)}: a ship leaving the board can neither turn nor fire.")
    if order.target and result.rams:
        raise IllegalOrder(
            f"{quote(text)}: that move rams {ship_by_id(state, result.rams).name}; a ramming ship may not fire.",
            hint="Drop the `fire` part.",
        )
    return result
