"""Book 18 (ending the game, surrendering and the margin of victory), checked on the measured
table."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from games.days_of_iron.state import DESTROYED, ROUTING, SURRENDERED
from tests.book.days_of_iron.table import place, table, to_step
from tests.days_of_iron.helpers import RS, finish_turn, order, unit
from tests.scripted import DiceThenStream


def test_18_the_game_ends_only_after_the_non_initiative_players_close_assault_phase() -> None:
    """18: "A game may be finished at the end of the non-initiative player's Close Assault Phase."
    Inside the Close Assault phase `end` is refused; once the French (without the initiative) have
    finished theirs, both sides' `end` finishes the game."""
    state, rng = table(french_first=False)
    to_step(state, "Close Assault", rng)
    order(state, "prussian", "next", rng)
    with pytest.raises(GameError, match=r"\(18\)"):
        RS.parse_order(state, "french", "end")
    finish_turn(state, rng)
    order(state, "french", "end", rng)
    order(state, "prussian", "end", rng)
    assert state.phase == "over"


def test_18_1_affected_units_surrender_in_the_close_assault_phase() -> None:
    """18.1: "Players may choose to surrender their affected units at the end of the Close Assault
    Phase." RULING (the bot's house reading of "affected": routing, in contact with an enemy, under
    half strength, disordered or shaken): the routing 74th may surrender in the Prussians' part of
    the Close Assault phase, not in the Movement phase; the 39th in good order may not."""
    state, rng = table(french_first=False)
    routers = place(state, "74th", 36.0, 10.0, 0.0)
    routers.status, routers.rout_bearing, routers.rout_turn, routers.rout_done = ROUTING, 0.0, 1, 12.0
    place(state, "39th", 10.0, 10.0, 180.0)
    to_step(state, "Movement", rng)
    with pytest.raises(GameError, match=r"18\.1"):
        RS.parse_order(state, "prussian", "74th surrender")
    to_step(state, "Close Assault", rng)
    with pytest.raises(GameError):
        RS.parse_order(state, "prussian", "39th surrender")
    order(state, "prussian", "74th surrender", rng)
    assert routers.status == SURRENDERED


def test_18_2_points_lost_decide_the_margin() -> None:
    """18.2: "Destroyed or surrendered units or units that have routed off the table top count for
    full points while routing units or units under half of their starting strength count for half
    points. The player who has lost the least number of points is the winner." and the table:
    "151 to 250 Minor Victory". The Prussians lose both batteries (100 points each, destroyed):
    200 points to none, a French Minor Victory; with one of them only routing (half: 50), 150 is a
    draw."""
    for second_battery, result in ((DESTROYED, "Minor Victory"), (ROUTING, "Draw")):
        state, rng = table()
        unit(state, "1st Heavy Battery").status = DESTROYED
        other = unit(state, "2nd Light Battery")
        other.status = second_battery
        if second_battery == ROUTING:
            other.rout_bearing, other.rout_turn, other.rout_done = 0.0, 1, 10.0
            other.formation = "column"
        finish_turn(state, DiceThenStream([3] * 80))
        order(state, "french", "end", rng)
        order(state, "prussian", "end", rng)
        assert result in state.end_reason, state.end_reason
        if result == "Minor Victory":
            assert state.winner == "french", state.end_reason
