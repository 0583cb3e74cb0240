"""Movement Phase rules: speed from point of sail and sail, turns, the Wind's Eye, collisions,
terrain, the table edge, Seamanship and Crew Actions (all dice from fixed streams)."""

from __future__ import annotations

import copy
import math

import pytest

from games.core.geometry import Base, overlaps, polygon_distance
from games.core.rng import Rng
from games.oak_and_iron.measure import base_distance
from games.oak_and_iron.rules import dice_2 as dice
from games.oak_and_iron.rules import movement_4_2 as movement
from tests.oak_and_iron.helpers import add_terrain, fails, order, park_others, place, ruleset, started, texts


def rewound(stream: Rng, counter: int) -> Rng:
    earlier = copy.copy(stream)
    earlier.counter = counter
    return earlier


def test_quick_start_is_set_up_as_the_book_says() -> None:
    state = ruleset().setup("quickstart", {}, Rng(b"q" * 32))
    ships = {s.id: s for s in state.ships}
    # each Flagship Pistol Shot directly downwind (wind from the north) of its other ship
    assert math.isclose(base_distance(ships["sloop"].base, ships["petite-fregate"].base), 3.0)
    assert ships["petite-fregate"].x == ships["sloop"].x and ships["petite-fregate"].y > ships["sloop"].y
    assert math.isclose(base_distance(ships["corvette"].base, ships["fluyt"].base), 3.0)
    assert ships["petite-fregate"].flagship and ships["fluyt"].flagship
    # the squadrons just out of Cannon Shot of each other
    gap = min(base_distance(a.base, b.base) for a in state.ships for b in state.ships if a.side == "a" and b.side == "b")
    assert 12.0 < gap < 12.5
    # the weather edge is astern of every ship
    assert state.weather_edge == "north" and all(s.heading == 180.0 for s in state.ships)
    assert [s.fortune for s in state.sides] == [3, 3]


def test_speed_rating_from_point_of_sail_and_sail_setting() -> None:
    state, _ = started()
    corvette = state.ship("corvette")
    assert movement.speed_rating(state, corvette)[:2] == (4, "large")
    corvette.heading = 60.0
    assert movement.speed_rating(state, corvette)[:2] == (3, "windward")
    corvette.sail = "full"
    assert movement.speed_rating(state, corvette)[0] == 4
    corvette.sail = "minimal"
    assert movement.speed_rating(state, corvette)[0] == 2
    corvette.sail = "anchored"
    assert movement.speed_rating(state, corvette)[0] == 0
    corvette.sail, corvette.crippled = "full", True
    corvette.heading = 180.0
    assert movement.speed_rating(state, corvette)[0] == 2  # Crippled: at most 2
    corvette.heading = 0.0
    assert movement.speed_rating(state, corvette)[:2] == (0, "wind's eye")


