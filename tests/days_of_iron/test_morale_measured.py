"""Morale on the measured table (issue 15 item 1, helper C): unit order and status (17.2.8-17.2.10),
the Casualties from Shooting test (17.3), rallying (17.2.11), routing (17.4.14-15) and attached
Generals with their command radius (section 14, 17.3.5)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from games.core.codec import from_json, to_json
from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.core.geometry import overlaps, polygon_distance
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import UMPIRE, Event, legal_texts
from games.days_of_iron.rules.formations_12 import base
from games.days_of_iron.rules.morale_17_2 import morale_opens, staff_factor
from games.days_of_iron.rules.routing_17_4_14 import continue_routs, rout, rout_distance, rout_left
from games.days_of_iron.state import (
    DESTROYED,
    DISORDERED,
    GOOD,
    KILLED,
    ON_TABLE,
    ROUTED_OFF,
    ROUTING,
    SHAKEN,
    STEPS,
    State,
    TerrainPiece,
    Unit,
)
from tests.console import run_script
from tests.days_of_iron.helpers import RS, new_game, order, ready_both, start_turn, unit
from tests.scripted import DiceThenStream


def test_a_stored_game_from_before_the_status_fields_loads_in_good_order() -> None:
    state, _ = new_game("meeting", scouting="no")
    encoded = to_json(state)
    assert isinstance(encoded, dict)
    for u in encoded["units"]:
        for key in ("order", "order_turn", "halted", "ground", "rout_bearing", "rout_done", "rout_turn", "attached"):
            u.pop(key)
    loaded = from_json(State, encoded)
    assert all(u.order == GOOD and not u.halted and not u.ground and not u.attached for u in loaded.units)


# --- routing (17.4.14-15) ------------------------------------------------------------------------


def table_game() -> tuple[State, Rng]:
    """The meeting set out, turn 1's Morale phase, every General Capable (the staff dice vary)."""
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    start_turn(state)
    for g in state.units:
        if g.type == "general":
            g.quality = "capable"
    return state, rng


def place(u: Unit, x: float, y: float, facing: float, formation: str = "column") -> None:
    u.x, u.y, u.facing, u.formation = x, y, facing, formation


def test_the_initial_rout_is_half_the_rout_distance_directly_away_from_the_enemy() -> None:
    state, _ = table_game()
    ligne = unit(state, "2e de Ligne")
    place(ligne, 68, 20, 0)
    events = rout(state, ligne, (68, 10), cause="failed test")
    half = rout_distance(ligne) / 2
    assert ligne.status == ROUTING and ligne.facing == pytest.approx(180)
    assert (ligne.x, ligne.y) == pytest.approx((68, 20 + half))
    assert "2e de Ligne routs (failed test): initial rout of 6\"" in events[0].text
    assert rout_left(state, ligne) == pytest.approx(half)  # the other half this turn, no more


def test_continued_rout_makes_the_rest_of_the_turns_distance_then_full_moves_and_off_the_table_is_gone() -> None:
    state, _ = table_game()
    ligne = unit(state, "2e de Ligne")
    place(ligne, 68, 28, 0)
    rout(state, ligne, (68, 18))
    continue_routs(state, "french")
    assert ligne.y == pytest.approx(28 + rout_distance(ligne))  # the remaining half only
    continue_routs(state, "french")
    assert ligne.y == pytest.approx(28 + rout_distance(ligne))  # nothing more this turn
    state.turn += 1
    events = continue_routs(state, "french")
    assert ligne.status == ROUTED_OFF
    assert any("routs off the table and will not return" in e.text for e in events)


def test_an_unlimbered_battery_is_destroyed_when_it_routs() -> None:
    state, _ = table_game()
    battery = unit(state, "7e Batterie")
    place(battery, 40, 30, 0, "line")
    events = rout(state, battery, (40, 20))
    assert battery.status == DESTROYED and "unlimbered battery is destroyed" in events[0].text


