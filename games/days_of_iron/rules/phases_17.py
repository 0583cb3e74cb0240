"""Book section 17 (phases of play): set-up, then turns of Initiative (17.1), Morale (17.2), Shooting
(17.3), Movement (17.4) and Close Assault (17.5); in each phase the initiative side acts first and
says `next`, then the other. It says who acts now, guards who may give which order when (the one
activation check), and lists the orders a seat may give."""

from __future__ import annotations

import math
from typing import Literal

from games.core.errors import NotAllowed, NotYourTurn, WrongPhase, quote
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, public
from games.days_of_iron.orders import (
    Attach,
    Cancel,
    Charge,
    ChargeHome,
    Check,
    Detach,
    Dismount,
    Dispute,
    DoiOrder,
    End,
    Face,
    Fate,
    Fire,
    Form,
    Fortify,
    Initiative,
    Loss,
    Measure,
    Mount,
    Move,
    Next,
    Objective,
    Offboard,
    Promote,
    Rally,
    Ready,
    Reveal,
    Scout,
    Staff,
)
from games.days_of_iron.rules import (
    charges_17_2,
    close_assault_17_5,
    deployment_16,
    engineers_11,
    fires_15_9,
    formations_12,
    morale_17_2,
    movement_17_4,
    reference_sheets_17,
    routing_17_4_14,
    scouting_19_1,
    seen_fire_17_3,
    shooting_17_3,
    squadrons_17_2_6,
    victory_18,
)
from games.days_of_iron.state import (
    CAPTURED,
    HIDDEN,
    INITIATIVE,
    KILLED,
    OFF_BOARD,
    ON_TABLE,
    OVER,
    ROUTING,
    SETUP,
    STAFF,
    STEPS,
    TURN,
    State,
    Unit,
)

FORM_WORDS: tuple[Literal["column", "march", "line", "skirmish", "square"], ...] = (
    "column", "march", "line", "skirmish", "square")
SET_UP = ("staff", "hide", "offboard", "cancel", "scout", "ready")
DEFAULT_WHERE = "as marked on the deployment map"


def to_act(state: State) -> list[str]:
    """Who must act (17): sides not yet ready in the set-up, both sides for the initiative, then the
    side whose part of the phase it is."""
    if state.phase == SETUP:
        return [s.id for s in state.sides if not s.ready]
    if state.phase == INITIATIVE:
        return [s.id for s in state.sides]
    if state.phase == TURN:
        return [state.acting_side()]
    return []


def check_acting(state: State, seat: str) -> None:
    """Rolls and records that concern both sides belong to whoever acts now in the phase (17), or the umpire."""
    acting = to_act(state)
    if seat != UMPIRE and seat not in acting:
        names = " and ".join(state.side_name(s) for s in acting)
        raise NotYourTurn(f"the {names} act now.", hint="Raise it in your own part of the phase, or ask the umpire.")


def guard(state: State, seat: str, verb: str, text: str) -> None:
    """May this seat give an order of this verb now (16 set-up, 17 phases)? Checked before the order is read, so a
    refusal says what is wrong with the moment, not with the spelling."""
    if state.phase == OVER:
        raise WrongPhase("the game is over; nothing changes.")
    if seat != UMPIRE and seat not in {s.id for s in state.sides}:
        raise NotAllowed(f"seat {quote(seat)} is not in this game.")
    if verb in ("dispute", "check"):
        check_acting(state, seat)
    elif verb in SET_UP:
        if state.phase != SETUP:
            raise WrongPhase(f"{quote(text)}: `{verb}` belongs to the set-up, which is over.")
        if verb == "scout":
            scouting_19_1.check_scouting_on(state)
    elif state.phase == SETUP and not (verb == "form" and formations_12.measured(state)):  # 16.2: set out in march column
        raise WrongPhase("the battle has not started.", hint="Finish the set-up: `staff`, then `ready` (both sides).")
    else:
        _guard_play(state, seat, verb, text.split()[1:])


