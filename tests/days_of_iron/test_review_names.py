"""A reviewer's game on the measured table: unit names typed without accents or misspelt, hand
records of routs and lost Generals, hidden units recorded at a place in the deployment zone (16.4),
and the objectives result worded as it stood (18.2)."""

from __future__ import annotations

import pytest

from games.core.errors import GameError, UnknownName
from games.core.ruleset import UMPIRE, legal_texts
from games.days_of_iron.orders import Move
from games.days_of_iron.rules.victory_18 import result
from games.days_of_iron.state import State
from tests.days_of_iron.helpers import RS, copse, finish_turn, new_game, order, ready_both, start_turn, unit


def playing(scenario: str = "meeting", **options: str) -> State:
    state, rng = new_game(scenario, 1, **{"scouting": "no", **options})
    ready_both(state, rng)
    start_turn(state)
    return state


def movement(state: State) -> None:
    while not (state.phase == "turn" and state.step == 2):
        order(state, UMPIRE, "next", new_game()[1])


def refusal(state: State, seat: str, text: str) -> GameError:
    with pytest.raises(GameError) as err:
        RS.parse_order(state, seat, text)
    return err.value


# --- 1. names -------------------------------------------------------------------------------------


def test_names_typed_without_their_accents_find_the_unit() -> None:
    state = playing()
    movement(state)
    chasseurs = RS.parse_order(state, "french", "5e Chasseurs a cheval move 14")
    assert isinstance(chasseurs, Move) and chasseurs.unit == unit(state, "5e Chasseurs à cheval").id
    order(state, UMPIRE, "next", new_game()[1])  # the Prussian part of the Movement phase
    assert RS.parse_order(state, "prussian", "8th Jager move 6") == Move("8th-jager", 6.0)  # short of the wood


@pytest.mark.parametrize(("text", "typed", "closest"), [
    ("2e de Lgne form line", "2e de Lgne", "2e de Ligne"),
    ("24e Ligne move 12 forced", "24e Ligne", "24e de Ligne"),
    ("measure 2e de Lgne to 74th", "2e de Lgne", "2e de Ligne"),
    ("2e de Lgne surrender", "2e de Lgne", "2e de Ligne"),
])
def test_a_misspelt_unit_is_refused_as_an_unrecognised_name_with_the_closest(text: str, typed: str, closest: str) -> None:
    state = playing()
    movement(state)  # the French part
    err = refusal(state, "french", text)
    assert isinstance(err, UnknownName)
    assert f"No unit called `{typed}`." in err.message
    assert err.hint.startswith(f"Closest: {closest}, ")
    assert "expected `rout`" not in err.text


def test_a_misspelt_target_suggests_the_closest_few_not_every_unit() -> None:
    state = playing()
    err = refusal(state, "french", "2e de Ligne fire at 74h")
    assert isinstance(err, UnknownName) and "`74h`" in err.message
    assert err.hint.startswith("Closest: 74th Infantry, ")
    assert "Rheinbaben" not in err.text and "Known:" not in err.text


# --- 2. hand records of routs and lost Generals -----------------------------------------------------


def test_players_may_not_rout_or_lose_generals_by_hand_on_the_measured_table() -> None:
    state = playing()
    ligne = unit(state, "2e de Ligne")
    for text in ("rout 2e de Ligne", "killed Doëns", "captured Doëns"):
        err = refusal(state, "french", text)
        assert "decided on the measured table" in err.message, text
    assert "fail a morale test (17.2)" in refusal(state, "french", "rout 2e de Ligne").message
    order(state, UMPIRE, "rout 2e de Ligne", new_game()[1])  # the umpire may correct the table
    assert ligne.status == "routing"
    tape = playing(board="tape")
    order(tape, "french", "rout 2e de Ligne", new_game()[1])  # the table assistant records it
    assert unit(tape, "2e de Ligne").status == "routing"


