"""games.core.notation: typed orders read from text and printed back (round trip), errors that say
what would fit, and candidate listing for legal_orders."""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.errors import AmbiguousName, InvalidSyntax, UnknownName
from games.core.notation import Decimal, Flag, Free, Grammar, Name, Number, Ref, Steps, Token, Typed, each
from games.core.ruleset import Order

Ship = Annotated[Ref, Name("ship")]
MoveSteps = Annotated[str, Steps("FPS", {"L": "P", "R": "S"}, hint="F forward, P port, S starboard.")]


@dataclass(frozen=True)
class Fire(Typed):
    PATTERN: ClassVar[str] = "{ship} fire {target} [with {ammo}] [{fortune}]"
    ship: Ship
    target: Ship
    ammo: Literal["shot", "shell"] | None = None
    fortune: bool = False


@dataclass(frozen=True)
class Move(Typed):
    PATTERN: ClassVar[str] = "{ship} move {steps}"
    ship: Ship
    steps: MoveSteps


@dataclass(frozen=True)
class Stay(Typed):
    PATTERN: ClassVar[str] = "{ship} stay"
    ALIASES: ClassVar[tuple[str, ...]] = ("{ship} move",)
    ship: Ship


@dataclass(frozen=True)
class Adjust(Typed):
    PATTERN: ClassVar[str] = "{ship} adjust {delta} [by {inches}]"
    ship: Ship
    delta: Annotated[int, Number(-3, 3, signed=True)]
    inches: Annotated[float, Decimal(0, 24)] | None = None


@dataclass(frozen=True)
class Place(Typed):
    PATTERN: ClassVar[str] = "place {ship} at {hex} [{helm_port}]"
    ship: Ship
    hex: Annotated[str, Token(r"\d{4}", "hex number CCRR", "0304")]
    helm_port: Annotated[bool, Flag()] = False


@dataclass(frozen=True)
class Note(Typed):
    PATTERN: ClassVar[str] = "note {words}"
    words: Annotated[str, Free("note")]


@dataclass(frozen=True)
class Seal(Typed):
    PATTERN: ClassVar[str] = "seal"


GRAMMAR = Grammar(Fire, Move, Stay, Adjust, Place, Note, Seal)
SHIPS = {"monitor": "Monitor", "virginia": "Virginia", "fire-queen": "Fire Queen", "queen-of-fire": "Queen of Fire",
         "max": "Max", "ferdinand-max": "Erzherzog Ferdinand Max", "fire": "Fire"}
NAMES = {"ship": SHIPS}


def ref(key: str) -> Ref:
    return Ref(key, SHIPS[key])


def test_a_typed_order_is_an_order_that_prints_its_canonical_text() -> None:
    order = GRAMMAR.parse("monitor FIRE virg", NAMES)
    assert order == Fire(ref("monitor"), ref("virginia"))
    assert isinstance(order, Order)
    assert order.text == str(order) == "Monitor fire Virginia"
    assert GRAMMAR.parse("Monitor fire Virginia with SHELL fortune", NAMES).text == "Monitor fire Virginia with shell fortune"
    assert GRAMMAR.parse("monitor move ffs", NAMES) == Move(ref("monitor"), "FFS")
    assert GRAMMAR.parse("Monitor move L, R f", NAMES).text == "Monitor move P S F"
    assert GRAMMAR.parse("Monitor move", NAMES).text == "Monitor stay"  # an alias is read, never printed
    assert GRAMMAR.parse("Max adjust 1 by 2.50", NAMES).text == "Max adjust +1 by 2.5"
    assert GRAMMAR.parse("place max at 0304 helm-port", NAMES) == Place(ref("max"), "0304", True)
    assert GRAMMAR.parse("note  a  free   text", NAMES).text == "note a free text"
    assert GRAMMAR.parse(" SEAL ", NAMES) == Seal()


def test_orders_are_frozen_values_that_copy_and_pickle() -> None:
    """The untyped ``Order(text, args)`` too: the service copies states that may hold orders."""
    for order in (Order("pass", ("pass",)), Fire(ref("monitor"), ref("virginia"), "shot"), Seal()):
        assert copy.deepcopy(order) == order == pickle.loads(pickle.dumps(order))
        assert hash(copy.copy(order)) == hash(order)
    with pytest.raises(AttributeError):
        Order("pass")._text = "resign"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Fire(ref("monitor"), ref("virginia")).ship = ref("max")  # type: ignore[misc]


def test_apply_can_match_on_the_class() -> None:
    match GRAMMAR.parse("Monitor fire Fire Queen", NAMES):
        case Fire(ship=ship, target=target, ammo=None):
            assert (ship.id, target.id) == ("monitor", "fire-queen")
        case _:
            pytest.fail("not a Fire")


