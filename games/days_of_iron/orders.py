"""The orders, as typed values: one short line each, starting with its verb (``staff``, ``hide 74th at
the wood``, ``loss 2e de Ligne 3``, ``next``...; the help lists them all).

Each class is a frozen dataclass whose ``PATTERN`` is its notation (``games.core.notation``). Names
are read as players type them (a unit's name, a prefix, its id) and printed as ids, so the text the
log stores replays exactly whatever the units are called. ``read`` turns text into an order; the
rules modules then check it (``ruleset.py`` says which) and may make it canonical (the successor's
command for ``promote``, backticks out of free text).
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from games.core.errors import (
    AmbiguousName,
    GameError,
    InvalidSyntax,
    NotAllowed,
    UnknownName,
    quote,
    resolve_name,
    resolve_suggesting,
)
from games.core.notation import Decimal, Flag, Free, Grammar, Number, Slot, Typed
from games.core.ruleset import UMPIRE
from games.days_of_iron.data import reference, rules
from games.days_of_iron.state import CAPTURED, GONE, HIDDEN, KILLED, ON_TABLE, ROUTING, State, Unit

MAX_TEXT = 200  # characters of free text (where a unit hides, what is disputed)
EMPTY_HINT = "Try `initiative`, `next`, `loss UNIT 2` or see the help."
VERBS = (
    "staff", "hide", "offboard", "cancel", "scout", "ready", "initiative", "next", "reveal", "dust",
    "loss", "rout", "rally", "destroyed", "routed-off", "surrender", "captured", "killed", "promote",
    "objective", "morale", "table", "dispute", "check", "end",
)  # fmt: skip
TABLE_VERBS = ("move", "form", "measure", "fire", "charge", "stand", "evade", "feint", "reserve", "return", "attach", "detach", "go", "turn", "fortify",
               "squadron", "dismount", "mount", "demolish", "clear", "pontoon")  # the measured table's orders: `UNIT move 6`, `UNIT form line`
MODIFIER = re.compile(r"[+-]\d{1,3}")


# --- slots: how a name, a record number or a modifier is read and printed -----------------------


@dataclass(frozen=True)
class Id(Slot):
    """One or more words naming something of ``domain``, printed as its id. A name the seat's own
    preferred things (``names[prefer]``) match wins a tie, so e.g. ``promote`` finds the lost
    General; only the seat's own are preferred, so no answer depends on an enemy's secret status."""

    domain: str
    prefer: str = ""
    max_words: ClassVar[int | None] = None

    def describe(self) -> str:
        return self.domain

    def read(self, words: Sequence[str], ctx: Any) -> str:
        text = " ".join(words)
        if ctx.shape_only:
            return text
        if self.prefer:
            with contextlib.suppress(UnknownName, AmbiguousName):
                return resolve_name(text, dict(ctx.names[self.prefer]), self.domain)
        return resolve_suggesting(text, ctx.names[self.domain], self.domain)


@dataclass(frozen=True)
class OneId(Id):
    """A one-word name (a table, a check), printed as its id."""

    max_words: ClassVar[int | None] = 1


@dataclass(frozen=True)
class Numbered(Slot):
    """A record's number, ``3`` or ``#3``."""

    what: str = "record number"

    def read(self, words: Sequence[str], ctx: Any) -> int:
        digits = words[0].lstrip("#")
        if not digits.isdigit():
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(words[0])} is not a record number.")
        return int(digits)


@dataclass(frozen=True)
class Holder(Slot):
    """Who holds an objective: a side (one word), or ``none``/``nobody``, printed ``none``."""

    what: str = "side or none"

    def read(self, words: Sequence[str], ctx: Any) -> str:
        if words[0].casefold() in ("none", "nobody"):
            return "none"
        if ctx.shape_only:
            return words[0]
        return resolve_name(words[0], dict(ctx.names["side"]), "side")


@dataclass(frozen=True)
class TestName(Slot):
    """A morale test's id (one word, as the reference sheets spell it)."""

    what: str = "morale test"

    def read(self, words: Sequence[str], ctx: Any) -> str:
        word = words[0].casefold()
        if word not in ctx.names["test"]:
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(words[0])} is not a morale test.")
        return word


@dataclass(frozen=True)
class Factors(Slot):
    """The factors a player names for a morale test, lower case, printed apart."""

    what: str = "factors"
    max_words: ClassVar[int | None] = None

    def read(self, words: Sequence[str], ctx: Any) -> tuple[str, ...]:
        return tuple(w.casefold() for w in words)

    def show(self, value: Any) -> str:
        return " ".join(value)


