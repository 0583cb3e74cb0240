"""Book 17.4 (the Movement phase: the 2nd Impulse and contact, formation changes, feints and
routers), checked sentence by sentence on the measured table."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from games.days_of_iron.state import DESTROYED, ROUTING
from tests.book.days_of_iron.table import piece, place, table, text_of, to_step
from tests.days_of_iron.helpers import RS, order
from tests.scripted import DiceThenStream


def test_17_4_12_class_1_troops_may_not_end_the_phase_short_of_a_declared_charge() -> None:
    """17.4.12: "If a feint charge is declared, the unit that declared the charge can not make any
    further movements during the same turn. Class 1 troops cannot make feint charges." Saying
    `next` with a Class 1 charge still short of its target is a feint by another name. RULING
    (RULINGS.md 17.4.12): the side's `next` is refused until the Class 1 unit charges home."""
    state, _ = table()
    forty = place(state, "40e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 23.0, 180.0)  # 6" apart
    order(state, "french", "40e de Ligne charge 74th", DiceThenStream([6] * 20))
    to_step(state, "Movement", DiceThenStream([6] * 40))
    assert forty.charging
    with pytest.raises(IllegalOrder, match=r"17\.4\.12"):
        RS.parse_order(state, "french", "next")
    with pytest.raises(IllegalOrder, match="Class 1 troops cannot make feint charges"):
        RS.parse_order(state, "french", "40e de Ligne feint")


def test_17_4_2_a_half_inch_corner_touch_is_not_contact() -> None:
    """17.4.2: "A unit needs to make base-to-base contact with 1" or more of an enemy unit to be
    'in contact'." Two lines 12" wide touching front to front over 0.5" fight no close assault;
    over 2" they do."""
    for overlap, fights in ((0.5, False), (2.0, True)):
        state, _ = table()
        place(state, "2e de Ligne", 36.0, 30.0, 0.0)
        place(state, "74th", 36.0 + 12.0 - overlap, 29.0, 180.0)
        said = text_of(to_step(state, "Close Assault", DiceThenStream([4] * 40)))
        assert ("2e de Ligne" in said and "74th" in said and "Close assault" in said) is fights, (overlap, said)


def test_17_4_15_a_router_clipping_half_an_inch_of_an_enemy_is_not_dispersed() -> None:
    """17.4.15: "If a routing unit is forced into contacting an enemy unit it will be dispersed and
    removed from play. Note: if less than 1" base contact, no 'contact' is deemed to take place."
    The 2e (a line, x 30-42) routs straight down the table past the 74th's column; clipping 0.5" of
    it, the 2e routs on; running 2" into it, the 2e is dispersed."""
    for clip, dispersed in ((0.5, False), (2.0, True)):
        state, rng = table()
        ligne = place(state, "2e de Ligne", 36.0, 20.0, 0.0)
        ligne.status, ligne.rout_bearing, ligne.rout_turn = ROUTING, 180.0, 1
        place(state, "74th", 42.0 - clip + 1.5, 24.0, 90.0, "column")  # 3" deep along x, 4" wide along y
        said = text_of(to_step(state, "Movement", rng))
        assert ("dispersed" in said) is dispersed, (clip, said)
        assert (ligne.status == DESTROYED) is dispersed


def test_17_4_7_only_one_formation_change_a_turn() -> None:
    """17.4.7: "Units can make only one formation change a turn." """
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    order(state, "french", "2e de Ligne form line", rng)
    with pytest.raises(IllegalOrder, match=r"17\.4\.7"):
        RS.parse_order(state, "french", "2e de Ligne form column")


def test_17_4_7_no_formation_change_in_a_heavy_wood_but_in_a_light_wood() -> None:
    """17.4.7: "A unit may change formation in a light wood or urban area but not in a heavy wood." """
    state, rng = table()
    piece(state, "heavy-wood", "Bois de Forbach", 26.0, 24.0, 46.0, 36.0)
    piece(state, "light-wood", "Gifertwald", 50.0, 24.0, 70.0, 36.0)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "column")
    place(state, "63e de Ligne", 60.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match=r"17\.4\.7"):
        RS.parse_order(state, "french", "2e de Ligne form skirmish")
    RS.parse_order(state, "french", "63e de Ligne form skirmish")


