"""Book 003, "Turn Sequence" (numbered 1 here: see test_sections_covered for the numbering)."""

from __future__ import annotations

from games.hex_ironclads.state import State
from tests.book.hex_ironclads.book import (
    NE,
    E,
    ScriptedDice,
    W,
    along,
    damage,
    fails,
    fire_turn,
    fv,
    game,
    order,
    ship,
    stand,
    texts,
)


def duel_abeam(virginia_facing: int = NE) -> State:
    """Monitor and Virginia side by side in open water, Patrick Henry far off."""
    state = game("Monitor", "Virginia", "Patrick Henry")
    stand(state, "Monitor", "0805", E)
    stand(state, "Virginia", along(state, "0805", E, 1), virginia_facing)
    stand(state, "Patrick Henry", "0202", E)  # far off: keeps the Confederates in the game
    return state


def test_the_turn_opens_with_fire_and_no_ship_moves_before_it() -> None:
    """1.1: "Both sides fire their guns." The turn begins with fire orders: a move is refused."""
    state = duel_abeam()
    assert state.phase == "fire"
    assert "fire" in fails(state, "union", "Monitor move F").lower()


def test_fire_is_simultaneous_and_a_ship_sunk_this_turn_still_fires() -> None:
    """1.1: "Firing guns is deemed to be simultaneous, and a ship that has been hit and sunk may fire
    its guns that turn – as it sinks – if a suitable target is in range." Virginia (FV 2) is sunk by
    Monitor's fire, and her own four dice still hit Monitor."""
    state = duel_abeam()
    damage(state, "Virginia", 6)
    out = fire_turn(state, ["Monitor fire Virginia"], ["Virginia fire Monitor"], [5] * 10 + [1, 2])
    assert "Virginia fires at Monitor" in out and "Monitor fires at Virginia" in out
    assert fv(state, "Monitor") == 4
    assert ship(state, "Virginia").status == "sunk"


def test_the_lower_initiative_die_moves_first() -> None:
    """1.2: "Both sides throw a D6 die. The side with the lowest score moves its ships first that turn."
    Union throws 5, Confederate 2: the Confederates move first."""
    state = duel_abeam()
    out = fire_turn(state, ["Monitor hold"], ["Virginia hold"], [5, 2])
    assert "Union 5 / Confederate 2" in out
    assert state.phase == "move" and state.mover() == "confederate"
    assert "moves now" in fails(state, "union", "Monitor move F")


def test_equal_initiative_dice_are_thrown_again() -> None:
    """1.2: "The side with the lowest score moves its ships first that turn." The book does not say
    what equal scores do; the ruling (RULINGS.md, initiative ties) throws both dice again: 3/3,
    then 4/1 puts the Confederates first."""
    state = duel_abeam()
    fire_turn(state, ["Monitor hold"], ["Virginia hold"], [3, 3, 4, 1])
    assert state.mover() == "confederate"


def test_the_other_side_moves_once_the_first_has_moved() -> None:
    """1.3: "Once the first side has moved its ships, the other side moves theirs." The Union moves
    first; the Confederates may not move until every Union ship has its move, then they may."""
    state = duel_abeam()
    fire_turn(state, ["Monitor hold"], ["Virginia hold"], [1, 2])
    assert "moves now" in fails(state, "confederate", "Virginia move F")
    order(state, "union", "Monitor move P", ScriptedDice())
    assert state.mover() == "confederate"
    out = texts(order(state, "confederate", "Virginia move S", ScriptedDice()))
    assert "Virginia moves S" in out


def test_rams_are_adjudicated_once_both_sides_have_moved() -> None:
    """1.4: "If a ship rams another, the results of the ramming are adjudicated." It follows both
    moves in the sequence, so Virginia's ram (Confederates first) throws no die until the Union has
    moved; then its four dice hit Monitor (rams adjudicated after movement: RULINGS.md)."""
    state = duel_abeam(virginia_facing=W)
    fire_turn(state, ["Monitor hold"], ["Virginia hold"], [2, 1])
    order(state, "confederate", "Virginia move F", ScriptedDice())
    order(state, "confederate", "Patrick Henry stay", ScriptedDice())
    assert fv(state, "Monitor") == 8
    stream = ScriptedDice([5, 5, 5, 5])
    order(state, "union", "Monitor stay", stream)
    assert not stream.dice
    assert fv(state, "Monitor") == 4


def test_the_turn_ends_and_the_next_begins_with_fire() -> None:
    """1.5: "Once both sides have had the opportunity to fire, to move their ships, and the results of
    any rammings have been adjudicated, the turn is over and the next turn may commence." """
    state = duel_abeam()
    fire_turn(state, ["Monitor hold"], ["Virginia hold"], [1, 2])
    order(state, "union", "Monitor stay", ScriptedDice())
    assert state.turn == 1
    order(state, "confederate", "done", ScriptedDice())
    assert state.turn == 2 and state.phase == "fire"


def test_a_ship_driven_to_its_critical_point_this_turn_still_fires() -> None:
    """1.1: "Firing guns is deemed to be simultaneous". Minnesota (FV 3, Critical Point 2) and
    Virginia exchange fire: Virginia's Minor hit breaks Minnesota off, and Minnesota's own Minor hit
    on Virginia still counts."""
    state = game("Monitor", "Minnesota", "Virginia")
    stand(state, "Minnesota", "0805", NE)
    stand(state, "Virginia", along(state, "0805", E, 1), NE)
    stand(state, "Monitor", "0102", E)
    damage(state, "Minnesota", 3)
    out = fire_turn(state, ["Minnesota fire Virginia"], ["Virginia fire Minnesota"], [5, 1, 1, 1, 5, 1, 1, 1, 1, 2])
    assert "Minnesota reaches its critical point" in out
    assert fv(state, "Virginia") == 7


def test_at_the_turn_limit_no_next_turn_commences() -> None:
    """1.5: "the turn is over and the next turn may commence." The book sets no end; the scenario's
    turn limit (house, option turns) ends the game after its last turn, and the side that inflicted
    more flotation points wins (RULINGS.md, end of the game)."""
    state = game("Monitor", "Virginia", "Patrick Henry", options={"turns": "1"})
    stand(state, "Monitor", "0805", E)
    stand(state, "Virginia", along(state, "0805", E, 1), NE)
    stand(state, "Patrick Henry", "0202", E)
    fire_turn(state, ["Monitor fire Virginia"], ["Virginia hold"], [4, 1, 1, 1, 1, 1, 1, 2])
    order(state, "union", "done", ScriptedDice())
    order(state, "confederate", "done", ScriptedDice())
    assert state.phase == "over"
    assert state.winner == "union"


def test_a_rammed_ship_still_makes_its_own_move_and_the_ram_still_counts() -> None:
    """1.4: "If a ship rams another, the results of the ramming are adjudicated." The ram is made in
    the Confederate move; Monitor then moves away in the Union move, and the ram's four dice are
    thrown against her all the same (RULINGS.md, when rams are adjudicated)."""
    state = duel_abeam(virginia_facing=W)
    fire_turn(state, ["Monitor hold"], ["Virginia hold"], [2, 1])
    order(state, "confederate", "Virginia move F", ScriptedDice())
    order(state, "confederate", "done", ScriptedDice())
    stream = ScriptedDice([5, 5, 1, 1])
    out = texts(order(state, "union", "Monitor move P F", stream))
    assert "Monitor moves P F" in out and "Virginia rams Monitor" in out
    assert not stream.dice
    assert fv(state, "Monitor") == 6
