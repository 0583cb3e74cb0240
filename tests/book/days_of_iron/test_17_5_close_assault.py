"""Book 17.5 (the Close Assault phase: who wins, compulsory moves, routers, break-throughs, cover,
staff, shattered units), checked on the measured table. Units are set out already in contact (a
line is 12" wide and 1" deep), so the close assault is fought when its phase begins; with the
initiative Prussian, the Prussian die is rolled first."""

from __future__ import annotations

import math

import pytest

from games.core.errors import GameError
from games.days_of_iron.rules.melees_17_5_2 import share
from games.days_of_iron.state import CAPTURED, ROUTING, SHATTERED, Unit
from tests.book.days_of_iron.table import piece, place, table, text_of, to_step
from tests.days_of_iron.helpers import finish_turn, order, start_turn
from tests.scripted import DiceThenStream


def test_17_5_class_and_the_die_decide_the_close_assault() -> None:
    """17.5: "Players add all the relevant tactical factors for all units involved, add the average
    troop class of the units involved and add the result of a roll of 1d6. The highest score wins
    the combat." The 74th (Class 3) and the 2e (Class 2), both in line and neither charging, roll
    1 each: the 74th's better class wins; the 2e rolling 3 to the 74th's 1 wins."""
    for prussian_die, french_die, loser in ((1, 1, "2e de Ligne"), (1, 3, "74th Infantry")):
        state, _ = table(french_first=False)
        place(state, "2e de Ligne", 36.0, 30.0, 0.0)
        place(state, "74th", 36.0, 29.0, 180.0)
        said = text_of(to_step(state, "Close Assault", DiceThenStream([prussian_die, french_die] + [3] * 40)))
        assert f"{loser} loses" in said or f"{loser} routs" in said or f"beats {loser}" in said, said


def test_17_5_a_line_in_melee_is_reinforced_by_the_unit_behind_it() -> None:
    """17.5: "Providing a unit in a melee is in line, it can receive reinforcement from a friendly
    unit behind it." The 63e's column stands behind the 2e's line, directly opposite the 74th: one
    melee is fought, the 63e's class in the French average."""
    state, _ = table(french_first=False)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "63e de Ligne", 36.0, 32.0, 0.0, "column")
    place(state, "74th", 36.0, 29.0, 180.0)
    said = text_of(to_step(state, "Close Assault", DiceThenStream([3] * 40)))
    assert "63e de Ligne" in said, said


def test_17_5_1_a_rout_into_a_river_away_from_a_ford_drowns_the_unit() -> None:
    """17.5.1: "Units whose compulsory rout has taken them into a river drown or must surrender or
    disperse if they are not at a ford and the unit is removed from play." The 2e, beaten with the
    Lauter 3" behind it, routs into it and is gone."""
    state, _ = table(french_first=False)
    piece(state, "river", "the Lauter", 0.0, 33.0, 72.0, 36.0)
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 29.0, 180.0)
    said = text_of(to_step(state, "Close Assault", DiceThenStream([6, 1] + [3] * 40)))
    assert ligne.status not in ("on table", ROUTING), said
    assert "drown" in said.lower(), said


def test_17_5_2_the_casualties_are_shared_among_the_units_in_the_combat() -> None:
    """17.5.2: "Take the casualties evenly from all units involved in the combat. In the event of a
    'spare' casualty, take this off the lowest quality unit involved in the combat." The 74th and
    the 39th both fight the 2e and lose: both lose stands."""
    state, _ = table(french_first=True)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    first = place(state, "74th", 31.0, 28.0, 180.0, "column")  # both columns' fronts on the 2e's
    second = place(state, "39th", 41.0, 28.0, 180.0, "column")
    to_step(state, "Close Assault", DiceThenStream([6, 1, 1] + [3] * 40))
    assert first.stands < 12 and second.stands < 12


