"""Book section 9, Mines: counters turned over when a ship enters, the 2d6 mine attack, and
placing them in set-up.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder, quote
from games.core.hexgrid import Hex
from games.core.ruleset import Event
from games.iron_and_fire import scene
from games.iron_and_fire.data import SIDE_NAMES
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.orders import PlaceMine
from games.iron_and_fire.report import describe_mods, say
from games.iron_and_fire.rules import damage_7, scenarios_15
from games.iron_and_fire.state import Mine, State, Unit


# --- mines (9.0) --------------------------------------------------------------------------
def mine_attack(s: State, dice: Dice, events: list[Event], u: Unit, mine: Mine, fow_mod: int) -> None:
    """9.0: turn the Mine counter over; a number attacks with 2d6 plus the counter against the PF."""
    h = Hex(mine.q, mine.r)
    if not mine.value:
        mine.value = dice.mine_counter(s.mine_bag, mine.q, mine.r)
    if mine.value == "None":
        s.mines.remove(mine)
        say(events, f"{u.name} enters {scene.label(s, h)}: the mine counter is turned over: **None**. Removed.", reveals=True)
        return
    n = int(mine.value)
    values, rolled = dice.roll(2, 6)
    mods: list[tuple[str, int]] = [("mine counter", n)]
    if fow_mod:
        mods.append(("Fortunes of War", -fow_mod))
    total = rolled + sum(v for _, v in mods)
    head = (
        f"{u.name} enters {scene.label(s, h)}: mine counter **{n}**. Mine attack: 2d6 "
        f"[{', '.join(str(v) for v in values)}] = {rolled}{describe_mods(mods)} = {total} vs PF {u.pf}"
    )
    if total < u.pf:
        say(events, f"{head}: no effect.", reveals=True)
        return
    s.mines.remove(mine)
    if total > u.pf:
        say(events, f"{head}: greater than PF, the ship **sinks**.", reveals=True)
        damage_7.hit(s, dice, events, u, u.pf + 1 - u.hits, "mine")
    else:
        hits = 2 if total % 2 == 0 else 3
        say(events, f"{head}: equal to PF ({'even' if hits == 2 else 'odd'}), {hits} hits.", reveals=True)
        damage_7.hit(s, dice, events, u, hits, "mine")


def place_mine(s: State, events: list[Event], side: str, order: PlaceMine) -> None:
    """9.0 and the scenario's set-up: place one of the rolled number of Mine counters, face down."""
    h = scene.layout(s).parse(order.hex)
    scn = scene.scenario(s)
    scenarios_15.setup_guard(s, side)
    spec = scn.mines
    if spec is None or spec.side != side or (spec.option and not scene.on(s, spec.option)):
        raise IllegalOrder(f"{SIDE_NAMES[side]} places no mines in this game.")
    if "mines" not in s.rolls_done:
        raise IllegalOrder("Roll for the number of mines first.", hint="Order: roll mines")
    if s.mines_to_place <= 0:
        raise IllegalOrder("All mine counters are placed.")
    why = scene.in_zone(s, spec.zone, h)
    if why:
        raise IllegalOrder(f"No mine in {quote(scene.label(s, h))}: {why}.", hint=f"Zone: {spec.zone.describe()}.")
    if scene.terrain(s, h) in scene.LAND:
        raise IllegalOrder(f"No mine on {scene.terrain(s, h)} ({scene.label(s, h)}).")
    if scene.mine_at(s, h) is not None or scene.unit_at(s, h) is not None:
        raise IllegalOrder(f"{scene.label(s, h)} is taken: one mine to a hex and not under a ship.")
    s.mines.append(Mine(h.q, h.r))
    s.mines_to_place -= 1
    say(events, f"{SIDE_NAMES[side]} places a face-down mine counter in {scene.label(s, h)}.")