@dataclass(frozen=True)
class Column(Slot):
    """A dice table's column, one or more words (not ending in a modifier: ``+2`` is the modifier)."""

    what: str = "column"
    max_words: ClassVar[int | None] = None

    def read(self, words: Sequence[str], ctx: Any) -> str:
        if MODIFIER.fullmatch(words[-1]):
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(words[-1])} is the modifier, not a column.")
        return " ".join(words)


@dataclass(frozen=True)
class Modifier(Slot):
    """A dice modifier written with its sign, ``+2`` or ``-1``."""

    what: str = "modifier"

    def read(self, words: Sequence[str], ctx: Any) -> int:
        if not MODIFIER.fullmatch(words[0]):
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(words[0])} is not a modifier.")
        return int(words[0])

    def show(self, value: Any) -> str:
        return f"{value:+d}"


UnitId = Annotated[str, Id("unit", "preferred")]
BrigadeId = Annotated[str, Id("brigade")]
Text = Annotated[str, Free("text")]
Words = Annotated[str, Free("side")]


# --- the orders ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Staff(Typed):
    """Roll the side's staff quality (14.1; 19.4 with staff=national). The umpire names the side."""

    PATTERN: ClassVar[str] = "staff [{side}]"
    side: Words | None = None


@dataclass(frozen=True)
class Ready(Typed):
    """The side has finished its set-up (16). The umpire names the side."""

    PATTERN: ClassVar[str] = "ready [{side}]"
    side: Words | None = None


@dataclass(frozen=True)
class Hide(Typed):
    """Record a hidden unit on the deployment map, sealed (16.4)."""

    PATTERN: ClassVar[str] = "hide {unit} at {where}"
    unit: UnitId
    where: Text


@dataclass(frozen=True)
class Offboard(Typed):
    """Hold a brigade off the table, sealed (16.5)."""

    PATTERN: ClassVar[str] = "offboard {brigade} [at [{where}]]"  # a bare `at` reads as no place
    brigade: BrigadeId
    where: Text | None = None


@dataclass(frozen=True)
class Cancel(Typed):
    """Drop one of the side's own sealed records before the battle."""

    PATTERN: ClassVar[str] = "cancel {number}"
    number: Annotated[int, Numbered()]


@dataclass(frozen=True)
class Scout(Typed):
    """Send light cavalry scouting, sealed until both sides are ready (19.1)."""

    PATTERN: ClassVar[str] = "scout {unit}"
    unit: UnitId


@dataclass(frozen=True)
class Initiative(Typed):
    """Both sides roll for the initiative (17.1)."""

    PATTERN: ClassVar[str] = "initiative"


@dataclass(frozen=True)
class Next(Typed):
    """The acting side is done with its part of the phase (17)."""

    PATTERN: ClassVar[str] = "next"


@dataclass(frozen=True)
class End(Typed):
    """Propose (or, for the umpire, declare) the end of the battle (18)."""

    PATTERN: ClassVar[str] = "end"


@dataclass(frozen=True)
class Reveal(Typed):
    """Place a hidden unit, publishing its record (16.4)."""

    PATTERN: ClassVar[str] = "reveal {unit}"
    unit: UnitId


@dataclass(frozen=True)
class Dust(Typed):
    """An off-board brigade arrives: "dust on the horizon" (16.5)."""

    PATTERN: ClassVar[str] = "dust {brigade} [at [{where}]]"  # a bare `at` reads as no place
    brigade: BrigadeId
    where: Text | None = None


@dataclass(frozen=True)
class Loss(Typed):
    """A unit loses stands (or guns) (17.3, 17.5.2; shattered units 17.5.8)."""

    PATTERN: ClassVar[str] = "loss {unit} {stands}"
    unit: UnitId
    stands: Annotated[int, Number(lo=0)]


FateWord = Literal["rout", "rally", "destroyed", "routed-off", "surrender", "captured", "killed"]


@dataclass(frozen=True)
class Fate(Typed):
    """What the table did to a unit or General: routs, rallies, is destroyed, routs off, surrenders,
    is captured or killed."""

    PATTERN: ClassVar[str] = "{fate} {unit}"
    fate: FateWord
    unit: UnitId


