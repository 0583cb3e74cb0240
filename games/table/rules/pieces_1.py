"""Book section 1, Pieces: each side places, moves and removes its own labelled pieces on the
square board; the umpire may move or remove any piece (and places pieces for a side by ordering
in that side's seat). Nothing else is enforced: the table has no rules of movement."""

from __future__ import annotations

from games.core.errors import IllegalOrder, InvalidSyntax, NotAllowed, UnknownName, quote
from games.core.ruleset import UMPIRE, Event, public
from games.core.squaregrid import HEADING_NAMES, Square, SquareBoard, parse_heading
from games.table.data import LABEL_FORBIDDEN, settings
from games.table.orders import Move, Place, Remove
from games.table.state import Piece, State, side_name


def find_piece(state: State, label: str) -> Piece:
    """Section 1: pieces are named by their labels, in any case."""
    for p in state.pieces:
        if p.label.casefold() == label.casefold():
            return p
    raise UnknownName(f"No piece called {quote(label)}.", hint="Pieces: " + (", ".join(p.label for p in state.pieces) or "none"))


def _square(state: State, text: str, heading: str | None) -> tuple[Square, int | None]:
    square = SquareBoard(state.width, state.height).parse(text)
    return square, (parse_heading(heading) if heading is not None else None)


def _occupant(state: State, square: Square) -> Piece | None:
    return next((p for p in state.pieces if p.square == square), None)


def place(state: State, seat: str, order: Place) -> list[Event]:
    """Section 1: a new piece of the ordering side on an empty square; labels are unique."""
    square, heading = _square(state, order.square, order.heading)
    if seat == UMPIRE:
        raise NotAllowed("The umpire places pieces for a side by ordering in that seat.")
    label, limits = order.label, settings()
    if len(label) > limits.max_label or LABEL_FORBIDDEN & set(label):
        raise InvalidSyntax(f"Label {quote(label)}: use at most {limits.max_label} characters, none of < > @ ` * ~ |.",
                            hint="e.g. `place Warspite d1 N`")
    if any(p.label.casefold() == label.casefold() for p in state.pieces):
        raise IllegalOrder(f"A piece called {quote(label)} is already on the board.")
    if len(state.pieces) >= limits.max_pieces:
        raise IllegalOrder(f"The board holds at most {limits.max_pieces} pieces.")
    occupant = _occupant(state, square)
    if occupant:
        raise IllegalOrder(f"{quote(order.square)} is occupied by {occupant.label}.")
    state.pieces.append(Piece(label, seat, square, heading))
    state.last_move = []
    return [public(f"{side_name(state, seat)} places {label} on {order.square.lower()}.")]


def move(state: State, seat: str, order: Move) -> list[Event]:
    """Section 1: a piece of one's own (the umpire: any) to an empty square, optionally turned."""
    square, heading = _square(state, order.square, order.heading)
    piece = find_piece(state, order.label)
    if piece.side != seat and seat != UMPIRE:
        raise NotAllowed(f"{piece.label} is not yours to move.")
    occupant = _occupant(state, square)
    if occupant and occupant is not piece:
        raise IllegalOrder(f"{quote(order.square)} is occupied by {occupant.label}.")
    state.last_move = [piece.square.x, piece.square.y, square.x, square.y]
    piece.square = square
    piece.heading = heading if heading is not None else piece.heading
    facing = f" heading {HEADING_NAMES[piece.heading]}" if piece.heading is not None else ""
    return [public(f"{side_name(state, seat)} moves {piece.label} to {order.square.lower()}{facing}.")]


def remove(state: State, seat: str, order: Remove) -> list[Event]:
    """Section 1: a piece of one's own (the umpire: any) leaves the board."""
    piece = find_piece(state, order.label)
    if piece.side != seat and seat != UMPIRE:
        raise NotAllowed(f"{piece.label} is not yours to remove.")
    state.pieces.remove(piece)
    state.last_move = []
    return [public(f"{side_name(state, seat)} removes {piece.label}.")]
