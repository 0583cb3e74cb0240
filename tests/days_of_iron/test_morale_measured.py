"""Morale on the measured table (issue 15 item 1, helper C): unit order and status (17.2.8-17.2.10),
the Casualties from Shooting test (17.3), rallying (17.2.11), routing (17.4.14-15) and attached
Generals with their command radius (section 14, 17.3.5)."""

from __future__ import annotations

import pytest

from games.core.codec import from_json, to_json
from games.core.geometry import overlaps
from games.core.rng import Rng
from games.days_of_iron.rules.formations_12 import base
from games.days_of_iron.rules.routing_17_4_14 import continue_routs, rout, rout_distance, rout_left
from games.days_of_iron.state import DESTROYED, DISORDERED, GOOD, ON_TABLE, ROUTED_OFF, ROUTING, State, Unit
from tests.days_of_iron.helpers import new_game, ready_both, start_turn, unit


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
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    start_turn(state)
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
