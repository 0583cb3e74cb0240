"""Book 15 (terrain), checked sentence by sentence on the measured table."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core import data
from games.core.errors import GameError, IllegalOrder, InvalidSyntax
from games.core.rng import Rng
from games.core.ruleset import Event, legal_texts
from games.days_of_iron.state import DESTROYED, DISORDERED, ON_TABLE, ROUTING, State, Unit
from tests.book.days_of_iron.table import next_movement, piece, place, set_alight, table, text_of, to_step
from tests.days_of_iron.helpers import RS, new_game, order, ready_both, unit
from tests.scripted import DiceThenStream


@pytest.mark.parametrize("kind", ["heavy-wood", "swamp"])
def test_15_6_15_8_only_foot_enter_heavy_woods_and_swamps(kind: str) -> None:
    """15.6: "Swamps are impassable to all but infantry and dismounted cavalry units, leading their
    mounts at foot speed." 15.8: "All units may pass through light woods, but only units on foot,
    including dismounted cavalry, can pass through heavy woods, unless on a road." Cavalry and
    artillery moving into the ground are refused; infantry go in (slowed)."""
    state, rng = table()
    piece(state, kind, "the ground", 0.0, 14.0, 72.0, 24.0)
    place(state, "4e Chasseurs à cheval", 20.0, 30.0, 0.0, "column")
    place(state, "7e Batterie", 36.0, 30.0, 0.0, "column")
    place(state, "2e de Ligne", 52.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    for mounted in ("4e Chasseurs à cheval", "7e Batterie"):
        with pytest.raises(IllegalOrder, match=r"15\.[68]"):
            RS.parse_order(state, "french", f"{mounted} move 6")
    RS.parse_order(state, "french", "2e de Ligne move 4")


def test_15_8_all_units_may_pass_through_light_woods() -> None:
    """15.8: "All units may pass through light woods" - cavalry included."""
    state, rng = table()
    piece(state, "light-wood", "the wood", 0.0, 14.0, 72.0, 24.0)
    place(state, "4e Chasseurs à cheval", 20.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    RS.parse_order(state, "french", "4e Chasseurs à cheval move 8")


def test_15_terrain_is_defined_to_each_player_before_they_deploy() -> None:
    """15: "Define all terrain to each Player before they deploy." Before either side is ready
    (nothing deployed), each side's own board already shows every terrain piece of the table."""
    state, _ = new_game("meeting", scouting="no")
    laid = {t.name for t in state.terrain}
    assert laid == {"Bois de la Garenne", "Saint-Privat farm"}
    for side in ("french", "prussian"):
        shown = {t.label for t in RS.view(state, side).board.table_terrain}
        assert laid <= shown, (side, shown)


def _hill_and_watchers(state: State, behind: float) -> Unit:
    """A high hill y 14-24 (its spine, the crest, along y 19), the 74th in the open north of it
    and the 2e de Ligne on the hill's south slope with its front edge ``behind`` inches south of
    the crest; returns the 2e."""
    piece(state, "high-hill", "the hill", 20.0, 14.0, 52.0, 24.0)
    place(state, "74th", 36.0, 11.0, 180.0)
    return place(state, "2e de Ligne", 36.0, 19.5 + behind, 0.0)


def test_15_1_units_see_over_the_crest_only_within_1_inch_of_it() -> None:
    """15.1: "There are generally two crest lines on a hill, one centrally along the 'spine' of the
    hill and the other across its widest point." 15.1: "Units can see over the crest of the hill as
    long as they are within 1" of the crest." RULING (RULINGS.md 15.1): on the measured table a
    hill piece's crests are its two centre lines. The 2e, its front 0.5" behind the crest, fires
    over it at the 74th beyond the hill; 3" back down the slope, it cannot see the 74th."""
    for behind, sees in ((0.5, True), (3.0, False)):
        state, rng = table()
        _hill_and_watchers(state, behind)
        to_step(state, "Shooting", rng)
        if sees:
            RS.parse_order(state, "french", "2e de Ligne fire at 74th")
        else:
            with pytest.raises(IllegalOrder):
                RS.parse_order(state, "french", "2e de Ligne fire at 74th")


