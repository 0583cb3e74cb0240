"""The orders, as typed values: an activation is ONE order, e.g. ``move 2 port turn starboard
fire Affondatore``, ``move 1 leave``, ``pass`` or ``fire Huascar``; the umpire's are ``deal`` and
``adjust SHIP flotation N | damage add/remove CARD | at SQUARE | heading NE``.

Each class is a frozen dataclass whose ``PATTERN`` is its canonical notation
(``games.core.notation``); ``ALIASES`` and the word slots below read the other spellings players
have always been able to use (``p``/``larboard``, ``stbd``/``s``/``sb``, ``ahead``/``a``/
``straight``, ``move diag port``), which are never printed. The active ship's name in front of
an activation (``Huascar move 2``) is read by ``rules/sequence_3.read_order``, which checks it
names the active ship; the canonical text has no name, as stored games have logged it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from games.core.decks import rank_of
from games.core.errors import InvalidSyntax, quote
from games.core.notation import Grammar, Name, Number, Ref, Slot, Token, Typed
from games.core.squaregrid import HEADING_NAMES, parse_heading
from games.ironclad_draughts.state import Ship, State

PORT_WORDS = ("port", "p", "larboard")
STARBOARD_WORDS = ("starboard", "stbd", "s", "sb")
AHEAD_WORDS = ("ahead", "a", "straight")
ACTION_WORDS = ("move", "fire", "pass")
MOVE_FORM = "move N [port|starboard] [turn port|starboard] [leave] [fire TARGET]"
ACTIVATION_HINT = f"Form: `{MOVE_FORM}`, `pass` or `fire TARGET`."
ADJUST_FORM = "adjust SHIP flotation N | damage add/remove CARD | at SQUARE | heading NE"

Helm = Literal["port", "starboard"]


@dataclass(frozen=True)
class Side(Slot):
    """``port`` or ``starboard`` and their short words; with ``ahead`` also the words for straight
    on, read as ``ahead`` and printed as nothing (an ahead move prints as ``move 2``)."""

    ahead: bool = False
    after: str = ""  # the word it follows, for messages: "turn", "diag"

    def describe(self) -> str:
        return "port, starboard or ahead" if self.ahead else "port or starboard"

    def read(self, words: Sequence[str], ctx: Any) -> str:
        word = words[0].casefold()
        if word in PORT_WORDS:
            return "port"
        if word in STARBOARD_WORDS:
            return "starboard"
        if self.ahead and word in AHEAD_WORDS:
            return "ahead"
        if word in ("turn", "diag", "diagonal") or self.after:
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(self.after or word)} needs `port` or `starboard`.")
        raise InvalidSyntax(f"{quote(ctx.text)}: did not understand {quote(words[0])}.", hint=ACTIVATION_HINT)

    def show(self, value: Any) -> str:
        return "" if value == "ahead" else str(value)

    def usage(self, field: str) -> str:
        return "port|starboard"


@dataclass(frozen=True)
class Squares(Number):
    """How many squares a move goes (``diag`` in its place is the diagonal move missing its side)."""

    def read(self, words: Sequence[str], ctx: Any) -> int:
        if words[0].casefold() in ("diag", "diagonal"):
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(words[0])} needs `port` or `starboard`.")
        if not words[0].isdigit():
            raise InvalidSyntax(f"{quote(ctx.text)}: how many squares?", hint="Write `move 1` or `move 2`.")
        return super().read(words, ctx)


@dataclass(frozen=True)
class Card(Slot):
    """A playing card like ``QH``, ``10c`` or ``J♠``, printed as rank and suit letter (``JS``)."""

    what: str = "card"

    def read(self, words: Sequence[str], ctx: Any) -> str:
        card = words[0].strip().upper()
        for symbol, letter in {"♥": "H", "♣": "C", "♦": "D", "♠": "S"}.items():
            card = card.replace(symbol, letter)
        if not rank_of(card):
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(words[0])} is not a card.", hint="Write it like QH, 10C or J♠.")
        return card


@dataclass(frozen=True)
class Heading(Slot):
    """A compass heading (N, NE, ... NW), printed in capitals."""

    what: str = "heading"

    def read(self, words: Sequence[str], ctx: Any) -> str:
        return HEADING_NAMES[parse_heading(words[0])]


ShipName = Annotated[Ref, Name("ship")]


@dataclass(frozen=True)
class Move(Typed):
    """The activation's move: N squares in the heading or 45 degrees off it, an optional 90-degree
    turn at the end, ``leave`` to steam off the board, then fire (Movement 1, Firing 1)."""

    PATTERN: ClassVar[str] = "move {distance} [{offset}] [turn {turn}] {leave} [fire {target}]"
    ALIASES: ClassVar[tuple[str, ...]] = (
        "move diag {diagonal} [turn {turn}] {leave} [fire {target}]",
        "move diagonal {diagonal} [turn {turn}] {leave} [fire {target}]",
    )
    distance: Annotated[int, Squares(lo=0, what="number of squares")] = 1
    offset: Annotated[Literal["ahead", "port", "starboard"], Side(ahead=True)] = "ahead"
    turn: Annotated[Helm | None, Side(after="turn")] = None
    leave: bool = False
    target: Annotated[Ref | None, Name("ship")] = None
    diagonal: Annotated[Helm | None, Side(after="diag")] = None  # read only: ``move diag port`` is ``move 1 port``

    def __post_init__(self) -> None:
        if self.diagonal is not None:
            object.__setattr__(self, "offset", self.diagonal)
            object.__setattr__(self, "distance", 1)
            object.__setattr__(self, "diagonal", None)

    @property
    def steps(self) -> int:
        """45-degree steps off the bow: -1 port, 0 ahead, +1 starboard."""
        return {"port": -1, "ahead": 0, "starboard": 1}[self.offset]

    @property
    def turn_steps(self) -> int:
        """The turn at the end in 45-degree steps: -2 port, +2 starboard, 0 none."""
        return {"port": -2, "starboard": 2, None: 0}[self.turn]


@dataclass(frozen=True)
class Pass(Typed):
    """No choice of move: a damaged ship makes the move its damage dictates (Firing 4), or a
    damaged ship stops (option damaged_may_stop, Movement 2); it does not fire."""

    PATTERN: ClassVar[str] = "pass"

    @property
    def target(self) -> None:
        """A pass fires at nothing (so every activation order has a target, maybe None)."""
        return None


@dataclass(frozen=True)
class Fire(Typed):
    """As ``pass``, then fire every gun that bears at one target (Firing 1)."""

    PATTERN: ClassVar[str] = "fire {target}"
    target: ShipName


@dataclass(frozen=True)
class Deal(Typed):
    """The umpire deals the turn's activation cards (Sequence of Play 2; option umpire_deals)."""

    PATTERN: ClassVar[str] = "deal"


