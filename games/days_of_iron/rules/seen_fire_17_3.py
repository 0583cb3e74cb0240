"""Book section 17.3, fire at an enemy seen the turn before, on the measured table: "If an enemy
unit has passed through a unit's firing arc and within range the previous turn, a shooting unit
can elect to shoot at the enemy target as long as the shooting unit has not moved or changed
formation. The unit shoots at the same range and target class that the target appeared in the
previous phase."

After each ``move`` the bot notes, for every enemy unit that could shoot, the place on the move's
path (looked at every ``STEP`` inches and at its end) where the mover came nearest inside that
enemy's arcs, range and line of sight, and where that enemy stood then (``state.Sighting``). In the
next turn's Shooting Phase that enemy, still standing where and as it stood, may fire at the mover
wherever it is now: the fire is measured against the place it was seen at (range, target class,
cover, friends in the way), and the hits come off the unit itself (RULINGS.md 17.3).
"""

from __future__ import annotations

import dataclasses
import math

from games.core.errors import IllegalOrder
from games.core.geometry import Base, overlaps, point_segment_distance, polygon_distance
from games.core.rng import Rng
from games.core.ruleset import Event
from games.days_of_iron.orders import Fire, Move
from games.days_of_iron.rules import shooting_17_3 as shooting
from games.days_of_iron.rules.formations_12 import SKIRMISH, base, firing_arc, on_table
from games.days_of_iron.rules.movement_17_4 import EPS, visible_enemies
from games.days_of_iron.state import ON_TABLE, Sighting, State, Unit

STEP = 0.5  # inches between the places on a move's path the bot looks from (a sampling step, not a book number)
SLACK = 1e-9  # inches: more than the rounding of a place's centre off the straight line it is measured along


def _pose(unit: Unit) -> list[float]:
    return [unit.x, unit.y, unit.facing]


def _places(start: Unit, order: Move, end: Unit) -> list[Base]:
    """The mover's bases at the places the bot looks from: along the straight part of the move, then
    its end (``_at`` gives the mover standing at one of them)."""
    b = base(start)
    steps = int(order.inches / STEP + EPS)
    return [b.moved(min(order.inches, i * STEP)) for i in range(steps + 1)] + [base(end)]


def _at(start: Unit, end: Unit, places: list[Base], i: int) -> Unit:
    """The mover at the ``i``-th place of ``_places``."""
    if i == len(places) - 1:
        return dataclasses.replace(end, seen=[])
    x, y = places[i].centre
    return dataclasses.replace(start, x=x, y=y, seen=[])


def note_move(state: State, start: Unit, order: Move) -> None:
    """After ``order`` moved a unit from ``start`` (a copy of it before the move): note every enemy
    shooter whose arcs and range it passed through in sight, and where it came nearest (the place
    nearest the shooter, the earlier of equals).

    It runs after every move, so it is kept cheap, with exactly the result of testing every place
    for every shooter: the places' bases are measured once per move and each shooter's arcs once. A
    place is within range only if the bases' centres are no farther apart than the range plus both
    half-diagonals (no two points of a base are farther from its centre than that): a quick "no"
    before the arc and range tests, made first for the whole straight part of the path at once (its
    places are one base moved along a line). The line of sight, the dearest test, is asked of the
    places in order of nearness only until one is in sight."""
    unit = state.unit(order.unit)
    unit.seen = [s for s in unit.seen if s.turn >= state.turn - 1]  # older ones no longer allow a shot
    bases = _places(start, order, unit)
    polygons = [b.polygon() for b in bases]
    halves = [math.hypot(b.length, b.beam) / 2 for b in bases]  # half-diagonals
    for shooter in visible_enemies(state, unit.side):
        if shooter.type not in shooting.SHOOTERS or shooter.status != ON_TABLE:
            continue
        reach = shooting.reach(shooter)
        home = base(shooter)
        near = reach + EPS + math.hypot(home.length, home.beam) / 2  # plus a place's half-diagonal
        straight_far = len(bases) < 2 or point_segment_distance(
            home.centre, bases[0].centre, bases[-2].centre) > near + halves[0] + SLACK
        if straight_far and math.dist(home.centre, bases[-1].centre) > near + halves[-1]:
            continue  # no place on the path can be within range
        # shooting.in_arc and shooting.gap, with the shooter's arcs and outline made once (keep them alike)
        arc, outline = firing_arc(shooter, reach * 2), home.polygon()
        seen = []
        for i, (b, poly, half) in enumerate(zip(bases, polygons, halves, strict=True)):
            if math.dist(home.centre, b.centre) <= near + half and overlaps(arc, poly, tolerance=0.0):
                apart = polygon_distance(outline, poly)
                if apart <= reach + EPS:
                    seen.append((apart, i))
        nearest = next((p for p in (_at(start, unit, bases, i) for _, i in sorted(seen))
                        if shooting.in_sight(state, shooter, p)), None)
        if nearest is None:
            continue
        old = next((s for s in unit.seen if s.shooter == shooter.id and s.turn == state.turn), None)
        if old is not None:
            earlier = dataclasses.replace(unit, x=old.at[0], y=old.at[1], facing=old.at[2], formation=old.formation)
            if shooting.gap(shooter, earlier) <= shooting.gap(shooter, nearest) + EPS:
                continue
            unit.seen.remove(old)
        unit.seen.append(Sighting(shooter.id, state.turn, _pose(nearest), nearest.formation, _pose(shooter),
                                  shooter.formation))


