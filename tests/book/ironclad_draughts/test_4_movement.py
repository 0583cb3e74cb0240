"""Book 004, "Movement" (4): see test_sections_covered for the numbering. How a heading and the
45-degree moves either side of it are read is the project's ruling (RULINGS.md, movement)."""

from __future__ import annotations

import copy

import pytest

from games.ironclad_draughts.state import State
from tests.book.ironclad_draughts.book import (
    RS,
    acting,
    cards,
    damage,
    fails,
    game,
    order,
    place,
    sail,
    square,
    stack,
)

HEADING = {0.0: "N", 45.0: "NE", 90.0: "E", 135.0: "SE", 180.0: "S", 225.0: "SW", 270.0: "W", 315.0: "NW"}


def heading(state: State, name: str) -> str:
    """A ship's heading as its counter in the public view shows it."""
    counter = next(c for c in RS.view(state, None).counters if c.label == name)
    assert counter.facing is not None
    return HEADING[counter.facing]


def reachable(state: State, seat: str, name: str) -> set[tuple[str, str]]:
    """(square, heading) after each legal order of the active ship, tried on copies."""
    out = set()
    for legal in RS.legal_orders(state, seat):
        trial = copy.deepcopy(state)
        order(trial, seat, legal.text.split(" fire ")[0])
        out.add((square(trial, name), heading(trial, name)))
    return out


def alone(where: str, facing: str) -> State:
    """Habsburg on ``where`` heading ``facing`` to act now; Affondatore far off, acting next."""
    state = game("Habsburg", "Affondatore")
    place(state, "Habsburg", where, facing)
    place(state, "Affondatore", "h8" if where != "h8" else "a8", "S")
    cards(state, Habsburg="2H", Affondatore="3H")
    return state


def test_one_or_two_squares_orthogonally_or_one_diagonally_and_a_ninety_degree_turn_at_the_end() -> None:
    """4.1: "Ships move on squares: One or two squares orthogonally. One square diagonally. Ships may
    turn 8 points (90 degrees) at the end of their move." A ship heading north on d4 reaches d5 or
    d6 straight on, c5 or e5 diagonally, each keeping its heading or turned 90 degrees after."""
    state = alone("d4", "N")
    squares = {"d5", "d6", "c5", "e5"}
    assert reachable(state, "austria", "Habsburg") == {(sq, h) for sq in squares for h in ("N", "W", "E")}


def test_a_ship_heading_diagonally_moves_one_square_along_its_heading_or_two_orthogonally() -> None:
    """4.1: "One or two squares orthogonally. One square diagonally." A ship left heading north-east
    (a steering hit turns it 45 degrees) moves one square along its diagonal heading, or one or two
    squares north or east, the orthogonal directions 45 degrees off its bow."""
    state = alone("d4", "NE")
    squares = {sq for sq, _ in reachable(state, "austria", "Habsburg")}
    assert squares == {"e5", "d5", "d6", "e4", "f4"}


@pytest.mark.parametrize(("text", "why"), [("move 2 diag port", "diagonal"), ("move 3", "1 or 2")])
def test_no_two_square_diagonal_and_no_three_square_move(text: str, why: str) -> None:
    """4.1: "One or two squares orthogonally. One square diagonally." """
    state = alone("d4", "N")
    assert fails(state, "austria", text)
    assert square(state, "Habsburg") == "d4"
    del why


def test_the_turn_is_ninety_degrees_at_the_end_of_the_move() -> None:
    """4.1: "Ships may turn 8 points (90 degrees) at the end of their move." The turn comes after
    the move: turned to starboard after two squares north, the ship is on d6 heading east."""
    state = alone("d4", "N")
    order(state, "austria", "move 2 turn starboard")
    assert (square(state, "Habsburg"), heading(state, "Habsburg")) == ("d6", "E")


def test_an_undamaged_ship_may_not_stop() -> None:
    """4.2: "Ships may not stop unless they are damaged." An undamaged ship may not `pass`, and a
    fire order must come with a move."""
    state = alone("d4", "N")
    assert "may not stop" in fails(state, "austria", "pass")
    assert "must move" in fails(state, "austria", "fire Affondatore")
    assert square(state, "Habsburg") == "d4"


def test_a_ship_with_damage_in_force_that_allows_moving_still_moves_by_default() -> None:
    """4.2: "Ships may not stop unless they are damaged." (ruled, RULINGS.md "Stopping"): the
    damage that lets a ship stop is the damage that stops it (an Engine Hit); a ship on fire
    "move[s] as usual" (5.4), so it may not stop unless the option damaged_may_stop=yes is chosen."""
    state = alone("d4", "N")
    damage(state, "Habsburg", "JC")
    assert "may not stop" in fails(state, "austria", "pass")
    chosen = game("Habsburg", "Affondatore", damaged_may_stop="yes")
    place(chosen, "Habsburg", "d4", "N")
    place(chosen, "Affondatore", "h8", "S")
    cards(chosen, Habsburg="2H", Affondatore="3H")
    damage(chosen, "Habsburg", "JC")
    order(chosen, "austria", "pass")
    assert square(chosen, "Habsburg") == "d4"


