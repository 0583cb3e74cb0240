"""Book section 12, Victory Points and Winning the Game: scenario objectives and victory points.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core.ruleset import Event
from games.iron_and_fire import scene
from games.iron_and_fire.data import IRONCLAD_TYPES, SIDE_NAMES, SIDES
from games.iron_and_fire.report import reveal, say
from games.iron_and_fire.rules import damage_7
from games.iron_and_fire.state import State, Unit


# ==========================================================================================
# Victory (12.0, 15.x)
# ==========================================================================================
def lost(s: State, side: str) -> list[Unit]:
    """``side``'s own ships sunk or captured (exited ships are not lost)."""
    return [u for u in s.units if u.side == side and not u.battery and (u.status == "sunk" or (u.status != "waiting" and u.captured))]


def final_result(s: State, events: list[Event], why: str, *, turn_limit: bool = True) -> None:
    """The scenario's end-of-game conditions, else victory points (12.0).

    ``turn_limit`` is False when the game ends because a side has nothing left in play.
    Scenario 2 at its (house) turn limit goes to victory points by the rulings ("12 turns,
    then victory points"); option ``s2_end=draw`` keeps 15.3.4's "any other result is a draw".
    A game without a last turn (scenario 5, 15.6.5) never reaches 12.0's "by the end of the
    scenario's last turn": it ends a draw when neither side has met its condition.
    """
    scn = scene.scenario(s)
    v = scn.victory
    peru_lost, chile_lost = len(lost(s, "peru")), len(lost(s, "chile"))
    if not s.turns:
        finish(s, events, None, f"{why}, and this scenario has no last turn at which to count victory points (12.0).")
        return
    if v == "s2" and (not turn_limit or scene.opt(s, "s2_end") == "draw"):
        finish(s, events, None, f"Draw: {why} without either side achieving its objective.")
        return
    if v == "s3":
        if chile_lost != peru_lost:
            winner = "peru" if chile_lost > peru_lost else "chile"
            finish(s, events, winner, f"{SIDE_NAMES[winner]} sank or captured more ships ({max(chile_lost, peru_lost)} to {min(chile_lost, peru_lost)}); {why}.")
        elif s.cable_cut and peru_lost == 0:
            finish(s, events, "peru", f"Peru cut the cable and lost no ships; {why}.")
        else:
            finish(s, events, None, f"Draw: {why}, ships lost {peru_lost} each side and no cable victory.")
        return
    if v == "s4" and peru_lost > chile_lost:
        finish(s, events, "chile", f"Chile sank or captured more ships than it lost ({peru_lost} to {chile_lost}); {why}.")
        return
    victory_points(s, events, why)


def vp(s: State, side: str) -> tuple[int, list[str]]:
    """12.0: a side's victory points and the lines that explain them."""
    points = 0
    lines: list[str] = []
    for u in s.units:
        if u.battery:
            if side == "peru" and u.side == "chile" and u.status == "surrendered":
                points += 5
                lines.append(f"{u.name} surrendered: 5")
            continue
        if u.side == side or u.status == "waiting":
            continue
        mult = 3 if u.type in IRONCLAD_TYPES else 2
        if u.status == "sunk" or u.captured or (u.afloat and u.grounded):
            state = "sunk" if u.status == "sunk" else "captured" if u.captured else "grounded"
            points += mult * u.pf
            lines.append(f"{u.name} {state}: {mult} x PF {u.pf} = {mult * u.pf}")
        elif u.afloat and damage_7.crippled(s, u):
            points += u.pf
            lines.append(f"{u.name} crippled: PF {u.pf}")
    return points, lines


def victory_points(s: State, events: list[Event], why: str) -> None:
    """12.0: at the last turn without a scenario winner, the side with more victory points wins (Peru on a tie)."""
    pv, plines = vp(s, "peru")
    cv, clines = vp(s, "chile")
    details = [f"Peru {pv} VP: " + ("; ".join(plines) or "none"), f"Chile {cv} VP: " + ("; ".join(clines) or "none")]
    winner = "peru" if pv >= cv else "chile"
    tie = " (a tie goes to Peru)" if pv == cv else ""
    finish(s, events, winner, f"{why}: victory points Peru {pv}, Chile {cv}{tie}.", details)


