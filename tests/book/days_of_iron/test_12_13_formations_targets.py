"""Book 12 (formations) and 13 (target definitions), checked sentence by sentence on the measured
table through order text only: frontages by the public `measure`, target classes by `fire at`."""

from __future__ import annotations

import re

import pytest

from games.core.errors import IllegalOrder
from games.core.rng import Rng
from games.days_of_iron.state import State
from tests.book.days_of_iron.table import piece, place, table, text_of, to_step
from tests.days_of_iron.helpers import RS, finish_turn, new_game, order, ready_both, start_turn, unit
from tests.scripted import DiceThenStream


def gap(state: State, rng: Rng, a: str, b: str) -> float:
    """The edge-to-edge distance of the public `measure A to B` answer."""
    said = text_of(order(state, "french", f"measure {a} to {b}", rng))
    found = re.search(r"([\d.]+)\" edge to edge", said)
    assert found, said
    return float(found.group(1))


def fire(state: State, firer: str, target: str, face: int) -> str:
    """The French `fire at` line, every die scripted to one face."""
    return text_of(order(state, "french", f"{firer} fire at {target}", DiceThenStream([face] * 30)))


def hits(said: str) -> int:
    found = re.search(r"= (\d+) H", said)
    assert found, said
    return int(found.group(1))


def test_12_infantry_take_the_three_formations_the_chapter_names() -> None:
    """12: "FORMATIONS" - columns (12.1), lines (12.2) and skirmish screens (12.3). Three Class 2
    infantry units in column form line, skirmish and (from line) column again."""
    state, rng = table()
    place(state, "2e de Ligne", 14.0, 30.0, 0.0, "column")
    place(state, "63e de Ligne", 36.0, 30.0, 0.0, "column")
    place(state, "24e de Ligne", 60.0, 30.0, 0.0, "line")
    to_step(state, "Movement", rng)
    order(state, "french", "2e de Ligne form line", rng)
    order(state, "french", "63e de Ligne form skirmish", rng)
    order(state, "french", "24e de Ligne form column", rng)
    got = [unit(state, n).formation for n in ("2e de Ligne", "63e de Ligne", "24e de Ligne")]
    assert got == ["line", "skirmish", "column"]


def test_12_1_a_manoeuvre_column_is_4_infantry_stands_wide() -> None:
    """12.1: "A manoeuvre or assault column is 4 infantry stands wide" - the 12 stands of the 2e de
    Ligne in column make a 4" front, 3 ranks deep. "No such distinction is made for cavalry or
    artillery columns." """
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "column")  # front x 34-38, y 28.5-31.5
    place(state, "Gen. von François", 50.5, 30.0, 180.0)  # his 1" base x 50-51
    place(state, "Gen. von Woyna", 36.0, 20.5, 180.0)  # his base y 20-21
    to_step(state, "Movement", rng)
    assert gap(state, rng, "2e de Ligne", "Gen. von François") == pytest.approx(50.0 - 38.0)
    assert gap(state, rng, "2e de Ligne", "Gen. von Woyna") == pytest.approx(28.5 - 21.0)


