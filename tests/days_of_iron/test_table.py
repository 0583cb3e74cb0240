"""The measured table (issue 15 item 1, option board=measured): units set out to scale in their
zones, formations (12), the Movement Phase (17.4: moves, wheels at double cost, formation
changes, forced marches), `measure`, candidates, previews, and hidden units kept off the enemy's board."""

from __future__ import annotations

import math

import pytest

from games.core.errors import IllegalOrder, InvalidSyntax, NotAllowed, NotYourTurn, WrongPhase
from games.core.geometry import distance, polygon_distance
from games.core.rng import Rng
from games.core.ruleset import legal_texts
from games.days_of_iron.data import house
from games.days_of_iron.rules.formations_12 import base, footprint, front_centre, reform
from games.days_of_iron.state import STEPS, State, TerrainPiece, Unit
from tests.days_of_iron.helpers import RS, new_game, order, ready_both, start_turn, unit
from tests.scripted import DiceThenStream


def to_movement(state: State, rng: Rng, *, french_first: bool = True) -> None:
    """Roll the turn's initiative and say `next` through Morale and Shooting."""
    start_turn(state, french_first=french_first)
    while state.step < 2:
        order(state, RS.to_act(state)[0], "next", rng)


def game_in_movement(**options: str) -> tuple[State, Rng]:
    state, rng = new_game("meeting", scouting="no", **options)
    ready_both(state, rng)
    to_movement(state, rng)
    return state, rng


def test_units_are_set_out_to_scale_in_their_zones_in_column() -> None:
    state, rng = new_game("meeting", scouting="no")
    assert all(not u.formation for u in state.units)  # nothing on the table during the set-up
    ready_both(state, rng)
    depth = 12.0
    for u in state.units:
        assert u.formation == "column"
        ys = [p[1] for p in base(u).polygon()]
        if u.side == "french":  # the first side's baseline is the bottom edge; it faces up the table
            assert u.facing == 0 and min(ys) >= state.table_height - depth - 1e-9
        else:
            assert u.facing == 180 and max(ys) <= depth + 1e-9
    ligne = unit(state, "2e de Ligne")
    assert ligne.stands == 12
    assert footprint(ligne) == (4.0, 3.0)  # 12.1: a manoeuvre column 4 stands wide, 1" stands (4.1)
    assert footprint(ligne, "line") == (12.0, 1.0)  # 12.2: one rank
    assert footprint(ligne, "skirmish") == (23.0, 1.0)  # 12.3: 1" gaps
    # no two units overlap
    units = [u for u in state.units if u.side == "french"]
    for i, a in enumerate(units):
        for b in units[i + 1:]:
            assert polygon_distance(base(a).polygon(), base(b).polygon()) >= 0.5 - 1e-9, (a.name, b.name)
    counters = {c.id: c for c in RS.view(state, None).counters}
    assert counters[ligne.id].size == (3.0, 4.0) and counters[ligne.id].label == "2e de Ligne"
    assert RS.view(state, None).board.kind == "table"


def test_move_straight_ahead_spends_the_column_rate() -> None:
    state, rng = game_in_movement()
    ligne = unit(state, "2e de Ligne")
    y0 = ligne.y
    events = order(state, "french", "2e de Ligne move 5", rng)
    assert ligne.y == pytest.approx(y0 - 5)  # facing up the table
    assert events[0].public and '2e de Ligne moves 5": it costs 5", 3" left this turn.' in events[0].text
    with pytest.raises(IllegalOrder, match=r'costs 4" and 2e de Ligne has 3" left this turn \(column rate 8"\)'):
        RS.parse_order(state, "french", "2e de Ligne move 4")
    assert RS.parse_order(state, "french", "2e-ligne move 3").text == "2e-ligne move 3"


