"""Book section 5, Movement: F/P/S steps at 1 MP each (5.0), shoals and shallow water (5.1),
grounding (5.2), ungrounding (5.3), drift (5.4) and prohibited movement (5.5).
"""

from __future__ import annotations

from typing import NamedTuple

from games.core.errors import IllegalOrder
from games.core.hexgrid import Hex
from games.core.ruleset import Event
from games.iron_and_fire import scene
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.orders import Move, MoveRam, Ram, Unground
from games.iron_and_fire.report import describe_mods, say
from games.iron_and_fire.rules import (
    chilean_honor_13_2,
    damage_7,
    fortunes_of_war_13_1,
    mines_9,
    sequence_3,
)
from games.iron_and_fire.state import LastAction, State, Unit


class RamRun(NamedTuple):
    """A ram that ends a move (6.2), carried out by ``ramming_6_2.ram`` once the move is done."""

    target: Unit
    mp_used: int
    fow_mod: int
    hexes: int


# --- grounding (5.1, 5.2, 15.3.3) ---------------------------------------------------------
def grounding_check(s: State, dice: Dice, events: list[Event], u: Unit, mp_used: int, why: str, hexes: int = 0) -> bool:
    """Roll for grounding; return True if the ship grounds (and stops).

    ``mp_used`` feeds 5.1's "+1 if the ship uses 2 MP"; ``hexes`` (hexes entered this
    activation) feeds 15.3.3's "+1: ship moving two or more hexes".
    """
    scn = scene.scenario(s)
    if scn.shoal_table:
        return _shoal_table(s, dice, events, u, hexes, why)
    die = dice.d(10)
    mods: list[tuple[str, int]] = []
    if mp_used >= 2:
        mods.append(("2nd MP", 1))
    if u.hits >= 2:
        mods.append((f"{u.hits} hits", u.hits // 2))
    if u.criticals:
        mods.append(("criticals", len(u.criticals)))
    if scene.on(s, "visibility") and s.turn >= 7:
        mods.append(("low visibility", 1))
    total = die + sum(v for _, v in mods)
    head = f"Grounding check for {u.name} ({why}): d10 **{die}**{describe_mods(mods)} = {total} vs PF {u.pf}"
    if total < u.pf:
        say(events, f"{head}: clear.")
        return False
    u.grounded = True
    if total >= 2 * u.pf:
        say(events, f"{head} (twice PF {2 * u.pf}): **grounded** and 1 hit.")
        damage_7.hit(s, dice, events, u, 1, "grounding")
    else:
        say(events, f"{head}: **grounded**.")
    return True


def _shoal_table(s: State, dice: Dice, events: list[Event], u: Unit, hexes: int, why: str) -> bool:
    die = dice.d(6)
    mods: list[tuple[str, int]] = []
    if u.id == "independencia":
        mods.append(("Independencia", 1))
    if hexes >= 2:
        mods.append(("moving two or more hexes", 1))
    if "bridge" in u.criticals:
        mods.append(("Bridge critical", 1))
    if "steering" in u.criticals:
        mods.append(("Rudder critical", 1))
    total = die + sum(v for _, v in mods)
    head = f"Shoals check for {u.name} ({why}, 15.3.3): d6 **{die}**{describe_mods(mods)} = {total} vs 5"
    if total < 5:
        say(events, f"{head}: clear.")
        return False
    u.grounded = True
    n = sum(v for _, v in mods)
    say(events, f"{head}: **aground**, {n} hit{'s' if n != 1 else ''} (one per modifier).")
    damage_7.hit(s, dice, events, u, n, "grounding on the shoals")
    return True


def unground_roll(s: State, dice: Dice, events: list[Event], u: Unit, when: str) -> None:
    """5.3: d10 + modifiers below PF frees the ship; twice PF adds a hit (ruling)."""
    die = dice.d(10)
    mods: list[tuple[str, int]] = []
    if u.hits >= 2:
        mods.append((f"{u.hits} hits", u.hits // 2))
    if u.criticals:
        mods.append(("criticals", len(u.criticals)))
    if damage_7.crippled(s, u):
        mods.append(("crippled", 1))
    total = die + sum(v for _, v in mods)
    head = f"{u.name} tries to unground ({when}): d10 **{die}**{describe_mods(mods)} = {total} vs PF {u.pf}"
    if total < u.pf:
        u.grounded = False
        say(events, f"{head}: **afloat** again.")
    elif total >= 2 * u.pf:
        say(events, f"{head} (twice PF {2 * u.pf}): stays grounded and takes 1 hit.")
        damage_7.hit(s, dice, events, u, 1, "grounding")
    else:
        say(events, f"{head}: stays grounded.")


def drift(s: State, dice: Dice, events: list[Event], u: Unit) -> None:
    """5.4: one hex with the current, no facing change."""
    scn = scene.scenario(s)
    direction = scene.dir_of(s, scn.current)
    target = scene.layout(s).neighbour(scene.pos(u), direction)
    if not scene.layout(s).on_map(target):
        u.status = "sunk"  # eliminated (5.4): counts as lost, never as an exit
        damage_7.break_boarding(s, u)
        say(events, f"{u.name} drifts off the map and is eliminated (counted as sunk).")
        return
    terrain = scene.terrain(s, target)
    if scene.unit_at(s, target) is not None and terrain not in scene.LAND:  # a battery's hex is still land
        say(events, f"{u.name} would drift into {scene.label(s, target)} but it is occupied: stays put.")
        return
    if terrain in scene.LAND:
        u.grounded = True
        say(events, f"{u.name} drifts onto the {terrain} at {scene.label(s, target)}: grounded in its hex and 2 hits.")
        damage_7.hit(s, dice, events, u, 2, "drifting onto land")
        return
    u.q, u.r = target.q, target.r
    say(events, f"{u.name} drifts to {scene.label(s, target)}.")
    if terrain in scene.WATER_SHALLOW:
        u.grounded = True
        say(events, f"{u.name} drifts into {terrain} water: automatically grounded.")
    mine = scene.mine_at(s, target)
    if mine is not None and u.afloat:
        mines_9.mine_attack(s, dice, events, u, mine, 0)


# --- movement (5.0) -----------------------------------------------------------------------
def plan_path(s: State, u: Unit, steps: list[str]) -> tuple[list[Hex], int, bool]:
    """Validate a path without dice: returns (hexes entered, final facing, leaves map)."""
    h, facing = scene.pos(u), u.facing
    entered: list[Hex] = []
    for i, step in enumerate(steps):
        if step == "P":
            facing = (facing - 1) % 6
        elif step == "S":
            facing = (facing + 1) % 6
        else:
            nxt = scene.layout(s).neighbour(h, facing)
            if not scene.layout(s).on_map(nxt):
                if i != len(steps) - 1:
                    raise IllegalOrder(f"{u.name} leaves the map at step {i + 1}; nothing can follow.", hint="End the order with the F that leaves the map.")
                return entered, facing, True
            if scene.terrain(s, nxt) in scene.LAND:
                raise IllegalOrder(f"{u.name} cannot enter {scene.label(s, nxt)}: it is {scene.terrain(s, nxt)} (step {i + 1}).")
            occupant = scene.unit_at(s, nxt)
            if occupant is not None:
                raise IllegalOrder(f"{u.name} cannot enter {scene.label(s, nxt)}: {occupant.name} is there (no stacking, step {i + 1}).")
            h = nxt
            entered.append(h)
    return entered, facing, False


def move(s: State, dice: Dice, events: list[Event], side: str, order: Move | MoveRam | Ram) -> RamRun | None:
    """5.0: move by F/P/S steps at 1 MP each, with the checks of 5.1-5.5, mines (9) and Chilean Honor (13.2); ``ram`` rams the ship ahead at the end (6.2)."""
    uid, steps, ram_target, ram, fow = _move_parts(order)
    u = sequence_3.activation_guard(s, side, uid)
    _refuse_to_move(s, u, side, ram)
    slow = _check_mp(s, u, len(steps) + (1 if ram else 0))
    entered, final_facing, leaves = plan_path(s, u, steps)
    target = _ram_target(s, u, side, entered, final_facing, leaves, ram_target) if ram else None
    if chilean_honor_13_2.honor_bound(s, u) and not ram:
        chilean_honor_13_2.honor_check(s, u, entered)
    if fow:
        fortunes_of_war_13_1.fow_check(s, side)
    # --- carry it out
    if s.cable_ship == u.id:
        s.cable_clean = False
        if slow and steps:
            s.cable_slow = False
    if u.captured:
        s.prize_ready.pop(side, None)
    fow_mod = 0
    if fow:
        fow_mod = 2 if fortunes_of_war_13_1.fow_use(s, events, side, "a bonus on this movement's ram or mine attack") else 1
    start = scene.pos(u)
    path: list[tuple[int, int]] = [(start.q, start.r)]
    if not _bridge_lets_it_move(s, dice, events, u, side, path):
        return None
    taken: list[str] = []
    mp_used = 0
    stopped = ""
    for step in steps:
        mp_used += 1
        if step in ("P", "S"):
            stopped = _turn(dice, events, u, step)
            if stopped:
                break
            taken.append(step)
            continue
        taken.append(step)
        stopped = _step_forward(s, dice, events, u, side, taken, path, mp_used, fow_mod)
        if stopped == "exit":
            return None
        if stopped:
            break
    _report(s, events, u, taken, bool(steps), stopped)
    s.last = LastAction("path", side, path, "")
    if ram and not stopped and u.afloat and target is not None and target.afloat:
        return RamRun(target, mp_used + 1, fow_mod, len(path) - 1)
    return None


def _move_parts(order: Move | MoveRam | Ram) -> tuple[str, list[str], str | None, bool, bool]:
    """The unit, steps, named ram target, whether it rams, and the Fortunes of War flag of a move order."""
    match order:
        case Move(unit=u, steps=steps, ram=ram, fow=fow):
            return u.id, list(steps), None, ram, fow
        case MoveRam(unit=u, steps=steps, target=target, fow=fow):
            return u.id, list(steps), target.id, True, fow
        case Ram(unit=u, target=target, fow=fow):
            return u.id, [], target.id if target else None, True, fow


def _refuse_to_move(s: State, u: Unit, side: str, ram: bool) -> None:
    """5.5 and 6.3: batteries, ships locked in a Boarding Combat, grounded ships and unprepared prizes do not move."""
    if u.battery:
        raise IllegalOrder(f"{u.name} is a land battery: it never moves.")
    if u.boarding_with:
        raise IllegalOrder(f"{u.name} is locked in a Boarding Combat: it cannot move or ram.")
    if u.grounded:
        raise IllegalOrder(f"{u.name} is grounded and cannot move.", hint=f"Try `{u.name} unground`.")
    if u.captured and ram:
        raise IllegalOrder(f"{u.name} is a captured ship: it never rams.")
    if u.captured and not (s.prize_ready.get(side) == u.id and s.last_friendly.get(side) == u.id):
        raise IllegalOrder(f"{u.name} is a prize: moving it needs two consecutive activations.", hint=f"First `{u.name} prepare`, then move it on your next activation.")


def _check_mp(s: State, u: Unit, need: int) -> bool:
    """The order fits the ship's MP (7.1; 1 MP on the first move after cutting the cable in
    Scenario 4). True when that cable limit applies."""
    mp = damage_7.eff_mp(s, u)
    slow = s.cable_slow and s.cable_ship == u.id
    if slow:
        mp = min(mp, 1)
    if need == 0:
        raise IllegalOrder(f"{u.name}: the move has no steps.", hint="Steps are F (forward), P (port), S (starboard), e.g. `move F F P F`.")
    if need > mp:
        why = " (first move after cutting the cable)" if slow else ""
        raise IllegalOrder(f"{u.name} has {mp} MP{why} this activation; that order needs {need}.")
    return slow


def _ram_target(s: State, u: Unit, side: str, entered: list[Hex], facing: int, leaves: bool, named: str | None) -> Unit:
    """6.2: the enemy ship the bow will point at after the steps (the one named, if named)."""
    if leaves:
        raise IllegalOrder("A ship that leaves the map cannot ram.")
    ahead = scene.layout(s).neighbour(entered[-1] if entered else scene.pos(u), facing)
    target = scene.unit_at(s, ahead)
    if target is None or target.battery or target.controller == side:
        raise IllegalOrder(f"{u.name}'s bow would not point at an adjacent enemy ship ({scene.label(s, ahead) if scene.layout(s).on_map(ahead) else 'off the map'}).", hint="Ram needs the bow on an adjacent enemy ship.")
    if named and target.id != named:
        raise IllegalOrder(f"{u.name}'s bow would point at {target.name}, not {scene.unit(s, named).name}.")
    return target


def _bridge_lets_it_move(s: State, dice: Dice, events: list[Event], u: Unit, side: str, path: list[tuple[int, int]]) -> bool:
    """10.0 Bridge Hit: a d6 on every movement action; even clears it, odd spends the activation."""
    if "bridge" not in u.criticals:
        return True
    die = dice.d(6)
    if die % 2 == 0:
        u.criticals.remove("bridge")
        say(events, f"{u.name} (Bridge critical): d6 **{die}**, even: the Bridge hit is cleared; the ship moves normally.")
        return True
    say(events, f"{u.name} (Bridge critical): d6 **{die}**, odd: the ship cannot move. The activation is spent.")
    s.last = LastAction("path", side, path, "bridge hit")
    return False


def _turn(dice: Dice, events: list[Event], u: Unit, step: str) -> str:
    """One P/S step (5.0); 10.0 Steering Hit: a d6 per turn, odd fails and ends the move (the reason)."""
    if "steering" in u.criticals:
        die = dice.d(6)
        if die % 2:
            return f"Steering critical: d6 **{die}**, odd: the turn fails and the activation is spent"
        say(events, f"{u.name} (Steering critical): d6 **{die}**, even: makes the turn.")
    u.facing = (u.facing + (1 if step == "S" else -1)) % 6
    return ""


def _step_forward(s: State, dice: Dice, events: list[Event], u: Unit, side: str, taken: list[str], path: list[tuple[int, int]], mp_used: int, fow_mod: int) -> str:
    """One F step (5.0): off the map ("exit"), shallow water (5.1, 5.2: "grounded"), a Mine
    counter (9.0: "sunk" if it sinks), else ""."""
    nxt = scene.layout(s).neighbour(scene.pos(u), u.facing)
    if not scene.layout(s).on_map(nxt):
        u.status = "exited"
        u.exit_hex = scene.label(s, scene.pos(u))
        u.exit_edge = scene.edge_of(s, nxt)
        say(events, f"{u.name} moves {' '.join(taken)} and leaves the map by the {u.exit_edge} edge from {u.exit_hex}: out of play.")
        s.last = LastAction("path", side, path, "exit")
        return "exit"
    u.q, u.r = nxt.q, nxt.r
    path.append((nxt.q, nxt.r))
    stopped = ""
    terrain = scene.terrain(s, nxt)
    if terrain in scene.WATER_SHALLOW:
        say(events, f"{u.name} enters {terrain} water at {scene.label(s, nxt)}.")
        if grounding_check(s, dice, events, u, mp_used, f"entering {scene.label(s, nxt)}", len(path) - 1):
            stopped = "grounded"
    mine = scene.mine_at(s, nxt)
    if mine is not None and u.afloat:  # a ship grounding in a mined hex has entered it (9.0)
        mines_9.mine_attack(s, dice, events, u, mine, fow_mod)
    if not u.afloat:
        stopped = "sunk"
    return stopped


def _report(s: State, events: list[Event], u: Unit, taken: list[str], had_steps: bool, stopped: str) -> None:
    """Say where the move ended (a ram from where the ship lies needs no move report)."""
    dest = scene.label(s, scene.pos(u))
    moved = " ".join(taken) if taken else "nothing"
    if stopped and stopped.startswith("Steering"):
        say(events, f"{u.name} moves {moved}: {stopped}. Now in {dest} facing {scene.printed(s, u.facing)}.")
    elif u.afloat and (had_steps or stopped):
        rest = f" (stopped: {stopped})" if stopped else ""
        say(events, f"{u.name} moves {moved}{rest}: now in {dest} facing {scene.printed(s, u.facing)}.")


def unground(s: State, dice: Dice, events: list[Event], side: str, order: Unground) -> None:
    """5.3: spend an activation on an ungrounding roll."""
    uid = order.unit.id
    u = sequence_3.activation_guard(s, side, uid)
    if not u.grounded:
        raise IllegalOrder(f"{u.name} is not grounded.")
    unground_roll(s, dice, events, u, "activation")
    s.last = LastAction()


def step_sequences(mp: int) -> list[str]:
    """Every sequence of 1 to ``mp`` steps F/P/S (section 5.0: one MP each), shortest first."""
    seqs: list[str] = [""]
    for _ in range(mp):
        seqs = seqs + [q + c for q in seqs for c in "FPS" if len(q) < mp]
    seen: set[str] = set()
    out: list[str] = []
    for seq in seqs:
        if seq and seq not in seen:
            seen.add(seq)
            out.append(seq)
    return out