@dataclass(frozen=True)
class Promote(Typed):
    """Fill a lost General's command by field promotion (14.3)."""

    PATTERN: ClassVar[str] = "promote {unit}"
    unit: UnitId


@dataclass(frozen=True)
class Objective(Typed):
    """Who holds an objective now (18.2)."""

    PATTERN: ClassVar[str] = "objective {objective} {holder}"
    objective: Annotated[str, Id("objective")]
    holder: Annotated[str, Holder()]


@dataclass(frozen=True)
class Morale(Typed):
    """A morale test from the owner's reference sheets (17.2)."""

    PATTERN: ClassVar[str] = "morale {unit} {test} [{factors}]"
    unit: UnitId
    test: Annotated[str, TestName()]
    factors: Annotated[tuple[str, ...], Factors()] = ()


@dataclass(frozen=True)
class Table(Typed):
    """A roll on one of the owner's dice tables (a shooting chart...)."""

    PATTERN: ClassVar[str] = "table {table} [{column}] [{modifier}]"
    table: Annotated[str, OneId("table")]
    column: Annotated[str, Column()] | None = None
    modifier: Annotated[int, Modifier()] | None = None


@dataclass(frozen=True)
class Dispute(Typed):
    """A disputed matter, decided by a die (3.4)."""

    PATTERN: ClassVar[str] = "dispute {matter}"
    matter: Text


@dataclass(frozen=True)
class Check(Typed):
    """One of the book's simple d6 checks (a wood, a ford, a hit General...)."""

    PATTERN: ClassVar[str] = "check {check} [about {about}]"
    check: Annotated[str, OneId("check")]
    about: Text | None = None


@dataclass(frozen=True)
class Move(Typed):
    """Movement Phase (17.4): straight ahead N inches, then (optionally) wheel on a front corner, the
    outer arc costing double; ``forced`` is a forced march in column (12.1)."""

    PATTERN: ClassVar[str] = "{unit} move {inches} [wheel {turn} {degrees}] {forced}"
    unit: UnitId
    inches: Annotated[float, Decimal(0, 60, "inches")]
    turn: Literal["left", "right"] | None = None
    degrees: Annotated[float, Decimal(1, 180, "degrees")] | None = None
    forced: Annotated[bool, Flag("forced")] = False


@dataclass(frozen=True)
class Form(Typed):
    """Movement Phase (17.4, section 12): change formation about the command stand ("march": an
    infantry march column, 12.1)."""

    PATTERN: ClassVar[str] = "{unit} form {formation}"
    unit: UnitId
    formation: Literal["column", "march", "line", "skirmish", "square"]


@dataclass(frozen=True)
class Face(Typed):
    """Movement Phase (17.4.7): turn 90 degrees left or right, or about (180), where the unit stands;
    the book counts it a formation change."""

    PATTERN: ClassVar[str] = "{unit} turn {way}"
    unit: UnitId
    way: Literal["left", "right", "about"]


@dataclass(frozen=True)
class Fire(Typed):
    """Shooting Phase (17.3): the unit fires at an enemy unit in its arcs and range."""

    PATTERN: ClassVar[str] = "{unit} fire at {target}"
    unit: UnitId
    target: Annotated[str, Id("unit")]


@dataclass(frozen=True)
class Charge(Typed):
    """Morale Phase (17.2): declare a charge, take the To Charge test and make the 1st Impulse."""

    PATTERN: ClassVar[str] = "{unit} charge {target}"
    unit: UnitId
    target: Annotated[str, Id("unit")]


@dataclass(frozen=True)
class SquadronCharge(Typed):
    """Morale Phase (17.2.6): a cavalry unit declares a charge by a squadron of ``stands`` of its stands
    (3 or more); the rest may charge the same enemy in the Movement Phase."""

    PATTERN: ClassVar[str] = "{unit} squadron {stands} charge {target}"
    unit: UnitId
    stands: Annotated[int, Number(lo=1, what="stands")]
    target: Annotated[str, Id("unit")]


@dataclass(frozen=True)
class ChargeHome(Typed):
    """Movement Phase (17.4): the Charge Home test and the 2nd Impulse into contact."""

    PATTERN: ClassVar[str] = "{unit} charge home"
    unit: UnitId


@dataclass(frozen=True)
class Surrender(Typed):
    """End of the Close Assault Phase (18.1): the side surrenders one of its affected units."""

    PATTERN: ClassVar[str] = "{unit} surrender"
    unit: UnitId


