"""Charges on the measured table (book 17.2.2-17.2.5, 17.3.1, 17.4.10-17.4.13, 17.4.16): the Being
Charged test after the 1st Impulses and its answers (stand, evade), the caught rule, who may charge
whom and shoot after, opportunity, counter and feint charges, evading (off the table and back) and
defensive fire; one test per rule, dice scripted (house Being Charged chart: 1d6 by Class)."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.errors import IllegalOrder
from games.core.rng import Rng
from games.core.ruleset import Event, legal_texts
from games.days_of_iron.data import house
from games.days_of_iron.rules.charges_17_2 import gap
from games.days_of_iron.rules.formations_12 import base
from games.days_of_iron.state import EVADED_OFF, HIDDEN, ROUTING, STEPS, State, Unit
from tests.console import run_script
from tests.days_of_iron.helpers import RS, declare, new_game, order, ready_both, start_turn, unit
from tests.scripted import DiceThenStream


def face_off(state: State, apart: float = 6.0) -> tuple[Unit, Unit]:
    """The 2e de Ligne (French, Class 2) and the 74th (Prussian, Class 3) in line, facing each
    other ``apart`` inches apart (edge to edge; stands are 1" deep)."""
    ligne, prussian = unit(state, "2e de Ligne"), unit(state, "74th")
    for u, y, facing in ((ligne, 30.0, 0.0), (prussian, 29.0 - apart, 180.0)):
        u.formation, u.x, u.y, u.facing = "line", 36.0, y, facing
    return ligne, prussian


def game(apart: float = 6.0, *, french_first: bool = True) -> tuple[State, Rng, Unit, Unit]:
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    ligne, prussian = face_off(state, apart)
    start_turn(state, french_first=french_first)
    return state, rng, ligne, prussian


def to_step(state: State, step: str, rng: Rng) -> list[str]:
    texts: list[str] = []
    while STEPS[state.step] != step:
        texts += [e.text for e in order(state, RS.to_act(state)[0], "next", rng)]
    return texts


def text_of(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def test_the_charged_unit_takes_its_being_charged_test_when_the_1st_impulses_are_done() -> None:
    state, rng, _ligne, prussian = game()
    events = order(state, "french", "2e de Ligne charge 74th", rng)
    assert "2e de Ligne declares a charge at 74th Infantry: the To Charge tests are taken once all charges are " \
           "declared (17.2.2)." in text_of(events)
    order(state, "french", "next", rng)
    with pytest.raises(IllegalOrder, match="has no Being Charged test to take"):  # not until the charges are tested
        RS.parse_order(state, "prussian", "74th stand")
    # the Prussians declare nothing: their `next` takes the To Charge test (4: passes), makes the 1st
    # Impulse, and the 74th (no evade open to it) tests and stands or fails (Class 3, 1d6 = 2: disordered)
    events = order(state, "prussian", "next", DiceThenStream([4, 2]))
    assert "74th Infantry takes its Being Charged test when the 1st Impulses are done (17.2.2): `74th stand`." \
        in text_of(events)
    assert "74th Infantry: Being Charged test (Being Charged test (house), class-3): 1d6 = 2: DISORDERED: it is " \
           "disordered and halted (17.2.8, 17.2.10)." in text_of(events)
    assert prussian.order == "disordered" and prussian.halted and STEPS[state.step] == "Shooting"


def test_stand_answers_the_charge_with_the_test_and_a_bad_roll_routs() -> None:
    state, _rng, _ligne, prussian = game()
    events = declare(state, "french", "2e de Ligne charge 74th", [4, 5])
    assert "1d6 = 5: STAND: it stands." in text_of(events) and prussian.order == "good"
    assert prussian.tested_turn == state.turn and STEPS[state.step] == "Shooting"  # tested once, the phase over
    # the 40e (Class 1) charged by the 77th routs on a 2
    state, _rng, _, _ = game(french_first=False)
    forty, seventy_seventh = unit(state, "40e de Ligne"), unit(state, "77th")
    for u, y, facing in ((forty, 30.0, 0.0), (seventy_seventh, 25.0, 180.0)):
        u.formation, u.x, u.y, u.facing = "line", 10.0, y, facing
    events = declare(state, "prussian", "77th charge 40e de Ligne", [4, 2])
    assert "1d6 = 2: ROUT: it routs away from 77th Infantry." in text_of(events)
    assert "40e de Ligne routs (charged by 77th Infantry): initial rout of" in text_of(events)
    assert forty.status == ROUTING and forty.rout_bearing == pytest.approx(180.0) and forty.y > 30.0


@pytest.mark.slow
def test_a_target_charged_from_close_is_caught_no_test_no_evade_no_formation_change() -> None:
    state, rng, ligne, _prussian = game(apart=2.0)  # foot: within 2" (17.2.3)
    events = declare(state, "french", "2e de Ligne charge 74th", [4])
    assert "74th Infantry is caught (2\" from 2e de Ligne, within 2\"): no Being Charged test" in text_of(events)
    assert STEPS[state.step] == "Shooting"
    texts = [e.text for e in events] + to_step(state, "Movement", rng)
    assert not any("Being Charged test (" in t for t in texts)  # no test rolled at the phase end
    order(state, "french", "next", rng)
    with pytest.raises(IllegalOrder, match="caught by a charge this turn: no formation change"):
        RS.parse_order(state, "prussian", "74th form column")
    # horse catches from 6": the 4e Chasseurs à cheval 5" from the 74th
    state, rng, ligne, _prussian = game(apart=5.0)
    chasseurs = unit(state, "4e Chasseurs à cheval")
    chasseurs.formation, chasseurs.x, chasseurs.y, chasseurs.facing = "line", 36.0, 30.0, 0.0
    ligne.x = 60.0
    events = declare(state, "french", "4e Chasseurs charge 74th", [4])
    assert "is caught (5\" from 4e Chasseurs à cheval, within 6\")" in text_of(events)


def test_infantry_never_charge_mounted_troops_and_artillery_never_charges() -> None:
    state, _rng, _ligne, _ = game()
    hussars = unit(state, "2nd Hussars")
    hussars.formation, hussars.x, hussars.y, hussars.facing = "line", 36.0, 26.0, 180.0
    with pytest.raises(IllegalOrder, match=r"infantry cannot charge mounted troops; 2nd Hussars is cavalry \(17.2.4\)"):
        RS.parse_order(state, "french", "2e de Ligne charge 2nd Hussars")
    with pytest.raises(IllegalOrder, match="only infantry and cavalry charge"):
        RS.parse_order(state, "french", "7e Batterie charge 74th")
    order(state, "french", "2e de Ligne charge 74th", DiceThenStream([1]))  # declared: once a turn
    with pytest.raises(IllegalOrder, match="once a turn"):
        RS.parse_order(state, "french", "2e de Ligne charge 74th")


def test_a_unit_whose_declared_charge_went_ahead_may_not_shoot() -> None:
    state, rng, _ligne, _prussian = game()
    declare(state, "french", "2e de Ligne charge 74th", [4, 5])
    to_step(state, "Shooting", DiceThenStream([5]))
    with pytest.raises(IllegalOrder, match=r"made a declared charge this turn and may not shoot \(17.2.5\)"):
        RS.parse_order(state, "french", "2e de Ligne fire at 74th")
    assert "2e-ligne fire at 74th" not in legal_texts(RS, state, "french")
    # a unit whose To Charge test failed may shoot
    state, rng, _ligne, _prussian = game()
    declare(state, "french", "2e de Ligne charge 74th", [1])
    to_step(state, "Shooting", rng)
    assert RS.parse_order(state, "french", "2e de Ligne fire at 74th").text == "2e-ligne fire at 74th"


@pytest.mark.slow
def test_an_opportunity_charge_in_the_movement_phase() -> None:
    state, rng, ligne, prussian = game(apart=2.5)
    to_step(state, "Movement", rng)
    assert "2e-ligne charge 74th" in legal_texts(RS, state, "french")
    # To Charge 4 (Class 2 passes), the 74th's Being Charged test at once 5 (stands), then half the
    # line's 6" straight ahead: 2.5" into contact
    events = order(state, "french", "2e de Ligne charge 74th", DiceThenStream([4, 5]))
    text = text_of(events)
    assert "2e de Ligne makes an opportunity charge at 74th Infantry (17.4.11)." in text
    assert "74th Infantry: Being Charged test (Being Charged test (house), class-3): 1d6 = 5: STAND" in text
    assert "2e de Ligne charges 2.5\" straight ahead: in contact with 74th Infantry" in text
    assert gap(ligne, prussian) < 0.05 and ligne.charging == prussian.id
    with pytest.raises(IllegalOrder, match="declared its charge this turn"):
        RS.parse_order(state, "french", "2e de Ligne charge 74th")


def test_a_skirmish_screen_evades_an_opportunity_charge_by_formed_troops() -> None:
    state, rng, ligne, screen = game(apart=2.5)
    screen.formation = "skirmish"
    to_step(state, "Movement", rng)
    y = screen.y
    events = order(state, "french", "2e de Ligne charge 74th", DiceThenStream([4, 5]))
    text = text_of(events)
    assert "74th Infantry: Being Charged test (Being Charged test (house), class-3): 1d6 = 5: STAND: passed, it evades." in text
    assert screen.y < y and "falls short of 74th Infantry" in text and gap(ligne, screen) > 1


def test_opportunity_charges_reach_half_the_move_and_after_shooting_only_2_inches() -> None:
    state, rng, ligne, _prussian = game(apart=3.5)
    to_step(state, "Shooting", rng)
    order(state, "french", "2e de Ligne fire at 74th", DiceThenStream([1] * 12))
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match=r"shot this turn: it may opportunity-charge only an enemy within 2\""):
        RS.parse_order(state, "french", "2e de Ligne charge 74th")
    ligne.fired_turn = 0
    with pytest.raises(IllegalOrder, match=r"beyond the 3\" of an opportunity charge \(half 2e de Ligne's move"):
        RS.parse_order(state, "french", "2e de Ligne charge 74th")
    # a unit that declared a charge in the Morale phase makes no opportunity charge
    state, rng, ligne, _prussian = game()
    order(state, "french", "2e de Ligne charge 74th", DiceThenStream([1]))
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match="an opportunity charge only by a unit that declared none"):
        RS.parse_order(state, "french", "2e de Ligne charge 74th")