def test_17_5_3_a_router_in_contact_suffers_an_automatic_major_victory_and_the_victor_stays() -> None:
    """17.5.3: "The routing units will suffer an Automatic Major Victory against them and make a
    compulsory movement using the close assault results table. ... The victors will not make any
    compulsory movement." The routing 74th in contact with the 2e is beaten without a die and routs
    on; the 2e stays where it stood."""
    state, _ = table(french_first=False)
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    routers = place(state, "74th", 36.0, 29.0, 0.0)  # routing, its back to the 2e
    routers.status, routers.rout_bearing, routers.rout_turn = ROUTING, 0.0, 1
    routers.rout_done = 12.0  # its rout for this turn made
    said = text_of(to_step(state, "Close Assault", DiceThenStream([3] * 40)))
    assert "Automatic Major Victory" in said, said
    assert (ligne.x, ligne.y) == (36.0, 30.0)
    assert routers.y < 29.0 or routers.status != ROUTING


def test_17_5_4_an_advance_into_a_new_enemy_is_a_break_through_attack_tested_next_morale_phase() -> None:
    """17.5.4: "Victorious units whose compulsory movement results in contacting a new enemy unit will
    engage it in Close Assault in the next turn. This is called a Break-Through Attack." and "The new
    enemy fighting a Break-Through Attack must make a Being Charged test in the next Morale Phase."
    The 2e beats the 74th by 2 (house: advance 3"), the 74th routs through the 39th's line 2" behind
    it, and the 2e's advance ends touching the 39th. RULING (RULINGS.md 17.5.4)."""
    state, _ = table(french_first=False)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 29.0, 180.0)
    place(state, "39th", 36.0, 26.0, 180.0)  # 2" behind: the routing 74th bursts through its line
    said = text_of(to_step(state, "Close Assault", DiceThenStream([2, 5] + [3] * 40)))
    assert "Break-Through" in said, said
    finish_turn(state, DiceThenStream([3] * 40))
    start_turn(state, french_first=False)
    said = text_of(order(state, "prussian", "next", DiceThenStream([3] * 40)))
    said += "\n" + text_of(order(state, "french", "next", DiceThenStream([3] * 40)))
    assert "39th Fusiliers, a Break-Through Attack by 2e de Ligne (17.5.4): Being Charged test" in said, said


def test_17_5_4_a_break_through_target_that_routs_lets_the_victor_advance_the_balance() -> None:
    """17.5.4: "If the new enemy unit contacted fails its Being Charged test it will rout and the
    victorious unit will continue to advance the balance of its compulsory movement in the direction
    of the original unit defeated." The 2e's advance (house: 3") meets the 77th (Class 2) after 2";
    the 77th fails its test (a 1) and routs, and the 2e advances the other 1"."""
    state, _ = table(french_first=False)
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 29.0, 180.0)
    routers = place(state, "77th", 36.0, 27.0, 180.0)  # y 26.5-27.5, 2" from the 2e's front
    to_step(state, "Close Assault", DiceThenStream([2, 5] + [3] * 40))
    finish_turn(state, DiceThenStream([3] * 40))
    start_turn(state, french_first=False)
    where = ligne.y
    order(state, "prussian", "next", DiceThenStream([1] + [3] * 40))
    order(state, "french", "next", DiceThenStream([1] + [3] * 40))
    assert routers.status == ROUTING, "the 77th was to fail its Being Charged test and rout"
    assert ligne.y == pytest.approx(where - 1.0)


def test_17_5_4_a_victor_whose_enemy_is_destroyed_may_wheel_to_confront_another() -> None:
    """17.5.4: "If defeated units were destroyed as a result of the Close Assault the victorious
    unit(s) must still advance in the direction of its charge but may wheel up to 45° to confront an
    enemy unit within range, while paying the movement reduction for any wheel." The 2e beats the
    74th (3 stands: shattered) by 4 (house: pursue 8"); the 39th stands 5" off to its right front.
    The 2e's 12" line wheels right as far as 8" pays for (the outer arc doubled: 19.1 degrees) and
    has nothing left to advance. RULING (RULINGS.md 17.5.4)."""
    state, _ = table(french_first=False)
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    beaten = place(state, "74th", 36.0, 29.0, 180.0)
    beaten.stands = 3  # any loss leaves 2 or fewer: shattered (17.5.8)
    place(state, "39th", 47.0, 24.0, 180.0, "column")  # x 45-49, y 22.5-25.5
    said = text_of(to_step(state, "Close Assault", DiceThenStream([1, 6] + [3] * 40)))
    assert beaten.status == SHATTERED, said
    assert "wheels right" in said and "to confront 39th Fusiliers" in said, said
    assert ligne.facing == pytest.approx(math.degrees(8.0 / 24.0), abs=0.01), said


