"""Oak & Iron rules: dice, tests, movement with exact collisions, attacks, damage and the turn cycle.

All functions change the ``OakState`` they are given and return the log lines or events they
produced; the ruleset validates orders first and the table service discards the copy on error.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.core.errors import IllegalOrder, quote
from games.core.geometry import (
    Base,
    Point,
    Polygon,
    add,
    bearing_of,
    bearing_vector,
    closest_points,
    overlaps,
    pivot_contact,
    point_in_polygon,
    point_segment_distance,
    polygon_distance,
    scale,
    segment_crosses_polygon,
    segment_distance,
    slide_contact,
    sub,
)
from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.oak_and_iron.cards import event_cards, initiative_cards, rules
from games.oak_and_iron.measure import (
    BAND_NAMES,
    BANDS,
    band_of,
    base_distance,
    close_contact,
    formation_members,
    in_broadside_path,
    line_of_sight,
    point_of_sail,
    raking,
)
from games.oak_and_iron.state import SAIL_NAMES, SAIL_SETTINGS, Mark, OakState, ShipState

SOLID = ("rock", "island", "land")
SIGHT_BLOCKING = ("island", "land")


# --- dice ----------------------------------------------------------------------------------------


def roll(rng: Rng, n: int) -> list[str]:
    faces = rules().faces
    return [faces[rng.below(len(faces))] for _ in range(max(0, n))]


def count(faces: Sequence[str], wanted: Sequence[str]) -> int:
    return sum(1 for f in faces if f in wanted)


def show(faces: Sequence[str]) -> str:
    return ", ".join(faces) if faces else "no dice"


# --- effects in force this turn ------------------------------------------------------------------


def card_amount(state: OakState, side_id: str, effect: str) -> int:
    """Sum of ``amount`` of this side's face-up initiative card with that effect (1 if no amount)."""
    side = state.side(side_id)
    total = 0
    if side.face_up:
        card = initiative_cards()[side.face_up]
        if card.effect == effect:
            total += card.amount or 1
    return total


def event_amount(state: OakState, effect: str) -> int:
    return sum(event_cards()[e].amount for e in state.events_active if event_cards()[e].effect == effect)


# --- tracks --------------------------------------------------------------------------------------


def add_fatigue(ship: ShipState, n: int, notes: list[str], *, from_attack: bool = False) -> None:
    if n <= 0:
        return
    if from_attack and ship.fatigue_shield:
        ship.fatigue_shield = False
        n -= 1
        notes.append(f"{ship.name} ignores 1 Fatigue (Down!)")
        if n <= 0:
            return
    before = ship.fatigue
    was_shaken = ship.shaken
    ship.fatigue = min(rules().fatigue_max, ship.fatigue + n)
    notes.append(f"{ship.name} Fatigue {before} -> {ship.fatigue}")
    if ship.shaken and not was_shaken:
        notes.append(f"{ship.name} is Shaken" + (" and Out of Action" if ship.crippled else ""))
        if ship.landing is not None:
            ship.landing = None
            notes.append(f"{ship.name}'s Landing Party is withdrawn")


def add_damage(ship: ShipState, n: int, notes: list[str]) -> None:
    for _ in range(max(0, n)):
        if ship.crippled:
            add_fatigue(ship, 1, notes)
            continue
        ship.damage += 1
        notes.append(f"{ship.name} Damage {ship.damage - 1} -> {ship.damage}")
        if ship.damage >= rules().damage_max:
            cripple(ship, notes)


def cripple(ship: ShipState, notes: list[str]) -> None:
    if ship.crippled:
        return
    ship.crippled = True
    ship.damage = max(ship.damage, rules().damage_max)
    notes.append(f"{ship.name} is Crippled" + (" and Out of Action" if ship.shaken else ""))


def knock_out(ship: ShipState, notes: list[str]) -> None:
    """Crippled and Shaken together: Out of Action."""
    cripple(ship, notes)
    if not ship.shaken:
        ship.fatigue = rules().fatigue_max
        notes.append(f"{ship.name} is Out of Action")


