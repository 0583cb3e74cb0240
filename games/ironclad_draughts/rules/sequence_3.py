"""Book section 3, Sequence of Play: the umpire's shuffles and the deal of one activation card per
ship (Sequence 1-2), ships activated from the lowest card (Sequence 3: Ace low, ties Hearts, Clubs,
Diamonds, Spades), each drawing for damage control, moving and firing (Sequence 4), cards collected
and reshuffled (the second 4), and play repeated until a side has no ship on the board (Sequence 5).

An activation is ONE order (move and fire together): by post, one message per ship keeps the game
moving, and nothing random happens between the move and the fire, so the owner can choose the
target knowing where the ship will be. The damage-control draw is made as soon as the ship's turn
comes (reported with the previous order), so the owner knows how the ship can move.
"""

from __future__ import annotations

from typing import Literal

from games.core.decks import SUITS, Deck, card_name, rank_value, suit_of
from games.core.errors import IllegalOrder, InvalidSyntax, NotYourTurn, WrongPhase, quote, resolve_name
from games.core.notation import Ref
from games.core.rng import Rng
from games.core.ruleset import UMPIRE
from games.core.squaregrid import HEADING_NAMES, Square
from games.ironclad_draughts import orders
from games.ironclad_draughts.orders import ACTION_WORDS, Activation, Fire, Helm, Move, Pass, ref
from games.ironclad_draughts.rules.damage_control_6 import damage_control
from games.ironclad_draughts.rules.firing_5 import check_fire, fire_problem, resolve_fire
from games.ironclad_draughts.rules.movement_4 import (
    MoveResult,
    check_move,
    damage_reason,
    forced_move,
    free_distances,
    may_stop,
    movement_mode,
    simulate_move,
    stay,
    update_manoeuvre,
)
from games.ironclad_draughts.rules.ramming_8 import resolve_ram
from games.ironclad_draughts.state import (
    ACTIVATE,
    DEAL,
    ENGINE,
    OFF,
    OVER,
    SUNK,
    Mark,
    Ship,
    State,
    exit_text,
    in_play,
    label,
    owner,
    seat_label,
    seat_side,
    ship_by_id,
    side_name,
)

OFFSETS: tuple[Literal["ahead", "port", "starboard"], ...] = ("ahead", "port", "starboard")
TURNS: tuple[Helm | None, ...] = (None, "port", "starboard")

# --- the deal and the order of activation (Sequence 1-3) ------------------------------------


def activation_key(card: str) -> tuple[int, int]:
    """Ace low, then suit order Hearts, Clubs, Diamonds, Spades (Sequence 3 and its footnote)."""
    return rank_value(card), SUITS.index(suit_of(card))


def activation_order(state: State) -> list[Ship]:
    """The ships dealt a card this turn, in the order they act (Sequence 3)."""
    dealt = [s for s in state.ships if s.card]
    return sorted(dealt, key=lambda s: activation_key(s.card))


def next_ship(state: State) -> Ship | None:
    """The next ship to act: the lowest card not yet activated, still in play (Sequence 3)."""
    for ship in activation_order(state):
        if in_play(ship) and not ship.activated:
            return ship
    return None


def deal(state: State, rng: Rng, lines: list[str]) -> None:
    """Collect and shuffle the activation pack, then deal one card face up to each ship in play (Sequence 2)."""
    deck: Deck = state.activation_deck
    deck.reshuffle_discards(rng)
    if state.options.get("damage_shuffle") == "each-turn":
        state.damage_deck.reshuffle_discards(rng)
    state.turn += 1
    for ship in state.ships:
        ship.activated = False
        ship.card = deck.draw() if in_play(ship) else ""
    order = ", ".join(f"{card_name(s.card)} {s.name}" for s in activation_order(state))
    lines.append(f"Turn {state.turn}: activation cards dealt: {order}.")
    state.phase = ACTIVATE


def end_turn(state: State) -> None:
    """All ships activated: the discarded cards are collected in (the second Sequence 4)."""
    for ship in state.ships:
        if ship.card:
            state.activation_deck.discard(ship.card)
            ship.card = ""
        ship.activated = False


# --- the end of the game (Sequence 5) -------------------------------------------------------