def test_a_wheel_pivots_on_the_inner_front_corner_and_costs_double_its_outer_arc() -> None:
    state, rng = game_in_movement()
    ligne = unit(state, "2e de Ligne")
    pivot = base(ligne).corners()[0]  # front left corner (bow-port)
    events = order(state, "french", "2e de Ligne move 0 wheel left 30", rng)
    cost = 4.0 * math.radians(30) * 2  # 4" wide column, outer arc doubled (17.4)
    assert f'it costs {cost:.2f}"' in events[0].text
    assert ligne.facing == pytest.approx(330.0)
    assert distance(base(ligne).corners()[0], pivot) < 1e-6  # the pivot corner did not move
    assert ligne.moved == pytest.approx(cost)
    with pytest.raises(IllegalOrder, match="A wheel costs double"):
        RS.parse_order(state, "french", "2e de Ligne move 2 wheel right 90")


def test_form_line_keeps_the_command_stand_and_costs_half_the_allowance() -> None:
    state, rng = game_in_movement()
    ligne = unit(state, "2e de Ligne")
    unit(state, "63e de Ligne").y = 30.0  # out of the way: a line is laid across no unit (17.4.8)
    front = front_centre(ligne)
    order(state, "french", "2e de Ligne form line", rng)
    assert ligne.formation == "line" and footprint(ligne) == (12.0, 1.0)
    assert distance(front_centre(ligne), front) < 1e-9
    assert ligne.moved == pytest.approx(house().movement.costs.formation_change * 8)
    # the change costs half the column's 8", and what remains is the slower line's 6" less it (17.4.3): 2"
    with pytest.raises(IllegalOrder, match=r'2" left'):
        RS.parse_order(state, "french", "2e de Ligne move 2.5")
    order(state, "french", "2e de Ligne move 2", rng)
    with pytest.raises(IllegalOrder, match="already in line"):
        RS.parse_order(state, "french", "2e de Ligne form line")


def test_forced_march_only_from_column_and_adds_the_bonus() -> None:
    state, rng = game_in_movement()
    ligne = unit(state, "24e de Ligne")
    reform(ligne, "march")  # formed the turn before: only a march column force marches (12.1)
    y0 = ligne.y
    order(state, "french", "24e de Ligne move 12 forced", rng)  # 8" column rate + 50% (house)
    assert ligne.y == pytest.approx(y0 - 12)
    unit(state, "63e de Ligne").y = 30.0  # clear of its neighbours: a line is laid across no unit (17.4.8)
    order(state, "french", "63e de Ligne form line", rng)
    state.turn += 1  # next turn: it starts the phase in line
    with pytest.raises(IllegalOrder, match="only a unit that started the phase in march column may force march"):
        RS.parse_order(state, "french", "63e de Ligne move 2 forced")


def test_moves_stay_on_the_table_and_1_inch_from_visible_enemies() -> None:
    state, rng = game_in_movement()
    ligne, prussian = unit(state, "2e de Ligne"), unit(state, "74th")
    ligne.x = state.table_width - 2.2  # right flank 0.2" from the edge: a wheel left swings its rear out right
    with pytest.raises(IllegalOrder, match="would leave the table"):
        RS.parse_order(state, "french", "2e de Ligne move 0 wheel left 45")
    ligne.x = 30.0
    unit(state, "10e Chasseurs").y = 44.5  # out of the 2e's new place: no unit ends on another (17.4.8)
    # put a Prussian unit 2" ahead of the 2e de Ligne
    prussian.x, prussian.facing = ligne.x, 180.0
    prussian.y = ligne.y - footprint(ligne)[1] / 2 - 2 - footprint(prussian)[1] / 2
    with pytest.raises(IllegalOrder, match=r'would end 0.5" from 74th.*within 1" of an enemy'):
        RS.parse_order(state, "french", "2e de Ligne move 1.5")
    order(state, "french", "2e de Ligne move 1", rng)


