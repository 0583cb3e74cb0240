"""Book section 6.1, Firing: range, line of sight, arcs, the fire modifiers and the hit table.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.core.hexgrid import distance
from games.core.ruleset import Event
from games.iron_and_fire import scene
from games.iron_and_fire.data import IRONCLAD_TYPES, ships
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.orders import Fire
from games.iron_and_fire.report import describe_mods, say
from games.iron_and_fire.rules import (
    chilean_honor_13_2,
    critical_hits_10,
    damage_7,
    fortunes_of_war_13_1,
    sequence_3,
)
from games.iron_and_fire.state import LastAction, State, Unit


# --- firing (6.1) -------------------------------------------------------------------------
def fixed_fire_mods(s: State, u: Unit, t: Unit) -> list[tuple[str, int]]:
    """6.1.2's modifiers that need no die and no choice: CF, range, target state, arcs."""
    rng = distance(scene.pos(u), scene.pos(t))
    mods: list[tuple[str, int]] = [("CF", damage_7.eff_cf(s, u))]
    if rng == 1:
        mods.append(("range 1", 1))
    elif rng == 2:
        mods.append(("range 2", -1))
    else:
        mods.append((f"range {rng}", -2))
    if not t.battery:
        if t.grounded:
            mods.append(("target grounded", 2))
        elif damage_7.eff_mp(s, t) == 0:
            mods.append(("target MF 0", 1))
        if t.type == "SSC" and (scene.on_row(s, scene.pos(t), t.facing, scene.pos(u)) or scene.on_row(s, scene.pos(t), t.facing + 3, scene.pos(u))):
            mods.append(("raking fire", 1))
    if not u.battery and ships()[u.id].broadside and (scene.on_row(s, scene.pos(u), u.facing, scene.pos(t)) or scene.on_row(s, scene.pos(u), u.facing + 3, scene.pos(t))):
        mods.append(("broadside ship firing out of bow/stern", -1))
    return mods


def best_fire_total(s: State, u: Unit, t: Unit, fow: bool) -> int:
    """The highest total a fire attack could reach: a d10 of 10, every fixed modifier, the
    Visibility d6 falling even, and the bonuses the firer holds (Lucky Shot, its FoW)."""
    best = 10 + sum(v for _, v in fixed_fire_mods(s, u, t))
    if scene.on(s, "visibility") and distance(scene.pos(u), scene.pos(t)) > 1 and s.turn >= 7:
        best -= 1
    if chilean_honor_13_2.honor_bound(s, u):
        best -= 2
    if u.controller in s.lucky_shot:
        best += 1
    if fow:
        best += 2 if u.controller not in s.fow_used_ever else 1
    return best


def fire_problem(s: State, u: Unit, t: Unit, fow: bool = False) -> str:
    """6.1: why ``u`` cannot fire at ``t`` now (guns, boarding, range, arc, line of sight, a possible hit), or ""."""
    if u.type == "collier":
        return f"{u.name} carries no guns"
    if u.captured:
        return f"{u.name} is a captured ship and never fires"
    if u.boarding_with:
        return f"{u.name} is locked in a Boarding Combat"
    if not t.afloat:
        return f"{t.name} is not in play"
    if t.controller == u.controller:
        return f"{t.name} is on your side"
    rng = distance(scene.pos(u), scene.pos(t))
    if rng > 4:
        return f"{t.name} is {rng} hexes away (range 4)"
    blocker = scene.line_blocker(s, scene.pos(u), scene.pos(t))
    if blocker:
        return f"the line of sight to {t.name} is blocked by {blocker}"
    best = best_fire_total(s, u, t, fow)
    if best < t.pf:  # 6.1 / 7.1: a unit fires only while a hit is possible
        return f"no hit is possible (the best total, a d10 of 10 with every modifier, is {best}; PF {t.pf})"
    return ""