def test_a_router_bursts_through_a_friendly_line_and_goes_around_a_column() -> None:
    state, _ = table_game()
    ligne, line, column = unit(state, "2e de Ligne"), unit(state, "63e de Ligne"), unit(state, "24e de Ligne")
    place(ligne, 30, 20, 0)
    place(line, 30, 24, 0, "line")
    events = rout(state, ligne, (30, 10))
    assert line.order == DISORDERED and any("bursts through 63e de Ligne" in e.text for e in events)
    place(ligne, 50, 20, 0)
    ligne.status = ON_TABLE
    place(column, 50, 27, 0)
    rout(state, ligne, (50, 10))
    assert column.order == GOOD
    assert not overlaps(base(ligne).polygon(), base(column).polygon())  # beside it, not on it


def test_a_router_forced_into_an_enemy_is_dispersed() -> None:
    state, _ = table_game()
    ligne, enemy = unit(state, "2e de Ligne"), unit(state, "74th")
    place(ligne, 30, 20, 0)
    place(enemy, 30, 26, 0, "line")
    events = rout(state, ligne, (30, 10))
    assert ligne.status == DESTROYED and "dispersed" in events[-1].text


def test_an_attached_general_routs_with_his_unit() -> None:
    state, _ = table_game()
    ligne, doens = unit(state, "2e de Ligne"), unit(state, "Doëns")
    place(ligne, 30, 20, 0)
    doens.x, doens.y, doens.attached = 30, 22.5, ligne.id
    rout(state, ligne, (30, 10))
    assert doens.status == ROUTING and doens.y == pytest.approx(22.5 + rout_distance(ligne) / 2)


# --- the Casualties from Shooting test (17.3), statuses (17.2.8-10), rally (17.2.11), Generals (14) ----


def to_phase(state: State, rng: Rng, phase: str) -> None:
    while STEPS[state.step] != phase:
        order(state, RS.to_act(state)[0], "next", rng)


def shot(state: State, name: str, hits: int, faces: list[int]) -> list[Event]:
    """End the Shooting phase with ``hits`` on the named unit, the next dice scripted."""
    to_phase(state, Rng(seed_from_number(3)), "Shooting")
    unit(state, name).pending_hits = hits
    rng = DiceThenStream(faces)
    order(state, RS.to_act(state)[0], "next", rng)
    return order(state, RS.to_act(state)[0], "next", rng)


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def test_a_unit_that_loses_stands_takes_the_casualties_test_and_a_bad_roll_routs_it_off_the_table() -> None:
    state, _ = table_game()
    ligne = unit(state, "2e de Ligne")  # Class 2
    events = shot(state, "2e de Ligne", 2, [1])
    said = texts(events)
    # 1d6 = 1, -1 for the second stand lost: 0 in class-2 reads "rout"
    assert "**Casualties from Shooting test (house)** for 2e de Ligne (class-2): 1d6 = 1 -1 per-stand-lost = 0: ROUT" in said
    assert "2e de Ligne routs (under fire from 1st Heavy Battery (Krupp)): initial rout of 6\"" in said
    # routers move first in the Movement phase (17.4.1): the other half of its rout takes it off
    assert said.index("Movement phase") < said.index("2e de Ligne continues its rout: 6\"")
    assert ligne.status == ROUTED_OFF


@pytest.mark.parametrize(("face", "result", "check"), [
    (6, "PASS", lambda u: u.order == GOOD and not u.halted),
    (4, "PASS", lambda u: u.order == GOOD),
    (3, "GROUND", lambda u: u.ground and u.halted),
    (2, "DISORDERED", lambda u: u.order == DISORDERED),
    (1, "SHAKEN", lambda u: u.order == SHAKEN),
])
def test_casualties_test_results_from_the_house_sheet(face: int, result: str, check: Callable[[Unit], bool]) -> None:
    state, _ = table_game()
    said = texts(shot(state, "2e de Ligne", 1, [face]))
    assert f"= {face}: {result}" in said
    assert check(unit(state, "2e de Ligne"))


