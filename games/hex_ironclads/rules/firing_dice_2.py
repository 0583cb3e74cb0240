"""Book section 2, Firing Dice: the die's faces, one target a turn, line of sight, arcs and dice by range.

Line of sight (the project's ruling, documented in ``help``): the centre-to-centre line of
``games.core.hexgrid.line`` is blocked by any hex between firer and target that is a
``blocks_sight`` terrain (land) or, while the option ``ships-block-sight`` is ``yes``, holds any
ship still on the board (either side). A line along a hexside touches both hexes, so either blocks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from games.core.errors import IllegalOrder, WrongPhase, quote
from games.core.hexgrid import Hex, HexLayout, distance, line
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, private
from games.hex_ironclads.data import tables
from games.hex_ironclads.orders import Fire, Hold, own_side, ref
from games.hex_ironclads.state import BROKEN_OFF, FIGHTING, FIRE, HOLD, SAVED, SUNK, Ship, State, game_map

ARC_EPSILON = 1e-6


def dice_word(n: int) -> str:
    """``1 die``, ``3 dice``: for the reports."""
    return f"{n} {'die' if n == 1 else 'dice'}"


# --- arcs and dice by range ---------------------------------------------------------------------


def bearing_between(layout: HexLayout, a: Hex, b: Hex) -> float:
    """Compass bearing (degrees clockwise from the top of the map) from a's centre to b's."""
    ax, ay = layout.centre(a)
    bx, by = layout.centre(b)
    return math.degrees(math.atan2(bx - ax, -(by - ay))) % 360.0


def arc_of(layout: HexLayout, ship: Ship, target: Hex, *, boundary_abeam: bool = True, half_width: float = 30.0) -> str:
    """Section 2 (turreted monitors; other ships): ``all round`` for turrets, else ``ahead``/``astern``
    strictly within ``half_width`` degrees (30, the ruling; option ``ahead-arc``) of the bow/stern
    line, else ``abeam``. Hexes on the boundary count as abeam (the ruling), or as ahead/astern with
    ``boundary_abeam=False`` (option ``arc-boundary=ahead-astern``)."""
    if ship.all_round:
        return "all round"
    off = (bearing_between(layout, ship.hex, target) - layout.bearing(ship.facing)) % 360.0
    off = min(off, 360.0 - off)  # 0 = dead ahead, 180 = dead astern
    slack = -ARC_EPSILON if boundary_abeam else ARC_EPSILON
    if off < half_width + slack:
        return "ahead"
    if off > 180.0 - half_width - slack:
        return "astern"
    return "abeam"


def dice_for(ship_dice: int, arc: str, rng_hexes: int) -> int:
    """Section 2: full dice minus one per hex beyond the first (abeam, turrets); ahead/astern half
    dice (at least one) minus one per two hexes beyond the first. 0 = out of range."""
    if rng_hexes < 1:
        return 0
    if arc in ("ahead", "astern"):
        return max(max(1, ship_dice // 2) - (rng_hexes - 1) // 2, 0)
    return max(ship_dice - (rng_hexes - 1), 0)


def max_range(ship_dice: int, arc: str) -> int:
    """Section 2: the longest range at which the countdown still leaves a die."""
    r = 0
    while dice_for(ship_dice, arc, r + 1) > 0:
        r += 1
    return r


# --- line of sight ------------------------------------------------------------------------------


def sight_blocker(state: State, a: Hex, b: Hex) -> str:
    """Section 2 ("not in direct line-of-sight"): why a cannot see b ('' when it can), the first
    blocking hex between them."""
    hex_map = game_map(state)
    blocks = tables().blocks_sight
    ships_block = state.options.get("ships-block-sight", "yes") == "yes"
    occupied = {s.hex: s for s in state.ships if s.on_board}
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


def assess_shot(state: State, ship: Ship, target: Ship) -> Shot:
    """Section 2: range, arc and dice of a shot, or why it cannot be fired (range, sight)."""
    layout = game_map(state).layout
    a, b = ship.hex, target.hex
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


def can_fire(state: State, ship: Ship) -> bool:
    """A fighting ship fires; one that has broken off (section 3) only with option broken-off-fire."""
    if ship.status == FIGHTING:
        return True
    return ship.status == BROKEN_OFF and state.options.get("broken-off-fire", "no") == "yes"


def targets_for(state: State, ship: Ship) -> list[tuple[Ship, Shot]]:
    """Every enemy this ship could fire at now, with the shot."""
    out = []
    for t in state.ships:
        if t.side != ship.side and t.on_board:
            shot = assess_shot(state, ship, t)
            if not shot.problem:
                out.append((t, shot))
    return out


# --- the die ------------------------------------------------------------------------------------


def roll_firing_dice(rng: Rng, count: int) -> list[tuple[int, str]]:
    """Section 2: each firing die shows a face (Major, Minor, Miss; the faces are data)."""
    faces = tables().faces
    out = []
    for _ in range(count):
        value = rng.die(6)
        out.append((value, faces[value - 1]))
    return out


def describe_roll(roll: list[tuple[int, str]]) -> str:
    """A roll as the reports show it: ``[6 Major, 2 Miss]``."""
    return "[" + ", ".join(f"{v} {face}" for v, face in roll) + "]" if roll else "[no dice]"


def hits_of(roll: list[tuple[int, str]]) -> int:
    """Section 2: flotation points the faces are worth (Major 2, Minor 1, Miss 0; data)."""
    table = tables().hits
    return sum(table[face] for _, face in roll)


# --- fire orders --------------------------------------------------------------------------------


def give_fire_order(state: State, seat: str, order: Fire | Hold) -> list[Event]:
    """Section 2: a ship fires at one target a turn, in range and sight; ``hold`` takes it back.
    The order stays secret (section 1: firing is simultaneous) until the reveal."""
    if state.phase != FIRE:
        raise WrongPhase(
            f"{quote(order.text)}: fire orders are given at the start of a turn; now {state.side(state.mover()).name} is moving.",
            hint="Give a move order, `stay` or `done`.",
        )
    ship = state.ship(order.ship.id)
    side = own_side(state, seat, ship, order)
    if side.sealed:
        raise IllegalOrder(f"{quote(order.text)}: {side.name} has sealed its fire orders; they cannot be changed this turn.")
    if not can_fire(state, ship):
        why = {BROKEN_OFF: "has broken off", SUNK: "has sunk", SAVED: "has left the battle"}.get(ship.status, "cannot fire")
        raise IllegalOrder(f"{quote(order.text)}: {ship.name} {why} and does not fire.")
    if isinstance(order, Hold):
        side.orders[ship.id] = HOLD
        return [private(f"Fire order noted (secret until the reveal): {order.text}.", side.id)]
    target = state.ship(order.target.id)
    given = side.orders.get(ship.id)
    if target.side == ship.side:
        raise IllegalOrder(f"{quote(order.text)}: {target.name} is one of your own ships.", hint="Fire at an enemy ship.")
    if not target.on_board:
        raise IllegalOrder(f"{quote(order.text)}: {target.name} is no longer on the board ({target.status}).")
    if given:
        raise IllegalOrder(
            f"{quote(order.text)}: {ship.name} already fires at {state.ship(given).name} this turn, and a ship fires at one target only.",
            hint=f"To change it before sealing, give `{ship.name} hold` first.",
        )
    shot = assess_shot(state, ship, target)
    if shot.problem:
        legal = ", ".join(t.name for t, _ in targets_for(state, ship)) or "none"
        raise IllegalOrder(f"{quote(order.text)}: {shot.problem}.", hint=f"{ship.name} can fire at: {legal}.")
    side.orders[ship.id] = target.id
    return [
        private(
            f"Fire order noted (secret until the reveal): {order.text} (range {shot.range}, {shot.arc}, {dice_word(shot.dice)}).",
            side.id,
        )
    ]


def legal_fire_orders(state: State, seat: str) -> list[Fire | Hold]:
    """The fire orders a side may give now: ``hold`` unless already holding, a target unless one is set."""
    if seat == UMPIRE or seat not in {s.id for s in state.sides} or state.side(seat).sealed:
        return []
    side = state.side(seat)
    out: list[Fire | Hold] = []
    for ship in state.ships:
        if ship.side != seat or not can_fire(state, ship):
            continue
        given = side.orders.get(ship.id)
        if given is None or given != HOLD:
            out.append(Hold(ref(ship)))
        if given is None or given == HOLD:
            out.extend(Fire(ref(ship), ref(t)) for t, _ in targets_for(state, ship))
    return out