def test_15_2_columns_gain_on_roads_lines_do_not() -> None:
    """15.2: "Units in column receive a movement bonus." A column going up a road goes further than
    its open-ground allowance; a line on the same road gets no more than its own."""
    state, rng = table()
    piece(state, "road", "the chaussée", 30.0, 0.0, 42.0, 48.0)
    place(state, "2e de Ligne", 36.0, 40.0, 0.0, "column")
    place(state, "63e de Ligne", 50.0, 40.0, 0.0, "column")  # in the open beside it
    to_step(state, "Movement", rng)
    RS.parse_order(state, "french", "2e de Ligne move 10")  # more than the column's 8" in the open
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "french", "63e de Ligne move 10")
    line_state, line_rng = table()
    piece(line_state, "road", "the chaussée", 28.0, 0.0, 44.0, 48.0)
    place(line_state, "2e de Ligne", 36.0, 40.0, 0.0, "line")
    to_step(line_state, "Movement", line_rng)
    with pytest.raises(IllegalOrder):
        RS.parse_order(line_state, "french", "2e de Ligne move 7")  # the line's 6" is all it has


def test_15_2_units_on_roads_in_urban_areas_have_no_cover() -> None:
    """15.2: "Units on roads in urban areas do not have the benefits of cover." The 74th in column
    in a village is in its heavy cover; standing on the road through the village it is not."""
    for road, covered in ((False, True), (True, False)):
        state, rng = table()
        piece(state, "urban", "the village", 20.0, 10.0, 52.0, 24.0)
        if road:
            piece(state, "road", "the street", 33.0, 0.0, 39.0, 48.0)
        place(state, "74th", 36.0, 22.0, 180.0, "column")  # 4" wide, x 34-38, inside the street
        place(state, "2e de Ligne", 36.0, 26.5, 0.0)  # its front 2.5" from the 74th's
        to_step(state, "Shooting", rng)
        said = text_of(order(state, "french", "2e de Ligne fire at 74th", DiceThenStream([5] * 12)))
        assert ("for cover" in said) is covered, said


def test_15_3_an_initial_rout_into_a_river_drowns_the_unit_unless_at_a_ford() -> None:
    """15.3: "Units, whose initial compulsory rout has taken them into a river, drown, or must
    surrender or disperse if not at a ford. The unit is removed from play." The 77th (Class 2),
    shot at and failing its Casualties from Shooting test, routs straight back into the river
    behind it: it is removed; with a ford where it routs, it survives, routing."""
    for ford in (False, True):
        state, rng = table()
        piece(state, "river", "the Saar", 0.0, 13.0, 72.0, 16.0)  # 3" wide: a river
        if ford:
            piece(state, "ford", "the ford", 20.0, 12.0, 52.0, 17.0)
        routed = place(state, "77th", 36.0, 19.0, 180.0)
        place(state, "2e de Ligne", 36.0, 29.0, 0.0)  # 9" apart: long range, a 6 hits
        to_step(state, "Shooting", rng)
        order(state, "french", "2e de Ligne fire at 77th", DiceThenStream([6, 6] + [1] * 10))
        said = text_of(to_step(state, "Movement", DiceThenStream([1] * 6)))
        assert "rout" in said, said
        assert (routed.status == DESTROYED) is not ford, (ford, routed.status, said)
        if ford:
            assert routed.status == ROUTING


def test_15_4_units_must_be_in_column_to_cross_a_ford() -> None:
    """15.4: "Units must be in column to cross a ford." A line at a broad ford may not cross the
    river; a column there may (and is disordered, 17.2.8: "Units will be disordered if in ...
    fords")."""
    state, rng = table()
    piece(state, "river", "the Saar", 0.0, 20.0, 72.0, 23.0)
    piece(state, "ford", "the ford", 10.0, 19.0, 62.0, 24.0)
    place(state, "2e de Ligne", 20.0, 26.0, 0.0, "line")
    col = place(state, "63e de Ligne", 50.0, 27.0, 0.0, "column")
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match=r"15\.4"):
        RS.parse_order(state, "french", "2e de Ligne move 5")
    order(state, "french", "63e de Ligne move 4", rng)  # 2" to the river then 2" into the ford (x0.5)
    assert col.y < 24.0 and col.order == DISORDERED


