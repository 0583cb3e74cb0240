"""Book 17.2 (the Morale phase: declared charges, the 1st Impulse, going to ground) and 12.3
(skirmishers may not charge formed units), checked sentence by sentence on the measured table."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from games.core.rng import Rng
from games.core.ruleset import Event, legal_texts
from games.days_of_iron.state import (
    DISORDERED,
    GOOD,
    OFF_BOARD,
    ON_TABLE,
    ROUTING,
    SHAKEN,
    STEPS,
    State,
    Unit,
)
from tests.book.days_of_iron.table import piece, place, table, text_of, to_step
from tests.days_of_iron.helpers import RS, new_game, order, ready_both, start_turn, unit
from tests.scripted import DiceThenStream


def test_17_2_2_the_to_charge_test_waits_until_every_charge_is_declared() -> None:
    """17.2.2: "The non-initiative player can use the same procedure to declare all his charges.
    Once all charges are declared, the players use the To Charge table to determine whether the
    declared unit charges." The initiative player's declaration rolls nothing and moves nothing;
    the tests and 1st Impulses come once the non-initiative player has declared too."""
    state, _ = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 24.0, 180.0)  # 5" apart, edge to edge
    y = ligne.y
    events = order(state, "french", "2e de Ligne charge 74th", DiceThenStream([6] * 20))
    assert ligne.y == y, "the 1st Impulse was made before the other side declared"
    assert "1d6" not in text_of(events), "the To Charge test was rolled before the other side declared"
    order(state, "french", "next", DiceThenStream([6] * 20))
    assert ligne.y == y and STEPS[state.step] == "Morale"  # the Prussians may still declare
    order(state, "prussian", "next", DiceThenStream([6] * 20))
    assert ligne.y < y, "once every charge is declared the passed charge makes its 1st Impulse"


def test_17_2_3_the_1st_impulse_goes_over_a_quarter_and_up_to_halfway_to_the_target() -> None:
    """17.2.3: "The 1st Impulse allows the charging unit to wheel or change formation and advance
    to a point that is over a quarter but up to halfway to the target unit." RULING (RULINGS.md
    17.2.3): the bot advances the charger halfway, the most the book allows. 4" apart, the line's
    own half move (3") would overshoot the half-way point (2")."""
    state, _ = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 25.0, 180.0)  # the 74th's front edge at y 25.5, the 2e's at 29.5: 4"
    order(state, "french", "2e de Ligne charge 74th", DiceThenStream([6] * 20))
    to_step(state, "Shooting", DiceThenStream([6] * 40))
    moved = 30.0 - ligne.y
    assert 1.0 < moved <= 2.0 + 1e-6, f'the 1st Impulse moved {moved:g}" of the 4" to the target'
    assert moved == pytest.approx(2.0)


def test_12_3_skirmishers_cannot_charge_into_contact_with_formed_units() -> None:
    """12.3: "Skirmishers cannot charge into contact with formed units. They can only charge and
    perform Close Assaults on routing units, other skirmishers and artillery troops." """
    state, _ = table()
    place(state, "10e Chasseurs à pied", 36.0, 30.0, 0.0, "skirmish")
    place(state, "74th", 36.0, 25.0, 180.0, "line")
    with pytest.raises(IllegalOrder, match=r"12\.3"):
        RS.parse_order(state, "french", "10e Chasseurs à pied charge 74th")
    unit(state, "74th").formation = "skirmish"  # other skirmishers may be charged
    RS.parse_order(state, "french", "10e Chasseurs à pied charge 74th")


def test_17_2_9_infantry_may_go_to_ground_voluntarily() -> None:
    """17.2.9: "Infantry units may voluntarily go to ground if they choose but must make morale
    checks to move from this state." RULING (RULINGS.md 17.2.9): `UNIT go to ground`, infantry
    only, in its side's own part of the Movement phase instead of moving; it then rallies as any
    unit gone to ground does."""
    state, rng = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    to_step(state, "Movement", rng)
    events = order(state, "french", "2e de Ligne go to ground", rng)
    assert ligne.ground and "17.2.9" in text_of(events)
    with pytest.raises(IllegalOrder):  # gone to ground, it may not move until it rallies
        RS.parse_order(state, "french", "2e de Ligne move 2")
    place(state, "4e Chasseurs à cheval", 50.0, 30.0, 0.0)
    with pytest.raises(IllegalOrder, match=r"17\.2\.9"):
        RS.parse_order(state, "french", "4e Chasseurs à cheval go to ground")


