"""Book section 4, Movement: a ship moves forward one hex or turns sixty degrees for each point of
its movement rate; moving into an enemy's hex rams it (section 5) and ends the move.

Also here: where a ship that has broken off (section 3, "sail to safety") steers, since that is
a move the bot makes for it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase, quote
from games.core.hexgrid import Hex, HexLayout, facing_delta
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, public
from games.hex_ironclads.data import tables
from games.hex_ironclads.orders import Move, Stay, own_side, ref
from games.hex_ironclads.rules.ramming_5 import rammed
from games.hex_ironclads.state import FIGHTING, MOVE, SAVED, Mark, Ship, State, game_map

STEP_HINT = "Steps: F forward one hex, P/S turn 60 degrees to port/starboard, one point each; a ram ends the move."


def unmoved(state: State) -> list[Ship]:
    """The moving side's fighting ships that have not moved yet this turn."""
    mover = state.mover()
    return [s for s in state.ships if s.side == mover and s.status == FIGHTING and not s.moved]


# --- the map's edges ----------------------------------------------------------------------------


def edge_distance(layout: HexLayout, h: Hex, edge: str) -> int:
    """Hexes to reach the map's hex row/column along an edge (offset coordinates are exact here)."""
    col, row = layout.to_offset(h)
    if edge == "north":
        return row - layout.first_row
    if edge == "south":
        return layout.first_row + layout.rows - 1 - row
    if edge == "west":
        return col - layout.first_col
    return layout.first_col + layout.cols - 1 - col


def beyond_edge(layout: HexLayout, h: Hex, edge: str) -> bool:
    """An off-map hex lying past the given edge."""
    col, row = layout.to_offset(h)
    if edge == "north":
        return row < layout.first_row
    if edge == "south":
        return row >= layout.first_row + layout.rows
    if edge == "west":
        return col < layout.first_col
    return col >= layout.first_col + layout.cols


# --- walking the steps --------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveResult:
    """A checked move: the hexes passed, the end hex and facing, and a ram or an exit if any."""

    path: tuple[Hex, ...]
    end: Hex
    facing: int
    rams: str = ""  # id of the rammed ship
    exits: bool = False  # left the map by the home edge
    problem: str = ""


def plan_move(state: State, ship: Ship, steps: str, *, allow_exit: bool = False, allow_ram: bool = True) -> MoveResult:
    """Section 4: walk the steps (F/P/S, one point each) without changing anything and report what
    would happen. Land and shoals stop a ship; an enemy's hex is a ram (section 5) and must be the
    last step; only a ship that has broken off leaves the map, by its home edge (section 3)."""
    hex_map = game_map(state)
    layout = hex_map.layout
    here, facing = ship.hex, ship.facing
    path = [here]
    ships_at = {s.hex: s for s in state.ships if s.on_board and s.id != ship.id}
    if len(steps) > ship.move:
        return MoveResult(tuple(path), here, facing, problem=f"{ship.name} has {ship.move} movement points; {len(steps)} steps were ordered")
    for i, step in enumerate(steps, start=1):
        if step in "PS":
            facing = (facing + (1 if step == "S" else -1)) % 6
            continue
        nxt = layout.neighbour(here, facing)
        stop = _entering(state, ship, nxt, here, i, len(steps), ships_at.get(nxt), allow_exit=allow_exit, allow_ram=allow_ram)
        if stop is not None:
            return MoveResult(tuple(path), here, facing, rams=stop[0], exits=stop[1], problem=stop[2])
        here = nxt
        path.append(here)
    return MoveResult(tuple(path), here, facing)


def _entering(state: State, ship: Ship, nxt: Hex, here: Hex, i: int, last: int, other: Ship | None, *,
              allow_exit: bool, allow_ram: bool) -> tuple[str, bool, str] | None:
    """What stops step ``i`` into ``nxt``, as (rammed ship id, exits, problem); None = it goes on."""
    hex_map = game_map(state)
    layout = hex_map.layout
    if not layout.on_map(nxt):
        home = state.side(ship.side).home_edge
        if allow_exit and beyond_edge(layout, nxt, home) and i == last:
            return "", True, ""
        return "", False, f"step {i} would leave the map at {layout.label(here)}; only a ship that has broken off leaves, by its home edge"
    terrain = hex_map.terrain_at(nxt)
    if terrain in tables().impassable:
        return "", False, f"step {i} would enter {terrain} at {layout.label(nxt)}"
    if other is None:
        return None
    if other.side == ship.side:
        return "", False, f"step {i} would enter {layout.label(nxt)}, where {other.name} (your own ship) lies"
    if not allow_ram:
        return "", False, f"step {i} would ram {other.name}"
    if i != last:
        return "", False, f"step {i} rams {other.name} at {layout.label(nxt)}, which ends the move; drop the steps after it"
    return other.id, False, ""


def all_step_sequences(limit: int) -> list[str]:
    """Every F/P/S string up to ``limit`` long, shortest first."""
    out = [""]
    frontier = [""]
    for _ in range(limit):
        frontier = [s + c for s in frontier for c in "FPS"]
        out.extend(frontier)
    return out