def finish(s: State, events: list[Event], winner: str | None, reason: str, details: list[str] | None = None) -> None:
    """End the game with a winner (or a draw), a reason and the details shown with the result."""
    s.phase = "over"
    s.result_winner = winner or ""
    s.result_reason = reason
    s.result_details = list(details or [])
    s.card, s.card_side, s.acts_left, s.decider = "", "", 0, ""
    who = f"**{SIDE_NAMES[winner]} wins**" if winner else "**Draw**"
    say(events, f"Game over. {who}: {reason}")
    for detail in s.result_details:
        say(events, detail)
    for sec in s.secrets:
        if not sec.revealed:
            reveal(s, events, sec.key)


def side_can_act(s: State, side: str) -> bool:
    """Whether ``side`` has any unit left in play (a card of a side with none is passed over, 4.1;
    a side with none left loses, 12)."""
    return any(u.afloat and u.controller == side for u in s.units)


def check_victory(s: State, events: list[Event], *, end_phase: bool) -> bool:
    """Scenario conditions that can happen now (15.x victory); True if the game ended."""
    scn = scene.scenario(s)
    if s.phase == "over":
        return True
    if s.phase in ("setup",):
        return False
    check = SCENARIO_CHECKS.get(scn.victory)
    if check is not None and check(s, events, {u.id: u for u in s.units}, end_phase):
        return True
    for side in SIDES:
        waiting = any(u.status == "waiting" and u.controller == side and u.arrive_turn >= s.turn for u in s.units)
        other = next(x for x in SIDES if x != side)
        if not s.turns and side_can_act(s, other):
            continue  # no turn limit (scenario 5): play goes on to the scenario's own ending, or /game end
        if not waiting and not side_can_act(s, side):
            final_result(s, events, f"{SIDE_NAMES[side]} has no units left in play", turn_limit=False)
            return True
    return False


def _gone(units: dict[str, Unit], uid: str) -> bool:
    """Sunk, or captured once in play."""
    x = units.get(uid)
    return x is not None and (x.status == "sunk" or (x.status != "waiting" and x.captured))


def _fate(u: Unit) -> str:
    return "sunk" if u.status == "sunk" else "captured"


def _s1_won(s: State, events: list[Event], units: dict[str, Unit], end_phase: bool) -> bool:
    """Scenario 1 (15.2): the Esmeralda or the Huáscar sunk or captured, or the Esmeralda's exit."""
    for uid, winner in (("esmeralda", "peru"), ("huascar", "chile")):
        if _gone(units, uid):
            finish(s, events, winner, f"the {units[uid].name} was {_fate(units[uid])}.")
            return True
    e = units["esmeralda"]
    if e.status == "exited" and e.exit_edge != "drift":
        winner = "chile" if e.exit_edge == "south" else "peru"
        finish(s, events, winner, f"the Esmeralda left the map by the {e.exit_edge} edge.")
        return True
    return False


def _s2_won(s: State, events: list[Event], units: dict[str, Unit], end_phase: bool) -> bool:
    """Scenario 2 (15.3): either ship sunk or captured, or the Covadonga's escape, not crippled."""
    c, i = units["covadonga"], units["independencia"]
    if _gone(units, "covadonga"):
        finish(s, events, "peru", f"the Covadonga was {_fate(c)}.")
        return True
    if _gone(units, "independencia"):
        finish(s, events, "chile", f"the Independencia was {_fate(i)}.")
        return True
    if c.status == "exited" and c.exit_hex in ("2813", "2912") and c.exit_edge != "drift" and not damage_7.crippled(s, c):
        finish(s, events, "chile", f"the Covadonga escaped from {c.exit_hex}, not crippled.")
        return True
    return False