@dataclass(frozen=True)
class Stand(Typed):
    """Morale Phase (17.2.2): a charged unit takes its Being Charged test and stands."""

    PATTERN: ClassVar[str] = "{unit} stand"
    unit: UnitId


@dataclass(frozen=True)
class Evade(Typed):
    """Morale Phase (17.4.16): a charged skirmisher, battery crew or General takes its Being
    Charged test and, passing, evades half its move directly away from the charger, or into a
    piece of cover (17.4.16), or inside a friendly infantry square (17.4.16, ``square``), or, a
    battery's crews, behind a friendly infantry unit (10.2). ``into`` names a terrain piece or a unit:
    the reading naming one exactly wins (``Grammar``)."""

    PATTERN: ClassVar[str] = "{unit} evade [into {cover}] [into {square}] [behind {friend}]"
    unit: UnitId
    cover: Annotated[str, Id("terrain")] | None = None
    square: Annotated[str, Id("unit")] | None = None
    friend: Annotated[str, Id("unit")] | None = None


@dataclass(frozen=True)
class Feint(Typed):
    """Movement Phase (17.4.2, 17.4.12): a charger goes no further (a feint charge)."""

    PATTERN: ClassVar[str] = "{unit} feint"
    unit: UnitId


@dataclass(frozen=True)
class GoToGround(Typed):
    """Movement Phase (17.2.9): infantry go to ground of their own accord; they rally to come out of it."""

    PATTERN: ClassVar[str] = "{unit} go to ground"
    unit: UnitId


@dataclass(frozen=True)
class Dismount(Typed):
    """Movement Phase (9.1): a cavalry unit dismounts and deploys as skirmishing infantry."""

    PATTERN: ClassVar[str] = "{unit} dismount"
    unit: UnitId


@dataclass(frozen=True)
class Mount(Typed):
    """Movement Phase (9.1): dismounted cavalry take their horses again, in column."""

    PATTERN: ClassVar[str] = "{unit} mount"
    unit: UnitId


@dataclass(frozen=True)
class Fortify(Typed):
    """Movement Phase (17.5.6): infantry in line in a wood or town build defensive cover; said in two
    successive Movement Phases with no other activity, it lays a light obstacle along the front."""

    PATTERN: ClassVar[str] = "{unit} fortify"
    unit: UnitId


@dataclass(frozen=True)
class Demolish(Typed):
    """Movement Phase (11): an engineer and his pioneers work at demolishing a bridge; said in three
    successive quiet Movement Phases (six for a stone bridge), the last rolls 1d6 for a 1" span."""

    PATTERN: ClassVar[str] = "{unit} demolish {bridge}"
    unit: UnitId
    bridge: Annotated[str, Id("terrain")]


@dataclass(frozen=True)
class Clear(Typed):
    """Movement Phase (11): an engineer and his pioneers remove 1" of an obstacle (a wall, a barricade)."""

    PATTERN: ClassVar[str] = "{unit} clear {obstacle}"
    unit: UnitId
    obstacle: Annotated[str, Id("terrain")]


@dataclass(frozen=True)
class Pontoon(Typed):
    """Movement Phase (15.5): an engineer, his pioneers and a foot unit of four stands or more lay a
    pontoon bridge over a river; said in six successive quiet Movement Phases."""

    PATTERN: ClassVar[str] = "{unit} pontoon {river} with {helper}"
    unit: UnitId
    river: Annotated[str, Id("terrain")]
    helper: Annotated[str, Id("unit")]


@dataclass(frozen=True)
class ReserveFire(Typed):
    """Shooting Phase (17.3.1): hold the unit's fire, or that of ``stands`` of its stands (the rest
    may fire as usual), for defensive fire at an enemy charging it."""

    PATTERN: ClassVar[str] = "{unit} reserve fire [{stands}]"
    unit: UnitId
    stands: Annotated[int, Number(lo=1, what="stands")] | None = None


@dataclass(frozen=True)
class Return(Typed):
    """Movement Phase (17.4.16): a unit that evaded off the table comes back three turns later."""

    PATTERN: ClassVar[str] = "{unit} return"
    unit: UnitId


@dataclass(frozen=True)
class Rally(Typed):
    """Morale Phase (17.2.11): the unit takes its rally test (measured table; `rally UNIT` reads the same)."""

    PATTERN: ClassVar[str] = "{unit} rally"
    unit: UnitId


