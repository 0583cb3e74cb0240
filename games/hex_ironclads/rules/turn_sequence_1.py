"""Book section 1, Turn Sequence: both sides fire (simultaneously), both throw a d6 and the lower
moves first, then the other; rams are adjudicated; the turn ends.

Simultaneous fire is played with sealed orders: each side gives its fire orders and ``seal``s
them; publicly only a commitment ``seal(text, nonce)`` is shown. When both sides have sealed (or
the umpire orders ``reveal``) orders and nonces are published and all fire resolves at once:
damage lands after every ship has rolled, so a ship sunk this turn still fires. How a game ends
(a side with no ship left fighting, or the turn limit) is a house ruling (``data/hex_ironclads/README.md``).
"""

from __future__ import annotations

from games.core.errors import IllegalOrder, NotAllowed, NotYourTurn, WrongPhase, quote
from games.core.rng import Rng, seal
from games.core.ruleset import UMPIRE, Event, private, public
from games.hex_ironclads.orders import Done, HexOrder, Reveal, Seal, fire_order
from games.hex_ironclads.rules.damage_3 import damage_report, points
from games.hex_ironclads.rules.firing_dice_2 import (
    assess_shot,
    can_fire,
    describe_roll,
    dice_word,
    hits_of,
    legal_fire_orders,
    roll_firing_dice,
)
from games.hex_ironclads.rules.movement_4 import break_off_move, legal_moves, unmoved
from games.hex_ironclads.rules.ramming_5 import adjudicate_rams
from games.hex_ironclads.state import BROKEN_OFF, FIGHTING, FIRE, HOLD, MOVE, OVER, Mark, Side, State


def to_act(state: State) -> list[str]:
    """Who must act: every side still writing fire orders, or the side moving."""
    if state.phase == FIRE:
        return [s.id for s in state.sides if not s.sealed]
    if state.phase == MOVE:
        return [state.mover()]
    return []


def legal_orders(state: State, seat: str) -> list[HexOrder]:
    """The orders of this phase the seat may give (each re-checked when applied)."""
    if state.phase == FIRE:
        if seat == UMPIRE:
            return [Reveal()]
        if seat not in {s.id for s in state.sides} or state.side(seat).sealed:
            return []
        return [*legal_fire_orders(state, seat), Seal()]
    if state.phase == MOVE and seat in (state.mover(), UMPIRE):
        return [*legal_moves(state, seat), Done()]
    return []


# --- 1a: both sides fire, simultaneously --------------------------------------------------------


def sealed_text(state: State, side: Side) -> str:
    """The side's fire orders as one line, the text its commitment seals."""
    parts = [fire_order(state, ship, side.orders.get(ship.id, HOLD)).text
             for ship in state.ships if ship.side == side.id and can_fire(state, ship)]
    return f"Turn {state.turn}, {side.name}: " + ("; ".join(parts) if parts else "no ship fires")


def sealed_note(side: Side) -> str:
    """What a side is told of its own seal: the private event, and the same line in its view, so
    the bot sends it once (a view DM that already shows an event's text replaces the event's DM)."""
    return f"Your sealed fire orders: {side.sealed_text} (nonce `{side.nonce}`)."


def _seal_side(state: State, side: Side, rng: Rng, by: str) -> list[Event]:
    side.sealed_text = sealed_text(state, side)
    side.nonce = rng.nonce(side.sealed_text)
    side.commitment = seal(side.sealed_text, side.nonce)
    side.sealed = True
    return [
        public(f"{side.name} has sealed its fire orders{by}. Commitment: `{side.commitment}`."),
        private(sealed_note(side), side.id),
    ]


def seal_orders(state: State, seat: str, order: Seal, rng: Rng) -> list[Event]:
    """A side seals its fire orders; when both have, fire resolves."""
    if state.phase != FIRE:
        raise WrongPhase(f"{quote(order.text)}: fire orders are sealed at the start of a turn; now it is movement.")
    if seat == UMPIRE:
        raise NotAllowed(f"{quote(order.text)}: the umpire does not seal for a side.", hint="Use `reveal` to resolve fire now.")
    side = state.side(seat)
    if side.sealed:
        raise IllegalOrder(f"{quote(order.text)}: {side.name} has already sealed its fire orders this turn.")
    events = _seal_side(state, side, rng, "")
    if all(s.sealed for s in state.sides):
        events += resolve_fire(state, rng)
    return events