def test_movement_orders_belong_to_the_acting_side_in_the_movement_phase() -> None:
    state, rng = new_game("meeting", scouting="no")
    with pytest.raises(WrongPhase, match="has not started"):
        RS.parse_order(state, "french", "2e de Ligne move 2")
    ready_both(state, rng)
    start_turn(state)
    with pytest.raises(WrongPhase, match="units move in the Movement phase"):
        RS.parse_order(state, "french", "2e de Ligne move 2")
    while state.step < 2:
        order(state, RS.to_act(state)[0], "next", rng)
    with pytest.raises(NotYourTurn, match="the French move now"):
        RS.parse_order(state, "prussian", "74th move 2")
    with pytest.raises(IllegalOrder, match="74th Infantry belongs to the Prussians; the French move now"):
        RS.parse_order(state, "french", "74th move 2")
    with pytest.raises(InvalidSyntax, match=r"write `UNIT move INCHES \[wheel left\|right DEGREES\] \[forced\]`"):
        RS.parse_order(state, "french", "2e de Ligne move")
    with pytest.raises(InvalidSyntax, match="`UNIT form line`"):
        RS.parse_order(state, "french", "2e de Ligne form wedge")
    order(state, "french", "next", rng)
    order(state, "prussian", "74th move 2", rng)  # the Prussians' part of the phase


def test_tape_games_keep_the_assistant_and_refuse_table_orders() -> None:
    state, rng = new_game("meeting", scouting="no", board="tape")
    ready_both(state, rng)
    to_movement(state, rng)
    assert all(not u.formation for u in state.units)
    assert RS.view(state, None).counters == ()
    with pytest.raises(NotAllowed, match="board=tape"):
        RS.parse_order(state, "french", "2e de Ligne move 2")
    assert not any(" move " in o for o in legal_texts(RS, state, "french"))


def test_measure_answers_only_the_asker() -> None:
    state, rng = game_in_movement()
    events = order(state, "prussian", "measure 74th to 2e de Ligne", rng)
    assert [e.to for e in events] == [frozenset({"prussian"})]
    assert '74th Infantry to 2e de Ligne: ' in events[0].text and 'edge to edge' in events[0].text
    assert RS.parse_order(state, "french", "measure 2e to 63e").text == "measure 2e-ligne to 63e-ligne"
    with pytest.raises(IllegalOrder, match="measure from one of your own units; 74th Infantry belongs to the Prussians"):
        RS.parse_order(state, "french", "measure 74th to 2e de Ligne")


@pytest.mark.slow
def test_candidates_offer_moves_forms_and_measures_that_all_apply() -> None:
    state, rng = game_in_movement()
    legal = legal_texts(RS, state, "french")
    assert "2e-ligne move 8" in legal and "2e-ligne move 4" in legal and "5e-chasseurs form line" in legal
    assert "2e-ligne form line" in legal  # set out with room for its line (16.2, 17.4.8)
    assert "2e-ligne move 0 wheel left 45" in legal
    assert any(o.startswith("measure 2e-ligne to ") for o in legal)
    assert not any(o.startswith("74th move") for o in legal)
    for text in [o for o in legal if " move " in o or " form " in o][:12]:
        copy = RS.decode(RS.encode(state))
        RS.apply(copy, "french", RS.parse_order(copy, "french", text), rng)


