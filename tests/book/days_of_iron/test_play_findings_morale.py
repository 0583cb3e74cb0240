"""Play findings of issue 21 about morale messages and orders (F3, F5): each test quotes the book and
fails on the rules as they were when the finding was made (the findings list is in the issue's report)."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from games.days_of_iron.state import DISORDERED
from tests.book.days_of_iron.table import piece, place, table, text_of, to_step
from tests.days_of_iron.helpers import RS, declare, order
from tests.scripted import DiceThenStream


def test_17_4_16_an_evade_that_fails_its_test_says_it_does_not_evade() -> None:
    """17.4.16: "After successfully passing a Being Charged test the evading unit may make a movement
    up to half of its normal movement for that formation." In play (meeting, turn 3) `7e-batterie
    evade` answered "... 1d6 = 3: DISORDERED: it is disordered and halted" and never said whether it
    evaded (it did not: the battery stayed)."""
    state, _ = table(french_first=False)
    battery = place(state, "7e Batterie", 36.0, 30.0, 0.0)
    place(state, "2nd Hussars", 36.0, 18.0, 180.0)
    declare(state, "prussian", "2nd Hussars charge 7e Batterie", [6] * 20)
    said = text_of(order(state, "french", "7e Batterie evade", DiceThenStream([3] * 20)))  # 3: disordered
    assert "DISORDERED" in said and "so it does not evade" in said, said
    assert (battery.x, battery.y) == (36.0, 30.0)


def test_17_2_a_unit_disordered_only_by_a_town_is_not_offered_a_rally() -> None:
    """17.2: "It is in this phase that units can restore order to the ranks ('rally') after being
    disordered or shaken in the previous turn"; 15.7: units in urban areas are "disordered until it
    moves out of the area". In play (meeting) `74th rally` was offered and accepted for a unit in a
    town and answered "rallies but stays disordered in Saint-Privat farm": a test with nothing to
    restore. It is now neither offered nor accepted, and says why; out of the town, a disordered
    unit still takes the test."""
    state, rng = table(french_first=False)
    piece(state, "urban", "Saint-Privat farm", 30.0, 10.0, 42.0, 16.0)
    infantry = place(state, "74th", 36.0, 13.0, 180.0)
    infantry.order, infantry.order_turn = DISORDERED, state.turn
    to_step(state, "Morale", rng)
    assert "74th rally" not in {o.text for o in RS.legal_orders(state, "prussian")}
    with pytest.raises(IllegalOrder, match=r"disordered only by standing in Saint-Privat farm.*15\.7"):
        RS.parse_order(state, "prussian", "74th rally")
    place(state, "74th", 36.0, 25.0, 180.0)
    assert "74th rally" in {o.text for o in RS.legal_orders(state, "prussian")}
    RS.parse_order(state, "prussian", "74th rally")
