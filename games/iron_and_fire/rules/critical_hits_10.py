"""Book section 10, Critical Hits: the 1d6 table and the End Phase repair rolls.
"""

from __future__ import annotations

from games.core.ruleset import Event
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.report import say
from games.iron_and_fire.rules import damage_7
from games.iron_and_fire.state import State, Unit

CRITICAL_TABLE = {1: "false alarm", 2: "bridge", 3: "fire", 4: "fire", 5: "propulsion", 6: "steering"}
CRITICAL_NAMES = {"bridge": "Bridge", "fire": "Fire", "propulsion": "Propulsion", "steering": "Steering"}


def critical(s: State, dice: Dice, events: list[Event], u: Unit, by: str = "") -> None:
    """Roll 1d6 on the Critical Hit table (10.0) and apply it; ``by`` set the fire (credit)."""
    if not u.afloat or u.battery:
        return
    die = dice.d(6)
    kind = CRITICAL_TABLE[die]
    if kind == "false alarm":
        say(events, f"Critical hit on {u.name}: d6 **{die}**: False Alarm, no effect.")
        return
    u.criticals.append(kind)
    if kind == "fire" and not u.fire_by:
        u.fire_by = by
    extra = ""
    if kind == "propulsion":
        extra = " MF −1" + ("" if damage_7.mp_secret(s, u) else f" (now MP {damage_7.eff_mp(s, u)}" + (", it will drift)" if damage_7.base_mp(s, u) == 0 else ")"))
    say(events, f"Critical hit on {u.name}: d6 **{die}**: {CRITICAL_NAMES[kind]}.{extra}")


def repair_criticals(s: State, dice: Dice, events: list[Event], u: Unit) -> None:
    """10.0: mandatory End-Phase repair rolls for every critical hit."""
    kept: list[str] = []
    skip_boiler = u.bad_boilers
    for kind in list(u.criticals):
        if not u.afloat:
            break
        if kind == "propulsion" and skip_boiler:
            skip_boiler = False
            kept.append(kind)
            continue
        die = dice.d(6)
        if kind == "fire":
            if die <= 3:
                say(events, f"{u.name}: Fire repair d6 **{die}**: fire extinguished.")
            elif die == 6:
                say(events, f"{u.name}: Fire repair d6 **6**: the fire reaches the powder magazine! The ship **blows up**.")
                u.status = "sunk"
                u.sunk_by = u.fire_by  # the ship whose hit set the fire sank her
                damage_7.break_boarding(s, u)
                return
            else:
                n = 1 if die == 4 else 2
                say(events, f"{u.name}: Fire repair d6 **{die}**: the fire remains.")
                kept.append(kind)
                damage_7.hit(s, dice, events, u, n, "fire", u.fire_by)
        else:
            fixed = die % 2 == 0
            say(events, f"{u.name}: {CRITICAL_NAMES[kind]} repair d6 **{die}**: {'repaired' if fixed else 'not repaired'}.")
            if not fixed:
                kept.append(kind)
    if u.afloat:
        u.criticals = kept
        if "fire" not in kept:
            u.fire_by = ""