@pytest.mark.slow
def test_hidden_units_stay_off_the_enemys_board_until_revealed() -> None:
    state, rng = new_game("meeting", scouting="no")
    order(state, "french", "hide 10e Chasseurs at 10 47", rng)
    order(state, "prussian", "offboard Rheinbaben at east road", rng)
    ready_both(state, rng)
    # in a heavy wood (seen only within 4", 16.3): no enemy sees it, so it stays hidden (16.4)
    state.terrain.append(TerrainPiece("heavy-wood", "the copse", [[2.0, 42.0], [18.0, 42.0], [18.0, 48.0], [2.0, 48.0]]))
    chasseurs = unit(state, "10e Chasseurs")
    rheinbaben = [u.id for u in state.units if u.brigade == "rheinbaben" or u.name.endswith("Rheinbaben")]
    for seat in (None, "prussian"):
        ids = {c.id for c in RS.view(state, seat).counters}
        assert chasseurs.id not in ids
    own = {c.id: c for c in RS.view(state, "french").counters}
    assert "hidden" in own[chasseurs.id].markers
    assert chasseurs.id in {c.id for c in RS.view(state, "umpire").counters}
    for seat in (None, "french", "prussian"):  # off-board: on nobody's board until it arrives
        assert not {c.id for c in RS.view(state, seat).counters} & set(rheinbaben[1:])
    to_movement(state, rng, french_first=False)
    # measuring to a hidden enemy gets the same answer as to an off-board one: no probe
    with pytest.raises(IllegalOrder, match="10e Chasseurs à pied is not on the table"):
        RS.parse_order(state, "prussian", "measure 74th to 10e Chasseurs")
    assert not any("10e-chasseurs" in o for o in legal_texts(RS, state, "prussian"))
    # previews aim only at enemies on the table: the 74th as if it had marched to 6" from the 2e de Ligne
    ligne, prussian = unit(state, "2e de Ligne"), unit(state, "74th")
    prussian.x, prussian.y = ligne.x, ligne.y - 3.0 / 2 - 6.0 - 3.0 / 2
    chasseurs.x, chasseurs.y = ligne.x + 5.0, ligne.y  # hidden, as near as the 2e de Ligne
    marks = RS.preview_overlays(state, "prussian", frozenset({"74th"}))
    assert any(m.kind == "arc" for m in marks)
    assert all("10e Chasseurs" not in m.text for m in marks)
    assert any(m.kind == "fire" and m.text == '2e de Ligne 6", can fire' for m in marks)
    # standing there, in the open in front of the 74th, the Prussians see it: it is placed (16.4)
    said = "\n".join(e.text for e in order(state, "prussian", "next", rng))
    assert "10e Chasseurs à pied is seen by" in said and "The French reveal 10e Chasseurs à pied" in said
    assert chasseurs.id in {c.id for c in RS.view(state, "prussian").counters}


def face_off(state: State) -> tuple[Unit, Unit]:
    """The 2e de Ligne (French) and the 74th (Prussian) in line, facing each other 6" apart."""
    ligne, prussian = unit(state, "2e de Ligne"), unit(state, "74th")
    for u, y, facing in ((ligne, 30.0, 0.0), (prussian, 23.0, 180.0)):
        u.formation, u.x, u.y, u.facing = "line", 36.0, y, facing
    return ligne, prussian


def to_shooting(state: State, rng: Rng, *, french_first: bool = True) -> None:
    start_turn(state, french_first=french_first)
    order(state, RS.to_act(state)[0], "next", rng)
    order(state, RS.to_act(state)[0], "next", rng)


def test_fire_rolls_a_die_per_stand_and_hits_come_off_at_the_end_of_the_phase() -> None:
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    ligne, prussian = face_off(state)
    to_shooting(state, rng)
    assert "2e-ligne fire at 74th" in legal_texts(RS, state, "french")
    # 12 stands, 6" away: the small arms chart's "effective" column (house): H on a 6
    events = order(state, "french", "2e de Ligne fire at 74th", DiceThenStream([6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1]))
    assert '2e de Ligne fire at 74th Infantry: 6" (effective), 12 x 1d6 [6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1] = 3 H' in events[0].text
    assert prussian.stands == 12 and prussian.pending_hits == 3  # simultaneous: not yet removed
    with pytest.raises(IllegalOrder, match="has fired this turn"):
        RS.parse_order(state, "french", "2e de Ligne fire at 74th")
    order(state, "french", "next", rng)
    # the Prussians still fire with all 12 stands (17.3: the stands they started the phase with)
    events = order(state, "prussian", "74th fire at 2e de Ligne", DiceThenStream([6] * 12))
    assert "12 x 1d6" in events[0].text and "= 12 H" in events[0].text
    events = order(state, "prussian", "next", rng)
    texts = [e.text for e in events]
    assert any("74th Infantry loses 3 stands (9/12 left)" in t for t in texts)
    assert any("2e de Ligne loses 12 stands" in t and "destroyed" in t for t in texts)
    assert prussian.pending_hits == 0 and ligne.status == "destroyed"


