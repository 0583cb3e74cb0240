"""Book 003, "Damage and Sinking" (3), "Movement" (4) and "Ramming" (5): see test_sections_covered
for the numbering."""

from __future__ import annotations

from games.core.hexgrid import Hex
from games.core.maps import load_map
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


def where(state: State, name: str) -> str:
    s = ship(state, name)
    return load_map(state.map_id).layout.label(Hex(s.q, s.r))


def minnesota_under_fire() -> State:
    """Minnesota (steam frigate, FV 6) abeam of Virginia; Monitor far off."""
    state = game("Monitor", "Minnesota", "Virginia")
    stand(state, "Minnesota", "0805", NE)
    stand(state, "Virginia", along(state, "0805", E, 1), NE)
    stand(state, "Monitor", "0102", E)
    return state


def test_hits_are_cumulative() -> None:
    """3.1: "All hits are cumulative." Two turns of Minor hits add up on Minnesota."""
    state = minnesota_under_fire()
    fire_turn(state, [], ["Virginia fire Minnesota"], [5, 1, 1, 1, 1, 2])
    assert fv(state, "Minnesota") == 5
    order(state, "union", "done", ScriptedDice())
    order(state, "confederate", "done", ScriptedDice())
    assert state.turn == 2
    stand(state, "Minnesota", "0805", NE)  # stood back abeam for the second turn
    stand(state, "Virginia", along(state, "0805", E, 1), NE)
    fire_turn(state, [], ["Virginia fire Minnesota"], [4, 1, 1, 1, 1, 2])
    assert fv(state, "Minnesota") == 4


def test_the_books_steam_frigate_reaches_its_critical_point_and_breaks_off() -> None:
    """3.1: "a Steam Frigate has suffered three points of damages, and its Flotation Value has been
    reduced to three. It is hit again by gunfire and suffers a ‘Minor’ hit. As a result its
    Flotation Value is reduced to two, which is the ship’s Critical Point. Next move it must break
    off from the battle it is taking part in and sail to safety … if it can." The frigate is no
    longer under its player's orders: the bot steers it toward home (RULINGS.md, breaking off)."""
    state = minnesota_under_fire()
    damage(state, "Minnesota", 3)
    assert fv(state, "Minnesota") == 3
    out = fire_turn(state, [], ["Virginia fire Minnesota"], [5, 1, 1, 1, 1, 2])
    assert fv(state, "Minnesota") == 2
    assert "breaks off" in out
    assert ship(state, "Minnesota").status == "broken-off"
    assert "not under your orders" in fails(state, "union", "Minnesota move F")
    start_row = 5
    assert int(where(state, "Minnesota")[2:]) < start_row, "the frigate sails toward its home edge (north)"


def test_a_ship_whose_flotation_value_is_reached_sinks() -> None:
    """3.1: "When a ship's Flotation Value is reached, it sinks." Virginia (FV 8) has lost 7; one
    Minor hit reaches her Flotation Value."""
    state = game("Monitor", "Virginia", "Teaser")
    stand(state, "Monitor", "0805", E)
    stand(state, "Virginia", along(state, "0805", E, 1), NE)
    stand(state, "Teaser", "0102", E)
    damage(state, "Virginia", 7)
    out = fire_turn(state, ["Monitor fire Virginia"], [], [4, 1, 1, 1, 1, 1, 1, 2])
    assert ship(state, "Virginia").status == "sunk"
    assert "sinks" in out or "sunk" in out


def gunboat() -> State:
    """Teaser (gunboat, move 3) on open water, the Confederates to move."""
    state = game("Monitor", "Teaser")
    stand(state, "Teaser", "0705", E)
    stand(state, "Monitor", "0102", E)
    fire_turn(state, ["Monitor hold"], ["Teaser hold"], [2, 1])
    return state


def test_the_books_gunboat_moves_forward_turns_and_moves_forward() -> None:
    """4.1: "a Steam Gunboat has a movement rate of three hexes. It can move forward one hex, turn
    sixty degrees (= one hex of movement), and move forward another one hex." """
    state = gunboat()
    order(state, "confederate", "Teaser move F S F", ScriptedDice())
    first = along(state, "0705", E, 1)
    layout = load_map(state.map_id).layout
    assert where(state, "Teaser") == layout.label(layout.neighbour(first, (E + 1) % 6))
    assert ship(state, "Teaser").facing == (E + 1) % 6