def test_a_unit_not_hit_takes_no_test() -> None:
    state, _ = table_game()
    said = texts(shot(state, "2e de Ligne", 0, []))
    assert "Casualties from Shooting" not in said


def test_an_attached_general_adds_his_quality_and_risks_a_hit() -> None:
    state, _ = table_game()
    ligne, doens = unit(state, "2e de Ligne"), unit(state, "Doëns")
    doens.quality, doens.attached = "exceptional", ligne.id
    said = texts(shot(state, "2e de Ligne", 1, [6, 6, 2]))  # staff die 6: hit; staff chart 6: killed; test 2
    assert "Gen. Doëns (attached): 1d6 = 6, HIT; Casualties to staff (house): 6: killed" in said
    assert doens.status == KILLED
    assert "= 2: DISORDERED" in said  # no General left to add his +2
    state, _ = table_game()
    ligne, doens = unit(state, "2e de Ligne"), unit(state, "Doëns")
    doens.quality, doens.attached = "exceptional", ligne.id
    said = texts(shot(state, "2e de Ligne", 1, [3, 2]))
    assert "Gen. Doëns (attached): 1d6 = 3, unhurt" in said
    assert "1d6 = 2 +2 attached-exceptional = 4: PASS" in said and ligne.order == GOOD


def test_units_not_in_good_order_must_rally_when_the_morale_phase_opens() -> None:
    state, rng = table_game()
    ligne = unit(state, "2e de Ligne")
    ligne.order, ligne.order_turn, ligne.halted = SHAKEN, 1, True
    to_phase(state, rng, "Close Assault")
    order(state, RS.to_act(state)[0], "next", rng)
    order(state, RS.to_act(state)[0], "next", rng)
    events = order(state, "french", "initiative", DiceThenStream([6, 1, 5]))
    said = texts(events)
    # 5 -1 shaken +1 Doëns (capable, within 16") = 5: class-2 passes
    assert "**Rally test (house)** for 2e de Ligne (class-2): 1d6 = 5 -1 shaken +1 general-capable = 5: PASS" in said
    assert ligne.order == GOOD and not ligne.halted


def test_a_router_rallies_by_order_facing_back_the_way_it_routed() -> None:
    state, _ = table_game()
    ligne = unit(state, "2e de Ligne")
    place(ligne, 68, 28, 0)
    rout(state, ligne, (68, 18))
    doens = unit(state, "Doëns")
    doens.x, doens.y = 66.0, 44.0  # within 16" (14.2)
    assert RS.parse_order(state, "french", "2e de Ligne rally").text == "2e-ligne rally"
    assert RS.parse_order(state, "french", "rally 2e de Ligne").text == "2e-ligne rally"
    assert "2e-ligne rally" in legal_texts(RS, state, "french")
    events = order(state, "french", "2e-ligne rally", DiceThenStream([6]))
    assert "1d6 = 6 -2 routing +1 general-capable = 5: PASS" in events[0].text  # class-2 passes on 5
    assert "halts and rallies in column" in events[0].text
    assert ligne.status == ON_TABLE and ligne.facing == pytest.approx(0)
    with pytest.raises(IllegalOrder, match="is not routing and is in good order: nothing to rally"):
        RS.parse_order(state, "french", "2e-ligne rally")


def test_a_failed_rally_leaves_the_router_routing_and_one_test_a_turn() -> None:
    state, _ = table_game()
    ligne = unit(state, "2e de Ligne")
    place(ligne, 68, 28, 0)
    rout(state, ligne, (68, 18))
    events = order(state, "french", "2e-ligne rally", DiceThenStream([2]))
    assert "FAIL" in events[0].text and "stays routing" in events[0].text and ligne.status == ROUTING
    with pytest.raises(IllegalOrder, match="has taken its rally test this turn"):
        RS.parse_order(state, "french", "2e-ligne rally")
    unit(state, "74th").order = SHAKEN
    with pytest.raises(NotYourTurn):
        RS.parse_order(state, "prussian", "74th rally")


