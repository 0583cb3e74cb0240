"""Shooting, ground and close-assault aftermath on the measured table (issue 15 item 1, helper D):
the Mitrailleuse's 22.5-degree arc (17.3), elevated and dead ground (17.3.3), rivers, bridges and
fords (15.3, 15.4, 17.5.1), and the compulsory movements after a close assault (17.5.1-17.5.4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.errors import DataError, IllegalOrder
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import legal_texts
from games.days_of_iron.rules import close_assault_17_5, movement_17_4, shooting_17_3
from games.days_of_iron.rules.formations_12 import base
from games.days_of_iron.state import State, TerrainPiece, Unit
from tests.console import run_script
from tests.days_of_iron.helpers import RS, new_game, order, ready_both, start_turn, unit
from tests.scripted import DiceThenStream

ROOT = Path(__file__).resolve().parents[2]
PURSUIT = ("Close assault results (house): 5th Jäger rout, 3e Hussards pursue 8\" (17.5.1).\n"
           "         5th Jäger loses 2 stands (6/8 left).\n"
           "         5th Jäger routs (beaten by 3e Hussards): initial rout of 6\" (17.4.14).\n"
           "         3e Hussards pursues 6.95\" and catches the routing 5th Jäger (17.5.3 next turn).")
# (the Hussards close up square to the Jäger's front, 17.4.2, and their pursuit catches the router)

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
    assert "7e-batterie fire at 74th" not in legal_texts(RS, state, "french")
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
    # within 6" of the guns: a formed unit in a light wood is seen only that far off (16.3)
    guns = place(unit(state, "7e Batterie"), 36.0, 33.0, 0.0)
    target = place(unit(state, "74th"), 36.0, 26.0, 180.0)
    place(unit(state, "63e de Ligne"), 36.0, 30.0, 0.0, "line")
    to_shooting(state, rng)
    guns.gun = "howitzer"
    with pytest.raises(IllegalOrder, match="63e de Ligne would be endangered"):  # in the open: no
        RS.parse_order(state, "french", "7e Batterie fire at 74th")
    hill(state, "light-wood", "Gifert wood", 30.0, 24.0, 42.0, 28.0)  # the target in a wood: over their heads
    assert RS.parse_order(state, "french", "7e Batterie fire at 74th")
    # a wood between: troops 8" or less beyond it are seen only from a high hill (15.8)
    state.terrain.clear()
    guns.y, target.y = 34.0, 20.0
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


def assault_game() -> tuple[State, Rng]:
    """The meeting table, bare, in the Movement phase of turn 1 (French initiative)."""
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    state.terrain.clear()
    start_turn(state)
    while state.step < 2:
        order(state, RS.to_act(state)[0], "next", rng)
    return state, rng


def to_close_assault(state: State, faces: list[int]) -> str:
    """Say `next` through the Movement phase: the Close Assault phase fights with the given dice."""
    order(state, "french", "next", Rng(seed_from_number(5)))
    return "\n".join(e.text for e in order(state, "prussian", "next", DiceThenStream(faces)))


def test_the_results_sheet_reads_the_margin_and_refuses_a_mistyped_result() -> None:
    assert str(close_assault_17_5.result_for(1)[0]) == 'fall back 3" disordered'
    assert [str(r) for r in close_assault_17_5.result_for(2)] == ["rout", 'advance 3"']
    assert [str(r) for r in close_assault_17_5.result_for(None)] == ["rout", 'pursue 8"']  # the Automatic Major Victory
    assert close_assault_17_5.result_for(99) == close_assault_17_5.result_for(None)
    with pytest.raises(DataError, match=r"'retreat 3' is not a result; write one of 'rout', 'fall back N'"):
        close_assault_17_5.parse_result("retreat 3", close_assault_17_5.LOSER_ACTIONS, "row 1 loser")
    with pytest.raises(DataError, match="'advance' is not a result"):
        close_assault_17_5.parse_result("advance", close_assault_17_5.WINNER_ACTIONS, "row 1 winner")


def test_a_victors_advance_into_a_new_enemy_is_a_break_through_attack() -> None:
    state, _ = assault_game()
    ligne = place(unit(state, "2e de Ligne"), 36.0, 30.0, 0.0)  # front edge y 29.5
    beaten = place(unit(state, "74th"), 36.0, 29.0, 180.0)
    beaten.stands = 3  # in contact, a remnant of 3 stands
    fresh = place(unit(state, "39th"), 36.0, 25.5, 180.0, "column")  # rear edge y 27: 2.5" beyond
    # 2e 5+2 = 7 beat the 74th 2+3 = 5, by 2: "rout" / "advance 3" (house); losses 1d6 = 1 at 12 v 3
    # (outnumbering) costs 1 stand and leaves 2: shattered (17.5.8), so the victor advances straight on
    text = to_close_assault(state, [5, 2, 1])
    assert "2e de Ligne win by 2" in text and "74th Infantry is shattered and removed from play (17.5.8)." in text
    assert ('2e de Ligne advances 2.5" into 39th Fusiliers: a **Break-Through Attack** (17.5.4). They fight in '
            'the next Close Assault, 2e de Ligne as charging; 39th Fusiliers takes a Being Charged test in the next Morale Phase.') in text
    assert ligne.y == pytest.approx(27.5) and ligne.breakthrough == fresh.id and ligne.breakthrough_turn == 2
    assert close_assault_17_5.breakthrough_attacks(state) == []  # fought next turn, not now
    state.turn = 2
    assert close_assault_17_5.breakthrough_attacks(state) == [(ligne, fresh)]
    text = "\n".join(e.text for e in close_assault_17_5.resolve(state, DiceThenStream([3, 3, 1])))
    assert "2e de Ligne 3+2+1 break-through = 6; 39th Fusiliers 3+" in text


def test_a_routing_unit_in_a_melee_suffers_an_automatic_major_victory_first() -> None:
    state, _ = assault_game()
    ligne = place(unit(state, "2e de Ligne"), 36.0, 30.0, 0.0)  # 12" wide: x 30-42
    router = place(unit(state, "74th"), 33.0, 29.0, 180.0)
    router.stands, router.status = 6, "routing"
    other = place(unit(state, "39th"), 39.0, 29.0, 180.0)
    other.stands = 6
    # the router first (17.5.3): losses 1d6 = 3 at 12 v 6 (outnumbering) = 1 stand, it routs on; then
    # the 2e and the 39th fight as usual: 4+2 against (6 - Class)+Class, a draw
    text = to_close_assault(state, [3, 4, 6 - other.cls])
    assert ("**Close assault** (17.5.3): 74th Infantry, routing, suffer an Automatic Major Victory by 2e de Ligne; "
            "Close assault losses (house) 1d6 = 3 (outnumbering): 74th Infantry lose 1.") in text
    assert "74th Infantry routs (beaten by 2e de Ligne): initial rout of 6\"" in text
    assert f"2e de Ligne 4+2 = 6; 39th Fusiliers {6 - other.cls}+{other.cls} = 6: a draw" in text
    assert (ligne.x, ligne.y) == (36.0, 30.0)  # the victors of 17.5.3 make no compulsory move
    assert router.y == pytest.approx(23.0) and router.stands == 5


def test_a_unit_routed_into_a_river_away_from_a_ford_drowns() -> None:
    state, _ = assault_game()
    hill(state, "river", "Saar", 0.0, 20.0, 72.0, 27.0)
    ligne = place(unit(state, "2e de Ligne"), 36.0, 30.0, 0.0)
    beaten = place(unit(state, "74th"), 36.0, 29.0, 180.0)
    # 6+2 = 8 against 1+3 = 4, by 4: the loser routs 6" (into the river), the victor pursues 8"
    text = to_close_assault(state, [6, 1, 1])
    assert ("74th Infantry is routed into Saar away from a ford: drowned, surrendered or dispersed, "
            "it is removed from play (15.3, 17.5.1).") in text
    assert beaten.status == "destroyed"
    # the pursuit stops on the bank: compulsory moves pay no terrain penalty, but no one walks into a river
    assert movement_17_4.in_water(state, base(ligne)) is None and ligne.y == pytest.approx(27.5)


@pytest.mark.slow
def test_the_ground_console_script_plays_to_a_result() -> None:
    """tests/scripts/days_of_iron/ground.txt through the real table service: the refusals it marks
    with ! fail, the rest pass, and the game ends with a result."""
    done = run_script(ROOT / "tests" / "scripts" / "days_of_iron" / "ground.txt")
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    out = done.stdout
    assert ("`5e Batterie fire at 7th Grenadiers`: 7th Grenadiers is outside the 22.5-degree arcs of "
            "5e Batterie (mitrailleuses) (a Mitrailleuse fires in a 22.5-degree arc) (17.3).") in out
    assert ("`4th Horse Battery fire at 16e Chasseurs`: 16e Chasseurs à pied stands on a high hill (Spicherer Höhe): "
            "only howitzers or guns sited on a hill may fire at it (17.3.3).") in out
    # a column whose left stands would go into the river beside the ford is refused (15.3)
    assert "`1er Tirailleurs move 4`: 1er Tirailleurs algériens cannot cross Saar (15.3: only at bridges and fords)." in out
    # its front goes 0.5" onto the ford: only that part is at the ford's half pace (17.4.4)
    assert ('1er Tirailleurs algériens moves 3" through Gersweiler ford (fording Gersweiler ford disorders it, 15.4): '
            'it costs 3.5", 4.5" left this turn.') in out
    assert PURSUIT in out
    assert "**Game over.**" in out


def test_a_passage_of_lines_is_slower_for_class_2_and_better_in_the_open() -> None:
    state, rng = river_game()  # the Movement phase of turn 1; the river lies beyond this ground
    state.terrain.clear()
    line = place(unit(state, "63e de Ligne"), 36.0, 36.0, 0.0)  # a friendly line, y 35.5-36.5
    column = place(unit(state, "2e de Ligne"), 36.0, 38.0, 0.0, "column")  # Class 2, front touching its rear
    # (it must get wholly through: no unit ends on another's base, 17.4.8)
    # Class 1 troops may not pass through a line (17.4.9)
    column.cls = 1
    with pytest.raises(IllegalOrder, match=r"2e de Ligne \(Class 1\) may not pass through 63e de Ligne: only Class 2 and better"):
        RS.parse_order(state, "french", "2e de Ligne move 4")
    column.cls = 2
    # only in the open or a light wood
    hill(state, "heavy-wood", "Bois des Chênes", 30.0, 30.0, 42.0, 37.0)
    with pytest.raises(IllegalOrder, match=r"only in the open or a light wood \(17.4.9\); Bois des Chênes is in the way"):
        RS.parse_order(state, "french", "2e de Ligne move 4")
    state.terrain.clear()
    # through shaken troops of a better Class the unit ends disordered; the move costs double (house x0.5)
    line.order, line.cls = "shaken", 3
    events = order(state, "french", "2e de Ligne move 4", rng)
    assert events[0].text == ('2e de Ligne moves 4" (a passage of lines through 63e de Ligne, 17.4.9; the shaken '
                              '63e de Ligne disorder it): it costs 8", 0" left this turn.')
    assert column.order == "disordered" and movement_17_4.passed_lines(state, column)
    # through a column (the book speaks only of lines) or a deployed battery (17.4.8) there is no passage of lines
    other = place(unit(state, "24e de Ligne"), 20.0, 39.0, 0.0, "column")
    place(unit(state, "40e de Ligne"), 20.0, 36.5, 0.0, "column")
    place(unit(state, "7e Batterie"), 20.0, 34.0, 0.0, "line")  # y 33.25-34.75: the 24e ends clear beyond it
    events = order(state, "french", "24e de Ligne move 8", rng)
    assert events[0].text == '24e de Ligne moves 8": it costs 8", 0" left this turn.' and not movement_17_4.passed_lines(state, other)