def sides_in_play(state: State) -> list[str]:
    """The sides with a ship still afloat on the board (Sequence 5)."""
    return [s.id for s in state.sides if any(in_play(sh) and sh.side == s.id for sh in state.ships)]


def check_end(state: State, lines: list[str]) -> bool:
    """End the game when a side has no ship left on the board (Sequence 5); the other side wins (house)."""
    if state.phase == OVER:
        return True
    alive = sides_in_play(state)
    if len(alive) == 2:
        return False
    state.phase = OVER
    state.active = ""
    if alive:
        state.winner = alive[0]
        loser = next(s.id for s in state.sides if s.id != alive[0])
        state.end_reason = f"{side_name(state, loser)} has no ship left afloat on the board"
        lines.append(f"**Game over: {side_name(state, alive[0])} wins** ({state.end_reason}).")
    else:
        state.winner = ""
        state.end_reason = "neither side has a ship left afloat on the board"
        lines.append(f"**Game over: a draw** ({state.end_reason}).")
    return True


def end_by_turn_limit(state: State, lines: list[str]) -> None:
    """House option ``turn_limit`` (Sequence 5 has none): the side with more flotation in play wins."""
    totals = {s.id: sum(sh.flotation for sh in state.ships if in_play(sh) and sh.side == s.id) for s in state.sides}
    state.phase = OVER
    state.active = ""
    a, b = state.sides[0].id, state.sides[1].id
    state.winner = a if totals[a] > totals[b] else b if totals[b] > totals[a] else ""
    state.end_reason = (
        f"turn limit {state.turn} reached; flotation in play {side_name(state, a)} {totals[a]}, "
        f"{side_name(state, b)} {totals[b]}"
    )
    result = f"{side_name(state, state.winner)} wins" if state.winner else "a draw"
    lines.append(f"**Game over: {result}** ({state.end_reason}).")


def _turn_over(state: State, rng: Rng, lines: list[str]) -> bool:
    """Every ship has acted: collect the cards, then the turn limit, the umpire's deal or ours."""
    end_turn(state)
    limit = int(state.options.get("turn_limit", "0") or 0)
    if limit and state.turn >= limit:
        end_by_turn_limit(state, lines)
        return True
    if state.options.get("umpire_deals") == "yes":
        state.phase = DEAL
        lines.append(f"Turn {state.turn} is over; waiting for the umpire to `deal`.")
        return True
    deal(state, rng, lines)
    return False


def advance(state: State, rng: Rng, lines: list[str]) -> None:
    """Start the next activation: next ship by card (its damage control draw first, Sequence 4a),
    the end of the turn, the deal, or the end of the game."""
    while True:
        state.active = ""
        state.report = []
        if check_end(state, lines):
            return
        ship = next_ship(state)
        if ship is None:
            if _turn_over(state, rng, lines):
                return
            continue
        state.active = ship.id
        start: list[str] = [f"Next: {ship.name} ({card_name(ship.card)})."]
        damage_control(state, ship, rng, start)
        lines.extend(start)
        state.report = start
        if not in_play(ship):
            ship.activated = True
            continue
        return


def to_act(state: State) -> list[str]:
    """Who must act: the umpire to deal, else the owner of the active ship (Sequence 2-3)."""
    if state.phase == OVER:
        return []
    if state.phase == DEAL:
        return [UMPIRE]
    return [owner(state, ship_by_id(state, state.active))]


# --- who may give an activation order, and reading it ---------------------------------------


def _when(ship: Ship) -> str:
    if not in_play(ship):
        return f"{ship.name} is {'sunk' if ship.status == SUNK else 'off the board'}."
    if ship.activated:
        return f"{ship.name} has already acted this turn."
    return f"{ship.name} acts later this turn ({card_name(ship.card)})."


def resolve_ship(state: State, text: str) -> Ship:
    """The ship a name (or a unique prefix) means, any ship of the game."""
    return ship_by_id(state, resolve_name(text, {s.id: s.name for s in state.ships}, "ship"))


def _check_named(state: State, seat: str, text: str, named: Ship, active: Ship) -> None:
    """A ship named in front of the order must be the active one (and the seat's own)."""
    if named.id == active.id:
        return
    if seat != UMPIRE and named.side != seat_side(state, seat):
        raise NotYourTurn(
            f"{quote(text)}: {named.name} is not your ship.",
            hint=f"It belongs to {seat_label(state, owner(state, named))}.",
        )
    raise NotYourTurn(
        f"{quote(text)}: it is {active.name}'s activation ({card_name(active.card)}), not {named.name}'s.",
        hint=_when(named),
    )