def test_a_counter_charged_unit_tests_at_once() -> None:
    state, rng, ligne, _prussian = game()
    order(state, "french", "2e de Ligne charge 74th", rng)
    order(state, "french", "next", rng)
    order(state, "prussian", "74th charge 2e de Ligne", rng)
    # every charge declared: the 2e's To Charge 4 passes (1st Impulse 3": 3" apart now); the 74th's
    # counter charge: its To Charge 4 passes; the 2e tests at once: Class 2, 1d6 = 3: disordered
    events = order(state, "prussian", "next", DiceThenStream([4, 4, 3]))
    text = text_of(events)
    assert "74th Infantry declares a counter charge at 2e de Ligne." in text
    assert "2e de Ligne, counter charged (17.4.13): Being Charged test" in text
    assert "DISORDERED: it is disordered and halted and its own charge stops" in text
    assert not ligne.charging and ligne.halted


@pytest.mark.slow
def test_a_feint_charge_stops_the_charger_but_not_class_1() -> None:
    state, rng, ligne, _prussian = game()
    declare(state, "french", "2e de Ligne charge 74th", [4, 5])
    to_step(state, "Movement", DiceThenStream([5]))
    assert "2e-ligne feint" in legal_texts(RS, state, "french")
    y = ligne.y
    events = order(state, "french", "2e de Ligne feint", rng)
    assert "2e de Ligne makes a feint charge at 74th Infantry: it moves no further this turn (17.4.12)." in text_of(events)
    assert not ligne.charging and ligne.y == y
    with pytest.raises(IllegalOrder, match="has no charge under way"):
        RS.parse_order(state, "french", "2e de Ligne charge home")
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "french", "2e de Ligne move 1")
    # Class 1 troops cannot feint
    state, rng, ligne, _prussian = game()
    forty = unit(state, "40e de Ligne")
    forty.formation, forty.x, forty.y, forty.facing = ligne.formation, ligne.x, ligne.y, ligne.facing
    ligne.x = 60.0
    declare(state, "french", "40e de Ligne charge 74th", [5, 5])
    to_step(state, "Movement", DiceThenStream([5]))
    with pytest.raises(IllegalOrder, match="Class 1 troops cannot make feint charges"):
        RS.parse_order(state, "french", "40e de Ligne feint")