def test_fire_needs_the_arc_the_range_the_nearest_target_and_no_friend_in_the_way() -> None:
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    _, prussian = face_off(state)
    other = unit(state, "39th")
    start_turn(state)
    with pytest.raises(WrongPhase, match="units fire in the Shooting phase"):
        RS.parse_order(state, "french", "2e de Ligne fire at 74th")
    order(state, "french", "next", rng)
    order(state, "prussian", "next", rng)
    with pytest.raises(NotYourTurn, match="the French fire now"):
        RS.parse_order(state, "prussian", "74th fire at 2e de Ligne")
    # out of range (small arms reach 12", house)
    prussian.y = 10.0
    with pytest.raises(IllegalOrder, match=r'74th Infantry is out of range: 19", the chart reaches 12"'):
        RS.parse_order(state, "french", "2e de Ligne fire at 74th")
    # outside the 45-degree arcs: level with the line's flank, 10" off to the side
    prussian.x, prussian.y = 36.0 + 6 + 10 + 1, 30.0
    with pytest.raises(IllegalOrder, match="outside the 45-degree arcs of 2e de Ligne"):
        RS.parse_order(state, "french", "2e de Ligne fire at 74th")
    # the nearest visible eligible enemy must be the target (infantry; 17.3)
    prussian.x, prussian.y = 36.0, 23.0
    other.formation, other.x, other.y, other.facing = "line", 36.0, 19.0, 180.0
    with pytest.raises(IllegalOrder, match="must fire at the nearest visible enemy, 74th Infantry"):
        RS.parse_order(state, "french", "2e de Ligne fire at 39th")
    # a friend across the whole front between the firer and the target is endangered (17.3.4; a
    # friend before some stands only stops those: test_17_3_shooting.py)
    friend = unit(state, "63e de Ligne")
    friend.formation, friend.x, friend.y, friend.facing = "line", 36.0, 26.5, 0.0
    with pytest.raises(IllegalOrder, match="63e de Ligne would be endangered"):
        RS.parse_order(state, "french", "2e de Ligne fire at 74th")
    # staff only for skirmishers (17.3.5)
    friend.x = 60.0
    general = unit(state, "Kameke")
    general.formation, general.x, general.y = "column", 36.0, 27.0
    with pytest.raises(IllegalOrder, match="only skirmishers may fire at staff"):
        RS.parse_order(state, "french", "2e de Ligne fire at Kameke")


@pytest.mark.slow
def test_a_declared_charge_tests_then_impulses_into_contact_and_close_assault_follows() -> None:
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    ligne, prussian = face_off(state)  # 6" apart, line facing line
    start_turn(state)  # French initiative: they act first in the Morale phase
    assert "2e-ligne charge 74th" in legal_texts(RS, state, "french")
    with pytest.raises(IllegalOrder, match="only infantry and cavalry charge"):
        RS.parse_order(state, "french", "7e Batterie charge 74th")
    # declared now, tested once every charge is declared (17.2.2): the French and the Prussians say
    # `next`; To Charge test on the house morale chart, Class 2 column: 4+ passes; 1st Impulse:
    # halfway to the 74th, 6" off (17.2.3); the 74th stands on a 6
    order(state, "french", "2e de Ligne charge 74th", rng)
    with pytest.raises(IllegalOrder, match="has declared its charge this turn"):
        RS.parse_order(state, "french", "2e de Ligne charge 74th")
    order(state, "french", "next", rng)
    said = "\n".join(e.text for e in order(state, "prussian", "next", DiceThenStream([4, 6])))
    assert "To Charge test (Morale test (house), class-2): 1d6 = 4: PASS" in said
    assert '1st Impulse: 3" (3" short)' in said and ligne.charging == prussian.id
    while STEPS[state.step] != "Movement":
        order(state, RS.to_act(state)[0], "next", rng)
    assert "2e-ligne charge home" in legal_texts(RS, state, "french")
    events = order(state, "french", "2e de Ligne charge home", DiceThenStream([5]))
    assert "Charge Home test" in events[0].text and "in contact with 74th Infantry" in events[0].text
    order(state, "french", "next", rng)
    # into the Close Assault phase: French 6+2+1 (charging) = 9 beat Prussians 1+3 = 4; 12 v 12 is
    # "even": the chart's 1d6 = 5 costs the loser 2 stands; won by 5, the results sheet's last row
    # (house): the loser routs (6", half the infantry rout distance) and the winner pursues 8"
    events = order(state, "prussian", "next", DiceThenStream([6, 1, 5]))
    text = "\n".join(e.text for e in events)
    assert "**Close assault** (17.5): 2e de Ligne 6+2+1 charging = 9; 74th Infantry 1+3 = 4: 2e de Ligne win by 5" in text
    assert "74th Infantry lose 2." in text and "74th Infantry routs (beaten by 2e de Ligne): initial rout of 6\"" in text
    assert '2e de Ligne pursues 6" and catches the routing 74th Infantry' in text
    assert prussian.stands == 10 and prussian.status == "routing"


