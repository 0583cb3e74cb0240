"""Small gaps of the measured table closed: staff in close assault (17.5.7, 14.5), every rout
drowning in a river away from a crossing (17.5.1), halted units moving again after a passed test
(17.2.10) and wounded Generals' lost command (14.3)."""

from __future__ import annotations

import pytest

from games.core.rng import Rng, seed_from_number
from games.core.ruleset import Event
from games.days_of_iron.rules import close_assault_17_5, morale_17_2, routing_17_4_14, staff_14
from games.days_of_iron.rules.formations_12 import footprint, in_contact
from games.days_of_iron.state import CAPTURED, DESTROYED, KILLED, ON_TABLE, ROUTING, STEPS, State, TerrainPiece, Unit
from tests.days_of_iron.helpers import RS, new_game, order, ready_both, start_turn, unit
from tests.scripted import DiceThenStream


def place(u: Unit, x: float, y: float, facing: float, formation: str = "line") -> Unit:
    u.formation, u.x, u.y, u.facing = formation, x, y, facing
    return u


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def bare_game(step: str = "Movement") -> tuple[State, Rng]:
    """The meeting table, no terrain, French initiative, in turn 1's ``step``; Generals Capable."""
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    state.terrain.clear()
    start_turn(state)
    while STEPS[state.step] != step:
        order(state, RS.to_act(state)[0], "next", rng)
    for g in state.units:
        if g.type == "general":
            g.quality = "capable"
    return state, rng


def to_close_assault(state: State, faces: list[int]) -> str:
    """Say `next` through the Movement phase: the Close Assault phase opens with the given dice."""
    order(state, "french", "next", Rng(seed_from_number(5)))
    return texts(order(state, "prussian", "next", DiceThenStream(faces)))


def river(state: State, name: str, kind: str, x0: float, y0: float, x1: float, y1: float) -> None:
    state.terrain.append(TerrainPiece(kind, name, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))


# --- 17.5.7: staff and engineers in close assault ------------------------------------------------


def melee(state: State) -> tuple[Unit, Unit, Unit]:
    """The 2e de Ligne (line, facing up the table) in contact with the 74th, Gen. Doëns attached to the 2e."""
    ligne = place(unit(state, "2e de Ligne"), 36.0, 30.0, 0.0)
    place(unit(state, "74th"), 36.0, 29.0, 180.0)
    doens = unit(state, "Doëns")
    doens.attached, doens.formation = ligne.id, doens.formation or "line"
    staff_14.carry(state, ligne)
    return ligne, unit(state, "74th"), doens


def test_a_general_attached_to_a_unit_in_close_assault_risks_a_casualty_on_a_6() -> None:
    state, _ = bare_game()
    _, _, doens = melee(state)
    # the staff die first (6: hit), the Casualties to Staff chart (6: killed), then the melee's dice
    said = to_close_assault(state, [6, 6, 5, 2, 1])
    assert "Gen. Doëns (attached): 1d6 = 6, HIT; Casualties to staff (house): 6: killed (17.5.7)." in said
    assert doens.status == KILLED and not doens.attached and doens.lost_turn == state.turn
    assert said.index("Gen. Doëns (attached)") < said.index("**Close assault** (17.5)")
    assert "2e de Ligne 5+2 = 7; 74th Infantry 2+3 = 5" in said  # the melee fights on with the next dice


def test_an_attached_general_is_unhurt_on_1_to_5_and_rolls_once_a_phase() -> None:
    state, _ = bare_game()
    _, _, doens = melee(state)
    place(unit(state, "39th"), 46.0, 29.0, 180.0)  # a second melee on the 2e's other wing (x 40-52; the 2e is x 30-42)
    unit(state, "74th").x = 30.0  # x 24-36
    assert len(close_assault_17_5.melees(state)) == 2
    said = to_close_assault(state, [3, 5, 2, 1])
    assert said.count("Gen. Doëns (attached)") == 1
    assert "Gen. Doëns (attached): 1d6 = 3, unhurt (17.5.7)." in said and doens.status == ON_TABLE


