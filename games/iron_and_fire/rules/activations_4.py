"""Book section 4, Activations: card draws (4.1: red Peru, black Chile; odd 1 unit, even up to 2,
face up to 3; the Jokers), one action per activated unit (4.2), and handing the turn on.
"""

from __future__ import annotations

from games.core.decks import card_name, is_joker, is_red, rank_of
from games.core.errors import IllegalOrder, NotYourTurn
from games.core.hexgrid import Hex, distance
from games.core.ruleset import Event, unhandled
from games.iron_and_fire import scene
from games.iron_and_fire.data import (
    SIDE_NAMES,
    SIDES,
)
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.orders import (
    Activation,
    Board,
    Bombard,
    Cut,
    Fire,
    Move,
    MoveRam,
    Prepare,
    Ram,
    Repair,
    Unground,
    ref,
)
from games.iron_and_fire.report import say
from games.iron_and_fire.rules import (
    boarding_6_3,
    damage_7,
    end_phase_11,
    firing_6_1,
    movement_5,
    ramming_6_2,
    random_events_14,
    repair_8,
    scenarios_15,
    victory_12,
)
from games.iron_and_fire.state import State, Unit


def acts_for(s: State, card: str) -> int:
    """4.1: an odd card activates 1 unit, an even card up to 2, a face card up to 3."""
    rank = rank_of(card)
    if rank in ("J", "Q", "K"):
        return 3
    value = 1 if rank == "A" else int(rank)
    return 1 if value % 2 else 2


def advance(s: State, dice: Dice, events: list[Event]) -> None:
    """Draw cards until a side has a choice to make (the bot draws for the players)."""
    guard, turn = 0, s.turn
    while s.phase == "activations" and not s.card:
        if s.turn != turn:  # a new turn began: its own draws
            guard, turn = 0, s.turn
        guard += 1
        if guard > 200:  # pragma: no cover - defensive
            raise RuntimeError("card loop did not settle")
        if s.extra_draws == 0 or not s.deck:
            if not s.deck and s.extra_draws != 0:
                say(events, "The deck is exhausted.")
            end_phase_11.end_phase(s, dice, events)
            continue
        card = s.deck.pop()
        s.discards.append(card)
        if s.extra_draws > 0:
            s.extra_draws -= 1
        if is_joker(card):
            s.jokers_drawn += 1
            if s.jokers_drawn == 1:
                if scene.on(s, "fow") and s.fow_holder and s.fow_holder not in s.fow_used_turn and s.extra_draws < 0:
                    s.phase = "joker"
                    s.decider = s.fow_holder
                    say(events, f"First Joker drawn. {SIDE_NAMES[s.fow_holder]} holds the Fortunes of War: `fow end` to end the Activations Phase, or `pass` for a Random Event roll.")
                    return
                say(events, "First Joker drawn.")
                random_events_14.random_event(s, dice, events)
                continue
            missing = [x for x in SIDES if x not in s.acted_sides and victory_12.side_can_act(s, x)]
            if missing and s.extra_draws < 0:
                values, total = dice.roll(2, 6)
                s.extra_draws = total
                who = " and ".join(SIDE_NAMES[x] for x in missing) + (" have" if len(missing) > 1 else " has")
                say(events, f"Second Joker drawn, but {who} not activated this turn (4.1): 2d6 [{values[0]}, {values[1]}] = **{total}** more card draws before the turn ends.")
                continue
            say(events, "Second Joker drawn: the Activations Phase ends.")
            end_phase_11.end_phase(s, dice, events)
            continue
        side = "peru" if is_red(card) else "chile"
        n = acts_for(s, card)
        s.card, s.card_side, s.acts_left, s.used, s.bonus_unit = card, side, n, [], ""
        if not any(can_activate(s, u) for u in s.units if u.controller == side):
            say(events, f"Card {card_name(card)}: {SIDE_NAMES[side]} has no unit able to act; the card is passed.")
            s.card, s.card_side, s.acts_left = "", "", 0
            continue
        say(events, f"Card {card_name(card)}: {SIDE_NAMES[side]} activates up to {n} unit{'s' if n > 1 else ''}.")
        return


def finish_card(s: State, dice: Dice, events: list[Event]) -> None:
    """4.1 "use it or lose it": the card's unused activations lapse and the next card is drawn."""
    s.card, s.card_side, s.acts_left, s.used, s.bonus_unit = "", "", 0, [], ""
    advance(s, dice, events)




# ==========================================================================================
# Activations (4.2)
# ==========================================================================================
def can_activate(s: State, u: Unit) -> bool:
    """4.2: a unit acts once per card (once per turn with once_per=turn), unless the Fortunes of War gave it a second activation."""
    if not u.afloat or u.controller != s.card_side:
        return False
    if u.id in s.used and s.bonus_unit != u.id:
        return False
    if scene.opt(s, "once_per") == "turn" and u.id in s.turn_used and s.bonus_unit != u.id:
        return False
    if u.battery:
        return any(firing_6_1.fire_problem(s, u, t) == "" for t in s.units if t.afloat and t.controller != u.controller)
    return True




def activation_done(s: State, dice: Dice, events: list[Event], u: Unit) -> None:
    """Count a finished activation against the card (4.2) and draw the next card when none are left."""
    side = u.controller
    if u.id in s.used and s.bonus_unit == u.id:
        s.bonus_unit = ""
    s.used.append(u.id)
    if u.id not in s.turn_used:
        s.turn_used.append(u.id)
    s.acts_left -= 1
    u.mp_penalty = 0
    if side not in s.acted_sides:
        s.acted_sides.append(side)
    if s.prize_ready.get(side) and s.prize_ready[side] != u.id:
        del s.prize_ready[side]
    s.last_friendly[side] = u.id
    if victory_12.check_victory(s, events, end_phase=False):
        return
    if s.phase == "boarding":
        return
    continue_card(s, dice, events)