def test_a_failed_to_charge_test_stops_the_unit() -> None:
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    ligne, _ = face_off(state)
    start_turn(state)
    y0 = ligne.y
    order(state, "french", "2e de Ligne charge 74th", rng)
    order(state, "french", "next", rng)
    said = "\n".join(e.text for e in order(state, "prussian", "next", DiceThenStream([1])))
    assert "FAIL: it may not move closer to the enemy this turn" in said and ligne.y == y0
    assert not ligne.charging


def test_terrain_slows_moves_blocks_sight_and_gives_cover() -> None:
    state, rng = game_in_movement()
    assert [t.name for t in state.terrain] == ["Bois de la Garenne", "Saint-Privat farm"]
    assert {t.label for t in RS.view(state, None).board.table_terrain} >= {"Bois de la Garenne", "Saint-Privat farm"}
    ligne = unit(state, "2e de Ligne")  # x 8-12: its path up the table runs into the light wood (y 18-28)
    ligne.y = 32.5  # its front 3" short of the wood
    # only the 5" (then 3") in the wood are slowed: 3 + 5 / 0.75, then 3 + 3 / 0.75 (17.4.4)
    with pytest.raises(IllegalOrder, match=r'costs 9.67" .* Bois de la Garenne slows it \(x0.75.*`2e-ligne move 6.75`'):
        RS.parse_order(state, "french", "2e de Ligne move 8")
    events = order(state, "french", "2e de Ligne move 6", rng)
    assert 'moves 6" through Bois de la Garenne: it costs 7"' in events[0].text
    # sight: the farm (a town) between firer and target blocks the line unless one stands in it
    firer, target = unit(state, "63e de Ligne"), unit(state, "74th")
    firer.formation, firer.x, firer.y, firer.facing = "line", 61.0, 32.0, 0.0
    target.formation, target.x, target.y, target.facing = "line", 61.0, 17.0, 180.0
    from games.days_of_iron.rules.shooting_17_3 import cover_of, in_sight
    assert not in_sight(state, firer, target)
    target.y = 24.0  # now in the farm, 7" off: a town hides a formed unit beyond 4" (16.3)
    assert not in_sight(state, firer, target)
    firer.y = 29.0  # 4" off: seen, and in heavy cover
    assert in_sight(state, firer, target) and cover_of(state, target) == (-2, "Saint-Privat farm")
    assert ligne.y == pytest.approx(26.5)


def test_hits_on_a_battery_and_on_a_general_roll_on_their_charts() -> None:
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    battery, general = unit(state, "7e Batterie"), unit(state, "Laveaucoupet")
    start_turn(state)
    order(state, "french", "next", rng)
    order(state, "prussian", "next", rng)  # into the Shooting phase
    battery.pending_hits, general.pending_hits = 2, 1
    order(state, "french", "next", rng)
    # Damage to artillery (house): 1-3 crew, 6 a gun; Casualties to staff (house): 6 killed
    events = order(state, "prussian", "next", DiceThenStream([6, 2, 6]))  # the General comes first
    text = "\n".join(e.text for e in events)
    assert "7e Batterie (4-pdr) hit 2 times (Damage to artillery (house)): 2: crew hit" in text
    assert "6: gun destroyed: remove one gun model." in text
    assert "7e Batterie (4-pdr) loses 1 guns (1/2 left)." in text
    assert "Gen. Laveaucoupet hit 1 time (Casualties to staff (house)): 6: killed." in text
    assert general.status == "killed" and battery.stands == 1