def test_12_1_infantry_form_a_march_column_1_or_2_stands_wide() -> None:
    """12.1: "Infantry units can form march or manoeuvre columns. ... A March column is 1-2 stands
    wide". The 2e de Ligne's 12 stands in manoeuvre column (4" front) `form march`: 2 stands wide
    (house, in the book's 1-2), 6 ranks deep, its front edge where it stood (17.4); a dense target
    still (13.3, below). It forms back into a manoeuvre column the next turn."""
    state, rng = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0, "column")  # front x 34-38, y 28.5
    place(state, "Gen. von François", 50.5, 30.0, 180.0)  # his 1" base x 50-51
    place(state, "Gen. von Woyna", 36.0, 20.5, 180.0)  # his base y 20-21
    to_step(state, "Movement", rng)
    said = text_of(order(state, "french", "2e de Ligne form march", rng))
    assert "2e de Ligne forms march" in said and ligne.formation == "column" and ligne.march
    assert gap(state, rng, "2e de Ligne", "Gen. von François") == pytest.approx(50.0 - 37.0)  # x 35-37
    assert gap(state, rng, "2e de Ligne", "Gen. von Woyna") == pytest.approx(28.5 - 21.0)  # the front stays
    with pytest.raises(IllegalOrder, match="already in march"):
        RS.parse_order(state, "french", "2e de Ligne form march")
    finish_turn(state, rng)
    start_turn(state)
    to_step(state, "Movement", rng)
    order(state, "french", "2e de Ligne form column", rng)  # 17.4.7: march to manoeuvre column is a change
    assert gap(state, rng, "2e de Ligne", "Gen. von François") == pytest.approx(50.0 - 38.0) and not ligne.march


def test_12_1_only_a_march_column_1_or_2_stands_wide_forced_marches() -> None:
    """12.1: "A March column is 1-2 stands wide and is used to may make forced marches." (17.4.5:
    "Units, which must be in march column, can force march"). From the 4-wide manoeuvre column the
    2e de Ligne's forced march is refused; it forms march column, and the next turn (started in march
    column, 17.4: the formation it starts the phase in) it force marches 12" (8" x 1.5, house)."""
    state, rng = table()
    ligne = place(state, "2e de Ligne", 36.0, 40.0, 0.0, "column")
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match=r"march column may force march \(12\.1, 17\.4\.5\).*started it in column"):
        RS.parse_order(state, "french", "2e de Ligne move 4 forced")
    order(state, "french", "2e de Ligne form march", rng)
    with pytest.raises(IllegalOrder, match=r"started it in column"):  # formed this turn: not started in it
        RS.parse_order(state, "french", "2e de Ligne move 1 forced")
    finish_turn(state, rng)
    start_turn(state)
    to_step(state, "Movement", rng)
    y = ligne.y
    said = text_of(order(state, "french", "2e de Ligne move 12 forced", rng))
    assert "(forced march)" in said and ligne.y == pytest.approx(y - 12.0)


def test_12_1_infantry_may_be_set_out_in_march_column_to_force_march_in_turn_1() -> None:
    """12.1 with 16.2 (each side deploys its own units): before it is ready a side may have an
    infantry unit set out in march column, so it force marches in the first Movement phase; only
    column or march column at set-up, and only for its own units."""
    state, rng = new_game("meeting", scouting="no")
    with pytest.raises(IllegalOrder, match=r"set out in column \(16\.2\)"):
        RS.parse_order(state, "french", "24e de Ligne form line")
    with pytest.raises(IllegalOrder, match="belongs to the French"):
        RS.parse_order(state, "prussian", "24e de Ligne form march")
    assert "24e de Ligne will be set out in march column (12.1, 16.2)." in text_of(
        order(state, "french", "24e de Ligne form march", rng))
    ready_both(state, rng)
    ligne = unit(state, "24e de Ligne")
    assert ligne.formation == "column" and ligne.march
    start_turn(state)
    to_step(state, "Movement", rng)
    y = ligne.y
    assert "(forced march)" in text_of(order(state, "french", "24e de Ligne move 12 forced", rng))
    assert ligne.y == pytest.approx(y - 12.0)


def test_12_1_cavalry_and_artillery_columns_are_not_told_apart() -> None:
    """12.1: "No such distinction is made for cavalry or artillery columns." Horse and guns have one
    column: `form march` is refused, and they force march from it (17.4.5)."""
    state, rng = table()
    place(state, "4e Chasseurs à cheval", 60.0, 40.0, 0.0, "column")
    place(state, "7e Batterie", 20.0, 40.0, 0.0, "column")
    to_step(state, "Movement", rng)
    for name in ("4e Chasseurs à cheval", "7e Batterie"):
        with pytest.raises(IllegalOrder, match=r"no such distinction is made for cavalry or artillery columns"):
            RS.parse_order(state, "french", f"{name} form march")
    assert "(forced march)" in text_of(order(state, "french", "4e Chasseurs à cheval move 10 forced", rng))


