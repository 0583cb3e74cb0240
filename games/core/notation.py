"""Order notation: typed, frozen order classes declared with a pattern; one grammar reads and prints them.

An order is a small frozen value, like python-chess's ``Move`` (``Move.from_uci(text)`` /
``move.uci()``): ``Grammar.parse`` turns text into the right class, ``order.text`` prints it back
in canonical form, and ``apply`` matches on the class (``case Fire(ship=s, target=t):``), so mypy
checks what every part of an order means instead of ``args[2]``. Declaring one::

    Ship = Annotated[Ref, Name("ship")]

    @dataclass(frozen=True)
    class Fire(Typed):
        \"\"\"Fire at one enemy ship (book section 2).\"\"\"

        PATTERN: ClassVar[str] = "{ship} fire {target}"
        ship: Ship
        target: Ship

    GRAMMAR = Grammar(Fire, Hold, Move, Stay, Seal)
    GRAMMAR.parse("monitor FIRE virg", names={"ship": {"monitor": "Monitor", "virginia": "Virginia"}})
    # -> Fire(ship=Ref("monitor", "Monitor"), target=Ref("virginia", "Virginia")), text "Monitor fire Virginia"

A pattern is words (matched case-insensitively, printed as written) and ``{field}`` slots; ``[...]``
marks an optional part (its fields need defaults: None, or False for a flag) that is printed when
one of its fields differs from its default. ``ALIASES`` are further patterns that are read but never
printed (``"{ship} move"`` read as ``Stay``). What a slot reads follows from the field's type:

- ``Annotated[Ref, Name("ship")]``: one or more words naming something, resolved by
  ``resolve_name`` against ``names["ship"]`` (id -> display name) given to ``parse``.
- ``int`` or ``Annotated[int, Number(lo, hi, signed=...)]``: a whole number; ``float`` or
  ``Annotated[float, Decimal(lo, hi)]``: a number that may have a fraction.
- ``Literal["port", "starboard"]``: one of these words.
- ``bool`` or ``Annotated[bool, Flag("helm-port")]``: that word (by default the field's name, with
  ``-`` for ``_``) is there or not; it may stand outside ``[...]``.
- ``Annotated[str, Steps("FPS", {"L": "P", "R": "S"})]``: step letters, written together or apart
  (``FFS`` or ``F F S``), printed apart.
- ``Annotated[str, Token(regex, "hex number")]``: one word matching a regex (a hex, a square).
- ``Annotated[str, Free("note")]``: the rest of the line.

Round trip: ``grammar.parse(o.text, names) == o`` and ``grammar.parse(t, names).text`` is the
canonical spelling of ``t`` (``tests/core/test_notation.py`` checks both with Hypothesis).
``each(Fire, ship=ships, target=lambda chosen: targets_of(chosen["ship"]))`` lists candidate
orders for ``legal_orders`` from per-field candidate lists.

``Grammar.read`` reads as a player means an order, for systems with many verbs (Days of Iron):
the verb first (``Grammar.verb``), then the shape of that verb's orders with names unresolved (a
misshapen order is answered with the verb's usage, which the system words), then the names (a
misspelt name is answered as a name, with the closest few: ``resolve_suggesting``).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, TypeAlias, TypeVar, Union

from games.core.errors import GameError, InvalidSyntax, quote, resolve_name
from games.core.ruleset import Order

__all__ = [
    "Decimal",
    "Flag",
    "Free",
    "Grammar",
    "Name",
    "Number",
    "Ref",
    "Steps",
    "Token",
    "Typed",
    "Word",
    "each",
]

MAX_WORDS = 60  # no order of any system is longer; a longer text is refused before matching
FOLD = "\x00"  # joins the tail of an over-long free text into one word while ``Grammar.read`` reads it
T = TypeVar("T", bound="Typed")


@dataclass(frozen=True)
class Ref:
    """Something named in an order: its id (what the rules use) and display name (what prints)."""

    id: str
    name: str

    def __str__(self) -> str:
        return self.name


# --- slot kinds: what one {field} reads and prints ----------------------------------------------


class Slot:
    """How one ``{field}`` reads words and prints its value. ``what`` names it in messages."""

    min_words: ClassVar[int] = 1
    max_words: ClassVar[int | None] = 1

    def describe(self) -> str:
        """What the slot holds, for messages: "ship", "number", "port or starboard"."""
        return str(getattr(self, "what", "word"))

    def read(self, words: Sequence[str], ctx: _Reading) -> Any:
        raise NotImplementedError

    def show(self, value: Any) -> str:
        return str(value)

    def usage(self, field: str) -> str:
        return f"<{field}>"


@dataclass(frozen=True)
class Name(Slot):
    """One or more words naming something of ``domain`` (a ship, a unit, a card)."""

    domain: str
    max_words: ClassVar[int | None] = None

    def describe(self) -> str:
        return self.domain

    def read(self, words: Sequence[str], ctx: _Reading) -> Ref:
        text = " ".join(words)
        if ctx.shape_only:
            return Ref(text, text)
        names = ctx.names.get(self.domain)
        if names is None:
            raise KeyError(f"parse() was given no names for {self.domain!r}")
        key = resolve_name(text, dict(names), self.domain)
        if text.casefold() not in (key.casefold(), names[key].casefold()):
            ctx.inexact += 1
        return Ref(key, names[key])

    def show(self, value: Any) -> str:
        return str(value.name)


@dataclass(frozen=True)
class Number(Slot):
    """A whole number from ``lo`` to ``hi``; ``signed`` prints ``+1`` (and needs the sign)."""

    lo: int | None = None
    hi: int | None = None
    signed: bool = False
    what: str = "number"

    def read(self, words: Sequence[str], ctx: _Reading) -> int:
        word = words[0]
        if not re.fullmatch(r"[+-]?\d+" if self.signed else r"-?\d+", word):
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(word)} is not a whole number.", hint=self._range())
        value = int(word)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(word)} is out of range.", hint=self._range())
        return value

    def show(self, value: Any) -> str:
        return f"{value:+d}" if self.signed else str(value)

    def _range(self) -> str:
        if self.lo is not None and self.hi is not None:
            return f"Give a whole number from {self.lo} to {self.hi}."
        if self.lo is not None:
            return f"Give a whole number of at least {self.lo}."
        return "Give a whole number."


@dataclass(frozen=True)
class Decimal(Slot):
    """A number that may have a fraction (inches, degrees)."""

    lo: float | None = None
    hi: float | None = None
    what: str = "number"

    def read(self, words: Sequence[str], ctx: _Reading) -> float:
        word = words[0]
        if not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)", word):
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(word)} is not a number.", hint="Write e.g. `12` or `2.5`.")
        value = float(word)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(word)} is out of range.",
                                hint=f"Give a number from {self.lo} to {self.hi}.")
        return value

    def show(self, value: Any) -> str:
        text = repr(float(value))
        return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True)
class Word(Slot):
    """One of a fixed set of words (from ``Literal[...]``); printed as declared."""

    choices: tuple[str, ...]

    def describe(self) -> str:
        return " or ".join(self.choices)

    def read(self, words: Sequence[str], ctx: _Reading) -> str:
        for choice in self.choices:
            if words[0].casefold() == choice.casefold():
                return choice
        raise InvalidSyntax(f"{quote(ctx.text)}: expected {' or '.join(map(quote, self.choices))}, got {quote(words[0])}.")

    def usage(self, field: str) -> str:
        return "|".join(self.choices)


@dataclass(frozen=True)
class Flag(Slot):
    """A word that is there (True) or not (False); ``word`` "" means the field's own name."""

    word: str = ""
    min_words: ClassVar[int] = 0

    def read(self, words: Sequence[str], ctx: _Reading) -> bool:
        return bool(words)

    def show(self, value: Any) -> str:
        return self.word if value else ""

    def usage(self, field: str) -> str:
        return self.word


