"""``table``: a free-form game for any group, with sides, an optional umpire and a square board.

The bot enforces no rules beyond whose pieces are whose: players post orders as text (logged for
all to read) and push labelled pieces around a square board. Dice, decks, secret rolls and sealed
orders come from the table tools, which work in every channel.

Options: ``sides=Red,Blue`` (2-6 sides), ``board=8x8`` (files x ranks, up to 26x26).
Orders::

    place LABEL SQUARE [HEADING]     a new piece of your side, e.g. ``place Warspite d1 N``
    move LABEL SQUARE [HEADING]      e.g. ``move Warspite d4 NE``
    remove LABEL
    concede
    anything else                    logged as a message from your side
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.errors import IllegalOrder, InvalidSyntax, NotAllowed, UnknownName, quote
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, OptionSpec, Order, Outcome, Ruleset, ScenarioInfo, Seat, public, register
from games.core.squaregrid import HEADING_NAMES, Square, SquareBoard, parse_heading
from games.core.view import Board, Counter, Overlay, SideInfo, View

PALETTE = ("#c0392b", "#2c6fbb", "#2e8b57", "#d68910", "#7d3c98", "#5d6d7e")
MAX_PIECES = 200
MAX_SIDE_NAME = 40  # side names appear in every message and on the board
MAX_LABEL = 24  # a piece label is drawn on its counter
LABEL_FORBIDDEN = frozenset("<>@`*~|")  # mentions and markdown would ping or garble every message naming it


@dataclass
class Piece:
    label: str
    side: str
    square: Square
    heading: int | None = None


@dataclass
class TableState:
    sides: list[str]
    width: int
    height: int
    pieces: list[Piece] = field(default_factory=list)
    conceded: list[str] = field(default_factory=list)
    last_move: list[int] = field(default_factory=list)  # x0, y0, x1, y1 of the last move, drawn as its path


def _options(options: dict[str, str]) -> tuple[list[str], int, int]:
    sides = [s.strip() for s in options.get("sides", "Red,Blue").split(",") if s.strip()]
    if not 2 <= len(sides) <= 6 or len({s.lower() for s in sides}) != len(sides):
        raise InvalidSyntax(f"sides={quote(options.get('sides', ''))}: give 2 to 6 different side names, e.g. sides=Red,Blue.")
    for side in sides:
        if side.lower() == UMPIRE:  # its seat id would be the umpire's, with the umpire's powers
            raise InvalidSyntax(f"sides={quote(side)}: {UMPIRE} is the umpire's seat; name the side otherwise.")
        if len(side) > MAX_SIDE_NAME:
            raise InvalidSyntax(f"sides={quote(side)}: a side name may be at most {MAX_SIDE_NAME} characters.")
    size = options.get("board", "8x8").lower()
    try:
        w, h = (int(x) for x in size.split("x"))
    except ValueError:
        raise InvalidSyntax(f"board={quote(size)}: write the board as FILESxRANKS, e.g. board=8x8.") from None
    if not (2 <= w <= 26 and 2 <= h <= 26):
        raise InvalidSyntax(f"board={quote(size)}: each side of the board must be 2 to 26 squares.")
    return sides, w, h


@register("table")
class FreeTable(Ruleset[TableState]):
    id = "table"
    name = "Free table"
    state_type = TableState

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("free", "Free play", "Sides, a square board and the table tools; no rules enforced.")]

    def options(self) -> list[OptionSpec]:
        return [
            OptionSpec("sides", "Comma-separated side names (2-6)", "Red,Blue"),
            OptionSpec("board", "Board size FILESxRANKS", "8x8"),
        ]

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> TableState:
        if scenario not in ("free", ""):
            raise UnknownName(f"No table scenario {quote(scenario)}.", hint="Use scenario:free.")
        sides, w, h = _options(options)
        return TableState(sides, w, h)

    def seats(self, state: TableState) -> list[Seat]:
        return [Seat(s.lower(), s, s.lower(), "side") for s in state.sides] + [
            Seat(UMPIRE, "Umpire", "", "umpire", optional=True)
        ]

    def to_act(self, state: TableState) -> list[str]:
        return []

    def legal_orders(self, state: TableState, seat: str) -> list[str]:
        own = [p for p in state.pieces if p.side == seat or seat == UMPIRE]
        return [f"remove {p.label}" for p in own] + ["concede"] if seat != UMPIRE else [f"remove {p.label}" for p in own]

    def parse_order(self, state: TableState, seat: str, text: str) -> Order:
        words = text.split()
        if not words:
            raise InvalidSyntax("Empty order.", hint="Write an order, e.g. `move Warspite d4`.")
        return Order(" ".join(words), tuple(words))

    def _board(self, state: TableState) -> SquareBoard:
        return SquareBoard(state.width, state.height)

    def _piece(self, state: TableState, label: str) -> Piece:
        for p in state.pieces:
            if p.label.casefold() == label.casefold():
                return p
        raise UnknownName(f"No piece called {quote(label)}.", hint="Pieces: " + (", ".join(p.label for p in state.pieces) or "none"))

    def apply(self, state: TableState, seat: str, order: Order, rng: Rng) -> list[Event]:
        words = list(order.args)
        verb = words[0].lower()
        who = "Umpire" if seat == UMPIRE else next(s for s in state.sides if s.lower() == seat)
        if verb in ("place", "move") and len(words) in (3, 4):
            square = self._board(state).parse(words[2])
            heading = parse_heading(words[3]) if len(words) == 4 else None
            occupant = next((p for p in state.pieces if p.square == square), None)
            if verb == "place":
                if seat == UMPIRE:
                    raise NotAllowed("The umpire places pieces for a side by ordering in that seat.")
                label = words[1]
                if len(label) > MAX_LABEL or LABEL_FORBIDDEN & set(label):
                    raise InvalidSyntax(f"Label {quote(label)}: use at most {MAX_LABEL} characters, none of < > @ ` * ~ |.",
                                        hint="e.g. `place Warspite d1 N`")
                if any(p.label.casefold() == words[1].casefold() for p in state.pieces):
                    raise IllegalOrder(f"A piece called {quote(words[1])} is already on the board.")
                if len(state.pieces) >= MAX_PIECES:
                    raise IllegalOrder(f"The board holds at most {MAX_PIECES} pieces.")
                if occupant:
                    raise IllegalOrder(f"{quote(words[2])} is occupied by {occupant.label}.")
                state.pieces.append(Piece(words[1], seat, square, heading))
                state.last_move = []
                return [public(f"{who} places {words[1]} on {words[2].lower()}.")]
            piece = self._piece(state, words[1])
            if piece.side != seat and seat != UMPIRE:
                raise NotAllowed(f"{piece.label} is not yours to move.")
            if occupant and occupant is not piece:
                raise IllegalOrder(f"{quote(words[2])} is occupied by {occupant.label}.")
            state.last_move = [piece.square.x, piece.square.y, square.x, square.y]
            piece.square = square
            piece.heading = heading if heading is not None else piece.heading
            facing = f" heading {HEADING_NAMES[piece.heading]}" if piece.heading is not None else ""
            return [public(f"{who} moves {piece.label} to {words[2].lower()}{facing}.")]
        if verb == "remove" and len(words) == 2:
            piece = self._piece(state, words[1])
            if piece.side != seat and seat != UMPIRE:
                raise NotAllowed(f"{piece.label} is not yours to remove.")
            state.pieces.remove(piece)
            state.last_move = []
            return [public(f"{who} removes {piece.label}.")]
        if verb == "concede" and len(words) == 1:
            if seat == UMPIRE:
                raise NotAllowed("The umpire cannot concede for a side; use /game end.")
            if seat in state.conceded:
                raise IllegalOrder("You have already conceded.")
            state.conceded.append(seat)
            return [public(f"{who} concedes.")]
        return [public(f"**{who}**: {order.text}")]

    def view(self, state: TableState, seat: str | None) -> View:
        board = Board(kind="square", key=f"table:{state.width}x{state.height}", width=state.width, height=state.height)
        sides = tuple(SideInfo(s.lower(), s, PALETTE[i % len(PALETTE)]) for i, s in enumerate(state.sides))
        counters = tuple(
            Counter(
                id=p.label,
                label=p.label,
                side=p.side,
                pos=(p.square.x, p.square.y),
                facing=None if p.heading is None else 45.0 * p.heading,
            )
            for p in state.pieces
        )
        # a free table has no turn, so no ring ("acts now"); the last move shows as a path, as elsewhere
        moved = state.last_move
        mover = next((p.side for p in state.pieces if moved[2:] == [p.square.x, p.square.y]), "") if moved else ""
        overlays = (Overlay("path", ((moved[0], moved[1]), (moved[2], moved[3])), side=mover),) if len(moved) == 4 else ()
        status = (f"Free table: {', '.join(state.sides)}", f"{len(state.pieces)} pieces on the board")
        return View(board=board, viewer=seat, sides=sides, counters=counters, overlays=overlays, status=status,
                    title="Free table")

    def outcome(self, state: TableState) -> Outcome | None:
        standing = [s for s in state.sides if s.lower() not in state.conceded]
        if len(standing) == 1:
            return Outcome(standing[0].lower(), f"{standing[0]} is the last side standing; the others conceded.")
        return None

    def help(self) -> str:
        return __doc__ or self.name
