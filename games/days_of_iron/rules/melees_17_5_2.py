"""Book section 17.5.2 (and 17.5's reinforcement): which units fight one close assault together,
and how its casualties are shared.

17.5: "Players add all the relevant tactical factors for all units involved, add the average troop
class of the units involved" and "Providing a unit in a melee is in line, it can receive
reinforcement from a friendly unit behind it. However, the reinforcing unit must be positioned
directly opposite the enemy unit as if the intervening friendly unit was not there."
17.5.2: "No matter how many stands are involved in the combat the groupings and results apply.
Take the casualties evenly from all units involved in the combat. In the event of a 'spare'
casualty, take this off the lowest quality unit involved in the combat or from the unit that has
more stands in contact if the quality is same. If quality and number of stands in contact is the
same then allot the casualty using a die roll."

RULINGS (data/days_of_iron/RULINGS.md 17.5, 17.5.2):
- One combat is every unit joined by contact with an enemy (a chain: A touches B, B touches C), so
  a unit in contact with two enemies fights them in one combat, not twice.
- A reinforcing unit is infantry or cavalry, not routing and in contact with no enemy, facing
  within 45 degrees of the line it stands behind, touching that line's rear (base to base, as
  units in contact touch) and not in front of it, and the straight line ahead of its front centre
  crosses the enemy's base (the line unit ignored). It counts in the combat like the units
  in contact: its class in the average, its stands in the numbers, a share of the losses, and the
  compulsory movement.
- Several spare casualties are taken one each, by the same order (lowest Class, then more stands,
  then a die per tied unit, the highest taking it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from games.core.geometry import Point, angle_diff, dot, polygon_distance, sub
from games.core.rng import Rng
from games.days_of_iron.rules.formations_12 import TOUCH, base, in_contact, on_table
from games.days_of_iron.state import ON_TABLE, ROUTING, State, Unit

REINFORCERS = ("infantry", "cavalry")
SAME_FACING = 45.0  # degrees: a reinforcer faces the way of the line it backs (ruling)


@dataclass
class Combat:
    """One close assault: the initiative side's units first, each side's in the order met."""

    mine: list[Unit]
    theirs: list[Unit]
    reinforcing: list[Unit]  # of either side, also in ``mine`` or ``theirs``

    @property
    def units(self) -> list[Unit]:
        return self.mine + self.theirs

    @property
    def single(self) -> bool:
        """Two units alone: fought as the pair it is."""
        return len(self.mine) == 1 and len(self.theirs) == 1


def combats(state: State, pairs: list[tuple[Unit, Unit]]) -> list[Combat]:
    """The pairs in contact joined into combats (in the order of their first pair), each with the
    units that reinforce a line in it."""
    found: list[Combat] = []
    where: dict[str, Combat] = {}
    for a, b in pairs:
        joined = [c for c in (where.get(a.id), where.get(b.id)) if c is not None]
        combat = joined[0] if joined else Combat([], [], [])
        if not joined:
            found.append(combat)
        if len(joined) == 2 and joined[0] is not joined[1]:
            other = joined[1]
            combat.mine += [u for u in other.mine if u not in combat.mine]
            combat.theirs += [u for u in other.theirs if u not in combat.theirs]
            found.remove(other)
            for unit in other.units:
                where[unit.id] = combat
        for unit, side in ((a, combat.mine), (b, combat.theirs)):
            if unit not in side:
                side.append(unit)
            where[unit.id] = combat
    engaged = {u.id for c in found for u in c.units}
    for combat in found:
        for own, enemies in ((combat.mine, combat.theirs), (combat.theirs, combat.mine)):
            for line in list(own):
                for helper in reinforcers(state, line, enemies, engaged):
                    own.append(helper)
                    combat.reinforcing.append(helper)
                    engaged.add(helper.id)
    return found


def reinforcers(state: State, line: Unit, enemies: list[Unit], engaged: set[str]) -> list[Unit]:
    """17.5: the friendly units behind ``line`` (in line, in the combat) that reinforce it."""
    if line.formation != "line":
        return []
    front = base(line)
    out = []
    for unit in state.units:
        if (unit.side != line.side or unit.id in engaged or unit.type not in REINFORCERS or not on_table(unit)
                or unit.status != ON_TABLE or abs(angle_diff(unit.facing, line.facing)) > SAME_FACING):
            continue
        mine = base(unit)
        ahead = dot(sub(mine.edge_midpoint("bow"), front.edge_midpoint("bow")), front.forward)
        if ahead >= 0 or polygon_distance(mine.polygon(), front.polygon()) >= TOUCH:
            continue
        if any(_straight_ahead(unit, enemy) for enemy in enemies) and not _touches_an_enemy(state, unit):
            out.append(unit)
    return out


def _straight_ahead(unit: Unit, enemy: Unit) -> bool:
    """The line straight ahead of ``unit``'s front centre crosses ``enemy``'s base."""
    mine = base(unit)
    centre = mine.edge_midpoint("bow")
    corners = [sub(p, centre) for p in base(enemy).polygon()]
    across = [dot(p, mine.starboard) for p in corners]
    return min(across) <= 0.0 <= max(across) and max(dot(p, mine.forward) for p in corners) > 0.0


def _touches_an_enemy(state: State, unit: Unit) -> bool:
    return any(e.side != unit.side and on_table(e) and e.type != "general" and in_contact(unit, e) for e in state.units)


def average_class(units: list[Unit]) -> int:
    """17.5: "the average troop class of the units involved", rounded half up (ruling)."""
    return (2 * sum(u.cls for u in units) + len(units)) // (2 * len(units))


def share(units: list[Unit], lost: int, rng: Rng) -> list[tuple[Unit, int]]:
    """17.5.2: ``lost`` stands taken evenly from ``units``; each spare one from the lowest Class,
    then the most stands, then the highest of a die rolled for each tied unit. No unit loses more
    stands than it has; what it cannot take passes to the next by the same order."""
    taken = {u.id: 0 for u in units}
    left = min(lost, sum(u.stands for u in units))
    while left > 0:
        able = [u for u in units if u.stands > taken[u.id]]
        if left >= len(able):
            for unit in able:
                taken[unit.id] += 1
            left -= len(able)
            continue
        for unit in _spare_order(able, taken, rng)[:left]:
            taken[unit.id] += 1
        left = 0
    return [(u, taken[u.id]) for u in units if taken[u.id]]


def _spare_order(units: list[Unit], taken: dict[str, int], rng: Rng) -> list[Unit]:
    """The units in the order spare casualties fall on them (17.5.2)."""
    key = {u.id: (u.cls, -(u.stands - taken[u.id])) for u in units}
    ties: dict[tuple[int, int], int] = {}
    for unit in units:
        ties[key[unit.id]] = ties.get(key[unit.id], 0) + 1
    dice = {u.id: (-rng.die(6) if ties[key[u.id]] > 1 else 0) for u in units}
    return sorted(units, key=lambda u: (key[u.id], dice[u.id]))


def nearest(unit: Unit, others: list[Unit]) -> Unit:
    """The unit of ``others`` nearest ``unit`` (a beaten unit moves away from it)."""
    here: Point = base(unit).centre
    return min(others, key=lambda o: math.dist(base(o).centre, here) if on_table(o) else math.inf)


def rear_first(units: list[Unit], enemies: list[Unit]) -> list[Unit]:
    """``units`` farthest from the enemy first: the order a beaten side gives way in (a reinforcer
    behind its line moves before the line, which would otherwise be blocked by it)."""
    def gap(unit: Unit) -> float:
        near = nearest(unit, enemies)
        return math.dist(base(near).centre, base(unit).centre)

    return sorted(units, key=gap, reverse=True)


def still_fighting(state: State, combat: Combat) -> Combat | None:
    """The combat as it stands now (an earlier one's compulsory moves may have broken a contact):
    units gone, routing or no longer in contact with an enemy of it (nor reinforcing) drop out;
    None when a side is left empty."""
    def keeps(unit: Unit, enemies: list[Unit]) -> bool:
        if not on_table(unit) or unit.status == ROUTING:
            return False
        return unit in combat.reinforcing or any(on_table(e) and in_contact(unit, e) for e in enemies)

    mine = [u for u in combat.mine if keeps(u, combat.theirs)]
    theirs = [u for u in combat.theirs if keeps(u, combat.mine)]
    if not [u for u in mine if u not in combat.reinforcing] or not [u for u in theirs if u not in combat.reinforcing]:
        return None
    return Combat(mine, theirs, [u for u in combat.reinforcing if u in mine or u in theirs])
