"""The free table as a ``Ruleset``: the thin adapter the table service calls, and where it registers."""

from __future__ import annotations

from typing import ClassVar

from games.core.errors import InvalidSyntax, UnknownName, quote
from games.core.options import check_options, with_defaults
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, OptionSpec, Outcome, Ruleset, ScenarioInfo, Seat, register, unhandled
from games.core.view import BoardMark, View
from games.table import orders, view
from games.table.data import settings
from games.table.orders import Concede, Move, Place, Remove, Say, TableOrder
from games.table.rules import conceding_3, messages_2, pieces_1
from games.table.state import State

# The table's "book": what games.table.rules carries out, section by section (also its /help).
RULES = """\
Free table: sides, a square board and the table tools; the bot enforces no rules beyond whose pieces are whose.
Options: sides=Red,Blue (2-6 sides), board=8x8 (files x ranks, up to 26x26).
1. Pieces. `place LABEL SQUARE [HEADING]` puts a new piece of your side on an empty square, e.g. `place Warspite d1 N`; \
`move LABEL SQUARE [HEADING]` moves one of yours, e.g. `move Warspite d4 NE`; `remove LABEL` takes it off. \
Labels are one word; the umpire may move or remove any piece.
2. Messages. Anything else you order is posted as a message from your side, for all to read.
3. Conceding. `concede` (or /game concede, the same): your side is out and places, moves or removes no more \
pieces (its messages still post); the last side standing wins.
Dice, decks, secret rolls and sealed orders are the table tools (/roll, /deck, /seal), in every channel."""

OPTIONS = (
    OptionSpec("sides", "Comma-separated side names (2-6)", "Red,Blue"),
    OptionSpec("board", "Board size FILESxRANKS", "8x8"),
)


def _sides(text: str) -> list[str]:
    limits = settings()
    sides = [s.strip() for s in text.split(",") if s.strip()]
    if not 2 <= len(sides) <= limits.max_sides or len({s.lower() for s in sides}) != len(sides):
        raise InvalidSyntax(f"sides={quote(text)}: give 2 to {limits.max_sides} different side names, e.g. sides=Red,Blue.")
    for side in sides:
        if side.lower() == UMPIRE:  # its seat id would be the umpire's, with the umpire's powers
            raise InvalidSyntax(f"sides={quote(side)}: {UMPIRE} is the umpire's seat; name the side otherwise.")
        if len(side) > limits.max_side_name:
            raise InvalidSyntax(f"sides={quote(side)}: a side name may be at most {limits.max_side_name} characters.")
    return sides


def _board(text: str) -> tuple[int, int]:
    size, most = text.lower(), settings().max_board
    try:
        w, h = (int(x) for x in size.split("x"))
    except ValueError:
        raise InvalidSyntax(f"board={quote(size)}: write the board as FILESxRANKS, e.g. board=8x8.") from None
    if not (2 <= w <= most and 2 <= h <= most):
        raise InvalidSyntax(f"board={quote(size)}: each side of the board must be 2 to {most} squares.")
    return w, h


@register("table")
class FreeTable(Ruleset[State, TableOrder]):
    id = "table"
    name = "Free table"
    state_type = State
    board_marks: ClassVar[frozenset[BoardMark]] = frozenset({"last-action"})  # no turns, so no ring
    public_orders = True  # no hidden pieces or orders: its legal orders may be offered as public buttons
    concede_order = "concede"  # /game concede gives this order (section 3)

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("free", "Free play", "Sides, a square board and the table tools; no rules enforced.")]

    def options(self) -> list[OptionSpec]:
        return list(OPTIONS)

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> State:
        if scenario not in ("free", ""):
            raise UnknownName(f"No table scenario {quote(scenario)}.", hint="Use scenario:free.")
        full = with_defaults(OPTIONS, check_options(OPTIONS, options, system=self.name))
        return State(_sides(full["sides"]), *_board(full["board"]))

    def seats(self, state: State) -> list[Seat]:
        return [Seat(s.lower(), s, s.lower(), "side") for s in state.sides] + [
            Seat(UMPIRE, "Umpire", "", "umpire", optional=True)
        ]

    def to_act(self, state: State) -> list[str]:
        return []

    def legal_orders(self, state: State, seat: str) -> list[TableOrder]:
        if seat in state.conceded:
            return []
        own: list[TableOrder] = [Remove(p.label) for p in state.pieces if p.side == seat or seat == UMPIRE]
        return own + ([] if seat == UMPIRE else [Concede()])

    def parse_order(self, state: State, seat: str, text: str) -> TableOrder:
        return orders.parse(text)

    def apply(self, state: State, seat: str, order: TableOrder, rng: Rng) -> list[Event]:
        if isinstance(order, Place | Move | Remove):
            conceding_3.still_playing(state, seat)
        match order:
            case Place():
                return pieces_1.place(state, seat, order)
            case Move():
                return pieces_1.move(state, seat, order)
            case Remove():
                return pieces_1.remove(state, seat, order)
            case Concede():
                return conceding_3.concede(state, seat)
            case Say():
                return messages_2.say(state, seat, order)
            case _:
                unhandled(order)

    def view(self, state: State, seat: str | None) -> View:
        return view.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return conceding_3.outcome(state)

    def help(self) -> str:
        return RULES