def test_17_5_5_class_2_defenders_of_a_wood_are_not_driven_out_of_it() -> None:
    """17.5.5: "Units that are Class 2 and above ... defending urban areas or cover are not required
    to make compulsory movements as a result of Close Assault combat if that compulsory movement
    would take them out of the cover." The 74th (Class 3) loses by 1 (house: fall back 3") at the
    edge of its wood and stays in it. RULING (RULINGS.md 17.5.5): the bot keeps it in; a rout is not
    excused."""
    state, _ = table(french_first=False)
    piece(state, "light-wood", "Gifertwald", 26.0, 27.5, 46.0, 29.5)  # a strip 2" deep
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    defenders = place(state, "74th", 36.0, 29.0, 180.0)  # y 28.5-29.5, wholly in the wood
    said = text_of(to_step(state, "Close Assault", DiceThenStream([1, 3] + [3] * 40)))
    assert defenders.status == "on table", said
    assert defenders.y - 0.5 >= 27.5 and defenders.y + 0.5 <= 29.5, (defenders.y, said)


def test_17_5_6_a_line_in_a_wood_prepares_defensive_cover() -> None:
    """17.5.6: "Infantry in line formation may prepare defensive light cover, such as abatis or a
    barricade, if they are in a wood or urban area. The defensive cover is classified as a light
    obstacle and is the width of the stand. It takes two Movement Phases with no other activity to
    construct defensive cover." The 2e says `fortify` in two successive Movement phases: a light
    obstacle as wide as its line lies along its front. RULING (RULINGS.md 17.5.6)."""
    state, rng = table()
    piece(state, "light-wood", "Gifertwald", 26.0, 26.0, 46.0, 34.0)
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    to_step(state, "Movement", rng)
    said = text_of(order(state, "french", "2e de Ligne fortify", rng))
    assert "begins building defensive cover" in said and len(state.terrain) == 1, said
    finish_turn(state, DiceThenStream([3] * 40))
    start_turn(state, french_first=True)
    to_step(state, "Movement", DiceThenStream([3] * 40))
    said = text_of(order(state, "french", "2e de Ligne fortify", rng))
    assert "has built defensive cover" in said, said
    [cover] = [t for t in state.terrain if t.type == "light-obstacle"]
    xs, ys = [p[0] for p in cover.points], [p[1] for p in cover.points]
    assert max(xs) - min(xs) == pytest.approx(12.0) and max(ys) <= ligne.y - 0.5 + 1e-6, cover.points