@dataclass(frozen=True)
class Steps(Slot):
    """Step letters (``F`` forward, ``P``/``S`` turn...), written together or apart; kept joined
    (``"FFS"``) and printed apart (``F F S``). ``aliases`` maps other letters onto them."""

    letters: str
    aliases: Mapping[str, str] = dataclasses.field(default_factory=dict)
    what: str = "movement step"
    hint: str = ""
    max_words: ClassVar[int | None] = None

    def read(self, words: Sequence[str], ctx: _Reading) -> str:
        steps = []
        for ch in "".join(words).replace(",", "").upper():
            step = ch if ch in self.letters else self.aliases.get(ch)
            if step is None:
                raise InvalidSyntax(f"{quote(ctx.text)}: {quote(ch)} is not a {self.what}.", hint=self.hint)
            steps.append(step)
        if not steps:
            raise InvalidSyntax(f"{quote(ctx.text)}: no {self.what}s given.", hint=self.hint)
        return "".join(steps)

    def show(self, value: Any) -> str:
        return " ".join(str(value))

    def __hash__(self) -> int:
        return hash((self.letters, tuple(sorted(self.aliases.items())), self.what))


@dataclass(frozen=True)
class Token(Slot):
    """One word matching ``pattern`` (case-insensitively); ``fold`` spells it canonically."""

    pattern: str
    what: str = "word"
    example: str = ""
    fold: Literal["keep", "lower", "upper"] = "keep"

    def read(self, words: Sequence[str], ctx: _Reading) -> str:
        word = words[0]
        if not re.fullmatch(self.pattern, word, re.IGNORECASE):
            hint = f"e.g. `{self.example}`." if self.example else ""
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(word)} is not a {self.what}.", hint=hint)
        return word.lower() if self.fold == "lower" else word.upper() if self.fold == "upper" else word


