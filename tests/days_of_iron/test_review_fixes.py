"""Days of Iron measured table, fixes from a reviewer's play: no move, wheel, formation change,
charge impulse or evade ends on another unit's base (17.4.8); charges obey rivers like moves
(15.3) and an impulse ends no nearer than 1" to an enemy it did not charge (17.4); forced marches
disorder, are made by the whole brigade and not within 12" of a visible formed enemy (17.4.5);
refusals cite the right rule and say what numbers are allowed."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder, InvalidSyntax
from games.core.geometry import overlaps, polygon_distance
from games.core.rng import Rng
from games.core.ruleset import legal_texts
from games.days_of_iron.rules.formations_12 import base, reform
from games.days_of_iron.state import State, TerrainPiece, Unit
from tests.days_of_iron.helpers import RS, declare, new_game, order, ready_both, start_turn, unit


def to_movement(state: State, rng: Rng) -> None:
    start_turn(state)
    while state.step < 2:
        order(state, RS.to_act(state)[0], "next", rng)


def movement_game() -> tuple[State, Rng]:
    """The meeting engagement as set out, the French moving first in turn 1."""
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    to_movement(state, rng)
    return state, rng


def march_game() -> tuple[State, Rng]:
    """``movement_game`` with the 24e and 40e de Ligne in march column, as if formed the turn before
    (12.1: only a march column force marches), each front where it stood."""
    state, rng = movement_game()
    for name in ("24e de Ligne", "40e de Ligne"):
        reform(unit(state, name), "march")
    return state, rng


def place(u: Unit, x: float, y: float, facing: float, formation: str) -> Unit:
    u.x, u.y, u.facing, u.formation = x, y, facing, formation
    return u


def piece(state: State, kind: str, name: str, x0: float, y0: float, x1: float, y1: float) -> None:
    state.terrain.append(TerrainPiece(kind, name, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))


def text_of(events: list) -> str:  # type: ignore[type-arg]
    return "\n".join(e.text for e in events)


def test_a_move_may_not_end_on_a_friend_and_the_refusal_says_how_far_it_can_go() -> None:
    state, _ = movement_game()
    # the 4e Chasseurs (x 17-19, y 42-45) stand 2" behind the 63e de Ligne's column (x 18-22, y 37-40)
    with pytest.raises(IllegalOrder, match=r"4e Chasseurs à cheval would end on top of 63e de Ligne.*"
                                           r"at most `4e-chasseurs move 2`"):
        RS.parse_order(state, "french", "4e Chasseurs à cheval move 3")
    legal = legal_texts(RS, state, "french")
    assert "4e-chasseurs move 14" in legal  # through the 63e's column and out beyond it (17.4.8)
    RS.parse_order(state, "french", "4e Chasseurs à cheval move 2")


def test_a_formation_change_may_not_lay_the_unit_across_a_neighbour() -> None:
    state, rng = movement_game()
    unit(state, "63e de Ligne").x = 12.0  # x 10-14, beside the 2e (x 5-9), whose line would be x 1-13
    with pytest.raises(IllegalOrder, match=r"forming line would lay 2e de Ligne across 63e de Ligne"):
        RS.parse_order(state, "french", "2e de Ligne form line")
    assert "2e-ligne form line" not in legal_texts(RS, state, "french")
    unit(state, "63e de Ligne").y = 30.0  # moved out of the way, the line forms
    order(state, "french", "2e de Ligne form line", rng)


def river_charge_game() -> tuple[State, Unit, Unit]:
    """French horse on the near bank of a river (y 22-25, no crossing), a Prussian line beyond it;
    the French declare charges first in turn 1's Morale phase."""
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    state.terrain.clear()
    piece(state, "river", "Saar", 0.0, 22.0, 72.0, 25.0)
    horse = place(unit(state, "4e Chasseurs"), 20.0, 26.0, 0.0, "line")
    target = place(unit(state, "74th"), 20.0, 20.0, 180.0, "line")
    start_turn(state)
    return state, horse, target


def test_a_charge_across_a_river_is_refused_and_not_offered() -> None:
    state, horse, target = river_charge_game()
    assert polygon_distance(base(horse).polygon(), base(target).polygon()) < 7
    with pytest.raises(IllegalOrder, match=r"4e Chasseurs à cheval cannot reach 74th Infantry: Saar is in the way"):
        RS.parse_order(state, "french", "4e Chasseurs charge 74th")
    assert "4e-chasseurs charge 74th" not in legal_texts(RS, state, "french")
    state.terrain.clear()  # without the river the same charge is open
    RS.parse_order(state, "french", "4e Chasseurs charge 74th")