def test_an_unattached_general_contacted_by_an_enemy_is_captured() -> None:
    state, _ = bare_game()
    doens = place(unit(state, "Doëns"), 20.0, 30.0, 0.0, "line")
    doens.attached = ""
    hussars = place(unit(state, "2nd Hussars"), 20.0, 20.0, 180.0)
    # the Hussars' charge has gone home: their front touches the General's
    hussars.y = doens.y - footprint(doens)[1] / 2 - footprint(hussars)[1] / 2 - 0.01
    assert in_contact(doens, hussars)
    said = to_close_assault(state, [])
    assert ("Gen. Doëns, isolated, is contacted by 2nd Hussars: captured, a staff casualty counted as a loss "
            "(17.5.7, 14.5).") in said
    assert doens.status == CAPTURED and doens.lost_turn == state.turn


# --- 17.5.1: every rout drowns in a river away from a ford or bridge ----------------------------------


def test_a_rout_from_a_morale_test_into_a_river_drowns_the_unit() -> None:
    state, _ = bare_game("Morale")
    river(state, "Saar", "river", 0.0, 20.0, 72.0, 27.0)
    ligne = place(unit(state, "2e de Ligne"), 36.0, 32.0, 0.0, "column")
    events = routing_17_4_14.rout(state, ligne, (36.0, 42.0), cause="failed test")  # 6" up the table, into the Saar
    assert ligne.status == DESTROYED
    assert ("2e de Ligne is routed into Saar away from a ford: drowned, surrendered or dispersed, it is removed "
            "from play (15.3, 17.5.1).") in texts(events)


def test_a_rout_across_a_narrow_river_drowns_the_unit_but_not_over_a_bridge() -> None:
    state, _ = bare_game("Morale")
    river(state, "Saar", "river", 0.0, 24.0, 72.0, 25.0)  # 1" wide: the rout ends on the far bank
    ligne = place(unit(state, "2e de Ligne"), 36.0, 28.0, 0.0, "column")
    routing_17_4_14.rout(state, ligne, (36.0, 40.0))
    assert ligne.status == DESTROYED
    state, _ = bare_game("Morale")
    river(state, "Saar", "river", 0.0, 24.0, 72.0, 25.0)
    river(state, "Saar bridge", "bridge", 30.0, 23.5, 42.0, 25.5)
    ligne = place(unit(state, "2e de Ligne"), 36.0, 28.0, 0.0, "column")
    routing_17_4_14.rout(state, ligne, (36.0, 40.0))
    assert ligne.status == ROUTING and ligne.y == pytest.approx(22.0)


def test_a_continued_rout_into_a_river_drowns_the_unit() -> None:
    state, _ = bare_game("Movement")
    river(state, "Saar", "river", 0.0, 13.0, 72.0, 18.0)
    ligne = place(unit(state, "2e de Ligne"), 36.0, 24.0, 0.0, "column")
    # routed in this turn's Morale phase: its initial half made, the other half now (17.4.14)
    ligne.status, ligne.rout_bearing, ligne.rout_turn, ligne.rout_done = ROUTING, 0.0, state.turn, 6.0
    said = texts(routing_17_4_14.continue_routs(state, "french"))
    assert "2e de Ligne continues its rout: 6\"" in said and "routed into Saar" in said
    assert ligne.status == DESTROYED


# --- 17.2.10: halted units move normally after passing a later test ----------------------------------


def test_a_halted_unit_that_passes_its_rally_when_the_next_morale_phase_opens_moves_normally() -> None:
    state, rng = bare_game("Close Assault")
    ligne = place(unit(state, "2e de Ligne"), 36.0, 40.0, 0.0, "column")
    ligne.halted = True
    order(state, "french", "next", rng)
    order(state, "prussian", "next", rng)
    said = texts(order(state, "french", "initiative", DiceThenStream([6, 1, 6])))
    assert "**Rally test (house)** for 2e de Ligne (class-2): 1d6 = 6" in said and ": PASS" in said
    assert not ligne.halted


