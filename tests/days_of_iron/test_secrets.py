"""Hidden (16.4) and off-board (16.5) units: sealed for their side, committed publicly, revealed later."""

from __future__ import annotations

import hashlib
import re

import pytest

from games.core.errors import GameError, IllegalOrder, InvalidSyntax, NotAllowed, UnknownName, WrongPhase
from games.core.rng import Rng, check_seal
from games.core.ruleset import Event, legal_texts
from games.days_of_iron.state import State
from tests.days_of_iron.helpers import RS, copse, finish_turn, new_game, order, ready_both, start_turn, unit

SECRET_WORDS = ("10e Chasseurs", "10e-chasseurs", "30 42 facing", "Rheinbaben cavalry brigade", "east road", "Hidden", "Off-board", "off board")


def public_text(state: State, events: list[Event]) -> str:
    """Everything a spectator can read: public events, the spectator view and the summary."""
    view = RS.view(state, None)
    assert view.private_text == ()
    return "\n".join([e.text for e in events if e.public], ) + "\n" + "\n".join(view.status) + "\n" + "\n".join(
        RS.summary(state))


def hide_and_offboard(**options: str) -> tuple[State, Rng, list[Event]]:
    state, rng = new_game("meeting", **options)
    events = order(state, "french", "hide 10e Chasseurs at 30 42 facing 90 in line", rng)
    events += order(state, "prussian", "offboard Rheinbaben at east road", rng)
    return state, rng, events


def test_hidden_record_goes_only_to_its_side_with_a_public_commitment() -> None:
    state, _, events = hide_and_offboard()
    text = public_text(state, events)
    for word in SECRET_WORDS:
        assert word not in text
    commitments = re.findall(r"commitment `([0-9a-f]{64})`", text)
    assert len(commitments) == 2
    private = [e for e in events if not e.public]
    assert [sorted(e.to or ()) for e in private] == [["french"], ["prussian"]]
    assert "10e Chasseurs à pied at 30 42 facing 90 in line" in private[0].text
    nonce = re.search(r"Nonce `([0-9a-f]{64})`", private[0].text)
    assert nonce and check_seal(state.sealed[0].text, nonce.group(1), commitments[0])
    assert hashlib.sha256(f"{nonce.group(1)}:{state.sealed[0].text}".encode()).hexdigest() == commitments[0]
    # each side's view holds its own record only; the umpire sees both
    french = "\n".join(RS.view(state, "french").private_text)
    prussian = "\n".join(RS.view(state, "prussian").private_text)
    assert "30 42 facing" in french and "Rheinbaben" not in french
    assert "Rheinbaben" in prussian and "30 42 facing" not in prussian
    umpire = "\n".join(RS.view(state, "umpire").private_text)
    assert "30 42 facing" in umpire and "Rheinbaben" in umpire
    # the opponent's autocomplete does not list the hidden unit's status either
    assert not any("reveal" in o for o in legal_texts(RS, state, "prussian"))


def test_reveal_publishes_text_and_nonce_and_the_unit_returns() -> None:
    state, rng, _ = hide_and_offboard()
    ready_both(state, rng)
    copse(state, 30, 42)  # hidden in a wood, unseen by the Prussians (16.3, 16.4)
    start_turn(state)
    with pytest.raises(IllegalOrder, match="not on the table yet"):
        RS.parse_order(state, "french", "loss 10e Chasseurs 1")
    with pytest.raises(NotAllowed):
        RS.parse_order(state, "prussian", "reveal 10e Chasseurs")
    events = order(state, "french", "reveal 10e Chasseurs", rng)
    assert events[0].public and events[0].reveals
    record = state.sealed[0]
    assert record.revealed and record.text in events[0].text and record.nonce in events[0].text
    assert "matches commitment" in events[0].text
    assert unit(state, "10e Chasseurs").status == "on table"
    with pytest.raises(IllegalOrder, match="not hidden"):
        RS.parse_order(state, "french", "reveal 10e Chasseurs")


def test_off_board_brigade_arrives_only_in_the_morale_phase() -> None:
    """The table assistant (board=tape) puts it on the table at once; on the measured table it comes
    on at an entry point in the Movement phase (test_victory_measured.py)."""
    state, rng, _ = hide_and_offboard(board="tape")
    ready_both(state, rng)
    assert all(u.status == "off board" for u in state.units if u.brigade == "rheinbaben")
    start_turn(state)
    order(state, "french", "next", rng)  # the Prussians' part of the Morale phase
    events = order(state, "prussian", "dust Rheinbaben at the east road", rng)
    assert "Dust on the horizon at the east road" in events[0].text and state.sealed[1].nonce in events[0].text
    assert all(u.status == "on table" for u in state.units if u.brigade == "rheinbaben")
    with pytest.raises(IllegalOrder, match="not off the table"):
        RS.parse_order(state, "prussian", "dust Rheinbaben")
    order(state, "prussian", "next", rng)
    state2, rng, _ = hide_and_offboard()
    ready_both(state2, rng)
    start_turn(state2)
    order(state2, "french", "next", rng)
    order(state2, "prussian", "next", rng)
    with pytest.raises(WrongPhase, match="Morale phase"):
        RS.parse_order(state2, "prussian", "dust Rheinbaben")