def continue_card(s: State, dice: Dice, events: list[Event]) -> None:
    """Draw the next card once the card in play has no activations left or no unit able to use them (4.1)."""
    if s.phase != "activations":
        return
    if s.acts_left <= 0 or not any(can_activate(s, x) for x in s.units):
        finish_card(s, dice, events)


def pass_card(s: State, dice: Dice, events: list[Event], side: str) -> None:
    """``done``: the acting side gives up the rest of its card's activations (4.1)."""
    if s.phase != "activations" or s.card_side != side:
        raise NotYourTurn(f"There is no {SIDE_NAMES.get(side, side)} card in play to end.")
    say(events, f"{SIDE_NAMES[side]} ends the activations of {card_name(s.card)}.")
    finish_card(s, dice, events)


def unit_orders(s: State, u: Unit) -> list[Activation]:
    """The actions of 4.2 unit ``u`` may take now: fire, bombard, board, move (and ram), repair,
    unground, cut the cable, prepare a prize. Each is re-checked when given."""
    scn = scene.scenario(s)
    out: list[Activation] = _attacks(s, u)
    if u.battery:
        return out
    out.extend(_moves(s, u))
    if u.hits:
        out.append(Repair(ref(u)))
    if u.grounded:
        out.append(Unground(ref(u)))
    if scn.cable is not None and scn.cable.rule == "activations" and s.cable == (u.q, u.r) and not s.cable_cut:
        out.append(Cut(ref(u)))
    if u.captured and s.prize_ready.get(u.controller) != u.id:
        out.append(Prepare(ref(u)))
    return out


def _attacks(s: State, u: Unit) -> list[Activation]:
    """Fire (6.1) at each enemy in reach, the Scenario 4 bombardment, boarding (6.3) adjacent ships."""
    scn = scene.scenario(s)
    enemies = [t for t in s.units if t.afloat and t.controller != u.controller]
    out: list[Activation] = [Fire(ref(u), ref(t)) for t in enemies if not firing_6_1.fire_problem(s, u, t)]
    if u.battery:
        return out
    if u.id == "huascar" and scn.bombard_target and any(
        distance(scene.pos(u), h) <= 4 and not scene.line_blocker(s, scene.pos(u), h) for h, t in scene.hexmap(s).terrain.items() if t == "town"
    ):
        out.append(Bombard(ref(u)))
    for t in enemies:
        locked_with_us = not t.boarding_with or scene.unit(s, t.boarding_with).controller == u.controller
        fighting = u.boarding_with == t.id or t.boarding_with == u.id
        free = not u.captured and not u.boarding_with and locked_with_us
        if not t.battery and distance(scene.pos(u), scene.pos(t)) == 1 and (fighting or free):
            out.append(Board(ref(u), ref(t)))
    return out


def _moves(s: State, u: Unit) -> list[Activation]:
    """Every legal step sequence (section 5) within the ship's MP, with a ram (6.2) where it ends bow-on."""
    prize_moves = s.prize_ready.get(u.controller) == u.id and s.last_friendly.get(u.controller) == u.id
    can_move = not u.grounded and not u.boarding_with and (not u.captured or prize_moves)
    mp = damage_7.eff_mp(s, u)
    if s.cable_slow and s.cable_ship == u.id:
        mp = min(mp, 1)
    if not can_move or mp <= 0:
        return []
    out: list[Activation] = []
    for seq in movement_5.step_sequences(mp):
        try:
            entered, facing, leaves = movement_5.plan_path(s, u, list(seq))
        except IllegalOrder:
            continue
        out.append(Move(ref(u), seq))
        if not leaves and len(seq) < mp and not u.captured and _rammable(s, u, entered[-1] if entered else scene.pos(u), facing):
            out.append(Move(ref(u), seq, ram=True))
    if not u.captured and _rammable(s, u, scene.pos(u), u.facing):
        out.append(Ram(ref(u)))
    return out


def _rammable(s: State, u: Unit, at: Hex, facing: int) -> bool:
    target = scene.unit_at(s, scene.layout(s).neighbour(at, facing))
    return target is not None and not target.battery and target.controller != u.controller


def perform(s: State, dice: Dice, events: list[Event], side: str, order: Activation) -> None:
    """Carry out one activation (4.2: movement and ramming, firing, boarding, repair, ungrounding,
    and the scenarios' cutting and prize actions), then count it against the card."""
    match order:
        case Move() | MoveRam() | Ram():
            run = movement_5.move(s, dice, events, side, order)
            if run is not None:
                ramming_6_2.ram(s, dice, events, scene.unit(s, order.unit.id), *run)
        case Fire():
            firing_6_1.fire(s, dice, events, side, order)
        case Bombard():
            scenarios_15.bombard(s, dice, events, side, order)
        case Board():
            boarding_6_3.board(s, dice, events, side, order)
        case Repair():
            repair_8.repair(s, dice, events, side, order)
        case Unground():
            movement_5.unground(s, dice, events, side, order)
        case Cut():
            scenarios_15.cut(s, events, side, order)
        case Prepare():
            boarding_6_3.prepare_prize(s, events, side, order)
        case _:
            unhandled(order)
    activation_done(s, dice, events, scene.unit(s, order.unit.id))
