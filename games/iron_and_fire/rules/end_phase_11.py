"""Book section 11, End Phase: victory check, critical repairs, ungrounding, drift, next turn (11.1).
"""

from __future__ import annotations

from games.core.ruleset import Event
from games.iron_and_fire import scene
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.report import say
from games.iron_and_fire.rules import critical_hits_10, damage_7, movement_5, scenarios_15, sequence_3, victory_12
from games.iron_and_fire.state import State


def end_phase(s: State, dice: Dice, events: list[Event]) -> None:
    """11.1 in order: victory, critical repairs, ungrounding, drift, then the next turn."""
    scn = scene.scenario(s)
    s.card, s.card_side, s.acts_left = "", "", 0
    say(events, f"**End Phase** of turn {s.turn}.")
    if victory_12.check_victory(s, events, end_phase=True):
        return
    for u in list(s.units):
        if u.afloat and u.criticals:
            critical_hits_10.repair_criticals(s, dice, events, u)
    for u in s.units:
        if u.afloat and u.grounded and not u.battery:
            movement_5.unground_roll(s, dice, events, u, "End Phase")
    for u in s.units:
        if u.afloat and not u.battery and not u.grounded and damage_7.eff_mp(s, u) == 0 and not u.boarding_with:
            if s.cable is not None and u.id == s.cable_ship and (u.q, u.r) == s.cable and not s.cable_cut:
                continue
            movement_5.drift(s, dice, events, u)
    for u in s.units:
        u.mp_penalty = 0
    if scn.cable is not None and scn.cable.rule == "turns" and not s.cable_cut:
        scenarios_15.cable_turn_check(s, dice, events)
    if victory_12.check_victory(s, events, end_phase=False):
        return
    if s.turns and s.turn >= s.turns:  # 0: no turn limit (scenario 5)
        victory_12.final_result(s, events, f"the last turn ({s.turns}) is over")
        return
    sequence_3.begin_turn(s, dice, events, s.turn + 1)