def test_off_board_limit_is_a_third_of_the_army() -> None:
    state, rng = new_game("meeting")
    order(state, "prussian", "offboard Rheinbaben", rng)  # 126 of 634 points
    with pytest.raises(IllegalOrder, match=r"268 of 634 points off the table; at most 1/3"):
        RS.parse_order(state, "prussian", "offboard Woyna")  # +142 = 268 > 211.3
    with pytest.raises(IllegalOrder, match=r"326 of 634"):
        RS.parse_order(state, "prussian", "offboard prussian-artillery")  # two Krupp batteries, 200
    order(state, "prussian", "cancel 1", rng)
    order(state, "prussian", "offboard Woyna", rng)  # 142 alone fits
    assert [u.name for u in state.units if u.status == "off board"] == [
        "Gen. von Woyna", "77th Infantry", "40th Fusiliers", "8th Jäger"]
    with pytest.raises(UnknownName):  # a side only sees its own brigades
        RS.parse_order(state, "french", "offboard Woyna")


def test_cancel_and_set_up_errors() -> None:
    state, rng = new_game("meeting")
    order(state, "french", "hide 2e de Ligne at 20 42", rng)
    with pytest.raises(IllegalOrder, match="already has a sealed record"):
        RS.parse_order(state, "french", "hide 2e de Ligne at 30 42")
    with pytest.raises(InvalidSyntax, match="where is it hidden"):
        RS.parse_order(state, "french", "hide 63e")
    with pytest.raises(NotAllowed, match="belongs to the Prussians"):
        RS.parse_order(state, "french", "hide 74th at the wood")
    with pytest.raises(UnknownName, match="no record #1"):
        RS.parse_order(state, "prussian", "cancel 1")
    events = order(state, "french", "cancel 1", rng)
    assert events[0].public and "2e" not in events[0].text
    assert unit(state, "2e de Ligne").status == "on table"
    assert "#1" not in "\n".join(RS.view(state, "french").private_text)


def test_secrets_are_published_at_the_end() -> None:
    state, rng, _ = hide_and_offboard()
    ready_both(state, rng)
    copse(state, 30, 42)  # hidden in a wood, unseen by the Prussians (16.3, 16.4)
    start_turn(state)
    finish_turn(state, rng)
    order(state, "french", "end", rng)
    events = order(state, "prussian", "end", rng)
    assert all(r.revealed for r in state.sealed)
    assert "30 42 facing" in events[0].text and state.sealed[1].nonce in events[0].text


def test_views_are_a_bare_table_with_deployment_zones_and_only_own_secrets() -> None:
    state, rng, _ = hide_and_offboard()
    for seat in (None, "french", "prussian", "umpire"):
        view = RS.view(state, seat)
        assert view.board.kind == "table" and (view.board.width, view.board.height) == (72, 48)
        assert view.counters == () and view.overlays == ()
        assert [z.side for z in view.zones] == ["french", "prussian"]
        assert view.zones[1].polygon[2] == (72.0, 12.0)  # 16.2: 12" deep
    assert len(RS.view(state, "umpire").private_text) == 2
    assert RS.view(state, None).private_text == ()
    status = RS.view(state, None).status
    assert status[0].startswith("Set-up: waiting for French, Prussians")
    assert "Sealed records: #1 French, #2 Prussians" in status
    assert "French staff: General Frossard capable, Gen. Laveaucoupet ?" in "\n".join(status)
    ready_both(state, rng)
    start_turn(state)
    status = RS.view(state, None).status
    assert status[0] == "Turn 1, Morale phase: the French act. Initiative: French."
    assert any(line.startswith("Victory margin so far: level") for line in status)


def test_name_resolution_does_not_depend_on_enemy_secrets() -> None:
    """`reveal 7` must fail the same way for the French whether or not the Prussian 74th is hidden."""
    answers = []
    for hide in (False, True):
        state, rng = new_game("meeting")
        if hide:
            order(state, "prussian", "hide 74th at 20 6", rng)
        ready_both(state, rng)
        start_turn(state)
        for text in ("reveal 7", "loss 74 1", "rout 74", "reveal 74"):
            with pytest.raises(GameError) as err:
                RS.parse_order(state, "french", text)
            answers.append((hide, text, type(err.value).__name__, str(err.value)))
    assert [a[1:] for a in answers[:4]] == [a[1:] for a in answers[4:]]
