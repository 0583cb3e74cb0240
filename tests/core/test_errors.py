"""User-facing errors: quoting, message + hint, and name resolution."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.errors import (
    AmbiguousName,
    DataError,
    GameError,
    IllegalOrder,
    InvalidSyntax,
    NoSuchGame,
    NotAllowed,
    NotYourTurn,
    UnknownName,
    WrongPhase,
    quote,
    resolve_name,
)

SHIPS = {
    "huascar": "Huascar",
    "independencia": "Independencia",
    "blanco": "Blanco Encalada",
    "cochrane": "Almirante Cochrane",
    "union": "Union",
    "ohiggins": "O'Higgins",
}


def test_quote_trims_and_backticks() -> None:
    assert quote("  2d6+1 ") == "`2d6+1`"
    assert quote("") == "``"


@given(text=st.text(max_size=400))
@settings(max_examples=60, deadline=None)
def test_quote_never_exceeds_its_limit(text: str) -> None:
    quoted = quote(text)
    assert quoted.startswith("`") and quoted.endswith("`")
    inner = quoted[1:-1]
    assert len(inner) <= 120
    stripped = text.strip()
    assert inner == stripped if len(stripped) <= 120 else inner == stripped[:117] + "..."


@pytest.mark.parametrize(
    "cls", [InvalidSyntax, IllegalOrder, AmbiguousName, UnknownName, NotYourTurn, NoSuchGame, WrongPhase, NotAllowed]
)
def test_game_errors_are_value_errors_with_message_and_hint(cls: type[GameError]) -> None:
    err = cls("Bad thing `x`.", hint="Do this instead.")
    assert isinstance(err, GameError) and isinstance(err, ValueError)
    assert err.text == str(err) == "Bad thing `x`. Do this instead."
    assert err.message == "Bad thing `x`." and err.hint == "Do this instead."
    assert err.kind != GameError.kind
    assert str(cls("Only a message.")) == "Only a message."


def test_error_kinds_are_distinct() -> None:
    kinds = [
        c.kind
        for c in (
            InvalidSyntax,
            IllegalOrder,
            AmbiguousName,
            UnknownName,
            NotYourTurn,
            NoSuchGame,
            WrongPhase,
            NotAllowed,
        )
    ]
    assert len(set(kinds)) == len(kinds)


def test_data_error_is_not_a_game_error() -> None:
    assert not issubclass(DataError, GameError)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("huascar", "huascar"),  # exact key
        ("HUASCAR", "huascar"),  # case-insensitive
        ("Blanco Encalada", "blanco"),  # exact display name
        ("  union ", "union"),  # surrounding spaces
        ("hua", "huascar"),  # unique prefix of the name
        ("enc", "blanco"),  # prefix of a later word in the name
        ("coch", "cochrane"),
        ("alm", "cochrane"),
        ("o'h", "ohiggins"),
        ("ohig", "ohiggins"),  # prefix of the key
    ],
)
def test_resolve_name_matches(text: str, key: str) -> None:
    assert resolve_name(text, SHIPS, "ship") == key


def test_exact_match_beats_a_longer_name() -> None:
    names = {"union": "Union", "unionjack": "Union Jack"}
    assert resolve_name("union", names, "ship") == "union"
    assert resolve_name("union j", names, "ship") == "unionjack"


def test_ambiguous_prefix_lists_the_candidates() -> None:
    with pytest.raises(AmbiguousName) as info:
        resolve_name("in", {"ind": "Independencia", "inv": "Invincible", "hua": "Huascar"}, "ship")
    text = str(info.value)
    assert "`in`" in text
    assert "Independencia, Invincible" in text and "Huascar" not in text
    assert "Type more" in text


def test_unknown_name_quotes_input_and_lists_known() -> None:
    with pytest.raises(UnknownName) as info:
        resolve_name("Esmeralda", SHIPS, "ship")
    text = str(info.value)
    assert "No ship called `Esmeralda`." in text
    assert "Known: Almirante Cochrane, Blanco Encalada, Huascar, Independencia, O'Higgins, Union." in text


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_name_is_invalid_syntax(text: str) -> None:
    with pytest.raises(InvalidSyntax, match="Expected a ship name"):
        resolve_name(text, SHIPS, "ship")


@given(key=st.sampled_from(sorted(SHIPS)))
@settings(max_examples=20, deadline=None)
def test_every_key_and_name_resolves_to_itself(key: str) -> None:
    assert resolve_name(key, SHIPS, "ship") == key
    assert resolve_name(SHIPS[key], SHIPS, "ship") == key
    assert resolve_name(SHIPS[key].upper(), SHIPS, "ship") == key