def test_17_2_4_infantry_charge_once_never_at_horse_and_artillery_never_charges() -> None:
    """17.2.4: "Infantry and irregular units can only attempt to charge once a turn. Infantry cannot
    charge mounted troops. Artillery cannot charge." """
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 24.0, 180.0)
    place(state, "2nd Hussars", 20.0, 24.0, 180.0)
    place(state, "7e Batterie", 52.0, 30.0, 0.0)
    with pytest.raises(IllegalOrder, match=r"17\.2\.4"):
        RS.parse_order(state, "french", "2e de Ligne charge 2nd Hussars")
    with pytest.raises(IllegalOrder, match=r"17\.2\.4"):
        RS.parse_order(state, "french", "7e Batterie charge 74th")
    order(state, "french", "2e de Ligne charge 74th", rng)
    with pytest.raises(IllegalOrder, match=r"once a turn"):
        RS.parse_order(state, "french", "2e de Ligne charge 74th")


def _next_turn(state: State, rng: Rng, faces: list[int]) -> list[Event]:
    """Play out the turn with `next` and roll the next initiative (the French first), the Morale
    phase's opening rally tests taking ``faces``."""
    while state.phase == "turn":
        order(state, RS.to_act(state)[0], "next", rng)
    return order(state, "french", "initiative", DiceThenStream([6, 1, *faces]))


def test_17_2_units_not_in_good_order_must_try_to_rally_at_the_first_opportunity() -> None:
    """17.2: "It is in this phase that units can restore order to the ranks ('rally') after being
    disordered or shaken in the previous turn." 17.2: "Units not in good order *must* try to rally
    at the first opportunity." A shaken unit takes its rally test as the next Morale phase opens,
    unasked, and passing it is in good order (its General stands by it)."""
    state, rng = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "Gen. Doëns", 36.0, 32.0, 0.0)
    ligne.order, ligne.order_turn = SHAKEN, state.turn
    said = text_of(_next_turn(state, rng, [6] * 10))
    assert "Rally test" in said and "2e de Ligne rallies to good order" in said, said
    assert ligne.order == GOOD


def test_17_2_1_off_board_units_declared_in_the_morale_phase_arrive_that_turn() -> None:
    """17.2.1: "The deployment of off-board units must be declared in the Morale Phase if they are
    to make their appearance in the Movement Phase of the same turn." `dust` in the Morale phase
    brings the brigade on in that turn's Movement phase."""
    state, rng = new_game("meeting", scouting="no")
    order(state, "french", "offboard Valabrègue cavalry brigade", rng)
    ready_both(state, rng)
    start_turn(state)
    order(state, "french", "dust Valabrègue cavalry brigade", rng)
    assert unit(state, "4e Chasseurs à cheval").status == OFF_BOARD
    to_step(state, "Movement", rng)
    assert unit(state, "4e Chasseurs à cheval").status == ON_TABLE


def test_17_2_5_a_unit_that_charged_may_not_shoot_one_that_failed_may() -> None:
    """17.2.5: "A unit that successfully makes a declared charge cannot shoot in the Shooting Phase
    ... A unit which fails to charge can nevertheless shoot." The 2e passes its To Charge test and
    may not fire; failing it, it may."""
    for face, fires in ((6, False), (1, True)):
        state, _ = table()
        place(state, "2e de Ligne", 36.0, 30.0, 0.0)
        place(state, "74th", 36.0, 24.0, 180.0)  # 5" apart
        order(state, "french", "2e de Ligne charge 74th", DiceThenStream([face] * 20))
        said = text_of(to_step(state, "Shooting", DiceThenStream([face] + [6] * 40)))
        if fires:
            assert "2e de Ligne" in said and "fail" in said.lower(), said
            RS.parse_order(state, "french", "2e de Ligne fire at 74th")
        else:
            with pytest.raises(IllegalOrder, match=r"17\.2\.5"):
                RS.parse_order(state, "french", "2e de Ligne fire at 74th")


def test_17_2_5_a_unit_that_shot_may_opportunity_charge_in_the_movement_phase() -> None:
    """17.2.5: "they may shoot and then make an opportunity charge in the Movement Phase." The 2e
    fires at the 8th Jäger 1.5" off in skirmish order, then charges them in the Movement phase."""
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "8th Jäger", 36.0, 28.0, 180.0, "skirmish")
    to_step(state, "Shooting", rng)
    order(state, "french", "2e de Ligne fire at 8th Jäger", DiceThenStream([1] * 12))
    to_step(state, "Movement", rng)
    RS.parse_order(state, "french", "2e de Ligne charge 8th Jäger")