def test_15_4_a_stream_is_fordable_at_any_point() -> None:
    """15.4: "A stream is always fordable at any point." A column crosses a stream where no ford
    is marked; a river in the same place it may not cross."""
    for kind, y0, crosses in (("stream", 21.5, True), ("river", 19.5, False)):
        state, rng = table()
        piece(state, kind, "the water", 0.0, y0, 72.0, 22.5)  # the stream 1" wide, the river 3"
        place(state, "63e de Ligne", 50.0, 24.5, 0.0, "column")  # front edge y 23
        to_step(state, "Movement", rng)
        if crosses:
            RS.parse_order(state, "french", "63e de Ligne move 3.5")  # its front to y 19.5
        else:
            with pytest.raises(IllegalOrder):
                RS.parse_order(state, "french", "63e de Ligne move 3.5")


def laying(width: float = 4.0) -> tuple[State, Rng]:
    """The Saar across the table (y 20 to 20 + width), the Génie detachment on its south bank
    and the 2e de Ligne (12 stands) in column behind him; turn 1's Movement phase."""
    state, rng = table()
    piece(state, "river", "the Saar", 0.0, 20.0, 72.0, 20.0 + width)
    place(state, "Génie detachment", 36.0, 20.5 + width, 0.0, "column")
    place(state, "2e de Ligne", 36.0, 22.5 + width + 0.2, 0.0, "column")
    to_step(state, "Movement", rng)
    return state, rng


LAY = "Génie detachment pontoon the Saar with 2e de Ligne"


def test_15_5_engineers_build_a_pontoon_bridge_in_six_movement_phases() -> None:
    """15.5: "A pontoon bridge takes six Movement Phases to deploy and requires an Engineer, four
    Pioneers and four other foot stands to construct per 2\" wide and 4\" long span." The Génie
    detachment and the 2e de Ligne lay a pontoon over the 4\" wide Saar in six successive Movement
    phases (drawn as works until then, not yet a crossing); then the engineer crosses on it."""
    state, rng = laying()
    with pytest.raises(IllegalOrder, match="cannot cross the Saar"):
        RS.parse_order(state, "french", "Génie detachment move 6")
    assert "french-engineers pontoon the Saar with 2e-ligne" in legal_texts(RS, state, "french")
    for phase in range(1, 7):
        if phase > 1:
            next_movement(state, rng)
            if phase < 6:
                with pytest.raises(IllegalOrder, match="cannot cross the Saar"):
                    RS.parse_order(state, "french", "Génie detachment move 6")
        said = text_of(order(state, "french", LAY, rng))
        assert (f"{phase} of 6" in said) is (phase < 6), said
        if phase == 3:
            labels = [t.label for t in RS.view(state, "prussian").board.table_terrain]
            assert "pontoon (laying 3/6)" in labels, labels
    assert "has laid a pontoon bridge over the Saar" in said, said
    bridge = next(t for t in state.terrain if t.type == "pontoon-bridge")
    xs, ys = sorted({p[0] for p in bridge.points}), sorted({p[1] for p in bridge.points})
    assert (xs, ys) == ([35.0, 37.0], [20.0, 24.0])  # 2" wide, 4" long, across the river
    next_movement(state, rng)
    order(state, "french", "Génie detachment move 6", rng)
    assert unit(state, "Génie detachment").y == pytest.approx(18.5)  # on the far bank (stands 18-19)
    place(state, "Génie detachment", 30.0, 24.5, 0.0, "column")
    next_movement(state, rng)
    with pytest.raises(IllegalOrder, match="laid its pontoon bridge already"):  # 5.1: one bridge train
        RS.parse_order(state, "french", LAY)


