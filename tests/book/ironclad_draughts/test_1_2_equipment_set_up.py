"""Book 004, "Playing Equipment" (1) and "Set-Up" (2): see test_sections_covered for the numbering."""

from __future__ import annotations

from collections import Counter

from tests.book.ironclad_draughts.book import RS, game, square
from tests.ironclad_draughts.helpers import new_game


def test_the_board_is_marked_in_squares_and_a_model_fills_one() -> None:
    """1.1: "A playing surface marked in squares." and "each model to be no longer than length of
    the side of one of the squares": the board is a square grid and each ship stands on one square."""
    state = new_game()
    board = RS.view(state, None).board
    assert board.kind == "square"
    assert (board.width, board.height) == (8, 8)
    squares = [c.pos for c in RS.view(state, None).counters]
    assert all(x == int(x) and y == int(y) for x, y in squares)


def test_a_pack_of_standard_cards_orders_the_move_and_small_cards_the_damage() -> None:
    """1.2: "A pack of standard playing cards (Used to determine order on move)." and 1.3: "A pack
    of small playing cards (Used to determine Damage and Damage Control)." Each ship gets a card of
    the standard pack (no two alike); the damage pack lies face down apart from it."""
    state = new_game(seed=7)
    summary = RS.summary(state)
    dealt = next(line for line in summary if line.startswith("Cards:"))
    assert dealt.count(",") == 5  # one card for each of the six ships
    assert any(line.startswith("Damage pack: 54 face down") for line in summary)


def test_each_ship_has_a_record_sheet_with_flotation_points() -> None:
    """1.5: "A Ship's Record Sheet for each ship." and "A Flotation Point marker for each Ship's
    Record Sheet.": every ship's counter shows its flotation points left out of its sheet's total."""
    state = new_game()
    for counter in RS.view(state, None).counters:
        left, total = counter.damage_text.split()[0].split("/")
        assert left == total and int(total) == counter.damage_max > 0


def test_three_a_side_on_opposite_outside_ranks_heading_towards_each_other() -> None:
    """2: "Place the opposing squadrons of three ships on opposite sides of the playing surface,
    heading towards each other. Only one ship may occupy each square. The ships are placed in the
    outside rank of squares." """
    state = new_game()
    by_side = Counter(s.side for s in state.ships)
    assert sorted(by_side.values()) == [3, 3]
    places = [square(state, s.name) for s in state.ships]
    assert len(set(places)) == 6
    first, second = state.sides[0].id, state.sides[1].id
    for s in state.ships:
        counter = next(c for c in RS.view(state, None).counters if c.id == s.id)
        if s.side == first:
            assert square(state, s.name).endswith("1") and counter.facing == 0.0  # bottom rank, north
        else:
            assert square(state, s.name).endswith("8") and counter.facing == 180.0  # top rank, south
    assert second != first


def test_a_side_replaced_by_option_is_still_set_up_on_its_outside_rank() -> None:
    """2: "The ships are placed in the outside rank of squares." also when a side is chosen by
    option (three ships of other classes)."""
    state = game("Inflexible", "Re d'Italia", scenario="standard", squadron1="inflexible+inflexible+devastation")
    ranks = {square(state, s.name)[1:] for s in state.ships if s.side == state.sides[0].id}
    assert ranks == {"1"}