def lower_sail(ship: ShipState, notes: list[str]) -> None:
    idx = SAIL_SETTINGS.index(ship.sail)
    if idx > 0:
        ship.sail = SAIL_SETTINGS[idx - 1]
        notes.append(f"{ship.name} sail setting reduced to {SAIL_NAMES[ship.sail]}")


# --- skill tests ---------------------------------------------------------------------------------


@dataclass
class TestResult:
    passed: bool
    text: str
    successes: int = 0


def skill_test(state: OakState, ship: ShipState, rng: Rng, *, fortune: bool = False, auto: bool = False) -> TestResult:
    """Five dice less Fatigue (at least 1), extra dice after; any success face passes.
    Skill re-rolls failures automatically; ``fortune`` spends a Fortune Point to re-roll all."""
    if auto:
        return TestResult(True, "Skill Test passed without a roll (Adjust Position)", 1)
    r = rules()
    wanted = r.faces_of("skill_success")
    n = max(1, r.skill_test_dice - ship.fatigue) + card_amount(state, ship.controller, "skill_dice")
    faces = roll(rng, n)
    parts = [f"Skill Test ({n} dice): {show(faces)}"]
    if not count(faces, wanted) and ship.skill:
        again = roll(rng, min(ship.skill, n))
        faces = again + faces[len(again) :]
        parts.append(f"skill re-roll {len(again)}: {show(again)}")
    side = state.side(ship.controller)
    if not count(faces, wanted) and fortune and side.fortune > 0:
        side.fortune -= 1
        faces = roll(rng, n)
        parts.append(f"Fortune Point re-roll ({side.fortune} left): {show(faces)}")
    ok = count(faces, wanted) > 0
    parts.append("passed" if ok else "failed")
    return TestResult(ok, "; ".join(parts), count(faces, wanted))


# --- measurement helpers on the state ------------------------------------------------------------


def ships_on_table(state: OakState) -> list[ShipState]:
    return [s for s in state.ships if s.on_table]


def terrain_polys(state: OakState, kinds: Sequence[str]) -> list[Polygon]:
    return [tuple(t.points) for t in state.terrain if t.kind in kinds]


def sight_blockers(state: OakState, *exclude: str) -> list[Polygon]:
    """Islands and land block sight; so do other ships' bases (option ``ships_block_sight``)."""
    blockers = terrain_polys(state, SIGHT_BLOCKING)
    if state.options.get("ships_block_sight", "yes") == "yes":
        blockers += [s.base.polygon() for s in ships_on_table(state) if s.id not in exclude]
    return blockers


def distances() -> dict[str, float]:
    return rules().distance_map


def band_text(dist: float) -> str:
    return f"{dist:.2f}\" ({BAND_NAMES[band_of(dist, distances())]})"


def speed_rating(state: OakState, ship: ShipState) -> tuple[int, str, str]:
    """(speed, point of sail used, how it was worked out) from where the ship starts its activation."""
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
    bonus = card_amount(state, ship.controller, "speed") + event_amount(state, "speed")
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
class Obstacle:
    kind: str  # ship or a terrain kind
    ref: str  # ship id or terrain label
    poly: Polygon


@dataclass
class MoveResult:
    base: Base
    path: list[Point]
    hit: Obstacle | None = None
    moved_inches: float = 0.0
    turned: float = 0.0
    shoals: list[str] = field(default_factory=list)


def obstacles_for(state: OakState, ship_id: str) -> list[Obstacle]:
    out = [Obstacle("ship", s.id, s.base.polygon()) for s in ships_on_table(state) if s.id != ship_id]
    out += [Obstacle(t.kind, t.label, tuple(t.points)) for t in state.terrain if t.kind in SOLID]
    return out


def _crossed_shoals(state: OakState, before: Base, after: Base, *, slide: Point | None, pivot: tuple[Point, float] | None) -> list[str]:
    found = []
    for t in state.terrain:
        if t.kind != "shoal":
            continue
        poly = tuple(t.points)
        crossed = overlaps(before.polygon(), poly) or overlaps(after.polygon(), poly)
        if not crossed and slide is not None:
            crossed = slide_contact(before.polygon(), slide, poly) is not None
        if not crossed and pivot is not None:
            crossed = pivot_contact(before.polygon(), pivot[0], pivot[1], poly) is not None
        if crossed:
            found.append(t.label or "shoal")
    return found


