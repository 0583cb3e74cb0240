"""The notation and the rules behave exactly as before the typed orders (issue 14): every spelling
in ``baseline.json`` reads as it did (same canonical text, or still refused), and every recorded
game replays from its order texts with the same events, legal orders, views and final state."""

from __future__ import annotations

import copy
import json

import pytest

from games.core.errors import GameError
from games.core.rng import Rng, seed_from_number
from tests.oak_and_iron.baseline import FIXTURE, final_digest, read, step_digest
from tests.oak_and_iron.helpers import ruleset

BASELINE = json.loads(FIXTURE.read_text())


def test_every_spelling_reads_as_it_did() -> None:
    """A spelling read before reads to the same canonical text; one refused is still refused
    (the typed grammar may name a different mistake: 'No ship called ...' for extra words)."""
    changed = {}
    for text, before in BASELINE["spellings"].items():
        now = read(text)
        if now != before and not (before.startswith("!") and now.startswith("!")):
            changed[text] = (before, now)
    assert not changed


@pytest.mark.slow
@pytest.mark.parametrize("game", BASELINE["games"], ids=lambda g: f"{g['scenario']}-{g['seed']}")
def test_recorded_game_replays_identically(game: dict) -> None:
    rs = ruleset()
    stream = Rng(seed_from_number(game["seed"]))
    state = rs.setup(game["scenario"], game["options"], stream)
    for i, (seat, text, canonical, expected) in enumerate(game["steps"]):
        if canonical == "!":
            trial = copy.deepcopy(state)
            with pytest.raises(GameError) as refused:
                rs.apply(trial, seat, rs.parse_order(trial, seat, text), Rng(b"baseline-probe-seed-000000000000"))
            assert str(refused.value) == expected, f"step {i}: {text!r}"
            continue
        order = rs.parse_order(state, seat, text)
        assert rs.format_order(order) == canonical, f"step {i}: {text!r}"
        events = rs.apply(state, seat, rs.parse_order(state, seat, canonical), stream)
        assert step_digest(rs, state, seat, events) == expected, f"step {i}: {text!r} ({canonical!r})"
    assert final_digest(rs, state) == game["final"]
