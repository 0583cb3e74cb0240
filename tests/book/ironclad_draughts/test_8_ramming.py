"""Book 004, "Ramming" (8): see test_sections_covered for the numbering. Where a rammer stands after
the ram (the square before its target's) is the project's ruling (RULINGS.md "Ramming")."""

from __future__ import annotations

import pytest

from games.ironclad_draughts.state import State
from tests.book.ironclad_draughts.book import (
    cards,
    fails,
    flotation,
    game,
    in_force,
    order,
    place,
    ship,
    square,
    stack,
)


def ram(rammer_card: str = "2H", target: str = "Affondatore") -> State:
    """Habsburg (14 points) on d4 heading north acts now; ``target`` stands on d5 (Kaiser Max, 12
    points, is Habsburg's squadron; Affondatore, 12 points, the enemy)."""
    state = game("Habsburg", "Kaiser Max", "Affondatore")
    place(state, "Habsburg", "d4", "N")
    other = "Kaiser Max" if target == "Affondatore" else "Affondatore"
    place(state, target, "d5", "E")
    place(state, other, "h8" if other == "Affondatore" else "a1", "S" if other == "Affondatore" else "E")
    cards(state, Habsburg=rammer_card, Affondatore="9C", **{"Kaiser Max": "10D"})
    return state


def test_ending_the_move_in_an_occupied_square_rams_and_the_rammer_stays_before_it() -> None:
    """8.1: "A ship that ends its movement in a square already occupied by another may ram it,
    regardless of which squadron it belongs to." 8.3: "If the ships belong to opposing squadrons,
    the moving ship will ram the other ship." The ram is made and the rammer stays on the square it
    came from (one ship to a square, set-up)."""
    state = ram()
    stack(state, "2C", "2D")
    out = order(state, "austria", "move 1")
    assert "Habsburg rams Affondatore!" in out
    assert square(state, "Habsburg") == "d4" and square(state, "Affondatore") == "d5"


def test_a_two_square_move_may_not_pass_through_a_ship() -> None:
    """8.1: "A ship that ends its movement in a square already occupied by another may ram it"
    (ruled, RULINGS.md "Passing through a ship"): a move may not pass through a ship on its way,
    unless option pass_through=yes is chosen."""
    state = ram()
    place(state, "Affondatore", "d5", "E")
    assert "may not pass through" in fails(state, "austria", "move 2")
    allowed = game("Habsburg", "Kaiser Max", "Affondatore", pass_through="yes")
    place(allowed, "Habsburg", "d4", "N")
    place(allowed, "Affondatore", "d5", "E")
    place(allowed, "Kaiser Max", "a1", "E")
    cards(allowed, Habsburg="2H", Affondatore="9C", **{"Kaiser Max": "10D"})
    order(allowed, "austria", "move 2")
    assert square(allowed, "Habsburg") == "d6"


def test_a_two_square_move_rams_a_ship_on_its_second_square() -> None:
    """8.1: "A ship that ends its movement in a square already occupied by another may ram it": a
    two-square move ending on the enemy's square rams it from the square between."""
    state = ram()
    place(state, "Affondatore", "d6", "E")
    stack(state, "2C", "2D")
    out = order(state, "austria", "move 2")
    assert "Habsburg rams Affondatore!" in out and square(state, "Habsburg") == "d5"


def test_a_friend_is_rammed_on_a_red_card() -> None:
    """8.1: "regardless of which squadron it belongs to"; 8.2: "If the ships belong to the same
    squadron and the card that activated the moving ship is a red card, the moving ship will ram the
    other ship." """
    state = ram("2D", target="Kaiser Max")
    stack(state, "2C", "3C")
    out = order(state, "austria", "move 1")
    assert "Habsburg rams Kaiser Max!" in out
    assert flotation(state, "Habsburg") == 13 and flotation(state, "Kaiser Max") == 12 - 3


def test_a_friend_is_avoided_on_a_black_card() -> None:
    """8.2: "If the card is a black card, they will avoid each other." No ram and no damage card
    drawn; the moving ship stops short (RULINGS.md "Ramming")."""
    state = ram("2C", target="Kaiser Max")
    pack = len(state.damage_deck.draw_pile)
    out = order(state, "austria", "move 1")
    assert "rams" not in out and "avoid" in out
    assert flotation(state, "Habsburg") == 14 and flotation(state, "Kaiser Max") == 12
    assert len(state.damage_deck.draw_pile) == pack


