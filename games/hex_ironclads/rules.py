"""The mechanics: arcs and dice, line of sight, movement and ramming, firing, breaking off.

Line of sight (the project's ruling, documented in ``help``): the centre-to-centre line of
``games.core.hexgrid.line`` is blocked by any hex between firer and target that is a
``blocks_sight`` terrain (land) or, while the option ``ships-block-sight`` is ``yes``, holds any
ship still on the board (either side). A line along a hexside touches both hexes, so either blocks.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from games.core.hexgrid import Hex, HexLayout, distance, facing_delta, line
from games.core.maps import HexMap, load_map
from games.core.rng import Rng
from games.hex_ironclads.data import rules
from games.hex_ironclads.state import BROKEN_OFF, FIGHTING, SAVED, SUNK, HexIroncladsState, Ship

ARC_EPSILON = 1e-6
STEP_NAMES = {"F": "forward", "P": "turn to port", "S": "turn to starboard"}


def hex_of(ship: Ship) -> Hex:
    return Hex(ship.q, ship.r)


def game_map(state: HexIroncladsState) -> HexMap:
    return load_map(state.map_id)


# --- arcs and dice --------------------------------------------------------------------------


def bearing_between(layout: HexLayout, a: Hex, b: Hex) -> float:
    """Compass bearing (degrees clockwise from the top of the map) from a's centre to b's."""
    ax, ay = layout.centre(a)
    bx, by = layout.centre(b)
    return math.degrees(math.atan2(bx - ax, -(by - ay))) % 360.0


def arc_of(layout: HexLayout, ship: Ship, target: Hex, *, boundary_abeam: bool = True, half_width: float = 30.0) -> str:
    """``all round`` for turrets, else ``ahead``/``astern`` strictly within ``half_width`` degrees
    (30, the ruling; option ``ahead-arc``) of the bow/stern line, else ``abeam``. Hexes on the
    boundary count as abeam (the ruling), or as ahead/astern with ``boundary_abeam=False``
    (option ``arc-boundary=ahead-astern``)."""
    if ship.all_round:
        return "all round"
    off = (bearing_between(layout, hex_of(ship), target) - layout.bearing(ship.facing)) % 360.0
    off = min(off, 360.0 - off)  # 0 = dead ahead, 180 = dead astern
    slack = -ARC_EPSILON if boundary_abeam else ARC_EPSILON
    if off < half_width + slack:
        return "ahead"
    if off > 180.0 - half_width - slack:
        return "astern"
    return "abeam"


def dice_for(ship_dice: int, arc: str, rng_hexes: int) -> int:
    """Firing dice at a range: full dice minus one per hex beyond the first (abeam, turrets);
    ahead/astern half dice (at least one) minus one per two hexes beyond the first. 0 = out of range."""
    if rng_hexes < 1:
        return 0
    if arc in ("ahead", "astern"):
        return max(max(1, ship_dice // 2) - (rng_hexes - 1) // 2, 0)
    return max(ship_dice - (rng_hexes - 1), 0)


def max_range(ship_dice: int, arc: str) -> int:
    r = 0
    while dice_for(ship_dice, arc, r + 1) > 0:
        r += 1
    return r


# --- line of sight --------------------------------------------------------------------------


def sight_blocker(state: HexIroncladsState, a: Hex, b: Hex) -> str:
    """Why a cannot see b ('' when it can): the first blocking hex between them."""
    hex_map = game_map(state)
    blocks = rules().blocks_sight
    ships_block = state.options.get("ships-block-sight", "yes") == "yes"
    occupied = {hex_of(s): s for s in state.ships if s.on_board}
    for h in line(a, b)[1:]:
        if h == b:
            continue
        terrain = hex_map.terrain_at(h)
        if terrain in blocks:
            return f"{terrain} at {hex_map.layout.label(h)}"
        if ships_block and h in occupied:
            return f"{occupied[h].name} at {hex_map.layout.label(h)}"
    return ""


@dataclass(frozen=True)
class Shot:
    """What a fire order would be: range, arc, dice; ``problem`` says why it is not possible."""

    range: int
    arc: str
    dice: int
    problem: str = ""


def assess_shot(state: HexIroncladsState, ship: Ship, target: Ship) -> Shot:
    layout = game_map(state).layout
    a, b = hex_of(ship), hex_of(target)
    rng_hexes = distance(a, b)
    arc = arc_of(
        layout,
        ship,
        b,
        boundary_abeam=state.options.get("arc-boundary", "abeam") == "abeam",
        half_width=float(state.options.get("ahead-arc", "30")),
    )
    dice = dice_for(ship.dice, arc, rng_hexes)
    if dice <= 0:
        reach = max_range(ship.dice, arc)
        return Shot(rng_hexes, arc, 0, f"{target.name} is {rng_hexes} hexes away {arc}; {ship.name} reaches {reach} hexes there")
    blocker = sight_blocker(state, a, b)
    if blocker:
        return Shot(rng_hexes, arc, dice, f"{target.name} is out of sight of {ship.name}: the line is blocked by {blocker}")
    return Shot(rng_hexes, arc, dice)


def can_fire(state: HexIroncladsState, ship: Ship) -> bool:
    if ship.status == FIGHTING:
        return True
    return ship.status == BROKEN_OFF and state.options.get("broken-off-fire", "no") == "yes"


def targets_for(state: HexIroncladsState, ship: Ship) -> list[tuple[Ship, Shot]]:
    """Every enemy this ship could fire at now, with the shot."""
    out = []
    for t in state.ships:
        if t.side != ship.side and t.on_board:
            shot = assess_shot(state, ship, t)
            if not shot.problem:
                out.append((t, shot))
    return out


# --- dice and damage -------------------------------------------------------------------------


def roll_firing_dice(rng: Rng, count: int) -> list[tuple[int, str]]:
    faces = rules().faces
    out = []
    for _ in range(count):
        value = rng.die(6)
        out.append((value, faces[value - 1]))
    return out


def describe_roll(roll: list[tuple[int, str]]) -> str:
    return "[" + ", ".join(f"{v} {face}" for v, face in roll) + "]" if roll else "[no dice]"


def hits_of(roll: list[tuple[int, str]]) -> int:
    table = rules().hits
    return sum(table[face] for _, face in roll)


def damage(state: HexIroncladsState, ship: Ship, points: int, *, struck_before_leaving: bool = False) -> list[str]:
    """Take flotation points off a ship; report breaking off and sinking. A ram adjudicated after
    movement (``struck_before_leaving``) still counts against a ship that left the map meanwhile."""
    if points <= 0 or ship.status == SUNK or (ship.status == SAVED and not struck_before_leaving):
        return []
    ship.lost = min(ship.lost + points, ship.flotation)
    notes = []
    if ship.remaining <= 0:
        ship.status = SUNK
        notes.append(f"**{ship.name} sinks.**")
    elif ship.remaining <= ship.critical and ship.status == FIGHTING:
        ship.status = BROKEN_OFF
        home = state.side(ship.side).home_edge
        notes.append(f"{ship.name} reaches its critical point (FV {ship.remaining}) and breaks off toward the {home} edge.")
    return notes


# --- movement --------------------------------------------------------------------------------


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


@dataclass(frozen=True)
class MoveResult:
    """A checked move: the hexes passed, the end hex and facing, and a ram or an exit if any."""

    path: tuple[Hex, ...]
    end: Hex
    facing: int
    rams: str = ""  # id of the rammed ship
    exits: bool = False  # left the map by the home edge
    problem: str = ""


def plan_move(state: HexIroncladsState, ship: Ship, steps: str, *, allow_exit: bool = False, allow_ram: bool = True) -> MoveResult:
    """Walk the steps (F/P/S) without changing anything and report what would happen."""
    hex_map = game_map(state)
    layout = hex_map.layout
    impassable = rules().impassable
    here, facing = hex_of(ship), ship.facing
    path = [here]
    ships_at = {hex_of(s): s for s in state.ships if s.on_board and s.id != ship.id}
    if len(steps) > ship.move:
        return MoveResult(tuple(path), here, facing, problem=f"{ship.name} has {ship.move} movement points; {len(steps)} steps were ordered")
    for i, step in enumerate(steps, start=1):
        if step == "P":
            facing = (facing - 1) % 6
            continue
        if step == "S":
            facing = (facing + 1) % 6
            continue
        nxt = layout.neighbour(here, facing)
        if not layout.on_map(nxt):
            home = state.side(ship.side).home_edge
            if allow_exit and beyond_edge(layout, nxt, home) and i == len(steps):
                return MoveResult(tuple(path), here, facing, exits=True)
            return MoveResult(tuple(path), here, facing, problem=f"step {i} would leave the map at {layout.label(here)}; only a ship that has broken off leaves, by its home edge")
        terrain = hex_map.terrain_at(nxt)
        if terrain in impassable:
            return MoveResult(tuple(path), here, facing, problem=f"step {i} would enter {terrain} at {layout.label(nxt)}")
        other = ships_at.get(nxt)
        if other is not None:
            if other.side == ship.side:
                return MoveResult(tuple(path), here, facing, problem=f"step {i} would enter {layout.label(nxt)}, where {other.name} (your own ship) lies")
            if not allow_ram:
                return MoveResult(tuple(path), here, facing, problem=f"step {i} would ram {other.name}")
            if i != len(steps):
                return MoveResult(tuple(path), here, facing, problem=f"step {i} rams {other.name} at {layout.label(nxt)}, which ends the move; drop the steps after it")
            return MoveResult(tuple(path), here, facing, rams=other.id)
        here = nxt
        path.append(here)
    return MoveResult(tuple(path), here, facing)


def all_step_sequences(limit: int) -> list[str]:
    """Every F/P/S string up to ``limit`` long, shortest first."""
    out = [""]
    frontier = [""]
    for _ in range(limit):
        frontier = [s + c for s in frontier for c in "FPS"]
        out.extend(frontier)
    return out


def break_off_steps(state: HexIroncladsState, ship: Ship) -> str:
    """The broken-off ship's move: leave by the home edge if it can, else get as near it as possible
    (then facing most nearly homeward), using as few points as possible; never rams."""
    layout = game_map(state).layout
    edge = state.side(ship.side).home_edge
    best: tuple[int, int, int, int, str] | None = None
    seen: set[tuple[Hex, int]] = set()
    queue: deque[str] = deque([""])
    while queue:
        steps = queue.popleft()
        result = plan_move(state, ship, steps, allow_exit=True, allow_ram=False)
        if result.problem:
            continue
        if result.exits:
            key = (0, 0, 0, len(steps), steps)
        else:
            if (result.end, result.facing) in seen:
                continue
            seen.add((result.end, result.facing))
            here_d = edge_distance(layout, result.end, edge)
            homeward = min(
                (abs(facing_delta(result.facing, d)) for d in range(6)
                 if beyond_edge(layout, layout.neighbour(result.end, d), edge)
                 or (layout.on_map(layout.neighbour(result.end, d)) and edge_distance(layout, layout.neighbour(result.end, d), edge) < here_d)),
                default=3,
            )
            key = (1, here_d, homeward, len(steps), steps)
        if best is None or key < best:
            best = key
        if len(steps) < ship.move and not result.exits:
            queue.extend(steps + c for c in "FPS")
    return best[4] if best else ""


def ram_dice(ship: Ship) -> int:
    r = rules()
    return r.ram_dice if ship.ram else r.no_ram_dice
