"""Orders are typed values (issue 14): parsing gives the order's class with ids in its fields, the
canonical text parses back to the same value, and texts that parsed before the conversion still do
(an over-long free text, ``offboard X at`` with nothing after the ``at``)."""

from __future__ import annotations

from games.core.ruleset import UMPIRE, legal_texts
from games.days_of_iron.orders import Cancel, Dispute, Fate, Hide, Loss, Offboard, Staff
from tests.days_of_iron.helpers import RS, new_game, ready_both, start_turn, unit


def test_orders_parse_into_their_classes_with_ids() -> None:
    state, _ = new_game(board="tape")  # free text is the tape board's place (the measured table's is X Y)
    hide = RS.parse_order(state, "french", "hide 10e chass at the farm`s wall")
    assert hide == Hide(unit(state, "10e Chasseurs").id, "the farm's wall")
    assert hide.text == f"hide {hide.unit} at the farm's wall"
    assert RS.parse_order(state, UMPIRE, "staff French") == Staff("french")
    assert RS.parse_order(state, "french", "staff") == Staff()
    assert RS.parse_order(state, "prussian", "OFFBOARD Rheinbaben at") == Offboard("rheinbaben")


def test_canonical_texts_parse_back_to_the_same_order() -> None:
    state, rng = new_game("spicheren")
    ready_both(state, rng)
    start_turn(state)
    for seat in (*(s.id for s in state.sides), UMPIRE):
        for text in legal_texts(RS, state, seat):
            order = RS.parse_order(state, seat, text)
            assert order.text == text
            assert RS.parse_order(state, seat, order.text) == order
    loss = RS.parse_order(state, UMPIRE, "loss 2e de Ligne 3")  # players record losses only with board=tape
    assert isinstance(loss, Loss) and loss.stands == 3
    assert isinstance(RS.parse_order(state, UMPIRE, "rout 2e de Ligne"), Fate)  # players' routs come from tests


def test_an_over_long_free_text_still_parses() -> None:
    """The notation reads at most 60 words; free text of 200 short words' characters was fine before."""
    state, _ = new_game(board="tape")
    matter = " ".join(["a"] * 90)
    assert RS.parse_order(state, "french", f"dispute {matter}") == Dispute(matter)
    where = " ".join(["x"] * 70)
    assert RS.parse_order(state, "french", f"hide 10e Chasseurs at {where}").text.endswith(f" at {where}")


def test_record_numbers_read_with_or_without_a_hash() -> None:
    state, rng = new_game()
    RS.apply(state, "french", RS.parse_order(state, "french", "hide 10e Chasseurs at 20 42"), rng)
    assert RS.parse_order(state, "french", "cancel #1") == Cancel(1)
    assert RS.parse_order(state, "french", "cancel 1").text == "cancel 1"