def _guard_play(state: State, seat: str, verb: str, rest: list[str]) -> None:
    """The turn's orders: initiative in its phase (17.1), `next` by the acting side (17)."""
    if verb == "initiative" and state.phase != INITIATIVE:
        raise WrongPhase(f"initiative for turn {state.turn} is already rolled.", hint="Finish the turn's phases with `next`.")
    if verb == "next":
        if state.phase != TURN:
            raise WrongPhase("roll `initiative` first.")
        acting = state.acting_side()
        if seat not in (UMPIRE, acting):
            raise NotYourTurn(f"the {state.side_name(acting)} act now ({STEPS[state.step]} phase).")
        if formations_12.measured(state):
            charges_17_2.check_next(state, acting)
    if verb == "objective":
        check_acting(state, seat)
        if len(rest) >= 2:
            victory_18.check_objectives_set(state)
    if verb == "morale":
        morale_17_2.check_tests_loaded()
    if verb == "table":
        reference_sheets_17.check_tables_loaded()


def next_step(state: State, rng: Rng) -> list[Event]:
    """The acting side is done with its part of the phase (17): the other side's part, the next phase,
    or the turn's end (and the game's, at the turn limit option)."""
    done = state.side_name(state.acting_side())
    step = STEPS[state.step]
    if state.step_side == 0:
        state.step_side = 1
        routers = (routing_17_4_14.continue_routs(state, state.acting_side())
                   if step == "Movement" and formations_12.measured(state) else [])  # routers move first (17.4.1)
        return [public(f"Turn {state.turn}, {step} phase: the {done} are done; "
                       f"the {state.side_name(state.acting_side())} act."), *routers, *_arrivals(state)]
    answers = charges_17_2.end_of_morale(state, rng) if step == "Morale" and formations_12.measured(state) else []
    if state.step_side >= 2:  # a side answers the charges (17.2.2), the initiative side's first
        return answers
    state.step_side = 0
    state.step += 1
    casualties = _end_of_shooting(state, rng) if step == "Shooting" and formations_12.measured(state) else []
    if step == "Movement" and formations_12.measured(state):  # fires spread, troops in them counted (15.9)
        casualties += fires_15_9.end_of_movement(state)
    if state.step < len(STEPS):
        opening = public(f"Turn {state.turn}: {step} phase over. {STEPS[state.step]} phase: the "
                         f"{state.side_name(state.initiative)} act first.")
        melee = (close_assault_17_5.resolve(state, rng)
                 if STEPS[state.step] == "Close Assault" and formations_12.measured(state) else [])
        if STEPS[state.step] == "Movement" and formations_12.measured(state):  # routers move first (17.4.1)
            melee = routing_17_4_14.continue_routs(state, state.initiative)
        return [*answers, *casualties, opening, *melee, *_arrivals(state)]
    state.phase = INITIATIVE
    state.step = 0
    limit = int(state.options.get("turns", "0"))
    if limit and state.turn >= limit:
        return victory_18.finish(state, f"The turn limit ({limit}) is reached.")
    return [*victory_18.hold_objectives(state), public(f"Turn {state.turn} is over. Roll `initiative` for turn {state.turn + 1}, "
                   "or say `end` (both sides) to finish the battle.")]


def _arrivals(state: State) -> list[Event]:
    """Declared off-board units come on as their side's part of the Movement phase begins (17.2.1)."""
    if state.phase == TURN and STEPS[state.step] == "Movement" and formations_12.measured(state):
        return deployment_16.arrive(state)
    return []


