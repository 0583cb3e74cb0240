"""Book ch. 4, The Movement Phase (4.2): its new terms, the four activation steps and the Crew
Actions, through order text on the quick-start table (wind from the north edge)."""

from __future__ import annotations

import math

import pytest

from tests.book.oak_and_iron.book import abreast, anchor_others, entangle, fails, order, place, started, texts


def _corvette(heading: float = 180.0, x: float = 18.0, y: float = 14.0) -> tuple[object, object]:
    state, stream = started()
    anchor_others(state, "corvette")
    place(state, "corvette", x, y, heading)
    return state, stream


def _moved(heading: float, sail: str = "battle", pre: str = "") -> tuple[float, str]:
    state, stream = _corvette(heading)
    corvette = state.ship("corvette")
    corvette.sail = sail
    x0, y0 = corvette.x, corvette.y
    log = texts(order(state, "b", pre, stream)) if pre else ""
    log += texts(order(state, "b", "Corvette move", stream))
    return math.hypot(corvette.x - x0, corvette.y - y0), log


@pytest.mark.parametrize(
    ("heading", "point", "speed"), [(180.0, "Large", 4), (90.0, "Large or Windward", 4), (60.0, "Windward", 3)]
)
def test_point_of_sail_sets_the_speed(heading: float, point: str, speed: int) -> None:
    """4.2 POINT OF SAIL: "LARGE A ship is sailing Large if its Stern is closer to the table's Weather
    Edge than its Bow. WINDWARD A ship is sailing Windward if its Bow is closer"; "Any time a ship is
    directly between two Points of Sail, the controlling player may choose which one to use" (the
    faster, RULINGS.md). 4.2 step 1 DETERMINE SPEED RATING: "The ship will move at its printed speed
    value" (Corvette: Large 4, Windward 3)."""
    dist, log = _moved(heading)
    assert f"Point of sail: {point}" in log
    assert math.isclose(dist, speed, abs_tol=1e-6)


def test_in_the_winds_eye_no_forward_move_only_a_speed_one_turn() -> None:
    """4.2 IN THE WIND'S EYE: "A ship at this Point of Sail cannot make any forward movement but may
    make a turn using the speed 1 tool."""
    state, stream = _corvette(0.0)
    corvette = state.ship("corvette")
    log = texts(order(state, "b", "Corvette move turn-end port 45", stream))
    assert "Wind's Eye" in log
    assert math.isclose(corvette.heading % 360, 315.0, abs_tol=1e-6)
    assert math.hypot(corvette.x - 18.0, corvette.y - 14.0) < 1.0  # pivoted in place, no forward move


@pytest.mark.parametrize(("sail", "speed"), [("full", 5), ("minimal", 3)])
def test_sail_setting_changes_the_speed(sail: str, speed: int) -> None:
    """4.2 SAIL SETTING: Full Sail "ships increase their speed rating by 1"; Minimal Sail "ships reduce
    their speed rating by 1"."""
    dist, _ = _moved(180.0, sail)
    assert math.isclose(dist, speed, abs_tol=1e-6)


def test_anchored_ship_cannot_move() -> None:
    """4.2 SAIL SETTING: ANCHORED "At this setting, the ship is carrying no sail at all and cannot move."
    4.2 CHANGE SAIL SETTING: "The ship may change its Sail Setting by 1 level (up or down)"."""
    state, stream = _corvette()
    state.ship("corvette").sail = "anchored"
    assert "cannot move" in fails(state, "b", "Corvette move", stream).text
    order(state, "b", "Corvette crew sail up", stream)
    assert state.ship("corvette").sail == "minimal" and (state.ship("corvette").x, state.ship("corvette").y) == (
        18.0,
        14.0,
    )


def test_full_sail_takes_no_reload() -> None:
    """4.2 SAIL SETTING: "While at Full Sail, a ship may not make Reload actions during the Crew Action
    step."""
    state, stream = _corvette()
    corvette = state.ship("corvette")
    corvette.sail, corvette.reload_port = "full", True
    order(state, "b", "Corvette move", stream)
    assert "Full Sail" in fails(state, "b", "Corvette crew reload port", stream).text