def test_the_books_gunboat_turns_about_in_its_hex() -> None:
    """4.1: "Alternately, it could have turned sixty degrees three times (i.e. made a turn of one
    hundred and eighty degrees) in the same hex." """
    state = gunboat()
    order(state, "confederate", "Teaser move P P P", ScriptedDice())
    assert where(state, "Teaser") == "0705"
    assert ship(state, "Teaser").facing == W


def test_a_turn_costs_one_hex_of_movement() -> None:
    """4.1: "Ships may turn sixty degrees – the turn 'costing' one hex of movement – or move forward
    one hex for each hex of movement they are allotted." Three forward hexes and a turn are four
    points: too many for a gunboat's three."""
    state = gunboat()
    assert "3 movement points" in fails(state, "confederate", "Teaser move F S F F")
    assert "3 movement points" in fails(state, "confederate", "Teaser move F F F F")
    order(state, "confederate", "Teaser move F F F", ScriptedDice())
    assert where(state, "Teaser") == load_map(state.map_id).layout.label(along(state, "0705", E, 3))


def ram_set_up(rammer: str, rammer_side: str) -> State:
    """``rammer`` faces Monitor one hex ahead; the rammer's side moves first."""
    other = "Teaser" if rammer != "Teaser" else "Jamestown"
    state = game("Monitor", rammer, other)
    stand(state, "Monitor", "0805", NE)
    stand(state, rammer, along(state, "0805", E, 1), W)
    stand(state, other, "1308", W)
    dice = [2, 1] if rammer_side == "confederate" else [1, 2]
    fire_turn(state, ["Monitor hold"], [f"{rammer} hold", f"{other} hold"], dice)
    return state


def test_a_ram_with_a_ram_throws_four_dice() -> None:
    """5.1: "Ramming occurs when a ship enters the same hex as another ship during the movement phase
    of the turn sequence. If the ship that is ramming the other is equipped with a ram, then four
    firing dice are thrown." Virginia (casemate ironclad, a ram) rams Monitor."""
    state = ram_set_up("Virginia", "confederate")
    out = texts(order(state, "confederate", "Virginia move F", ScriptedDice()))
    assert "ram" in out.lower()
    order(state, "confederate", "done", ScriptedDice())
    stream = ScriptedDice([6, 5, 1, 1])
    order(state, "union", "Monitor stay", stream)
    assert not stream.dice
    assert fv(state, "Monitor") == 8 - 3


def test_a_ram_without_a_ram_throws_two_dice() -> None:
    """5.1: "If the ship that is ramming the other is not equipped with a ram, then two firing dice
    are thrown." Patrick Henry (steam frigate, no ram) rams Monitor."""
    state = ram_set_up("Patrick Henry", "confederate")
    order(state, "confederate", "Patrick Henry move F", ScriptedDice())
    order(state, "confederate", "done", ScriptedDice())
    stream = ScriptedDice([6, 6])
    order(state, "union", "Monitor stay", stream)
    assert not stream.dice
    assert fv(state, "Monitor") == 8 - 4


def test_the_rammer_stays_in_the_hex_it_came_from() -> None:
    """5.1: "Ramming occurs when a ship enters the same hex as another ship". Two counters cannot
    share a hex on the board: the ruling (RULINGS.md, ramming) keeps the rammer in the hex it came
    from, and the ram ends its move."""
    state = ram_set_up("Virginia", "confederate")
    before = where(state, "Virginia")
    order(state, "confederate", "Virginia move F", ScriptedDice())
    assert where(state, "Virginia") == before


def test_a_ship_does_not_ram_its_own_side() -> None:
    """5.1: "Ramming occurs when a ship enters the same hex as another ship". The book does not say
    whether a friend can be rammed; the ruling (RULINGS.md, ramming) refuses the move."""
    state = game("Monitor", "Minnesota", "Virginia")
    stand(state, "Monitor", "0805", W)
    stand(state, "Minnesota", along(state, "0805", W, 1), NE)
    stand(state, "Virginia", "1308", W)
    fire_turn(state, ["Monitor hold", "Minnesota hold"], ["Virginia hold"], [1, 2])
    fails(state, "union", "Monitor move F")