def test_17_5_6_cover_is_built_only_by_a_line_of_infantry_in_a_wood_or_town() -> None:
    """17.5.6: "Infantry in line formation ... if they are in a wood or urban area." The 2e in the
    open, the 63e in column in the wood and the Hussars are each refused."""
    state, rng = table()
    piece(state, "light-wood", "Gifertwald", 46.0, 26.0, 66.0, 34.0)
    place(state, "2e de Ligne", 20.0, 30.0, 0.0)
    place(state, "63e de Ligne", 56.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    with pytest.raises(GameError, match="not in a wood or urban area"):
        order(state, "french", "2e de Ligne fortify", rng)
    with pytest.raises(GameError, match="only infantry in line"):
        order(state, "french", "63e de Ligne fortify", rng)


def test_17_5_6_a_move_between_the_two_phases_undoes_the_work() -> None:
    """17.5.6: "two Movement Phases with no other activity": the 2e begins, moves 1" in the same
    phase, says `fortify` in the next and starts over; the 63e, having moved, is refused. RULING (RULINGS.md 17.5.6)."""
    state, rng = table()
    piece(state, "light-wood", "Gifertwald", 26.0, 20.0, 46.0, 34.0)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "63e de Ligne", 36.0, 24.0, 0.0)
    to_step(state, "Movement", rng)
    order(state, "french", "2e de Ligne fortify", rng)
    order(state, "french", "2e de Ligne move 1", rng)
    finish_turn(state, DiceThenStream([3] * 40))
    start_turn(state, french_first=True)
    to_step(state, "Movement", DiceThenStream([3] * 40))
    said = text_of(order(state, "french", "2e de Ligne fortify", rng))
    assert "begins building" in said and not [t for t in state.terrain if t.type == "light-obstacle"], said
    with pytest.raises(GameError, match="already at work"):
        order(state, "french", "2e de Ligne fortify", rng)
    order(state, "french", "63e de Ligne move 1", rng)
    with pytest.raises(GameError, match="has moved this turn"):
        order(state, "french", "63e de Ligne fortify", rng)


def test_17_5_7_a_general_contacted_alone_is_taken() -> None:
    """17.5.7: "If the staff and engineers are contacted when isolated then they *automatically*
    become casualties." Gen. von François, alone, is touched by the 2e's line: he is captured."""
    state, _ = table(french_first=False)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    general = place(state, "Gen. von François", 36.0, 29.0, 180.0)
    said = text_of(to_step(state, "Close Assault", DiceThenStream([3] * 40)))
    assert general.status == CAPTURED, said


def test_17_5_8_foot_at_two_stands_and_horse_at_one_are_removed() -> None:
    """17.5.8: "When infantry units are reduced to two stands and Cavalry units are reduced to one
    stand they must be removed from play." The 2e's volley takes the 74th from 5 stands to 2 and
    the 63e's the Hussars from 3 to 1: both are removed."""
    state, rng = table()
    place(state, "2e de Ligne", 20.0, 30.0, 0.0)
    place(state, "63e de Ligne", 52.0, 30.0, 0.0)
    foot = place(state, "74th", 20.0, 27.0, 180.0)  # 2" off: close range
    foot.stands = 5
    horse = place(state, "2nd Hussars", 52.0, 27.0, 180.0)
    horse.stands = 3
    to_step(state, "Shooting", rng)
    order(state, "french", "2e de Ligne fire at 74th", DiceThenStream([6, 6, 6] + [1] * 9))
    order(state, "french", "63e de Ligne fire at 2nd Hussars", DiceThenStream([6, 6] + [1] * 10))
    to_step(state, "Movement", DiceThenStream([6] * 40))
    assert foot.status == SHATTERED and horse.status == SHATTERED


def test_17_5_a_unit_in_contact_with_two_enemies_fights_them_in_one_combat() -> None:
    """17.5: "Players add all the relevant tactical factors for all units involved, add the average
    troop class of the units involved and add the result of a roll of 1d6." The 2e touches both
    the 74th and the 39th: one combat is fought, with one die a side (RULING, RULINGS.md 17.5.2),
    not two melees one after the other."""
    state, _ = table(french_first=True)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 31.0, 28.0, 180.0, "column")
    place(state, "39th", 41.0, 28.0, 180.0, "column")
    said = text_of(to_step(state, "Close Assault", DiceThenStream([3] * 40)))
    assert said.count("**Close assault**") == 1, said
    assert "one combat of 3 units" in said and "74th Infantry and 39th Fusiliers" in said, said


