"""Book section 4.2 (The Movement Phase, step 4: Crew Actions): after its move a ship may Reload, Rally, Repair, Change
Sail Setting, attempt Boarding, Row (with Sweeps), Transfer Flag or send a Landing Party; then its
activation ends. A Shaken ship may only Rally; an Entangled one takes none.
"""

from __future__ import annotations

import math

from games.core.errors import IllegalOrder, quote
from games.core.geometry import (
    Base,
    Point,
    Polygon,
    add,
    bearing_of,
    closest_points,
    overlaps,
    point_in_polygon,
    point_segment_distance,
    polygon_distance,
    scale,
    segment_distance,
    sub,
)
from games.core.rng import Rng
from games.core.ruleset import Event
from games.oak_and_iron.data import rules
from games.oak_and_iron.measure import base_distance
from games.oak_and_iron.orders import (
    Board,
    ChangeSail,
    CrewAction,
    LandingParty,
    Rally,
    Reload,
    Repair,
    Row,
    TransferFlag,
)
from games.oak_and_iron.rules.captains_6 import flag_moved
from games.oak_and_iron.rules.collisions_5_1 import obstacles_for
from games.oak_and_iron.rules.initiative_4_1 import skill_test
from games.oak_and_iron.rules.movement_4_2 import activate, execute_move, finish_activation, must_still_move
from games.oak_and_iron.rules.off_table_5_2 import off_table
from games.oak_and_iron.rules.range_ruler_2 import band_text
from games.oak_and_iron.rules.ship_status_4_2 import entangle
from games.oak_and_iron.state import SAIL_NAMES, SAIL_SETTINGS, Mark, ShipState, State


def crew_action(state: State, seat: str, order: CrewAction, rng: Rng) -> list[Event]:
    """CREW ACTIONS (4.2 step 4): once the ship has moved (if it must), one action, then the
    activation ends."""
    ship, events = activate(state, seat, order.ship.id)
    if must_still_move(state, ship):
        raise IllegalOrder(f"{ship.name} must move before its Crew Action (speed {state.activation.speed}).", hint=f"Write `{ship.name} move` first.")
    if ship.entangled:
        raise IllegalOrder(f"{ship.name} is Entangled and may not take Crew Actions.")
    if ship.shaken and not isinstance(order, Rally):
        raise IllegalOrder(f"{ship.name} is Shaken (Fatigue {ship.fatigue}): Rally is its only Crew Action.")
    match order:
        case Reload(side=side):
            lines = reload(ship, side)
        case Rally():
            lines = rally(ship)
        case Repair(what=what, fortune=fortune):
            lines = repair(state, ship, what, fortune, rng)
        case ChangeSail(way=way):
            lines = change_sail(ship, way)
        case Board(target=target, fortune=fortune):
            lines = board(state, ship, state.ship(target.id), rng, fortune)
        case Row():
            lines = row(state, ship, rng)
        case TransferFlag(target=target):
            lines = transfer_flag(ship, state.ship(target.id))
            lines += flag_moved(state, ship, state.ship(target.id))
        case LandingParty(x=x, y=y):
            lines = landing_party(state, ship, None if x is None or y is None else (x, y))
    return events + finish_activation(state, ship, lines)


def reload(ship: ShipState, side: str) -> list[str]:
    """RELOAD: remove the reload marker from one side (not at Full Sail)."""
    if ship.sail == "full":
        raise IllegalOrder(f"{ship.name} is at Full Sail and may not Reload.")
    marked = ship.reload_port if side == "port" else ship.reload_starboard
    if not marked:
        raise IllegalOrder(f"{ship.name}'s {side} side has no reload marker.")
    if side == "port":
        ship.reload_port = False
    else:
        ship.reload_starboard = False
    return [f"{ship.name} reloads its {side} side."]


def rally(ship: ShipState) -> list[str]:
    """RALLY: remove a point of Fatigue."""
    if not ship.fatigue:
        raise IllegalOrder(f"{ship.name} has no Fatigue to rally.")
    ship.fatigue -= 1
    return [f"{ship.name} rallies: Fatigue {ship.fatigue + 1} -> {ship.fatigue}."]


def repair(state: State, ship: ShipState, what: str | None, fortune: bool, rng: Rng) -> list[str]:
    """REPAIR: a point of damage (not when Crippled), or a Skill Test to remove the Aground token
    (what the ship does when nothing is named and it is Aground)."""
    if (what or ("aground" if ship.aground else "hull")) == "aground":
        if not ship.aground:
            raise IllegalOrder(f"{ship.name} is not Aground.")
        test = skill_test(state, ship, rng, fortune=fortune)
        lines = [f"{ship.name} works to get off: {test.text}."]
        if test.passed:
            ship.aground = False
            lines.append(f"{ship.name}'s Aground token is removed.")
        return lines
    if ship.crippled:
        raise IllegalOrder(f"{ship.name} is Crippled: its damage cannot be repaired.")
    if not ship.damage:
        raise IllegalOrder(f"{ship.name} has no damage to repair.")
    ship.damage -= 1
    return [f"{ship.name} repairs: Damage {ship.damage + 1} -> {ship.damage}."]


