"""Book section 3, Sequence of Play, the umpire: he shuffles and deals, and (project ruling) keeps the record
sheets: his adjustments set a ship's flotation, place or remove a Damage Card, move a ship or
turn it, each logged publicly (project ruling: the umpire "may deal, adjust, undo and rule").
"""

from __future__ import annotations

from games.core.decks import card_name, rank_of
from games.core.errors import IllegalOrder, InvalidSyntax, NotAllowed, WrongPhase, quote
from games.core.rng import Rng
from games.core.ruleset import UMPIRE
from games.core.squaregrid import HEADING_NAMES, Square, parse_heading
from games.ironclad_draughts.orders import (
    ADJUST_FORM,
    UMPIRE_ORDERS,
    Adjust,
    AdjustAt,
    AdjustDamage,
    AdjustFlotation,
    AdjustHeading,
    Deal,
    ship_names,
)
from games.ironclad_draughts.rules.movement_4 import update_manoeuvre
from games.ironclad_draughts.rules.sequence_3 import advance, check_end, deal
from games.ironclad_draughts.rules.sinking_7 import sink
from games.ironclad_draughts.state import (
    ACTIVATE,
    DEAL,
    KIND_OF_RANK,
    OVER,
    DamageCard,
    Ship,
    State,
    in_play,
    label,
    on_board,
    ship_at,
    ship_by_id,
)

ADJUST_KEYS = ("flotation", "damage", "at", "heading")


def check_start(state: State, seated: set[str]) -> None:
    """Option umpire_deals=yes needs the umpire seated: nobody else deals (Sequence 2)."""
    if state.options.get("umpire_deals") == "yes" and UMPIRE not in seated:
        raise WrongPhase(
            "Option umpire_deals=yes needs someone in the umpire seat, or nobody would ever deal.",
            hint="Take the seat with /game join seat:umpire, or start a new game without that option.",
        )


def _check_umpire(state: State, seat: str, text: str) -> None:
    """Only the umpire deals and adjusts, and not once the game is over."""
    head = text.split()[0].casefold()
    if seat != UMPIRE:
        raise NotAllowed(f"Only the umpire may {quote(head)}.", hint="Players order their own ship when it is active.")
    if state.phase == OVER:
        raise WrongPhase(f"The game is over; {quote(text)} changes nothing.")


def check_deal(state: State, seat: str, text: str) -> None:
    """A deal is due only when the umpire deals (option umpire_deals=yes) and the turn is over (Sequence 2)."""
    _check_umpire(state, seat, text)
    if state.phase == DEAL and len(text.split()) != 1:
        raise InvalidSyntax(f"{quote(text)}: `deal` takes nothing after it.", hint="Write `deal`.")
    if state.phase != DEAL:
        raise WrongPhase(f"{quote(text)}: there is nothing to deal now.", hint="The turn's cards are already dealt.")


def deal_cards(state: State, rng: Rng) -> str:
    """The umpire's deal (Sequence 2), then the first activation."""
    lines: list[str] = ["Umpire deals."]
    state.marks = []
    deal(state, rng, lines)
    advance(state, rng, lines)
    return "\n".join(lines)


def read_order(state: State, seat: str, text: str) -> Deal | Adjust:
    """Read the umpire's ``deal`` or ``adjust ...``, refused to anyone else."""
    if text.split()[0].casefold() == "deal":
        check_deal(state, seat, text)
        return Deal()
    _check_umpire(state, seat, text)
    words = [w.casefold() for w in text.split()]
    if not any(w in ADJUST_KEYS for w in words[2:]):
        raise InvalidSyntax(f"{quote(text)} is not an adjustment.", hint=f"Write `{ADJUST_FORM}`.")
    order = UMPIRE_ORDERS.parse(text, ship_names(state))
    if not isinstance(order, AdjustFlotation | AdjustDamage | AdjustAt | AdjustHeading):
        raise InvalidSyntax(f"{quote(text)} is not an adjustment.", hint=f"Write `{ADJUST_FORM}`.")
    return check_adjust(state, seat, order, text)