def test_no_speed_above_five() -> None:
    """4.2 step 3 MOVE: "A ship may never move faster than speed 5 for any reason. A ship with a speed
    greater than 5 will use the speed 5 tool instead." (Large 4, Full Sail +1, Adjust Speed +1.)"""
    for seed in range(1, 30):
        state, stream = started(seed)
        anchor_others(state, "corvette")
        place(state, "corvette", 18.0, 8.0, 180.0)
        corvette = state.ship("corvette")
        corvette.sail = "full"
        log = texts(order(state, "b", "Corvette seamanship adjust +1", stream))
        if "passed" not in log:
            continue
        y0 = corvette.y
        order(state, "b", "Corvette move", stream)
        assert math.isclose(corvette.y - y0, 5.0, abs_tol=1e-6)
        return
    raise AssertionError("no passed Skill Test in 30 seeds")


def test_adjust_speed_on_a_passed_skill_test() -> None:
    """4.2 step 2 SEAMANSHIP ACTION: "If the test is passed, the ship may take one of the following
    actions"; 4.2 ADJUST SPEED: "increase or decrease its current speed rating by 1. This is not a permanent
    adjustment and its effect only lasts for this move"."""
    seen = set()
    for seed in range(1, 20):
        state, stream = started(seed)
        anchor_others(state, "corvette")
        place(state, "corvette", 18.0, 8.0, 180.0)
        corvette = state.ship("corvette")
        corvette.fatigue = 4  # one die: passes on Crossed Swords or Helm only
        log = texts(order(state, "b", "Corvette seamanship adjust -1", stream))
        y0 = corvette.y
        order(state, "b", "Corvette move", stream)
        passed = "passed" in log
        seen.add(passed)
        assert math.isclose(corvette.y - y0, 3.0 if passed else 4.0, abs_tol=1e-6)
    assert seen == {True, False}


def test_change_heading_not_in_the_winds_eye() -> None:
    """4.2 step 2, 4.2 CHANGE HEADING: "If this ship is not In the Wind's Eye, Entangled, Aground, or Anchored,
    the ship makes a turn before it moves using the speed 1 tool."""
    state, stream = _corvette(0.0)
    assert "Wind's Eye" in fails(state, "b", "Corvette seamanship heading port 30", stream).text
    state, stream = _corvette(180.0)
    state.ship("corvette").sail = "anchored"
    assert "Anchored" in fails(state, "b", "Corvette seamanship heading port 30", stream).text


def test_a_ship_moves_its_full_distance_before_its_crew_action() -> None:
    """4.2 step 3 MOVE: "A ship must always move the full distance between the two arrows on the
    movement tool and must always move forward." 4.2 step 4 CREW ACTIONS: "After a ship completes its
    move, it may take a single Crew Action". 4.2 RALLY: "Remove 1 point of Fatigue."."""
    state, stream = _corvette()
    corvette = state.ship("corvette")
    corvette.fatigue = 2
    assert fails(state, "b", "Corvette crew rally", stream).text
    order(state, "b", "Corvette move", stream)
    order(state, "b", "Corvette crew rally", stream)
    assert corvette.fatigue == 1
    assert fails(state, "b", "Corvette crew rally", stream).text  # a single Crew Action


def test_a_turn_at_the_start_or_end_up_to_the_tool_angle() -> None:
    """4.2 step 3: "the ship may also perform a single turn either at the beginning or at the end of its
    move" ... "Partial turns are allowed" (house: a 45 degree turning edge)."""
    state, stream = _corvette()
    order(state, "b", "Corvette move turn-start port 20", stream)
    assert math.isclose(state.ship("corvette").heading, 200.0) or math.isclose(state.ship("corvette").heading, 160.0)
    state, stream = _corvette()
    assert "45" in fails(state, "b", "Corvette move turn-end port 60", stream).text


def test_players_alternate_one_ship_at_a_time() -> None:
    """4.2 ACTIVATION: "players will alternate activating 1 ship at a time" ... "If one player is left with
    multiple ships and their opponent has moved all of their ships, the player with the remaining
    ships will activate the rest 1 at a time"."""
    from tests.book.oak_and_iron.book import ruleset

    state, stream = started()
    anchor_others(state)
    rs = ruleset()
    assert rs.to_act(state) == ["b"]
    order(state, "b", "Corvette done", stream)
    assert rs.to_act(state) == ["a"]
    assert fails(state, "b", "Fluyt done", stream).text
    order(state, "a", "Sloop done", stream)
    order(state, "b", "Fluyt done", stream)
    assert rs.to_act(state) == ["a"]
    order(state, "a", "Petite Fregate done", stream)
    assert state.phase == "attack"