def _morale_candidates(state: State, own: list[Unit]) -> list[DoiOrder]:
    """Rallies in the Morale phase (17.2.11); Generals attaching to the nearest units of their side
    or leaving them in the Movement phase (14.4)."""
    out: list[DoiOrder] = []
    acting = [u for u in own if u.side == state.acting_side()]
    if STEPS[state.step] == "Morale":
        out += [Rally(u.id) for u in acting if u.type != "general" and morale_17_2.must_rally(u)]
    if STEPS[state.step] == "Movement":
        for g in (u for u in acting if u.type in STAFF and u.status == ON_TABLE):
            if g.attached:
                out.append(Detach(g.id))
            near = sorted((u for u in acting if u.type not in STAFF and u.status == ON_TABLE
                           and u.id != g.attached),
                          key=lambda u: (u.x - g.x) ** 2 + (u.y - g.y) ** 2)
            out += [Attach(g.id, u.id) for u in near[:2]]
    return out


def _end_of_shooting(state: State, rng: Rng) -> list[Event]:
    """The Shooting phase's hits come off together (17.3), then the Casualties from Shooting tests
    and attached Generals' risk (17.3.5; rules/morale_17_2.py)."""
    hit = {u.id: u.pending_hits for u in state.units if u.pending_hits}
    before = {u.id: u.stands for u in state.units}
    events = shooting_17_3.end_of_phase(state, rng)
    lost = {uid: before[uid] - state.unit(uid).stands for uid in hit}
    return [*events, *morale_17_2.after_shooting(state, hit, lost, rng)]


def candidates(state: State, seat: str) -> list[DoiOrder]:
    """Orders worth offering this seat now (16 set-up, 17 phases), before each is checked as if typed (for autocomplete)."""
    if state.phase == OVER:
        return []
    sides = [s.id for s in state.sides] if seat == UMPIRE else [seat]
    out: list[DoiOrder] = []
    if state.phase == SETUP:
        for side in sides:
            out += _set_up_candidates(state, seat, side)
    elif state.phase == INITIATIVE:
        out.append(Initiative())
        if state.turn > 0 and (seat == UMPIRE or not state.side(seat).wants_end):
            out.append(End())
    else:
        out += _turn_candidates(state, seat, sides)
    out.append(Check("wood"))
    out.append(Dispute("which terrain is light cover"))
    return out


def _set_up_candidates(state: State, seat: str, side: str) -> list[DoiOrder]:
    ss = state.side(side)
    if ss.ready:
        return []
    named = side if seat == UMPIRE else None
    out: list[DoiOrder] = [Ready(named) if ss.staff_rolled else Staff(named)]
    for u in state.units:
        if u.side == side and u.status == ON_TABLE:
            out.append(deployment_16.hide_candidate(state, u, DEFAULT_WHERE))
            if u.light and state.options.get("scouting") == "yes":
                out.append(Scout(u.id))
    out += [Offboard(b.id) for b in state.brigades if b.side == side]
    out += [Cancel(r.number) for r in state.sealed if r.side == side and not r.cancelled]
    return out


def _turn_candidates(state: State, seat: str, sides: list[str]) -> list[DoiOrder]:
    out: list[DoiOrder] = []
    held = formations_12.measured(state) and charges_17_2.phase_is(state, "Movement") and (
        charges_17_2.unfinished_class_1(state, state.acting_side()) is not None)  # 17.4.12
    if seat in (UMPIRE, state.acting_side()) and not held:
        out.append(Next())
    by_hand = seat == UMPIRE or not formations_12.measured(state)  # the measured table decides losses and fates (18.2)
    for u in state.units:
        if u.side not in sides:
            continue
        if u.status == HIDDEN:
            out.append(Reveal(u.id))
        elif u.status in (ON_TABLE, ROUTING) and by_hand:
            out.append(Loss(u.id, 1))
            if u.type == "general":
                out += [Fate("killed", u.id), Fate("captured", u.id)]
            else:
                out += [Fate("rally" if u.status == ROUTING else "rout", u.id), Fate("routed-off", u.id)]
        elif u.status in (KILLED, CAPTURED) and u.rank != "army" and u.lost_turn < state.turn:
            out.append(Promote(u.id))
    if STEPS[state.step] == "Morale":
        for b in state.brigades:
            if b.side in sides and any(u.brigade == b.id and u.status == OFF_BOARD for u in state.units):
                out += deployment_16.dust_candidates(state, b.id)
    for o in state.objectives:
        for s in state.sides:
            if o.held_by != s.id:
                out.append(Objective(o.name, s.id))
    if formations_12.measured(state):
        out += _table_candidates(state, sides)
    return out