def test_names_that_contain_the_order_words_are_read_exactly() -> None:
    """The name slot tries every split; a reading that names everything exactly wins."""
    assert GRAMMAR.parse("Queen of Fire fire Fire", NAMES) == Fire(ref("queen-of-fire"), ref("fire"))
    assert GRAMMAR.parse("Fire fire Fire Queen", NAMES) == Fire(ref("fire"), ref("fire-queen"))
    assert GRAMMAR.parse("Ferdinand fire Fire", NAMES) == Fire(ref("ferdinand-max"), ref("fire"))


def test_errors_quote_the_input_and_say_what_would_fit() -> None:
    with pytest.raises(InvalidSyntax, match="Cannot read the order `Monitor sail away`") as cannot:
        GRAMMAR.parse("Monitor sail away", NAMES)
    assert "`<ship> fire <target>" in cannot.value.hint
    with pytest.raises(InvalidSyntax, match="No order given"):
        GRAMMAR.parse("   ", NAMES)
    with pytest.raises(InvalidSyntax, match=r"`Monitor fire`: give the target \(ship\)"):
        GRAMMAR.parse("Monitor fire", NAMES)
    with pytest.raises(InvalidSyntax, match="`Monitor seal now` does not fit `seal`"):
        GRAMMAR.parse("Monitor seal now", NAMES)
    with pytest.raises(UnknownName, match="No ship called `Merrimack`") as unknown:
        GRAMMAR.parse("Monitor fire Merrimack", NAMES)
    assert "Virginia" in unknown.value.hint
    with pytest.raises(AmbiguousName, match="could be any of"):
        GRAMMAR.parse("Monitor fire Queen", NAMES)
    with pytest.raises(InvalidSyntax, match="`X` is not a movement step"):
        GRAMMAR.parse("Monitor move F X", NAMES)
    with pytest.raises(InvalidSyntax, match="`9` is out of range"):
        GRAMMAR.parse("Monitor adjust 9", NAMES)
    with pytest.raises(InvalidSyntax, match="`two` is not a whole number"):
        GRAMMAR.parse("Monitor adjust two", NAMES)
    with pytest.raises(InvalidSyntax, match="`12` is not a hex number CCRR"):
        GRAMMAR.parse("place Monitor at 12", NAMES)
    with pytest.raises(InvalidSyntax, match="expected `shot` or `shell`, got `grape`"):
        GRAMMAR.parse("Monitor fire Virginia with grape", NAMES)
    with pytest.raises(InvalidSyntax, match="too long"):
        GRAMMAR.parse("note " + "x " * 100, NAMES)


def test_declaration_mistakes_are_caught_when_the_grammar_is_built() -> None:
    @dataclass(frozen=True)
    class Missing(Typed):
        PATTERN: ClassVar[str] = "{ship} hold"
        ship: Ship
        target: Ship

    @dataclass(frozen=True)
    class Undefaulted(Typed):
        PATTERN: ClassVar[str] = "{ship} hold [{target}]"
        ship: Ship
        target: Ship

    @dataclass(frozen=True)
    class Stranger(Typed):
        PATTERN: ClassVar[str] = "{ship} hold {nobody}"
        ship: Ship

    @dataclass
    class Thawed(Typed):
        PATTERN: ClassVar[str] = "thaw"

    @dataclass(frozen=True)
    class Clash(Typed):
        PATTERN: ClassVar[str] = "say {text}"
        text: Annotated[str, Free()]

    for cls, message in ((Missing, "not in the pattern"), (Undefaulted, "needs a default"),
                         (Stranger, "is not a field"), (Thawed, "frozen"), (Clash, "may not be called 'text'")):
        with pytest.raises((TypeError, ValueError), match=message):
            Grammar(cls)


def test_each_lists_candidates_with_dependent_choices() -> None:
    ships = [ref("monitor"), ref("virginia")]
    enemies = {"monitor": [ref("virginia")], "virginia": [ref("monitor"), ref("max")]}
    orders = each(Fire, ship=ships, target=lambda chosen: enemies[chosen["ship"].id])
    assert [o.text for o in orders] == ["Monitor fire Virginia", "Virginia fire Monitor", "Virginia fire Max"]
    assert [o.text for o in each(Stay, ship=ships)] == ["Monitor stay", "Virginia stay"]
    assert each(Seal) == [Seal()]


# --- round trip, by property --------------------------------------------------------------------