def legal_moves(state: State, seat: str) -> list[Move | Stay]:
    """Section 4: for each ship still to move, staying and every distinct move (end hex, facing,
    ram) its movement points allow."""
    if seat not in (state.mover(), UMPIRE):
        return []
    out: list[Move | Stay] = []
    for ship in unmoved(state):
        out.append(Stay(ref(ship)))
        seen: set[tuple[Hex, int, str]] = set()
        for steps in all_step_sequences(ship.move)[1:]:
            result = plan_move(state, ship, steps)
            key = (result.end, result.facing, result.rams)
            if result.problem or key in seen or (not result.rams and result.end == ship.hex and result.facing == ship.facing):
                continue
            seen.add(key)
            out.append(Move(ref(ship), steps))
    return out


# --- moving a ship ------------------------------------------------------------------------------


def move(state: State, seat: str, order: Move | Stay, rng: Rng) -> list[Event]:
    """Section 4: the moving side moves one of its fighting ships (or keeps it where it is)."""
    ship = state.ship(order.ship.id)
    steps = order.steps if isinstance(order, Move) else ""
    if state.phase != MOVE:
        raise WrongPhase(f"{quote(order.text)}: ships move after the fire orders are revealed.", hint="Give fire orders and `seal` first.")
    own_side(state, seat, ship, order)
    mover = state.side(state.mover())
    if ship.side != mover.id:
        # the side moving second was told it "won the initiative roll's order": it had not
        why = "its initiative roll was lower, so it moves first" if state.moving == 0 else f"{state.side(ship.side).name} has moved this turn"
        raise NotYourTurn(f"{quote(order.text)}: {mover.name} moves now ({why}).",
                          hint="Wait for your side's movement." if state.moving == 0 else "Your ships move again next turn, after its fire orders.")
    if ship.status != FIGHTING:
        raise IllegalOrder(f"{quote(order.text)}: {ship.name} is {ship.status} and is not under your orders.")
    if ship.moved:
        raise IllegalOrder(f"{quote(order.text)}: {ship.name} has already moved this turn.")
    result = plan_move(state, ship, steps)
    if result.problem:
        raise IllegalOrder(f"{quote(order.text)}: {result.problem}.", hint=STEP_HINT)
    layout = game_map(state).layout
    start = layout.label(ship.hex)
    ship.q, ship.r, ship.facing, ship.moved = result.end.q, result.end.r, result.facing, True
    if len(result.path) > 1:
        state.marks.append(Mark("path", [(h.q, h.r) for h in result.path], ship.side))
    if result.rams:
        text = f"{ship.name} moves {' '.join(steps)} from {start} and rams {state.ship(result.rams).name}."
    elif steps:
        text = f"{ship.name} moves {' '.join(steps)}: {start} -> {layout.label(result.end)}."
    else:
        text = f"{ship.name} stays at {start}."
    # the facing decides the next turn's fire and moves: say it, in the map's printed compass
    text += f" Facing {game_map(state).compass[result.facing % 6]}."
    events = [public(text)]
    if result.rams:
        events += rammed(state, ship, state.ship(result.rams), rng)
    return events


# --- breaking off -------------------------------------------------------------------------------


def break_off_steps(state: State, ship: Ship) -> str:
    """Section 3 ("sail to safety"): the broken-off ship's move: leave by the home edge if it can,
    else get as near it as possible (then facing most nearly homeward), using as few points as
    possible; never rams."""
    layout = game_map(state).layout
    edge = state.side(ship.side).home_edge
    best: tuple[int, int, int, int, str] | None = None
    seen: set[tuple[Hex, int]] = set()
    queue: deque[str] = deque([""])
    while queue:
        steps = queue.popleft()
        result = plan_move(state, ship, steps, allow_exit=True, allow_ram=False)
        if result.problem or (not result.exits and (result.end, result.facing) in seen):
            continue
        if result.exits:
            key = (0, 0, 0, len(steps), steps)
        else:
            seen.add((result.end, result.facing))
            key = (1, edge_distance(layout, result.end, edge), _homeward(layout, result, edge), len(steps), steps)
        if best is None or key < best:
            best = key
        if len(steps) < ship.move and not result.exits:
            queue.extend(steps + c for c in "FPS")
    return best[4] if best else ""


def _homeward(layout: HexLayout, result: MoveResult, edge: str) -> int:
    """How many 60-degree turns the end facing is from a direction that leads nearer the edge."""
    here_d = edge_distance(layout, result.end, edge)

    def nearer(d: int) -> bool:
        nxt = layout.neighbour(result.end, d)
        return beyond_edge(layout, nxt, edge) or (layout.on_map(nxt) and edge_distance(layout, nxt, edge) < here_d)

    return min((abs(facing_delta(result.facing, d)) for d in range(6) if nearer(d)), default=3)


def break_off_move(state: State, ship: Ship) -> list[Event]:
    """Section 3: the bot steers a broken-off ship home; leaving by its home edge saves it."""
    steps = break_off_steps(state, ship)
    result = plan_move(state, ship, steps, allow_exit=True, allow_ram=False)
    ship.moved = True
    layout = game_map(state).layout
    start = layout.label(ship.hex)
    ship.q, ship.r, ship.facing = result.end.q, result.end.r, result.facing
    shown = " ".join(steps) or "no move"
    if len(result.path) > 1:
        state.marks.append(Mark("path", [(h.q, h.r) for h in result.path], ship.side))
    if result.exits:
        ship.status = SAVED
        return [public(f"{ship.name} (broken off) steers {shown} and leaves by the {state.side(ship.side).home_edge} edge: saved.")]
    return [public(f"{ship.name} (broken off) steers for home: {shown}, {start} -> {layout.label(result.end)}. Facing {game_map(state).compass[result.facing % 6]}.")]