def test_a_skirmisher_evades_half_its_move_directly_away_keeping_its_formation() -> None:
    state, _rng, _ligne, prussian = game()
    prussian.formation = "skirmish"
    y, facing = prussian.y, prussian.facing
    events = declare(state, "french", "2e de Ligne charge 74th", [4, 5])  # a screen charged by formed troops evades
    half = house().movement.rates["infantry"].skirmish / 2
    assert f"74th Infantry evades {half:g}\" directly away from 2e de Ligne (17.4.16)." in text_of(events)
    assert prussian.y == pytest.approx(y - half) and prussian.facing == facing and prussian.formation == "skirmish"


def test_the_initiative_side_answers_with_an_evade_in_its_own_part_and_crews_leave_their_guns() -> None:
    state, rng, _ligne, _prussian = game(french_first=True)
    battery = unit(state, "7e Batterie")
    battery.formation, battery.x, battery.y, battery.facing = "line", 10.0, 40.0, 0.0
    uhlans = unit(state, "11th Uhlans")
    uhlans.formation, uhlans.x, uhlans.y, uhlans.facing = "line", 10.0, 31.0, 180.0
    order(state, "french", "next", rng)
    order(state, "prussian", "11th Uhlans charge 7e Batterie", rng)
    events = order(state, "prussian", "next", DiceThenStream([6]))
    assert "The French answer the charges: `7e-batterie evade` or `7e-batterie stand`" in text_of(events)
    assert STEPS[state.step] == "Morale" and RS.to_act(state) == ["french"]
    with pytest.raises(IllegalOrder, match="this part of the Morale phase is for answering them"):
        RS.parse_order(state, "french", "2e de Ligne charge 74th")
    x, y = battery.x, battery.y
    events = order(state, "french", "7e Batterie evade", DiceThenStream([6]))
    assert "The crew of 7e Batterie (4-pdr) leave their guns and evade" in text_of(events)
    assert (battery.x, battery.y) == (x, y)
    order(state, "french", "next", rng)
    assert STEPS[state.step] == "Shooting"
    with pytest.raises(IllegalOrder, match="has fired this turn"):
        RS.parse_order(state, "french", "7e Batterie fire at 11th Uhlans")