def test_17_2_6_cavalry_may_charge_by_squadrons_of_at_least_3_stands() -> None:
    """17.2.6: "Cavalry units may make separate 'squadron charges' of a minimum of 3 stands with the
    remainder of the unit making a second or opportunity charge in the Movement Phase. The remainder
    of the unit may only charge into the same Close Assault melee as the other stands in the same
    unit." The 11th Uhlans (8 stands) charge the 2e de Ligne with a squadron of 3 stands: the
    squadron is the 3 stands on the flank nearest the 2e; the other 5 declare nothing, and in the
    Movement phase may charge the 2e, not the 74th. RULING (RULINGS.md 17.2.6)."""
    state, rng = table(french_first=False)
    uhlans = place(state, "11th Uhlans", 36.0, 22.0, 180.0)  # x 32-40; its front 5" from the 2e
    place(state, "2e de Ligne", 36.0, 28.0, 0.0)
    place(state, "74th", 52.0, 26.0, 180.0)  # x 46-58, off to the side
    with pytest.raises(IllegalOrder, match=r"3 stands or more \(17\.2\.6\)"):
        RS.parse_order(state, "prussian", "11th Uhlans squadron 2 charge 2e de Ligne")
    assert "11th-uhlans squadron 3 charge 2e-ligne" in {o.text for o in RS.legal_orders(state, "prussian")}
    order(state, "prussian", "11th Uhlans squadron 3 charge 2e de Ligne", rng)
    squadron = unit(state, "11th Uhlans Sqn")
    assert (uhlans.stands, squadron.stands) == (5, 3)
    assert (squadron.x, uhlans.x) == (pytest.approx(33.5), pytest.approx(37.5))  # x 32-35 and 35-40
    with pytest.raises(IllegalOrder):  # the remainder charges in the Movement phase, not now
        RS.parse_order(state, "prussian", "11th Uhlans charge 2e de Ligne")
    order(state, "prussian", "next", rng)
    order(state, "french", "next", DiceThenStream([6] * 20))
    to_step(state, "Movement", DiceThenStream([6] * 40))
    order(state, "prussian", "11th-uhlans-squadron charge home", DiceThenStream([6] * 10))
    with pytest.raises(IllegalOrder, match=r"same melee as 11th Uhlans Sqn"):
        RS.parse_order(state, "prussian", "11th Uhlans charge 74th")
    said = text_of(order(state, "prussian", "11th Uhlans charge 2e de Ligne", DiceThenStream([6] * 10)))
    assert "in contact with 2e de Ligne" in said, said


def test_17_2_6_a_squadron_rejoins_its_unit_as_the_next_turn_begins() -> None:
    """RULING (RULINGS.md 17.2.6): the book does not say when the squadron rejoins. The 11th Uhlans'
    squadron fails its To Charge test and stays where it split off; as the next turn's initiative is
    rolled it rejoins: 8 stands again, the unit's points whole, the squadron off the table."""
    state, rng = table(french_first=False)
    uhlans = place(state, "11th Uhlans", 36.0, 18.0, 180.0)
    place(state, "2e de Ligne", 36.0, 28.0, 0.0)
    points = uhlans.points
    order(state, "prussian", "11th Uhlans squadron 3 charge 2e de Ligne", rng)
    squadron = unit(state, "11th Uhlans Sqn")
    assert squadron.points + uhlans.points == points
    order(state, "prussian", "next", rng)
    order(state, "french", "next", DiceThenStream([1] * 20))  # the To Charge test fails
    to_step(state, "Movement", DiceThenStream([6] * 40))
    with pytest.raises(IllegalOrder, match=r"has not gone ahead"):
        RS.parse_order(state, "prussian", "11th Uhlans charge 2e de Ligne")
    said = text_of(_next_turn(state, rng, [6] * 10))
    assert "11th Uhlans Sqn rejoins 11th Uhlans (8 stands)" in said, said
    assert (uhlans.stands, uhlans.start_stands, uhlans.points) == (8, 8, points)
    assert squadron.status == "rejoined" and squadron.stands == 0
    assert "11th Uhlans Sqn" not in {c.label for c in RS.view(state, "french").counters}


