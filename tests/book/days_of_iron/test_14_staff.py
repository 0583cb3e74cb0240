"""Book 14 (staff: quality, command, replacement, attaching, capture), checked sentence by
sentence through order text only (rally tests show the command factor they counted)."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from games.days_of_iron.state import CAPTURED, KILLED, ROUTING, State
from tests.book.days_of_iron.table import place, table, text_of, to_step
from tests.days_of_iron.helpers import RS, declare, finish_turn, new_game, order, start_turn, unit
from tests.scripted import DiceThenStream

FRENCH_GENERALS = ("General Frossard", "Gen. Laveaucoupet", "Gen. Doëns", "Gen. Micheler", "Gen. de Valabrègue")


def generals_away(state: State) -> None:
    """Every French General to the far corner, out of any command radius of the test's units."""
    for i, name in enumerate(FRENCH_GENERALS):
        place(state, name, 66.0 + i, 46.0, 0.0)


def rally_text(state: State, name: str) -> str:
    """A routing unit's rally test in the Morale phase (17.2.11), with a 6 rolled."""
    u = unit(state, name)
    u.status, u.rout_bearing, u.rout_turn = ROUTING, 180.0, 1
    return text_of(order(state, "french", f"{name} rally", DiceThenStream([6])))


def test_14_staff_are_dispersed_targets_unless_attached() -> None:
    """14: "Staff stands are not considered formed troops and therefore have no flanks or rear. They
    are considered dispersed targets when shot at, unless attached to a unit." """
    state, rng = table()
    place(state, "10e Chasseurs à pied", 36.0, 30.0, 0.0, "skirmish")
    place(state, "Gen. von François", 36.0, 24.0, 180.0)
    to_step(state, "Shooting", rng)
    said = text_of(order(state, "french", "10e Chasseurs à pied fire at Gen. von François", DiceThenStream([6] * 10)))
    assert "dispersed target" in said


def test_14_staff_quality_is_determined_before_the_game_starts() -> None:
    """14: "Before starting a game and after the battlefield and any objectives have been set, each
    player must determine their staff quality." A side may not say `ready` before `staff`."""
    state, rng = new_game("meeting", scouting="no")
    with pytest.raises(IllegalOrder, match="staff"):
        RS.parse_order(state, "french", "ready")
    order(state, "french", "staff", rng)
    order(state, "french", "ready", rng)


def test_14_1_one_d6_a_general_the_players_own_general_is_capable() -> None:
    """14.1: "To determine staff quality roll 1d6 for each General using the table below. Note the
    General stand representing the player is not diced for and is considered Capable." 1 is Inept,
    2-5 Capable, 6 Exceptional. The French have four Generals beside General Frossard: four dice."""
    state, _ = new_game("meeting", scouting="no")
    dice = DiceThenStream([1, 6, 2, 5, 1, 1, 1])
    order(state, "french", "staff", dice)
    assert len(dice.faces) == 3, "not one die for each General but the player's"
    assert unit(state, "General Frossard").quality == "capable"
    got = sorted(unit(state, n).quality for n in FRENCH_GENERALS[1:])
    assert got == ["capable", "capable", "exceptional", "inept"]


def test_14_2_a_general_commands_within_16_inches() -> None:
    """14.2: "Every General has a command radius of 16\"." The routing 2e de Ligne counts its
    brigade General Doëns 15" off in its rally test, and is out of command with him 17" off."""
    for apart, factor in ((15.0, "general-capable"), (17.0, "out-of-command")):
        state, _ = table()
        generals_away(state)
        place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
        place(state, "Gen. Doëns", 36.0 + 6.0 + apart + 0.5, 30.0, 0.0)  # his base's edge `apart` from the line's end
        assert factor in rally_text(state, "2e de Ligne"), apart


def test_14_2_a_cavalry_general_does_not_command_infantry() -> None:
    """14.2: "A Cavalry General cannot command or exert influence Infantry units and vice versa."
    The cavalry brigade's Gen. de Valabrègue beside the routing 2e de Ligne does not put it in
    command."""
    state, _ = table()
    generals_away(state)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    place(state, "Gen. de Valabrègue", 36.0, 33.0, 0.0)
    assert "out-of-command" in rally_text(state, "2e de Ligne")


def test_14_2_a_division_general_within_16_inches_may_be_used() -> None:
    """14.2: "A more senior general (for example, the Divisional commander near one of its Brigade
    units) may be used for morale tests if the senior general is within 16\" of the testing unit." """
    state, _ = table()
    generals_away(state)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    place(state, "Gen. Laveaucoupet", 36.0, 35.0, 0.0)
    assert "general-capable" in rally_text(state, "2e de Ligne")


def kill_doens() -> State:
    """Gen. Doëns killed in turn 1; turn 2 begun, the French in the Morale phase."""
    state, rng = table()
    doens = unit(state, "Gen. Doëns")
    doens.status, doens.lost_turn = KILLED, 1
    finish_turn(state, rng)
    start_turn(state)
    return state


