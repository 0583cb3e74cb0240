"""Seeded random playouts replay exactly as recorded.

``fixtures/playouts.json`` holds 30 playouts (five scenarios, basic and advanced rules, three
seeds): each step's seat, the order chosen at random from ``legal_orders``, a digest of (legal
orders, events with their visibility) and a digest of the final state. Scenarios 1-3 were recorded
with the code before the conversion to typed orders and rules/ (commit bb290c8); scenarios 4 and 5
again under rules version 2 (scenario 5 without a turn limit, scenario 4's Huáscar three hexes from
2801/2901), by ``play_out`` below, which gives the stored scenario 1-3 cases unchanged. A rules
change that alters a playout records that scenario again:
``.venv/bin/python -m tests.iron_and_fire.test_iaf_recorded_playouts s4 s5``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from games.core.errors import GameError
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import legal_texts
from tests.iron_and_fire.helpers import ruleset

pytestmark = pytest.mark.slow  # long random playouts: left out of `tasks.py test --fast`

FIXTURE = Path(__file__).parent / "fixtures" / "playouts.json"
CASES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
MAX_STEPS = 250


def _digest(obj: object) -> str:
    return hashlib.sha256(json.dumps(obj, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:16]


def play_out(case: dict[str, Any], limit: int = MAX_STEPS) -> tuple[list[list[str]], str]:
    """The case's playout under today's rules: each step's seat, order and digest, and the final
    state's digest. At most ``limit`` orders; it stops when the game ends or nobody is to act."""
    rs = ruleset()
    rnd = random.Random(case["seed"])
    rng = Rng(seed_from_number(case["seed"]))
    state = rs.setup(case["scenario"], dict(case["options"]), Rng(seed_from_number(case["seed"])))
    steps: list[list[str]] = []
    while len(steps) < limit and rs.outcome(state) is None and rs.to_act(state):
        seat = rs.to_act(state)[0]
        legal = legal_texts(rs, state, seat)
        text = rnd.choice(legal)
        try:
            events: Any = [[e.text, sorted(e.to) if e.to else None, e.reveals]
                           for e in rs.apply(state, seat, rs.parse_order(state, seat, text), rng)]
        except GameError as error:
            events = ["refused", type(error).__name__]
        steps.append([seat, text, _digest([legal, events])])
    return steps, _digest(rs.encode(state))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['scenario']}-{'advanced' if c['options'] else 'basic'}-{c['seed']}")
def test_recorded_playout_replays_with_the_same_orders_events_and_state(case: dict[str, Any]) -> None:
    steps, final = play_out(case, len(case["steps"]))
    for n, (want, have) in enumerate(zip(case["steps"], steps, strict=False)):  # a shorter replay: the length below
        assert have == want, (n, want[1], have[1])
    assert len(steps) == len(case["steps"])
    assert final == case["final"]


def record(scenarios: list[str]) -> None:
    """Record the cases of these scenarios again (same seeds and options), keeping the others."""
    for case in CASES:
        if case["scenario"] in scenarios:
            case["steps"], case["final"] = play_out(case)
    FIXTURE.write_text("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in CASES) + "\n]\n", encoding="utf-8")


if __name__ == "__main__":
    record(sys.argv[1:])
