"""Book section 17.2.6 (squadron charges) on the measured table: "Cavalry units may make separate
'squadron charges' of a minimum of 3 stands with the remainder of the unit making a second or
opportunity charge in the Movement Phase. The remainder of the unit may only charge into the same
Close Assault melee as the other stands in the same unit."

``UNIT squadron N charge TARGET`` in the Morale Phase splits the squadron off as a unit of its own
(one record per cavalry unit, ``ID-squadron``, reused for its later squadron charges, so the state
does not grow) and declares its charge (17.2.2); the squadron is the N stands at the end of the
unit nearest the target (in column, its front ranks). Its points and starting stands are its share
of the unit's, so losses count as before (18.2). The remainder declares no charge that turn; in
the Movement Phase it may charge only the squadron's target, once the squadron's charge has gone
ahead. When the next turn's initiative is rolled, a squadron that is on the table, not routing,
rejoins its unit where the unit stands, if the unit is on the table too and the rejoined unit
has room there (RULINGS.md 17.2.6).
"""

from __future__ import annotations

import dataclasses

from games.core.errors import IllegalOrder, WrongPhase
from games.core.geometry import add, dot, scale, sub
from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.days_of_iron.data import rules
from games.days_of_iron.orders import Charge, SquadronCharge
from games.days_of_iron.rules import charges_17_2
from games.days_of_iron.rules.formations_12 import COLUMN, base, footprint, on_table
from games.days_of_iron.rules.movement_17_4 import in_the_way, visible_enemies
from games.days_of_iron.state import DISORDERED, GONE, GOOD, ON_TABLE, REJOINED, SHAKEN, State, Unit

MIN_STANDS = 3  # book 17.2.6: a squadron charge is made by 3 stands or more
SUFFIX = "-squadron"
WORSE = {GOOD: 0, DISORDERED: 1, SHAKEN: 2}  # 17.2.8: the orders, best to worst


def squadron_of(state: State, unit: Unit) -> Unit | None:
    """The squadron record of a cavalry unit, if it ever made a squadron charge."""
    return next((u for u in state.units if u.id == unit.id + SUFFIX), None)


def _remainder_least() -> int:
    """RULINGS.md 17.2.6: the remainder keeps more stands than a shattered cavalry unit (17.5.8)."""
    return rules().shattered["cavalry"] + 1


def check_squadron(state: State, seat: str, order: SquadronCharge) -> SquadronCharge:
    """17.2.6: in the Morale phase, cavalry, 3 stands or more, a remainder left; the charge is
    checked as the whole unit's charge at that target would be (17.2), and the remainder must
    have room where the squadron leaves it."""
    unit = state.unit(order.unit)
    if not charges_17_2.phase_is(state, "Morale"):
        raise WrongPhase("squadron charges are declared in the Morale phase (17.2.6).", hint="Say `next` to reach it.")
    if unit.type != "cavalry" or unit.id.endswith(SUFFIX):
        raise IllegalOrder(f"only a cavalry unit sends a squadron to charge (17.2.6); {unit.name} is "
                           + ("a squadron already." if unit.id.endswith(SUFFIX) else f"{unit.type}."))
    if order.stands < MIN_STANDS:
        raise IllegalOrder(f"a squadron charge is made by {MIN_STANDS} stands or more (17.2.6).")
    least = _remainder_least()
    if unit.stands - order.stands < least:
        raise IllegalOrder(f"{unit.name} has {unit.stands} stands: a squadron of {order.stands} would leave fewer than "
                           f"{least} for the remainder (17.2.6, 17.5.8).",
                           hint=f"At most {unit.stands - least} stands, or `{unit.id} charge TARGET` with the whole unit.")
    squadron = squadron_of(state, unit)
    if squadron is not None and squadron.status != REJOINED:
        why = "was lost" if squadron.status in GONE else "has not rejoined it"
        raise IllegalOrder(f"{unit.name}'s squadron {why}: it makes one squadron charge at a time (17.2.6).")
    charges_17_2.check_charge(state, seat, Charge(unit.id, order.target))
    _, remainder = _split_places(unit, order.stands, state.unit(order.target))
    if in_the_way(state, remainder, base(remainder)) is not None:
        raise IllegalOrder(f"there is no room behind {unit.name}'s squadron for the rest of the unit.")
    return order


def _split_places(unit: Unit, stands: int, target: Unit) -> tuple[Unit, Unit]:
    """The squadron and the remainder as they stand when the squadron splits off: in line or
    skirmish order side by side, the squadron on the flank nearest the target; in column the
    squadron leads and the remainder follows."""
    b = base(unit)
    width, depth = footprint(unit)
    squadron = dataclasses.replace(unit, stands=stands, seen=[])
    remainder = dataclasses.replace(unit, stands=unit.stands - stands, seen=[])
    (ws, ds), (wr, dr) = footprint(squadron), footprint(remainder)
    if unit.formation == COLUMN:
        front = add(b.centre, scale(b.forward, depth / 2))
        here, there = add(front, scale(b.forward, -ds / 2)), add(front, scale(b.forward, -(ds + dr / 2)))
    else:
        side = 1.0 if dot(sub(base(target).centre, b.centre), b.starboard) >= 0 else -1.0
        here = add(b.centre, scale(b.starboard, side * (width - ws) / 2))
        there = add(b.centre, scale(b.starboard, -side * (width - wr) / 2))
    squadron.x, squadron.y = here
    remainder.x, remainder.y = there
    return squadron, remainder


