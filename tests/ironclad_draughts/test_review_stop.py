"""Review: option damaged_may_stop (Movement 2 read literally) against the ruling's default."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.errors import GameError, IllegalOrder
from games.core.ruleset import legal_texts
from games.ironclad_draughts.state import State
from tests.ironclad_draughts.helpers import RS, activate, damage, new_game, order, place, rng_rolling, ship
from tests.ironclad_draughts.test_playouts import play, replay


def _huascar_alone(square: str, heading: str, **options: str) -> State:
    state = new_game("duel", **options)
    place(state, "Huascar", square, heading)
    place(state, "Cochrane", "f1", "N")
    activate(state, "Huascar", "2C")
    return state


def test_damaged_ship_must_still_move_by_default() -> None:
    state = _huascar_alone("c3", "N")
    damage(state, "Huascar", "JC")
    with pytest.raises(IllegalOrder, match="must move"):
        RS.parse_order(state, "peru", "pass")


@pytest.mark.parametrize("how", ["fire", "flotation"])
def test_damaged_may_stop_option_lets_a_damaged_ship_stop_and_fire(how: str) -> None:
    """Movement 2 read literally: "Ships may not stop unless they are damaged"."""
    state = _huascar_alone("c3", "N", damaged_may_stop="yes")
    hu = ship(state, "Huascar")
    if how == "fire":
        damage(state, "Huascar", "JC")
    else:
        hu.flotation -= 1
    place(state, "Cochrane", "c6", "S")
    assert "pass" in legal_texts(RS, state, "peru")
    assert "fire Almirante Cochrane" in legal_texts(RS, state, "peru")
    text = order(state, "peru", "fire Cochrane", rng_rolling([6]))
    assert (hu.x, hu.y) == (2, 2) and hu.heading == 0
    assert "stops" in text and "fires at Almirante Cochrane" in text


def test_damaged_may_stop_option_still_makes_an_undamaged_ship_move() -> None:
    state = _huascar_alone("c3", "N", damaged_may_stop="yes")
    with pytest.raises(IllegalOrder, match="must move"):
        RS.parse_order(state, "peru", "pass")
    assert "pass" not in legal_texts(RS, state, "peru")


def test_damaged_may_stop_option_is_validated() -> None:
    with pytest.raises(GameError, match="`maybe`"):
        new_game("duel", damaged_may_stop="maybe")


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(
    scenario=st.sampled_from(["standard", "duel", "fleet"]),
    seed=st.integers(0, 10_000),
    picks=st.lists(st.integers(0, 1000), min_size=1, max_size=30),
)
def test_random_playout_with_the_other_readings(scenario: str, seed: int, picks: list[int]) -> None:
    """The alternative readings keep the invariants, the replay and the codec round trip."""
    options = {"turn_limit": "20", "engine_hit": "ahead", "damaged_may_stop": "yes"}
    state, log = play(scenario, seed, picks, options, aggressive=True)
    assert RS.outcome(state) is not None
    assert replay(scenario, seed, log, options) == state
    assert RS.decode(json.loads(json.dumps(RS.encode(state)))) == state