@dataclass(frozen=True)
class Attach(Typed):
    """Movement Phase (14.4): a General joins a unit of his side, placed touching its rear."""

    PATTERN: ClassVar[str] = "{unit} attach {target}"
    unit: UnitId
    target: Annotated[str, Id("unit")]


@dataclass(frozen=True)
class Detach(Typed):
    """Movement Phase (14.4): an attached General leaves his unit (he stays where he stands)."""

    PATTERN: ClassVar[str] = "{unit} detach"
    unit: UnitId


@dataclass(frozen=True)
class Measure(Typed):
    """The distance between two units on the measured table, edge to edge (any time; no die)."""

    PATTERN: ClassVar[str] = "measure {unit} to {target}"
    unit: UnitId
    target: Annotated[str, Id("unit")]


DoiOrder = (Staff | Ready | Hide | Offboard | Cancel | Scout | Initiative | Next | End | Reveal | Dust | Loss | Fate
            | Promote | Objective | Morale | Table | Dispute | Check | Move | Form | Face | Measure | Fire | Charge | ChargeHome
            | Rally | Attach | Detach | Surrender
            | Stand | Evade | Feint | ReserveFire | Return | GoToGround | Fortify | SquadronCharge | Dismount | Mount
            | Demolish | Clear | Pontoon)
GRAMMAR = Grammar(Staff, Ready, Hide, Offboard, Cancel, Scout, Initiative, Next, End, Reveal, Dust, Loss, Promote,
                  Rally, Attach, Detach,
                  Objective, Morale, Table, Dispute, Check, Fate, Move, Form, Face, Measure, Fire, ChargeHome, SquadronCharge,
                  Charge, Surrender,
                  Stand, Evade, Feint, ReserveFire, Return, GoToGround, Fortify, Dismount, Mount, Demolish, Clear,
                  Pontoon, hint="Orders: " + ", ".join(VERBS) + " (see the help).",
                  what="a Days of Iron order", empty="Empty order.", empty_hint=EMPTY_HINT)


# --- reading -------------------------------------------------------------------------------------


def in_play(state: State, unit: Unit) -> bool:
    return unit.status in (ON_TABLE, ROUTING)


def lost_holder(state: State, unit: Unit) -> bool:
    """A lost General who held his command last: the one `promote NAME` should mean (14.3)."""
    if unit.type != "general" or unit.status not in (KILLED, CAPTURED):
        return False
    successor = None if unit.replaces else successor_of(state, unit)
    return successor is None or successor.status not in GONE


def successor_of(state: State, command: Unit) -> Unit | None:
    """The one successor record of a book General's command (14.3), if ever promoted."""
    wanted = f"{command.id}-successor"
    return next((u for u in state.units if u.id == wanted), None)


PREFER: dict[str, Callable[[State, Unit], bool]] = {
    "promote": lost_holder,
    "reveal": lambda state, u: u.status == HIDDEN,
    **{verb: in_play for verb in ("loss", "rout", "rally", "destroyed", "routed-off", "surrender", "captured", "killed")},
}


def names(state: State, seat: str, verb: str) -> dict[str, Mapping[str, str]]:
    """What the slots resolve against: everything by id, and what the seat may name by preference."""
    prefer = PREFER.get(verb)
    ref = reference()
    return {
        "unit": {u.id: u.name for u in state.units},
        "preferred": {u.id: u.name for u in state.units if prefer and seat in (UMPIRE, u.side) and prefer(state, u)},
        "brigade": {b.id: b.name for b in state.brigades if seat in (UMPIRE, b.side)},
        "side": {s.id: s.name for s in state.sides},
        "objective": {o.name: o.name for o in state.objectives},
        "check": {c: c for c in rules().checks},
        "test": {t: t for t in ref.morale},
        "table": {k: v.name for k, v in ref.tables.items()},
        "terrain": {t.name: t.name for t in state.terrain},
    }


def read(state: State, seat: str, text: str) -> DoiOrder:
    """The text as an order of its verb's shape, names resolved (``Grammar.read``: a misshapen order
    is explained as its verb's usage, a misspelt name with the closest names)."""
    from games.days_of_iron.rules.formations_12 import measured

    verb = GRAMMAR.verb(text)
    return _read_named(state, text, verb, names(state, seat, verb), measured(state))