def test_a_1st_impulse_ends_no_nearer_than_1_inch_to_an_enemy_it_did_not_charge() -> None:
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    ligne = place(unit(state, "2e de Ligne"), 36.0, 30.0, 0.0, "line")  # x 30-42, y 29.5-30.5
    place(unit(state, "74th"), 36.0, 23.0, 180.0, "line")  # 6" ahead
    other = place(unit(state, "39th"), 44.5, 26.0, 180.0, "column")  # x 42.5-46.5, y 24.5-27.5: beside the path
    start_turn(state)
    events = declare(state, "french", "2e de Ligne charge 74th", [4])  # To Charge: pass
    assert "1st Impulse" in text_of(events)
    assert polygon_distance(base(ligne).polygon(), base(other).polygon()) >= 1 - 1e-6
    assert ligne.y < 30.0  # it went as far as it could


def test_an_evade_stops_short_of_a_friend_in_its_way() -> None:
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    place(unit(state, "2e de Ligne"), 36.0, 30.0, 0.0, "line")
    screen = place(unit(state, "74th"), 36.0, 23.0, 180.0, "skirmish")
    friend = place(unit(state, "39th"), 36.0, 18.0, 180.0, "column")  # y 16.5-19.5, behind the screen
    start_turn(state)
    events = declare(state, "french", "2e de Ligne charge 74th", [4, 5])  # the screen must evade (17.2.7)
    assert "stopping short of 39th" in text_of(events)
    assert not overlaps(base(screen).polygon(), base(friend).polygon())


def test_a_forced_march_disorders_the_unit_at_once() -> None:
    state, rng = march_game()
    events = order(state, "french", "24e de Ligne move 12 forced", rng)
    assert "24e de Ligne is disordered by its forced march (17.4.5)." in text_of(events)
    assert unit(state, "24e de Ligne").order == "disordered"


def test_the_whole_brigade_force_marches_or_none_of_it() -> None:
    state, rng = march_game()
    order(state, "french", "24e de Ligne move 12 forced", rng)
    with pytest.raises(IllegalOrder, match=r"24e de Ligne of the same brigade has force marched this turn"):
        RS.parse_order(state, "french", "40e de Ligne move 2")
    order(state, "french", "40e de Ligne move 2 forced", rng)
    order(state, "french", "2e de Ligne move 2", rng)  # another brigade moves as it likes
    state, rng = march_game()
    order(state, "french", "40e de Ligne move 2", rng)
    with pytest.raises(IllegalOrder, match=r"40e de Ligne of the same brigade has moved this turn without a forced march"):
        RS.parse_order(state, "french", "24e de Ligne move 12 forced")


def test_a_forced_march_may_not_come_within_12_inches_of_a_visible_formed_enemy() -> None:
    state, rng = march_game()
    ligne = unit(state, "24e de Ligne")  # x 41-43 (march column), front at y 37, 6" deep
    place(unit(state, "74th"), 42.0, 15.5, 180.0, "column")  # y 14-17: 20" ahead
    with pytest.raises(IllegalOrder, match=r"a forced march may not come within 12\" of a visible formed enemy \(17.4.5\); "
                                           r"it would end 8\" from 74th Infantry"):
        RS.parse_order(state, "french", "24e de Ligne move 12 forced")
    order(state, "french", "24e de Ligne move 8", rng)
    assert ligne.y == pytest.approx(32.0)  # its centre 3" behind its front, now at y 29


def test_slow_ground_refusals_cite_section_15_not_the_passage_of_lines() -> None:
    state, _ = movement_game()
    state.terrain.clear()
    piece(state, "ford", "Saar ford", 0.0, 20.0, 72.0, 37.0)  # x0.5 ground ahead of the French
    with pytest.raises(IllegalOrder) as refused:
        RS.parse_order(state, "french", "2e de Ligne move 5")
    assert "Saar ford slows it (x0.5; 17.4.4, section 15)" in str(refused.value)
    assert "17.4.9" not in str(refused.value)


def test_out_of_range_numbers_say_what_is_allowed() -> None:
    state, _ = movement_game()
    with pytest.raises(InvalidSyntax, match=r"INCHES from 0 to 60, DEGREES from 1 to 180"):
        RS.parse_order(state, "french", "2e de Ligne move -3")
    with pytest.raises(InvalidSyntax, match=r"DEGREES from 1 to 180"):
        RS.parse_order(state, "french", "2e de Ligne move 2 wheel left 200")