def pivot_point(base: Base, direction: str) -> Point:
    return base.edge_midpoint("starboard" if direction == "starboard" else "port")


def do_pivot(state: OakState, ship: ShipState, base: Base, direction: str, degrees: float, result: MoveResult) -> Base:
    signed = degrees if direction == "starboard" else -degrees
    pivot = pivot_point(base, direction)
    best: tuple[float, Obstacle] | None = None
    for ob in obstacles_for(state, ship.id):
        ang = pivot_contact(base.polygon(), pivot, signed, ob.poly)
        if ang is not None and (best is None or ang < best[0]):
            best = (ang, ob)
    allowed = degrees if best is None else best[0]
    turned = base.pivoted(pivot, math.copysign(allowed, signed))
    result.shoals += _crossed_shoals(state, base, turned, slide=None, pivot=(pivot, math.copysign(allowed, signed)))
    result.turned += allowed
    result.path.append(turned.centre)
    if best is not None:
        result.hit = best[1]
    return turned


def do_slide(state: OakState, ship: ShipState, base: Base, inches: float, result: MoveResult, direction: Point | None = None) -> Base:
    vec = scale(direction if direction is not None else base.forward, inches)
    best: tuple[float, Obstacle] | None = None
    for ob in obstacles_for(state, ship.id):
        t = slide_contact(base.polygon(), vec, ob.poly)
        if t is not None and (best is None or t < best[0]):
            best = (t, ob)
    frac = 1.0 if best is None else best[0]
    moved = base.translated(scale(vec, frac))
    result.shoals += _crossed_shoals(state, base, moved, slide=scale(vec, frac), pivot=None)
    result.moved_inches += inches * frac
    result.path.append(moved.centre)
    if best is not None:
        result.hit = best[1]
    return moved


def free_slide(state: OakState, ship: ShipState, vec: Point) -> float:
    """How far (0..1 of ``vec``) a ship can slide before touching anything."""
    base = ship.base
    best = 1.0
    for ob in obstacles_for(state, ship.id):
        t = slide_contact(base.polygon(), vec, ob.poly)
        if t is not None:
            best = min(best, t)
    return best


def directly_away(state: OakState, ship: ShipState, away_from: Point, inches: float) -> tuple[Point, float]:
    """The book's Directly Away: the direction (away from the object, no pivot) that goes farthest,
    searched in 15-degree steps either side of straight away; returns (vector, fraction)."""
    straight = bearing_of(sub(ship.base.centre, away_from))
    best: tuple[float, int, Point] = (-1.0, 0, (0.0, 0.0))
    for k in range(0, 7):
        for sign in (1, -1) if k else (1,):
            vec = scale(bearing_vector(straight + sign * 15 * k), inches)
            frac = free_slide(state, ship, vec)
            if frac > best[0] + 1e-9:
                best = (frac, k, vec)
    return best[2], max(best[0], 0.0)


def off_table(state: OakState, base: Base) -> bool:
    return any(
        x < -1e-9 or y < -1e-9 or x > state.table_width + 1e-9 or y > state.table_height + 1e-9 for x, y in base.corners()
    )


def check_off_table(state: OakState, ship: ShipState, notes: list[str]) -> None:
    if ship.on_table and off_table(state, ship.base):
        ship.status = "off"
        release(state, ship)
        notes.append(f"{ship.name} ends with part of its base off the table and is removed from the game")


def release(state: OakState, ship: ShipState) -> None:
    for other_id in ship.entangled:
        other = state.ship(other_id)
        if ship.id in other.entangled:
            other.entangled.remove(ship.id)
    ship.entangled = []
    ship.landing = None


