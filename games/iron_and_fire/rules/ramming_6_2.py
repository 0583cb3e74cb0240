"""Book section 6.2, Ramming: a ship that ends its move facing an enemy ship may ram it.
"""

from __future__ import annotations

from games.core.ruleset import Event
from games.iron_and_fire import scene
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.report import describe_mods, say
from games.iron_and_fire.rules import critical_hits_10, damage_7, movement_5
from games.iron_and_fire.state import LastAction, State, Unit


def ram(s: State, dice: Dice, events: list[Event], u: Unit, target: Unit, mp_used: int, fow_mod: int, hexes: int = 0) -> None:
    """6.2: shallow-water check first, then 1d10 against the target's PF."""
    shallow = scene.terrain(s, scene.pos(target)) in scene.WATER_SHALLOW
    if shallow and movement_5.grounding_check(s, dice, events, u, mp_used, f"ramming {target.name} in {scene.terrain(s, scene.pos(target))} water", hexes):
        say(events, f"{u.name} grounds before the ram: no ram attack.")
        return
    die = dice.d(10)
    mods: list[tuple[str, int]] = []
    if u.bow == "black":
        mods.append(("black bow", 1))
    if damage_7.eff_mp(s, target) == 0:
        mods.append(("target MF 0", 2))
    tpos = scene.pos(target)
    if scene.layout(s).neighbour(tpos, target.facing) == scene.pos(u):
        mods.append(("through the bow", -2))
    elif scene.layout(s).neighbour(tpos, target.facing + 3) == scene.pos(u):
        mods.append(("through the stern", -1))
    if fow_mod:
        mods.append(("Fortunes of War", fow_mod))
    total = die + sum(v for _, v in mods)
    head = f"{u.name} rams {target.name}: d10 **{die}**{describe_mods(mods)} = {total} vs PF {target.pf}"
    s.last = LastAction("ram", u.controller, [(u.q, u.r), (target.q, target.r)], "ram")
    u.honor_done = True
    if total >= 2 * target.pf:
        say(events, f"{head} (twice PF {2 * target.pf}): 2 hits and a critical hit.")
        damage_7.hit(s, dice, events, target, 2, f"rammed by {u.name}", u.id)
        critical_hits_10.critical(s, dice, events, target, u.id)
    elif total >= target.pf:
        say(events, f"{head}: 1 hit.")
        damage_7.hit(s, dice, events, target, 1, f"rammed by {u.name}", u.id)
    else:
        say(events, f"{head}: the ram fails; the rammer takes 1 hit.")
        damage_7.hit(s, dice, events, u, 1, "failed ram")
    if total < u.pf and u.afloat:
        say(events, f"{total} is also below the rammer's PF {u.pf}: {u.name} takes 1 hit.")
        damage_7.hit(s, dice, events, u, 1, "ramming shock")