refs = st.sampled_from(sorted(SHIPS)).map(ref)
orders = st.one_of(
    st.builds(Fire, refs, refs, st.sampled_from([None, "shot", "shell"]), st.booleans()),
    st.builds(Move, refs, st.text("FPS", min_size=1, max_size=8)),
    st.builds(Stay, refs),
    st.builds(Adjust, refs, st.integers(-3, 3),
              st.one_of(st.none(), st.decimals(0, 24, places=2).map(float))),
    st.builds(Place, refs, st.from_regex(r"\d{4}", fullmatch=True), st.booleans()),
    st.builds(Note, st.lists(st.text("abcxyz'", min_size=1, max_size=6), min_size=1, max_size=8).map(" ".join)),
    st.just(Seal()),
)


@pytest.mark.slow
@given(orders)
@settings(max_examples=300, deadline=None)
def test_parse_of_print_is_the_order(order: Typed) -> None:
    assert GRAMMAR.parse(order.text, NAMES) == order


def _respell(text: str, draw: st.DrawFn) -> str:
    """The same order as a player might type it: any case, extra spaces."""
    words = [w.upper() if draw(st.booleans()) else w.lower() for w in text.split()]
    return "  ".join(words) if draw(st.booleans()) else " ".join(words)


@st.composite
def spellings(draw: st.DrawFn) -> tuple[str, str]:
    order = draw(orders.filter(lambda o: not isinstance(o, Note)))
    return draw(st.just(order.text).map(lambda t: _respell(t, draw))), order.text


@pytest.mark.slow
@given(spellings())
@settings(max_examples=300, deadline=None)
def test_print_of_parse_is_the_canonical_text(case: tuple[str, str]) -> None:
    typed, canonical = case
    assert GRAMMAR.parse(typed, NAMES).text == canonical


# --- reading by verb (Grammar.read): the verb first, then the shape, then the names ----------------

DrillUnit = Annotated[Ref, Name("unit")]


@dataclass(frozen=True)
class DrillMarch(Typed):
    PATTERN: ClassVar[str] = "{unit} march {inches}"
    unit: DrillUnit
    inches: Annotated[int, Number(0, 30)]


@dataclass(frozen=True)
class DrillLoss(Typed):
    PATTERN: ClassVar[str] = "loss {unit} {stands}"
    unit: DrillUnit
    stands: Annotated[int, Number(0, 9)]


@dataclass(frozen=True)
class DrillNote(Typed):
    PATTERN: ClassVar[str] = "note {words}"
    words: Annotated[str, Free("text")]


VERBED = Grammar(DrillMarch, DrillLoss, DrillNote, what="a drill order", empty="Say something.")
UNITS = {"unit": {"a": "Alpha Company", "b": "Bravo Company"}}


def explain(verb: str, words: list[str]) -> InvalidSyntax:
    return InvalidSyntax(f"usage of {verb} ({len(words)} words)")


def test_the_verb_leads_the_order_or_follows_the_name_that_leads_it() -> None:
    assert VERBED.verb("LOSS Alpha 2") == "loss"
    assert VERBED.verb("Alpha Company march 6") == "march"
    with pytest.raises(InvalidSyntax, match="Say something"):
        VERBED.verb("  ")
    with pytest.raises(InvalidSyntax, match="`Alpha halt` is not a drill order"):
        VERBED.verb("Alpha halt")


def test_a_misshapen_order_is_explained_as_its_verbs_usage_not_by_a_name_in_it() -> None:
    with pytest.raises(InvalidSyntax, match=r"usage of loss \(2 words\)"):
        VERBED.read("loss Zulu", UNITS, explain)
    # the shape fits, so the name is what is wrong, said as a name
    with pytest.raises(UnknownName, match="Zulu"):
        VERBED.read("loss Zulu 2", UNITS, explain)
    with pytest.raises(UnknownName, match="Zulu"):
        VERBED.read("Zulu march 6", UNITS, explain)
    # a number out of its range is part of the shape: the usage says the range
    with pytest.raises(InvalidSyntax, match=r"usage of march \(4 words\)"):
        VERBED.read("Alpha Company march 40", UNITS, explain)
    assert VERBED.read("bravo MARCH 6", UNITS, explain) == DrillMarch(Ref("b", "Bravo Company"), 6)


def test_free_text_longer_than_the_word_limit_is_read_whole() -> None:
    words = [f"w{i}" for i in range(90)]
    assert VERBED.read("note " + " ".join(words), UNITS, explain) == DrillNote(" ".join(words))
    with pytest.raises(InvalidSyntax, match="too long"):
        VERBED.parse("note " + " ".join(words), UNITS)  # parse keeps the plain limit