@pytest.mark.slow
def test_an_evade_off_the_table_comes_back_three_turns_later() -> None:
    state, rng, ligne, prussian = game()
    prussian.formation, prussian.y = "skirmish", 3.0  # 2.5" from the top edge, backing towards it
    ligne.y = 10.0
    events = declare(state, "french", "2e de Ligne charge 74th", [4, 6])
    assert f"evades off the table away from 2e de Ligne; it may come back in the Movement phase of turn {state.turn + 3}" \
        in text_of(events)
    assert prussian.status == EVADED_OFF and "74th" not in {c.id for c in RS.view(state, "french").counters}
    to_step(state, "Movement", rng)
    order(state, "french", "next", rng)
    with pytest.raises(IllegalOrder, match=f"may come back in turn {state.turn + 3}"):
        RS.parse_order(state, "prussian", "74th return")
    state.turn += 3
    ligne.y = 30.0
    assert "74th return" in legal_texts(RS, state, "prussian")
    events = order(state, "prussian", "74th return", rng)
    assert "74th Infantry comes back onto the table where it left it" in text_of(events)
    assert prussian.status == "on table" and min(p[1] for p in base(prussian).polygon()) >= -1e-6


def test_reserved_fire_shoots_at_the_charger_before_its_charge_home_test() -> None:
    state, rng, ligne, prussian = game()
    declare(state, "french", "2e de Ligne charge 74th", [4, 6])  # 3" apart after the 1st Impulse; it stands
    order(state, "french", "next", rng)
    assert "74th reserve fire" in legal_texts(RS, state, "prussian")
    events = order(state, "prussian", "74th reserve fire", rng)
    assert "74th Infantry holds its fire for defensive fire" in text_of(events)
    with pytest.raises(IllegalOrder, match="reserved its fire for defensive fire"):
        RS.parse_order(state, "prussian", "74th fire at 2e de Ligne")
    to_step(state, "Movement", rng)
    # 12 dice at 3" (close: house H on 5-6), then the Charge Home test
    faces = [6, 6, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5]
    events = order(state, "french", "2e de Ligne charge home", DiceThenStream(faces))
    text = text_of(events)
    assert text.index("74th Infantry defensive fire at 2e de Ligne (17.3.1)") < text.index("Charge Home test")
    assert "2e de Ligne loses" in text and ligne.stands < 12 and prussian.fired_turn == state.turn


def test_skirmishers_in_the_open_within_the_1st_impulse_rout_and_may_not_shoot() -> None:
    state, _rng, ligne, screen = game()
    fusiliers = unit(state, "39th Fusiliers")  # the formed target behind the screen, 6" ahead
    fusiliers.formation, fusiliers.x, fusiliers.y, fusiliers.facing = "line", 36.0, 23.0, 180.0
    screen.formation, screen.y = "skirmish", 27.5  # 1.5" in front of the 2e de Ligne
    events = declare(state, "french", "2e de Ligne charge 39th Fusiliers", [4])
    text = text_of(events)
    assert "74th Infantry, a skirmish screen in the open within 2e de Ligne's 1st Impulse, routs at once and may " \
           "not shoot this turn (17.2.7)." in text
    assert "74th Infantry routs (overrun by 2e de Ligne): initial rout" in text
    assert screen.status == ROUTING and screen.y < 27.5 and screen.fired_turn == state.turn
    assert "39th Fusiliers takes its Being Charged test" in text  # the charge goes on to its target
    # in a wood the screen is not overrun (the Bois de la Garenne: x 8-20, y 18-28)
    state, _rng, ligne, screen = game()
    fusiliers = unit(state, "39th Fusiliers")
    for u, y, facing in ((ligne, 30.0, 0.0), (fusiliers, 23.0, 180.0)):
        u.formation, u.x, u.y, u.facing = "line", 14.0, y, facing
    screen.formation, screen.x, screen.y, screen.stands = "skirmish", 14.0, 27.5, 4
    events = declare(state, "french", "2e de Ligne charge 39th Fusiliers", [4])
    assert "skirmish screen" not in text_of(events) and screen.status == "on table"