@dataclass(frozen=True)
class Free(Slot):
    """The rest of the line, as words separated by single spaces."""

    what: str = "text"
    max_words: ClassVar[int | None] = None

    def read(self, words: Sequence[str], ctx: _Reading) -> str:
        return " ".join(words).replace(FOLD, " ")


# --- patterns ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Lit:
    word: str


@dataclass(frozen=True)
class _Field:
    name: str
    slot: Slot


@dataclass(frozen=True)
class _Group:
    parts: tuple[_Part, ...]


_Part: TypeAlias = _Lit | _Field | _Group
_TOKEN = re.compile(r"\[|\]|\{\w+\}|[^\s\[\]{}]+")


@dataclass
class _Reading:
    """One attempt at reading a text: the names to resolve against, and how many matched inexactly.
    ``shape_only``: name slots take their words as they are, unresolved (``Grammar.read``)."""

    text: str
    names: Mapping[str, Mapping[str, str]]
    inexact: int = 0
    shape_only: bool = False


@dataclass(frozen=True)
class _Shape:
    """A typed order class, compiled: its printed pattern, the aliases, and each field's slot."""

    cls: type[Typed]
    pattern: tuple[_Part, ...]
    aliases: tuple[tuple[_Part, ...], ...]
    slots: dict[str, Slot]
    defaults: dict[str, Any]

    def usage(self) -> str:
        return _usage(self.pattern)


def _usage(parts: Sequence[_Part], *, nested: bool = False) -> str:
    out = []
    for part in parts:
        if isinstance(part, _Lit):
            out.append(part.word)
        elif isinstance(part, _Group):
            out.append(f"[{_usage(part.parts, nested=True)}]")
        elif isinstance(part.slot, Flag) and not nested:
            out.append(f"[{part.slot.usage(part.name)}]")
        else:
            out.append(part.slot.usage(part.name))
    return " ".join(out)


def _slot_for(cls: type, name: str, hint: Any) -> Slot:
    """The slot a field's type asks for (``Annotated`` metadata first, then the plain type)."""
    if typing.get_origin(hint) is Annotated:
        found = [m for m in hint.__metadata__ if isinstance(m, Slot)]
        if found:
            slot = found[0]
            if isinstance(slot, Flag) and not slot.word:
                return Flag(name.replace("_", "-"))
            return slot
        hint = typing.get_args(hint)[0]
    if typing.get_origin(hint) in (Union, types.UnionType):  # X | None for an optional part
        rest = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(rest) == 1:
            return _slot_for(cls, name, rest[0])
    if typing.get_origin(hint) is Literal:
        return Word(tuple(str(a) for a in typing.get_args(hint)))
    if hint is bool:
        return Flag(name.replace("_", "-"))
    if hint is int:
        return Number()
    if hint is float:
        return Decimal()
    raise TypeError(f"{cls.__name__}.{name}: no notation slot for type {hint!r}; annotate it with a Slot")


def _compile(text: str, slots: Mapping[str, Slot], cls: type) -> tuple[_Part, ...]:
    stack: list[list[_Part]] = [[]]
    for token in _TOKEN.findall(text):
        if token == "[":
            stack.append([])
        elif token == "]":
            if len(stack) == 1:
                raise ValueError(f"{cls.__name__}: unbalanced ']' in {text!r}")
            group = _Group(tuple(stack.pop()))
            stack[-1].append(group)
        elif token.startswith("{"):
            name = token[1:-1]
            if name not in slots:
                raise ValueError(f"{cls.__name__}: {{{name}}} in {text!r} is not a field")
            stack[-1].append(_Field(name, slots[name]))
        else:
            stack[-1].append(_Lit(token.casefold()))
    if len(stack) != 1:
        raise ValueError(f"{cls.__name__}: unclosed '[' in {text!r}")
    return tuple(stack[0])


