"""Canonical order texts stay the same: stored games replay from their logged text.

``fixtures/order_texts.json`` was recorded from the string-tuple parser before the typed orders
(every text the tests, console scripts and playouts parsed, every legal order they listed, and a
set of spellings and mistakes): each row is ``[scenario, batteries placed, options, input, then
canonical text | error class, message]``. A text refused then must still be refused with the same
kind of error (the wording may now come from ``games.core.notation``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.core.errors import GameError, InvalidSyntax
from tests.iron_and_fire.helpers import add_battery, new_game, ruleset

ROWS: list[list[Any]] = json.loads((Path(__file__).parent / "fixtures" / "order_texts.json").read_text(encoding="utf-8"))


def _same(row: list[Any]) -> bool:
    got = _parsed(row)
    return got == row[4:] if len(row) == 5 else got[0] == row[4]


def _parsed(row: list[Any]) -> list[str]:
    scenario, batteries, options, text = row[:4]
    state = new_game(scenario, options)
    for _ in range(batteries):
        add_battery(state, "1306")
    try:
        return [ruleset().parse_order(state, "peru", text).text]
    except GameError as error:
        return [type(error).__name__, str(error)]


def test_the_fixture_covers_every_kind_of_order() -> None:
    texts = [row[4] for row in ROWS if len(row) == 5]
    for word in (" move ", " ram", " fire ", " fire town", " board ", " repair", " unground", " cut", " prepare", " at ",
                 "fow again ", "fow reroll", "roll ", "mine ", "battery ", "cable ", "break off", "continue", "done", "pass"):
        assert any(word.strip() in t for t in texts), word
    assert any(len(row) == 6 for row in ROWS)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["s1", "s2", "s3", "s4", "s5"])
def test_every_recorded_text_parses_to_the_same_canonical_text_or_error(scenario: str) -> None:
    changed = [(row[3], row[4:], _parsed(row)) for row in ROWS if row[0] == scenario and not _same(row)]
    assert not changed, changed[:10]


@pytest.mark.parametrize(("text", "hint"), [
    ("fow bogus", "Fortunes of War: `fow extra`"),
    ("fow", "Fortunes of War: `fow extra`"),
    ("roll a b", "`roll <what>`"),
    ("break on", "`break off`"),
    ("Huascar moves F", "`<ship> move F F P F`"),
])
def test_an_unreadable_order_gets_the_hint_of_the_order_it_starts_like(text: str, hint: str) -> None:
    with pytest.raises(InvalidSyntax) as caught:
        ruleset().parse_order(new_game("s1"), "peru", text)
    assert hint in caught.value.hint and text in caught.value.message
