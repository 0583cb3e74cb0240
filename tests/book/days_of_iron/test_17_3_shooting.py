"""Book 17.3 (the Shooting phase: simultaneous fire, the nearest target, defensive fire, melees,
hills, endangered friends, artillery and staff as targets), checked on the measured table. The
lines stand 12" wide and 1" deep (12 stands), so edge-to-edge ranges are read off the y centres."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.errors import IllegalOrder
from tests.book.days_of_iron.table import piece, place, table, text_of, to_step
from tests.days_of_iron.helpers import RS, finish_turn, order, start_turn, unit
from tests.scripted import DiceThenStream, ScriptedDice


def test_17_3_fire_is_simultaneous_and_casualties_come_off_when_the_phase_ends() -> None:
    """17.3: "Firing is simultaneous in Days of Iron. The player with initiative rolls first. All
    units fire using the number of stands with which they *started* the phase. Casualties are
    applied at the end of the Phase." The 2e hits the 74th six times; the 74th still fires back
    with all twelve of its stands, and loses its six only when the phase ends."""
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    prussians = place(state, "74th", 36.0, 24.0, 180.0)  # 5" apart
    to_step(state, "Shooting", rng)
    order(state, "french", "2e de Ligne fire at 74th", ScriptedDice([6] * 6 + [1] * 6))
    assert prussians.stands == 12, "the hits came off before the phase ended"
    order(state, "french", "next", rng)
    answer = ScriptedDice([1] * 12)
    order(state, "prussian", "74th fire at 2e de Ligne", answer)
    assert len(answer.rolled) == 12, f"the 74th fired {len(answer.rolled)} dice, not the 12 stands it started with"
    to_step(state, "Movement", DiceThenStream([6] * 10))
    assert prussians.stands == 6


def test_17_3_foot_fire_at_the_nearest_enemy_artillery_at_any() -> None:
    """17.3: "Units must fire at the nearest visible eligible enemy unit. Artillery is the exception
    to this rule as it may fire at any eligible unit." The 74th stands 5" in front of the 2e and
    the 39th's column 6" away, both in its arcs; a battery beside the 2e may pick the farther."""
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 24.0, 180.0)
    place(state, "39th", 45.0, 22.0, 180.0, "column")  # x 43-47, its front edge 6" from the 2e's
    to_step(state, "Shooting", rng)
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "french", "2e de Ligne fire at 39th")
    RS.parse_order(state, "french", "2e de Ligne fire at 74th")
    place(state, "7e Batterie", 60.0, 30.0, 0.0)  # unlimbered; the 74th 2.75" off, the 39th 7.75"
    place(state, "39th", 66.0, 20.0, 180.0, "column")
    place(state, "74th", 58.0, 25.0, 180.0, "column")
    RS.parse_order(state, "french", "7e Batterie fire at 39th")


def test_17_3_a_unit_shoots_once_a_turn() -> None:
    """17.3: "Units can only shoot once per turn." """
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 24.0, 180.0)
    to_step(state, "Shooting", rng)
    order(state, "french", "2e de Ligne fire at 74th", rng)
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "french", "2e de Ligne fire at 74th")


def _crossed_last_turn() -> tuple[Any, Any, Any]:
    """(state, 2e de Ligne, 74th) at the start of the next turn: the 74th crossed the 2e's front at
    6" last turn and now stands wholly out of the 2e's arcs; the 2e has not moved."""
    state, rng = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    prussians = place(state, "74th", 36.0, 23.0, 90.0, "column")
    to_step(state, "Movement", rng)
    order(state, "french", "next", rng)
    order(state, "prussian", "74th move 8", rng)
    finish_turn(state, rng)
    start_turn(state)
    prussians.x = 70.0
    return state, ligne, prussians


def test_17_3_a_unit_that_has_not_moved_may_fire_at_an_enemy_that_crossed_its_arc_last_turn() -> None:
    """17.3: "If an enemy unit has passed through a unit's firing arc and within range the previous
    turn, a shooting unit can elect to shoot at the enemy target as long as the shooting unit has
    not moved or changed formation." The 74th crossed the 2e's front at 6" last turn and now stands
    off to the side, out of its arcs; the 2e has not moved."""
    state, _, prussians = _crossed_last_turn()
    to_step(state, "Shooting", DiceThenStream([6] * 40))
    RS.parse_order(state, "french", "2e de Ligne fire at 74th")
    assert "2e-ligne fire at 74th" in {o.text for o in RS.legal_orders(state, "french")}
    said = text_of(order(state, "french", "2e de Ligne fire at 74th", ScriptedDice([6] * 12)))
    # RULING (RULINGS.md 17.3): measured where it was seen nearest, 4.5" off, a dense target (column)
    assert '4.5"' in said and "dense target" in said and "seen passing" in said, said
    assert prussians.pending_hits > 0