def test_shaken_ship_takes_no_seamanship_action_and_only_rallies() -> None:
    """4.2 SHAKEN: "A ship becomes Shaken and takes a Shaken token when it receives 7 points of Fatigue.
    A Shaken ship may not take Seamanship Actions and the only Crew Action it may take is Rally."""
    state, stream = _corvette()
    corvette = state.ship("corvette")
    corvette.fatigue, corvette.damage = 7, 2
    assert "Shaken" in fails(state, "b", "Corvette seamanship adjust +1", stream).text
    order(state, "b", "Corvette move", stream)
    assert "Shaken" in fails(state, "b", "Corvette crew repair", stream).text
    order(state, "b", "Corvette crew rally", stream)
    assert corvette.fatigue == 6 and not corvette.shaken


def test_crippled_ship_takes_fatigue_for_damage_and_sails_at_two() -> None:
    """4.2 CRIPPLED: "A Crippled ship no longer takes damage points. Instead, for every point of damage
    the ship would have taken, a point of Fatigue is taken instead. A Crippled ship's speed rating is
    limited to 2." 4.2 REPAIR: "Reduce the ship's total damage points by 1 if the ship is not Crippled"."""
    dist, _ = _moved(180.0, "full", "")
    assert math.isclose(dist, 5.0)
    state, stream = _corvette()
    corvette = state.ship("corvette")
    corvette.crippled, corvette.damage, corvette.sail = True, 7, "full"
    y0 = corvette.y
    order(state, "b", "Corvette move", stream)
    assert math.isclose(corvette.y - y0, 2.0, abs_tol=1e-6)
    assert fails(state, "b", "Corvette crew repair", stream).text
    assert corvette.damage == 7


def test_entangled_ship_does_not_move_and_may_only_cut_free() -> None:
    """4.2 ENTANGLED: "is stuck to another ship and will not move during the Movement Phase as long as
    they remain Entangled. Entangled ships may not take Crew Actions and may only take the Cut Free
    Seamanship Action." 4.2 CUT FREE: "The ship moves Yard Arm distance Directly Away from any ships it
    was Entangled with". 4.2 DIRECTLY AWAY: "it moves the declared distance in whichever direction it can
    go farthest without pivoting or touching an obstruction" (the bases end a Yard Arm apart)."""
    state, stream = started()
    anchor_others(state, "corvette", "sloop")
    sloop, corvette = abreast(state, "sloop", "corvette")
    entangle(sloop, corvette)
    assert fails(state, "b", "Corvette seamanship adjust +1", stream).text
    assert "will not move" in fails(state, "b", "Corvette move", stream).text
    assert "Entangled" in fails(state, "b", "Corvette crew rally", stream).text
    for seed in range(1, 20):
        state, stream = started(seed)
        anchor_others(state, "corvette", "sloop")
        sloop, corvette = abreast(state, "sloop", "corvette")
        entangle(sloop, corvette)
        log = texts(order(state, "b", "Corvette seamanship cutfree", stream))
        if "passed" in log:
            assert not corvette.entangled and not sloop.entangled
            from games.oak_and_iron.measure import base_distance

            assert base_distance(corvette.base, sloop.base) >= 1.0 - 1e-6  # Yard Arm (house 1")
            return
    raise AssertionError("no passed Cut Free in 20 seeds")


def test_aground_ship_does_not_move_until_repaired() -> None:
    """4.2 AGROUND: "A ship in this state takes an Aground token and may not move until the Aground token
    is removed. To remove an Aground token, the ship must take a Repair Crew Action and ... rolls a Skill
    Test. If the test is passed, the Aground token is removed."""
    outcomes = set()
    for seed in range(1, 15):
        state, stream = started(seed)
        anchor_others(state, "corvette")
        place(state, "corvette", 18.0, 8.0, 180.0)
        corvette = state.ship("corvette")
        corvette.aground, corvette.fatigue = True, 4  # one die
        assert "Aground" in fails(state, "b", "Corvette move", stream).text
        log = texts(order(state, "b", "Corvette crew repair aground", stream))
        outcomes.add(corvette.aground)
        assert corvette.aground == ("failed" in log)
    assert outcomes == {True, False}


def test_fatigue_never_above_seven() -> None:
    """4.2 FATIGUE: "A ship may never take more than 7 Fatigue points. Any amount of Fatigue taken over
    this is ignored." (Close Combat from a side edge against a Shaken ship.)"""
    state, stream = started()
    anchor_others(state, "corvette", "sloop")
    sloop, corvette = abreast(state, "sloop", "corvette")
    entangle(sloop, corvette)
    sloop.fatigue = 7
    from tests.book.oak_and_iron.book import play_out

    play_out(state, stream, until="attack")
    order(state, "b", "Corvette close Sloop", stream)
    assert sloop.fatigue == 7