def entangle(state: OakState, a: ShipState, b: ShipState, notes: list[str]) -> None:
    if b.id not in a.entangled:
        a.entangled.append(b.id)
    if a.id not in b.entangled:
        b.entangled.append(a.id)
    notes.append(f"{a.name} and {b.name} are Entangled")
    for x, y in ((a, b), (b, a)):
        if x.captured_by and y.side == x.side and not y.captured_by:
            x.captured_by = ""
            notes.append(f"{x.name} is re-captured by its own squadron (remains Shaken)")


def resolve_collision(state: OakState, ship: ShipState, hit: Obstacle, speed: int, rng: Rng, notes: list[str]) -> None:
    """The book's collisions: terrain grounds and damages; a ship rolls its speed in dice."""
    if hit.kind != "ship":
        notes.append(f"Collision with {hit.ref or hit.kind} ({hit.kind})")
        add_damage(ship, 1, notes)
        ship.aground = True
        ship.sail = "anchored"
        notes.append(f"{ship.name} is Aground and Anchored")
        return
    other = state.ship(hit.ref)
    faces = roll(rng, speed)
    notes.append(f"Collision with {other.name}: {speed} dice: {show(faces)}")
    if count(faces, rules().faces_of("collision_damage")):
        add_damage(ship, 1, notes)
    if count(faces, rules().faces_of("collision_entangle")):
        entangle(state, ship, other, notes)
        return
    pushed, pusher = (other, ship)
    if other.aground or other.entangled:
        pushed, pusher = (ship, other)
    yard = rules().distance("yard_arm")
    vec, frac = directly_away(state, pushed, pusher.base.centre, yard)
    pushed.place(pushed.base.translated(scale(vec, frac)))
    notes.append(f"{pushed.name} is moved {yard * frac:.2f}\" directly away from {pusher.name} (bearing {bearing_of(vec):.0f})")
    if pushed.landing is not None and frac > 0:
        pushed.landing = None
    check_off_table(state, pushed, notes)


def after_move(state: OakState, ship: ShipState, result: MoveResult, speed: int, rng: Rng, notes: list[str]) -> None:
    """Place the ship, then collisions, shoals and the table edge, in the book's order."""
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
    state: OakState,
    ship: ShipState,
    rng: Rng,
    *,
    forward: float,
    turn_when: str = "",
    direction: str = "",
    degrees: float = 0.0,
    speed_for_collision: int,
) -> list[str]:
    """One move: an optional pivot at the start, the forward slide, an optional pivot at the end."""
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
    pieces = []
    if turn_when and degrees > 0:
        pieces.append(f"turn {turn_when} {direction} {result.turned:.1f} deg")
    pieces.append(f"forward {result.moved_inches:.2f}\"")
    notes = [
        f"{ship.name} moves: {'; '.join(pieces)}; from ({start.centre[0]:.2f}, {start.centre[1]:.2f}) heading "
        f"{start.heading:.0f} to ({base.centre[0]:.2f}, {base.centre[1]:.2f}) heading {base.heading:.0f}"
    ]
    if result.hit is not None:
        notes.append(f"stopped on contact with {result.hit.ref or result.hit.kind}")
    after_move(state, ship, result, speed_for_collision, rng, notes)
    return notes


# --- boarding ------------------------------------------------------------------------------------

EDGE_OFFSET = {"bow": 0.0, "starboard": 90.0, "stern": 180.0, "port": 270.0}
FACING_INSET = 0.01  # inches inside an edge's end corners, to tell which of two tied edges faces


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


def boarding_pose(state: OakState, boarder: ShipState, target: ShipState) -> tuple[Base | None, str]:
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


# --- attacks -------------------------------------------------------------------------------------


@dataclass
class FireCheck:
    ok: bool
    distance: float
    band: str
    text: str
    raking: str = ""
    fog: bool = False


def fog_between(state: OakState, a: Point, b: Point, target: Base) -> bool:
    for t in state.terrain:
        if t.kind != "fog":
            continue
        poly = tuple(t.points)
        if segment_crosses_polygon(a, b, poly) or overlaps(target.polygon(), poly) or point_in_polygon(a, poly):
            return True
    return False