def squadron_charge(state: State, order: SquadronCharge, rng: Rng) -> list[Event]:
    """Split the squadron off (its share of the unit's points and starting stands) and declare its charge."""
    unit, target = state.unit(order.unit), state.unit(order.target)
    placed, remainder = _split_places(unit, order.stands, target)
    start = min(order.stands, unit.start_stands - 1)
    share = unit.points * start // max(1, unit.start_stands)
    squadron = dataclasses.replace(placed, id=unit.id + SUFFIX, name=f"{unit.name} Sqn", start_stands=start,
                                   points=share, attached="")
    old = squadron_of(state, unit)
    if old is None:
        state.units.append(squadron)
    else:
        state.units[state.units.index(old)] = squadron
    unit.x, unit.y, unit.stands = remainder.x, remainder.y, remainder.stands
    unit.start_stands -= start
    unit.points -= share
    said = public(f"{unit.name} sends {squadron.name} ({order.stands} stands) to charge {target.name}; the other "
                  f"{unit.stands} stands may charge only {target.name}, in the Movement phase (17.2.6).")
    return [said, *charges_17_2.charge(state, Charge(squadron.id, target.id), rng)]


def check_remainder(state: State, order: Charge) -> None:
    """17.2.6: the remainder of a unit whose squadron charged this turn charges in the Movement
    phase, and only into the squadron's melee (its target, once its charge has gone ahead)."""
    unit = state.unit(order.unit)
    squadron = squadron_of(state, unit)
    if squadron is None or squadron.charge_turn != state.turn or squadron.status == REJOINED:
        return
    if not charges_17_2.phase_is(state, "Movement"):
        raise IllegalOrder(f"{squadron.name} charges for {unit.name} this Morale phase: the rest of the unit makes a "
                           "second or opportunity charge in the Movement phase (17.2.6).")
    if not squadron.charging:
        raise IllegalOrder(f"{squadron.name}'s charge has not gone ahead: the rest of {unit.name} may charge only into "
                           "the same melee as its squadron (17.2.6).")
    if order.target != squadron.charging:
        target = state.unit(squadron.charging)
        raise IllegalOrder(f"the rest of {unit.name} may charge only into the same melee as {squadron.name}: at "
                           f"{target.name} (17.2.6).", hint=f"`{unit.id} charge {target.id}`.")


def rejoin(state: State) -> list[Event]:
    """As a new turn begins: each squadron on the table and not routing rejoins its unit where the
    unit stands, if the unit is on the table, not routing, and has room for the squadron's stands;
    the rejoined unit takes the worse order of the two, halted or gone to ground if either was."""
    events: list[Event] = []
    for squadron in [u for u in state.units if u.id.endswith(SUFFIX) and u.status == ON_TABLE and on_table(u)]:
        unit = state.unit(squadron.id[: -len(SUFFIX)])
        if unit.status != ON_TABLE or not on_table(unit):
            continue
        whole = dataclasses.replace(unit, stands=unit.stands + squadron.stands, seen=[])
        blocker = in_the_way(state, whole, base(whole), ignore=frozenset({squadron.id}))
        if blocker is not None:
            events.append(public(f"{squadron.name} cannot rejoin {unit.name}: {blocker.name} stands where its stands "
                                 "would go (17.2.6)."))
            continue
        unit.stands += squadron.stands
        unit.start_stands += squadron.start_stands
        unit.points += squadron.points
        if WORSE.get(squadron.order, 0) > WORSE.get(unit.order, 0):
            unit.order, unit.order_turn = squadron.order, squadron.order_turn
        unit.halted, unit.ground = unit.halted or squadron.halted, unit.ground or squadron.ground
        for general in state.units:
            if general.attached == squadron.id:
                general.attached = unit.id
        squadron.status, squadron.formation = REJOINED, ""
        squadron.stands = squadron.start_stands = squadron.points = 0
        events.append(public(f"{squadron.name} rejoins {unit.name} ({unit.stands} stands) (17.2.6)."))
    return events


def candidates(state: State, own: list[Unit]) -> list[SquadronCharge]:
    """A squadron of 3 at the nearest enemy, for cavalry that may declare a charge now."""
    out: list[SquadronCharge] = []
    if not charges_17_2.phase_is(state, "Morale"):
        return out
    for unit in own:
        squadron = squadron_of(state, unit)
        if unit.type == "cavalry" and not unit.id.endswith(SUFFIX) and unit.charge_turn != state.turn \
                and unit.stands - MIN_STANDS >= _remainder_least() and on_table(unit) \
                and (squadron is None or squadron.status == REJOINED):
            near = sorted(visible_enemies(state, unit.side), key=lambda e: charges_17_2.gap(unit, e))
            out += [SquadronCharge(unit.id, MIN_STANDS, e.id) for e in near[:1]]
    return out
