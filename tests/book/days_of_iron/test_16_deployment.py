"""Book 16 (deployment): the scenario's table, who deploys first, the deployment zones and
off-board units, checked on the measured table."""

from __future__ import annotations

import pytest

from games.core.errors import GameError, IllegalOrder
from games.days_of_iron.state import OFF_BOARD, ON_TABLE, ROUTING
from tests.book.days_of_iron.table import place, text_of, to_step
from tests.days_of_iron.helpers import RS, new_game, order, ready_both, start_turn, unit
from tests.scripted import DiceThenStream


def test_16_a_specified_scenario_sets_up_its_own_terrain() -> None:
    """16: "Set up the table terrain by mutual agreement, unless playing a specified scenario."
    Playing the Spicheren scenario, the table has that scenario's terrain, not the meeting's."""
    spicheren, _ = new_game("spicheren", scouting="no")
    meeting, _ = new_game("meeting", scouting="no")
    assert spicheren.terrain and meeting.terrain
    assert {t.name for t in spicheren.terrain} != {t.name for t in meeting.terrain}


def test_16_1_the_lowest_deployment_roll_sets_up_first() -> None:
    """16.1: "Alternatively, roll 1d6 to determine who sets up first. The player with the lowest
    score sets up one brigade in the deployment zone." The French roll 2, the Prussians 5: the
    French place first."""
    state, rng = new_game("meeting", scouting="no")
    for side in ("french", "prussian"):
        order(state, side, "staff", rng)
    order(state, "french", "ready", rng)
    said = text_of(order(state, "prussian", "ready", DiceThenStream([2, 5])))
    assert "French 2, Prussians 5" in said and "the French (lowest)" in said, said


def test_16_1_brigades_kept_off_table_are_not_declared_before_they_come_on() -> None:
    """16.1: "Brigades kept off table need not be declared until the turn before deploying on the
    table." The Prussians hold the Rheinbaben brigade off the table: the French board shows none
    of its units and nothing said in the channel names them."""
    state, rng = new_game("meeting", scouting="no")
    events = order(state, "prussian", "offboard Rheinbaben cavalry brigade", rng)
    events += ready_both(state, rng)
    start_turn(state)
    said = text_of([e for e in events if e.public])
    held = [u for u in state.units if u.brigade == "rheinbaben"]
    assert held and all(u.status == OFF_BOARD for u in held)
    shown = {c.id for c in RS.view(state, "french").counters}
    for u in held:
        assert u.id not in shown and u.name not in said, u.name


def test_16_2_each_side_deploys_within_12_inches_of_its_own_baseline() -> None:
    """16.2: "Using a standard 6' x 4' table, the deployment zones is the width of the player's
    baseline and up to 12"." The bot sets every unit out inside its own 12" zone, and a hidden
    unit may be recorded only inside it."""
    state, rng = new_game("meeting", scouting="no")
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "prussian", "hide 77th at 36 14 facing 180 line")
    order(state, "prussian", "hide 77th at 36 10 facing 180 line", rng)
    ready_both(state, rng)
    for u in state.units:
        if u.status == ON_TABLE:
            depth = u.y if u.side == "prussian" else 48.0 - u.y
            assert 0.0 <= depth <= 12.0 and 0.0 <= u.x <= 72.0, (u.name, u.x, u.y)


def test_16_5_up_to_a_third_of_the_points_off_the_table_in_brigades() -> None:
    """16.5: "Players may keep up to a third of their total army points in reserve off the table.
    These must be brigade level formations." A single regiment may not be held off; a brigade may;
    brigades past a third of the army's points may not."""
    state, rng = new_game("meeting", scouting="no")
    with pytest.raises(GameError, match="No brigade"):
        RS.parse_order(state, "french", "offboard 2e de Ligne")
    order(state, "french", "offboard Valabrègue cavalry brigade", rng)
    with pytest.raises(IllegalOrder, match=r"at most 1/3"):
        RS.parse_order(state, "french", "offboard Doëns brigade")


def _dusty(routing: bool) -> tuple[object, list[object]]:
    """The Rheinbaben brigade held off and declared at the Givonne road (72, 6), a French line 10"
    from that corner, routing or not; returns the state and the brigade's units after the Prussian
    part of the Movement phase has begun."""
    state, rng = new_game("meeting", scouting="no")
    order(state, "prussian", "offboard Rheinbaben cavalry brigade", rng)
    ready_both(state, rng)
    for u in state.units:
        if u.status == ON_TABLE:
            u.x, u.y = 4.0 + 5.0 * (state.units.index(u) % 12), (44.0 if u.side == "french" else 2.0)
            u.formation = "column"
    french = place(state, "2e de Ligne", 60.0, 12.0, 180.0)
    if routing:
        french.status, french.rout_bearing, french.rout_turn = ROUTING, 270.0, 1
    start_turn(state, french_first=False)
    order(state, "prussian", "dust Rheinbaben cavalry brigade at Givonne road", rng)
    to_step(state, "Movement", rng)
    if RS.to_act(state)[0] == "french":
        order(state, "french", "next", rng)
    return state, [u for u in state.units if u.brigade == "rheinbaben" and u.type != "general"]


def test_16_5_off_board_units_come_on_outside_25_inches_of_visible_enemy_not_routing() -> None:
    """16.5: "Any units making off-board movements must be placed outside 25" of visible, but not
    routing, enemy units. If enemy unit locations therefore prevent the arrival of flanking units,
    those units arrive on the owning player's table edge and generally behind their own troops."
    With a French line in good order 10" from the Givonne road the brigade comes on at the
    Prussian baseline; with that line routing it comes on at the Givonne road."""
    for routing in (False, True):
        _, held = _dusty(routing)
        assert all(u.status == ON_TABLE for u in held)
        at_entry = all(u.x > 50.0 for u in held)
        assert at_entry is routing, (routing, [(u.x, u.y) for u in held])


def test_16_5_off_board_units_not_announced_cannot_arrive() -> None:
    """16.5: "The player must notify their opponent in the Morale Phase of the turn that they will
    be bringing on off-board troops that turn. ... Failure to notify your opponent will mean that
    the units off table cannot arrive." Undeclared in the Morale phase, the brigade stays off the
    table through the Movement phase, and `dust` is refused outside the Morale phase."""
    state, rng = new_game("meeting", scouting="no")
    order(state, "prussian", "offboard Rheinbaben cavalry brigade", rng)
    ready_both(state, rng)
    start_turn(state, french_first=False)
    to_step(state, "Shooting", rng)
    with pytest.raises(GameError, match=r"Morale phase \(16\.5\)"):
        RS.parse_order(state, "prussian", "dust Rheinbaben cavalry brigade")
    to_step(state, "Close Assault", rng)
    assert unit(state, "2nd Hussars").status == OFF_BOARD