def _fields_in(parts: Sequence[_Part], *, optional: bool = False) -> Iterator[tuple[str, bool]]:
    for part in parts:
        if isinstance(part, _Field):
            yield part.name, optional
        elif isinstance(part, _Group):
            yield from _fields_in(part.parts, optional=True)


_SHAPES: dict[type, _Shape] = {}


def _shape(cls: type[Typed]) -> _Shape:
    """Compile and check a typed order class once: every field in the pattern once, optional parts
    defaulted. A mistake here is the declaring system's bug, so it raises at import (via Grammar)."""
    if cls in _SHAPES:
        return _SHAPES[cls]
    if not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen:
        raise TypeError(f"{cls.__name__} must be a @dataclass(frozen=True)")
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    reserved = [f.name for f in fields if f.name in ("text", "args")]
    if reserved:
        raise ValueError(f"{cls.__name__}: a field may not be called {reserved[0]!r} (every order has it)")
    slots = {f.name: _slot_for(cls, f.name, hints[f.name]) for f in fields}
    defaults = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    pattern = _compile(cls.PATTERN, slots, cls)
    aliases = tuple(_compile(a, slots, cls) for a in cls.ALIASES)
    for parts in (pattern, *aliases):
        seen = list(_fields_in(parts))
        names = [n for n, _ in seen]
        dupes = {n for n in names if names.count(n) > 1}
        if dupes:
            raise ValueError(f"{cls.__name__}: {sorted(dupes)} appear twice in one pattern")
        for name, optional in seen:
            if (optional or isinstance(slots[name], Flag)) and name not in defaults:
                raise ValueError(f"{cls.__name__}.{name} is optional in a pattern and needs a default")
        missing = [n for n in slots if n not in names and n not in defaults]
        if missing:
            raise ValueError(f"{cls.__name__}: fields {missing} are not in the pattern {_usage(parts)!r}")
    shape = _Shape(cls, pattern, aliases, slots, defaults)
    _SHAPES[cls] = shape
    return shape


# --- the order base class ----------------------------------------------------------------------


class Typed(Order):
    """Base of typed orders: subclass it as a ``@dataclass(frozen=True)`` with a ``PATTERN``.

    ``text`` is the canonical notation printed from the fields (what the log stores).
    """

    PATTERN: ClassVar[str] = ""
    ALIASES: ClassVar[tuple[str, ...]] = ()

    def __init__(self) -> None:
        """Never runs: each order class is a dataclass with its own ``__init__``. (Declared so that
        type checkers see ``Seal()`` for an order without fields, not ``Order(text, args)``.)"""

    @property
    def text(self) -> str:
        shape = _shape(type(self))
        return " ".join(w for w in self._print(shape.pattern, shape) if w)

    @property
    def args(self) -> tuple[str, ...]:
        return ()

    def _print(self, parts: Sequence[_Part], shape: _Shape) -> Iterator[str]:
        for part in parts:
            if isinstance(part, _Lit):
                yield part.word
            elif isinstance(part, _Field):
                value = getattr(self, part.name)
                if value is not None:
                    yield part.slot.show(value)
            elif any(getattr(self, n) != shape.defaults[n] for n, _ in _fields_in(part.parts)):
                yield from self._print(part.parts, shape)


# --- reading ------------------------------------------------------------------------------------


def _spans(parts: Sequence[_Part], words: Sequence[str], at: int,
           bound: dict[str, tuple[int, int]]) -> Iterator[tuple[int, dict[str, tuple[int, int]]]]:
    """Every way the parts can cover words from ``at`` on: (end, field -> word span)."""
    if not parts:
        yield at, bound
        return
    head, rest = parts[0], parts[1:]
    if isinstance(head, _Lit):
        if at < len(words) and words[at].casefold() == head.word:
            yield from _spans(rest, words, at + 1, bound)
    elif isinstance(head, _Group):
        yield from _spans((*head.parts, *rest), words, at, bound)
        yield from _spans(rest, words, at, bound)
    elif isinstance(head.slot, Flag):
        if at < len(words) and words[at].casefold() == head.slot.word.casefold():
            yield from _spans(rest, words, at + 1, {**bound, head.name: (at, at + 1)})
        yield from _spans(rest, words, at, bound)
    else:
        most = len(words) - at if head.slot.max_words is None else min(head.slot.max_words, len(words) - at)
        for n in range(max(head.slot.min_words, 1), most + 1):
            yield from _spans(rest, words, at + n, {**bound, head.name: (at, at + n)})