def test_boarding_within_yard_arm_entangles() -> None:
    """4.2 BOARDING: "A ship may attempt to Board an opposing ship within Yard Arm distance. To attempt to
    board, roll a Skill Test. If passed, move the ship taking the action Directly Toward the target ship
    until their bases touch" ... "The ships are now Entangled."""
    for seed in range(1, 20):
        state, stream = started(seed)
        anchor_others(state, "corvette", "sloop")
        place(state, "corvette", 18.0, 8.0, 180.0)
        place(state, "sloop", 18.0 + 0.55 + 0.45 + 0.8, 12.0, 180.0)
        order(state, "b", "Corvette move", stream)
        corvette = state.ship("corvette")
        log = texts(order(state, "b", "Corvette crew board Sloop", stream))
        assert ("passed" in log) == bool(corvette.entangled)
        if corvette.entangled:
            return
    raise AssertionError("no boarding in 20 seeds")


def test_transfer_flag_within_pistol_shot() -> None:
    """4.2 TRANSFER FLAG: "A Squadron's Flagship may move the Admiral card to a target friendly ship that
    is within Pistol Shot of the Flagship and not Entangled. The target ship is now the Flagship."""
    state, stream = started()
    anchor_others(state, "corvette", "fluyt")
    place(state, "fluyt", 18.0, 8.0, 180.0)
    place(state, "corvette", 22.0, 8.0, 180.0)  # 2.9" apart, both anchored
    state.ship("fluyt").sail = state.ship("corvette").sail = "anchored"
    order(state, "b", "Fluyt crew flag Corvette", stream)
    assert state.ship("corvette").flagship and not state.ship("fluyt").flagship


def test_row_needs_sweeps() -> None:
    """4.2 ROW: "A ship with the Sweeps special rule or upgrade may make an additional move using the
    speed 1 tool." (The quick-start Corvette has no Sweeps.)"""
    state, stream = _corvette()
    order(state, "b", "Corvette move", stream)
    assert "Sweeps" in fails(state, "b", "Corvette crew row", stream).text


def test_landing_party_needs_anchor_and_land() -> None:
    """4.2 LANDING PARTY: "A ship that is not Shaken, has its Sail Setting set to Anchored, and is within
    Pistol Shot of an island or landmass may send a Landing Party ashore."""
    state, stream = _corvette()
    order(state, "b", "Corvette move", stream)
    assert "Anchored" in fails(state, "b", "Corvette crew landing", stream).text


def test_reload_removes_one_marker() -> None:
    """4.2 RELOAD: "Remove a reload marker from 1 of the ship's sides."""
    state, stream = _corvette()
    corvette = state.ship("corvette")
    corvette.reload_port = corvette.reload_starboard = True
    order(state, "b", "Corvette move", stream)
    order(state, "b", "Corvette crew reload port", stream)
    assert not corvette.reload_port and corvette.reload_starboard


def test_a_card_that_contradicts_the_rules_is_followed() -> None:
    """4 A NOTE ON SPECIAL RULES: "When specific rules on cards contradict general rules expressed in this
    rulebook, follow the rule on the card." (Adjust Position: "your ships pass Seamanship Action Skill
    Tests without rolling", against 4.1 SKILL TEST's roll of 5 dice.)"""
    from tests.book.oak_and_iron.book import rng, ruleset

    rs, stream = ruleset(), rng(1)
    state = rs.setup("quickstart", {}, stream)
    order(state, "a", "initiative Adjust Position", stream)
    order(state, "b", "initiative Reload", stream)
    order(state, "a", "initiative Down!", stream)
    order(state, "b", "initiative Fire as She Bears", stream)
    assert state.initiative == "a"
    anchor_others(state, "sloop")
    place(state, "sloop", 18.0, 8.0, 180.0)
    sloop = state.ship("sloop")
    sloop.fatigue = 6  # one die: a roll would fail two times in three
    before = stream.counter
    log = texts(order(state, "a", "Sloop seamanship adjust +1", stream))
    assert stream.counter == before and "Skill Test (" not in log
    y0 = sloop.y
    order(state, "a", "Sloop move", stream)
    assert math.isclose(sloop.y - y0, sloop.large + 1, abs_tol=1e-6)
