"""The contract every rule system implements, and the registry that finds them by id.

A game is ``(system, scenario, options, seed)`` plus an append-only list of orders; its state is
a pure fold of those orders over ``setup``. ``apply`` may mutate the state it is given: the table
service always hands it a fresh copy and throws the copy away when a ``GameError`` is raised,
so "on error nothing changes" holds for every system without each one having to care.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, Never, NoReturn, TypeVar

from games.core.codec import from_json, to_json
from games.core.errors import InvalidSyntax, UnknownName, quote
from games.core.rng import Rng
from games.core.view import BoardMark, Overlay, View

S = TypeVar("S")
OrderT = TypeVar("OrderT", bound="Order")  # a system's order type: the union of its typed order classes
SeatKind = Literal["side", "ship", "umpire", "player"]
UMPIRE = "umpire"
MAX_DIGITS = 12  # no order of any system needs a longer number
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


@dataclass(frozen=True)
class Seat:
    """A place a person can sit: a side, a single ship, or the umpire."""

    id: str
    label: str
    side: str = ""
    kind: SeatKind = "side"
    optional: bool = False  # the game can start with this seat empty (e.g. the umpire)


@dataclass(frozen=True)
class Event:
    """Something that happened, with who may read it.

    ``to`` is None for the whole channel, else the seat ids that may read it (the umpire always
    may). ``reveals`` marks an event that showed something random or hidden: the order that
    caused it can then only be undone by the umpire.
    """

    text: str
    to: frozenset[str] | None = None
    reveals: bool = False

    @property
    def public(self) -> bool:
        return self.to is None


def public(text: str, *, reveals: bool = False) -> Event:
    return Event(text, None, reveals)


def private(text: str, *seats: str) -> Event:
    return Event(text, frozenset(seats), False)


@dataclass(frozen=True)
class Outcome:
    winner: str | None  # side id, or None for a draw
    reason: str
    details: tuple[str, ...] = ()


@dataclass(frozen=True)
class Applied(Generic[S]):
    """An order's whole result in one value (``Ruleset.resolve``): the state after it, what it
    told whom, who must act now and the outcome if it ended the game. The table service asks the
    rules once per order for this rather than asking each question again."""

    state: S
    events: list[Event]
    to_act: list[str]
    outcome: Outcome | None


@dataclass(frozen=True)
class ScenarioInfo:
    id: str
    name: str
    description: str = ""


@dataclass(frozen=True)
class OptionSpec:
    """A game option, checked by ``games.core.options.check_options``: one of ``choices``, or a
    whole number within ``between``, else free text (validated by the system). A default of ""
    means "unset", and "" may then be given."""

    key: str
    description: str
    default: str
    choices: tuple[str, ...] = ()
    between: tuple[int, int] | None = None


class Order:
    """A parsed order; ``text`` is its canonical notation, the line the game's log stores.

    Typed orders (frozen dataclasses declared with ``games.core.notation``) subclass it and work
    ``text`` out from their fields; every system in ``games/`` uses them (tests/test_skeleton.py
    checks). ``Order(text, args)`` is the untyped form, left for the small stand-in systems the
    tests build (tests/e2e, tests/bot): a value, compared by both parts.
    """

    __slots__ = ("_args", "_text")
    _text: str
    _args: tuple[str, ...]

    def __init__(self, text: str, args: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_args", tuple(args))

    @property
    def text(self) -> str:
        return self._text

    @property
    def args(self) -> tuple[str, ...]:
        """The untyped order's words by position (typed orders have fields instead)."""
        return self._args

    def __setattr__(self, name: str, value: object) -> None:
        if name in Order.__slots__ and not hasattr(self, name):  # once: __init__, copy, pickle
            object.__setattr__(self, name, value)
            return
        raise AttributeError(f"an order is frozen: cannot set {name}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Order)
        return (self.text, self.args) == (other.text, other.args)

    def __hash__(self) -> int:
        return hash((self.text, self.args))

    def __repr__(self) -> str:
        return f"Order({self.text!r}, {self.args!r})"

    def __str__(self) -> str:
        return self.text


class Ruleset(ABC, Generic[S, OrderT]):
    """One rule system. Implementations are stateless; all game state lives in ``S``; its orders are
    ``OrderT`` (the union of its typed order classes), so mypy checks that ``apply`` handles each."""

    id: ClassVar[str]
    name: ClassVar[str]
    state_type: ClassVar[type[Any]]
    book: ClassVar[str] = ""  # the title of the rule book this system carries out, shown in help
    # what this system's views draw, for /help's board key (games.core.view.BOARD_KEY): checked
    # against the views of a played game by tests/bot/test_help_matches_the_game.py
    board_marks: ClassVar[frozenset[BoardMark]] = frozenset()
    # The rules' own order for giving up, when they keep who is out (the free table's `concede`):
    # /game concede then gives this order, so both ways of conceding are one. Only for rules whose
    # seats are their sides (one seat each). None: the rules know no concession and the table
    # service logs its own mark.
    concede_order: ClassVar[str | None] = None
    # The version of these rules a game is played under, stored with each new game. Bump it when a
    # change makes an old game's log replay differently or its saved state unreadable: such a game
    # is then refused with both versions named (bot/rooms/records.py), never crashed on.
    rules_version: ClassVar[str] = "1"

    @abstractmethod
    def scenarios(self) -> list[ScenarioInfo]: ...

    def options(self) -> list[OptionSpec]:
        return []

    @abstractmethod
    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> S: ...

    @abstractmethod
    def seats(self, state: S) -> list[Seat]: ...

    def check_start(self, state: S, seated: set[str]) -> None:
        """Refuse to start (raise a GameError) when the seats taken cannot play these options."""

    @abstractmethod
    def to_act(self, state: S) -> list[str]:
        """Seat ids that must act now (drives pings and reminders)."""

    @abstractmethod
    def legal_orders(self, state: S, seat: str) -> list[OrderT]:
        """The orders this seat may give now, for autocomplete and buttons (each re-checked on
        apply); ``legal_texts`` prints them."""

    @abstractmethod
    def parse_order(self, state: S, seat: str, text: str) -> OrderT: ...

    def format_order(self, order: OrderT) -> str:
        return order.text

    @abstractmethod
    def apply(self, state: S, seat: str, order: OrderT, rng: Rng) -> list[Event]:
        """Carry out an order. Must refuse, with a GameError (NotYourTurn for turn order), any order
        this seat may not give now: the service passes every seated player's orders through."""

    def resolve(self, state: S, seat: str, order: OrderT, rng: Rng) -> Applied[S]:
        """``apply``, then who acts next and the outcome, in one value: what the service needs of
        an order. A system that learns who acts next or the outcome while applying may override
        it to skip the second look; the result must equal this default's."""
        events = self.apply(state, seat, order, rng)
        return Applied(state, events, self.to_act(state), self.outcome(state))

    def play(self, state: S, seat: str, text: str, rng: Rng) -> list[Event]:
        """A logged order replayed from its text (a replay, a verify): ``parse_order`` then
        ``apply``. A system whose ``parse_order`` already makes every check ``apply`` makes may
        skip the second one here; the result must be the same."""
        return self.apply(state, seat, self.parse_order(state, seat, text), rng)

    def replay(self, state: S, seat: str, text: str, rng: Rng) -> list[Event]:
        """A logged order replayed only to be shown again (``/game replay``), never to check it
        (``/game verify`` and the live game use ``play``): ``play`` by default. A system may skip
        here a check that can only refuse (it changes nothing and gives the order back as it came),
        since the store holds only orders that passed it; for every such order the state, the
        stream and the events must be exactly ``play``'s."""
        return self.play(state, seat, text, rng)

    @abstractmethod
    def view(self, state: S, seat: str | None) -> View: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    def preview_overlays(self, state: S, seat: str, moved: frozenset[str]) -> list[Overlay]:
        """Aiming aids for a preview (``games/core/preview.py``): e.g. range and arc lines from the
        counters in ``moved`` (ids in ``view(state, seat)``), as they would stand after the order,
        to targets this seat can see. Only what ``view(state, seat)`` already shows may be used."""
        return []

    def help(self) -> str:
        return self.name

    def summary(self, state: S) -> list[str]:
        """Status lines for the pinned status message (default: the view's status strip)."""
        return list(self.view(state, None).status)

    def standing(self, state: S) -> list[str]:
        """Where a running game stands if /game end stops it before the rules end it: a system
        that counts its own result (Days of Iron's 18.2 margin) says what it would be. Default:
        nothing, as most systems have no result short of their own end."""
        return []

    # --- serialisation (dataclass states need nothing more) ----------------------------------
    def encode(self, state: S) -> Any:
        return to_json(state)

    def decode(self, data: Any) -> S:
        result: S = from_json(self.state_type, data)
        return result


_REGISTRY: dict[str, Callable[[], Ruleset[Any, Any]]] = {}


def unhandled(order: Never, *, hint: str = "") -> NoReturn:
    """The end of ``apply``'s ``match``: mypy refuses the call while any order class of the
    system's order type is unhandled (``order`` must have been narrowed to ``Never``); at run time
    an order of no class of the system (an untyped one) is refused."""
    raise InvalidSyntax(f"Cannot carry out {quote(str(order))}.", hint=hint)


def legal_texts(rules: Ruleset[S, OrderT], state: S, seat: str) -> list[str]:
    """The legal orders printed once each, in order: what autocomplete offers."""
    return list(dict.fromkeys(rules.format_order(o) for o in rules.legal_orders(state, seat)))


def read_order(rules: Ruleset[S, OrderT], state: S, seat: str, text: str) -> OrderT:
    """A new order's text, parsed by ``rules`` after the checks every system needs: a number of
    thousands of digits is slow to convert and past 4,300 Python refuses with a plain ValueError
    that no parser expects. (Orders already in a log are replayed with ``parse_order`` as given.)"""
    long = _LONG_NUMBER.search(text)
    if long:
        raise InvalidSyntax(f"The number {quote(long.group())} is too long: numbers in orders have at most "
                            f"{MAX_DIGITS} digits.")
    return rules.parse_order(state, seat, text)


def register(system_id: str) -> Callable[[Callable[[], Ruleset[Any, Any]]], Callable[[], Ruleset[Any, Any]]]:
    """Class decorator / factory registration: ``@register("ironclad-draughts")``."""

    def deco(factory: Callable[[], Ruleset[Any, Any]]) -> Callable[[], Ruleset[Any, Any]]:
        _REGISTRY[system_id] = factory
        return factory

    return deco


_BROKEN: dict[str, str] = {}
_loaded = False


def get_ruleset(system_id: str) -> Ruleset[Any, Any]:
    """Find a system by id (loading the built-in systems on first use)."""
    _load_builtin()
    if system_id in _REGISTRY:
        return _REGISTRY[system_id]()
    if system_id.replace("-", "_") in _BROKEN:
        raise UnknownName(f"The system {quote(system_id)} failed to load on this server.",
                          hint="An admin should check the log.")
    known = ", ".join(sorted(_REGISTRY))
    raise UnknownName(f"No game system called {quote(system_id)}.", hint=f"Systems: {known}.")


def system_ids() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def system_modules() -> list[str]:
    """The modules that registered the known systems: a worker process imports them to know the
    same systems (one registered outside ``games/``, such as a test's, too)."""
    return sorted({factory.__module__ for factory in _REGISTRY.values()})


def broken_systems() -> dict[str, str]:
    """Packages under ``games/`` that failed to import, with the error (a test asserts none)."""
    _load_builtin()
    return dict(_BROKEN)


def _load_builtin() -> None:
    """Import every rule-system package once; one broken package must not take the others down."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib
    import logging
    import pkgutil

    import games

    for module in pkgutil.iter_modules(games.__path__):
        if module.name in ("core", "tools"):
            continue
        try:
            importlib.import_module(f"games.{module.name}")
        except Exception as exc:  # a broken system is reported, never fatal to the table
            _BROKEN[module.name] = f"{type(exc).__name__}: {exc}"
            logging.getLogger(__name__).exception("rule system %s failed to load", module.name)