def test_12_2_a_line_is_one_rank_with_the_command_stand_in_the_centre() -> None:
    """12.2: "A single rank of stands shoulder-to-shoulder, with the command stand in the centre."
    The 2e de Ligne in line, its command stand at x 36, reaches 6" each way and is 1" deep."""
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")  # x 30-42, y 29.5-30.5
    place(state, "Gen. von François", 20.5, 30.0, 180.0)  # base x 20-21
    place(state, "Gen. von Woyna", 51.5, 30.0, 180.0)  # base x 51-52
    place(state, "Gen. von Kameke", 36.0, 20.5, 180.0)  # base y 20-21
    to_step(state, "Movement", rng)
    assert gap(state, rng, "2e de Ligne", "Gen. von François") == pytest.approx(30.0 - 21.0)
    assert gap(state, rng, "2e de Ligne", "Gen. von Woyna") == pytest.approx(51.0 - 42.0)
    assert gap(state, rng, "2e de Ligne", "Gen. von Kameke") == pytest.approx(29.5 - 21.0)


def shoot_at(formation: str, face: int, *, target: str = "74th", firer: str = "2e de Ligne") -> str:
    """The 2e de Ligne in line fires at the target 6" ahead (effective range) in a formation."""
    state, _ = table()
    place(state, firer, 36.0, 30.0, 0.0, "line")
    place(state, target, 36.0, 22.0, 180.0, "column" if formation == "march" else formation).march = formation == "march"
    to_step(state, "Shooting")
    return fire(state, firer, target, face)


def test_13_the_target_definition_sets_what_the_fire_does() -> None:
    """13: "Units under fire are classified using a number of different definitions depending on
    their formation or any cover they have. These definitions also determine the column used on
    the shooting tables." The same dice at the same range do less to a dispersed target than to a
    line, and more to a dense one. RULING (RULINGS.md 13): the house charts are read by range, so
    the target definition adds the house sheet's modifier to each die."""
    assert hits(shoot_at("line", 5)) == 12
    assert hits(shoot_at("skirmish", 5)) < 12
    assert hits(shoot_at("line", 4)) == 0
    assert hits(shoot_at("column", 4)) > 0


def test_13_1_skirmishers_staff_and_units_gone_to_ground_are_dispersed() -> None:
    """13.1: "Staff and units skirmishing or units that have gone to ground are classified as
    dispersed targets." """
    assert "dispersed target" in shoot_at("skirmish", 5)
    state, _ = table()
    place(state, "10e Chasseurs à pied", 36.0, 30.0, 0.0, "skirmish")
    place(state, "Gen. von François", 36.0, 22.0, 180.0)
    ground = place(state, "39th", 60.0, 22.0, 180.0, "line")
    ground.ground = True
    place(state, "63e de Ligne", 60.0, 30.0, 0.0, "line")
    to_step(state, "Shooting")
    assert "dispersed target" in fire(state, "10e Chasseurs à pied", "Gen. von François", 5)
    assert "dispersed target" in fire(state, "63e de Ligne", "39th", 5)


def test_13_2_lines_and_deployed_batteries_are_line_targets() -> None:
    """13.2: "Infantry and cavalry units in line formation and deployed artillery batteries are line
    targets." """
    assert "line target" in shoot_at("line", 5)
    assert "line target" in shoot_at("line", 5, target="2nd Hussars")
    assert "line target" in shoot_at("line", 5, target="1st Heavy")