def test_17_4_10_a_failed_charge_home_halts_2_inches_in_front() -> None:
    """17.4.10: "If the charging unit fails the test they are halted 2\" in front of their intended
    target and can not make any other movements or formation changes." """
    state, _ = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 23.0, 180.0)  # 6" apart: the 1st Impulse leaves 3"
    order(state, "french", "2e de Ligne charge 74th", DiceThenStream([6] * 20))
    to_step(state, "Movement", DiceThenStream([6] * 40))
    order(state, "french", "2e de Ligne charge home", DiceThenStream([1]))
    assert 29.5 - ligne.y + 0.5 == pytest.approx(6.0 - 2.0)  # its front edge 2" from the 74th's
    assert not ligne.charging
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "french", "2e de Ligne move 1")
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "french", "2e de Ligne form column")


def test_17_4_a_unit_may_move_less_than_its_allowance_but_never_within_1_inch_of_an_enemy() -> None:
    """17.4: "A unit may move less than its full allowance or remain halted with no penalty. ... A
    unit cannot come within 1\" of an enemy unit it has not charged." The 2e's line (6" on the house
    sheet) stands 5" from the 74th: 3.5" is allowed, 4.5" (0.5" short) and 7" are not."""
    state, rng = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 24.0, 180.0)
    to_step(state, "Movement", rng)
    for too_far in ("2e de Ligne move 4.5", "2e de Ligne move 7"):
        with pytest.raises(IllegalOrder):
            RS.parse_order(state, "french", too_far)
    order(state, "french", "2e de Ligne move 3.5", rng)
    assert ligne.y == pytest.approx(26.5)


def test_17_4_3_after_a_formation_change_the_slower_formation_sets_what_remains() -> None:
    """17.4.3: "After a formation change, units may move the balance of their movement. However, the
    formation with the *lowest movement allowance*, of the two the unit uses, determines how much
    movement remains." 17.4: "Units have the movement allowance based on the formation they start
    the phase in." 17.4.7: "Make movement deductions from the formation the unit starts the turn
    in." The 2e starts in column (8") and forms line (6"); the change costs half the column's move
    (house: 4"), and what remains is the line's 6" less those 4", 2", not the column's 8" less 4".
    RULING (RULINGS.md 17.4.3)."""
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    order(state, "french", "2e de Ligne form line", rng)
    with pytest.raises(IllegalOrder, match=r"2\" left"):
        RS.parse_order(state, "french", "2e de Ligne move 2.5")
    RS.parse_order(state, "french", "2e de Ligne move 2")


def test_17_4_1_routers_move_first_then_the_2nd_impulse_then_normal_moves() -> None:
    """17.4.1: "The order of movement of units is: routers, 2nd impulse movements and then normal
    movements (including 1st impulse movements)." The routing 63e has run on before the French say
    anything; the 24e may not move until the 2e's charge has gone home. RULING (RULINGS.md 17.4.1)."""
    state, _ = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 23.0, 180.0)  # 6" apart
    routers = place(state, "63e de Ligne", 60.0, 20.0, 0.0)
    routers.status, routers.rout_bearing, routers.rout_turn = ROUTING, 180.0, 1
    place(state, "24e de Ligne", 10.0, 30.0, 0.0, "column")
    order(state, "french", "2e de Ligne charge 74th", DiceThenStream([6] * 20))
    to_step(state, "Movement", DiceThenStream([6] * 40))
    assert routers.y > 20.0, "the router had not moved when its side's Movement phase began"
    with pytest.raises(IllegalOrder, match=r"17\.4\.1"):
        RS.parse_order(state, "french", "24e de Ligne move 2")
    order(state, "french", "2e de Ligne charge home", DiceThenStream([6] * 10))
    RS.parse_order(state, "french", "24e de Ligne move 2")


