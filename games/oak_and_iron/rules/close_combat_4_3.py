"""Book section 4.3 (The Attack Phase: Close Combat): between two Entangled ships, or two Landing Party tokens."""

from __future__ import annotations

import math

from games.core.errors import IllegalOrder
from games.core.rng import Rng
from games.core.ruleset import Event
from games.oak_and_iron.data import rules
from games.oak_and_iron.measure import close_contact
from games.oak_and_iron.rules.attack_4_3 import attacking_ship, finish_attack
from games.oak_and_iron.rules.dice_2 import count, roll, show
from games.oak_and_iron.rules.range_ruler_2 import band_text
from games.oak_and_iron.rules.ship_status_4_2 import add_fatigue
from games.oak_and_iron.state import ShipState, State


def close_combat(state: State, rng: Rng, attacker: ShipState, target: ShipState) -> list[str]:
    """CLOSE COMBAT (4.3): 5 + Crew dice; Fatigue for each Skull when the attacker's Bow or Stern
    edge is in contact, for each Skull, Crossed Swords and Cannonball when a side edge is
    (``measure.close_contact``; a lone touching corner follows option ``corner_contact``)."""
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


def close(state: State, seat: str, ship_id: str, target_id: str, rng: Rng) -> list[Event]:
    """The ``close`` order: Close Combat against an opposing ship it is Entangled with."""
    ship = attacking_ship(state, seat, ship_id)
    target = state.ship(target_id)
    if target_id not in ship.entangled or target.controller == ship.controller:
        raise IllegalOrder(f"{ship.name} is not Entangled with the opposing ship {target.name}; Close Combat needs Entangled ships.")
    return finish_attack(ship, close_combat(state, rng, ship, target))


def landing_attack(state: State, seat: str, ship_id: str, target_id: str, rng: Rng) -> list[Event]:
    """Close Combat between Landing Parties within Musket Shot: the defender's ship takes Fatigue
    for each Skull, Crossed Swords and Cannonball."""
    ship = attacking_ship(state, seat, ship_id)
    target = state.ship(target_id)
    r = rules()
    if ship.landing is None or target.landing is None or target.controller == ship.controller:
        raise IllegalOrder(f"Landing Party combat needs a Landing Party ashore from {ship.name} and one from the opposing {target.name}.")
    d = math.dist(ship.landing, target.landing)
    if d > r.distance("musket_shot") + 1e-6:
        raise IllegalOrder(f"The Landing Parties are {band_text(d)} apart; they fight within Musket Shot ({r.distance('musket_shot'):g}\").")
    dice = max(1, r.close_combat_base_dice + ship.crew - ship.fatigue)
    faces = roll(rng, dice)
    n = count(faces, r.faces_of("close_combat_side_contact"))
    lines = [f"{ship.name}'s Landing Party attacks {target.name}'s ({d:.2f}\"): {dice} dice: {show(faces)}; {n} Fatigue."]
    add_fatigue(target, n, lines, from_attack=True)
    return finish_attack(ship, lines)