def test_rally_is_refused_outside_the_morale_phase() -> None:
    state, rng = table_game()
    ligne = unit(state, "2e de Ligne")
    ligne.order = SHAKEN
    to_phase(state, rng, "Shooting")
    with pytest.raises(WrongPhase, match="rally in the Morale phase"):
        RS.parse_order(state, "french", "2e-ligne rally")


def test_halted_units_may_not_close_and_units_gone_to_ground_may_not_move() -> None:
    state, rng = table_game()
    ligne = unit(state, "2e de Ligne")
    to_phase(state, rng, "Movement")
    ligne.halted = True
    with pytest.raises(IllegalOrder, match="halted: it may not move closer to"):
        RS.parse_order(state, "french", "2e-ligne move 2")
    ligne.facing = 180.0  # facing away from the enemy: it may move away
    assert RS.parse_order(state, "french", "2e-ligne move 2").text
    ligne.halted, ligne.ground = False, True
    with pytest.raises(IllegalOrder, match="gone to ground: it must pass a rally test"):
        RS.parse_order(state, "french", "2e-ligne move 2")


def test_disorder_in_a_wood_and_recovery_after_a_turn_without_action() -> None:
    state, rng = table_game()
    ligne = unit(state, "2e de Ligne")
    state.terrain.append(TerrainPiece("light-wood", "Spicheren Wood", [[8, 30], [14, 30], [14, 34], [8, 34]]))
    to_phase(state, rng, "Movement")
    events = order(state, "french", "2e-ligne move 5", rng)
    assert "2e de Ligne is disordered in Spicheren Wood (17.2.8)" in texts(events)
    ligne.y = 20.0  # carried out of the wood by the umpire
    state.terrain.clear()
    state.turn += 2
    assert ligne.order_turn < state.turn - 1
    said = texts(morale_opens(state, rng))
    assert "recovers from disorder after a turn without action" in said and ligne.order == GOOD


@pytest.mark.slow
def test_a_general_attaches_moves_with_his_unit_and_detaches() -> None:
    state, rng = table_game()
    ligne, doens = unit(state, "2e de Ligne"), unit(state, "Doëns")
    to_phase(state, rng, "Movement")
    assert "gen-doens attach 63e-ligne" in legal_texts(RS, state, "french")  # set out behind it (his brigade)
    with pytest.raises(IllegalOrder, match="only a General or an engineer attaches"):
        RS.parse_order(state, "french", "2e-ligne attach 63e-ligne")
    with pytest.raises(IllegalOrder, match="not a unit of the French"):
        RS.parse_order(state, "french", "Gen. Doëns attach 74th")
    events = order(state, "french", "Gen. Doëns attach 2e de Ligne", rng)
    assert doens.attached == ligne.id and "attaches to 2e de Ligne" in events[0].text
    assert polygon_distance(base(doens).polygon(), base(ligne).polygon()) < 0.1
    order(state, "french", "2e-ligne move 3", rng)
    assert polygon_distance(base(doens).polygon(), base(ligne).polygon()) < 0.1
    assert "gen-doens detach" in legal_texts(RS, state, "french")
    order(state, "french", "gen-doens detach", rng)
    assert doens.attached == ""
    with pytest.raises(IllegalOrder, match="not an attached General"):
        RS.parse_order(state, "french", "gen-doens detach")