def check_fire(state: OakState, firer: ShipState, side: str, target: ShipState, *, partial: bool) -> FireCheck:
    """Every qualification with the measured numbers, for the reply and for the error message."""
    d = base_distance(firer.base, target.base)
    band = band_of(d, distances())
    facts = [f"distance {band_text(d)}"]
    if target.id == firer.id or not target.on_table:
        return FireCheck(False, d, band, f"{target.name} cannot be targeted")
    if target.controller == firer.controller:
        return FireCheck(False, d, band, f"{target.name} is a friendly ship")
    if any(state.ship(e).controller == firer.controller for e in target.entangled):
        return FireCheck(False, d, band, f"{target.name} is Entangled with a friendly ship and may not be fired on")
    limit = "musket_shot" if partial else "cannon_shot"
    if band == "beyond" or BANDS.index(band) > BANDS.index(limit):
        return FireCheck(False, d, band, f"{target.name} is at {band_text(d)}, beyond {BAND_NAMES[limit]} ({distances()[limit]:.0f}\")")
    if not partial:
        if not in_broadside_path(firer.base, side, target.base):
            return FireCheck(False, d, band, f"{target.name} ({band_text(d)}) is not in the {side} broadside path of {firer.name}")
        if (side == "port" and firer.reload_port) or (side == "starboard" and firer.reload_starboard):
            return FireCheck(False, d, band, f"{firer.name}'s {side} side has a reload marker (not reloaded)")
        edges: tuple[str, ...] = (side,)
    else:
        edges = ("bow", "starboard", "stern", "port")
    sight = line_of_sight(firer.base, target.base, sight_blockers(state, firer.id, target.id), edges)
    if sight is None:
        return FireCheck(False, d, band, f"no Line of Sight from {firer.name} to {target.name} ({band_text(d)})")
    rake = "" if partial else raking(firer.base, side, target.base)
    fog = fog_between(state, sight[0], sight[1], target.base)
    if rake:
        facts.append(f"raking through the {rake}")
    if fog:
        facts.append("through fog")
    return FireCheck(True, d, band, "; ".join(facts), rake, fog)


def hit_faces(state: OakState, firer: ShipState, band: str, fog: bool) -> tuple[tuple[str, ...], str]:
    """Faces scoring hits after fog (one band farther) and Effective Fire (one band closer)."""
    order = ["yard_arm", "pistol_shot", "musket_shot", "cannon_shot"]
    idx = order.index(band)
    label = BAND_NAMES[band]
    if card_amount(state, firer.controller, "band_closer"):
        idx = max(0, idx - 1)
        label += ", scored one band closer"
    if fog:
        if idx == len(order) - 1:
            return rules().hit_faces("fog_beyond_cannon"), label + ", fog beyond Cannon Shot: only Skulls"
        idx += 1
        label += f", fog: scored at {BAND_NAMES[order[idx]]}"
    key = {"yard_arm": "yard_arm", "pistol_shot": "pistol", "musket_shot": "musket", "cannon_shot": "cannon"}[order[idx]]
    return rules().hit_faces(key), label