def test_17_3_a_unit_that_moved_or_changed_formation_may_not_fire_at_an_enemy_seen_last_turn() -> None:
    """17.3: "... as long as the shooting unit has not moved or changed formation." The 74th crossed
    the 2e's front last turn; the 2e has since moved a little (or formed column): it may not fire
    at where the 74th was."""
    for change in ("moved", "formed"):
        state, ligne, _ = _crossed_last_turn()
        if change == "moved":
            ligne.y += 0.5
        else:
            ligne.formation = "column"
        to_step(state, "Shooting", DiceThenStream([6] * 40))
        with pytest.raises(IllegalOrder, match="outside"):
            RS.parse_order(state, "french", "2e de Ligne fire at 74th")


def test_17_3_1_reserved_fire_is_defensive_fire_at_a_charger_only() -> None:
    """17.3.1: "Defensive fire can only be made by stands that have not fired in the Shooting Phase
    and can only be directed at enemy at units charging at them." The 2e keeps its fire; it may not
    then fire at the 74th in front of it, and fires at the Hussars when they charge it."""
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 20.0, 24.0, 180.0)
    place(state, "2nd Hussars", 36.0, 25.0, 180.0)  # 6 stands wide, its front 4" from the 2e's
    to_step(state, "Shooting", rng)
    order(state, "french", "2e de Ligne reserve fire", rng)
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "french", "2e de Ligne fire at 2nd Hussars")
    to_step(state, "Movement", rng)
    order(state, "french", "next", rng)
    said = text_of(order(state, "prussian", "2nd Hussars charge 2e de Ligne", DiceThenStream([6] * 40)))
    assert "2e de Ligne defensive fire at 2nd Hussars" in said, said


def test_17_3_1_part_of_a_unit_may_reserve_its_fire() -> None:
    """17.3.1: "Players who suspect that their units may receive an opportunity charge may elect to
    reserve part of their unit's fire to enable them to fire defensively in the Movement Phase.
    Defensive fire can only be made by stands that have not fired in the Shooting Phase." Four
    stands of the 2e hold their fire; the other eight fire at the Hussars (eight dice), and the four
    fire defensively when the Hussars charge (four dice). RULING (RULINGS.md 17.3.1)."""
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "2nd Hussars", 36.0, 25.0, 180.0)  # 4" apart
    to_step(state, "Shooting", rng)
    order(state, "french", "2e de Ligne reserve fire 4", rng)
    volley = ScriptedDice([1] * 8)
    order(state, "french", "2e de Ligne fire at 2nd Hussars", volley)
    assert len(volley.rolled) == 8, f"the 2e fired {len(volley.rolled)} dice, not the 8 stands it did not reserve"
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "french", "2e de Ligne reserve fire 2")
    to_step(state, "Movement", rng)
    order(state, "french", "next", rng)
    said = text_of(order(state, "prussian", "2nd Hussars charge 2e de Ligne", DiceThenStream([6] * 40)))
    assert "2e de Ligne defensive fire at 2nd Hussars" in said and "4 x 1d6" in said, said


def test_17_3_2_no_unit_fires_into_a_melee() -> None:
    """17.3.2: "Units cannot intentionally fire into a Close Assault melee." The 74th is in contact
    with the 2e; the 63e behind it may not fire at it until the 2e has gone. RULING (RULINGS.md
    17.3.2): a melee is base contact as 17.4.2 measures it."""
    state, rng = table()
    french = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 29.0, 180.0)  # front edges touching along 12"
    place(state, "63e de Ligne", 36.0, 23.0, 180.0, "column")  # 4 wide, 3 deep: front edge 24.5
    to_step(state, "Shooting", rng)
    with pytest.raises(IllegalOrder, match=r"17\.3\.2"):
        RS.parse_order(state, "french", "63e de Ligne fire at 74th")
    french.x = 70.0
    RS.parse_order(state, "french", "63e de Ligne fire at 74th")


