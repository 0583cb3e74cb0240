"""Book 8-11 (the arms: infantry, cavalry, artillery, engineers), checked sentence by sentence on
the measured table through order text only."""

from __future__ import annotations

import re

import pytest

from games.core.errors import IllegalOrder, WrongPhase
from games.core.rng import Rng
from games.core.ruleset import legal_texts
from games.days_of_iron.state import State, Unit
from tests.book.days_of_iron.table import next_movement, piece, place, table, text_of, to_step
from tests.days_of_iron.helpers import RS, declare, finish_turn, new_game, order, ready_both, start_turn
from tests.scripted import DiceThenStream


def dice_rolled(said: str, unit: str) -> list[int]:
    """The faces a unit's `fire at` line shows in brackets."""
    line = next(x for x in said.splitlines() if x.startswith(unit) and " fire at " in x)
    found = re.search(r"\[([\d, ]+)\]", line)
    assert found, line
    return [int(f) for f in found.group(1).split(",")]


def to_francois(state: State, rng: Rng, name: str) -> float:
    """The edge-to-edge distance the public `measure` answer gives from a unit to Gen. von François."""
    said = text_of(order(state, "french", f"measure {name} to Gen. von François", rng))
    found = re.search(r"([\d.]+)\" edge to edge", said)
    assert found, said
    return float(found.group(1))


def test_8_8_1_line_infantry_stand_shoulder_to_shoulder() -> None:
    """8: "INFANTRY UNITS" - the chapter on the foot. 8.1: "Line infantry fights in close order
    formations, “shoulder to shoulder”." A 12-stand line is 12 stands touching (12" of 1" stands,
    4.1): an enemy 20" to the right of its command stand is 14" from its edge."""
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    place(state, "Gen. von François", 56.5, 30.0, 180.0)  # his 1" base from x 56 to 57
    to_step(state, "Movement", rng)
    assert to_francois(state, rng, "2e de Ligne") == pytest.approx(56.0 - 42.0)


def test_8_1_only_class_2_and_better_infantry_skirmish() -> None:
    """8.1: "Class 2 and above rated infantry may also fight in skirmish order." The Class 1 40e de
    Ligne may not form skirmish; the Class 2 63e de Ligne may."""
    state, rng = table()
    place(state, "40e de Ligne", 20.0, 30.0, 0.0, "column")
    place(state, "63e de Ligne", 50.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match=r"8\.1"):
        RS.parse_order(state, "french", "40e de Ligne form skirmish")
    order(state, "french", "63e de Ligne form skirmish", rng)