def resolve_attack(
    state: OakState,
    rng: Rng,
    firer: ShipState,
    target: ShipState,
    dice: int,
    check: FireCheck,
    *,
    aim: str,
    fortune: bool,
    helm: str,
    label: str,
) -> list[str]:
    """Roll, re-roll, Fatigue, damage and critical damage for a Broadside or Partial Fire."""
    r = rules()
    notes: list[str] = []
    wanted, band_label = hit_faces(state, firer, check.band, check.fog)
    if aim in ("rigging", "crew"):
        dice = max(1, dice // 2)
    faces = roll(rng, dice)
    notes.append(f"{label} from {firer.name} at {target.name}: {check.text}; hits on {', '.join(wanted)} ({band_label}); {dice} dice: {show(faces)}")
    if aim == "rigging":
        counted: tuple[str, ...] = r.faces_of("critical_rigging")
    elif aim == "crew":
        counted = r.faces_of("critical_crew")
    else:
        counted = wanted
    rerolls = firer.skill + card_amount(state, firer.controller, "reroll_attack")
    misses = [i for i, f in enumerate(faces) if f not in counted]
    if rerolls and misses:
        idxs = misses[:rerolls]
        new = roll(rng, len(idxs))
        for i, f in zip(idxs, new, strict=True):
            faces[i] = f
        notes.append(f"re-roll {len(idxs)} missed: {show(new)}")
    side = state.side(firer.controller)
    need = 1 if aim != "hull" else (1 if check.raking == "stern" else target.fortitude)
    if fortune and side.fortune > 0 and count(faces, counted) < need:
        side.fortune -= 1
        faces = roll(rng, dice)
        notes.append(f"Fortune Point re-roll of all dice ({side.fortune} left): {show(faces)}")
    if aim == "rigging":
        sails = count(faces, counted)
        notes.append(f"rigging: {sails} x Sail")
        apply_rigging(target, sails, notes)
        return notes
    if aim == "crew":
        helms = count(faces, counted)
        notes.append(f"crew: {helms} x Helm")
        if helms and check.raking:
            add_fatigue(target, 1, notes, from_attack=True)
        apply_crew(state, rng, target, helms, helm, notes)
        return notes
    hits = count(faces, wanted)
    fortitude = 1 if check.raking == "stern" else target.fortitude
    notes.append(f"{hits} hit(s) against Fortitude {fortitude}")
    if hits:
        add_fatigue(target, 1 + (1 if check.raking else 0), notes, from_attack=True)
    add_damage(target, hits // fortitude, notes)
    triggers = r.faces_of("critical_trigger_raking" if check.raking else "critical_trigger")
    crit_dice = count(faces, triggers)
    if crit_dice and target.on_table:
        crit = roll(rng, crit_dice)
        notes.append(f"critical check, {crit_dice} dice: {show(crit)}")
        hull = count(crit, r.faces_of("critical_hull"))
        if hull >= 2:
            if target.crippled:
                knock_out(target, notes)
            else:
                cripple(target, notes)
        elif hull == 1:
            add_damage(target, 1, notes)
        apply_rigging(target, count(crit, r.faces_of("critical_rigging")), notes)
        apply_crew(state, rng, target, count(crit, r.faces_of("critical_crew")), helm, notes)
    return notes


def apply_rigging(target: ShipState, sails: int, notes: list[str]) -> None:
    if sails >= 1:
        lower_sail(target, notes)
    if sails >= 2:
        target.aground = True
        notes.append(f"{target.name} loses a mast and takes an Aground token")


def apply_crew(state: OakState, rng: Rng, target: ShipState, helms: int, direction: str, notes: list[str]) -> None:
    if helms >= 1:
        add_fatigue(target, 1, notes, from_attack=True)
    if helms >= 2 and target.on_table:
        r = rules()
        notes.append(f"{target.name}'s helm is struck: a Full Turn to {direction} with the speed {r.helm_full_turn_speed} tool")
        notes += execute_move(
            state, target, rng, forward=0.0, turn_when="start", direction=direction, degrees=r.turn_angle,
            speed_for_collision=r.helm_full_turn_speed,
        )
        side = state.side(target.side)
        if target.flagship and side.admiral_name != "none":
            faces = roll(rng, 1)
            hit = count(faces, r.faces_of("officer_hit")) > 0
            notes.append(f"officer check for the Admiral: {show(faces)}" + (" - hit" if hit else ""))
            if hit:
                notes.append(f"{side.name}'s admiral ({side.admiral_name}) is lost; the Flagship now has admiral value 0")
                side.admiral_name, side.admiral_value = "none", 0


def close_combat(state: OakState, rng: Rng, attacker: ShipState, target: ShipState) -> list[str]:
    """The book's Close Combat (Attack Phase): 5 + Crew dice; Fatigue for each Skull when the
    attacker's Bow or Stern edge is in contact, for each Skull, Crossed Swords and Cannonball when a
    side edge is (``measure.close_contact``; a lone touching corner follows option ``corner_contact``)."""
    r = rules()
    touch = close_contact(attacker.base, target.base, corner=state.options.get("corner_contact", "end"))
    dice = max(1, r.close_combat_base_dice + attacker.crew - attacker.fatigue)
    faces = roll(rng, dice)
    purpose = "close_combat_side_contact" if touch.side else "close_combat_end_contact"
    wanted = r.faces_of(purpose)
    notes = [f"Close combat: {attacker.name} ({touch.describe()}) against {target.name}: {dice} dice: {show(faces)}"]
    if attacker.skill:
        misses = [i for i, f in enumerate(faces) if f not in wanted][: attacker.skill]
        if misses:
            new = roll(rng, len(misses))
            for i, f in zip(misses, new, strict=True):
                faces[i] = f
            notes.append(f"re-roll {len(misses)}: {show(new)}")
    n = count(faces, wanted)
    notes.append(f"{n} x ({', '.join(wanted)})")
    add_fatigue(target, n, notes, from_attack=True)
    return notes


# --- broadside dice ------------------------------------------------------------------------------


def formation(state: OakState, side_id: str) -> set[str]:
    ships = {s.id: s.base for s in ships_on_table(state) if s.controller == side_id and s.can_act}
    flag = next((s.id for s in state.ships if s.flagship and s.side == side_id and s.can_act), "")
    return formation_members(ships, flag, rules().distance("musket_shot"), sight_blockers(state))


def attack_dice(state: OakState, ship: ShipState, *, partial: bool) -> tuple[int, str]:
    """Broadside value less Fatigue (never below Crew) or Crew less Fatigue, then extra dice."""
    if partial:
        base = max(1, ship.crew - ship.fatigue)
        notes = [f"Crew {ship.crew} - Fatigue {ship.fatigue}"]
    else:
        base = max(1, ship.broadside - ship.fatigue, min(ship.crew, ship.broadside))
        notes = [f"Broadside {ship.broadside} - Fatigue {ship.fatigue} (not below Crew {ship.crew})"]
    extra = 0
    if ship.id in formation(state, ship.controller):
        extra += 1
        notes.append("Formation +1")
    card = card_amount(state, ship.controller, "partial_dice" if partial else "attack_dice")
    ev = event_amount(state, "attack_dice")
    if card:
        notes.append(f"initiative card {card:+d}")
    if ev:
        notes.append(f"event {ev:+d}")
    return max(1, base + extra + card + ev), ", ".join(notes)


# --- End Phase -----------------------------------------------------------------------------------


def ship_total(state: OakState, side_id: str) -> int:
    """Ships that count for withdrawal: controlled, on the table, neither Aground nor Out of Action."""
    return sum(1 for s in state.ships if s.controller == side_id and s.on_table and not s.aground and not s.out_of_action)


def strike_points(state: OakState, side_id: str) -> int:
    r = rules()
    total = 0
    for s in state.ships:
        if s.side != side_id:
            continue
        lost = s.status in ("sunk", "removed") or (s.status == "off" and r.off_table_counts_as_lost)
        lost = lost or bool(s.captured_by and s.captured_by != side_id) or (s.on_table and s.out_of_action)
        if lost:
            total += r.strike_flagship_lost if s.flagship else r.strike_lost
        elif s.on_table and s.crippled:
            total += r.strike_crippled
    return total


def describe_ship(s: ShipState) -> str:
    flags = []
    if s.crippled:
        flags.append("Crippled")
    if s.shaken:
        flags.append("Shaken")
    if s.aground:
        flags.append("Aground")
    if s.entangled:
        flags.append("Entangled")
    if s.captured_by:
        flags.append(f"captured by {s.captured_by.upper()}")
    reload = [side for side, on in (("port", s.reload_port), ("starboard", s.reload_starboard)) if on]
    if reload:
        flags.append("reload " + "/".join(reload))
    return f"{s.name} D{s.damage} F{s.fatigue} {SAIL_NAMES[s.sail]}" + (f" [{', '.join(flags)}]" if flags else "")


def public_lines(lines: Sequence[str]) -> list[Event]:
    return [public(line, reveals=True) for line in lines if line]


def landing_point(state: OakState, ship: ShipState, coords: tuple[float, float] | None) -> tuple[Point, str]:
    """The Landing Party token: on an island within Musket Shot (given, or the nearest point)."""
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