def test_the_rally_test_counts_a_general_within_the_command_radius_only() -> None:
    state, _ = table_game()
    ligne, doens = unit(state, "2e de Ligne"), unit(state, "Doëns")
    assert staff_factor(state, ligne, "rally") == ("general-capable", 1)
    for g in state.units:
        if g.type == "general" and g.side == "french":
            g.x, g.y = 70.0, 2.0  # far from the unit
    assert staff_factor(state, ligne, "rally") == ("out-of-command", 1)
    doens.attached = ligne.id
    assert staff_factor(state, ligne, "rally") == ("attached-capable", 1)


def test_statuses_show_on_the_board_and_in_the_status_lines() -> None:
    state, _ = table_game()
    ligne = unit(state, "2e de Ligne")
    ligne.order, ligne.halted = DISORDERED, True
    view = RS.view(state, "prussian")
    counter = next(c for c in view.counters if c.id == ligne.id)
    assert "(disordered, halted)" in counter.label
    assert any("2e de Ligne disordered, halted" in line for line in view.status)


@pytest.mark.slow
def test_the_morale_console_script_shows_a_casualty_test_a_rout_a_rally_and_an_attached_general() -> None:
    done = run_script(Path(__file__).resolve().parents[2] / "tests" / "scripts" / "days_of_iron" / "morale.txt")
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    out = done.stdout
    assert "Gen. Micheler attaches to 40e de Ligne (14.4)" in out
    assert "Gen. Micheler (attached): 1d6 = 2, unhurt (17.3.5)." in out
    # both fire as columns, dense targets (13.3: +1 a die, house)
    assert "+1 each for a dense target = 7 H on a dense target" in out
    assert ("**Casualties from Shooting test (house)** for 40e de Ligne (class-1): 1d6 = 3 -6 per-stand-lost "
            "-1 under-half +1 attached-capable = -3: ROUT.") in out
    assert '40e de Ligne routs (under fire from 39th Fusiliers): initial rout of 6" (17.4.14).' in out
    # routers move before anything else in the Movement phase (17.4.1), the rest of one rout distance
    assert out.index("Movement phase: the French act first.", out.index("ROUT.")) < out.index(
        '40e de Ligne continues its rout: 6" (17.4.14).')
    assert "for 39th Fusiliers (class-3): 1d6 = 4 -4 per-stand-lost = 0: SHAKEN." in out
    assert "40e-ligne rally" in out  # offered by /order text:?
    # the dice fail the rally (a pass is tested in test_the_rally_test_*): it routs on, off the table;
    # Gen. Micheler routs with it, so he is no help (17.2.11: "Unless the Generals themselves are
    # routing"), and no other General is near: out of command
    assert ("**Rally test (house)** for 40e de Ligne (class-1): 1d6 = 5 -2 routing -1 under-half -1 out-of-command "
            "= 1: FAIL: 40e de Ligne stays routing.") in out
    assert "`40e de Ligne rally`: 40e de Ligne has taken its rally test this turn." in out
    assert "40e de Ligne routs off the table and will not return (17.4.14)." in out
    assert "The turn limit (3) is reached." in out


def test_a_router_in_contact_with_an_enemy_stays_until_the_close_assault_and_a_hand_rout_flees_the_nearest_enemy() -> None:
    state, rng = table_game()
    ligne, enemy = unit(state, "2e de Ligne"), unit(state, "74th")
    place(ligne, 40, 24, 0)
    place(enemy, 40, 21, 180)  # touching its front (17.4.10: routers contacted do not move)
    ligne.status, ligne.rout_turn = ROUTING, 1
    assert continue_routs(state, "french") == [] and (ligne.x, ligne.y) == (40, 24)
    ligne.status = ON_TABLE
    place(enemy, 40, 12, 180)
    events = order(state, UMPIRE, "rout 2e de Ligne", rng)  # the umpire's correction: away from the nearest enemy
    assert "2e de Ligne routs (recorded by hand, away from 74th Infantry)" in texts(events)
    assert ligne.y == pytest.approx(24 + rout_distance(ligne) / 2) and ligne.facing == pytest.approx(180)