def _read_named(state: State, text: str, verb: str, named: dict[str, Mapping[str, str]], on_table: bool) -> DoiOrder:
    """``read`` once the names are known: it depends on nothing else of the state (``usage`` only words its refusal)."""
    if verb in TABLE_VERBS and not on_table:
        raise NotAllowed(f"{quote(text)}: this game is played with board=tape: move and measure on your own table.",
                         hint="Start a game with option board=measured for the bot to keep the table.")
    order = GRAMMAR.read(text, named, lambda verb, words: usage(state, verb, words))
    assert isinstance(order, DoiOrder)
    return order


REFUSED = "refused"  # a text ``read`` refuses, as a book keeps it
_Book = dict[str, "DoiOrder | str"]  # a text read -> the order, or REFUSED
_BOOKS: dict[tuple[Any, ...], _Book] = {}  # what the names resolve against (and board) -> its book
_BOOKS_LOCK = threading.Lock()
BOOKS_KEPT = 32  # books (games and seats read lately; the oldest is dropped first)
TEXTS_KEPT = 2048  # texts per book (a full book starts again)


class Reader:
    """``read`` for the many texts ``legal_orders`` reads back in one state, remembered across states.

    ``read`` is a function of the text, the names its slots resolve against (``names``: they differ
    by verb only through ``PREFER``) and whether the table is measured, and of nothing else. So each
    reading is kept in a book per distinct set of names, and a text read again against equal names
    (the same game a few orders on: its units are named as before) gives the same order, or the
    same refusal, without the grammar. Only whether a text is refused is kept, not why."""

    def __init__(self, state: State, seat: str) -> None:
        from games.days_of_iron.rules.formations_12 import measured

        self.state, self.seat, self.on_table = state, seat, measured(state)
        self.books: dict[Callable[[State, Unit], bool] | None, tuple[dict[str, Mapping[str, str]], _Book]] = {}

    def read(self, text: str) -> DoiOrder | None:
        """``read(state, seat, text)``, or None where it refuses the text (a ``GameError``)."""
        verb = GRAMMAR.verb(text)
        prefer = PREFER.get(verb)
        if prefer not in self.books:
            named = names(self.state, self.seat, verb)
            key = (self.on_table, *((domain, *mapping.items()) for domain, mapping in named.items()))
            with _BOOKS_LOCK:  # a replay or a drawing thread may read too
                book = _BOOKS.pop(key, None)
                book = {} if book is None or len(book) >= TEXTS_KEPT else book
                _BOOKS[key] = book  # last: the most recently used
                while len(_BOOKS) > BOOKS_KEPT:
                    del _BOOKS[next(iter(_BOOKS))]
            self.books[prefer] = named, book
        named, book = self.books[prefer]
        kept = book.get(text)
        if kept is None:
            try:
                kept = _read_named(self.state, text, verb, named, self.on_table)
            except GameError:
                kept = REFUSED
            book[text] = kept
        return None if isinstance(kept, str) else kept


TABLE_USAGE = {
    "move": "write `UNIT move INCHES [wheel left|right DEGREES] [forced]` (INCHES from 0 to 60, DEGREES from 1 "
            "to 180), e.g. `2/IR12 move 6 wheel left 30`.",
    "form": "write `UNIT form line`, `UNIT form column`, `UNIT form march`, `UNIT form skirmish` or `UNIT form square`.",
    "turn": "write `UNIT turn left`, `UNIT turn right` or `UNIT turn about` (Movement phase; 17.4.7).",
    "measure": "write `measure UNIT to UNIT`.",
    "fire": "write `UNIT fire at TARGET`, e.g. `74th fire at 2e de Ligne`.",
    "attach": "write `GENERAL attach UNIT` (Movement phase; 14.4), e.g. `Doens attach 2e de Ligne`.",
    "detach": "write `GENERAL detach` (Movement phase; 14.4).",
    "charge": "write `UNIT charge TARGET` (Morale phase; an opportunity charge in the Movement phase) "
              "or `UNIT charge home` (Movement phase).",
    "squadron": "write `UNIT squadron STANDS charge TARGET` (cavalry, Morale phase; 3 stands or more, 17.2.6).",
    "stand": "write `UNIT stand` (a charged unit's Being Charged test, Morale phase).",
    "evade": "write `UNIT evade`, `UNIT evade into COVER` (a wood, town... by name), `UNIT evade into SQUARE` (a "
             "friendly infantry square) or, a battery's crews, "
             "`UNIT evade behind FRIEND` (a charged skirmisher, battery or General, Morale phase; 17.4.16, 10.2).",
    "feint": "write `UNIT feint` (a charger stops, Movement phase).",
    "reserve": "write `UNIT reserve fire` or `UNIT reserve fire STANDS` (Shooting phase: keep the fire, or that "
               "many stands' fire, for defensive fire).",
    "return": "write `UNIT return` (Movement phase, three turns after evading off the table).",
    "go": "write `UNIT go to ground` (infantry, Movement phase; 17.2.9).",
    "fortify": "write `UNIT fortify` (infantry in line in a wood or town, Movement phase of two successive "
               "turns; 17.5.6).",
    "dismount": "write `UNIT dismount` (cavalry, Movement phase; 9.1).",
    "mount": "write `UNIT mount` (dismounted cavalry, Movement phase; 9.1).",
    "demolish": "write `ENGINEER demolish BRIDGE` (Movement phase, the bridge by name; 11), e.g. "
                "`Génie detachment demolish Old bridge`.",
    "clear": "write `ENGINEER clear OBSTACLE` (Movement phase, a wall or barricade by name; 11).",
    "pontoon": "write `ENGINEER pontoon RIVER with UNIT` (Movement phase, the river by name and a foot unit of "
               "four stands or more beside the engineer; 15.5), e.g. `Génie detachment pontoon Saar with 2e de Ligne`.",
}


