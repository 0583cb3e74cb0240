"""Firing: die faces, simultaneous resolution, flotation loss, the critical point, sinking, sight."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
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
)
from tests.scripted import ScriptedDice


def duel_at_point_blank() -> State:
    state = new_game("duel")
    place(state, "Monitor", "0705", 1)  # facing E
    place(state, "Virginia", "0805", 0)  # facing NE: Monitor lies abeam
    return state


def test_faces_major_minor_miss() -> None:
    state = duel_at_point_blank()
    rng = ScriptedDice([6, 5, 4, 3, 2, 1, 1, 2])
    order(state, "union", "Monitor fire Virginia", rng)
    order(state, "union", "seal", rng)
    events = order(state, "confederate", "seal", rng)
    log = texts(events)
    assert "Monitor fires at Virginia (range 1, all round, 6 dice): [6 Major, 5 Minor, 4 Minor, 3 Miss, 2 Miss, 1 Miss] = 4 flotation points." in log
    virginia = ship(state, "Virginia")
    assert (virginia.lost, virginia.remaining, virginia.status) == (4, 4, "fighting")
    assert "Virginia: FV 8 -> 4 of 8." in log
    assert not rng.dice  # 6 firing dice and 2 initiative dice, nothing more


def test_fire_is_simultaneous_and_a_sinking_ship_still_fires() -> None:
    state = duel_at_point_blank()
    ship(state, "Virginia").lost = 7
    rng = ScriptedDice([6, 1, 1, 1, 1, 1, 6, 6, 1, 1])
    order(state, "union", "Monitor fire Virginia", rng)
    order(state, "confederate", "Virginia fire Monitor", rng)
    order(state, "confederate", "seal", rng)
    events = order(state, "union", "seal", rng)
    log = texts(events)
    assert "Virginia fires at Monitor (range 1, abeam, 4 dice): [6 Major, 6 Major, 1 Miss, 1 Miss] = 4 flotation points." in log
    assert ship(state, "Virginia").status == "sunk"
    assert ship(state, "Monitor").lost == 4
    outcome = ruleset().outcome(state)
    assert outcome is not None and outcome.winner == "union"
    assert "Confederate: sunk: Virginia; broken off: none; saved: none; fighting: none." in outcome.details
    assert not rng.dice  # the game ended: no initiative roll


def test_both_sunk_in_the_same_volley_is_a_draw() -> None:
    state = duel_at_point_blank()
    ship(state, "Virginia").lost = 7
    ship(state, "Monitor").lost = 7
    rng = ScriptedDice([6, 1, 1, 1, 1, 1, 4, 1, 1, 1])
    order(state, "union", "Monitor fire Virginia", rng)
    order(state, "confederate", "Virginia fire Monitor", rng)
    order(state, "union", "seal", rng)
    order(state, "confederate", "seal", rng)
    outcome = ruleset().outcome(state)
    assert outcome is not None and outcome.winner is None and "draw" in outcome.reason


def breakoff_game() -> State:
    state = new_game("hampton-roads")
    keep_only(state, "Monitor", "Virginia", "Teaser")
    place(state, "Monitor", "1208", 1)
    place(state, "Virginia", "1209", 3)  # facing SW, one hex from the south edge (row 10)
    place(state, "Teaser", "0505", 0)
    return state


def test_critical_point_breaks_off_and_leaving_by_the_home_edge_saves() -> None:
    state = breakoff_game()
    ship(state, "Virginia").lost = 4
    rng = ScriptedDice([4, 1, 1, 1, 1, 1, 3, 2])  # a Minor hit; then Confederate (2) moves first
    order(state, "union", "Monitor fire Virginia", rng)
    order(state, "union", "seal", rng)
    events = order(state, "confederate", "seal", rng)
    log = texts(events)
    virginia = ship(state, "Virginia")
    assert "Virginia reaches its critical point (FV 3) and breaks off toward the south edge." in log
    assert "Virginia (broken off) steers F F and leaves by the south edge: saved." in log
    assert virginia.status == "saved"
    assert state.mover() == "confederate"
    with pytest.raises(IllegalOrder, match="saved"):
        order(state, "confederate", "Virginia stay")
    order(state, "confederate", "done")
    order(state, "union", "done")
    # next turn: a saved ship is gone; Teaser fights on, so the game goes on
    assert state.phase == "fire" and state.turn == 2
    assert "Virginia" not in [c.label for c in ruleset().view(state, None).counters]


def test_a_broken_off_ship_heads_home_by_the_shortest_route() -> None:
    state = breakoff_game()
    virginia = place(state, "Virginia", "0905", 0)  # facing NE, five rows from the south edge
    virginia.lost, virginia.status = 5, "broken-off"
    to_move = ScriptedDice([1, 1, 1, 1, 2, 1])  # Union fires at nothing; ties re-rolled, Confederate first
    order(state, "union", "seal", to_move)
    events = order(state, "confederate", "seal", to_move)
    assert "(ties re-rolled)" in texts(events)
    # two points: turning round costs them all; the bot turns her toward the south edge
    assert label(state, virginia) == "0905"
    assert virginia.facing in (2, 3)  # SE or SW: the next move runs straight for home
    with pytest.raises(IllegalOrder, match="broken-off"):
        order(state, "confederate", "Virginia move F")


def test_broken_off_ships_do_not_fire_unless_the_option_says_so() -> None:
    for option, allowed in (("no", False), ("yes", True)):
        state = new_game("duel", {"broken-off-fire": option})
        place(state, "Monitor", "0705", 1)
        place(state, "Virginia", "0805", 0)
        ship(state, "Virginia").status = "broken-off"
        ship(state, "Virginia").lost = 5
        if allowed:
            order(state, "confederate", "Virginia fire Monitor")
        else:
            with pytest.raises(IllegalOrder, match="broken off"):
                order(state, "confederate", "Virginia fire Monitor")


def test_ships_block_sight_and_the_option_turns_it_off() -> None:
    for option in ("yes", "no"):
        state = new_game("hampton-roads", {"ships-block-sight": option})
        keep_only(state, "Monitor", "Minnesota", "Virginia", "Jamestown")
        place(state, "Monitor", "0705", 1)
        place(state, "Jamestown", "0805", 0)  # an enemy in between
        place(state, "Virginia", "0905", 0)
        place(state, "Minnesota", "0503", 0)
        if option == "yes":
            before = snapshot(state)
            with pytest.raises(IllegalOrder, match="out of sight of Monitor: the line is blocked by Jamestown at 0805"):
                order(state, "union", "Monitor fire Virginia")
            assert snapshot(state) == before
        else:
            order(state, "union", "Monitor fire Virginia")
        # a friendly ship in between blocks too
        state = new_game("hampton-roads", {"ships-block-sight": option})
        keep_only(state, "Monitor", "Minnesota", "Virginia", "Jamestown")
        place(state, "Monitor", "0705", 1)
        place(state, "Minnesota", "0805", 0)
        place(state, "Virginia", "0905", 0)
        place(state, "Jamestown", "0309", 0)
        if option == "yes":
            with pytest.raises(IllegalOrder, match="blocked by Minnesota"):
                order(state, "union", "Monitor fire Virginia")
        else:
            order(state, "union", "Monitor fire Virginia")


def test_land_blocks_sight() -> None:
    state = new_game("trents-reach", {"ships-block-sight": "no"})
    keep_only(state, "Onondaga", "Virginia II", "Richmond")
    place(state, "Onondaga", "0502", 1)
    place(state, "Virginia II", "0902", 4)
    place(state, "Richmond", "0908", 4)
    with pytest.raises(IllegalOrder, match="blocked by land at 0602"):
        order(state, "union", "Onondaga fire Virginia II")
    legal = legal_texts(ruleset(), state, "union")
    assert "Onondaga fire Virginia II" not in legal


def test_out_of_range_says_how_far() -> None:
    state = new_game("duel")
    place(state, "Monitor", "0105", 1)
    place(state, "Virginia", "0805", 0)  # seven hexes: beyond the turret's 6-5-4-3-2-1
    before = snapshot(state)
    with pytest.raises(IllegalOrder, match=r"Virginia is 7 hexes away all round; Monitor reaches 6 hexes there"):
        order(state, "union", "Monitor fire Virginia")
    assert snapshot(state) == before