def test_15_5_a_pontoon_needs_four_other_foot_stands_beside_the_engineer() -> None:
    """15.5: "requires an Engineer, four Pioneers and four other foot stands". RULING (RULINGS.md
    15.5): the engineer detachment brings the Pioneers (5.1); the four foot stands are a foot unit
    of four stands or more of the side within 2\" of him (house). Cavalry, an engineer, a unit too
    far away, a river wider than one 4\" span and a non-river are refused."""
    state, _ = laying()
    place(state, "4e Chasseurs à cheval", 30.0, 26.0, 0.0, "column")
    with pytest.raises(IllegalOrder, match="not 4 foot stands"):
        RS.parse_order(state, "french", "Génie detachment pontoon the Saar with 4e Chasseurs à cheval")
    with pytest.raises(IllegalOrder, match="not an engineer"):
        RS.parse_order(state, "french", "2e de Ligne pontoon the Saar with 63e de Ligne")
    place(state, "2e de Ligne", 36.0, 31.0, 0.0, "column")
    with pytest.raises(IllegalOrder, match=r"within 2\""):
        RS.parse_order(state, "french", LAY)
    assert not [t for t in legal_texts(RS, state, "french") if "pontoon" in t]
    wide, _ = laying(6.0)
    with pytest.raises(IllegalOrder, match="one pontoon span"):
        RS.parse_order(wide, "french", LAY)


def test_15_5_the_pontoon_crew_does_nothing_else_and_an_interrupted_pontoon_starts_again() -> None:
    """15.5 with 11's "with no other activity": the 2e de Ligne laying the pontoon may not move in
    that turn; if it moves in a later turn instead of working, the works start again from the first
    phase (RULINGS.md 15.5)."""
    state, rng = laying()
    order(state, "french", LAY, rng)
    with pytest.raises(IllegalOrder, match="at work this turn"):
        RS.parse_order(state, "french", "2e de Ligne move 2")
    next_movement(state, rng)
    assert "2 of 6" in text_of(order(state, "french", LAY, rng))
    next_movement(state, rng)
    order(state, "french", "2e de Ligne turn about", rng)
    with pytest.raises(IllegalOrder, match="changed formation this turn"):
        RS.parse_order(state, "french", LAY)
    next_movement(state, rng)
    order(state, "french", "2e de Ligne turn about", rng)  # facing the river again: still other activity
    next_movement(state, rng)
    said = text_of(order(state, "french", LAY, rng))
    assert "1 of 6" in said and "starts again" in said, said
    assert len([t for t in state.terrain if t.type == "pontoon-works"]) == 1


def test_15_7_a_unit_partly_in_an_urban_area_is_disordered_until_it_moves_out() -> None:
    """15.7: "If a unit is partially on an urban area, it is disordered until it moves out of the
    area." The 63e's column moves half into a village: it is disordered, and passing its rally
    test next turn while still partly in the village does not restore its order."""
    state, rng = table()
    piece(state, "urban", "the village", 20.0, 10.0, 52.0, 24.0)
    col = place(state, "63e de Ligne", 36.0, 27.5, 0.0, "column")  # stands y 26-29
    to_step(state, "Movement", rng)
    order(state, "french", "63e de Ligne move 3", rng)  # front edge 26 -> 23 would cost 2+2=... (x0.5 inside)
    assert col.y - 1.5 < 24.0 < col.y + 1.5, "the column should stand across the village edge"
    assert col.order == DISORDERED
    while state.phase == "turn":
        order(state, RS.to_act(state)[0], "next", rng)
    order(state, "french", "initiative", DiceThenStream([6, 1] + [6] * 10))
    assert col.order == DISORDERED, "still partly in the village, the 63e rallied to good order"