def _check_active(state: State, seat: str, text: str) -> Ship:
    """The game is in an activation and ``seat`` orders the active ship (or is the umpire)."""
    if state.phase == OVER:
        raise WrongPhase(f"The game is over; {quote(text)} cannot be played.")
    if state.phase == DEAL:
        raise WrongPhase(f"{quote(text)}: the turn's cards are not dealt yet.", hint="The umpire deals with `deal`.")
    return ship_by_id(state, state.active)


def _check_seat(state: State, seat: str, text: str, active: Ship) -> None:
    ordered_by = owner(state, active)
    if seat not in (UMPIRE, ordered_by):
        raise NotYourTurn(
            f"{quote(text)}: it is {active.name}'s activation ({card_name(active.card)}), "
            f"ordered by {seat_label(state, ordered_by)}.",
        )


def _check_may_choose(state: State, active: Ship, action: str, text: str) -> None:
    """A damaged ship moves as its damage says; an undamaged one must move (Movement 2, Firing 4)."""
    mode = movement_mode(active)
    if action == "move" and mode != "free":
        raise IllegalOrder(
            f"{quote(text)}: {active.name} cannot choose its move: {damage_reason(active)}.",
            hint="Order `pass` or `fire TARGET`; the bot makes the forced move.",
        )
    if action != "move" and mode == "free" and not may_stop(state, active):
        raise IllegalOrder(
            f"{quote(text)}: {active.name} must move first (ships may not stop unless damaged).",
            hint="Write e.g. `move 2` or `move 1 fire TARGET`.",
        )


def read_activation(state: State, seat: str, text: str) -> Activation:
    """Read an activation order, the active ship's name optionally in front; refuse it (in this
    order) when it is not an activation's time, names another ship, is not this seat's to give,
    or is not the move the book allows."""
    active = _check_active(state, seat, text)
    words = text.split()
    idx = next((i for i, w in enumerate(words) if w.casefold() in ACTION_WORDS), None)
    if idx is None:
        raise InvalidSyntax(f"{quote(text)} is not an order.", hint="Orders start with `move`, `fire` or `pass` (see help).")
    if idx > 0:
        _check_named(state, seat, text, resolve_ship(state, " ".join(words[:idx])), active)
    _check_seat(state, seat, text, active)
    _check_may_choose(state, active, words[idx].casefold(), text)
    rest = " ".join(words[idx:])
    if words[idx].casefold() == "pass" and len(words) > idx + 1:
        raise InvalidSyntax(f"{quote(text)}: `pass` takes nothing after it.")
    if words[-1].casefold() == "move":
        raise InvalidSyntax(f"{quote(text)}: how many squares?", hint="Write `move 1` or `move 2`.")
    if words[-1].casefold() == "fire":
        raise InvalidSyntax(f"{quote(text)}: fire at which ship?", hint="Write `fire TARGET`.")
    order = orders.ACTIVATION.parse(rest, orders.ship_names(state))
    if not isinstance(order, Move | Pass | Fire):
        raise AssertionError(order)  # the grammar holds only these
    check_activation(state, active, order, text)
    return order


def _result(state: State, active: Ship, order: Activation, text: str) -> MoveResult:
    match order:
        case Move():
            return check_move(state, active, order, text)
        case Pass() | Fire():
            return forced_move(state, active) if movement_mode(active) != "free" else stay(active)
    raise AssertionError(order)


def check_activation(state: State, active: Ship, order: Activation, text: str) -> MoveResult:
    """The book's checks on an activation order: the move (section 4) and the target (section 5)."""
    result = _result(state, active, order, text)
    if order.target is not None:
        check_fire(state, active, result, ship_by_id(state, order.target.id), text)
    return result


def checked(state: State, seat: str, order: Activation) -> tuple[Ship, MoveResult]:
    """An activation order given as a typed value (a replayed log, a test): the same checks."""
    text = order.text
    active = _check_active(state, seat, text)
    _check_seat(state, seat, text, active)
    _check_may_choose(state, active, "move" if isinstance(order, Move) else "pass", text)
    return active, check_activation(state, active, order, text)