def parse_square(state: State, word: str, text: str) -> Square:
    """A square on this board written like ``c4`` (files a.., ranks 1..)."""
    t = word.strip().casefold()
    if len(t) >= 2 and t[0].isalpha() and t[1:].isdigit():
        sq = Square(ord(t[0]) - ord("a"), int(t[1:]) - 1)
        if on_board(state, sq):
            return sq
    last = label(Square(state.width - 1, state.height - 1))
    raise InvalidSyntax(f"{quote(text)}: {quote(word)} is not a square on this board.", hint=f"Squares run a1 to {last}.")


def _check_damage(state: State, ship: Ship, order: AdjustDamage, text: str) -> None:
    card = order.card
    if order.action == "add":
        if rank_of(card) not in KIND_OF_RANK:
            raise IllegalOrder(f"{quote(text)}: only A, K, Q and J stay in force as damage cards.")
        holder = next((s for s in state.ships if any(d.card == card for d in s.damage)), None)
        if holder is not None:
            raise IllegalOrder(f"{quote(text)}: {card_name(card)} is already in force on {holder.name}.")
    elif not any(d.card == card for d in ship.damage):
        held = ", ".join(card_name(d.card) for d in ship.damage) or "none"
        raise IllegalOrder(f"{quote(text)}: {ship.name} has no {card_name(card)} in force (has: {held}).")


def check_adjust(state: State, seat: str, order: Adjust, text: str) -> Adjust:
    """Refuse an adjustment that cannot stand; else the order in canonical form (a square as ``c4``)."""
    _check_umpire(state, seat, text)
    ship = ship_by_id(state, order.ship.id)
    if not in_play(ship):
        raise IllegalOrder(f"{quote(text)}: {ship.name} is no longer in play.", hint="Use the table's undo instead.")
    match order:
        case AdjustFlotation(points=points) if points > ship.flotation_max:
            raise InvalidSyntax(f"{quote(text)}: flotation must be a number from 0 to {ship.flotation_max}.")
        case AdjustDamage():
            _check_damage(state, ship, order, text)
        case AdjustAt(square=word):
            sq = parse_square(state, word, text)
            other = ship_at(state, sq)
            if other is not None and other.id != ship.id:
                raise IllegalOrder(f"{quote(text)}: {other.name} is already at {label(sq)}.")
            return AdjustAt(order.ship, label(sq))
    return order


def _adjust_damage(state: State, ship: Ship, order: AdjustDamage, lines: list[str]) -> None:
    card = order.card
    if order.action == "add":
        deck = state.damage_deck
        for pile in (deck.draw_pile, deck.discards):
            if card in pile:
                pile.remove(card)
        ship.damage.append(DamageCard(card, KIND_OF_RANK[rank_of(card)]))
        lines.append(f"{card_name(card)} placed: {KIND_OF_RANK[rank_of(card)]} hit.")
    else:
        dmg = next(d for d in ship.damage if d.card == card)
        ship.damage.remove(dmg)
        state.damage_deck.discard(card)
        lines.append(f"{card_name(card)} removed: {dmg.kind} repaired.")


def adjust(state: State, order: Adjust, rng: Rng) -> str:
    """Carry out a checked adjustment; a ship it sinks ends its activation (or the game)."""
    ship = ship_by_id(state, order.ship.id)
    lines = [f"**Umpire adjusts {ship.name}**: {order.text}"]
    match order:
        case AdjustFlotation(points=points):
            old = ship.flotation
            ship.flotation = points
            lines.append(f"Flotation {old} -> {ship.flotation}/{ship.flotation_max}.")
            if ship.flotation == 0:
                sink(state, ship, lines)
        case AdjustDamage():
            _adjust_damage(state, ship, order, lines)
        case AdjustAt(square=square):
            sq = parse_square(state, square, order.text)
            lines.append(f"Moved {label(Square(ship.x, ship.y))} -> {label(sq)}.")
            ship.x, ship.y = sq.x, sq.y
            update_manoeuvre(ship)
        case AdjustHeading(heading=heading):
            ship.heading = parse_heading(heading)
            lines.append(f"Heading now {HEADING_NAMES[ship.heading]}.")
    if state.phase == ACTIVATE and not in_play(ship_by_id(state, state.active)):
        ship_by_id(state, state.active).activated = True
        advance(state, rng, lines)
    else:
        check_end(state, lines)
    return "\n".join(lines)