def change_sail(ship: ShipState, way: str) -> list[str]:
    """CHANGE SAIL SETTING: one level up or down."""
    idx = SAIL_SETTINGS.index(ship.sail) + (1 if way == "up" else -1)
    if not 0 <= idx < len(SAIL_SETTINGS):
        raise IllegalOrder(f"{ship.name} is already at {SAIL_NAMES[ship.sail]}.")
    before = ship.sail
    ship.sail = SAIL_SETTINGS[idx]
    return [f"{ship.name} changes sail: {SAIL_NAMES[before]} -> {SAIL_NAMES[ship.sail]}."]


def row(state: State, ship: ShipState, rng: Rng) -> list[str]:
    """ROW: a ship with Sweeps moves with the speed 1 tool, no turn (even Anchored or In the Wind's Eye)."""
    if "sweeps" not in ship.special:
        raise IllegalOrder(f"{ship.name} has no Sweeps and cannot Row.")
    if ship.aground:
        raise IllegalOrder(f"{ship.name} is Aground and cannot Row.")
    lines = execute_move(state, ship, rng, forward=rules().inches_per_speed, speed_for_collision=1)
    lines[0] = lines[0].replace("moves:", "rows:", 1)
    return lines


def transfer_flag(ship: ShipState, target: ShipState) -> list[str]:
    """TRANSFER FLAG: the Admiral moves to a friendly ship within Pistol Shot, not Entangled."""
    r = rules()
    if not ship.flagship:
        raise IllegalOrder(f"{ship.name} is not the Flagship.")
    if target.controller != ship.controller or target.id == ship.id or not target.can_act:
        raise IllegalOrder(f"{target.name} cannot take the flag.")
    if target.entangled:
        raise IllegalOrder(f"{target.name} is Entangled and cannot take the flag.")
    d = base_distance(ship.base, target.base)
    if d > r.distance("pistol_shot") + 1e-6:
        raise IllegalOrder(f"{target.name} is {band_text(d)} away; Transfer Flag needs Pistol Shot ({r.distance('pistol_shot'):g}\").")
    ship.flagship = False
    target.flagship = True
    return [f"The Admiral moves from {ship.name} to {target.name} ({d:.2f}\")."]


def landing_party(state: State, ship: ShipState, coords: tuple[float, float] | None) -> list[str]:
    """LANDING PARTY: an Anchored ship puts its token ashore."""
    if ship.sail != "anchored":
        raise IllegalOrder(f"{ship.name} must be Anchored to send a Landing Party (it is at {SAIL_NAMES[ship.sail]}).")
    point, where = landing_point(state, ship, coords)
    ship.landing = (point[0], point[1])
    return [f"{ship.name} sends a Landing Party ashore on {where} at ({point[0]:.2f}, {point[1]:.2f})."]


def landing_point(state: State, ship: ShipState, coords: tuple[float, float] | None) -> tuple[Point, str]:
    """The Landing Party token: on an island within Musket Shot (given, or the nearest point); the
    island must be within Pistol Shot of the ship."""
    r = rules()
    islands = [t for t in state.terrain if t.kind in ("island", "land")]
    best: tuple[float, Point, str] | None = None
    for t in islands:
        poly = tuple(t.points)
        d = polygon_distance(ship.base.polygon(), poly)
        if best is None or d < best[0]:
            _, nearest = closest_points(ship.base.polygon(), poly)
            best = (d, nearest, t.label or t.kind)
    if best is None:
        raise IllegalOrder(f"There is no island or landmass for {ship.name}'s Landing Party.")
    if best[0] > r.distance("pistol_shot") + 1e-6:
        raise IllegalOrder(
            f"{ship.name} is {best[0]:.2f}\" from {best[2]}; a Landing Party needs the island within Pistol Shot "
            f"({r.distance('pistol_shot'):.0f}\")."
        )
    if coords is None:
        return best[1], best[2]
    for t in islands:
        if point_in_polygon(coords, tuple(t.points)):
            d = _point_base_distance(coords, ship.base)
            if d > r.distance("musket_shot") + 1e-6:
                raise IllegalOrder(f"The point {quote(f'{coords[0]} {coords[1]}')} is {d:.2f}\" from {ship.name}, beyond Musket Shot.")
            return coords, t.label or t.kind
    raise IllegalOrder(f"The point {quote(f'{coords[0]} {coords[1]}')} is not on an island.")


def _point_base_distance(p: Point, base: Base) -> float:
    if point_in_polygon(p, base.polygon()):
        return 0.0
    poly = base.polygon()
    return min(point_segment_distance(p, poly[i], poly[(i + 1) % 4]) for i in range(4))