def test_ships_may_not_go_astern() -> None:
    """4.3: "Ships may not go astern." No legal order of a ship heading north takes it to a rank
    behind it, and an astern order is refused."""
    state = alone("d4", "N")
    assert all(int(sq[1:]) > 4 for sq, _ in reachable(state, "austria", "Habsburg"))
    assert fails(state, "austria", "move 1 astern")


def test_ending_in_an_occupied_square_is_a_ram() -> None:
    """4.4: "See Ramming for any ship ending its movement in a square that is already occupied by
    ship." A move onto an enemy's square is accepted and rams it (see test_8_ramming)."""
    state = game("Habsburg", "Affondatore", "Kaiser Max")
    place(state, "Habsburg", "d4", "N")
    place(state, "Affondatore", "d6", "S")
    place(state, "Kaiser Max", "a1", "E")
    cards(state, Habsburg="2H", Affondatore="3H", **{"Kaiser Max": "KS"})
    out = order(state, "austria", "move 2")
    assert "rams Affondatore" in out


def test_a_ship_that_leaves_the_board_cannot_return() -> None:
    """4.5: "Ships that leave the playing surface during this manoeuvre cannot return." A move off
    the board must say `leave`; the ship is then out for good: no card, no order, not on the board."""
    state = game("Habsburg", "Kaiser Max", "Affondatore")
    place(state, "Habsburg", "d8", "N")
    place(state, "Kaiser Max", "a1", "E")
    place(state, "Affondatore", "h5", "S")
    cards(state, Habsburg="2H", Affondatore="3H", **{"Kaiser Max": "KS"})
    assert "leave" in fails(state, "austria", "move 1")
    order(state, "austria", "move 1 leave")
    assert "Habsburg" not in {c.label for c in RS.view(state, None).counters}
    sail(state, {"Affondatore": ["move 1"], "Kaiser Max": ["move 1"]})
    assert acting(state) != "Habsburg"
    assert "Habsburg" not in next(x for x in RS.summary(state) if x.startswith("Cards:"))


def test_through_the_enemy_line_turn_round_and_return_is_reported() -> None:
    """4.5: "Both squadrons have to move to the far edge of the playing surface, through the enemy
    line (if possible), turn round, and return to the ranks of squares they started in." Habsburg
    sails to the far rank, comes round in two 90-degree turns and sails home to rank 1; when the
    game ends the result names it among the ships that made the manoeuvre."""
    state = game("Habsburg", "Affondatore")
    place(state, "Habsburg", "a6", "N")
    place(state, "Affondatore", "g4", "N")
    cards(state, Habsburg="2H", Affondatore="3H")
    circle = ["move 1 turn starboard"] * 8  # g4-g5-h5-h4-g4 ... round and round
    sail(
        state,
        {
            "Habsburg": [
                "move 2 turn starboard",
                "move 1 turn starboard",
                "move 2",
                "move 2",
                "move 2",
                "move 1 turn port",
            ],
            "Affondatore": circle,
        },
    )
    assert square(state, "Habsburg") == "b1"
    place(state, "Affondatore", "h8", "N")
    sail(state, {"Habsburg": ["move 1"], "Affondatore": ["move 1 leave"]})
    result = RS.outcome(state)
    assert result is not None and result.winner == "austria"
    assert "Passed through and returned: Habsburg." in result.details


def test_a_ship_may_turn_aside_to_ram_a_disabled_enemy() -> None:
    """4.5: "Ships may turn to ram disabled enemy ships." Habsburg, sailing north, turns towards an
    enemy stopped by an Engine Hit and rams it on its next activation."""
    state = game("Habsburg", "Affondatore", "Kaiser Max")
    place(state, "Habsburg", "c4", "N")
    place(state, "Affondatore", "e5", "N")
    place(state, "Kaiser Max", "a1", "E")
    damage(state, "Affondatore", "KS")
    cards(state, Habsburg="2H", Affondatore="3H", **{"Kaiser Max": "KS"})
    stack(state, "2H", "3H")  # Affondatore's two damage-control draws fail
    order(state, "austria", "move 2 turn starboard")  # c6, heading east
    assert heading(state, "Habsburg") == "E"
    out = sail(state, {"Affondatore": ["pass", "pass"], "Kaiser Max": ["move 1", "move 1"], "Habsburg": ["move 2"]})
    assert square(state, "Affondatore") == "e6"  # one square ahead, then stopped
    assert "Habsburg rams Affondatore" in out