def test_15_7_urban_areas_block_visibility_but_not_from_a_high_hill_crest_within_8_inches() -> None:
    """15.7: "Urban areas block visibility although units on the crest of a High Hill can see
    troops 8" beyond the far edge of the urban area unless the urban area is also on a hill." A
    battery on a high hill's crest fires over a village at a unit 6" beyond its far edge but not
    at one 10" beyond; from level ground it sees neither."""
    for on_hill in (True, False):
        for beyond, seen in ((6.0, True), (10.0, False)):
            state, rng = table()
            if on_hill:
                piece(state, "high-hill", "the heights", 20.0, 34.0, 52.0, 44.0)  # crest along y 39
            piece(state, "urban", "the village", 20.0, 26.0, 52.0, 32.0)
            place(state, "7e Batterie", 36.0, 39.0, 0.0, "line")
            place(state, "74th", 36.0, 26.0 - beyond - 0.5, 180.0)
            to_step(state, "Shooting", rng)
            if seen and on_hill:
                RS.parse_order(state, "french", "7e Batterie fire at 74th")
            else:
                with pytest.raises(IllegalOrder):
                    RS.parse_order(state, "french", "7e Batterie fire at 74th")


def test_15_9_two_stands_in_a_wood_may_set_it_alight_on_a_6() -> None:
    """15.9: "Rolling an F on the Artillery Shooting Chart sets urban areas and woods on fire as can
    any two stands within the area (on a roll of a 6 on a 1d6) during the Shooting Phase." The
    book's d6 for setting a fire is rolled by `check fire`: a 6 sets the area alight, less does not."""
    for face, alight in ((6, True), (5, False)):
        state, _ = table()
        to_step(state, "Shooting")
        said = text_of(order(state, "french", "check fire about Bois de la Garenne", DiceThenStream([face])))
        assert f"1d6 = {face}" in said and "15.9" in said, said
        assert ("catches fire" in said) is alight and ("no fire" in said) is not alight, said


def _burning(state: State) -> list[tuple[str, float, float]]:
    """Each burning part as (piece, its north edge y, its south edge y), from the board everyone sees."""
    out = []
    for t in RS.view(state, "french").board.table_terrain:
        if t.kind == "fire":
            ys = [p[1] for p in t.points]
            out.append((t.label, round(min(ys), 3), round(max(ys), 3)))
    return out


def _to_turn_end(state: State, rng: Rng) -> list[Event]:
    """Say `next` to the end of the turn, then roll the next turn's initiative (the French first)."""
    events: list[Event] = []
    while state.phase == "turn":
        events += order(state, RS.to_act(state)[0], "next", rng)
    events += order(state, "french", "initiative", DiceThenStream([6, 1]))
    return events


def test_15_9_troops_in_a_burning_area_must_leave_within_three_turns() -> None:
    """15.9: "Any troops in an area on fire must leave the area in three turns or are lost from play
    and removed." RULING (RULINGS.md 15.9): the three turns are the three Movement Phases after the
    unit is first in the fire. The 63e stays in a wood it set alight; it is warned, counted down,
    and removed at the end of the third Movement Phase (turn 3)."""
    state, rng, col, lit = set_alight(y1=34.0)
    assert "catches fire" in lit and "the wood is on fire" in lit and "63e de Ligne is in the fire" in lit, lit
    said = ""
    for turn in (1, 2, 3):
        assert col.status == ON_TABLE, turn
        said = text_of(_to_turn_end(state, rng))
    assert col.status == DESTROYED, said
    assert "63e de Ligne did not leave the fire in 3 turns: lost from play and removed (15.9)" in said, said


def test_15_9_troops_that_leave_the_burning_part_are_safe() -> None:
    """15.9: "must leave the area in three turns": the 63e, warned, marches out of the burning part
    in the next Movement Phase and is no longer counted; it stays on the table."""
    state, rng, col, _ = set_alight(y1=34.0)
    assert "63e de Ligne 3 left" in " ".join(RS.view(state, "french").status)
    to_step(state, "Movement", rng)
    order(state, "french", "63e de Ligne move 6", rng)  # north, out of the 4" square burning around y 29
    for _ in range(4):
        _to_turn_end(state, rng)
    assert col.status == ON_TABLE and col.id not in state.in_fire