def test_straight_move_goes_speed_inches_forward_and_reports_facts() -> None:
    state, stream = started()
    park_others(state, "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    events = texts(order(state, "b", "Corvette move", stream))
    corvette = state.ship("corvette")
    assert (round(corvette.x, 6), round(corvette.y, 6), corvette.heading) == (20.0, 12.0, 180.0)
    assert "Large" in events and "speed 4" in events and 'forward 4.00"' in events
    assert state.marks[-1].points == [(20.0, 8.0), (20.0, 12.0)]


def test_partial_turn_at_the_end_pivots_on_the_turning_side() -> None:
    state, stream = started()
    park_others(state, "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    order(state, "b", "Corvette move turn-end port 30", stream)
    corvette = state.ship("corvette")
    assert math.isclose(corvette.heading, 150.0)
    # the port side's mid-point (the pivot) stayed where the straight move put it
    pivot = Base((20.0, 12.0), 180.0, corvette.length, corvette.beam).edge_midpoint("port")
    assert math.dist(corvette.base.edge_midpoint("port"), pivot) < 1e-9


def test_turn_beyond_the_tool_angle_is_refused_with_the_numbers() -> None:
    state, stream = started()
    err = fails(state, "b", "Corvette move turn-start starboard 50", stream)
    assert "50 degrees" in err.text and "45 degrees" in err.text and "speed 4" in err.text


def test_in_the_wind_s_eye_no_forward_move_but_a_speed_one_turn() -> None:
    state, stream = started()
    park_others(state, "corvette")
    place(state, "corvette", 20.0, 18.0, 0.0)
    err = fails(state, "b", "Corvette move", stream)
    assert "Wind's Eye" in err.text and "cannot move forward" in err.text and "bow" in err.text
    order(state, "b", "Corvette move turn-start starboard 45", stream)
    corvette = state.ship("corvette")
    assert math.isclose(corvette.heading, 45.0)
    start = Base((20.0, 18.0), 0.0, corvette.length, corvette.beam)
    assert math.dist(corvette.base.edge_midpoint("starboard"), start.edge_midpoint("starboard")) < 1e-9


def test_a_ship_must_move_before_its_crew_action() -> None:
    state, stream = started()
    err = fails(state, "b", "Corvette done", stream)
    assert "must move" in err.text
    err = fails(state, "b", "Corvette crew rally", stream)
    assert "must move" in err.text


def test_not_your_turn_and_one_activation_at_a_time() -> None:
    state, stream = started()
    assert fails(state, "a", "Sloop move", stream).kind == "not your turn"
    park_others(state, "corvette", "fluyt")
    place(state, "corvette", 20.0, 8.0, 180.0)
    place(state, "fluyt", 26.0, 8.0, 180.0)
    order(state, "b", "Corvette move", stream)
    assert "still activating" in fails(state, "b", "Fluyt move", stream).text


def test_collision_with_a_ship_stops_at_contact_then_rolls_speed_dice() -> None:
    for seed in range(1, 8):
        state, stream = started(seed)
        park_others(state, "corvette", "sloop")
        place(state, "corvette", 20.0, 8.0, 180.0)
        place(state, "sloop", 20.0, 12.0, 90.0)  # lying across the Corvette's path
        predicted = dice.roll(copy.copy(stream), 4)
        events = texts(order(state, "b", "Corvette move", stream))
        corvette, sloop = state.ship("corvette"), state.ship("sloop")
        assert "stopped on contact with sloop" in events
        assert f"4 dice: {', '.join(predicted)}" in events
        assert not overlaps(corvette.base.polygon(), sloop.base.polygon())
        assert math.isclose(corvette.y, 12.0 - 0.45 - 1.3, abs_tol=1e-6)  # bow on the sloop's side
        assert corvette.damage == (1 if "Cannonball" in predicted else 0)
        if "Sail" in predicted:
            assert "sloop" in corvette.entangled and "corvette" in sloop.entangled
        else:
            assert math.isclose(base_distance(corvette.base, sloop.base), 1.0, abs_tol=1e-6)  # pushed a Yard Arm


def test_collision_with_rocks_grounds_damages_and_anchors() -> None:
    state, stream = started()
    park_others(state, "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    add_terrain(state, "rock", [(19.0, 11.0), (21.0, 11.0), (21.0, 12.0), (19.0, 12.0)], "Black Rocks")
    events = texts(order(state, "b", "Corvette move", stream))
    corvette = state.ship("corvette")
    assert "Collision with Black Rocks" in events
    assert corvette.aground and corvette.sail == "anchored" and corvette.damage == 1
    assert math.isclose(corvette.y + corvette.length / 2, 11.0, abs_tol=1e-6)


def test_crossing_a_shoal_rolls_fortitude_dice_for_striking_bottom() -> None:
    for seed in range(1, 10):
        state, stream = started(seed)
        park_others(state, "corvette")
        place(state, "corvette", 20.0, 8.0, 180.0)
        add_terrain(state, "shoal", [(18.0, 10.0), (22.0, 10.0), (22.0, 10.5), (18.0, 10.5)], "Sandbar")
        before = stream.counter
        events = texts(order(state, "b", "Corvette move", stream))
        predicted = dice.roll(rewound(stream, before), 2)  # Fortitude 2
        assert "Crossed Sandbar: 2 dice" in events
        assert state.ship("corvette").aground == ("Skull" in predicted)  # 5.9 SHOALS: the Skull alone
        assert state.ship("corvette").y == 12.0  # the move is completed first


def test_a_ship_ending_partly_off_the_table_is_removed() -> None:
    state, stream = started()
    park_others(state, "corvette")
    place(state, "corvette", 20.0, 33.0, 180.0)
    events = texts(order(state, "b", "Corvette move", stream))
    assert "off the table" in events and state.ship("corvette").status == "off"
    assert state.activation.ship == ""  # its activation is over


def test_adjust_speed_uses_a_skill_test_from_the_stream() -> None:
    for seed in range(1, 6):
        state, stream = started(seed)
        park_others(state, "corvette")
        place(state, "corvette", 20.0, 8.0, 180.0)
        # Fleet Manuever is in force for B: six dice
        predicted = dice.roll(copy.copy(stream), 6)
        events = texts(order(state, "b", "Corvette seamanship adjust +1", stream))
        passed = any(f in ("Crossed Swords", "Helm") for f in predicted)
        assert f"Skill Test (6 dice): {', '.join(predicted)}" in events
        assert state.activation.speed == (5 if passed else 4)
        order(state, "b", "Corvette move", stream)
        assert math.isclose(state.ship("corvette").y, 8.0 + (5 if passed else 4))


def test_shaken_ships_take_no_seamanship_and_only_rally() -> None:
    state, stream = started()
    park_others(state, "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    state.ship("corvette").fatigue = 7
    assert "Shaken" in fails(state, "b", "Corvette seamanship adjust +1", stream).text
    order(state, "b", "Corvette move", stream)
    assert "Rally" in fails(state, "b", "Corvette crew sail up", stream).text
    order(state, "b", "Corvette crew rally", stream)
    assert state.ship("corvette").fatigue == 6


def test_crew_reload_sail_and_repair() -> None:
    state, stream = started()
    park_others(state, "corvette", "sloop")
    place(state, "corvette", 20.0, 8.0, 180.0)
    corvette = state.ship("corvette")
    corvette.reload_port = True
    order(state, "b", "Corvette move", stream)
    assert "no reload marker" in fails(state, "b", "Corvette crew reload starboard", stream).text
    corvette.sail = "full"
    assert "Full Sail" in fails(state, "b", "Corvette crew reload port", stream).text
    corvette.sail = "battle"
    order(state, "b", "Corvette crew reload port", stream)
    assert not corvette.reload_port and corvette.moved


def test_anchored_ships_do_not_move_but_may_change_sail() -> None:
    state, stream = started()
    state.ship("corvette").sail = "anchored"
    assert "Anchored" in fails(state, "b", "Corvette move", stream).text
    order(state, "b", "Corvette crew sail up", stream)
    assert state.ship("corvette").sail == "minimal"


def test_boarding_beyond_yard_arm_is_refused_with_the_distance() -> None:
    state, stream = started()
    park_others(state, "corvette", "sloop")
    place(state, "corvette", 20.0, 8.0, 180.0)
    place(state, "sloop", 22.5, 12.0, 180.0)
    order(state, "b", "Corvette move", stream)
    err = fails(state, "b", "Corvette crew board Sloop", stream)
    d = base_distance(state.ship("corvette").base, state.ship("sloop").base)
    assert f'{d:.2f}"' in err.text and "Yard Arm" in err.text


def test_boarding_lays_the_ships_flush_and_entangles_them() -> None:
    boarded = 0
    for seed in range(1, 6):
        state, stream = started(seed)
        park_others(state, "corvette", "sloop")
        place(state, "corvette", 20.0, 8.0, 180.0)
        place(state, "sloop", 21.6, 12.3, 170.0)
        order(state, "b", "Corvette move", stream)
        events = texts(order(state, "b", "Corvette crew board Sloop", stream))
        corvette, sloop = state.ship("corvette"), state.ship("sloop")
        if "passed" in events.split("attempts to board")[1].split("\n")[0]:
            boarded += 1
            assert "sloop" in corvette.entangled
            assert polygon_distance(corvette.base.polygon(), sloop.base.polygon()) < 1e-6
            assert not overlaps(corvette.base.polygon(), sloop.base.polygon(), tolerance=1e-6)
        else:
            assert not corvette.entangled
    assert boarded


def test_entangled_ships_do_not_move_and_cut_free_needs_room() -> None:
    state, stream = started(3)
    park_others(state, "corvette", "sloop")
    place(state, "corvette", 20.0, 10.0, 180.0)
    place(state, "sloop", 21.0, 10.0, 180.0)  # side by side, touching
    corvette, sloop = state.ship("corvette"), state.ship("sloop")
    corvette.entangled, sloop.entangled = ["sloop"], ["corvette"]
    assert "Entangled" in fails(state, "b", "Corvette move", stream).text
    events = texts(order(state, "b", "Corvette seamanship cutfree", stream))
    if "passed" in events:
        assert not corvette.entangled and not sloop.entangled
        assert math.isclose(base_distance(corvette.base, sloop.base), 1.0, abs_tol=1e-6)
        assert state.activation.speed == 1


def test_landing_party_goes_ashore_from_an_anchored_ship_near_an_island() -> None:
    state, stream = started(scenario="reef")
    park_others(state, "corvette")
    place(state, "corvette", 29.0, 15.0, 90.0)  # below the island "Isla"
    corvette = state.ship("corvette")
    corvette.sail = "anchored"
    order(state, "b", "Corvette crew landing", stream)
    assert corvette.landing is not None
    island = next(t for t in state.terrain if t.label == "Isla")
    from games.core.geometry import point_in_polygon

    assert point_in_polygon(corvette.landing, tuple(island.points), tolerance=1e-6)


def test_landing_party_needs_anchor_and_pistol_shot() -> None:
    state, stream = started(scenario="reef")
    park_others(state, "corvette")
    place(state, "corvette", 29.0, 15.0, 270.0)  # bow into the wind: no move, so a Crew Action at once
    assert "Anchored" in fails(state, "b", "Corvette crew landing", stream).text
    place(state, "corvette", 20.0, 30.0, 90.0)
    state.ship("corvette").sail = "anchored"
    assert "Pistol Shot" in fails(state, "b", "Corvette crew landing", stream).text


def test_transfer_flag_within_pistol_shot() -> None:
    state, stream = started()
    park_others(state, "corvette", "fluyt")
    place(state, "fluyt", 20.0, 8.0, 180.0)
    place(state, "corvette", 23.0, 8.0, 180.0)
    order(state, "b", "Fluyt move", stream)
    order(state, "b", "Fluyt crew flag Corvette", stream)
    assert state.ship("corvette").flagship and not state.ship("fluyt").flagship
    state2, stream2 = started()
    park_others(state2, "corvette", "fluyt")
    place(state2, "fluyt", 10.0, 8.0, 180.0)
    place(state2, "corvette", 23.0, 8.0, 180.0)
    order(state2, "b", "Fluyt move", stream2)
    assert "Pistol Shot" in fails(state2, "b", "Fluyt crew flag Corvette", stream2).text


def test_rowing_needs_sweeps_and_moves_one_inch() -> None:
    state, stream = started()
    park_others(state, "sloop", "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    order(state, "b", "Corvette move", stream)
    assert "Sweeps" in fails(state, "b", "Corvette crew row", stream).text
    order(state, "b", "Corvette done", stream)
    place(state, "sloop", 10.0, 8.0, 0.0)  # In the Wind's Eye: rowing still moves it
    order(state, "a", "Sloop crew row", stream)
    assert math.isclose(state.ship("sloop").y, 7.0)


def test_a_ship_left_out_of_action_by_its_own_move_ends_its_activation(monkeypatch: pytest.MonkeyPatch) -> None:
    """A collision can leave the moving ship Crippled and Shaken (Out of Action): it may then give
    no Crew Action nor `done`, so its activation ends with the move; it used to stay open with no
    legal order for anyone (a random Patrol game stuck so once distances were measured right)."""
    state, stream = started()
    park_others(state, "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    placed = movement.after_move

    def wrecked(state_: object, ship: object, *args: object) -> None:
        placed(state_, ship, *args)  # type: ignore[arg-type]
        corvette = state.ship("corvette")
        corvette.crippled, corvette.fatigue = True, 99  # as a ruinous collision would leave it
    monkeypatch.setattr(movement, "after_move", wrecked)
    events = texts(order(state, "b", "Corvette move", stream))
    assert state.ship("corvette").out_of_action
    assert state.activation.ship == "" and state.ship("corvette").moved
    assert "Corvette's activation ends" in events