def _s4_won(s: State, events: list[Event], units: dict[str, Unit], end_phase: bool) -> bool:
    """Scenario 4 (15.5): a Chilean ship leaving, the Huáscar lost, or the bombardment achieved."""
    scn = scene.scenario(s)
    for u in s.units:
        if u.side == "chile" and u.status == "exited":
            finish(s, events, "peru", f"the {u.name} left the map.")
            return True
    if _gone(units, "huascar"):
        finish(s, events, "chile", "the Huáscar was sunk or captured.")
        return True
    if end_phase and s.bombard_hits >= scn.bombard_target and len(lost(s, "chile")) > len(lost(s, "peru")) and not _gone(units, "huascar"):
        finish(s, events, "peru", f"{s.bombard_hits} bombardment hits on Antofagasta, more ships sunk than lost, and the Huáscar not sunk.")
        return True
    return False


def _s5_won(s: State, events: list[Event], units: dict[str, Unit], end_phase: bool) -> bool:
    """Scenario 5 (15.6): all ironclads lost (a draw, checked first), the heroes lost, or their escape with enough kills."""
    survives = scene.opt(s, "independencia") == "survives"
    heroes = ["huascar", "independencia"] if survives else ["huascar"]
    # the draw first: the Huáscar is an ironclad, so Chile's win would otherwise always
    # pre-empt "all ironclads sunk or captured" and the clause could never apply
    ironclads = [u for u in s.units if u.type in IRONCLAD_TYPES and (u.status != "waiting")]
    waiting_ironclads = [u for u in s.units if u.type in IRONCLAD_TYPES and u.status == "waiting" and u.arrive_turn]
    if ironclads and not waiting_ironclads and all(_gone(units, u.id) for u in ironclads):
        finish(s, events, None, "all ironclads were sunk or captured.")
        return True
    if all(_gone(units, h) for h in heroes):
        finish(s, events, "chile", " and ".join(units[h].name for h in heroes) + (" were" if len(heroes) > 1 else " was") + " sunk or captured.")
        return True
    kills = sum(1 for u in s.units if u.side == "chile" and u.status == "sunk" and u.sunk_by in heroes)
    need = 3 if survives else 2
    if kills >= need and all(_escaped(s, units[h]) for h in heroes):
        finish(s, events, "peru", f"{kills} Chilean ships sunk and " + " and ".join(units[h].name for h in heroes) + " escaped by 1101/1201.")
        return True
    out = [units[h] for h in heroes if units[h].status == "exited"]
    if out and not _s5_peru_can_win(s, units, heroes, kills, need):
        # a ship off the map can be neither sunk nor captured (Chile's condition, and the draw's
        # "all ironclads"), and Peru's condition can no longer be met: nothing can decide the game
        names = " and ".join(f"the {u.name}" for u in out)
        who = " and ".join(f"the {units[h].name}" for h in heroes)
        finish(s, events, None, f"{names} left the map and Peru can no longer meet its condition ({who} to sink {need} "
                                f"Chilean ships, leave by 1101 or 1201 and not be crippled; {kills} sunk); a ship off the "
                                f"map cannot be sunk or captured, so Chile cannot win either (15.6.5).")
        return True
    return False


def _escaped(s: State, u: Unit) -> bool:
    """15.6.3, 15.6.5: moved off the north edge at 1101 or 1201 (drifting off is no exit), not crippled."""
    return u.status == "exited" and u.exit_hex in ("1101", "1201") and u.exit_edge != "drift" and not damage_7.crippled(s, u)


def _s5_peru_can_win(s: State, units: dict[str, Unit], heroes: list[str], kills: int, need: int) -> bool:
    """Whether Peru's scenario 5 condition can still be met: no hero lost or out the wrong way, one
    still on the map, and enough Chilean ships left to make up the kills."""
    if any(_gone(units, h) for h in heroes):
        return False
    if any(units[h].status == "exited" and not _escaped(s, units[h]) for h in heroes):
        return False
    if all(units[h].status == "exited" for h in heroes):
        return False
    to_sink = sum(1 for u in s.units if u.side == "chile" and not u.battery and (u.afloat or u.status == "waiting"))
    return kills + to_sink >= need


SCENARIO_CHECKS: dict[str, Callable[[State, list[Event], dict[str, Unit], bool], bool]] = {
    "s1": _s1_won, "s2": _s2_won, "s4": _s4_won, "s5": _s5_won,
}
