"""Book section 4.2 (the Movement Phase's new terms; Out of Action from 4.3): a ship's condition,
Fatigue and Shaken, Damage and Crippled, Sail Setting, Entangled.

Only the tracks change here; the rules that cause Fatigue or Damage call these.
"""

from __future__ import annotations

from games.oak_and_iron.data import captain_cards, rules, upgrade_cards
from games.oak_and_iron.state import SAIL_NAMES, SAIL_SETTINGS, ShipState, State


def add_fatigue(ship: ShipState, n: int, notes: list[str], *, from_attack: bool = False) -> None:
    """FATIGUE (4.2): ``n`` points, up to the track's end, where the ship is SHAKEN and its Landing
    Party is withdrawn; "Down!" (initiative card) ignores the first point an attack causes."""
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
    """DAMAGE (4.2, CRIPPLED): points on the track until Crippled, then Fatigue instead."""
    for _ in range(max(0, n)):
        if ship.crippled:
            add_fatigue(ship, 1, notes)
            continue
        ship.damage += 1
        notes.append(f"{ship.name} Damage {ship.damage - 1} -> {ship.damage}")
        if ship.damage >= rules().damage_max:
            cripple(ship, notes)


def cripple(ship: ShipState, notes: list[str]) -> None:
    """CRIPPLED (4.2): the damage track is full."""
    if ship.crippled:
        return
    ship.crippled = True
    ship.damage = max(ship.damage, rules().damage_max)
    notes.append(f"{ship.name} is Crippled" + (" and Out of Action" if ship.shaken else ""))


def knock_out(ship: ShipState, notes: list[str]) -> None:
    """OUT OF ACTION (4.3): Crippled and Shaken together."""
    cripple(ship, notes)
    if not ship.shaken:
        ship.fatigue = rules().fatigue_max
        notes.append(f"{ship.name} is Out of Action")


def lower_sail(ship: ShipState, notes: list[str]) -> None:
    """SAIL SETTING (4.2): one level down, to a minimum of Anchored (rigging damage, 4.3)."""
    idx = SAIL_SETTINGS.index(ship.sail)
    if idx > 0:
        ship.sail = SAIL_SETTINGS[idx - 1]
        notes.append(f"{ship.name} sail setting reduced to {SAIL_NAMES[ship.sail]}")


def release(state: State, ship: ShipState) -> None:
    """The ship leaves play or the table: no longer ENTANGLED (4.2), its Landing Party gone."""
    for other_id in ship.entangled:
        other = state.ship(other_id)
        if ship.id in other.entangled:
            other.entangled.remove(ship.id)
    ship.entangled = []
    ship.landing = None


def entangle(state: State, a: ShipState, b: ShipState, notes: list[str]) -> None:
    """ENTANGLED (4.2): the two ships are stuck together; an own ship Entangled with a captured one
    re-captures it (End Phase, CAPTURED)."""
    if b.id not in a.entangled:
        a.entangled.append(b.id)
    if a.id not in b.entangled:
        b.entangled.append(a.id)
    notes.append(f"{a.name} and {b.name} are Entangled")
    for x, y in ((a, b), (b, a)):
        if x.captured_by and y.side == x.side and not y.captured_by:
            x.captured_by = ""
            notes.append(f"{x.name} is re-captured by its own squadron (remains Shaken)")


def describe_ship(s: ShipState) -> str:
    """One line of the ship's tracks and tokens, for the log and the status strip."""
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
    cards = [upgrade_cards()[u].name for u in s.upgrades if u in upgrade_cards()]
    if s.captain:
        cards.append(f"captain {captain_cards()[s.captain].name}" + (" (face down)" if s.flagship else ""))
    if cards:
        flags.append(", ".join(cards))
    reload = [side for side, on in (("port", s.reload_port), ("starboard", s.reload_starboard)) if on]
    if reload:
        flags.append("reload " + "/".join(reload))
    return f"{s.name} D{s.damage} F{s.fatigue} {SAIL_NAMES[s.sail]}" + (f" [{', '.join(flags)}]" if flags else "")
