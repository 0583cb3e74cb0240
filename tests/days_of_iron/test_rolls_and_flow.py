"""Initiative (17.1), disputes (3.4), the book's d6 checks, scouting (19.1-19.3) and the turn flow."""

from __future__ import annotations

import pytest

from games.core.errors import GameError, IllegalOrder, InvalidSyntax, NotYourTurn, UnknownName, WrongPhase
from games.core.ruleset import legal_texts
from tests.days_of_iron.helpers import RS, finish_turn, new_game, order, ready_both, start_turn
from tests.scripted import DiceThenStream


def test_initiative_rerolls_draws_and_the_higher_side_holds_it() -> None:
    state, rng = new_game("meeting")
    ready_both(state, rng)
    events = order(state, "prussian", "initiative", DiceThenStream([3, 3, 5, 5, 2, 4]))
    assert state.initiative == "prussian" and state.turn == 1
    assert "French 3, Prussians 3 / draw, re-roll: French 5, Prussians 5 / draw, re-roll: French 2, Prussians 4" in (
        events[0].text)
    assert RS.to_act(state) == ["prussian"]
    with pytest.raises(WrongPhase, match="already rolled"):
        RS.parse_order(state, "french", "initiative")


@pytest.mark.parametrize(("face", "winner"), [(1, "French"), (3, "French"), (4, "Prussians"), (6, "Prussians")])
def test_dispute_1_3_for_the_asking_side_4_6_for_the_other(face: int, winner: str) -> None:
    state, _ = new_game("meeting")
    events = order(state, "french", "dispute is the orchard light cover?", DiceThenStream([face]))
    assert f"1d6 = {face}: decided as the {winner} wish" in events[0].text
    assert "is the orchard light cover?" in events[0].text and events[0].reveals
    with pytest.raises(InvalidSyntax, match="the matter in dispute is missing"):
        RS.parse_order(state, "french", "dispute")


def test_book_checks() -> None:
    state, _ = new_game("meeting")
    assert "light wood" in order(state, "french", "check wood about the copse", DiceThenStream([3]))[0].text
    assert "heavy wood" in order(state, "french", "check wood", DiceThenStream([4]))[0].text
    assert "a ford is found" in order(state, "prussian", "check ford", DiceThenStream([6]))[0].text
    assert "span of the bridge is destroyed" in order(state, "prussian", "check demolish", DiceThenStream([5]))[0].text
    assert "unhurt" in order(state, "prussian", "check general-hit", DiceThenStream([5]))[0].text
    with pytest.raises(UnknownName, match="No check called `weather`"):
        RS.parse_order(state, "french", "check weather")


def test_scouting_points_and_out_scouting() -> None:
    state, rng = new_game("meeting")
    # 5e Chasseurs: 6 stands x 2 figures x 2 (Class 3) = 24; 4e: 6 x 2 x 1 = 12
    order(state, "french", "scout 5e Chasseurs", rng)
    order(state, "french", "scout 4e Chasseurs", rng)
    order(state, "prussian", "scout 11th Uhlans", rng)  # 8 x 2 x 1 = 16
    assert "5e Chasseurs" not in "\n".join(RS.view(state, None).status)
    events = ready_both(state, rng)
    text = events[0].text
    assert "Scouting points (19.2): French 36, Prussians 16." in text
    assert "The Prussians are out-scouted (19.3)" in text and "12\"" in text
    assert state.deploys_first == "prussian" and state.phase == "initiative"
    assert all(r.revealed for r in state.sealed)


def test_no_out_scouting_means_a_roll_off_lowest_places_first() -> None:
    state, _ = new_game("meeting")
    rng = DiceThenStream([2, 2, 2, 2, 2, 2, 2, 2, 5, 5, 6, 1])  # staff dice, then one draw and a re-roll
    order(state, "french", "scout 4e Chasseurs", rng)  # 12
    order(state, "prussian", "scout 2nd Hussars", rng)  # 24: a margin of 12 < 15
    events = ready_both(state, rng)
    assert "Nobody is out-scouted" in events[0].text
    assert "French 5, Prussians 5 / draw, re-roll: French 6, Prussians 1" in events[0].text
    assert state.deploys_first == "prussian"


def test_scouting_needs_the_option_and_light_cavalry() -> None:
    state, _ = new_game("spicheren")
    with pytest.raises(IllegalOrder, match="does not use the scouting rules"):
        RS.parse_order(state, "french", "scout 4e Chasseurs")
    state, rng = new_game("meeting")
    with pytest.raises(IllegalOrder, match="only light cavalry scouts"):
        RS.parse_order(state, "french", "scout 2e de Ligne")
    order(state, "french", "scout 4e Chasseurs", rng)
    with pytest.raises(IllegalOrder, match="already scouting"):
        RS.parse_order(state, "french", "scout 4e Chasseurs")
    state, _ = new_game("spicheren", scouting="yes")
    assert state.options["scouting"] == "yes"


def test_each_phase_the_initiative_side_acts_first() -> None:
    state, rng = new_game("meeting")
    ready_both(state, rng)
    assert RS.to_act(state) == ["french", "prussian"]
    start_turn(state, french_first=False)
    seen = []
    while state.phase == "turn":
        seat = RS.to_act(state)[0]
        seen.append((RS.summary(state)[0].split(":")[0], seat))
        with pytest.raises(NotYourTurn):
            RS.parse_order(state, "french" if seat == "prussian" else "prussian", "next")
        order(state, seat, "next", rng)
    assert [s for _, s in seen] == ["prussian", "french"] * 4
    assert state.phase == "initiative" and state.turn == 1