def _movement_candidates(state: State, u: Unit) -> list[DoiOrder]:
    """One unit's Movement-phase orders: the farthest straight move its allowance pays for over the
    ground ahead, or half of it, wheels, formation
    changes, turns and (infantry in line) defensive cover, 17.5.6 (``parse_order`` keeps only the
    ones it would accept)."""
    out: list[DoiOrder] = []
    room = movement_17_4.reach(state, u, movement_17_4.left(state, u))  # as far as the ground lets it (17.4.4)
    for inches in dict.fromkeys((math.floor(room * 10) / 10, math.floor(room * 5) / 10)):
        if inches > 0:
            out.append(Move(u.id, inches))
    out += [Move(u.id, 0, turn, 45.0) for turn in ("left", "right")]
    out += [Form(u.id, f) for f in FORM_WORDS if f != formations_12.shape(u)]
    if u.type == "cavalry":
        out.append(Mount(u.id) if u.dismounted else Dismount(u.id))
    out += [Face(u.id, "left"), Face(u.id, "right"), Face(u.id, "about")]
    if u.type == "infantry" and u.formation == formations_12.LINE:
        out.append(Fortify(u.id))
    return [*out, *engineers_11.candidates(state, u)]  # 11, 15.5: an engineer's work


def _table_candidates(state: State, sides: list[str]) -> list[DoiOrder]:
    """Measured-table orders worth offering (17.4): in the Movement phase the acting side's units
    may move their whole remaining allowance or half of it, wheel, or change formation; any seat
    may measure from its units to the nearest enemy it can see."""
    out: list[DoiOrder] = []
    own = [u for u in state.units if u.side in sides and formations_12.on_table(u)]
    if STEPS[state.step] == "Movement":
        for u in own:
            if u.side != state.acting_side() or u.status != ON_TABLE:
                continue
            out += _movement_candidates(state, u)
    if STEPS[state.step] == "Morale":
        for u in own:
            if u.side == state.acting_side() and u.type in charges_17_2.CHARGERS and u.charge_turn != state.turn:
                near = sorted(movement_17_4.visible_enemies(state, u.side), key=lambda e: (e.x - u.x) ** 2 + (e.y - u.y) ** 2)
                out += [Charge(u.id, t.id) for t in near[:2]]
        out += squadrons_17_2_6.candidates(state, [u for u in own if u.side == state.acting_side()])  # 17.2.6
    out += victory_18.candidates(state, own)
    if STEPS[state.step] == "Movement":
        out += [ChargeHome(u.id) for u in own if u.charging and u.charge_turn == state.turn and u.home_turn != state.turn]
    out += charges_17_2.candidates(state, sides)
    out += _morale_candidates(state, own)
    if STEPS[state.step] == "Shooting":
        for u in own:
            if u.side == state.acting_side() and u.fired_turn != state.turn and u.type in shooting_17_3.SHOOTERS:
                out += [Fire(u.id, t.id) for t in shooting_17_3.eligible(state, u)[:3]]
                out += [Fire(u.id, t.id) for t in seen_fire_17_3.targets(state, u)]  # seen passing last turn (17.3)
    for u in own:
        enemies = movement_17_4.visible_enemies(state, u.side)
        if enemies:
            nearest = min(enemies, key=lambda e: (e.x - u.x) ** 2 + (e.y - u.y) ** 2)
            out.append(Measure(u.id, nearest.id))
    return out