def test_17_5_only_a_line_is_reinforced_from_behind() -> None:
    """17.5: "Providing a unit in a melee is in line, it can receive reinforcement from a friendly
    unit behind it." The 2e in column, the 63e touching its rear: the 63e does not fight."""
    state, _ = table(french_first=False)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "column")
    place(state, "63e de Ligne", 36.0, 34.0, 0.0, "column")  # y 32.5-35.5: touching the 2e's rear
    place(state, "74th", 36.0, 29.0, 180.0)
    said = text_of(to_step(state, "Close Assault", DiceThenStream([3] * 40)))
    assert "**Close assault**" in said and "63e de Ligne" not in said, said


def test_17_5_a_reinforcer_must_stand_directly_opposite_the_enemy() -> None:
    """17.5: "the reinforcing unit must be positioned directly opposite the enemy unit as if the
    intervening friendly unit was not there." The 74th faces only the left of the 2e's 12" line;
    the 63e behind the line's right end has no enemy straight ahead and does not fight."""
    state, _ = table(french_first=False)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "63e de Ligne", 40.0, 32.0, 0.0, "column")  # x 38-42: behind the right end
    place(state, "74th", 31.0, 29.0, 180.0, "column")  # x 29-33: facing the left end
    said = text_of(to_step(state, "Close Assault", DiceThenStream([3] * 40)))
    assert "**Close assault**" in said and "63e de Ligne" not in said, said


def _stands(name: str, cls: int, stands: int) -> Unit:
    return Unit(id=name, name=name, side="french", brigade="b", type="infantry", cls=cls, stands=stands)


def test_17_5_2_losses_are_even_and_a_spare_one_falls_on_the_lowest_class() -> None:
    """17.5.2: "Take the casualties evenly from all units involved in the combat. In the event of a
    'spare' casualty, take this off the lowest quality unit involved in the combat or from the unit
    that has more stands in contact if the quality is same. If quality and number of stands in
    contact is the same then allot the casualty using a die roll." """
    good, poor, big = _stands("good", 3, 8), _stands("poor", 1, 8), _stands("big", 3, 12)
    assert {u.id: n for u, n in share([good, poor], 4, DiceThenStream([]))} == {"good": 2, "poor": 2}
    assert {u.id: n for u, n in share([good, poor], 3, DiceThenStream([]))} == {"good": 1, "poor": 2}
    assert {u.id: n for u, n in share([good, big], 1, DiceThenStream([]))} == {"big": 1}
    twin = _stands("twin", 3, 8)
    assert {u.id: n for u, n in share([good, twin], 1, DiceThenStream([2, 5]))} == {"twin": 1}  # the higher die
    assert {u.id: n for u, n in share([good, twin], 1, DiceThenStream([6, 1]))} == {"good": 1}
    small = _stands("small", 1, 1)
    assert {u.id: n for u, n in share([small, big], 4, DiceThenStream([]))} == {"small": 1, "big": 3}  # no more than it has


def test_17_5_a_drawn_melee_goes_on_the_units_still_in_contact() -> None:
    """17.5: "Units in base to base contact with an enemy unit are considered to be in Close Assault
    combat." After a draw ("each loses a stand and the melee goes on") the 4e Chasseurs à cheval's
    column loses a rank (5 stands two abreast are three deep, 4 are two): its stands come off the
    rear, its front stays on the 74th, and the two fight again next turn. RULING (RULINGS.md 17.5.2).
    (Found playing the meeting scenario: the front drew back half an inch and the melee was over.)"""
    state, _ = table(french_first=False)
    horse = place(state, "4e Chasseurs à cheval", 36.0, 30.5, 0.0, "column")
    horse.stands = 5
    place(state, "74th", 36.0, 28.5, 180.0)
    said = text_of(to_step(state, "Close Assault", DiceThenStream([3, 4] + [3] * 40)))
    assert "a draw" in said and horse.stands == 4, said
    assert (horse.x, horse.y) == (36.0, 30.0)  # one stand (1") shallower, its front edge still at y 29
    finish_turn(state, DiceThenStream([3] * 40))
    start_turn(state, french_first=False)
    said = text_of(to_step(state, "Close Assault", DiceThenStream([3] * 40)))
    assert "**Close assault**" in said and "4e Chasseurs à cheval" in said, said