def test_9_9_1_cavalry_may_deploy_as_skirmishers() -> None:
    """9: "CAVALRY UNITS" - the chapter on the horse. 9.1: "A Cavalry unit can deploy as
    skirmishers" - the 4e Chasseurs à cheval (Class 2) and 5e (Class 3) form skirmish."""
    state, rng = table()
    place(state, "4e Chasseurs à cheval", 20.0, 30.0, 0.0, "column")
    place(state, "5e Chasseurs à cheval", 50.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    for name in ("4e Chasseurs à cheval", "5e Chasseurs à cheval"):
        assert "forms skirmish" in text_of(order(state, "french", f"{name} form skirmish", rng))


def test_9_1_cavalry_may_dismount_as_skirmishing_infantry() -> None:
    """9.1: "A Cavalry unit ... may dismount and deploy as skirmishing infantry." """
    state, rng = table()
    place(state, "4e Chasseurs à cheval", 20.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    order(state, "french", "4e Chasseurs à cheval dismount", rng)


def test_9_1_dismounted_cavalry_are_skirmishing_infantry_until_they_mount() -> None:
    """9.1: "A Cavalry unit can deploy as skirmishers or may dismount and deploy as skirmishing
    infantry." RULING (RULINGS.md 9.1): on foot the 4e Chasseurs à cheval are infantry in skirmish
    order for every rule: they enter a heavy wood (15.8: "only units on foot"), move at the infantry
    skirmish rate, and infantry may charge them (17.2.4 bars only "mounted troops"); dismounting is
    the turn's formation change, and `mount` takes the horses again in column."""
    state, rng = table()
    horse = place(state, "4e Chasseurs à cheval", 20.0, 30.0, 0.0, "column")
    place(state, "74th", 20.0, 25.6, 180.0)  # front y 26.1, 1.9" from the dismounted front in the wood
    piece(state, "heavy-wood", "the wood", 10.0, 26.0, 30.0, 28.4)  # its edge 0.1" ahead of the horse's front
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match=r"15\.8"):  # mounted, it may not enter the wood
        RS.parse_order(state, "french", "4e Chasseurs à cheval move 1")
    assert "4e-chasseurs dismount" in legal_texts(RS, state, "french")
    said = text_of(order(state, "french", "4e Chasseurs à cheval dismount", rng))
    assert "dismounts and deploys as skirmishing infantry" in said and horse.formation == "skirmish", said
    with pytest.raises(IllegalOrder, match=r"17\.4\.7"):  # one formation change a turn
        RS.parse_order(state, "french", "4e Chasseurs à cheval mount")
    with pytest.raises(IllegalOrder, match=r"9\.1"):  # on foot it stays in skirmish order
        RS.parse_order(state, "french", "4e Chasseurs à cheval form column")
    said = text_of(order(state, "french", "4e Chasseurs à cheval move 0.5", rng))  # on foot, into the wood
    assert "through the wood" in said, said
    finish_turn(state, DiceThenStream([3] * 40))
    start_turn(state, french_first=False)
    to_step(state, "Morale", rng)
    said = text_of(order(state, "prussian", "74th charge 4e Chasseurs à cheval", DiceThenStream([6] * 20)))
    assert "declares a charge at 4e Chasseurs" in said, said


def test_9_1_dismounted_cavalry_take_their_horses_again_in_column() -> None:
    """9.1 (RULING, RULINGS.md 9.1): `mount`, a later turn's formation change, puts the dismounted
    unit back on its horses in column, at the cavalry's rates again."""
    state, rng = table()
    horse = place(state, "4e Chasseurs à cheval", 20.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    order(state, "french", "4e Chasseurs à cheval dismount", rng)
    assert "4e-chasseurs mount" not in legal_texts(RS, state, "french")  # the turn's change is made
    finish_turn(state, DiceThenStream([3] * 40))
    start_turn(state, french_first=True)
    to_step(state, "Movement", rng)
    assert "4e-chasseurs mount" in legal_texts(RS, state, "french")
    assert "mounts and forms column" in text_of(order(state, "french", "4e Chasseurs à cheval mount", rng))
    assert horse.formation == "column" and not horse.dismounted


def test_10_10_1_breech_loaders_and_mitrailleuses_roll_2d6_a_gun() -> None:
    """10: "ARTILLERY" - three types of gun. 10.1: "Artillery has been divided into three types
    which are breech loaded, muzzle loaded and also include the mitrailleuse. To allow for the
    greater fire power of the Krupp breech loaded guns and the mitrailleuse they roll 2d6 per gun
    model when firing." A 2-gun Krupp battery and a 2-gun Mitrailleuse battery roll 4 dice; a
    2-gun muzzle loaded battery rolls 2. RULING (RULINGS.md 10.1): each of a gun's two dice is
    read on the chart on its own."""
    state, rng = table()
    place(state, "7e Batterie", 20.0, 34.0, 0.0)
    place(state, "8e Batterie", 50.0, 34.0, 0.0)
    place(state, "1st Heavy", 36.0, 12.0, 180.0)  # clear of the Prussians parked on their baseline
    place(state, "74th", 20.0, 20.0, 180.0)
    place(state, "39th", 50.0, 20.0, 180.0)
    place(state, "2e de Ligne", 36.0, 16.0, 0.0)
    to_step(state, "Shooting", rng)
    said = text_of(order(state, "french", "7e Batterie fire at 74th", DiceThenStream([1] * 10)))
    assert len(dice_rolled(said, "7e Batterie")) == 2
    said = text_of(order(state, "french", "8e Batterie fire at 39th", DiceThenStream([1] * 10)))
    assert len(dice_rolled(said, "8e Batterie")) == 4
    order(state, "french", "next", rng)
    said = text_of(order(state, "prussian", "1st Heavy fire at 2e de Ligne", DiceThenStream([1] * 10)))
    assert len(dice_rolled(said, "1st Heavy")) == 4


def test_10_1_a_battery_shoots_at_one_target_a_turn() -> None:
    """10.1: "A battery cannot shoot at more than one target in a turn, unless multiple units are
    charging it." Having fired at the 74th, the 7e Batterie may not fire at the 39th."""
    state, rng = table()
    place(state, "7e Batterie", 36.0, 34.0, 0.0)
    place(state, "74th", 30.0, 20.0, 180.0)
    place(state, "39th", 44.0, 20.0, 180.0)
    to_step(state, "Shooting", rng)
    order(state, "french", "7e Batterie fire at 74th", rng)
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "french", "7e Batterie fire at 39th")


def test_10_2_foot_artillery_crews_may_stand_by_their_guns_when_charged() -> None:
    """10.2: "Artillery crews were generally well trained and tended to stand by their guns when
    charged although they might evade" - charged by the 2nd Hussars, the 7e Batterie's crews are
    asked, and may answer `stand`: they stay with their guns."""
    state, _ = table(french_first=False)
    battery = place(state, "7e Batterie", 36.0, 30.0, 0.0)
    place(state, "2nd Hussars", 36.0, 18.0, 180.0)  # 10" apart, edge to edge
    declare(state, "prussian", "2nd Hussars charge 7e Batterie", [6] * 20)
    assert RS.to_act(state) == ["french"], "the charged battery's side is not asked to stand or evade"
    order(state, "french", "7e Batterie stand", DiceThenStream([6] * 20))
    assert (battery.x, battery.y) == (36.0, 30.0)


def test_10_2_foot_artillery_crews_evade_behind_friendly_infantry() -> None:
    """10.2: "... although they might evade behind cover or a friendly infantry unit." Charged by the
    2nd Hussars, the 7e Batterie's crews evade to the rear of the 63e de Ligne beside them; the guns
    stay where they stood (17.4.16: "evading artillery crews leave their guns where they left them").
    RULING (RULINGS.md 10.2): the crews go on foot up to half an infantry skirmish move (4" on the
    house sheet), so a friend whose rear is 8.7" off is out of their reach; the bot keeps no piece
    for the crews, so it checks the reach and says where they went."""
    state, _ = table(french_first=False)
    battery = place(state, "7e Batterie", 36.0, 30.0, 0.0)  # 2 guns: x 35-37, y 29.25-30.75
    place(state, "63e de Ligne", 50.0, 33.0, 0.0)  # line x 44-56: its rear corner 8.7" from the guns
    place(state, "2nd Hussars", 36.0, 18.0, 180.0)
    declare(state, "prussian", "2nd Hussars charge 7e Batterie", [6] * 20)
    with pytest.raises(IllegalOrder, match=r"8\.73\" from .*4\" at most \(10\.2"):
        RS.parse_order(state, "french", "7e Batterie evade behind 63e de Ligne")
    place(state, "63e de Ligne", 44.5, 31.0, 0.0)  # line x 38.5-50.5: its rear corner 2.9" from the guns
    assert "7e-batterie evade behind 63e-ligne" in {o.text for o in RS.legal_orders(state, "french")}
    said = text_of(order(state, "french", "7e Batterie evade behind 63e de Ligne", DiceThenStream([6] * 20)))
    assert "The crew of 7e Batterie (4-pdr) leave their guns and evade behind 63e de Ligne (10.2)" in said, said
    assert (battery.x, battery.y) == (36.0, 30.0)


def test_10_2_foot_artillery_crews_evade_behind_cover_within_their_reach() -> None:
    """10.2: crews "might evade behind cover". RULING (RULINGS.md 10.2): a wood 3" from the guns is
    within the crews' 4" on foot; one 6" off is not. The guns stay where they stood."""
    state, _ = table(french_first=False)
    battery = place(state, "7e Batterie", 36.0, 30.0, 0.0)  # its middle at x 36
    piece(state, "light-wood", "Bois Vert", 39.0, 28.0, 44.0, 34.0)  # 3" from the middle of the guns
    piece(state, "light-wood", "Bois Noir", 20.0, 28.0, 30.0, 34.0)  # 6" off
    place(state, "2nd Hussars", 36.0, 18.0, 180.0)
    declare(state, "prussian", "2nd Hussars charge 7e Batterie", [6] * 20)
    with pytest.raises(IllegalOrder, match=r"Bois Noir is 6\" from .*4\" at most"):
        RS.parse_order(state, "french", "7e Batterie evade into Bois Noir")
    said = text_of(order(state, "french", "7e Batterie evade into Bois Vert", DiceThenStream([6] * 20)))
    assert "leave their guns and evade into Bois Vert (17.4.16)" in said, said
    assert (battery.x, battery.y) == (36.0, 30.0)


def outpost() -> tuple[State, Rng]:
    """The outpost scenario (the advance guards: the Prussians have a horse battery), set out with
    no terrain and turn 1 begun, the French first; units are placed by each test."""
    state, rng = new_game("outpost", scouting="no")
    ready_both(state, rng)
    state.terrain.clear()
    for i, u in enumerate(state.units):
        u.formation, u.facing = "column", 0.0 if u.side == "french" else 180.0
        u.x, u.y = 4.0 + 6.0 * (i % 12), 44.0 if u.side == "french" else 4.0
        if u.type == "general":
            u.quality = "capable"
    start_turn(state)
    return state, rng


def _horse_battery_fired(limber_casualties: int = 0) -> tuple[State, Rng, Unit]:
    """The 4th Horse Battery (with that many limber casualties) fires at the 1er Tirailleurs in
    turn 1's Shooting phase; returned in the Prussians' part of the Movement phase."""
    state, rng = outpost()
    battery = place(state, "4th Horse Battery", 36.0, 14.0, 180.0)
    battery.limber_casualties = limber_casualties
    place(state, "1er Tirailleurs", 36.0, 36.0, 0.0)
    to_step(state, "Shooting", rng)
    order(state, "french", "next", rng)
    order(state, "prussian", "4th Horse Battery fire at 1er Tirailleurs", rng)
    to_step(state, "Movement", rng)
    order(state, "french", "next", rng)
    return state, rng, battery


def test_10_3_horse_artillery_can_shoot_and_limber_and_move() -> None:
    """10.3: "Horse Artillery can shoot and limber and move" - the 4th Horse Battery fires in the
    Shooting phase, then limbers (forms column) and moves in the same turn's Movement phase."""
    state, rng, battery = _horse_battery_fired()
    order(state, "prussian", "4th Horse Battery form column", rng)
    order(state, "prussian", "4th Horse Battery move 1", rng)  # what the half allowance left leaves
    assert battery.formation == "column" and battery.y > 14.0


def test_10_3_a_horse_battery_counts_limber_casualties_and_at_two_moves_as_foot_artillery() -> None:
    """10.3: "If a Horse battery suffers two limber casualties, or is reduced to four horses, it may
    only move as limbered foot artillery." RULING (RULINGS.md 10.3): on a horse battery the house
    Damage to Artillery chart's "limber or team lost" is one limber casualty (it may still limber);
    at two it loses what only horse artillery may do: shoot and then limber in one turn, and evade
    with its guns (the house movement sheet gives horse and foot batteries the same rate)."""
    state, rng = outpost()
    battery = place(state, "4th Horse Battery", 36.0, 14.0, 180.0)
    place(state, "9e Batterie", 36.0, 18.25, 0.0)
    to_step(state, "Shooting", rng)
    order(state, "french", "9e Batterie fire at 4th Horse Battery", DiceThenStream([6] * 40))
    hits = battery.pending_hits
    assert hits >= 1
    order(state, "french", "next", rng)
    said = text_of(order(state, "prussian", "next", DiceThenStream([4] * hits)))
    assert battery.limber_casualties == hits and not battery.team_lost, said
    assert "for horse artillery a limber casualty (1 of 2, 10.3)" in said, said
    for casualties, as_horse in ((1, True), (2, False)):
        state, rng, battery = _horse_battery_fired(casualties)
        if as_horse:
            order(state, "prussian", "4th Horse Battery form column", rng)
        else:
            with pytest.raises(IllegalOrder, match="limbered foot artillery"):
                RS.parse_order(state, "prussian", "4th Horse Battery form column")
        assert ("moves only as limbered foot artillery" in " ".join(RS.view(state, "french").status)) is not as_horse
        # charged while limbered: with its horses it evades with its guns; without, the crews leave them
        state, _ = outpost()
        battery = place(state, "4th Horse Battery", 36.0, 14.0, 180.0, "column")
        battery.limber_casualties = casualties
        place(state, "3e Hussards", 36.0, 26.0, 0.0, "line")
        declare(state, "french", "3e Hussards charge 4th Horse Battery", [6] * 20)
        said = text_of(order(state, "prussian", "4th Horse Battery evade", DiceThenStream([6] * 20)))
        assert (battery.y < 14.0) is as_horse, (casualties, said)


def test_10_3_foot_artillery_that_fired_may_not_limber_that_turn() -> None:
    """10.3: "Horse Artillery can shoot and limber and move or they can move and deploy (but not
    fire) in the Movement Phase." Only horse artillery may shoot and then limber in one turn.
    RULING (RULINGS.md 10.3): a foot battery that fired this turn may not limber (form column)
    in that turn's Movement phase; one that did not fire may."""
    state, rng = table()
    place(state, "7e Batterie", 20.0, 34.0, 0.0)
    place(state, "8e Batterie", 50.0, 34.0, 0.0)
    place(state, "74th", 20.0, 20.0, 180.0)
    to_step(state, "Shooting", rng)
    order(state, "french", "7e Batterie fire at 74th", rng)
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match=r"10\.3"):
        RS.parse_order(state, "french", "7e Batterie form column")
    order(state, "french", "8e Batterie form column", rng)