@dataclass(frozen=True)
class AdjustFlotation(Typed):
    """The umpire sets a ship's flotation points."""

    PATTERN: ClassVar[str] = "adjust {ship} flotation {points}"
    ship: ShipName
    points: Annotated[int, Number(lo=0, what="flotation")]


@dataclass(frozen=True)
class AdjustDamage(Typed):
    """The umpire places a Damage Card in force on a ship, or removes one."""

    PATTERN: ClassVar[str] = "adjust {ship} damage {action} {card}"
    ship: ShipName
    action: Literal["add", "remove"]
    card: Annotated[str, Card()]


@dataclass(frozen=True)
class AdjustAt(Typed):
    """The umpire moves a ship to a square."""

    PATTERN: ClassVar[str] = "adjust {ship} at {square}"
    ship: ShipName
    square: Annotated[str, Token(r"\S+", "square", "c4")]


@dataclass(frozen=True)
class AdjustHeading(Typed):
    """The umpire turns a ship to a heading."""

    PATTERN: ClassVar[str] = "adjust {ship} heading {heading}"
    ship: ShipName
    heading: Annotated[str, Heading()]


Activation = Move | Pass | Fire
Adjust = AdjustFlotation | AdjustDamage | AdjustAt | AdjustHeading
DraughtsOrder = Activation | Deal | Adjust
ACTIVATION = Grammar(Move, Pass, Fire, hint=ACTIVATION_HINT)
UMPIRE_ORDERS = Grammar(Deal, AdjustFlotation, AdjustDamage, AdjustAt, AdjustHeading, hint=f"Write `{ADJUST_FORM}`.")


def ship_names(state: State) -> dict[str, dict[str, str]]:
    """The names an order may use: every ship's, sunk and gone ones too (the rules say why not)."""
    return {"ship": {s.id: s.name for s in state.ships}}


def ref(ship: Ship) -> Ref:
    return Ref(ship.id, ship.name)
