"""Book section 6.3, Boarding Combats: approach, rounds, breaking off, capture and prizes.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.core.hexgrid import distance
from games.core.ruleset import Event
from games.iron_and_fire import scene
from games.iron_and_fire.data import SIDE_NAMES
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.orders import Board, BreakOff, Continue, Prepare
from games.iron_and_fire.report import describe_mods, say
from games.iron_and_fire.rules import chilean_honor_13_2, damage_7, sequence_3, victory_12
from games.iron_and_fire.state import LastAction, State, Unit


# --- boarding (6.3) -----------------------------------------------------------------------
def board(s: State, dice: Dice, events: list[Event], side: str, order: Board) -> None:
    """6.3: start a Boarding Combat with an adjacent enemy ship (approach roll), or fight the next round of one."""
    uid, tid = order.unit.id, order.target.id if order.target else None
    u = sequence_3.activation_guard(s, side, uid)
    if u.battery:
        raise IllegalOrder("A land battery cannot board.")
    if tid is None:
        if not u.boarding_with:
            raise IllegalOrder(f"Name the ship {u.name} boards.", hint=f"`{u.name} board <ship>`.")
        tid = u.boarding_with
    t = scene.unit(s, tid)
    if t.battery or not t.afloat or t.controller == side:
        raise IllegalOrder(f"{u.name} can only board an enemy ship in play.")
    if distance(scene.pos(u), scene.pos(t)) != 1:
        raise IllegalOrder(f"{u.name} is not adjacent to {t.name}.")
    if s.cable_ship in (u.id, t.id):
        s.cable_clean = False
    if u.boarding_with == t.id or t.boarding_with == u.id:
        say(events, f"{u.name} fights on in the Boarding Combat with {t.name}.")
        boarding_round(s, dice, events, u, t)
        return
    if u.captured:
        raise IllegalOrder(f"{u.name} is a captured ship: it never starts a Boarding Combat.")
    if u.boarding_with:
        raise IllegalOrder(f"{u.name} is already locked in a Boarding Combat with {scene.unit(s, u.boarding_with).name}.")
    if t.boarding_with and scene.unit(s, t.boarding_with).controller != side:
        raise IllegalOrder(f"{t.name} is already locked in a Boarding Combat with {scene.unit(s, t.boarding_with).name}.")
    # a second friendly ship may board the same target; the strengths never combine (6.3)
    die = dice.d(10)
    head = f"{u.name} attempts to board {t.name}: d10 **{die}** vs PF {t.pf} (needs {t.pf} or less)"
    s.last = LastAction("ram", side, [(u.q, u.r), (t.q, t.r)], "board")
    if die > t.pf:
        say(events, f"{head}: the Boarding Combat does not occur.")
        return
    u.boarding_with = t.id
    if not t.boarding_with:
        t.boarding_with = u.id
    say(events, f"{head}: Boarding Combat! Markers on both ships.")
    boarding_round(s, dice, events, u, t)


def _board_total(s: State, dice: Dice, u: Unit) -> tuple[int, int, str]:
    die = dice.d(6)
    mods: list[tuple[str, int]] = [("PF", u.pf)]
    if "fire" in u.criticals:
        mods.append(("on fire", -1))
    if chilean_honor_13_2.honor_bound(s, u):
        mods.append(("Chilean Honor", -2))
    total = die + sum(v for _, v in mods)
    return die, total, f"{u.name} d6 **{die}**{describe_mods(mods)} = {total}"


def boarding_round(s: State, dice: Dice, events: list[Event], u: Unit, t: Unit) -> None:
    """6.3: one round of Boarding Combat: each side's d6 plus modifiers; the loser takes a hit or is captured."""
    du, tu, text_u = _board_total(s, dice, u)
    dt, tt, text_t = _board_total(s, dice, t)
    head = f"Boarding Combat: {text_u}; {text_t}"
    if tu == tt:
        if du % 2 and dt % 2:
            say(events, f"{head}: tie with both dice odd: both ships take 1 hit.")
            damage_7.hit(s, dice, events, u, 1, "boarding")
            damage_7.hit(s, dice, events, t, 1, "boarding")
        else:
            say(events, f"{head}: tie, inconclusive.")
        decider = "both"  # after a tie either player may declare the action over
    else:
        win, lose = (u, t) if tu > tt else (t, u)
        if abs(tu - tt) >= 2:
            say(events, f"{head}: {win.name} wins by {abs(tu - tt)}: **{lose.name} is captured**.")
            for y in [y for y in s.units if y.boarding_with == lose.id or lose.boarding_with == y.id]:
                damage_7.unlock(s, lose, y)
            lose.boarding_with = ""
            lose.controller = win.controller
            if s.cable_ship == lose.id:
                s.cable_ship = ""
            damage_7.hit(s, dice, events, lose, 1, "captured", win.id)
            return
        say(events, f"{head}: {win.name} wins by 1: 1 hit on {lose.name}.")
        damage_7.hit(s, dice, events, lose, 1, "boarding", win.id)
        decider = win.controller
    if u.afloat and t.afloat and (u.boarding_with == t.id or t.boarding_with == u.id):
        s.phase = "boarding"
        s.decider = decider
        s.boarding_pair = [u.id, t.id]
        who = "Either side" if decider == "both" else SIDE_NAMES[decider]
        say(events, f"{who} decides: `continue` the Boarding Combat next activation, or `break off`.")


def boarding_decision(s: State, events: list[Event], side: str, order: Continue | BreakOff) -> None:
    """6.3: after a round, ``continue`` fights on and ``break off`` ends the Boarding Combat."""
    keep = isinstance(order, Continue)
    if s.phase != "boarding":
        raise WrongPhase("There is no Boarding Combat decision to make now.")
    if s.decider not in (side, "both"):
        raise NotYourTurn(f"{SIDE_NAMES[s.decider]} decides about the Boarding Combat.")
    a, b = (scene.unit(s, x) for x in s.boarding_pair)
    s.phase = "activations"
    s.decider = ""
    s.boarding_pair = []
    if keep:
        say(events, f"{SIDE_NAMES[side]} continues the Boarding Combat between {a.name} and {b.name}: the markers stay.")
    else:
        damage_7.unlock(s, a, b)
        say(events, f"{SIDE_NAMES[side]} breaks off the Boarding Combat between {a.name} and {b.name}: markers removed.")
    victory_12.check_victory(s, events, end_phase=False)


def prepare_prize(s: State, events: list[Event], side: str, order: Prepare) -> None:
    """6.3: a captured ship moves only on the second of two consecutive activations; this is the first."""
    uid = order.unit.id
    u = sequence_3.activation_guard(s, side, uid)
    if not u.captured:
        raise IllegalOrder(f"{u.name} is not a captured ship; it moves normally.")
    s.prize_ready[side] = u.id
    say(events, f"The prize crew readies {u.name} (first of two consecutive activations to move it).")
    s.last = LastAction()
