"""Games recorded before hex ironclads moved to typed orders and rules split by section (issue 14)
replay to exactly the same events and final state: stored games are unaffected by the rewrite.

``recorded_games.json`` holds one random game per scenario and option set, played by the code of
commit a0f642c (seat, order text per line), with SHA-256 digests of every event (text, who may
read it, whether it reveals) and of the final state's JSON. Reports reworded since are put back in
their recorded words before the digest (``RECORDED_WORDING``), so everything else must still match.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from games.core.rng import Rng, seed_from_number
from tests.hex_ironclads.helpers import ruleset

RECORDED = json.loads((Path(__file__).parent / "recorded_games.json").read_text(encoding="utf-8"))


# Issue 21: a ship knocked below its critical point was reported as reaching "its critical point
# (FV <what it fell to>)"; the report now names the critical point and the value fallen to.
RECORDED_WORDING = [
    (re.compile(r"falls past its critical point \(FV \d+\) to FV (\d+)"), r"reaches its critical point (FV \1)"),
]


def as_recorded(text: str) -> str:
    for pattern, old in RECORDED_WORDING:
        text = pattern.sub(old, text)
    return text


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@pytest.mark.parametrize("game", RECORDED, ids=lambda g: f"{g['scenario']}-{'-'.join(g['options']) or 'defaults'}")
def test_a_recorded_game_replays_exactly(game: dict[str, Any]) -> None:
    rs = ruleset()
    state = rs.setup(game["scenario"], game["options"], Rng(seed_from_number(game["seed"])))
    rng = Rng(seed_from_number(game["seed"] + 1))
    events = []
    for seat, text in game["log"]:
        order = rs.parse_order(state, seat, text)
        assert rs.format_order(order) == text
        events.append([[as_recorded(e.text), sorted(e.to) if e.to else None, e.reveals] for e in rs.apply(state, seat, order, rng)])
    outcome = rs.outcome(state)
    assert (outcome.reason if outcome else None) == game["outcome"]
    assert digest(events) == game["events_sha256"]
    assert digest(rs.encode(state)) == game["state_sha256"]
