"""Random playouts of every scenario, with and without the advanced rules: no crash, no stuck
game, every game ends, replaying the orders gives the same state, no secret in public output."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.errors import GameError
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import legal_texts
from games.iron_and_fire.state import State
from tests.iron_and_fire.helpers import ruleset

pytestmark = pytest.mark.slow  # long random playouts: left out of `tasks.py test --fast`

BASIC: dict[str, str] = {}
ADVANCED = {"fow": "on", "honor": "on", "visibility": "on", "random_events": "on"}
VARIANTS = {"s1": {"boilers": "fixed", "mines": "on"}, "s3": {"independencia": "survives"}, "s5": {"independencia": "survives"}}


def playout(scenario: str, options: dict[str, str], seed: int, max_orders: int = 2500) -> tuple[State, list[tuple[str, str]]]:
    rs = ruleset()
    rng = Rng(seed_from_number(seed))
    state = rs.setup(scenario, options, rng)
    picker = Rng(seed_from_number(seed + 7919))
    log: list[tuple[str, str]] = []
    public_text: list[str] = []
    for _ in range(max_orders):
        if rs.outcome(state) is not None:
            break
        acting = rs.to_act(state)
        assert acting, f"nobody to act in phase {state.phase}"
        seat = acting[0]
        legal = legal_texts(rs, state, seat)
        assert legal, f"{seat} has no legal order in phase {state.phase}"
        picker.shuffle(legal)
        # prefer doing something over passing, but pass sometimes
        if "done" in legal and picker.below(6):
            legal.remove("done")
            legal.append("done")
        for text in legal:
            order = rs.parse_order(state, seat, text)
            assert rs.parse_order(state, seat, order.text) == order, text
            trial = rs.decode(json.loads(json.dumps(rs.encode(state))))
            try:
                events = rs.apply(trial, seat, order, rng)
            except GameError:
                continue
            state = trial
            log.append((seat, order.text))
            public_text.extend(e.text for e in events if e.public)
            break
        else:
            raise AssertionError(f"stuck: no legal order of {seat} applies ({legal[:5]})")
        hidden = [s for s in state.secrets if not s.revealed]
        spectator = rs.view(state, None)
        assert not spectator.private_text
        for sec in hidden:
            assert all(sec.nonce not in t and sec.text not in t for t in public_text), sec.key
            assert all(sec.text not in line for line in spectator.status)
        for counter in spectator.counters:
            if counter.kind == "mine" and counter.face_down:
                assert counter.label == ""
    assert rs.outcome(state) is not None, f"{scenario} did not end in {max_orders} orders (turn {state.turn})"
    assert all(s.revealed for s in state.secrets), "secrets are revealed at the end"
    return state, log


def replay(scenario: str, options: dict[str, str], seed: int, log: list[tuple[str, str]]) -> State:
    rs = ruleset()
    rng = Rng(seed_from_number(seed))
    state = rs.setup(scenario, options, rng)
    for seat, text in log:
        trial = rs.decode(json.loads(json.dumps(rs.encode(state))))
        try:
            rs.apply(trial, seat, rs.parse_order(trial, seat, text), rng)
        except GameError:
            raise
        state = trial
    return state


@pytest.mark.parametrize("scenario", ["s1", "s2", "s3", "s4", "s5"])
@pytest.mark.parametrize("advanced", [False, True], ids=["basic", "advanced"])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_random_playout_ends_and_replays(scenario: str, advanced: bool, seed: int) -> None:
    options = {**VARIANTS.get(scenario, {}), **(ADVANCED if advanced else BASIC)}
    state, log = playout(scenario, options, seed)
    again = replay(scenario, options, seed, log)
    rs = ruleset()
    assert rs.encode(again) == rs.encode(state)
    assert rs.decode(json.loads(json.dumps(rs.encode(state)))) == state