def test_17_4_4_a_wood_shortens_the_move() -> None:
    """17.4.4: "Moving over certain types of terrain reduces unit movement. ... Deduct these
    distances from the basic movement of the unit." The 2e's column (8") goes 8" in the open but
    not all the way through a light wood (house sheet: x0.75 ground)."""
    for wood, goes in ((False, True), (True, False)):
        state, rng = table()
        if wood:
            piece(state, "light-wood", "Gifertwald", 26.0, 10.0, 46.0, 36.0)
        place(state, "2e de Ligne", 36.0, 30.0, 0.0, "column")
        to_step(state, "Movement", rng)
        if goes:
            RS.parse_order(state, "french", "2e de Ligne move 8")
        else:
            with pytest.raises(IllegalOrder):
                RS.parse_order(state, "french", "2e de Ligne move 8")
            RS.parse_order(state, "french", "2e de Ligne move 5")


def test_17_4_5_a_forced_march_is_from_column_disorders_and_keeps_12_inches_from_formed_enemy() -> None:
    """17.4.5: "Units, which must be in march column, can force march ... Units forced marching are
    disordered ... Brigades making forced marches can not move within 12\" of a *visible* formed
    enemy unit." """
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    column = place(state, "10e Chasseurs à pied", 10.0, 44.0, 0.0, "column")
    column.march = True  # 12.1: in march column
    place(state, "74th", 36.0, 10.0, 180.0, "column")
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match=r"17\.4\.5|12\.1"):
        RS.parse_order(state, "french", "2e de Ligne move 2 forced")
    order(state, "french", "10e Chasseurs à pied move 10 forced", rng)
    assert column.order == "disordered"
    state2, rng2 = table()
    place(state2, "10e Chasseurs à pied", 36.0, 30.0, 0.0, "column").march = True
    place(state2, "74th", 36.0, 10.0, 180.0, "column")  # its front edge at 11.5, the 10e's at 28 (2 wide, 4 deep)
    to_step(state2, "Movement", rng2)
    with pytest.raises(IllegalOrder, match=r"12\""):
        RS.parse_order(state2, "french", "10e Chasseurs à pied move 10 forced")


def test_17_4_6_a_wheel_costs_double_its_outer_arc() -> None:
    """17.4.6: "The amount the unit has wheeled is measured from the outside arc and cost double
    movement." The 2e's line is 12" wide: a 10-degree wheel's outer arc is 2.09", costing 4.19" of
    its 6"; 1.7" more is allowed, 2" more is not."""
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "french", "2e de Ligne move 2 wheel left 10")
    RS.parse_order(state, "french", "2e de Ligne move 1.7 wheel left 10")


def test_17_4_7_turning_about_is_a_formation_change() -> None:
    """17.4.7: "Turning 90° or about 180°, changing from march column to manoeuvre column or line or
    vice versa, ... are considered formation changes." The 2e turns about (facing the other way,
    where it stood) and may then make no other formation change that turn; the 63e turns right.
    RULING (RULINGS.md 17.4.7): `UNIT turn left|right|about`, about the footprint's centre."""
    state, rng = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    other = place(state, "63e de Ligne", 60.0, 30.0, 0.0)
    to_step(state, "Movement", rng)
    order(state, "french", "2e de Ligne turn about", rng)
    assert ligne.facing == pytest.approx(180.0) and (ligne.x, ligne.y) == (36.0, 30.0)
    with pytest.raises(IllegalOrder, match=r"17\.4\.7"):
        RS.parse_order(state, "french", "2e de Ligne form column")
    order(state, "french", "63e de Ligne turn right", rng)
    assert other.facing == pytest.approx(90.0)


def test_17_4_8_foot_pass_through_a_deployed_battery_undisordered_never_a_limbered_one() -> None:
    """17.4.8: "Troops may pass through a deployed artillery battery from front to rear or vice
    versa without being disordered. This cannot be done through a massed or limbered battery."
    RULING (RULINGS.md 17.4.8): a battery in column is limbered."""
    for limbered in (False, True):
        state, rng = table()
        column = place(state, "2e de Ligne", 36.0, 36.0, 0.0, "column")  # y 34.5-37.5
        place(state, "7e Batterie", 36.0, 32.0, 0.0, "column" if limbered else "line")
        to_step(state, "Movement", rng)
        if limbered:
            with pytest.raises(IllegalOrder):
                RS.parse_order(state, "french", "2e de Ligne move 8")
        else:
            order(state, "french", "2e de Ligne move 8", rng)
            assert column.y == pytest.approx(28.0) and column.order == "good"


