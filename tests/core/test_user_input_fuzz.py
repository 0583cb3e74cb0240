"""Anything a user can type reaches a parser: it must either work or raise a GameError, never crash."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.dice import CustomDie, DiceParser
from games.core.errors import GameError, resolve_name
from games.core.hexgrid import HexLayout
from games.core.squaregrid import SquareBoard, parse_heading

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast

PARSERS: dict[str, Callable[[str], object]] = {
    "dice": DiceParser({"oak": CustomDie("oak", ("Skull", "Blank"))}).parse,
    "hex": HexLayout().parse,
    "square": SquareBoard().parse,
    "heading": parse_heading,
    "name": lambda text: resolve_name(text, {"huascar": "Huascar", "union": "Union"}, "ship"),
}

# Near-miss input (digits of other scripts, superscripts, signs, spaces) plus arbitrary text.
typed = st.text(alphabet=st.sampled_from(list("0123456789dD+- \t%xoakne²٣１")), max_size=12) | st.text(max_size=12)


@settings(max_examples=300, deadline=None)
@given(text=typed)
def test_parsers_accept_or_raise_a_game_error(text: str) -> None:
    for parse in PARSERS.values():
        try:
            parse(text)
        except GameError as exc:
            assert exc.text.strip()  # a message the user can read
