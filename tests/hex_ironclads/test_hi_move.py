"""Initiative, movement (points, turns, turning in place), ramming and the limits on moves."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder, NotAllowed, NotYourTurn, WrongPhase
from games.core.ruleset import legal_texts
from games.hex_ironclads.state import State
from tests.hex_ironclads.helpers import (
    keep_only,
    label,
    new_game,
    order,
    place,
    ruleset,
    ship,
    snapshot,
    texts,
    to_move_phase,
)
from tests.scripted import ScriptedDice


def roads() -> State:
    state = new_game("hampton-roads")
    keep_only(state, "Monitor", "Minnesota", "Virginia", "Teaser")
    place(state, "Monitor", "0705", 1)  # facing E
    place(state, "Minnesota", "0703", 1)
    place(state, "Virginia", "0308", 0)
    place(state, "Teaser", "1208", 0)
    return state


def test_initiative_lower_moves_first_and_ties_reroll() -> None:
    state = roads()
    events = to_move_phase(state, "confederate", [3, 3, 5, 2])
    assert "Initiative: Union 3 / Confederate 3, Union 5 / Confederate 2 (ties re-rolled). Confederate moves first." in texts(events)
    assert ruleset().to_act(state) == ["confederate"]
    order(state, "confederate", "done")
    assert ruleset().to_act(state) == ["union"]


def test_forward_one_hex_per_point_and_turns_cost_a_point() -> None:
    state = roads()
    to_move_phase(state, "union")
    monitor = ship(state, "Monitor")
    events = order(state, "union", "Monitor move F F")
    assert label(state, monitor) == "0905" and monitor.facing == 1
    assert "Monitor moves F F: 0705 -> 0905." in texts(events)
    minnesota = ship(state, "Minnesota")  # frigate, 3 points
    order(state, "union", "Minnesota move F S F")
    assert label(state, minnesota) == "0804" and minnesota.facing == 2  # E to 0803, turn to SE, on to 0804
    # every Union ship has moved: Confederate's turn
    assert state.mover() == "confederate"


def test_turning_in_place() -> None:
    state = roads()
    to_move_phase(state, "confederate")
    teaser = ship(state, "Teaser")  # gunboat, 3 points: a half turn in its own hex
    order(state, "confederate", "Teaser move P P P")
    assert label(state, teaser) == "1208" and teaser.facing == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Monitor move F F F", "Monitor has 2 movement points; 3 steps were ordered"),
        ("Monitor move S F S", "Monitor has 2 movement points; 3 steps were ordered"),
    ],
)
def test_moving_more_than_allowed_is_refused(text: str, message: str) -> None:
    state = roads()
    to_move_phase(state, "union")
    before = snapshot(state)
    with pytest.raises(IllegalOrder, match=message):
        order(state, "union", text)
    assert snapshot(state) == before


def test_a_ship_may_not_enter_its_own_sides_hex() -> None:
    state = roads()
    to_move_phase(state, "union")
    place(state, "Minnesota", "0605", 1)  # facing E, the Monitor in the next hex
    before = snapshot(state)
    with pytest.raises(IllegalOrder, match=r"step 1 would enter 0705, where Monitor \(your own ship\) lies"):
        order(state, "union", "Minnesota move F")
    assert snapshot(state) == before


def test_land_shoal_and_map_edge_stop_a_move() -> None:
    state = roads()
    to_move_phase(state, "union")
    place(state, "Monitor", "0503", 1)  # 0603 is the Middle Ground shoal
    with pytest.raises(IllegalOrder, match="step 1 would enter shoal at 0603"):
        order(state, "union", "Monitor move F")
    place(state, "Monitor", "1405", 1)
    with pytest.raises(IllegalOrder, match="leave the map"):
        order(state, "union", "Monitor move F")
    place(state, "Monitor", "0902", 1)
    with pytest.raises(IllegalOrder, match="step 2 would enter land at 1001"):
        order(state, "union", "Monitor move P F")


def test_orders_for_the_other_side_or_out_of_turn_are_refused() -> None:
    state = roads()
    to_move_phase(state, "union")
    before = snapshot(state)
    with pytest.raises(NotAllowed, match="Virginia belongs to Confederate; you sit as Union"):
        order(state, "union", "Virginia move F")
    with pytest.raises(NotYourTurn, match=r"Union moves now \(its initiative roll was lower, so it moves first\)"):
        order(state, "confederate", "Virginia move F")
    with pytest.raises(NotYourTurn):
        order(state, "confederate", "done")
    with pytest.raises(WrongPhase, match="fire orders are given at the start of a turn"):
        order(state, "union", "Monitor fire Virginia")
    assert snapshot(state) == before
    order(state, "union", "Monitor move F")
    with pytest.raises(IllegalOrder, match="already moved"):
        order(state, "union", "Monitor move F")


def test_done_leaves_the_rest_and_the_turn_ends_after_both_sides() -> None:
    state = roads()
    to_move_phase(state, "union")
    events = order(state, "union", "done")
    assert "Union ends its movement (Monitor, Minnesota stay)." in texts(events)
    events = order(state, "confederate", "Virginia stay") + order(state, "confederate", "done")
    assert state.turn == 2 and state.phase == "fire"
    assert "Turn 2 begins" in texts(events)


def test_ramming_with_a_ram_rolls_four_and_the_rammer_stays_back() -> None:
    state = roads()
    place(state, "Virginia", "0905", 0)
    to_move_phase(state, "union")
    rng = ScriptedDice([6, 5, 1, 1])
    events = order(state, "union", "Monitor move F F", rng) + order(state, "union", "done", rng)
    events += order(state, "confederate", "done", rng)  # the ram is adjudicated after movement
    monitor, virginia = ship(state, "Monitor"), ship(state, "Virginia")
    assert label(state, monitor) == "0805"  # the hex it came from
    assert label(state, virginia) == "0905"
    assert virginia.lost == 3 and not rng.dice
    assert "Monitor rams Virginia with her ram (4 dice): [6 Major, 5 Minor, 1 Miss, 1 Miss] = 3 flotation points." in texts(events)


def test_ramming_without_a_ram_rolls_two() -> None:
    state = roads()
    place(state, "Teaser", "0605", 1)  # facing E, the Monitor in the next hex
    to_move_phase(state, "confederate")
    rng = ScriptedDice([6, 4])
    events = order(state, "confederate", "Teaser move F", rng) + order(state, "confederate", "done", rng)
    events += order(state, "union", "done", rng)
    assert ship(state, "Monitor").lost == 3 and not rng.dice
    assert label(state, ship(state, "Teaser")) == "0605"
    assert "without a ram (2 dice)" in texts(events)


def test_a_ram_ends_the_move() -> None:
    state = roads()
    place(state, "Virginia", "0805", 0)
    to_move_phase(state, "union")
    before = snapshot(state)
    with pytest.raises(IllegalOrder, match="step 1 rams Virginia at 0805, which ends the move"):
        order(state, "union", "Monitor move F S")
    assert snapshot(state) == before


def test_a_ram_that_sinks_the_last_enemy_ends_the_game() -> None:
    state = new_game("duel")
    place(state, "Monitor", "0705", 1)
    place(state, "Virginia", "0805", 0)
    ship(state, "Virginia").lost = 6
    to_move_phase(state, "union")
    rng = ScriptedDice([6, 1, 1, 1])
    order(state, "union", "Monitor move F", rng)
    assert ruleset().outcome(state) is None  # the ram waits for the Confederate move
    order(state, "confederate", "done", rng)
    outcome = ruleset().outcome(state)
    assert outcome is not None and outcome.winner == "union"
    assert ruleset().to_act(state) == [] and legal_texts(ruleset(), state, "union") == []
    with pytest.raises(WrongPhase, match="over"):
        order(state, "confederate", "seal")


def test_legal_moves_are_all_legal_and_distinct() -> None:
    state = roads()
    to_move_phase(state, "union")
    legal = legal_texts(ruleset(), state, "union")
    assert "Monitor stay" in legal and "Monitor move F F" in legal and legal[-1] == "done"
    assert "Monitor move F F F" not in legal
    ends = set()
    for text in legal:
        trial = snapshot_state(state)
        order(trial, "union", text, ScriptedDice([1] * 8))
        if text.startswith("Monitor move"):
            m = ship(trial, "Monitor")
            ends.add((m.q, m.r, m.facing))
    assert len(ends) == len([t for t in legal if t.startswith("Monitor move")])


def snapshot_state(state: State) -> State:
    decoded: State = ruleset().decode(snapshot(state))
    return decoded


def test_rams_are_adjudicated_after_both_sides_have_moved() -> None:
    """Book, Turn Sequence: the first side moves, then the other, and only then are the results of
    any ramming adjudicated; a rammed ship still makes its own move (and may ram back)."""
    state = new_game("duel")
    place(state, "Monitor", "0705", 1)
    place(state, "Virginia", "0805", 4)  # facing the Monitor
    ship(state, "Virginia").lost = 6  # one more point would sink her
    to_move_phase(state, "union")
    events = order(state, "union", "Monitor move F", ScriptedDice([]))  # no dice yet
    assert "Monitor moves F from 0705 and rams Virginia" in texts(events)
    assert ship(state, "Virginia").lost == 6 and state.phase == "move" and state.mover() == "confederate"
    assert label(state, ship(state, "Monitor")) == "0705"
    assert "Rams to adjudicate once both sides have moved: Monitor rammed Virginia." in ruleset().view(state, None).status
    assert ruleset().decode(snapshot(state)) == state  # the pending ram survives a save
    rng = ScriptedDice([1, 1, 1, 1, 6, 6, 6, 6])
    events = order(state, "confederate", "Virginia move F", rng)  # rams back before any result
    text = texts(events)
    assert "Monitor rams Virginia with her ram (4 dice): [1 Miss, 1 Miss, 1 Miss, 1 Miss] = 0 flotation points." in text
    assert "Virginia rams Monitor with her ram (4 dice): [6 Major, 6 Major, 6 Major, 6 Major] = 8 flotation points." in text
    assert text.index("Monitor rams Virginia with") < text.index("Virginia rams Monitor with")
    assert ship(state, "Monitor").status == "sunk" and ship(state, "Virginia").lost == 6
    outcome = ruleset().outcome(state)
    assert outcome is not None and outcome.winner == "confederate"
    assert not state.rams


def test_option_rams_at_once_adjudicates_each_ram_when_it_happens() -> None:
    state = new_game("duel", {"ram-timing": "at-once"})
    place(state, "Monitor", "0705", 1)
    place(state, "Virginia", "0805", 4)
    to_move_phase(state, "union")
    rng = ScriptedDice([6, 1, 1, 1])
    order(state, "union", "Monitor move F", rng)
    assert ship(state, "Virginia").lost == 2 and not rng.dice


def test_a_ram_still_counts_when_the_broken_off_target_has_left_the_map_meanwhile() -> None:
    """The ram struck before the target ran off the map; adjudicated after movement, it can sink her."""
    state = new_game("hampton-roads")
    keep_only(state, "Monitor", "Virginia", "Teaser")
    place(state, "Monitor", "0809", 2)  # facing SE, Virginia on the southern edge row ahead
    place(state, "Virginia", "0810", 2)
    place(state, "Teaser", "1208", 0)
    virginia = ship(state, "Virginia")
    virginia.lost, virginia.status = 5, "broken-off"
    to_move_phase(state, "union")
    events = order(state, "union", "Monitor move F", ScriptedDice([]))  # Confederate movement starts
    assert "Virginia (broken off) steers F and leaves by the south edge: saved." in texts(events)
    assert virginia.status == "saved"
    rng = ScriptedDice([6, 6, 1, 1])
    text = texts(order(state, "confederate", "Teaser stay", rng))
    assert "Monitor rams Virginia with her ram (4 dice): [6 Major, 6 Major, 1 Miss, 1 Miss] = 4 flotation points." in text
    assert virginia.status == "sunk" and not rng.dice


def test_the_side_that_moved_first_is_not_told_the_other_won_the_initiative() -> None:
    """Once the first side is done, its orders were refused with "<other side> moves now (it won
    the initiative roll's order)": the other side had lost it. The refusal now says why it waits."""
    state = roads()
    to_move_phase(state, "union")
    order(state, "union", "done")
    with pytest.raises(NotYourTurn) as refused:
        order(state, "union", "Monitor move F")
    assert "Confederate moves now (Union has moved this turn)" in refused.value.text
    assert "won" not in refused.value.text and "next turn" in refused.value.hint