def test_11_the_bridge_demolition_roll_destroys_a_span_on_5_or_6() -> None:
    """11: "During the 3rd or 6th turn, 1d6 is rolled with 5 or 6 destroying a 1\" span of the
    bridge. Only one attempt may be made to destroy a bridge." The book's check `check demolish`
    reads 5 and 6 as a span destroyed, 1 to 4 as the attempt failing."""
    for face, destroyed in ((4, False), (5, True), (6, True), (1, False)):
        state, _ = table()
        said = text_of(order(state, "french", "check demolish about the Saar bridge", DiceThenStream([face])))
        assert ("span of the bridge is destroyed" in said) is destroyed, (face, said)
        assert ("only one attempt" in said) is not destroyed


def bridged(kind: str = "bridge") -> tuple[State, Rng]:
    """A river across the table (y 20-24) with a 6" wide bridge over it (x 33-39), the Génie
    detachment beside the bridge's south end and the 2e de Ligne in column at the bridge's foot."""
    state, rng = table()
    piece(state, "river", "the Saar", 0.0, 20.0, 72.0, 24.0)
    piece(state, kind, "the old bridge", 33.0, 19.5, 39.0, 24.5)
    place(state, "Génie detachment", 32.0, 25.5, 0.0, "column")
    place(state, "2e de Ligne", 36.0, 26.0, 0.0, "column")  # stands y 24.5-27.5, 4 wide
    to_step(state, "Movement", rng)
    return state, rng


