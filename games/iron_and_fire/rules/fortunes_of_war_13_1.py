"""Book section 13.1, Fortunes of War: the counter that passes between the sides (extra and
second activations, a redraw, a re-roll, ending the Activations Phase on the first Joker).
"""

from __future__ import annotations

import json
from dataclasses import fields

from games.core.codec import from_json, to_json
from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.iron_and_fire.game import (
    SIDE_NAMES,
    Game,
    other,
)
from games.iron_and_fire.orders import ACTIVATIONS, parse
from games.iron_and_fire.rules import activations_4, end_phase_11, random_events_14
from games.iron_and_fire.state import State


# --- Fortunes of War (13.1) ---------------------------------------------------------------
def fow_check(g: Game, side: str) -> None:
    """13.1: the side holds the Fortunes of War, it is in use, and the side has not played it this turn."""
    if not g.on("fow"):
        raise IllegalOrder("Fortunes of War is not in use in this game.", hint="Start a game with options:fow=on.")
    if g.s.fow_holder != side:
        raise IllegalOrder(f"{SIDE_NAMES[side]} does not hold the Fortunes of War.")
    if side in g.s.fow_used_turn:
        raise IllegalOrder(f"{SIDE_NAMES[side]} has already used the Fortunes of War this turn.")


def fow_use(g: Game, side: str, what: str) -> bool:
    """Spend the counter; return True on the player's first use in the game."""
    fow_check(g, side)
    first = side not in g.s.fow_used_ever
    g.s.fow_used_turn.append(side)
    if first:
        g.s.fow_used_ever.append(side)
    g.s.fow_holder = other(side)
    g.say(f"{SIDE_NAMES[side]} plays the Fortunes of War: {what}. The counter passes to {SIDE_NAMES[other(side)]}.")
    return first


# ==========================================================================================
# Fortunes of War orders and decisions
# ==========================================================================================
def fow_extra(g: Game, side: str) -> None:
    """13.1: one more activation on the side's own card."""
    s = g.s
    if s.phase != "activations" or s.card_side != side:
        raise IllegalOrder("Play `fow extra` on one of your own activation cards.")
    fow_use(g, side, "+1 activation on this card")
    s.acts_left += 1


def fow_again(g: Game, side: str, uid: str) -> None:
    """13.1: a unit of the side's own card activates a second time."""
    s = g.s
    u = g.unit(uid)
    if s.phase != "activations" or s.card_side != side or u.controller != side or not u.afloat:
        raise IllegalOrder("Play `fow again <unit>` on one of your own cards, for one of your units in play.")
    fow_use(g, side, f"a second activation for {u.name}")
    s.bonus_unit = u.id
    s.acts_left += 1


def fow_redraw(g: Game, side: str) -> None:
    """13.1: ignore the card just drawn, before anyone activates on it, and draw another."""
    s = g.s
    if s.phase != "activations" or not s.card or s.used:
        raise IllegalOrder("`fow redraw` ignores a just-drawn card before anyone activates on it.")
    fow_use(g, side, f"ignore {activations_4.card_name(g, s.card)} and draw another card")
    s.card, s.card_side, s.acts_left = "", "", 0
    activations_4.advance(g)


def joker_decision(g: Game, side: str, end: bool) -> None:
    """13.1 and 14: at the first Joker the holder ends the Activations Phase (``fow end``) or passes and the Random Event is rolled."""
    s = g.s
    if s.phase != "joker":
        raise WrongPhase("There is no Joker decision to make now.")
    if side != s.decider:
        raise NotYourTurn(f"{SIDE_NAMES[s.decider]} decides at the first Joker.")
    s.phase = "activations"
    s.decider = ""
    if end:
        fow_use(g, side, "end the Activations Phase on the first Joker")
        end_phase_11.end_phase(g)
        return
    g.say(f"{SIDE_NAMES[side]} does not play the Fortunes of War.")
    random_events_14.random_event(g)
    activations_4.advance(g)


def snapshot_of(state: State) -> str:
    """13.1: the state before an activation, kept so that ``fow reroll`` can replay it (not a restore-on-error)."""
    data = to_json(state)
    data["snapshot"] = ""
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def restore(state: State, text: str) -> None:
    """13.1: put the state kept by ``snapshot_of`` back before replaying the activation with a re-rolled die."""
    restored: State = from_json(State, json.loads(text))
    for f in fields(State):
        setattr(state, f.name, getattr(restored, f.name))


def reroll(g: Game, side: str, which: int) -> None:
    """13.1 "immediately re-roll any die roll": the last activation is replayed from the state kept
    before it, with die ``which`` rolled afresh and every other die as it fell (until the story
    diverges); Mine counters it turned over stay the same counters."""
    state = g.s
    fow_check(g, side)
    if not state.snapshot:
        raise IllegalOrder("There is no activation to re-roll right now.", hint="`fow reroll` must come right after the activation that rolled the die.")
    dice = list(state.snapshot_dice)
    mines = {(q, r): value for q, r, value in state.snapshot_mines}
    if not 1 <= which <= len(dice):
        listing = ", ".join(f"{i + 1}) d{f} {v}" for i, (f, v) in enumerate(dice))
        raise IllegalOrder(f"The last activation rolled {len(dice)} dice; there is no die {which}.", hint=f"Dice: {listing}.")
    snap, order_text, actor = state.snapshot, state.snapshot_order, state.snapshot_side
    used_turn, used_ever = list(state.fow_used_turn), list(state.fow_used_ever)
    if json.loads(snap)["turn"] != state.turn:
        raise IllegalOrder("That activation belongs to an earlier turn; it can no longer be re-rolled.")
    restore(state, snap)
    state.log_tail = []
    g.replay, g.reroll_index, g.replay_mines = dice, which - 1, mines
    faces, value = dice[which - 1]
    g.say(f"{SIDE_NAMES[side]} plays the Fortunes of War: re-roll die {which} (d{faces} {value}) of `{order_text}`. The activation is replayed:")
    order = parse(state, g.layout, order_text)
    assert isinstance(order, ACTIVATIONS), order_text  # only activations are kept for a re-roll
    activations_4.perform(g, actor, order)
    state.snapshot_dice = list(g.rolled)
    mines.update({(q, r): v for q, r, v in g.mine_draws})
    state.snapshot_mines = [(q, r, v) for (q, r), v in mines.items()]
    state.fow_used_turn = sorted(set(used_turn) | set(state.fow_used_turn) | {side})
    state.fow_used_ever = sorted(set(used_ever) | set(state.fow_used_ever) | {side})
    state.fow_holder = other(side)
    state.snapshot, state.snapshot_order, state.snapshot_side = snap, order_text, actor
    g.say(f"The Fortunes of War passes to {SIDE_NAMES[other(side)]}.")
