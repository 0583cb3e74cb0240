"""Book section 5.1 (ch. 5 Additional Rules, headings numbered in the book's order: Collisions),
and moving Directly Away (a new term of 4.2) that collisions and Cut Free use.

Bases move exactly (``games.core.geometry``): a move stops at the first contact, and the contact
is resolved here.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.geometry import Point, Polygon, bearing_of, bearing_vector, scale, slide_contact, sub
from games.core.rng import Rng
from games.oak_and_iron.data import rules
from games.oak_and_iron.rules.dice_2 import count, roll, show
from games.oak_and_iron.rules.off_table_5_2 import check_off_table
from games.oak_and_iron.rules.ship_status_4_2 import add_damage, entangle
from games.oak_and_iron.rules.terrain_5_9 import SOLID
from games.oak_and_iron.state import ShipState, State


@dataclass
class Obstacle:
    kind: str  # ship or a terrain kind
    ref: str  # ship id or terrain label
    poly: Polygon


def obstacles_for(state: State, ship_id: str) -> list[Obstacle]:
    """What a moving ship can collide with: other ships on the table, rocks, islands and land."""
    out = [Obstacle("ship", s.id, s.base.polygon()) for s in state.ships if s.on_table and s.id != ship_id]
    out += [Obstacle(t.kind, t.label, tuple(t.points)) for t in state.terrain if t.kind in SOLID]
    return out


def free_slide(state: State, ship: ShipState, vec: Point) -> float:
    """How far (0..1 of ``vec``) a ship can slide before touching anything."""
    base = ship.base
    best = 1.0
    for ob in obstacles_for(state, ship.id):
        t = slide_contact(base.polygon(), vec, ob.poly)
        if t is not None:
            best = min(best, t)
    return best


def directly_away(state: State, ship: ShipState, away_from: Point, inches: float) -> tuple[Point, float]:
    """DIRECTLY AWAY (4.2): the direction (away from the object, no pivot) that goes farthest,
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


def resolve_collision(state: State, ship: ShipState, hit: Obstacle, speed: int, rng: Rng, notes: list[str]) -> None:
    """COLLISIONS (5.1): terrain grounds and damages; against a ship, roll the speed in dice for
    damage and entanglement, else the other ship is moved a Yard Arm Directly Away."""
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