def test_17_3_3_guns_on_the_flat_may_not_fire_at_a_high_hill_guns_on_a_low_hill_may() -> None:
    """17.3.3: "Unless using howitzers or sited on a low hill, artillery may not fire at targets on
    high hills." """
    for under_the_guns, fires in (("", False), ("low-hill", True)):
        state, rng = table()
        piece(state, "high-hill", "the Rotherberg", 50.0, 10.0, 70.0, 22.0)
        if under_the_guns:
            piece(state, under_the_guns, "the knoll", 55.0, 28.0, 65.0, 34.0)
        place(state, "7e Batterie", 60.0, 30.0, 0.0, "line")
        place(state, "77th", 60.0, 16.0, 180.0, "column")
        to_step(state, "Shooting", rng)
        if fires:
            RS.parse_order(state, "french", "7e Batterie fire at 77th")
        else:
            with pytest.raises(IllegalOrder, match=r"17\.3\.3"):
                RS.parse_order(state, "french", "7e Batterie fire at 77th")


def test_17_3_4_no_unit_fires_past_a_friend_in_the_corridor() -> None:
    """17.3.4: "Units are *Endangered* if any part of their stand crosses a parallel line from the
    front corners of firing stand to the target ... Stands cannot fire if friendly troops are
    endangered." The 63e's line across the whole front between the 2e and the 74th stops the fire;
    the 10e's column in front of the 2e's three right-hand stands stops those three only (RULINGS.md
    17.3.4); off to the side it stops none."""
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)  # 12 stands, 30" to 42"
    place(state, "74th", 36.0, 22.0, 180.0)  # 7" apart
    wall = place(state, "63e de Ligne", 36.0, 26.0, 0.0)
    to_step(state, "Shooting", rng)
    with pytest.raises(IllegalOrder, match=r"17\.3\.4"):
        RS.parse_order(state, "french", "2e de Ligne fire at 74th")
    wall.x = 70.0
    friend = place(state, "10e Chasseurs à pied", 41.0, 26.0, 0.0, "column")  # 39" to 43"
    said = text_of(order(state, "french", "2e de Ligne fire at 74th", DiceThenStream([6] * 12)))
    assert "9 x 1d6" in said and "3 stands do not fire: 10e Chasseurs à pied stands in their line" in said
    friend.x, unit(state, "2e de Ligne").fired_turn = 60.0, 0
    said = text_of(order(state, "french", "2e de Ligne fire at 74th", DiceThenStream([6] * 12)))
    assert "12 x 1d6" in said and "do not fire" not in said


def test_17_3_5_only_skirmishers_fire_at_staff() -> None:
    """17.3.5: "Only skirmishing stands may deliberately fire at enemy staff." """
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "10e Chasseurs à pied", 60.0, 30.0, 0.0, "skirmish")
    place(state, "Gen. von François", 36.0, 25.0, 180.0)
    to_step(state, "Shooting", rng)
    with pytest.raises(IllegalOrder, match=r"17\.3\.5"):
        RS.parse_order(state, "french", "2e de Ligne fire at Gen. von François")
    place(state, "Gen. von François", 60.0, 25.0, 180.0)
    RS.parse_order(state, "french", "10e Chasseurs à pied fire at Gen. von François")


def test_17_3_5_small_arms_never_destroy_a_gun() -> None:
    """17.3.5: "Small arms fire may only kill crew or horses and will not damage the guns
    themselves." Every die of the 2e's volley at 3" hits the battery and every roll on the Damage
    to Artillery chart is a 6 (on the house chart, a gun destroyed); both guns stay. RULING
    (RULINGS.md 17.3.5): small arms H still roll, a gun destroyed read as crew lost."""
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    battery = place(state, "1st Heavy Battery (Krupp)", 36.0, 25.75, 180.0, "line")
    to_step(state, "Shooting", rng)
    order(state, "french", "2e de Ligne fire at 1st Heavy Battery", DiceThenStream([6] * 40))
    order(state, "french", "next", rng)
    to_step(state, "Movement", DiceThenStream([6] * 40))
    assert battery.stands == 2 and unit(state, "1st Heavy Battery").status != "destroyed"