def demolish_over_turns(state: State, rng: Rng, phases: int, last_die: int) -> str:
    """Say the demolition in ``phases`` successive Movement phases, the last with ``last_die``."""
    said = ""
    for phase in range(1, phases + 1):
        if phase > 1:
            next_movement(state, rng)
        dice = DiceThenStream([last_die]) if phase == phases else rng
        said = text_of(order(state, "french", "Génie detachment demolish the old bridge", dice))
    return said


def test_11_engineers_need_three_quiet_movement_phases_to_demolish_a_wooden_bridge() -> None:
    """11: "Engineers and their attached Pioneers can try to destroy bridges. They need three
    movement phases with no other activity to demolish wooden bridges (six phases for stone
    bridges). During the 3rd or 6th turn, 1d6 is rolled with 5 or 6 destroying a 1\" span of the
    bridge." The Génie detachment works at the old (wooden) bridge in three successive Movement
    phases; on the third a 5 destroys a span in mid-stream and the 2e de Ligne, which could march
    over the bridge before, can no longer cross the river there."""
    state, rng = bridged()
    RS.parse_order(state, "french", "2e de Ligne move 8")  # over the bridge: legal while it stands
    first = text_of(order(state, "french", "Génie detachment demolish the old bridge", rng))
    assert "1 of 3" in first, first
    next_movement(state, rng)
    assert "2 of 3" in text_of(order(state, "french", "Génie detachment demolish the old bridge", rng))
    assert "the old bridge (demolition 2/3)" in [t.label for t in RS.view(state, "prussian").board.table_terrain]
    next_movement(state, rng)
    said = text_of(order(state, "french", "Génie detachment demolish the old bridge", DiceThenStream([5])))
    assert "1d6 = 5" in said and "span of the bridge is destroyed" in said, said
    with pytest.raises(IllegalOrder, match="cannot cross the Saar"):
        RS.parse_order(state, "french", "2e de Ligne move 8")
    halves = sorted(t.points[0][1] for t in state.terrain if t.name == "the old bridge")
    assert len(halves) == 2, state.terrain  # the bridge stands on either bank, a 1" gap between
    gap = [p[1] for t in state.terrain if t.name == "the old bridge" for p in t.points]
    assert 21.5 in gap and 22.5 in gap and not [y for y in gap if 21.5 < y < 22.5]
    assert any("old bridge span destroyed" in line for line in RS.summary(state))


