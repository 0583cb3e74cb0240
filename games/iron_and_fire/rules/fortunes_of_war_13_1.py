"""Book section 13.1, Fortunes of War: the counter that passes between the sides (extra and
second activations, a redraw, a re-roll, ending the Activations Phase on the first Joker).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields

from games.core.codec import from_json, to_json
from games.core.decks import card_name
from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.core.ruleset import Event
from games.iron_and_fire import scene
from games.iron_and_fire.data import SIDE_NAMES, other
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.orders import ACTIVATIONS, Activation, FowAgain, FowEnd, FowReroll, Pass, parse
from games.iron_and_fire.report import say
from games.iron_and_fire.rules import random_events_14
from games.iron_and_fire.state import State


# --- Fortunes of War (13.1) ---------------------------------------------------------------
def fow_check(s: State, side: str) -> None:
    """13.1: the side holds the Fortunes of War, it is in use, and the side has not played it this turn."""
    if not scene.on(s, "fow"):
        raise IllegalOrder("Fortunes of War is not in use in this game.", hint="Start a game with options:fow=on.")
    if s.fow_holder != side:
        raise IllegalOrder(f"{SIDE_NAMES[side]} does not hold the Fortunes of War.")
    if side in s.fow_used_turn:
        raise IllegalOrder(f"{SIDE_NAMES[side]} has already used the Fortunes of War this turn.")


def fow_use(s: State, events: list[Event], side: str, what: str) -> bool:
    """Spend the counter; return True on the player's first use in the game."""
    fow_check(s, side)
    first = side not in s.fow_used_ever
    s.fow_used_turn.append(side)
    if first:
        s.fow_used_ever.append(side)
    s.fow_holder = other(side)
    say(events, f"{SIDE_NAMES[side]} plays the Fortunes of War: {what}. The counter passes to {SIDE_NAMES[other(side)]}.")
    return first


# ==========================================================================================
# Fortunes of War orders and decisions
# ==========================================================================================
def fow_extra(s: State, events: list[Event], side: str) -> None:
    """13.1: one more activation on the side's own card."""
    if s.phase != "activations" or s.card_side != side:
        raise IllegalOrder("Play `fow extra` on one of your own activation cards.")
    fow_use(s, events, side, "+1 activation on this card")
    s.acts_left += 1


def fow_again(s: State, events: list[Event], side: str, order: FowAgain) -> None:
    """13.1: a unit of the side's own card activates a second time."""
    uid = order.unit.id
    u = scene.unit(s, uid)
    if s.phase != "activations" or s.card_side != side or u.controller != side or not u.afloat:
        raise IllegalOrder("Play `fow again <unit>` on one of your own cards, for one of your units in play.")
    fow_use(s, events, side, f"a second activation for {u.name}")
    s.bonus_unit = u.id
    s.acts_left += 1


def fow_redraw(s: State, events: list[Event], side: str) -> None:
    """13.1: ignore the card just drawn, before anyone activates on it; the caller draws another."""
    if s.phase != "activations" or not s.card or s.used:
        raise IllegalOrder("`fow redraw` ignores a just-drawn card before anyone activates on it.")
    fow_use(s, events, side, f"ignore {card_name(s.card)} and draw another card")
    s.card, s.card_side, s.acts_left = "", "", 0


def joker_decision(s: State, dice: Dice, events: list[Event], side: str, order: FowEnd | Pass) -> bool:
    """13.1 and 14: at the first Joker the holder ends the Activations Phase (``fow end``) or passes
    and the Random Event is rolled. True when the phase ends: the caller runs the End Phase, then
    draws on (this module sits below both)."""
    end = isinstance(order, FowEnd)
    if s.phase != "joker":
        raise WrongPhase("There is no Joker decision to make now.")
    if side != s.decider:
        raise NotYourTurn(f"{SIDE_NAMES[s.decider]} decides at the first Joker.")
    s.phase = "activations"
    s.decider = ""
    if end:
        fow_use(s, events, side, "end the Activations Phase on the first Joker")
        return True
    say(events, f"{SIDE_NAMES[side]} does not play the Fortunes of War.")
    random_events_14.random_event(s, dice, events)
    return False


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


@dataclass(frozen=True)
class Replay:
    """A ``fow reroll`` under way (13.1): the activation to replay and what to restore after it."""

    side: str
    actor: str
    order: Activation
    text: str
    snapshot: str
    dice_mines: dict[tuple[int, int], str]
    used_turn: list[str]
    used_ever: list[str]


def start_reroll(s: State, dice: Dice, events: list[Event], side: str, order: FowReroll) -> Replay:
    """13.1 "immediately re-roll any die roll": the last activation is replayed from the state kept
    before it, with die ``which`` rolled afresh and every other die as it fell (until the story
    diverges); Mine counters it turned over stay the same counters. This puts the state back and
    returns the activation; the caller performs it again and then calls ``finish_reroll``."""
    which = 1 if order.die is None else order.die
    fow_check(s, side)
    if not s.snapshot:
        raise IllegalOrder("There is no activation to re-roll right now.", hint="`fow reroll` must come right after the activation that rolled the die.")
    plan = list(s.snapshot_dice)
    mines = {(q, r): value for q, r, value in s.snapshot_mines}
    if not 1 <= which <= len(plan):
        listing = ", ".join(f"{i + 1}) d{f} {v}" for i, (f, v) in enumerate(plan))
        raise IllegalOrder(f"The last activation rolled {len(plan)} dice; there is no die {which}.", hint=f"Dice: {listing}.")
    snap, order_text, actor = s.snapshot, s.snapshot_order, s.snapshot_side
    used_turn, used_ever = list(s.fow_used_turn), list(s.fow_used_ever)
    if json.loads(snap)["turn"] != s.turn:
        raise IllegalOrder("That activation belongs to an earlier turn; it can no longer be re-rolled.")
    restore(s, snap)
    dice.replay(plan, which - 1, mines)
    faces, value = plan[which - 1]
    say(events, f"{SIDE_NAMES[side]} plays the Fortunes of War: re-roll die {which} (d{faces} {value}) of `{order_text}`. The activation is replayed:")
    replayed = parse(s, scene.layout(s), order_text)
    assert isinstance(replayed, ACTIVATIONS), order_text  # only activations are kept for a re-roll
    return Replay(side, actor, replayed, order_text, snap, mines, used_turn, used_ever)


def finish_reroll(s: State, dice: Dice, events: list[Event], replay: Replay) -> None:
    """13.1: after the replayed activation, keep its dice for a further re-roll and pass the counter on."""
    side, mines = replay.side, dict(replay.dice_mines)
    s.snapshot_dice = list(dice.rolled)
    mines.update({(q, r): v for q, r, v in dice.mine_draws})
    s.snapshot_mines = [(q, r, v) for (q, r), v in mines.items()]
    s.fow_used_turn = sorted(set(replay.used_turn) | set(s.fow_used_turn) | {side})
    s.fow_used_ever = sorted(set(replay.used_ever) | set(s.fow_used_ever) | {side})
    s.fow_holder = other(side)
    s.snapshot, s.snapshot_order, s.snapshot_side = replay.snapshot, replay.text, replay.actor
    say(events, f"The Fortunes of War passes to {SIDE_NAMES[other(side)]}.")