def test_13_3_columns_and_limbered_batteries_are_dense_targets() -> None:
    """13.3: "Infantry in March or Manoeuvre columns, cavalry in column and limbered artillery units
    are classified as dense targets." """
    assert "dense target" in shoot_at("column", 5)
    assert "dense target" in shoot_at("march", 5)  # an infantry march column (12.1)
    assert "dense target" in shoot_at("column", 5, target="2nd Hussars")
    assert "dense target" in shoot_at("column", 5, target="1st Heavy")


def test_13_4_cavalry_charging_over_8_inches_are_fast_targets() -> None:
    """13.4: "Charging cavalry that move over 8\" to make a charge, this includes both 1st and 2nd
    Impulse moves, are classified as fast targets." The 2nd Hussars charge the 2e de Ligne from
    12" away (a 6" 1st Impulse and 6" more to contact): the 2e's reserved defensive fire meets a
    fast target. From 6" (3" and 3") they are a line target."""
    for apart, kind in ((12.0, "fast target"), (6.0, "line target")):
        state, rng = table(french_first=False)
        place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")  # front edge y 29.5
        place(state, "2nd Hussars", 36.0, 29.5 - apart - 0.5, 180.0, "line")
        order(state, "prussian", "2nd Hussars charge 2e de Ligne", DiceThenStream([6] * 10))
        said = text_of(to_step(state, "Shooting", DiceThenStream([6] * 40)))
        order(state, "prussian", "next", rng)
        order(state, "french", "2e de Ligne reserve fire", rng)
        to_step(state, "Movement", rng)
        said = text_of(order(state, "prussian", "2nd Hussars charge home", DiceThenStream([6] * 40)))
        line = next(x for x in said.splitlines() if "2e de Ligne" in x and "fire at" in x)
        assert kind in line, (apart, line)


def test_13_5_a_unit_in_a_light_wood_is_in_light_cover() -> None:
    """13.5: "Units in light woods, light urban areas or behind hedges or low walls are classified
    as being in light cover." The 74th in line inside a light wood, 5" off, is fired on as in
    light cover and takes fewer hits than in the open."""
    state, _ = table()
    piece(state, "light-wood", "the wood", 20.0, 10.0, 52.0, 23.0)
    place(state, "74th", 36.0, 21.0, 180.0)
    place(state, "2e de Ligne", 36.0, 27.0, 0.0)
    to_step(state, "Shooting")
    said = fire(state, "2e de Ligne", "74th", 5)
    assert "light cover" in said and hits(said) < 12


def test_13_5_light_urban_areas_give_light_cover() -> None:
    """13.5: "Light urban areas are usually timber structures such as houses and mills." - a light
    urban area is light cover, not heavy."""
    state, _ = table()
    piece(state, "light-urban", "the mill", 20.0, 10.0, 52.0, 23.0)
    place(state, "74th", 36.0, 21.0, 180.0)
    place(state, "2e de Ligne", 36.0, 27.0, 0.0)
    to_step(state, "Shooting")
    said = fire(state, "2e de Ligne", "74th", 5)
    assert "light cover" in said and "heavy cover" not in said


def test_13_6_a_unit_in_a_heavy_urban_area_is_in_heavy_cover() -> None:
    """13.6: "Units in heavy woods, heavy urban areas, behind fortifications or thick stone walls
    are classified as being in heavy cover." The 74th inside a stone village, 3" off, is fired on as
    in heavy cover; the same dice do less than against light cover."""
    said = {}
    for kind in ("urban", "light-wood"):
        state, _ = table()
        piece(state, kind, "the ground", 20.0, 10.0, 52.0, 23.0)
        place(state, "74th", 36.0, 21.0, 180.0)
        place(state, "2e de Ligne", 36.0, 25.0, 0.0)  # 3": seen in a heavy urban area (16.3: 4")
        to_step(state, "Shooting")
        said[kind] = fire(state, "2e de Ligne", "74th", 5)
    assert "heavy cover" in said["urban"]
    assert hits(said["urban"]) < hits(said["light-wood"])