def test_a_skirmish_screen_charged_by_formed_troops_must_evade() -> None:
    state, _rng, _ligne, screen = game()
    screen.formation = "skirmish"
    y = screen.y
    events = declare(state, "french", "2e de Ligne charge 74th", [4, 6])  # no choice to make: it evades
    assert "74th Infantry evades 4\" directly away from 2e de Ligne" in text_of(events) and screen.y < y


def test_the_new_enemy_of_a_break_through_attack_tests_in_the_morale_phase() -> None:
    state, rng, ligne, prussian = game(apart=0.0)  # in contact
    prussian.breakthrough, prussian.breakthrough_turn = ligne.id, state.turn  # its pursuit reached the 2e (17.5.4)
    order(state, "french", "next", rng)
    # failing (Class 2, 1d6 = 3: any failure) it routs
    events = order(state, "prussian", "next", DiceThenStream([3]))
    text = text_of(events)
    assert "2e de Ligne, a Break-Through Attack by 74th Infantry (17.5.4): Being Charged test" in text
    assert "2e de Ligne routs (charged by 74th Infantry)" in text and ligne.status == ROUTING
    # passing, it stands but may not change formation (or evade) this turn
    state, rng, ligne, prussian = game(apart=0.0)
    prussian.breakthrough, prussian.breakthrough_turn = ligne.id, state.turn
    events = order(state, "french", "2e de Ligne stand", DiceThenStream([6]))
    assert "it stands; it may not change formation or evade this turn." in text_of(events)
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match="no formation change"):
        RS.parse_order(state, "french", "2e de Ligne form column")


def test_hidden_units_cannot_be_charged_and_are_never_offered() -> None:
    state, _rng, _ligne, prussian = game()
    prussian.status = HIDDEN
    with pytest.raises(IllegalOrder, match="is not an enemy on the table") as hidden:
        RS.parse_order(state, "french", "2e de Ligne charge 74th")
    prussian.status = "off board"
    with pytest.raises(IllegalOrder) as off:
        RS.parse_order(state, "french", "2e de Ligne charge 74th")
    assert str(hidden.value) == str(off.value)  # the same refusal: no probe tells a hidden unit
    prussian.status = HIDDEN
    assert not any("74th" in o for o in legal_texts(RS, state, "french"))


@pytest.mark.slow
def test_the_charges_console_script_plays_every_charge_rule() -> None:
    script = Path(__file__).resolve().parents[2] / "tests" / "scripts" / "days_of_iron" / "charges.txt"
    done = run_script(script)
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    out = done.stdout
    for wanted in (
        "`5th Jäger charge 3e Hussards`: infantry cannot charge mounted troops",
        "10th Uhlans declares a charge at 16e Chasseurs à pied. To Charge test",
        "16e Chasseurs à pied takes its Being Charged test when the 1st Impulses are done",
        "3e Hussards declares a counter charge at 10th Uhlans.",
        "10th Uhlans, counter charged (17.4.13): Being Charged test",
        "16e Chasseurs à pied evades 4\" directly away from 10th Uhlans (17.4.16).",
        "`10th Uhlans fire at 16e Chasseurs`: 10th Uhlans made a declared charge this turn and may not shoot (17.2.5).",
        "16e Chasseurs à pied defensive fire at 10th Uhlans (17.3.1)",
        "5th Jäger makes an opportunity charge at 9e Batterie (4-pdr) (17.4.11).",
        "`9e Batterie reserve fire`: 9e Batterie (4-pdr) is limbered: a battery fires only when deployed (10.1, 10.3).",
        "**Game over.**",
    ):
        assert wanted in out, wanted
    # defensive fire comes before the charger's Charge Home test (17.4.10)
    assert out.index("defensive fire at 10th Uhlans") < out.index("10th Uhlans: Charge Home test")
