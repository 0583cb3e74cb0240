"""Random playouts: any sequence of legal orders never crashes, always ends by the turn limit,
and replaying the order log from the seed gives exactly the stored state."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.rng import Rng, seed_from_number
from games.core.ruleset import legal_texts
from games.oak_and_iron.rules.starting_7 import BUILT
from tests.oak_and_iron.autoplay import play
from tests.oak_and_iron.helpers import ruleset

pytestmark = pytest.mark.slow  # long random playouts: left out of `tasks.py test --fast`


def random_game(scenario: str, seed: int, picker_seed: int, options: dict[str, str] | None = None,
                *, every_seat: bool = False) -> tuple[object, list[tuple[str, str]]]:
    """``every_seat``: each seat pinged must have an order it may give (else it is pinged for nothing)."""
    rs = ruleset()
    stream = Rng(seed_from_number(seed))
    picker = Rng(seed_from_number(10_000 + picker_seed))
    state = rs.setup(scenario, options or {}, stream)
    log: list[tuple[str, str]] = []
    while rs.outcome(state) is None:
        assert len(log) < 800, "a game must end by the turn limit"
        if every_seat:
            for other in rs.to_act(state)[1:]:
                assert legal_texts(rs, state, other), f"{other} is to act in {state.phase} but has no legal order"
        seat = picker.choice(rs.to_act(state)) if every_seat else rs.to_act(state)[0]
        legal = legal_texts(rs, state, seat)
        assert legal, f"{seat} must act in {state.phase} but has no legal order"
        order = rs.parse_order(state, seat, picker.choice(legal))
        rs.apply(state, seat, order, stream)
        log.append((seat, rs.format_order(order)))
        assert rs.decode(json.loads(json.dumps(rs.encode(state)))) == state
    return state, log


def replay(scenario: str, seed: int, log: list[tuple[str, str]], options: dict[str, str] | None = None) -> object:
    rs = ruleset()
    stream = Rng(seed_from_number(seed))
    state = rs.setup(scenario, options or {}, stream)
    for seat, text in log:
        rs.apply(state, seat, rs.parse_order(state, seat, text), stream)
    return state


SCENARIOS = [s.id for s in ruleset().scenarios()]  # every scenario the ruleset lists, data files and built sizes


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_random_playout_of_every_scenario_ends_and_replays(scenario: str) -> None:
    """Each scenario at least once on a fixed seed (the sampled runs below may miss one)."""
    state, log = random_game(scenario, 41, 43)
    outcome = ruleset().outcome(state)
    assert outcome is not None and outcome.winner in ("a", "b")
    assert replay(scenario, 41, log) == state


@pytest.mark.parametrize("scenario", BUILT)
def test_a_random_book_set_up_of_every_size_ends_and_replays(scenario: str) -> None:
    """Ch. 7 (start=book) for Patrol, Skirmish and Engagement, with the Challenge Test of a tie."""
    options = {"start": "book"}
    state, log = random_game(scenario, 5, 6, options)
    assert ruleset().outcome(state) is not None and any(text.startswith("deploy ") for _, text in log)
    assert replay(scenario, 5, log, options) == state


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(SCENARIOS), st.integers(0, 10_000), st.integers(0, 10_000))
def test_random_playouts_end_and_replay_to_the_same_state(scenario: str, seed: int, picker_seed: int) -> None:
    state, log = random_game(scenario, seed, picker_seed)
    rs = ruleset()
    outcome = rs.outcome(state)
    assert outcome is not None and outcome.winner in ("a", "b")
    assert state.turn <= 10
    assert replay(scenario, seed, log) == state


@settings(max_examples=4, deadline=None)
@given(st.sampled_from(["patrol", "skirmish"]), st.integers(0, 10_000), st.integers(0, 10_000))
def test_random_playouts_through_the_book_set_up_end_and_replay(scenario: str, seed: int, picker_seed: int) -> None:
    """Ch. 7 with the scenario decks (start=book): random legal set-up orders, then the game."""
    options = {"start": "book"}
    state, log = random_game(scenario, seed, picker_seed, options)
    outcome = ruleset().outcome(state)
    assert outcome is not None and outcome.winner in ("a", "b")
    assert any(text.startswith("deploy ") for _, text in log)
    assert replay(scenario, seed, log, options) == state


@settings(max_examples=4, deadline=None)
@given(st.sampled_from(["fleet", "squadron"]), st.integers(0, 10_000), st.integers(0, 10_000))
def test_random_fleet_battles_end_and_replay(command: str, seed: int, picker_seed: int) -> None:
    """Ch. 9: random legal orders in a Fleet Battle, a seat a fleet or a Squadron (any seat pinged
    may go, and each has an order to give), end with a winner and replay exactly."""
    options = {"command": command}
    state, log = random_game("fleet", seed, picker_seed, options, every_seat=True)
    outcome = ruleset().outcome(state)
    assert outcome is not None and outcome.winner in ("a", "b")
    assert replay("fleet", seed, log, options) == state


def test_captains_play_the_quick_start_to_a_result() -> None:
    for seed in (1, 2, 3):
        state, log = play("quickstart", seed)
        assert ruleset().outcome(state) is not None
        assert replay("quickstart", seed, log) == state