# --- the activation (Sequence 4) ------------------------------------------------------------


def _report_move(state: State, ship: Ship, result: MoveResult, lines: list[str]) -> None:
    """Carry out the move (Movement) and say where the ship went."""
    start = Square(ship.x, ship.y)
    if len(result.path) > 1:
        state.marks.append(Mark("path", [(sq.x, sq.y) for sq in result.path], ship.side))
    if result.left:
        ship.status = OFF
        for dmg in ship.damage:
            state.damage_deck.discard(dmg.card)
        ship.damage = []
        lines.append(f"{ship.name} steams off the board over {exit_text(state, result.path[-1])} and cannot return.")
        return
    ship.x, ship.y, ship.heading = result.final.x, result.final.y, result.heading
    where = label(result.final)
    if result.final == start and (result.rams or result.avoids):
        lines.append(f"{ship.name} closes from {where}, heading {HEADING_NAMES[ship.heading]}.")
    elif result.final == start:
        lines.append(f"{ship.name} stays at {where}, heading {HEADING_NAMES[ship.heading]}.")
    else:
        lines.append(f"{ship.name} moves {label(start)}-{where}, heading {HEADING_NAMES[ship.heading]}.")
    update_manoeuvre(ship)


def activate(state: State, ship: Ship, order: Activation, result: MoveResult, rng: Rng) -> str:
    """Sequence 4 c-d for a checked order: move (as damage requires, or as ordered), then fire or ram."""
    lines = [f"**Turn {state.turn}, {ship.name} ({card_name(ship.card)})**: {order.text}"]
    state.marks = []
    if not isinstance(order, Move):
        forced = movement_mode(ship) != "free"
        lines.append(f"{ship.name}: {damage_reason(ship)}." if forced else f"{ship.name} stops (a damaged ship may stop).")
    engines_before = [d for d in ship.damage if d.kind == ENGINE]
    _report_move(state, ship, result, lines)
    if state.options.get("engine_hit", "stop") == "stop":
        for dmg in engines_before:
            dmg.spent = True
    if result.avoids:
        lines.append(f"{ship.name} sheers off to avoid {ship_by_id(state, result.avoids).name} (black activation card).")
    if result.rams:
        state.marks.append(resolve_ram(state, ship, ship_by_id(state, result.rams), rng, lines))
    elif order.target is not None and in_play(ship):
        state.marks.append(resolve_fire(state, ship, ship_by_id(state, order.target.id), rng, lines))
    ship.activated = True
    advance(state, rng, lines)
    return "\n".join(lines)


# --- the orders an active ship may give -----------------------------------------------------


def _targets(state: State, ship: Ship, result: MoveResult) -> list[Ref]:
    enemies = [s for s in state.ships if in_play(s) and s.side != ship.side]
    return [ref(t) for t in enemies if not fire_problem(state, ship, result.final, result.heading, t)]


def _free_moves(state: State, ship: Ship) -> list[Activation]:
    out: list[Activation] = []
    for side, offset in zip(OFFSETS, (0, -1, 1), strict=True):
        for distance in free_distances(ship.heading, offset):
            for turn, turn_steps in zip(TURNS, (0, -2, 2), strict=True):
                result = simulate_move(state, ship, offset, distance, turn_steps)
                if result.blocked_by or (result.left and turn):
                    continue
                out.append(Move(distance, side, turn, result.left))
                if not result.left and not result.rams:
                    out += [Move(distance, side, turn, False, t) for t in _targets(state, ship, result)]
    return out


def legal_activations(state: State, seat: str) -> list[Activation]:
    """Every order the active ship may give now (for autocomplete; each is re-checked on apply)."""
    if state.phase != ACTIVATE:
        return []
    ship = ship_by_id(state, state.active)
    if seat not in (UMPIRE, owner(state, ship)):
        return []
    out: list[Activation] = []
    if movement_mode(ship) != "free":
        result = forced_move(state, ship)
        out.append(Pass())
        if not result.rams and not result.left:
            out += [Fire(t) for t in _targets(state, ship, result)]
        return out
    if may_stop(state, ship):
        out.append(Pass())
        out += [Fire(t) for t in _targets(state, ship, stay(ship))]
    return out + _free_moves(state, ship)