@dataclass
class _Failure:
    progress: int
    error: GameError


class Grammar:
    """The order classes of one system, read and printed together.

    ``parse`` tries every class. ``read`` reads the way a player means an order: by its verb first
    (the word it starts with, or for an order led by a name, ``UNIT move 6``, the first keyword after
    that), then the shape of that verb's orders with names unresolved, then the names: so a
    misshapen order is explained as its verb's usage, and a misspelt name as a name.
    ``what`` ("a Days of Iron order") and ``empty`` / ``empty_hint`` word the refusals of a text
    with no verb.
    """

    def __init__(self, *classes: type[Typed], hint: str = "", what: str = "an order",
                 empty: str = "No order given.", empty_hint: str = "") -> None:
        self.shapes = tuple(_shape(c) for c in classes)
        self.hint = hint or "Orders: " + ", ".join(f"`{s.usage()}`" for s in self.shapes) + "."
        self.what, self.empty, self.empty_hint = what, empty, empty_hint or self.hint
        self.leading: dict[str, list[_Shape]] = {}
        self.trailing: dict[str, list[_Shape]] = {}
        for shape in self.shapes:
            for parts in (shape.pattern, *shape.aliases):
                led, words = _keywords(parts)
                for word in words:
                    verbs = self.leading if led else self.trailing
                    if shape not in verbs.setdefault(word, []):
                        verbs[word].append(shape)

    def usages(self) -> list[str]:
        return [s.usage() for s in self.shapes]

    def parse(self, text: str, names: Mapping[str, Mapping[str, str]] | None = None) -> Typed:
        """Read ``text`` into the order class it fits; names resolved against ``names[domain]``.

        Raises InvalidSyntax (quoting the text, saying what would fit), UnknownName or AmbiguousName.
        Where several readings fit, one naming everything exactly wins, else the first.
        """
        words = text.split()
        if not words:
            raise InvalidSyntax("No order given.", hint=self.hint)
        return self._parse(text, words, names or {}, self.shapes)

    def verb(self, text: str) -> str:
        """The order's verb (lower case): its first word when an order starts so, else the first
        keyword after the first word (``2e de Ligne form line``: ``form``). Refuses a text with none."""
        said = [w.casefold() for w in text.split()]
        if not said:
            raise InvalidSyntax(self.empty, hint=self.empty_hint)
        if said[0] in self.leading:
            return said[0]
        found = next((w for w in said[1:] if w in self.trailing), None)
        if found is None:
            raise InvalidSyntax(f"{quote(text)} is not {self.what}.", hint=self.hint)
        return found

    def read(self, text: str, names: Mapping[str, Mapping[str, str]],
             explain: Callable[[str, list[str]], GameError]) -> Typed:
        """Read ``text`` as an order of its verb (see the class docstring). ``explain(verb, words)``
        says what is wrong with an order of that verb that fits none of its shapes. Free text of
        any length is read (its tail held together while matching)."""
        verb = self.verb(text)
        led = text.split()[0].casefold() == verb
        shapes = tuple(self.leading[verb] if led else self.trailing[verb])
        words = _held_together(text.split(), shapes)
        try:
            self._parse(text, words, names, shapes, shape_only=True)
        except InvalidSyntax:
            raise explain(verb, text.split()) from None
        try:
            return self._parse(text, words, names, shapes)
        except InvalidSyntax:
            if led:
                raise explain(verb, text.split()) from None
            raise

    def _parse(self, text: str, words: Sequence[str], names: Mapping[str, Mapping[str, str]],
               shapes: Sequence[_Shape], *, shape_only: bool = False) -> Typed:
        if len(words) > MAX_WORDS:
            raise InvalidSyntax(f"{quote(text)} is too long for an order ({len(words)} words).", hint=self.hint)
        fallback: Typed | None = None
        failure: _Failure | None = None
        for shape in shapes:
            for parts in (shape.pattern, *shape.aliases):
                for end, bound in _spans(parts, words, 0, {}):
                    if end != len(words):
                        continue
                    ctx = _Reading(text, names, shape_only=shape_only)
                    result = self._build(shape, bound, words, ctx)
                    if isinstance(result, _Failure):
                        if failure is None or result.progress > failure.progress:
                            failure = result
                        continue
                    if ctx.inexact == 0:
                        return result
                    fallback = fallback or result
        if fallback is not None:
            return fallback
        if failure is not None:
            raise failure.error
        raise self._no_fit(text, words)

    def _build(self, shape: _Shape, bound: dict[str, tuple[int, int]], words: Sequence[str],
               ctx: _Reading) -> Typed | _Failure:
        values: dict[str, Any] = {}
        for done, (name, (a, b)) in enumerate(sorted(bound.items(), key=lambda kv: kv[1])):
            try:
                values[name] = shape.slots[name].read(words[a:b], ctx)
            except GameError as error:
                return _Failure(done + 1, error)
        return shape.cls(**values)

    def _no_fit(self, text: str, words: Sequence[str]) -> InvalidSyntax:
        """Nothing fits: name the missing part of the order whose words were given, if one was."""
        said = [w.casefold() for w in words]
        for shape in self.shapes:
            required = [p for p in shape.pattern if not isinstance(p, _Group)]
            literals = [p.word for p in required if isinstance(p, _Lit)]
            if not literals or not _in_order(literals, said):
                continue
            usage = f"Write `{shape.usage()}`."
            missing = _missing_field(required, said)
            if missing:
                what = missing.slot.describe()
                label = missing.name if what == missing.name else f"{missing.name} ({what})"
                return InvalidSyntax(f"{quote(text)}: give the {label}.", hint=usage)
            return InvalidSyntax(f"{quote(text)} does not fit `{shape.usage()}`.", hint=self.hint)
        return InvalidSyntax(f"Cannot read the order {quote(text)}.", hint=self.hint)


