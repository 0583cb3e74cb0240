"""Shooting, ground and close-assault aftermath on the measured table (issue 15 item 1, helper D):
the Mitrailleuse's 22.5-degree arc (17.3), elevated and dead ground (17.3.3), rivers, bridges and
fords (15.3, 15.4, 17.5.1), and the compulsory movements after a close assault (17.5.1-17.5.4)."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from games.core.rng import Rng
from games.days_of_iron.rules import movement_17_4, shooting_17_3
from games.days_of_iron.rules.formations_12 import base
from games.days_of_iron.state import State, TerrainPiece, Unit
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


def hill(state: State, kind: str, name: str, x0: float, y0: float, x1: float, y1: float) -> TerrainPiece:
    piece = TerrainPiece(kind, name, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    state.terrain.append(piece)
    return piece


def shooting_game() -> tuple[State, Rng]:
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    state.terrain.clear()
    return state, rng


def test_only_howitzers_and_guns_on_a_hill_fire_at_targets_on_a_high_hill() -> None:
    state, rng = shooting_game()
    hill(state, "high-hill", "Rotherberg", 20.0, 4.0, 52.0, 16.0)
    guns = place(unit(state, "7e Batterie"), 36.0, 34.0, 0.0)
    target = place(unit(state, "74th"), 36.0, 10.0, 180.0)  # on the high hill, 22" away
    to_shooting(state, rng)
    with pytest.raises(IllegalOrder, match=r"74th Infantry stands on a high hill \(Rotherberg\): only howitzers or guns sited on a hill"):
        RS.parse_order(state, "french", "7e Batterie fire at 74th")
    assert "7e-batterie fire at 74th" not in RS.legal_orders(state, "french")
    guns.gun = "howitzer"
    assert RS.parse_order(state, "french", "7e Batterie fire at 74th")
    guns.gun = "muzzle"
    hill(state, "low-hill", "Knoll", 30.0, 32.0, 42.0, 38.0)  # sited on a low hill it may
    assert shooting_17_3.elevation(state, guns) == (1, "Knoll")
    assert target in shooting_17_3.eligible(state, guns)


def test_guns_on_a_high_hill_have_dead_ground_and_fire_over_friends() -> None:
    state, rng = shooting_game()
    hill(state, "high-hill", "Spicherer Berg", 28.0, 32.0, 44.0, 40.0)
    place(unit(state, "7e Batterie"), 36.0, 34.0, 0.0)  # front edge at y 33.25
    target = place(unit(state, "74th"), 36.0, 27.0, 180.0)  # 5.75" below its front
    to_shooting(state, rng)
    with pytest.raises(IllegalOrder, match=r'74th Infantry is in dead ground, 5.75" below the front of 7e Batterie'):
        RS.parse_order(state, "french", "7e Batterie fire at 74th")
    target.y = 20.0  # 12.75" away: fair game
    # a friend halfway between, more than 4" from the target: the guns fire over it (17.3.3) ...
    friend = place(unit(state, "63e de Ligne"), 36.0, 27.0, 0.0, "column")
    assert RS.parse_order(state, "french", "7e Batterie fire at 74th")
    # ... but not over a friend within 4" of the target
    friend.y = 23.0
    with pytest.raises(IllegalOrder, match="63e de Ligne would be endangered"):
        RS.parse_order(state, "french", "7e Batterie fire at 74th")
    # on level ground the same friend blocks the guns wherever it stands in the corridor
    state.terrain.clear()
    friend.y = 27.0
    with pytest.raises(IllegalOrder, match="63e de Ligne would be endangered"):
        RS.parse_order(state, "french", "7e Batterie fire at 74th")


def test_howitzers_shell_targets_in_woods_over_friends_and_a_high_hill_sees_beyond_a_wood() -> None:
    state, rng = shooting_game()
    guns = place(unit(state, "7e Batterie"), 36.0, 34.0, 0.0)
    target = place(unit(state, "74th"), 36.0, 20.0, 180.0)
    place(unit(state, "63e de Ligne"), 36.0, 27.0, 0.0, "column")
    to_shooting(state, rng)
    guns.gun = "howitzer"
    with pytest.raises(IllegalOrder, match="63e de Ligne would be endangered"):  # in the open: no
        RS.parse_order(state, "french", "7e Batterie fire at 74th")
    hill(state, "light-wood", "Gifert wood", 30.0, 18.0, 42.0, 22.0)  # the target in a wood: over their heads
    assert RS.parse_order(state, "french", "7e Batterie fire at 74th")
    # a wood between: troops 8" or less beyond it are seen only from a high hill (15.8)
    state.terrain.clear()
    place(unit(state, "63e de Ligne"), 60.0, 40.0, 0.0, "column")
    hill(state, "heavy-wood", "Stiring wood", 30.0, 24.0, 42.0, 28.0)
    guns.gun = "muzzle"
    assert not shooting_17_3.in_sight(state, guns, target)
    hill(state, "high-hill", "Spicherer Berg", 28.0, 32.0, 44.0, 40.0)
    assert shooting_17_3.in_sight(state, guns, target)  # 3.25" beyond the wood
    target.y = 12.0  # 11.25" beyond: hidden by the wood
    assert not shooting_17_3.in_sight(state, guns, target)


def river_game() -> tuple[State, Rng]:
    """The meeting table with a river across it (y 22-25), a ford at x 30-36 and a bridge at x 50-54."""
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    state.terrain.clear()
    hill(state, "river", "Saar", 0.0, 22.0, 72.0, 25.0)
    hill(state, "ford", "Saar ford", 30.0, 21.5, 36.0, 25.5)
    hill(state, "bridge", "Saar bridge", 50.0, 21.5, 55.0, 25.5)
    start_turn(state)
    while state.step < 2:
        order(state, RS.to_act(state)[0], "next", rng)
    return state, rng


def test_rivers_are_crossed_only_at_bridges_and_fords_and_fording_disorders() -> None:
    state, rng = river_game()
    ligne = place(unit(state, "2e de Ligne"), 20.0, 26.5, 0.0, "column")  # front on the bank, 4" wide
    with pytest.raises(IllegalOrder, match=r"2e de Ligne cannot cross Saar \(15.3: only at bridges and fords\)"):
        RS.parse_order(state, "french", "2e de Ligne move 4")
    ligne.x = 35.0  # its right file (x 36-37) beside the ford, in deep water
    with pytest.raises(IllegalOrder, match="cannot cross Saar"):
        RS.parse_order(state, "french", "2e de Ligne move 4")
    guns = place(unit(state, "7e Batterie"), 33.0, 25.75, 0.0, "line")  # unlimbered, 2" wide: fits the ford
    with pytest.raises(IllegalOrder, match=r"must be in column to cross Saar ford \(15.4\); it is in line"):
        RS.parse_order(state, "french", "7e Batterie move 2")
    guns.x = 10.0
    ligne.x = 33.0  # all of it over the ford: at half pace (house), in column, and disordered (15.4)
    events = order(state, "french", "2e de Ligne move 4", rng)
    assert events[0].text == ('2e de Ligne moves 4" through Saar ford (fording Saar ford disorders it, 15.4): '
                              'it costs 8", 0" left this turn.')
    assert ligne.order == "disordered" and ligne.order_turn == state.turn
    # a bridge carries troops over at full pace, in good order
    column = place(unit(state, "63e de Ligne"), 52.5, 26.5, 0.0, "column")
    events = order(state, "french", "63e de Ligne move 6", rng)
    assert events[0].text == '63e de Ligne moves 6": it costs 6", 2" left this turn.'
    assert column.order == "good" and movement_17_4.in_water(state, base(column)) is None


def test_a_footprint_in_a_river_away_from_a_ford_is_in_the_water() -> None:
    state, _ = river_game()
    ligne = place(unit(state, "2e de Ligne"), 20.0, 27.0, 180.0, "line")
    assert movement_17_4.in_water(state, base(ligne)) is None
    ligne.y = 24.0
    assert movement_17_4.in_water(state, base(ligne)).name == "Saar"  # type: ignore[union-attr]
    ligne.x = 33.0
    place(ligne, 33.0, 24.0, 180.0, "column")
    assert movement_17_4.in_water(state, base(ligne)) is None  # at the ford