def test_17_4_9_passage_of_lines_only_for_class_2_and_no_charge_after_it() -> None:
    """17.4.9: "The manoeuvre can only be done in the open or in a light wood by units of Class 2 and
    above. ... Units performing the manoeuvre can not perform a charge in the same turn." The 40e
    (Class 1) may not pass through the 2e's line; the 4e Chasseurs à cheval (Class 2) may, and may
    not then charge the 74th 3" in front of them."""
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)  # x 30-42, y 29.5-30.5
    place(state, "40e de Ligne", 33.0, 32.0, 0.0, "column")  # x 31-35, y 30.5-33.5
    passing = place(state, "4e Chasseurs à cheval", 39.0, 32.0, 0.0, "column")  # 2 wide, 3 deep
    place(state, "74th", 39.0, 22.0, 180.0, "column")  # its front edge at 23.5
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match=r"17\.4\.9"):
        RS.parse_order(state, "french", "40e de Ligne move 4")
    order(state, "french", "4e Chasseurs à cheval move 4", rng)  # through the line to stand in front of it
    assert passing.y == pytest.approx(28.0)
    with pytest.raises(IllegalOrder, match=r"17\.4\.9"):
        RS.parse_order(state, "french", "4e Chasseurs à cheval charge 74th")


def test_17_4_11_an_opportunity_charge_goes_half_a_move_and_after_firing_only_2_inches() -> None:
    """17.4.11: "The opportunity charging unit must pass the To Charge Test but can only move half
    its normal movement without any formation changes or wheeling. A unit that has shot in the
    Shooting Phase may make an opportunity charge if there is an eligible enemy target unit within
    2\"." The 2e's line (6") may not charge the 74th 4" off (half its move is 3"); the 63e, which
    fired, may not charge the 77th 2.5" off."""
    state, rng = table()
    place(state, "2e de Ligne", 20.0, 30.0, 0.0)
    place(state, "74th", 20.0, 25.0, 180.0)  # 4" apart
    place(state, "63e de Ligne", 50.0, 30.0, 0.0)
    place(state, "77th", 50.0, 26.5, 180.0)  # 2.5" apart
    to_step(state, "Shooting", rng)
    order(state, "french", "63e de Ligne fire at 77th", rng)
    to_step(state, "Movement", DiceThenStream([1] * 40))
    with pytest.raises(IllegalOrder, match=r"17\.4\.11"):
        RS.parse_order(state, "french", "2e de Ligne charge 74th")
    with pytest.raises(IllegalOrder, match=r"17\.4\.11"):
        RS.parse_order(state, "french", "63e de Ligne charge 77th")


def test_17_4_13_a_counter_charged_unit_tests_at_once() -> None:
    """17.4.13: "A unit that has been counter charged must make a Being Charged test immediately."
    The 2e's declared charge is under way; the 74th's opportunity charge at it (a counter charge)
    has the 2e take its Being Charged test in the same order."""
    state, _ = table(french_first=False)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 23.0, 180.0)  # 6" apart
    order(state, "prussian", "next", DiceThenStream([6] * 20))
    order(state, "french", "2e de Ligne charge 74th", DiceThenStream([6] * 20))
    to_step(state, "Movement", DiceThenStream([6] * 40))
    said = text_of(order(state, "prussian", "74th charge 2e de Ligne", DiceThenStream([6] * 40)))
    assert "counter" in said.lower() and "Being Charged" in said, said


