"""Book section 9, Mines: counters turned over when a ship enters, the 2d6 mine attack, and
placing them in set-up.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder, quote
from games.core.hexgrid import Hex
from games.iron_and_fire import scene
from games.iron_and_fire.game import (
    SIDE_NAMES,
    Game,
    describe_mods,
)
from games.iron_and_fire.orders import PlaceMine
from games.iron_and_fire.rules import damage_7, scenarios_15
from games.iron_and_fire.state import Mine, Unit


# --- mines (9.0) --------------------------------------------------------------------------
def mine_attack(g: Game, u: Unit, mine: Mine, fow_mod: int) -> None:
    """9.0: turn the Mine counter over; a number attacks with 2d6 plus the counter against the PF."""
    h = Hex(mine.q, mine.r)
    if not mine.value:
        bag = g.s.mine_bag
        known = g.replay_mines.get((mine.q, mine.r))
        if known is not None:  # a Fortunes of War replay: the counter is the one turned over before
            if known in bag:
                bag.remove(known)
            mine.value = known
        else:
            mine.value = bag.pop(g.rng.below(len(bag))) if bag else "None"
        g.mine_draws.append((mine.q, mine.r, mine.value))
    if mine.value == "None":
        g.s.mines.remove(mine)
        g.say(f"{u.name} enters {scene.label(g.s, h)}: the mine counter is turned over: **None**. Removed.", reveals=True)
        return
    n = int(mine.value)
    values, rolled = g.dice(2, 6)
    mods: list[tuple[str, int]] = [("mine counter", n)]
    if fow_mod:
        mods.append(("Fortunes of War", -fow_mod))
    total = rolled + sum(v for _, v in mods)
    head = (
        f"{u.name} enters {scene.label(g.s, h)}: mine counter **{n}**. Mine attack: 2d6 "
        f"[{', '.join(str(v) for v in values)}] = {rolled}{describe_mods(mods)} = {total} vs PF {u.pf}"
    )
    if total < u.pf:
        g.say(f"{head}: no effect.", reveals=True)
        return
    g.s.mines.remove(mine)
    if total > u.pf:
        g.say(f"{head}: greater than PF, the ship **sinks**.", reveals=True)
        damage_7.hit(g, u, u.pf + 1 - u.hits, "mine")
    else:
        hits = 2 if total % 2 == 0 else 3
        g.say(f"{head}: equal to PF ({'even' if hits == 2 else 'odd'}), {hits} hits.", reveals=True)
        damage_7.hit(g, u, hits, "mine")


def place_mine(g: Game, side: str, order: PlaceMine) -> None:
    """9.0 and the scenario's set-up: place one of the rolled number of Mine counters, face down."""
    h = scene.layout(g.s).parse(order.hex)
    scn = scene.scenario(g.s)
    scenarios_15.setup_guard(g.s, side)
    spec = scn.mines
    if spec is None or spec.side != side or (spec.option and not scene.on(g.s, spec.option)):
        raise IllegalOrder(f"{SIDE_NAMES[side]} places no mines in this game.")
    if "mines" not in g.s.rolls_done:
        raise IllegalOrder("Roll for the number of mines first.", hint="Order: roll mines")
    if g.s.mines_to_place <= 0:
        raise IllegalOrder("All mine counters are placed.")
    why = scene.in_zone(g.s, spec.zone, h)
    if why:
        raise IllegalOrder(f"No mine in {quote(scene.label(g.s, h))}: {why}.", hint=f"Zone: {spec.zone.describe()}.")
    if scene.terrain(g.s, h) in scene.LAND:
        raise IllegalOrder(f"No mine on {scene.terrain(g.s, h)} ({scene.label(g.s, h)}).")
    if scene.mine_at(g.s, h) is not None or scene.unit_at(g.s, h) is not None:
        raise IllegalOrder(f"{scene.label(g.s, h)} is taken: one mine to a hex and not under a ship.")
    g.s.mines.append(Mine(h.q, h.r))
    g.s.mines_to_place -= 1
    g.say(f"{SIDE_NAMES[side]} places a face-down mine counter in {scene.label(g.s, h)}.")
