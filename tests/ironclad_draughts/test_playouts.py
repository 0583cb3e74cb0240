"""Random playouts of every scenario: no crash, a bounded end, replay equality, codec round trip."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.service import fold
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import legal_texts
from games.ironclad_draughts.state import State, check_rules
from tests.ironclad_draughts.helpers import RS

pytestmark = pytest.mark.slow  # long random playouts: left out of `tasks.py test --fast`

ORDER_CAP = 400


def play(
    scenario: str, seed: int, picks: list[int], options: dict[str, str], aggressive: bool = False
) -> tuple[State, list[tuple[str, str]]]:
    """Pick legal orders by index until the game ends or the cap; return the state and the log."""
    rng = Rng(seed_from_number(seed))
    state = RS.setup(scenario, options, rng)
    log: list[tuple[str, str]] = []
    for i in range(ORDER_CAP):
        if RS.outcome(state) is not None:
            break
        seat = RS.to_act(state)[0]
        legal = legal_texts(RS, state, seat)
        assert legal, f"no legal order for {seat}"
        if aggressive:  # prefer firing, then staying on the board, so that combat gets exercised
            legal = [o for o in legal if " fire " in o] or [o for o in legal if "leave" not in o] or legal
        text = legal[picks[i % len(picks)] % len(legal)]
        order = RS.parse_order(state, seat, text)
        assert RS.parse_order(state, seat, RS.format_order(order)).text == order.text
        events = RS.apply(state, seat, order, rng)
        assert len(events) == 1 and events[0].public and events[0].text
        check_rules(state)
        log.append((seat, text))
    return state, log


def replay(scenario: str, seed: int, log: list[tuple[str, str]], options: dict[str, str]) -> State:
    """The game as the table service rebuilds a stored one: its fold over the logged order texts."""
    steps = list(fold(RS, seed_from_number(seed), scenario, options, log))
    state: State = steps[-1][0]
    return state


@settings(max_examples=25, deadline=None)
@given(
    scenario=st.sampled_from(["standard", "duel", "fleet"]),
    seed=st.integers(0, 10_000),
    picks=st.lists(st.integers(0, 1000), min_size=1, max_size=50),
    umpire=st.booleans(),
    aggressive=st.booleans(),
    passing=st.booleans(),
)
def test_random_playout(
    scenario: str, seed: int, picks: list[int], umpire: bool, aggressive: bool, passing: bool
) -> None:
    options = {
        "turn_limit": "25",
        "umpire_deals": "yes" if umpire else "no",
        "pass_through": "yes" if passing else "no",
    }
    state, log = play(scenario, seed, picks, options, aggressive)
    outcome = RS.outcome(state)
    assert outcome is not None, f"not over after {len(log)} orders"
    assert state.turn <= 25
    assert outcome.details and any("Passed through and returned" in d for d in outcome.details)
    assert replay(scenario, seed, log, options) == state
    assert RS.decode(json.loads(json.dumps(RS.encode(state)))) == state
    for seat in (None, "umpire", state.sides[0].id):
        RS.view(state, seat)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 1000), min_size=1, max_size=20))
def test_midgame_states_round_trip(seed: int, picks: list[int]) -> None:
    rng = Rng(seed_from_number(seed))
    state = RS.setup("standard", {"seats": "ship"}, rng)
    for pick in picks:
        if RS.outcome(state) is not None:
            break
        assert RS.decode(json.loads(json.dumps(RS.encode(state)))) == state
        seat = RS.to_act(state)[0]
        legal = legal_texts(RS, state, seat)
        RS.apply(state, seat, RS.parse_order(state, seat, legal[pick % len(legal)]), rng)