# --- boarding ------------------------------------------------------------------------------------

EDGE_OFFSET = {"bow": 0.0, "starboard": 90.0, "stern": 180.0, "port": 270.0}
FACING_INSET = 0.01  # inches inside an edge's end corners, to tell which of two tied edges faces


def board(state: State, ship: ShipState, target: ShipState, rng: Rng, fortune: bool) -> list[str]:
    """BOARDING: an enemy within Yard Arm; on a passed Skill Test the ship lays its leading edge
    flush against the target's nearest edge and both are Entangled (no room: Fig. 5, no boarding)."""
    r = rules()
    if target.controller == ship.controller or not target.on_table:
        raise IllegalOrder(f"{target.name} is not an opposing ship on the table.")
    d = base_distance(ship.base, target.base)
    yard = r.distance("yard_arm")
    if d > yard + 1e-6:
        raise IllegalOrder(f"{target.name} is {band_text(d)} from {ship.name}; boarding needs Yard Arm ({yard:g}\") or less.")
    pose, what = boarding_pose(state, ship, target)
    if pose is None:
        raise IllegalOrder(f"{ship.name} cannot lay flush against {target.name}: {what}.", hint="Try a different Crew Action.")
    test = skill_test(state, ship, rng, fortune=fortune)
    lines = [f"{ship.name} attempts to board {target.name} ({d:.2f}\"): {test.text}."]
    if test.passed:
        start = ship.base.centre
        ship.place(pose)
        ship.landing = None
        state.marks = [m for m in state.marks if m.kind != "path"] + [Mark("path", [start, pose.centre], ship.controller, ship.name)]
        lines.append(f"{what}.")
        entangle(state, ship, target, lines)
    return lines


def nearest_edge(base: Base, other: Polygon) -> str:
    """The edge of ``base`` nearest ``other`` (book, Boarding: "its leading edge ... the nearest edge").

    Two edges that are nearest at their shared corner tie; the one facing ``other`` more squarely
    wins (its points just inside the corner are nearer), so a stern square on to a side is the stern,
    not the side edge ending at the same corner. An exact tie keeps the order bow, starboard, stern, port.
    """
    scored: list[tuple[str, float, float]] = []
    for edge in ("bow", "starboard", "stern", "port"):
        p, q = base.edge(edge)
        along = sub(q, p)
        inset = scale(along, min(FACING_INSET / math.hypot(*along), 0.25))
        d = _seg_poly_distance(p, q, other)
        scored.append((edge, d, _seg_poly_distance(add(p, inset), sub(q, inset), other)))
    nearest = min(d for _, d, _ in scored)
    best = next(s for s in scored if s[1] <= nearest + 1e-9)
    for s in scored:
        if s[1] <= nearest + 1e-9 and s[2] < best[2] - 1e-9:
            best = s
    return best[0]


def _seg_poly_distance(p: Point, q: Point, poly: Polygon) -> float:
    return min(segment_distance(p, q, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


def boarding_pose(state: State, boarder: ShipState, target: ShipState) -> tuple[Base | None, str]:
    """Where the boarder ends: its leading edge flush against the target's nearest edge.
    Returns (pose, explanation); pose None when the book's Fig. 5 applies (no room)."""
    tb = target.base
    bb = boarder.base
    target_edge = nearest_edge(tb, bb.polygon())
    lead = nearest_edge(bb, tb.polygon())
    normal = tb.normal(target_edge)
    heading = (bearing_of(normal) + 180.0 - EDGE_OFFSET[lead]) % 360.0
    depth = boarder.length / 2 if lead in ("bow", "stern") else boarder.beam / 2
    a, b = tb.edge(target_edge)
    along = sub(b, a)
    edge_len = math.hypot(*along)
    unit = (along[0] / edge_len, along[1] / edge_len)
    mid_now = bb.edge_midpoint(lead)
    t = (mid_now[0] - a[0]) * unit[0] + (mid_now[1] - a[1]) * unit[1]
    t = max(min(t, edge_len), 0.0)
    contact = (a[0] + unit[0] * t, a[1] + unit[1] * t)
    centre = (contact[0] + normal[0] * depth, contact[1] + normal[1] * depth)
    pose = Base(centre, heading, boarder.length, boarder.beam)
    what = f"{boarder.name}'s {lead} edge against {target.name}'s {target_edge} edge"
    if off_table(state, pose):
        return None, f"{what} would put it off the table"
    for ob in obstacles_for(state, boarder.id):
        if ob.ref == target.id:
            if overlaps(pose.polygon(), ob.poly, tolerance=1e-6):
                return None, f"{what} does not fit"
            continue
        if overlaps(pose.polygon(), ob.poly, tolerance=1e-6):
            return None, f"{what} is blocked by {ob.ref or ob.kind}"
    return pose, what