def reveal(state: State, seat: str, rng: Rng) -> list[Event]:
    """The umpire seals every side's orders as they stand and resolves fire now."""
    if seat != UMPIRE:
        raise NotAllowed("`reveal`: only the umpire may reveal the fire orders early.", hint="Give your fire orders and `seal`.")
    if state.phase != FIRE:
        raise WrongPhase("`reveal`: there are no sealed fire orders to reveal now; it is movement.")
    events: list[Event] = []
    for side in state.sides:
        if not side.sealed:
            events += _seal_side(state, side, rng, " (sealed as they stood by the umpire's reveal)")
    return events + resolve_fire(state, rng)


def resolve_fire(state: State, rng: Rng) -> list[Event]:
    """Section 1's N.B.: firing is simultaneous, so damage lands after every ship has rolled and a
    ship sunk this turn still fires. Then initiative, unless the battle is over."""
    events = [public("All fire orders are sealed: here they are, with their nonces.", reveals=True)]
    for side in state.sides:
        events.append(public(f"{side.sealed_text} (nonce `{side.nonce}`; check SHA-256 of `nonce:text` = `{side.commitment}`).",
                             reveals=True))
    state.marks = []
    pending: dict[str, int] = {}
    shots = [e for side in state.sides for e in _side_fires(state, side, pending, rng)]
    events += shots
    for ship in state.ships:
        if pending.get(ship.id, 0):
            events.append(public(" ".join(damage_report(state, ship, pending[ship.id]))))
    if not any(e.reveals for e in shots):
        events.append(public("No ship fired this turn."))
    events += check_end(state)
    if state.phase != OVER:
        events += initiative(state, rng)
    return events


def _side_fires(state: State, side: Side, pending: dict[str, int], rng: Rng) -> list[Event]:
    """Each of the side's ships rolls at its target; hits are only added up (``pending``)."""
    events: list[Event] = []
    for ship in state.ships:
        target_id = side.orders.get(ship.id, HOLD) if ship.side == side.id else HOLD
        if not target_id or not can_fire(state, ship):
            continue
        target = state.ship(target_id)
        shot = assess_shot(state, ship, target)
        if shot.problem:
            events.append(public(f"{ship.name}'s fire at {target.name} is void: {shot.problem}."))
            continue
        roll = roll_firing_dice(rng, shot.dice)
        hits = hits_of(roll)
        pending[target.id] = pending.get(target.id, 0) + hits
        text = f"{ship.name} fires at {target.name} (range {shot.range}, {shot.arc}, {dice_word(shot.dice)}): {describe_roll(roll)} = {points(hits)}."
        events.append(public(text, reveals=True))
        state.marks.append(Mark("fire", [(ship.q, ship.r), (target.q, target.r)], ship.side, f"{hits}"))
    return events


# --- 1b: initiative, then each side moves --------------------------------------------------------


def initiative(state: State, rng: Rng) -> list[Event]:
    """Both sides throw a d6 (ties re-rolled); the lower moves first."""
    first, second = state.sides
    first.initiative, second.initiative = [], []
    while True:
        a, b = rng.die(6), rng.die(6)
        first.initiative.append(a)
        second.initiative.append(b)
        if a != b:
            break
    rolls = ", ".join(f"{first.name} {a} / {second.name} {b}" for a, b in zip(first.initiative, second.initiative, strict=True))
    lower, higher = (first, second) if first.initiative[-1] < second.initiative[-1] else (second, first)
    state.move_order = [lower.id, higher.id]
    state.moving = 0
    state.phase = MOVE
    for ship in state.ships:
        ship.moved = False
    tie = " (ties re-rolled)" if len(first.initiative) > 1 else ""
    events = [public(f"Initiative: {rolls}{tie}. {lower.name} moves first.", reveals=True)]
    return events + advance_movement(state, rng)