def test_11_a_stone_bridge_takes_six_phases_and_the_attempt_is_rolled_only_on_the_sixth() -> None:
    """11: "(six phases for stone bridges). During the 3rd or 6th turn, 1d6 is rolled". A stone
    bridge (terrain type stone-bridge, RULINGS.md 11) is not rolled for on the third phase."""
    state, rng = bridged("stone-bridge")
    third = demolish_over_turns(state, rng, 3, 6)
    assert "3 of 6" in third and "1d6" not in third, third
    for _ in range(3):
        next_movement(state, rng)
        said = text_of(order(state, "french", "Génie detachment demolish the old bridge", DiceThenStream([6])))
    assert "1d6 = 6" in said and "span of the bridge is destroyed" in said, said


def test_11_only_one_attempt_may_be_made_to_destroy_a_bridge() -> None:
    """11: "Only one attempt may be made to destroy a bridge." A 4 on the third phase leaves the
    bridge standing (still crossed) and a second attempt is refused."""
    state, rng = bridged()
    said = demolish_over_turns(state, rng, 3, 4)
    assert "1d6 = 4" in said and "only one attempt" in said, said
    RS.parse_order(state, "french", "2e de Ligne move 8")
    next_movement(state, rng)
    with pytest.raises(IllegalOrder, match="only one attempt"):
        RS.parse_order(state, "french", "Génie detachment demolish the old bridge")
    assert not [t for t in legal_texts(RS, state, "french") if "demolish" in t]