def test_14_3_the_players_general_within_8_inches_promotes_a_replacement() -> None:
    """14.3: "To replace the wounded or dead General of a Brigade or Divisional formation, the General
    representing the player must be within 8\" of the formation. After 1 turn a field promotion may
    take place with the new general's quality determined by the roll of 1d6. On a roll of 1, 2 or 3
    the new General is Inept and on a roll of 4, 5 or 6 the new General is Capable." """
    state = kill_doens()
    generals_away(state)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    with pytest.raises(IllegalOrder, match=r"14\.3"):
        RS.parse_order(state, "french", "promote Gen. Doëns")
    place(state, "General Frossard", 36.0, 36.0, 0.0)  # 5" behind the 2e de Ligne
    said = text_of(order(state, "french", "promote Gen. Doëns", DiceThenStream([3])))
    assert "nept" in said
    state = kill_doens()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    place(state, "General Frossard", 36.0, 38.0, 0.0)  # 7" behind it
    said = text_of(order(state, "french", "promote Gen. Doëns", DiceThenStream([4])))
    assert "apable" in said


def test_14_4_an_attached_general_leaves_the_rest_of_his_brigade_out_of_command() -> None:
    """14.4: "Attached staff stand cannot exert influence on the rest of their command. Eg A Brigade
    General who is attached to a particular battalion renders remaining units in the Brigade 'out of
    command'." Gen. Doëns attached to the 63e de Ligne does not command the 2e de Ligne beside it."""
    state, _ = table()
    generals_away(state)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    place(state, "63e de Ligne", 36.0, 36.0, 0.0, "line")
    doens = place(state, "Gen. Doëns", 36.0, 37.0, 0.0)
    doens.attached = unit(state, "63e de Ligne").id
    assert "out-of-command" in rally_text(state, "2e de Ligne")


def test_14_4_an_attached_general_is_hit_on_a_6_when_his_unit_suffers_casualties() -> None:
    """14.4: "When the unit suffers any casualties the opponent must roll 1d6 to determine (a 6 =
    hit) if the attached General is also hit." """
    for face, hit in ((5, False), (6, True)):
        state, rng = table()
        ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
        doens = place(state, "Gen. Doëns", 36.0, 31.0, 0.0)
        doens.attached = ligne.id
        place(state, "74th", 36.0, 24.0, 180.0, "line")
        to_step(state, "Shooting", rng)
        order(state, "french", "next", rng)
        order(state, "prussian", "74th fire at 2e de Ligne", DiceThenStream([6] * 12))
        said = text_of(order(state, "prussian", "next", DiceThenStream([face, 1, 6, 6, 6])))
        assert f"Gen. Doëns (attached): 1d6 = {face}, {'HIT' if hit else 'unhurt'}" in said, said


def test_14_5_unattached_staff_contacted_are_captured_and_count_as_a_loss() -> None:
    """14.5: "Unattached Staff that fail to evade and which enemy units contact are captured. ... A
    captured General is counted as a loss when calculating the points at the end of the game."
    Gen. Doëns stands when the 2nd Hussars charge him; contacted, he is captured, and the French
    points lost count him."""
    state, _ = table(french_first=False)
    doens = place(state, "Gen. Doëns", 36.0, 30.0, 0.0)
    place(state, "2nd Hussars", 36.0, 22.0, 180.0, "line")
    declare(state, "prussian", "2nd Hussars charge Gen. Doëns", [6] * 20)
    order(state, "french", "Gen. Doëns stand", DiceThenStream([6] * 20))
    to_step(state, "Movement", DiceThenStream([6] * 40))
    order(state, "prussian", "2nd Hussars charge home", DiceThenStream([6] * 40))
    to_step(state, "Close Assault", DiceThenStream([6] * 40))
    assert doens.status == CAPTURED
    standing = "\n".join(RS.standing(state))
    assert "Doëns" in standing and "captured" in standing, standing


def test_14_5_the_formation_is_out_of_command_until_its_general_is_replaced() -> None:
    """14.5: "The remaining units in the formation are out of command until the general is replaced.
    The losing Brigade or Divisional formation can try to replace a lost General in the following
    turn." With Gen. Doëns lost the 2e de Ligne is out of command; once his successor is promoted
    (14.3) it is in command again, with the player's General gone back to the rear. RULING
    (RULINGS.md 14.3): the new General takes the field where the player's General stood."""
    state = kill_doens()
    generals_away(state)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    assert "out-of-command" in rally_text(state, "2e de Ligne")
    state = kill_doens()
    generals_away(state)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    place(state, "General Frossard", 36.0, 38.0, 0.0)
    order(state, "french", "promote Gen. Doëns", DiceThenStream([4]))
    place(state, "General Frossard", 70.0, 46.0, 0.0)
    assert "general-capable" in rally_text(state, "2e de Ligne")


def test_14_4_a_hit_on_the_attached_general_is_not_a_second_hit_on_the_unit() -> None:
    """14.4: "A hit on the General is not a 'second hit' on the unit for morale purposes." The 2e de
    Ligne loses 2 stands and its attached General is hit: its Casualties from Shooting test counts
    the 2 stands (-1 for the stand after the first), nothing for the General."""
    state, rng = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    doens = place(state, "Gen. Doëns", 36.0, 31.0, 0.0)
    doens.attached = ligne.id
    place(state, "74th", 36.0, 24.0, 180.0, "line")
    to_step(state, "Shooting", rng)
    order(state, "french", "next", rng)
    order(state, "prussian", "74th fire at 2e de Ligne", DiceThenStream([6, 6] + [1] * 10))
    said = text_of(order(state, "prussian", "next", DiceThenStream([6, 1, 4, 4, 4])))
    assert "Gen. Doëns (attached): 1d6 = 6, HIT" in said, said
    test = next(x for x in said.splitlines() if "Casualties from Shooting test" in x and "2e de Ligne" in x)
    assert "-1 per-stand-lost" in test and "-2 per-stand-lost" not in test, test