def test_a_halted_unit_that_failed_its_rally_moves_normally_after_passing_a_casualties_test_that_turn() -> None:
    state, rng = bare_game("Close Assault")
    ligne = place(unit(state, "2e de Ligne"), 36.0, 40.0, 0.0, "column")
    ligne.halted = True
    order(state, "french", "next", rng)
    order(state, "prussian", "next", rng)
    said = texts(order(state, "french", "initiative", DiceThenStream([6, 1, 1])))  # rally 1d6 = 1: fails
    assert "2e de Ligne stays halted" in said and ligne.halted
    while STEPS[state.step] != "Shooting":
        order(state, RS.to_act(state)[0], "next", rng)
    ligne.pending_hits = 1
    faces = DiceThenStream([6])  # 6 -1 halted = 5: PASS
    order(state, RS.to_act(state)[0], "next", faces)
    said = texts(order(state, RS.to_act(state)[0], "next", faces))
    assert "for 2e de Ligne (class-2): 1d6 = 6 -1 halted = 5: PASS" in said
    assert "2e de Ligne passed: it is no longer halted and may move normally (17.2.10)." in said
    assert not ligne.halted


def test_a_unit_halted_by_a_being_charged_test_this_turn_stays_halted_after_a_passed_casualties_test() -> None:
    state, _ = bare_game("Shooting")
    ligne = unit(state, "2e de Ligne")
    ligne.halted, ligne.order, ligne.order_turn, ligne.rally_turn = True, "disordered", state.turn, 0
    said = texts(morale_17_2.after_shooting(state, {ligne.id: 1}, {ligne.id: 1}, DiceThenStream([6])))
    assert ": PASS" in said and ligne.halted


# --- 14.3: wounded Generals lose command for the chart's turns -----------------------------------------


def test_a_wounded_general_loses_command_for_the_charts_turns_from_the_phase_of_his_wounding() -> None:
    state, _ = bare_game("Shooting")
    ligne = place(unit(state, "2e de Ligne"), 36.0, 40.0, 0.0, "column")
    doens = unit(state, "Doëns")
    doens.attached = ligne.id
    staff_14.carry(state, ligne)
    assert morale_17_2.staff_factor(state, ligne, "casualties") == ("attached-capable", 1)
    # staff die 6: hit; the chart's 3: "wounded: no command for 2 turns" (house)
    said = texts(morale_17_2.staff_risk(state, doens, DiceThenStream([6, 3])))
    assert "HIT; Casualties to staff (house): 3: wounded: no command for 2 turns (17.3.5)." in said
    assert "Gen. Doëns is wounded and has no command until turn 3's Shooting phase (14.3)." in said
    assert doens.status == ON_TABLE and doens.attached == ligne.id
    assert morale_17_2.staff_factor(state, ligne, "casualties") == ("", 0)  # no attached factor
    doens.attached = ""
    other = place(unit(state, "63e de Ligne"), 36.0, 30.0, 0.0, "column")  # his brigade, within 16"
    assert doens not in morale_17_2.commanding_generals(state, other)
    state.turn = 3
    state.step = STEPS.index("Morale")
    assert not staff_14.in_command(state, doens)  # the phase before his turns are up
    state.step = STEPS.index("Shooting")
    assert staff_14.in_command(state, doens) and doens in morale_17_2.commanding_generals(state, other)


def test_the_wound_turns_are_read_from_the_chart_text() -> None:
    assert staff_14.wound_turns("slightly wounded: no command for 1 turn") == 1
    assert staff_14.wound_turns("Wounded: no command for 2 turns") == 2
    assert staff_14.wound_turns("killed") == 0


def test_an_unattached_general_wounded_by_fire_loses_command_too() -> None:
    state, rng = bare_game("Shooting")
    general = unit(state, "Laveaucoupet")
    general.attached, general.pending_hits = "", 1
    order(state, "french", "next", rng)
    said = texts(order(state, "prussian", "next", DiceThenStream([1])))  # Casualties to staff 1: slightly wounded
    assert "Gen. Laveaucoupet hit 1 time (Casualties to staff (house)): 1: slightly wounded: no command for 1 turn." in said
    assert "Gen. Laveaucoupet is wounded and has no command until turn 2's Movement phase (14.3)." in said  # hits come off as the phase ends
    assert general.status == ON_TABLE and not staff_14.in_command(state, general)


def test_a_stored_game_from_before_wounds_loads_with_every_general_in_command() -> None:
    from games.core.codec import from_json, to_json

    state, _ = bare_game("Morale")
    encoded = to_json(state)
    assert isinstance(encoded, dict)
    for u in encoded["units"]:
        u.pop("wounded_until")
    loaded = from_json(State, encoded)
    assert all(staff_14.in_command(loaded, g) for g in loaded.units if g.type == "general")
