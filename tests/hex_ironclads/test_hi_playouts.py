"""Random playouts of every scenario: legal orders always apply, games end, sealed orders never
leak before the reveal, the state round-trips through JSON, and replaying the orders gives the
same state (what the table service's snapshots rely on)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.rng import Rng, seed_from_number
from games.core.ruleset import UMPIRE, legal_texts
from games.hex_ironclads.state import FIRE, State
from tests.hex_ironclads.helpers import ruleset

pytestmark = pytest.mark.slow  # long random playouts: left out of `tasks.py test --fast`

SCENARIOS = [s.id for s in ruleset().scenarios()]
MAX_ORDERS = 3000


def play(scenario: str, seed: int, choose: st.DataObject | None, log: list[tuple[str, str]] | None = None) -> tuple[State, list[tuple[str, str]], list[str]]:
    """Play from the given order log (replay) or by drawing orders (playout)."""
    rs = ruleset()
    state = rs.setup(scenario, {}, Rng(seed_from_number(seed)))
    rng = Rng(seed_from_number(seed + 1))
    played: list[tuple[str, str]] = []
    events_seen: list[str] = []
    replay = list(log) if log is not None else None
    while rs.outcome(state) is None:
        assert len(played) < MAX_ORDERS, "the game did not end"
        if replay is not None:
            seat, text = replay.pop(0)
        else:
            assert choose is not None
            seats = rs.to_act(state)
            assert seats, "nobody to act in a running game"
            if state.phase == FIRE and choose.draw(st.integers(0, 30), label="umpire?") == 0:
                seat = UMPIRE
            else:
                seat = choose.draw(st.sampled_from(seats), label="seat")
            legal = legal_texts(rs, state, seat)
            assert legal, f"{seat} must act but has no legal order"
            text = choose.draw(st.sampled_from(legal), label="order")
        parsed = rs.parse_order(state, seat, text)
        assert rs.format_order(parsed) == text
        events = rs.apply(state, seat, parsed, rng)
        played.append((seat, text))
        events_seen += [f"{sorted(e.to) if e.to else 'public'}: {e.text}" for e in events]
        check_no_leak(state, [e.text for e in events if e.public])
    return state, played, events_seen


def check_no_leak(state: State, public_texts: list[str]) -> None:
    """While fire orders are sealed, neither they nor their nonces show to the public or the foe."""
    if state.phase != FIRE:
        return
    rs = ruleset()
    for side in state.sides:
        if not side.sealed:
            continue
        other = state.enemy_of(side.id).id
        foe_view = repr(rs.view(state, other))
        spectator = repr(rs.view(state, None))
        for secret in (side.nonce, side.sealed_text):
            assert all(secret not in t for t in public_texts)
            assert secret not in foe_view and secret not in spectator


@pytest.mark.parametrize("scenario", SCENARIOS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), data=st.data())
def test_random_playout(scenario: str, seed: int, data: st.DataObject) -> None:
    rs = ruleset()
    state, played, events = play(scenario, seed, data)
    outcome = rs.outcome(state)
    assert outcome is not None and outcome.reason
    assert len(outcome.details) == 2  # per side: sunk, broken off, saved, fighting
    assert rs.to_act(state) == []
    assert rs.decode(json.loads(json.dumps(rs.encode(state)))) == state
    again, _, events_again = play(scenario, seed, None, played)
    assert again == state
    assert events_again == events


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_state_round_trips_mid_game(scenario: str) -> None:
    rs = ruleset()
    state = rs.setup(scenario, {"ships-block-sight": "no", "broken-off-fire": "yes", "turns": "3"}, Rng(seed_from_number(3)))
    rng = Rng(seed_from_number(4))
    picker = Rng(seed_from_number(5))
    while rs.outcome(state) is None:
        seat = rs.to_act(state)[0]
        rs.apply(state, seat, rs.parse_order(state, seat, picker.choice(legal_texts(rs, state, seat))), rng)
        assert rs.decode(json.loads(json.dumps(rs.encode(state)))) == state
    assert state.turn <= 3


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_games_end_under_the_other_readings(scenario: str) -> None:
    """The options that switch a ruling (rams at once, wider or inclusive arcs) still give games
    that end and round-trip."""
    rs = ruleset()
    options = {"ram-timing": "at-once", "arc-boundary": "ahead-astern", "ahead-arc": "60", "turns": "4"}
    state = rs.setup(scenario, options, Rng(seed_from_number(7)))
    rng = Rng(seed_from_number(8))
    picker = Rng(seed_from_number(9))
    while rs.outcome(state) is None:
        seat = rs.to_act(state)[0]
        rs.apply(state, seat, rs.parse_order(state, seat, picker.choice(legal_texts(rs, state, seat))), rng)
        assert rs.decode(json.loads(json.dumps(rs.encode(state)))) == state
    assert state.turn <= 4 and not state.rams