def test_a_ship_driven_past_its_critical_point_breaks_off_too() -> None:
    """3.1: "When a ship’s Flotation Value reaches the Critical Point, the ship must break off from
    battle." A Major hit takes Minnesota from 3 to 1, past her Critical Point of 2 without stopping
    on it: she breaks off all the same (RULINGS.md, critical point), and is not sunk. (The report
    said "reaches its critical point (FV 1)", as if her Critical Point were 1.)"""
    state = minnesota_under_fire()
    damage(state, "Minnesota", 3)
    out = fire_turn(state, [], ["Virginia fire Minnesota"], [6, 1, 1, 1, 1, 2])
    assert fv(state, "Minnesota") == 1
    assert ship(state, "Minnesota").status in ("broken-off", "saved")
    # The report names the Critical Point itself (2), not the value she fell to.
    assert "past its critical point (FV 2) to FV 1 and breaks off" in out


def test_a_ship_that_sails_to_safety_leaves_by_its_home_edge() -> None:
    """3.1: "Next move it must break off from the battle it is taking part in and sail to safety …
    if it can." Minnesota breaks off one hex from the Union's home edge (north) and leaves the
    board by it in her next move: saved, not lost (RULINGS.md, breaking off)."""
    state = game("Monitor", "Minnesota", "Virginia")
    stand(state, "Minnesota", "0502", NE)
    stand(state, "Virginia", along(state, "0502", E, 1), NE)
    stand(state, "Monitor", "0108", E)
    damage(state, "Minnesota", 3)
    out = fire_turn(state, [], ["Virginia fire Minnesota"], [5, 1, 1, 1, 1, 2])
    assert "leaves by the north edge" in out
    assert ship(state, "Minnesota").status == "saved"


def test_a_broken_off_ship_does_not_fire() -> None:
    """3.1: "the ship must break off from battle." Breaking off from battle, Minnesota may not
    fire (RULINGS.md, breaking off; option broken-off-fire=yes lets her)."""
    state = minnesota_under_fire()
    ship(state, "Minnesota").status = "broken-off"
    assert "broken" in fails(state, "union", "Minnesota fire Virginia").lower()


def test_the_game_ends_when_a_side_has_no_ship_left_fighting() -> None:
    """3.1: "When a ship's Flotation Value is reached, it sinks." The book names no victory
    condition; the ruling (RULINGS.md, end of the game) ends it when a side has no ship left
    fighting: Virginia, the last Confederate, sinks and the Union wins."""
    state = game("Monitor", "Virginia")
    stand(state, "Monitor", "0805", E)
    stand(state, "Virginia", along(state, "0805", E, 1), NE)
    damage(state, "Virginia", 7)
    fire_turn(state, ["Monitor fire Virginia"], ["Virginia hold"], [4, 1, 1, 1, 1, 1])
    assert state.phase == "over"
    assert state.winner == "union"


def test_the_rammer_takes_no_damage() -> None:
    """5.1: "If the ship that is ramming the other is equipped with a ram, then four firing dice are
    thrown." The dice are thrown against the rammed ship only; the book gives the rammer none
    (RULINGS.md, ramming)."""
    state = ram_set_up("Virginia", "confederate")
    order(state, "confederate", "Virginia move F", ScriptedDice())
    order(state, "confederate", "done", ScriptedDice())
    order(state, "union", "Monitor stay", ScriptedDice([6, 6, 6, 6]))
    assert fv(state, "Virginia") == 8
    assert fv(state, "Monitor") == 0


def test_a_ram_that_brings_a_ship_to_its_critical_point_breaks_it_off() -> None:
    """5.1: "If the ship that is ramming the other is not equipped with a ram, then two firing dice
    are thrown." With 3.1: "When a ship’s Flotation Value reaches the Critical Point, the ship must
    break off from battle." Patrick Henry's two dice (a Major and a Minor) take Monitor from 6 to 3,
    her Critical Point: she breaks off."""
    state = ram_set_up("Patrick Henry", "confederate")
    damage(state, "Monitor", 2)
    order(state, "confederate", "Patrick Henry move F", ScriptedDice())
    order(state, "confederate", "done", ScriptedDice())
    out = texts(order(state, "union", "Monitor stay", ScriptedDice([6, 5])))
    assert fv(state, "Monitor") == 3
    assert "breaks off" in out
    assert ship(state, "Monitor").status == "broken-off"