def test_11_with_no_other_activity_an_interrupted_demolition_starts_again() -> None:
    """11: "three movement phases with no other activity". RULING (RULINGS.md 11): the engineer
    neither moves, fires nor changes formation in a turn he works (a move after the work is
    refused), and a Movement phase without the work, or with other activity, starts it again."""
    state, rng = bridged()
    order(state, "french", "Génie detachment demolish the old bridge", rng)
    with pytest.raises(IllegalOrder, match="at work this turn"):
        RS.parse_order(state, "french", "Génie detachment move 1")
    next_movement(state, rng)
    order(state, "french", "Génie detachment move 0.5", rng)  # other activity instead of the work
    with pytest.raises(IllegalOrder, match="moved this turn"):
        RS.parse_order(state, "french", "Génie detachment demolish the old bridge")
    next_movement(state, rng)
    said = text_of(order(state, "french", "Génie detachment demolish the old bridge", rng))
    assert "1 of 3" in said and "starts again" in said, said


def test_11_only_engineers_at_a_bridge_demolish_it() -> None:
    """11: "Engineers and their attached Pioneers can try to destroy bridges." Infantry may not; an
    engineer more than 1\" from the bridge (house reach) may not; a river is not a bridge; and
    only in the Movement phase. The legal orders offer the demolition only when it is legal."""
    state, rng = bridged()
    assert "french-engineers demolish the old bridge" in legal_texts(RS, state, "french")
    with pytest.raises(IllegalOrder, match="not an engineer"):
        RS.parse_order(state, "french", "2e de Ligne demolish the old bridge")
    with pytest.raises(IllegalOrder, match="not a bridge"):
        RS.parse_order(state, "french", "Génie detachment demolish the Saar")
    place(state, "Génie detachment", 29.0, 26.0, 0.0, "column")
    with pytest.raises(IllegalOrder, match=r"within 1\""):
        RS.parse_order(state, "french", "Génie detachment demolish the old bridge")
    assert not [t for t in legal_texts(RS, state, "french") if "demolish" in t]
    finish_turn(state, rng)
    start_turn(state)
    with pytest.raises(WrongPhase):
        RS.parse_order(state, "french", "Génie detachment demolish the old bridge")