def test_17_4_14_a_beaten_unlimbered_battery_is_destroyed() -> None:
    """17.4.14: "Unlimbered artillery batteries are destroyed and limbered artillery batteries will
    rout with their guns." The Hussars beat the deployed 7e in close assault: it is destroyed."""
    state, _ = table(french_first=False)
    guns = place(state, "7e Batterie", 36.0, 30.0, 0.0, "line")  # 2" wide, 1.5" deep
    place(state, "2nd Hussars", 36.0, 27.75, 180.0, "column")  # 2 wide, 3 deep: its front on the guns' front
    to_step(state, "Close Assault", DiceThenStream([6, 1] + [3] * 40))
    assert guns.status == DESTROYED


def test_17_4_14_the_initial_rout_is_half_the_rout_distance_directly_away() -> None:
    """17.4.14: "On being forced to rout, units will make an initial rout movement directly away from
    enemy that caused it to rout in the phase that the rout occurs. The initial rout movement will
    be half the rout distance as specified on the movement chart." The 2e loses a close assault to
    the 74th and routs 6" (house: 12" for foot) straight back."""
    state, _ = table(french_first=False)
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 29.0, 180.0)
    to_step(state, "Close Assault", DiceThenStream([6, 1] + [3] * 40))
    assert ligne.status == ROUTING
    assert (ligne.x, ligne.y) == (pytest.approx(36.0), pytest.approx(36.0))


def test_17_4_16_a_skirmish_screen_evades_half_its_move_directly_away() -> None:
    """17.4.16: "After successfully passing a Being Charged test the evading unit may make a movement
    up to half of its normal movement for that formation. ... all movements must be directly away
    from the enemy charging units. No formation changes can occur." The 10e's skirmish line (8")
    evades the Hussars' charge 4" straight back, still in skirmish order (17.2.7: a screen charged by
    formed troops must evade)."""
    state, _ = table(french_first=False)
    screen = place(state, "10e Chasseurs à pied", 36.0, 30.0, 0.0, "skirmish")
    place(state, "2nd Hussars", 36.0, 21.0, 180.0)  # 8" apart: not caught
    order(state, "prussian", "2nd Hussars charge 10e Chasseurs à pied", DiceThenStream([6] * 20))
    order(state, "prussian", "next", DiceThenStream([6] * 20))
    before = screen.y
    said = text_of(order(state, "french", "next", DiceThenStream([6] * 20)))  # a screen charged by horse evades
    assert "10e Chasseurs à pied evades" in said, said
    assert screen.y - before == pytest.approx(4.0) and screen.x == pytest.approx(36.0)
    assert screen.formation == "skirmish"


def test_17_4_16_an_evade_may_go_into_cover() -> None:
    """17.4.16: "Infantry, staff and artillery crew evade movement may be into cover or inside
    infantry in square formations, otherwise all movements must be directly away from the enemy
    charging units." The 10e's screen (x 28.5-43.5) evades sideways into the wood 2.5" beside it,
    its half move (4") straight along the shortest way in, and ends in the wood, no nearer the
    Hussars. RULING (RULINGS.md 17.4.16)."""
    state, _ = table(french_first=False)
    piece(state, "light-wood", "Gifertwald", 46.0, 26.0, 56.0, 34.0)
    screen = place(state, "10e Chasseurs à pied", 36.0, 30.0, 0.0, "skirmish")
    place(state, "2nd Hussars", 36.0, 21.0, 180.0)
    order(state, "prussian", "2nd Hussars charge 10e Chasseurs à pied", DiceThenStream([6] * 20))
    order(state, "prussian", "next", DiceThenStream([6] * 20))
    order(state, "french", "next", DiceThenStream([6] * 20))
    said = text_of(order(state, "french", "10e Chasseurs à pied evade into Gifertwald", DiceThenStream([6] * 20)))
    assert "10e Chasseurs à pied evades 4\" into Gifertwald" in said, said
    assert (screen.x, screen.y) == (pytest.approx(40.0), pytest.approx(30.0))
    assert screen.formation == "skirmish" and screen.facing == 0.0


