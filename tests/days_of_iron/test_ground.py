"""Shooting, ground and close-assault aftermath on the measured table (issue 15 item 1, helper D):
the Mitrailleuse's 22.5-degree arc (17.3), elevated and dead ground (17.3.3), rivers, bridges and
fords (15.3, 15.4, 17.5.1), and the compulsory movements after a close assault (17.5.1-17.5.4)."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from games.core.rng import Rng
from games.days_of_iron.rules import shooting_17_3
from games.days_of_iron.state import State, Unit
from tests.days_of_iron.helpers import RS, new_game, order, ready_both, start_turn, unit


def to_shooting(state: State, rng: Rng) -> None:
    """French initiative, then `next` through the Morale phase."""
    start_turn(state)
    order(state, "french", "next", rng)
    order(state, "prussian", "next", rng)


def place(u: Unit, x: float, y: float, facing: float, formation: str = "line") -> Unit:
    u.formation, u.x, u.y, u.facing = formation, x, y, facing
    return u


def test_the_mitrailleuse_fires_in_a_22_5_degree_arc() -> None:
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    mitrailleuses, guns = unit(state, "8e Batterie"), unit(state, "7e Batterie")
    assert mitrailleuses.gun == "mitrailleuse" and guns.gun == "muzzle"
    target = place(unit(state, "74th"), 36.0 + 14.0, 14.0, 180.0, "column")  # about 30 degrees off ahead
    place(mitrailleuses, 36.0, 34.0, 0.0)
    to_shooting(state, rng)
    with pytest.raises(IllegalOrder, match=r"outside the 22.5-degree arcs of 8e Batterie.*Mitrailleuse"):
        RS.parse_order(state, "french", "8e Batterie fire at 74th")
    # a field battery in the same place reaches it inside its 45 degrees
    place(mitrailleuses, 10.0, 40.0, 0.0)
    place(guns, 36.0, 34.0, 0.0)
    assert RS.parse_order(state, "french", "7e Batterie fire at 74th")
    # straight ahead, the Mitrailleuse fires
    place(guns, 60.0, 40.0, 0.0)
    place(mitrailleuses, 36.0 + 14.0, 34.0, 0.0)
    assert target in shooting_17_3.eligible(state, mitrailleuses)