def test_17_2_7_skirmishers_in_the_1st_impulse_rout_and_may_not_shoot() -> None:
    """17.2.7: "Units may charge through skirmish screens if they declare a charge on a unit beyond
    the skirmishers. ... Any enemy skirmishing units within the charging unit's 1st Impulse
    movement are automatically routed. Skirmishing stands that rout cannot shoot later that turn."
    The 2e's column charges the 74th 7" off; the 8th Jäger's screen 2" in front of the 2e is routed
    by the 1st Impulse and may not fire in the Shooting phase."""
    state, _ = table()
    place(state, "2e de Ligne", 36.0, 31.5, 0.0, "column")  # its front edge y 30
    place(state, "74th", 36.0, 22.5, 180.0)  # 7" edge to edge: the impulse goes 3.5"
    jager = place(state, "8th Jäger", 36.0, 27.5, 180.0, "skirmish")
    order(state, "french", "2e de Ligne charge 74th", DiceThenStream([6] * 20))
    to_step(state, "Shooting", DiceThenStream([6] * 40))
    assert jager.status == ROUTING
    order(state, "french", "next", DiceThenStream([6] * 10))
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "prussian", "8th Jäger fire at 2e de Ligne")


def test_17_2_7_skirmish_infantry_contacted_by_cavalry_in_the_open_suffer_a_major_defeat() -> None:
    """17.2.7: "Skirmishing infantry contacted by cavalry in the open suffer an automatic major
    defeat as the combat result." The 4e Chasseurs à cheval, 5" from the 8th Jäger's screen (caught,
    17.2.3), charge home; the close assault is the Jäger's automatic major defeat whatever the dice."""
    state, _ = table()
    place(state, "4e Chasseurs à cheval", 36.0, 30.0, 0.0)
    jager = place(state, "8th Jäger", 36.0, 24.0, 180.0, "skirmish")
    order(state, "french", "4e Chasseurs à cheval charge 8th Jäger", DiceThenStream([6] * 20))
    to_step(state, "Movement", DiceThenStream([6] * 40))
    order(state, "french", "4e Chasseurs à cheval charge home", DiceThenStream([6] * 10))
    said = text_of(to_step(state, "Close Assault", DiceThenStream([1] + [6] * 40)))
    said += text_of(order(state, "french", "next", DiceThenStream([1] + [6] * 40)))
    assert "major" in said.lower() and "17.2.7" in said, said
    assert jager.status != ON_TABLE or jager.stands < 8


def test_17_2_8_disorder_lifts_after_a_turn_without_moving_shooting_or_forming() -> None:
    """17.2.8: "A unit will automatically recover from disorder if it makes no other actions, i.e.
    moves or shoots or changes formation, for one turn." The 2e and 63e were disordered last turn;
    this turn the 2e stands still, the 63e moves. Both fail their rally tests: the 2e is in good order
    again, the 63e is still disordered."""
    state, rng = table()
    still = place(state, "2e de Ligne", 20.0, 30.0, 0.0)
    moving = place(state, "63e de Ligne", 50.0, 30.0, 0.0, "column")
    place(state, "Gen. Doëns", 36.0, 34.0, 0.0)
    for u in (still, moving):  # disordered in the turn before this one
        u.order, u.order_turn = DISORDERED, state.turn - 1
    to_step(state, "Movement", rng)
    order(state, "french", "63e de Ligne move 2", rng)
    _next_turn(state, rng, [1] * 10)
    assert still.order == GOOD
    assert moving.order == DISORDERED


def test_17_2_8_shaken_units_stay_shaken_until_they_pass_a_rally_test() -> None:
    """17.2.8: "Units that are shaken will remain so until they make a successful rally test in the
    morale phase." The shaken 2e stands still a whole turn and fails its rally test: still shaken."""
    state, rng = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    ligne.order, ligne.order_turn = SHAKEN, state.turn
    _next_turn(state, rng, [1] * 10)
    assert ligne.order == SHAKEN


def _halted_jager() -> tuple[State, Rng, Unit]:
    """The 8th Jäger (Class 4) shot at by the 2e and halted by its Casualties from Shooting test,
    then the Movement phase with the Prussians to move."""
    state, rng = table(french_first=False)
    jager = place(state, "8th Jäger", 36.0, 20.0, 180.0)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)  # 9": long range, a 6 hits
    to_step(state, "Shooting", rng)
    order(state, "prussian", "next", rng)
    order(state, "french", "2e de Ligne fire at 8th Jäger", DiceThenStream([6, 6] + [1] * 10))
    said = text_of(order(state, "french", "next", DiceThenStream([2])))
    assert jager.halted, said
    return state, rng, jager