def advance_movement(state: State, rng: Rng) -> list[Event]:
    """Move the broken-off ships of the side to move, then wait for its orders or pass on."""
    events: list[Event] = []
    while state.phase == MOVE:
        mover = state.mover()
        for ship in state.ships:
            if ship.side == mover and ship.status == BROKEN_OFF and not ship.moved:
                events += break_off_move(state, ship)
        events += check_end(state)
        if state.phase != MOVE or unmoved(state):
            return events
        state.moving += 1
        if state.moving >= len(state.move_order):
            events += movement_over(state, rng)
    return events


def after_ship_moved(state: State, rng: Rng) -> list[Event]:
    """A ship has moved: the game may be over, or the side done, or the movement phase."""
    events = check_end(state)
    if state.phase == MOVE and not unmoved(state):
        state.moving += 1
        if state.moving >= len(state.move_order):
            return events + movement_over(state, rng)
        events += advance_movement(state, rng)
    return events


def done(state: State, seat: str, rng: Rng) -> list[Event]:
    """The moving side ends its movement; its ships not yet moved stay."""
    if state.phase != MOVE:
        raise WrongPhase("`done`: it is the fire phase; give fire orders and `seal`.")
    mover = state.side(state.mover())
    if seat not in (mover.id, UMPIRE):
        raise NotYourTurn(f"`done`: {mover.name} moves now, not {state.side(seat).name}.", hint="Wait for your side's movement.")
    staying = unmoved(state)
    for ship in staying:
        ship.moved = True
    names = ", ".join(s.name for s in staying)
    events = [public(f"{mover.name} ends its movement" + (f" ({names} stay{'s' if len(staying) == 1 else ''})." if staying else "."))]
    return events + after_ship_moved(state, rng)


# --- 1c: rams adjudicated, the turn ends ---------------------------------------------------------


def movement_over(state: State, rng: Rng) -> list[Event]:
    """Both sides have moved: adjudicate the rams in the order made, then end the turn."""
    events = adjudicate_rams(state, rng)
    if events:
        events += check_end(state)
    if state.phase == OVER:
        return events
    return events + end_turn(state)


def end_turn(state: State) -> list[Event]:
    """The turn is over: the next begins with fire orders, unless the turn limit is reached."""
    if state.turn >= state.turn_limit:
        return finish_by_limit(state)
    state.turn += 1
    state.phase = FIRE
    state.move_order = []
    state.moving = 0
    for side in state.sides:
        side.orders = {}
        side.sealed = False
        side.sealed_text = side.nonce = side.commitment = ""
        side.initiative = []
    for ship in state.ships:
        ship.moved = False
    return [public(f"Turn {state.turn} begins: both sides give their fire orders and `seal`.")]


# --- the end (project ruling) --------------------------------------------------------------------


def check_end(state: State) -> list[Event]:
    """A side with no ship left fighting loses (both at once: a draw)."""
    if state.phase == OVER:
        return []
    beaten = [s for s in state.sides if not any(sh.side == s.id and sh.status == FIGHTING for sh in state.ships)]
    if not beaten:
        return []
    if len(beaten) == len(state.sides):
        state.winner = None
        state.result = "Neither side has a ship left fighting: a draw."
    else:
        winner = next(s for s in state.sides if s not in beaten)
        state.winner = winner.id
        state.result = f"{beaten[0].name} has no ship left fighting: {winner.name} wins."
    state.phase = OVER
    return [public(f"The battle is over: {state.result}", reveals=True)]


def finish_by_limit(state: State) -> list[Event]:
    """At the turn limit the side that has inflicted more flotation points wins."""
    inflicted = {s.id: sum(sh.lost for sh in state.ships if sh.side != s.id) for s in state.sides}
    a, b = state.sides
    score = f"{a.name} inflicted {points(inflicted[a.id])}, {b.name} {points(inflicted[b.id])}"
    if inflicted[a.id] == inflicted[b.id]:
        state.winner = None
        state.result = f"Turn limit ({state.turn_limit}) reached; {score}: a draw."
    else:
        winner = a if inflicted[a.id] > inflicted[b.id] else b
        state.winner = winner.id
        state.result = f"Turn limit ({state.turn_limit}) reached; {score}: {winner.name} wins."
    state.phase = OVER
    return [public(f"The battle is over: {state.result}", reveals=True)]