def test_an_enemy_is_rammed_whatever_the_colour() -> None:
    """8.3: "If the ships belong to opposing squadrons, the moving ship will ram the other ship." A
    black activation card rams an enemy all the same."""
    state = ram("2S")
    stack(state, "2C", "2D")
    assert "Habsburg rams Affondatore!" in order(state, "austria", "move 1")


@pytest.mark.parametrize(
    ("drawn", "lost", "stays"),
    [
        ("AH", 5, ["A♥"]),
        ("KD", 5, ["K♦"]),
        ("QC", 5, ["Q♣"]),
        ("JS", 5, []),
        ("10H", 5, []),
        ("9H", 5, []),
        ("8C", 4, []),
        ("7D", 4, []),
        ("6S", 3, []),
        ("5H", 3, []),
        ("4C", 2, []),
        ("3D", 2, []),
        ("2S", 1, []),
    ],
)
def test_the_rammers_damage_card(drawn: str, lost: int, stays: list[str]) -> None:
    """8.4: "The ramming ship draws a Damage Card to determine what damage it has suffered: Ace:
    Conning Tower Hit plus loses five flotation points. King: Engine Hit plus loses five flotation
    points. Queen: Steering Hit plus loses five flotation points. Jack: Loses five flotation points.
    9 or 10: Loses five flotation points. 7 or 8: Loses four flotation points. 5 or 6: Loses three
    flotation points. 3 or 4: Loses two flotation points. 2: Loses one flotation point. Note: Damage
    Cards that only cause loss of flotation points are discarded after the damage has been
    recorded." """
    state = ram()
    stack(state, drawn, "2C")
    order(state, "austria", "move 1")
    assert flotation(state, "Habsburg") == 14 - lost
    assert in_force(state, "Habsburg") == stays


@pytest.mark.parametrize(
    ("drawn", "lost", "stays"),
    [
        ("AH", 10, ["A♥"]),
        ("KD", 10, ["K♦"]),
        ("QC", 10, ["Q♣"]),
        ("JS", 10, []),
        ("10H", 10, []),
        ("9C", 9, []),
        ("5D", 5, []),
        ("2S", 2, []),
    ],
)
def test_the_rammed_ships_damage_card(drawn: str, lost: int, stays: list[str]) -> None:
    """8.5: "The rammed ship draws a Damage Card to determine what damage it has suffered: Ace:
    Conning Tower Hit plus loses ten flotation points. King: Engine Hit plus loses ten flotation
    points. Queen: Steering Hit plus loses ten flotation points. Jack: Loses ten flotation points.
    10 or lower: Loses a flotation point for each number on the Damage Card." A big ship (Habsburg,
    14 points) is the one rammed here, by Affondatore."""
    state = game("Habsburg", "Kaiser Max", "Affondatore")
    place(state, "Affondatore", "d4", "N")
    place(state, "Habsburg", "d5", "E")
    place(state, "Kaiser Max", "a8", "E")
    cards(state, Affondatore="2H", Habsburg="9C", **{"Kaiser Max": "10D"})
    stack(state, "2C", drawn, "3S")  # the rammer's card, the rammed ship's, Habsburg's control draw
    order(state, "italy", "move 1")
    assert flotation(state, "Affondatore") == 12 - 1
    assert flotation(state, "Habsburg") == 14 - lost
    assert in_force(state, "Habsburg") == stays  # the 3♠ control draw repairs none of them


def test_a_ram_can_sink_the_rammed_ship() -> None:
    """8.5 with 7: "Jack: Loses ten flotation points." and "A ship sinks when its Flotation Points
    are reduced to 0." Affondatore, down to its last ten points, sinks at once."""
    state = ram()
    ship(state, "Affondatore").flotation = 10
    stack(state, "2C", "JD")
    out = order(state, "austria", "move 1")
    assert "Affondatore sinks!" in out


def test_the_rammer_does_not_fire() -> None:
    """5.1: "A ship may not fire ... whilst it is Ramming another ship." """
    state = ram()
    assert "may not fire" in fails(state, "austria", "move 1 fire Affondatore")


def test_a_joker_drawn_in_a_ram_does_nothing() -> None:
    """8.4: "The ramming ship draws a Damage Card" and 8.5: "The rammed ship draws a Damage Card"
    list no Joker (ruled, RULINGS.md "Jokers"): a Joker costs neither ship anything."""
    state = ram()
    stack(state, "JK1", "JK2")
    order(state, "austria", "move 1")
    assert flotation(state, "Habsburg") == 14 and flotation(state, "Affondatore") == 12
    assert in_force(state, "Habsburg") == [] and in_force(state, "Affondatore") == []