def test_the_measured_tables_order_list_offers_players_no_hand_records() -> None:
    hand = ("rout ", "killed ", "captured ", "loss ", "routed-off ", "destroyed ")
    state = playing()
    listed = legal_texts(RS, state, "french")
    assert listed and not [t for t in listed if t.startswith(hand)]
    assert any(t.startswith("rout ") for t in legal_texts(RS, state, UMPIRE))
    tape = playing(board="tape")
    assert any(t.startswith("rout ") for t in legal_texts(RS, tape, "french"))


# --- 3. hidden units at a place in the deployment zone ----------------------------------------------


def test_a_hidden_unit_is_recorded_in_the_zone_and_revealed_where_it_was_written() -> None:
    state, rng = new_game("outpost", 1, scouting="no")
    for side in ("french", "prussian"):
        order(state, side, "staff", rng)
    err = refusal(state, "prussian", "hide 5th Jäger at in the wood")
    assert "X Y" in err.message and "deployment zone of the Prussians, the top 12\"" in err.message
    assert "`hide UNIT at X Y [facing DEGREES]" in refusal(state, "prussian", "hide 5th Jager").hint
    err = refusal(state, "prussian", "hide 5th Jager at 20 30")
    assert "would stand outside the deployment zone of the Prussians" in err.message
    assert "(x 0 to 48, y 0 to 12)" in err.message
    hide = RS.parse_order(state, "prussian", "hide 5th Jager at 20\" 6\" facing 200 line")
    assert hide.text == "hide 5th-jager at 20 6 facing 200 in line"
    events = RS.apply(state, "prussian", hide, rng)
    public = [e.text for e in events if e.to is None]
    assert public and not any("20 6" in t or "Jäger" in t for t in public)  # the place stays sealed
    ready_both(state, rng)
    copse(state, 20, 6)  # hidden in a wood, unseen by the French (16.3, 16.4)
    jager = unit(state, "5th Jäger")
    assert (jager.x, jager.y, jager.facing, jager.formation) == (20, 6, 200, "line")
    start_turn(state, french_first=False)
    text = " ".join(e.text for e in order(state, "prussian", "reveal 5th Jäger", rng))
    assert "It stands at (20\", 6\") facing 200 in line" in text
    assert (jager.x, jager.y, jager.status) == (20, 6, "on table")


def test_the_set_up_list_offers_a_place_in_the_zone_that_the_rules_accept() -> None:
    state, rng = new_game("outpost", 1, scouting="no")
    order(state, "french", "staff", rng)
    offered = [t for t in legal_texts(RS, state, "french") if t.startswith("hide ")]
    assert offered and all(t.endswith(" at 24 42 facing 0 in column") for t in offered)
    assert "as marked on the deployment map" not in " ".join(legal_texts(RS, state, "french"))
    RS.apply(state, "french", RS.parse_order(state, "french", offered[0]), rng)
    tape, rng2 = new_game("outpost", 1, scouting="no", board="tape")
    order(tape, "prussian", "hide 5th Jäger at in the wood", rng2)  # free text stays the tape board's form


# --- 4. the objectives result -------------------------------------------------------------------


def test_the_objectives_result_says_what_each_side_took() -> None:
    state = playing("spicheren", victory="objectives")
    for o in state.objectives:
        o.held_by = "prussian" if o.name == "Rotherberg" else "french"
    outcome = result(state)
    assert outcome.winner == "french"
    assert outcome.reason == "The French took their objectives; the Prussians took only 1 of 2."
    state.objectives[0].held_by = "french"
    assert result(state).reason == "The French took their objectives; the Prussians took none of theirs."
    finish_turn(state, new_game()[1])


def test_a_name_led_rally_or_surrender_with_words_after_it_says_to_end_there() -> None:
    """Read by the shared notation's verb-first reading: `UNIT rally now` names its verb, so the
    refusal says how that order is written rather than that it is no order at all."""
    state = playing()
    for verb in ("rally", "surrender"):
        err = refusal(state, "french", f"2e de Ligne {verb} now")
        assert f"write `UNIT {verb}`, with nothing after `{verb}`" in err.message