def free_text(value: str | None, what: str) -> str:
    """Free text as stored: present, at most MAX_TEXT characters, no backticks (they break quoting)."""
    value = (value or "").strip()
    if not value:
        raise InvalidSyntax(f"{what} is missing.")
    if len(value) > MAX_TEXT:
        raise InvalidSyntax(f"{what} is too long (at most {MAX_TEXT} characters).")
    return value.replace("`", "'")


def usage(state: State, verb: str, words: list[str]) -> GameError:
    """What is wrong with an order of ``verb`` (its words) that fits no shape, said as the verb's usage."""
    if verb in TABLE_USAGE:
        return InvalidSyntax(TABLE_USAGE[verb])
    rest = words[1:]
    if words[0].casefold() != verb:  # `UNIT rally`, `UNIT surrender` with more after
        return InvalidSyntax(f"write `UNIT {verb}`, with nothing after `{verb}`.")
    if verb in ("staff", "ready", "initiative", "next", "end"):
        return InvalidSyntax(f"`{verb}` takes nothing more.")
    if verb == "dispute":
        return InvalidSyntax("the matter in dispute is missing.")
    if verb == "check":
        return _check_usage(rest)
    if verb == "table":
        return InvalidSyntax("which table?", hint=f"Tables: {', '.join(reference().tables)}.")
    if verb == "hide":
        if state.options.get("board", "tape") == "measured":
            return InvalidSyntax("where is it hidden?", hint="Write `hide UNIT at X Y [facing DEGREES] [line|column|skirmish]`, "
                                 "inches from the table's top-left corner, inside your deployment zone (16.2, 16.4).")
        return InvalidSyntax("where is it hidden?", hint="Write `hide UNIT at WHERE` (location, formation and facing, 16.4).")
    fixed = {
        "cancel": "write `cancel N` with your record's number.",
        "objective": "write `objective NAME SIDE` (or `none`).",
        "loss": "write `loss UNIT N` (N stands or guns).",
        "offboard": "which brigade?",
        "dust": "which brigade?",
    }
    if verb == "morale":
        return InvalidSyntax("write `morale UNIT TEST [FACTOR ...]`.", hint=f"Tests: {', '.join(reference().morale)}.")
    return InvalidSyntax(fixed.get(verb, "which unit?"))


def _check_usage(rest: list[str]) -> GameError:
    checks = rules().checks
    if not rest:
        return InvalidSyntax("which check?", hint=f"Checks: {', '.join(checks)}.")
    cid = resolve_name(rest[0], {c: c for c in checks}, "check")
    if rest[1].casefold() != "about":
        return InvalidSyntax(f"write `check {cid} about WHAT`.")
    return InvalidSyntax("what the check is about is missing.")


def own_unit(state: State, seat: str, unit_id: str) -> Unit:
    """A side records its own units; the owner records theirs (the umpire any)."""
    unit = state.unit(unit_id)
    if seat not in (UMPIRE, unit.side):
        raise NotAllowed(f"{unit.name} belongs to the {state.side_name(unit.side)}.",
                         hint="Record your own side's units; the owner records theirs.")
    return unit