def fire(s: State, dice: Dice, events: list[Event], side: str, order: Fire) -> None:
    """6.1: fire at an enemy ship or battery: d10 plus modifiers against the target's PF; hits, saves and criticals."""
    uid, tid, fow = order.unit.id, order.target.id, order.fow
    u = sequence_3.activation_guard(s, side, uid)
    t = scene.unit(s, tid)
    problem = fire_problem(s, u, t, fow)
    if problem:
        raise IllegalOrder(f"{u.name} cannot fire at {t.name}: {problem}.")
    if fow:
        fortunes_of_war_13_1.fow_check(s, side)
    if s.cable_ship == u.id:
        s.cable_clean = False
    rng = distance(scene.pos(u), scene.pos(t))
    mods = fixed_fire_mods(s, u, t) + _mods_of_this_attack(s, dice, events, u, side, rng, fow)
    die = dice.d(10)
    total = die + sum(v for _, v in mods)
    pf = t.pf
    head = f"{u.name} fires at {t.name} (range {rng}): d10 **{die}**{describe_mods(mods)} = {total} vs PF {pf}"
    s.last = LastAction("fire", side, [(u.q, u.r), (t.q, t.r)], "")
    if t.id == "huascar":
        s.fired_on_huascar.append(u.id)
    hits = 2 if total >= 2 * pf else 1 if total >= pf else 0
    if hits == 0:
        say(events, f"{head}: no effect.")
        s.last.text = "miss"
        return
    if _saved(s, events, t, head, hits, die, rng):
        s.last.text = "saved"
        return
    s.last.text = f"{hits} hit{'s' if hits > 1 else ''}"
    _hits(s, dice, events, u, t, head, hits)


def _mods_of_this_attack(s: State, dice: Dice, events: list[Event], u: Unit, side: str, rng: int, fow: bool) -> list[tuple[str, int]]:
    """The modifiers that roll or are spent: Visibility (13.3), Chilean Honor (13.2), a Lucky
    Shot (14) and the Fortunes of War (13.1)."""
    mods: list[tuple[str, int]] = []
    if scene.on(s, "visibility") and rng > 1:
        if 4 <= s.turn <= 6:
            vis = dice.d(6)
            if vis % 2:
                mods.append((f"visibility (d6 {vis}, odd)", -1))
            else:
                say(events, f"Visibility check: d6 **{vis}**, even: no effect.")
        elif s.turn >= 7:
            mods.append(("reduced visibility", -1))
    if chilean_honor_13_2.honor_bound(s, u):
        mods.append(("Chilean Honor", -2))
    if side in s.lucky_shot:
        s.lucky_shot.remove(side)
        mods.append(("Lucky Shot", 1))
    if fow:
        first = fortunes_of_war_13_1.fow_use(s, events, side, "a bonus on this fire attack")
        mods.append(("Fortunes of War", 2 if first else 1))
    return mods


def _saved(s: State, events: list[Event], t: Unit, head: str, hits: int, die: int, rng: int) -> bool:
    """6.1.4: ironclad armour, and land batteries at range 3-4, ignore all hits on an even raw d10."""
    plural = "s" if hits > 1 else ""
    if t.type in IRONCLAD_TYPES and scene.on(s, "ironclad_save") and die % 2 == 0:
        say(events, f"{head}: {hits} hit{plural}, but the raw d10 {die} is even: the ironclad's armour ignores all hits (6.1.4).")
        return True
    if t.battery and scene.on(s, "battery_save") and rng >= 3 and die % 2 == 0:
        say(events, f"{head}: {hits} hit{plural}, but at range {rng} the raw d10 {die} is even: the battery ignores all hits (6.1.4).")
        return True
    return False


def _hits(s: State, dice: Dice, events: list[Event], u: Unit, t: Unit, head: str, hits: int) -> None:
    """6.1: a total of the PF scores 1 hit; twice the PF 2 hits and a critical-hit check (d6 5-6, section 10)."""
    pf = t.pf
    if hits == 2:
        say(events, f"{head} (twice PF {2 * pf}): 2 hits and a critical-hit check.")
        damage_7.hit(s, dice, events, t, 2, f"fire from {u.name}", u.id)
        if t.afloat and not t.battery:
            die6 = dice.d(6)
            if die6 >= 5:
                say(events, f"Critical-hit check: d6 **{die6}** (5 or 6 needed): critical hit!")
                critical_hits_10.critical(s, dice, events, t, u.id)
            else:
                say(events, f"Critical-hit check: d6 **{die6}** (5 or 6 needed): none.")
    else:
        say(events, f"{head}: 1 hit.")
        damage_7.hit(s, dice, events, t, 1, f"fire from {u.name}", u.id)