def test_11_an_engineer_removes_a_1_inch_wide_obstacle_per_movement_phase() -> None:
    """11: "To remove an obstacle, such as a roadblock, an Engineer and two Pioneer stands can
    remove a 1\" wide obstacle per Movement Phase with no other activity (no movement, firing or
    formation change)." The Génie detachment at a 6\" wall takes out 1\" of it in one Movement
    phase and the next 1\" beside the gap in the next; the wall is left in two parts."""
    state, rng = table()
    piece(state, "wall", "the wall", 30.0, 20.0, 36.0, 20.5)
    place(state, "Génie detachment", 33.0, 21.2, 0.0, "column")
    to_step(state, "Movement", rng)
    piece(state, "light-wood", "the copse", 33.0, 22.0, 36.0, 25.0)
    with pytest.raises(IllegalOrder, match="not an obstacle"):
        RS.parse_order(state, "french", "Génie detachment clear the copse")
    assert "french-engineers clear the wall" in legal_texts(RS, state, "french")
    said = text_of(order(state, "french", "Génie detachment clear the wall", rng))
    assert "removes 1\" of the wall" in said, said
    assert not [t for t in legal_texts(RS, state, "french") if t.startswith("french-engineers")]  # nothing else now
    xs = sorted({p[0] for t in state.terrain if t.name == "the wall" for p in t.points})
    assert xs == [30.0, 32.5, 33.5, 36.0], xs
    with pytest.raises(IllegalOrder, match="already worked this Movement phase"):
        RS.parse_order(state, "french", "Génie detachment clear the wall")
    next_movement(state, rng)
    order(state, "french", "Génie detachment clear the wall", rng)
    xs = sorted({p[0] for t in state.terrain if t.name == "the wall" for p in t.points})
    assert len(xs) == 4 and xs[0] == 30.0 and xs[-1] == 36.0 and xs[2] - xs[1] == pytest.approx(2.0), xs


def test_10_3_limbered_horse_artillery_evade_with_their_guns() -> None:
    """10.3: "Limbered Horse artillery may evade with their guns if charged as long as they are not
    contacted during the 1st impulse move." Charged by the 3e Hussards from 10", the limbered 4th
    Horse Battery evades, guns and all, directly away; a deployed battery's crews leave the guns."""
    for formation, moves in (("column", True), ("line", False)):
        state, _ = outpost()
        battery = place(state, "4th Horse Battery", 36.0, 14.0, 180.0, formation)
        place(state, "3e Hussards", 36.0, 26.0, 0.0, "line")
        declare(state, "french", "3e Hussards charge 4th Horse Battery", [6] * 20)
        said = text_of(order(state, "prussian", "4th Horse Battery evade", DiceThenStream([6] * 20)))
        assert (battery.y < 14.0) is moves, (formation, said)
        assert ("leave their guns" in said) is not moves


def test_10_3_a_limbered_battery_does_not_fire() -> None:
    """10.3: "Horse Artillery can shoot and limber and move or they can move and deploy (but not
    fire) in the Movement Phase"; 10.1: "while limbered it is a dense target and when deployed it is
    a line target". The 7e Batterie in column (limbered) may neither fire nor keep its fire for
    defensive fire, nor is a shot offered; deployed (in line) it fires. (Found playing the meeting
    scenario: a battery set out in column fired every turn.)"""
    state, rng = table()
    battery = place(state, "7e Batterie", 36.0, 34.0, 0.0, "column")
    place(state, "74th", 36.0, 24.0, 180.0)
    to_step(state, "Shooting", rng)
    with pytest.raises(IllegalOrder, match="limbered"):
        RS.parse_order(state, "french", "7e Batterie fire at 74th")
    with pytest.raises(IllegalOrder, match="limbered"):
        RS.parse_order(state, "french", "7e Batterie reserve fire")
    assert not [t for t in legal_texts(RS, state, "french") if t.startswith("7e-batterie fire")]
    battery.formation = "line"
    assert "fire at" in text_of(order(state, "french", "7e Batterie fire at 74th", rng))
