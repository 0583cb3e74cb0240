"""Seeded random playouts replay exactly as before the conversion to typed orders and rules/.

``fixtures/playouts.json`` was recorded with the pre-conversion code (commit bb290c8): for 30
playouts (five scenarios, basic and advanced rules, three seeds) each step's seat, the order
chosen at random from ``legal_orders``, a digest of (legal orders, events with their visibility)
and a digest of the final state. Replaying them now must give the same digests.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.core.errors import GameError
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import legal_texts
from tests.iron_and_fire.helpers import ruleset

pytestmark = pytest.mark.slow  # long random playouts: left out of `tasks.py test --fast`

CASES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "fixtures" / "playouts.json").read_text(encoding="utf-8"))


def _digest(obj: object) -> str:
    return hashlib.sha256(json.dumps(obj, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:16]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['scenario']}-{'advanced' if c['options'] else 'basic'}-{c['seed']}")
def test_recorded_playout_replays_with_the_same_orders_events_and_state(case: dict[str, Any]) -> None:
    rs = ruleset()
    rnd = random.Random(case["seed"])
    rng = Rng(seed_from_number(case["seed"]))
    state = rs.setup(case["scenario"], dict(case["options"]), Rng(seed_from_number(case["seed"])))
    for n, (seat, text, digest) in enumerate(case["steps"]):
        assert rs.to_act(state)[0] == seat, n
        legal = legal_texts(rs, state, seat)
        assert rnd.choice(legal) == text, n
        try:
            events: Any = [[e.text, sorted(e.to) if e.to else None, e.reveals]
                           for e in rs.apply(state, seat, rs.parse_order(state, seat, text), rng)]
        except GameError as error:
            events = ["refused", type(error).__name__]
        assert _digest([legal, events]) == digest, (n, text, events)
    assert _digest(rs.encode(state)) == case["final"]