def test_17_2_10_halted_units_move_no_closer_but_may_form_or_move_away() -> None:
    """17.2.10: "Units halted after failing a reaction to shooting test cannot make any further
    movement toward enemy units but may move away or change formation as long as they move no
    closer to the enemy." The halted Jäger may not advance on the 2e but may form column."""
    state, _rng, _ = _halted_jager()
    assert STEPS[state.step] == "Movement" and RS.to_act(state) == ["prussian"]
    with pytest.raises(IllegalOrder, match=r"17\.2\.10"):
        RS.parse_order(state, "prussian", "8th Jäger move 2")
    RS.parse_order(state, "prussian", "8th Jäger form column")


def test_17_2_10_a_halted_unit_moves_normally_once_it_passes_its_next_test() -> None:
    """17.2.10: "The halted unit may move normally in the following turn if it passes subsequent
    morale tests." The Jäger passes its rally test as the next Morale phase opens and may advance."""
    state, rng, jager = _halted_jager()
    while state.phase == "turn":
        order(state, RS.to_act(state)[0], "next", rng)
    order(state, "french", "initiative", DiceThenStream([1, 6] + [6] * 10))
    assert not jager.halted
    to_step(state, "Movement", rng)
    RS.parse_order(state, "prussian", "8th Jäger move 2")


def test_17_2_11_a_rallied_router_halts_facing_back_the_way_it_routed() -> None:
    """17.2.11: "Units that are routing or pursuing may attempt to rally. If the rally test is
    passed, the unit making the test may halt and rally in line or column formation facing in the
    opposite direction to its rout movements." The 2e, routing south, passes its rally test: it
    stands in line or column, facing north (its General stands by it)."""
    state, _ = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "Gen. Doëns", 36.0, 26.0, 0.0)
    ligne.status, ligne.rout_bearing, ligne.rout_turn = ROUTING, 180.0, 1
    order(state, "french", "2e de Ligne rally", DiceThenStream([6]))
    assert ligne.status == ON_TABLE
    assert ligne.formation in ("line", "column") and ligne.facing == pytest.approx(0.0)


def test_17_2_2_a_charge_may_be_declared_only_at_an_enemy_the_charger_sees() -> None:
    """17.2.2: "The initiative player declare charges, starting from one side of the table and
    proceeding left to right (or vice versa) until he has nominated every unit in his army that
    will charge." 16.3: "Formed units are visible at 4" in heavy urban areas and woods".
    RULING (RULINGS.md, chapters 15-17.2): a charge is declared at an enemy the charger can see.
    The 74th in a heavy wood 5" off cannot be charged; 3" off it can."""
    for apart, seen in ((5.0, False), (3.0, True)):
        state, _ = table()
        piece(state, "heavy-wood", "the wood", 20.0, 10.0, 52.0, 23.0)
        place(state, "74th", 36.0, 22.0, 180.0)  # its front edge y 22.5, inside the wood
        place(state, "2e de Ligne", 36.0, 22.5 + apart + 0.5, 0.0)
        if seen:
            RS.parse_order(state, "french", "2e de Ligne charge 74th")
        else:
            with pytest.raises(IllegalOrder, match=r"see|visib"):
                RS.parse_order(state, "french", "2e de Ligne charge 74th")


def test_17_4_2_a_charger_neither_forms_nor_turns_before_its_2nd_impulse() -> None:
    """17.4.2: "2nd Impulse moves occur before normal movement and no formation changes, wheeling or
    changing of direction is allowed." The 4e Chasseurs à cheval, charging the 8th Jäger, may not
    form line, turn or wheel in the Movement phase before going home; `charge home` is what it may
    do. (Found playing the meeting scenario: a charging regiment formed line, then fell short.)"""
    state, _ = table()
    place(state, "4e Chasseurs à cheval", 36.0, 30.0, 0.0)
    place(state, "8th Jäger", 36.0, 24.0, 180.0, "skirmish")
    order(state, "french", "4e Chasseurs à cheval charge 8th Jäger", DiceThenStream([6] * 20))
    to_step(state, "Movement", DiceThenStream([6] * 40))
    for text in ("4e Chasseurs à cheval form column", "4e Chasseurs à cheval turn about",
                 "4e Chasseurs à cheval move 0 wheel left 20"):
        with pytest.raises(IllegalOrder, match=r"17\.4\.2"):
            RS.parse_order(state, "french", text)
    offered = [t for t in legal_texts(RS, state, "french") if t.startswith("4e-chasseurs")]
    assert offered and all("charge home" in t or "feint" in t for t in offered), offered
    order(state, "french", "4e Chasseurs à cheval charge home", DiceThenStream([6] * 10))
