"""Random playouts of every scenario: no crash, a bounded end, no sealed text in public, replay equals
state, and the state round-trips through the codec (also mid-game)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.rng import Rng, seed_from_number
from games.core.ruleset import UMPIRE, legal_texts
from games.days_of_iron import data as rec
from games.days_of_iron.state import HIDDEN, OFF_BOARD, State
from tests.days_of_iron.helpers import RS

pytestmark = pytest.mark.slow  # long random playouts: left out of `tasks.py test --fast`

ORDER_CAP = 400
WANDER = 80  # after this many orders only orders that move the game on are picked
PROGRESS = ("staff", "ready", "initiative", "next", "end")


def assert_sealed_texts_private(state: State, public_texts: list[str]) -> None:
    spectator = RS.view(state, None)
    assert spectator.private_text == ()
    shown = "\n".join([*public_texts, *spectator.status, *RS.summary(state)])
    for record in state.sealed:
        if not record.revealed:
            assert record.nonce not in shown
            if not record.cancelled:  # a cancelled record may share its text with a later, revealed one
                assert record.text not in shown


def assert_hidden_units_unseen(state: State) -> None:
    """On the measured table a hidden (16.4) or off-board (16.5) unit is on nobody's board but its
    own side's (hidden, marked) and the umpire's; a spectator sees only units on the table."""
    out_of_sight = {u.id: u.side for u in state.units if u.status in (HIDDEN, OFF_BOARD)}
    for seat in (None, *(s.id for s in state.sides)):
        for counter in RS.view(state, seat).counters:
            assert counter.id not in out_of_sight or (seat == out_of_sight[counter.id] and "hidden" in counter.markers)


def play(scenario: str, seed: int, picks: list[int], options: dict[str, str]) -> tuple[State, list[tuple[str, str]]]:
    rng = Rng(seed_from_number(seed))
    state = RS.setup(scenario, options, rng)
    log: list[tuple[str, str]] = []
    public_texts: list[str] = []
    for i in range(ORDER_CAP):
        if RS.outcome(state) is not None:
            break
        pick = picks[i % len(picks)] + i
        to_act = RS.to_act(state)
        seats = [*to_act, UMPIRE] if i < WANDER else to_act[:1]
        seat = seats[pick % len(seats)]
        legal = legal_texts(RS, state, seat)
        if i >= WANDER:
            legal = [o for o in legal if o.split()[0] in PROGRESS]
        assert legal, f"no legal order for {seat} in {state.phase}"
        text = legal[pick % len(legal)]
        order = RS.parse_order(state, seat, text)
        assert RS.parse_order(state, seat, RS.format_order(order)).text == order.text
        events = RS.apply(state, seat, order, rng)
        assert events and all(e.text for e in events)
        for e in events:
            if e.public:
                public_texts.append(e.text)
            else:
                # a private answer goes to one side, or to the umpire who asked (a `measure`)
                assert e.to is not None and len(e.to) == 1 and next(iter(e.to)) in {s.id for s in state.sides} | {UMPIRE}
        assert_sealed_texts_private(state, public_texts)
        assert_hidden_units_unseen(state)
        log.append((seat, text))
    return state, log


def replay(scenario: str, seed: int, log: list[tuple[str, str]], options: dict[str, str]) -> State:
    rng = Rng(seed_from_number(seed))
    state = RS.setup(scenario, options, rng)
    for seat, text in log:
        RS.apply(state, seat, RS.parse_order(state, seat, text), rng)
    return state


def replay_by_play(scenario: str, seed: int, log: list[tuple[str, str]], options: dict[str, str]) -> State:
    """The log replayed as /game replay and /game verify do (``RS.play``: the order checked once),
    beside ``apply(parse_order)`` (checked twice, as when it was given): the same events and state
    after every order."""
    rng, given_rng = Rng(seed_from_number(seed)), Rng(seed_from_number(seed))
    state, given = RS.setup(scenario, options, rng), RS.setup(scenario, options, given_rng)
    for seat, text in log:
        events = RS.play(state, seat, text, rng)
        assert events == RS.apply(given, seat, RS.parse_order(given, seat, text), given_rng), text
        assert state == given and rng.counter == given_rng.counter, text
    return state


@settings(max_examples=15, deadline=None)
@given(
    scenario=st.sampled_from(sorted(rec.scenario_ids())),
    seed=st.integers(0, 10_000),
    picks=st.lists(st.integers(0, 1000), min_size=1, max_size=40),
    staff=st.sampled_from(["standard", "national"]),
)
def test_random_playout(scenario: str, seed: int, picks: list[int], staff: str) -> None:
    options = {"turns": "3", "staff": staff}
    state, log = play(scenario, seed, picks, options)
    outcome = RS.outcome(state)
    assert outcome is not None, f"not over after {len(log)} orders"
    assert state.turn <= 3 and all(r.revealed or r.cancelled for r in state.sealed)
    assert any("Points (18.2)" in d for d in outcome.details)
    assert replay(scenario, seed, log, options) == state
    assert replay_by_play(scenario, seed, log, options) == state
    assert RS.decode(json.loads(json.dumps(RS.encode(state)))) == state
    for seat in (None, UMPIRE, *(s.id for s in state.sides)):
        RS.view(state, seat)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 1000), min_size=1, max_size=30))
def test_midgame_states_round_trip(seed: int, picks: list[int]) -> None:
    rng = Rng(seed_from_number(seed))
    state = RS.setup("meeting", {}, rng)
    for i, pick in enumerate(picks):
        if RS.outcome(state) is not None:
            break
        seat = RS.to_act(state)[pick % len(RS.to_act(state))]
        legal = legal_texts(RS, state, seat)
        RS.apply(state, seat, RS.parse_order(state, seat, legal[(pick + i) % len(legal)]), rng)
        assert RS.decode(json.loads(json.dumps(RS.encode(state)))) == state


@settings(max_examples=6, deadline=None)
@given(scenario=st.sampled_from(sorted(rec.scenario_ids())), seed=st.integers(0, 10_000))
def test_measured_table_playout(scenario: str, seed: int) -> None:
    """A playout that gives the measured table's orders whenever it may (moves, wheels, formations,
    fire, measures): every offered order applies, hidden units stay unseen, the game ends with a
    result and the log replays to the same state."""
    pick = random.Random(seed)
    options = {"turns": "3", "scouting": "no"}
    rng = Rng(seed_from_number(seed))
    state = RS.setup(scenario, options, rng)
    log: list[tuple[str, str]] = []
    used: set[str] = set()
    for _ in range(ORDER_CAP * 2):
        if RS.outcome(state) is not None:
            break
        seat = RS.to_act(state)[0]
        legal = legal_texts(RS, state, seat)
        table = [o for o in legal if o.split()[1:2] in (["move"], ["form"], ["fire"], ["charge"])]
        if state.phase == "setup":
            legal = [o for o in legal if o.split()[0] in PROGRESS] or legal
        fresh = [o for o in table if o.split()[1] not in used]  # a kind not given yet first: each is tried once
        text = pick.choice(fresh or table) if table and pick.random() < 0.85 else pick.choice(
            [o for o in legal if o.split()[0] in PROGRESS] or legal)
        used.add(text.split()[1] if text.split()[1:2] in (["move"], ["form"], ["fire"], ["charge"]) else text.split()[0])
        RS.apply(state, seat, RS.parse_order(state, seat, text), rng)
        log.append((seat, text))
        assert_hidden_units_unseen(state)
    assert RS.outcome(state) is not None
    assert "move" in used and used & {"form", "fire", "charge"}
    assert replay(scenario, seed, log, options) == state
    assert replay_by_play(scenario, seed, log, options) == state