def _keywords(parts: Sequence[_Part]) -> tuple[bool, tuple[str, ...]]:
    """A pattern's verbs: (led by them, the words). ``loss {unit} {n}`` is led by ``loss``;
    ``{fate} {unit}`` by each of its words; ``{unit} move {inches}`` has ``move`` after a name."""
    head = parts[0]
    if isinstance(head, _Lit):
        return True, (head.word,)
    if isinstance(head, _Field) and isinstance(head.slot, Word):
        return True, tuple(c.casefold() for c in head.slot.choices)
    return False, tuple(p.word for p in parts[1:2] if isinstance(p, _Lit))


def _held_together(words: list[str], shapes: Sequence[_Shape]) -> list[str]:
    """Words of a text longer than the notation reads at once, when its shapes take free text:
    the tail held together as one word (``Free`` reads it apart again)."""
    if len(words) <= MAX_WORDS or not any(isinstance(s, Free) for shape in shapes for s in shape.slots.values()):
        return words
    return [*words[:MAX_WORDS - 1], FOLD.join(words[MAX_WORDS - 1:])]


def _in_order(literals: Sequence[str], said: Sequence[str]) -> bool:
    it = iter(said)
    return all(any(w == lit for w in it) for lit in literals)


def _missing_field(required: Sequence[_Part], said: Sequence[str]) -> _Field | None:
    """The first required slot with no words between its neighbouring words of the pattern."""
    at = 0
    for i, part in enumerate(required):
        if isinstance(part, _Lit):
            at = said.index(part.word, at) + 1 if part.word in said[at:] else at
            continue
        if not isinstance(part, _Field) or part.slot.min_words == 0:
            continue
        following = next((p.word for p in required[i + 1:] if isinstance(p, _Lit)), None)
        end = said.index(following, at) if following is not None and following in said[at:] else len(said)
        if end <= at:
            return part
    return None


def each(cls: type[T], /, **choices: Iterable[Any] | Callable[[dict[str, Any]], Iterable[Any]]) -> list[T]:
    """Every order of ``cls`` built from per-field candidates, for ``legal_orders``.

    A candidate list may be a function of the fields chosen before it (in keyword order), e.g.
    ``each(Fire, ship=my_ships, target=lambda chosen: targets_of(chosen["ship"]))``.
    Fields not given keep their defaults.
    """
    out: list[T] = []

    def walk(keys: list[str], chosen: dict[str, Any]) -> None:
        if not keys:
            out.append(cls(**chosen))
            return
        given = choices[keys[0]]
        options = given(chosen) if callable(given) else given
        for value in options:
            walk(keys[1:], {**chosen, keys[0]: value})

    walk(list(choices), {})
    return out


def product(cls: type[T], /, **choices: Iterable[Any]) -> list[T]:
    """Every combination of independent candidates (``each`` without dependencies)."""
    keys = list(choices)
    return [cls(**dict(zip(keys, combo, strict=True))) for combo in itertools.product(*(choices[k] for k in keys))]