def ghost(state: State, unit: Unit, target: Unit) -> Unit | None:
    """``target`` where ``unit`` saw it pass last turn, if ``unit`` has not moved or changed formation
    since (the same place, facing and formation), for it to fire at (17.3); else None."""
    if not on_table(target) or target.status != ON_TABLE:
        return None
    for s in target.seen:
        if s.shooter == unit.id and s.turn == state.turn - 1 and unit.formation == s.shooter_formation \
                and all(abs(a - b) <= EPS for a, b in zip(_pose(unit), s.shooter_at, strict=True)):
            return dataclasses.replace(target, x=s.at[0], y=s.at[1], facing=s.at[2], formation=s.formation, seen=[])
    return None


def targets(state: State, unit: Unit) -> list[Unit]:
    """The enemies ``unit`` may fire at because it saw them pass last turn (not counting those it may
    fire at where they stand now)."""
    now = shooting.eligible(state, unit)
    return [t for t in visible_enemies(state, unit.side) if t not in now and ghost(state, unit, t) is not None]


def _seen_only(state: State, unit: Unit, target: Unit) -> Unit | None:
    """The ghost to fire at when ``target`` is not a target where it stands now, else None."""
    if unit.side == target.side:
        return None
    aim = ghost(state, unit, target)
    if aim is None or target in shooting.eligible(state, unit):
        return None
    return aim


def check_fire(state: State, seat: str, order: Fire) -> Fire:
    """17.3: fire at an enemy where it stands (``shooting_17_3.check_fire``), or, electing to, at one
    seen passing through the arcs last turn: still in the arcs, range and sight from where the firer
    stands, staff only for skirmishers (17.3.5), not in a melee (17.3.2) and no friend endangered
    (17.3.4); the nearest-target rule does not bar the election (RULINGS.md 17.3)."""
    unit, target = state.unit(order.unit), state.unit(order.target)
    aim = _seen_only(state, unit, target)
    if aim is None:
        return shooting.check_fire(state, seat, order)
    shooting.check_firer(state, seat, unit, target)
    if not (shooting.in_arc(unit, aim) and shooting.gap(unit, aim) <= shooting.reach(unit) + EPS
            and shooting.in_sight(state, unit, aim)):
        raise IllegalOrder(f"{target.name} was seen passing {unit.name}'s arcs last turn, but that place is no longer "
                           "in its arcs, range and sight (17.3).")
    if target.type == "general" and unit.formation != SKIRMISH:
        raise IllegalOrder("only skirmishers may fire at staff (17.3.5).")
    friend = shooting.melee_friend(state, target, unit.side)
    if friend is not None:
        raise IllegalOrder(f"{target.name} is in a close assault melee with {friend.name}: units cannot intentionally "
                           "fire into a Close Assault melee (17.3.2).")
    bar = shooting.ground_bar(state, unit, aim)
    if bar:
        raise IllegalOrder(bar)
    shooting.check_endangered(state, unit, aim)
    shooting.check_deployed(unit)
    return order


def fire(state: State, order: Fire, rng: Rng) -> list[Event]:
    """The fire, measured where the target was seen last turn when it is not a target where it stands."""
    unit, target = state.unit(order.unit), state.unit(order.target)
    aim = _seen_only(state, unit, target)
    if aim is None:
        return shooting.fire(state, order, rng)
    return shooting.fire(state, order, rng, aim, f" (at {target.name} as it was seen passing {unit.name}'s arcs last "
                                                 "turn: its range and target class then, 17.3)")