def test_shared_rolls_and_records_belong_to_the_acting_side() -> None:
    state, rng = new_game("spicheren", board="tape")  # objectives and losses recorded by hand
    ready_both(state, rng)
    start_turn(state)  # the French act first
    for text in ("dispute is the wall heavy cover?", "check wood", "objective Rotherberg prussian"):
        with pytest.raises(NotYourTurn, match="the French act now"):
            RS.parse_order(state, "prussian", text)
        RS.parse_order(state, "umpire", text)
        RS.parse_order(state, "french", text)
    order(state, "prussian", "loss 74th 1", rng)  # a side's own losses may be recorded at any time
    assert state.units[[u.id for u in state.units].index("74th")].stands == 11


def test_ending_needs_both_sides_after_a_close_assault_phase() -> None:
    state, rng = new_game("meeting")
    ready_both(state, rng)
    with pytest.raises(WrongPhase, match="after a turn's Close Assault"):
        RS.parse_order(state, "french", "end")
    start_turn(state)
    with pytest.raises(WrongPhase):
        RS.parse_order(state, "french", "end")
    finish_turn(state, rng)
    order(state, "french", "end", rng)
    assert RS.outcome(state) is None
    with pytest.raises(IllegalOrder, match="already asked"):
        RS.parse_order(state, "french", "end")
    start_turn(state)  # playing on clears the request
    finish_turn(state, rng)
    order(state, "french", "end", rng)
    order(state, "prussian", "end", rng)
    outcome = RS.outcome(state)
    assert outcome is not None and outcome.winner is None and "Both players agreed" in outcome.reason
    assert RS.to_act(state) == [] and legal_texts(RS, state, "french") == []
    with pytest.raises(WrongPhase, match="game is over"):
        RS.parse_order(state, "french", "initiative")


def test_turn_limit_and_umpire_end() -> None:
    state, rng = new_game("outpost", turns="2")
    ready_both(state, rng)
    for _ in range(2):
        start_turn(state)
        finish_turn(state, rng)
    assert RS.outcome(state) is not None and "turn limit (2)" in state.end_reason
    state, rng = new_game("outpost")
    ready_both(state, rng)
    start_turn(state)
    order(state, "umpire", "end", rng)
    assert "umpire ended" in state.end_reason


@pytest.mark.parametrize(
    ("seat", "text", "fragment"),
    [
        ("french", "", "Empty order"),
        ("french", "charge!", "`charge!` is not a Days of Iron order"),
        ("french", "hide 2e de Ligne", "where is it hidden"),
        ("french", "loss 74th 2", "the battle has not started"),
        ("french", "initiative", "the battle has not started"),
        ("umpire", "staff", "the umpire must name the side"),
        ("french", "staff now", "takes nothing more"),
        ("french", "cancel x", "cancel N"),
        ("french", "offboard Nowhere brigade", "No brigade called `Nowhere brigade`"),
        ("french", "objective Forbach french", "the battle has not started"),
        ("french", "morale 2e charge", "the battle has not started"),
    ],
)
def test_bad_orders_quote_the_input(seat: str, text: str, fragment: str) -> None:
    state, _ = new_game("spicheren")
    with pytest.raises(GameError) as err:
        RS.parse_order(state, seat, text)
    assert fragment in str(err.value)


@pytest.mark.parametrize(
    ("seat", "text", "fragment"),
    [
        ("french", "loss 74th 2", "belongs to the Prussians"),
        ("french", "loss 2e de Ligne 13", "has 12 stands; lose 1 to 12"),
        ("french", "loss 2e de Ligne", "write `loss UNIT N`"),
        ("french", "loss 7e Batterie 3", "has 2 guns"),
        ("french", "rally 2e de Ligne", "is not routing"),
        ("french", "killed 2e de Ligne", "`killed` is for Generals"),
        ("french", "destroyed Doëns", "`destroyed` is for units"),
        ("french", "objective Forbach nobody at all", "No objective called `Forbach nobody at`"),
        ("french", "objective Forbach", "write `objective NAME SIDE`"),
        ("french", "objective Forbach austrians", "No side called `austrians`"),
        ("french", "morale 2e de Ligne charge", "no morale table is loaded"),
        ("french", "table small-arms line", "no dice tables are loaded"),
        ("french", "dust Doëns", "announced in the Morale phase"),
        ("french", "hide 2e de Ligne at the wood", "belongs to the set-up"),
        ("prussian", "next", "the French act now (Shooting phase)"),
        ("french", "dispute " + "x" * 201, "too long"),
    ],
)
def test_bad_play_orders_quote_the_input(seat: str, text: str, fragment: str) -> None:
    state, rng = new_game("spicheren")
    ready_both(state, rng)
    start_turn(state)
    order(state, "french", "next", rng)
    order(state, "prussian", "next", rng)
    with pytest.raises(GameError) as err:
        RS.parse_order(state, seat, text)
    assert fragment in str(err.value)
    assert str(err.value).startswith("`" + text.strip()[:20])


def test_options_are_validated() -> None:
    with pytest.raises(UnknownName, match="Days of Iron has no option `weather`"):
        new_game("meeting", weather="fog")
    with pytest.raises(InvalidSyntax, match="staff=`prussian`"):
        new_game("meeting", staff="prussian")
    with pytest.raises(InvalidSyntax, match="turns"):
        new_game("meeting", turns="many")
    with pytest.raises(UnknownName, match="order of battle"):
        new_game("meeting", force1="british")
    state, _ = new_game("meeting", force1="french-advance-guard", force2="prussian-advance-guard")
    assert state.sides[0].force == "French advance guard"