def test_15_9_an_artillery_f_sets_the_wood_alight_and_causes_no_casualties(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """15.9: "Rolling an F on the Artillery Shooting Chart sets urban areas and woods on fire ... An F
    result does not cause any casualties to units in the area." With an owner's chart whose long
    column reads F on a 5 or more, the 7e Batterie's 6s (5s for the wood's cover) at the 74th in a
    wood 5" off set the wood alight around the 74th, and the 74th loses no stand for them."""
    monkeypatch.setattr(data, "_packs", None)
    folder = tmp_path / "days_of_iron" / "reference" / "sheets"
    folder.mkdir(parents=True)
    shipped = (Path(__file__).parents[3] / "data/days_of_iron/reference/sheets/artillery-chart.toml").read_text(encoding="utf-8")
    owner = shipped.replace('source = "house"', 'source = "owner"').replace(
        'results = ["HH", "H", "-"]', 'results = ["HH", "F", "-"]').replace('results = ["HH", "H", "H"]', 'results = ["HH", "F", "H"]')
    assert owner != shipped
    (folder / "artillery-chart.toml").write_text(owner, encoding="utf-8")
    data.set_data_packs([tmp_path])
    try:
        state, rng = table()
        piece(state, "light-wood", "the wood", 20.0, 4.0, 52.0, 14.0)
        target = place(state, "74th", 36.0, 13.0, 180.0)  # in line, in the wood by its edge
        battery = place(state, "7e Batterie", 36.0, 19.0, 0.0)  # deployed, 5" off: seen, the close band
        battery.stands = 1
        before = target.stands
        to_step(state, "Shooting", rng)
        said = text_of(order(state, "french", "7e Batterie fire at 74th", DiceThenStream([6] * 12)))
        assert "F: the wood is on fire (an F on the Artillery chart, 15.9)" in said, said
        assert _burning(state) == [("fire (the wood)", 11.0, 14.0)]
        to_step(state, "Movement", rng)
        assert target.stands == before
    finally:
        data.set_data_packs([])


def test_15_9_fires_spread_2_inches_downwind_in_the_movement_phase() -> None:
    """15.9: "Fires spread in the direction that the wind is blowing at a rate of 2" in the Movement
    Phase." With the wind from the north, the fire set around y 29 reaches 2" further south at the
    end of each Movement Phase (the board and the log say so), and not at all northwards."""
    state, rng, _, _ = set_alight(wind="N")
    assert _burning(state) == [("fire (the wood)", 27.0, 31.0)]
    said = text_of(to_step(state, "Close Assault", rng))
    assert "The fire in the wood spreads 2\" south (15.9)." in said, said
    assert _burning(state) == [("fire (the wood)", 27.0, 33.0)]
    _to_turn_end(state, rng)
    to_step(state, "Close Assault", rng)
    assert _burning(state) == [("fire (the wood)", 27.0, 35.0)]


def test_15_9_with_no_wind_a_fire_does_not_spread() -> None:
    """15.9 "Fires spread in the direction that the wind is blowing": RULING (RULINGS.md 15.12) with
    no wind (option wind=none, the default) there is no direction to spread in; the fire stays put."""
    state, rng, _, said = set_alight()
    assert "no wind, so it does not spread" in said, said
    for _ in range(2):
        _to_turn_end(state, rng)
    assert _burning(state) == [("fire (the wood)", 27.0, 31.0)]


def test_15_9_a_fire_spreads_into_a_touching_wood_but_not_over_open_ground() -> None:
    """15.9 spreading: RULING (RULINGS.md 15.9) a fire spreads within its piece and into a wood,
    urban area or wooden obstacle touching a burning part; it does not jump open ground. The wind
    from the north carries the fire from the first wood into the wood that adjoins it; a third wood
    beyond 1" of open ground stays unburnt."""
    state, rng = table()
    state.wind = "N"
    piece(state, "light-wood", "the first wood", 20.0, 24.0, 52.0, 30.0)
    piece(state, "heavy-wood", "the second wood", 20.0, 30.0, 52.0, 32.0)
    piece(state, "light-wood", "the third wood", 20.0, 33.0, 52.0, 40.0)
    place(state, "63e de Ligne", 36.0, 27.0, 0.0, "column")
    to_step(state, "Shooting", rng)
    order(state, "french", "check fire about the first wood", DiceThenStream([6]))
    for _ in range(3):
        to_step(state, "Close Assault", rng)
        _to_turn_end(state, rng)
    assert {label for label, _, _ in _burning(state)} == {"fire (the first wood)", "fire (the second wood)"}
    assert "On fire (15.9): the first wood, the second wood" in " ".join(RS.view(state, "french").status)


@pytest.mark.parametrize(("kind", "name", "step", "seat", "stands", "why"), [
    ("high-hill", "the hill", "Shooting", "french", 12, "does not burn"),
    ("wall", "the stone wall", "Shooting", "french", 12, "does not burn"),
    ("light-wood", "the wood", "Movement", "french", 12, r"fires are set in the Shooting Phase \(15\.9\)"),
    ("light-wood", "the wood", "Shooting", "french", 1, "it takes 2 within the area to set it alight"),
    ("light-wood", "the wood", "Shooting", "prussian", 12, "the French act now"),
])
def test_15_9_only_two_stands_in_a_wood_or_town_in_the_shooting_phase_set_it_alight(
        kind: str, name: str, step: str, seat: str, stands: int, why: str) -> None:
    """15.9: "sets urban areas and woods on fire as can any two stands within the area (on a roll of
    a 6 on a 1d6) during the Shooting Phase." 15.10: "Wooden obstacles/walls may catch fire": a
    hill or a stone wall does not burn; a fire is set in the Shooting Phase, by the side acting,
    with two stands in the area. Each is refused with the reason, and nothing is rolled."""
    state, rng = table()
    piece(state, kind, name, 20.0, 24.0, 52.0, 34.0)
    col = place(state, "63e de Ligne", 36.0, 29.0, 0.0, "column")
    col.stands = stands
    to_step(state, step, rng)
    with pytest.raises(GameError, match=why):
        RS.parse_order(state, seat, f"check fire about {name}")


def test_15_9_a_side_tries_once_a_shooting_phase_with_a_unit_partly_in_the_area() -> None:
    """15.9: "as can any two stands within the area (on a roll of a 6 on a 1d6) during the Shooting
    Phase." RULING (RULINGS.md 15.9): a unit partly in the wood counts; one roll a side, piece and
    Shooting Phase. The 63e, its column's edge 1" into the wood, rolls a 5 (no fire); a second roll
    that phase is refused; next turn it rolls again, a 6, and the part of the wood it stands in burns."""
    state, rng = table()
    piece(state, "light-wood", "the wood", 37.0, 24.0, 52.0, 34.0)
    place(state, "63e de Ligne", 36.0, 29.0, 0.0, "column")  # x 34-38: 1" of it in the wood
    to_step(state, "Shooting", rng)
    said = text_of(order(state, "french", "check fire about the wood", DiceThenStream([5])))
    assert "no fire" in said and not state.fires, said
    with pytest.raises(IllegalOrder, match="already tried to set the wood alight this Shooting Phase"):
        RS.parse_order(state, "french", "check fire about the wood")
    _to_turn_end(state, rng)
    to_step(state, "Shooting", rng)
    said = text_of(order(state, "french", "check fire about the wood", DiceThenStream([6])))
    assert "the wood is on fire" in said and "63e de Ligne is in the fire" in said, said
    assert _burning(state)[0][0] == "fire (the wood)"
    assert min(p[0] for t in RS.view(state, "french").board.table_terrain if t.kind == "fire" for p in t.points) == 37.0


def test_15_10_a_wooden_fence_catches_fire_the_same_way() -> None:
    """15.10: "Wooden obstacles/walls may catch fire using the same rules for setting fires in urban
    areas and woods." RULING (RULINGS.md 15.10): a wall piece whose name says it is wooden (fence,
    palisade, timber...) burns; the 63e, astride a wooden fence, sets it alight on a 6."""
    state, _, _, said = set_alight("wall", "the wooden fence", 28.0, 30.0)
    assert "the wooden fence is on fire" in said, said
    assert [label for label, _, _ in _burning(state)] == ["fire (the wooden fence)"]


def test_15_10_crossing_an_obstacle_disorders_defending_it_does_not() -> None:
    """15.10: "Units crossing these obstacles are considered disordered. Units defending these
    obstacles will, however, not be disordered unless they have crossed or passed through terrain
    in order to defend it." The 63e's column crosses a wall and is disordered; the 2e, standing in
    line behind the same wall, stays in good order."""
    state, rng = table()
    piece(state, "wall", "the wall", 10.0, 24.0, 62.0, 24.5)
    col = place(state, "63e de Ligne", 50.0, 26.0, 0.0, "column")  # front edge y 24.5
    line = place(state, "2e de Ligne", 20.0, 25.0, 0.0, "line")  # front edge 24.5: against the wall
    to_step(state, "Movement", rng)
    order(state, "french", "63e de Ligne move 4", rng)
    assert col.y + 1.5 < 24.0, "the column should be over the wall"
    assert col.order == DISORDERED
    assert line.order != DISORDERED


def test_15_11_a_unit_within_1_inch_behind_a_wall_is_a_target_in_cover() -> None:
    """15.11: "If a unit is within 1" and behind terrain classified as heavy or light cover, eg a
    wall or hedge, then it will be classified as a target in heavy or light cover during
    shooting." The 74th 0.5" behind a hedge is shot at as in heavy cover; 3" behind it, not."""
    for gap, covered in ((0.5, True), (3.0, False)):
        state, rng = table()
        piece(state, "wall", "the hedge", 20.0, 22.0, 52.0, 22.5)
        place(state, "74th", 36.0, 22.0 - gap - 0.5, 180.0)  # north of the hedge, the French south
        place(state, "2e de Ligne", 36.0, 28.0, 0.0)
        to_step(state, "Shooting", rng)
        said = text_of(order(state, "french", "2e de Ligne fire at 74th", DiceThenStream([5] * 12)))
        assert ("for cover" in said) is covered, (gap, said)


def test_15_12_the_wind_direction_is_determined_before_play() -> None:
    """15.12: "Determine wind direction before play. This determines where smoke drifts and fires
    spread. Determine the direction either by a die roll, or using a clock face". With option
    wind=roll, once both sides are ready the table's wind is rolled (1d8, RULINGS.md 15.12) from the
    game's own stream, said, and shown in the status and as an arrow on the board."""
    state, rng = new_game("meeting", scouting="no", wind="roll")
    said = text_of(ready_both(state, rng))
    assert "Wind (15.12): 1d8 = " in said, said
    shown = RS.view(state, "french")
    assert state.wind and "Wind (15.12): from the" in " ".join(shown.status)
    assert [a.kind for a in shown.arrows] == ["wind"]
    again, again_rng = new_game("meeting", scouting="no", wind="roll")
    ready_both(again, again_rng)
    assert again.wind == state.wind  # the same seed, the same wind: replay gives it again


def test_15_12_an_agreed_wind_and_none() -> None:
    """Set-up list: "Agree the wind direction." Option wind=NW is the agreed direction (nothing is
    rolled: the stream is where it would be without wind); the default, none, has no wind at all
    (RULINGS.md 15.12); any other value is refused with the choices."""
    agreed, rng = new_game("meeting", scouting="no", wind="nw")
    said = text_of(ready_both(agreed, rng))
    plain, plain_rng = new_game("meeting", scouting="no")
    ready_both(plain, plain_rng)
    assert agreed.wind == "NW" and "as agreed, from the north-west (blowing south-east)" in said, said
    assert plain.wind == "" and not any("Wind" in line for line in RS.view(plain, "french").status)
    assert rng.below(1000) == plain_rng.below(1000)
    with pytest.raises(InvalidSyntax, match="Choose one of none, N, NE, E, SE, S, SW, W, NW, roll"):
        new_game("meeting", wind="up")