def test_17_4_16_cover_beyond_half_the_move_or_no_cover_is_refused() -> None:
    """17.4.16: the evade is "a movement up to half of its normal movement": a wood 6" off is
    beyond the screen's 4"; a road gives no cover (15.11). The Bois Vert 1" off its other flank is
    in reach: the screen is asked, and the legal orders offer that wood, not the far one."""
    state, _ = table(french_first=False)
    piece(state, "light-wood", "Gifertwald", 49.5, 26.0, 56.0, 34.0)  # 6" from the screen's edge
    piece(state, "road", "Chaussée", 44.0, 26.0, 45.0, 34.0)
    piece(state, "light-wood", "Bois Vert", 20.0, 26.0, 27.5, 34.0)  # 1" from its left edge
    place(state, "10e Chasseurs à pied", 36.0, 30.0, 0.0, "skirmish")
    place(state, "2nd Hussars", 36.0, 21.0, 180.0)
    order(state, "prussian", "2nd Hussars charge 10e Chasseurs à pied", DiceThenStream([6] * 20))
    order(state, "prussian", "next", DiceThenStream([6] * 20))
    order(state, "french", "next", DiceThenStream([6] * 20))
    with pytest.raises(IllegalOrder, match=r"beyond half .*17\.4\.16"):
        RS.parse_order(state, "french", "10e Chasseurs à pied evade into Gifertwald")
    with pytest.raises(IllegalOrder, match=r"no cover"):
        RS.parse_order(state, "french", "10e Chasseurs à pied evade into Chaussée")
    offered = {o.text for o in RS.legal_orders(state, "french")}
    assert {"10e-chasseurs evade", "10e-chasseurs evade into Bois Vert"} <= offered, offered
    assert "10e-chasseurs evade into Gifertwald" not in offered


def test_17_4_2_the_2nd_impulse_goes_at_most_the_remaining_half_of_the_move() -> None:
    """17.4.2: "In the 2nd Impulse, units make the remainder of Declared Charge moves into contact
    with their targets. ... 2nd Impulse moves may only be up to half the remaining move of the
    charging unit." RULING (RULINGS.md 17.4.2): at most half the unit's move (the half the 1st
    Impulse did not use), and never more than it has left. The Hussars' line (12") charges the 10e's
    screen 8" off: the 1st Impulse goes 4", the screen evades 4" (8" between them again), and the
    2nd Impulse goes 6", not the 8" left of the Hussars' move, and falls 2" short."""
    state, _ = table(french_first=False)
    place(state, "10e Chasseurs à pied", 36.0, 30.0, 0.0, "skirmish")
    hussars = place(state, "2nd Hussars", 36.0, 21.0, 180.0)  # its front edge at 21.5, the screen's at 29.5
    order(state, "prussian", "2nd Hussars charge 10e Chasseurs à pied", DiceThenStream([6] * 20))
    order(state, "prussian", "next", DiceThenStream([6] * 20))
    order(state, "french", "next", DiceThenStream([6] * 20))
    assert hussars.y == pytest.approx(25.0)
    to_step(state, "Movement", DiceThenStream([6] * 40))
    said = text_of(order(state, "prussian", "2nd Hussars charge home", DiceThenStream([6] * 10)))
    assert hussars.y == pytest.approx(31.0), said
    assert "falls short" in said


def test_17_4_no_move_passes_within_1_inch_of_an_enemy_on_the_way() -> None:
    """17.4: "A unit cannot come within 1\" of an enemy unit it has not charged." The 4e Chasseurs
    à cheval's column (x 35-37) would ride 14" up the table past the 8th Jäger's flank 0.5" away and
    end 5" beyond them: refused; 1.5" away it may."""
    for lateral, allowed in ((0.5, False), (1.5, True)):
        state, rng = table()
        place(state, "4e Chasseurs à cheval", 36.0, 40.0, 0.0, "column")  # 2 wide, 3 deep: y 38.5-41.5
        place(state, "8th Jäger", 37.0 + lateral + 2.0, 34.0, 180.0, "column")  # 4 wide, 2 deep
        to_step(state, "Movement", rng)
        if allowed:
            RS.parse_order(state, "french", "4e Chasseurs à cheval move 14")
        else:
            with pytest.raises(IllegalOrder, match=r"17\.4"):
                RS.parse_order(state, "french", "4e Chasseurs à cheval move 14")
