"""Movement: 1-2 orthogonally or 1 diagonally within the forward arc, the end turn, leaving, damage."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder, InvalidSyntax
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import legal_texts
from games.core.squaregrid import Square
from games.ironclad_draughts.rules.movement_4 import movement_mode
from games.ironclad_draughts.rules.sequence_3 import advance
from games.ironclad_draughts.state import Ship, State, label
from tests.ironclad_draughts.helpers import RS, activate, damage, new_game, order, place, ship, stack


def duel_at(square: str, heading: str) -> tuple[State, Ship]:
    state = new_game("duel")
    place(state, "Cochrane", "a8", "S")
    s = place(state, "Huascar", square, heading)
    activate(state, "Huascar", "2C")
    return state, s


def pos(s: Ship) -> str:
    return label(Square(s.x, s.y))


@pytest.mark.parametrize(
    ("heading", "text", "square", "final_heading"),
    [
        ("N", "move 1", "c4", 0),
        ("N", "move 2", "c5", 0),
        ("N", "move diag port", "b4", 0),
        ("N", "move 1 starboard", "d4", 0),
        ("N", "move 2 turn starboard", "c5", 2),
        ("N", "move 1 port turn port", "b4", 6),
        ("NE", "move 1", "d4", 1),  # a diagonal heading: ahead is one square only
        ("NE", "move 2 port", "c5", 1),  # 45 degrees to port of NE is N: orthogonal, so two squares
        ("NE", "move 2 starboard turn port", "e3", 7),
        ("S", "move 2", "c1", 4),
    ],
)
def test_legal_moves(heading: str, text: str, square: str, final_heading: int) -> None:
    state, s = duel_at("c3", heading)
    order(state, "peru", text)
    assert (pos(s), s.heading) == (square, final_heading)


@pytest.mark.parametrize(
    ("heading", "text", "message"),
    [
        ("N", "move 2 port", "only 1 square diagonally"),
        ("N", "move 3", "1 or 2 squares"),
        ("NE", "move 2", "only 1 square diagonally"),
        ("N", "move 0", "1 or 2 squares"),
    ],
)
def test_moves_outside_the_rules_are_refused_quoting_the_input(heading: str, text: str, message: str) -> None:
    state, _ = duel_at("c3", heading)
    with pytest.raises(IllegalOrder, match=message) as err:
        RS.parse_order(state, "peru", text)
    assert f"`{text}`" in err.value.text


def test_no_going_astern_or_abeam() -> None:
    state, _ = duel_at("c3", "N")
    legal = legal_texts(RS, state, "peru")
    destinations = set()
    for text in legal:
        trial = RS.decode(RS.encode(state))
        order(trial, "peru", text)
        destinations.add(pos(ship(trial, "Huascar")))
    assert destinations == {"c4", "c5", "b4", "d4"}


def test_an_undamaged_ship_may_not_stop() -> None:
    state, _ = duel_at("c3", "N")
    with pytest.raises(IllegalOrder, match="must move first"):
        RS.parse_order(state, "peru", "pass")
    with pytest.raises(IllegalOrder, match="must move first"):
        RS.parse_order(state, "peru", "fire Cochrane")


def test_garbage_is_invalid_syntax() -> None:
    state, _ = duel_at("c3", "N")
    for text in ["", "sail away", "move", "move two", "move 1 turn", "move 1 wobble", "move diag"]:
        with pytest.raises(InvalidSyntax):
            RS.parse_order(state, "peru", text)


def test_leaving_the_board_needs_leave_and_is_final() -> None:
    state, s = duel_at("c2", "S")
    with pytest.raises(IllegalOrder, match="off the board over the south edge") as err:
        RS.parse_order(state, "peru", "move 2")
    assert "leave" in err.value.hint
    with pytest.raises(IllegalOrder, match="stays on the board"):
        RS.parse_order(state, "peru", "move 1 leave")
    assert "move 2 leave" in legal_texts(RS, state, "peru")
    text = order(state, "peru", "move 2 leave")
    assert "cannot return" in text and s.status == "off"


def test_a_ship_may_not_pass_through_another() -> None:
    state, _ = duel_at("c3", "N")
    place(state, "Cochrane", "c4", "S")
    with pytest.raises(IllegalOrder, match="in the way"):
        RS.parse_order(state, "peru", "move 2")


def test_conning_tower_hit_moves_one_square_ahead_and_may_not_fire() -> None:
    state, s = duel_at("c3", "N")
    damage(state, "Huascar", "AC")
    state.damage_deck.draw_pile.append("2H")
    with pytest.raises(IllegalOrder, match="cannot choose its move"):
        RS.parse_order(state, "peru", "move 2")
    assert legal_texts(RS, state, "peru") == ["pass"]
    with pytest.raises(IllegalOrder, match="conning tower"):
        RS.parse_order(state, "peru", "fire Cochrane")
    order(state, "peru", "pass")
    assert (pos(s), s.heading) == ("c4", 0)


def test_engine_hit_moves_one_square_then_the_ship_is_stopped() -> None:
    state, s = duel_at("c3", "N")
    damage(state, "Huascar", "KC")
    order(state, "peru", "pass")
    assert pos(s) == "c4" and s.damage[0].spent
    assert movement_mode(s) == "stopped"
    activate(state, "Huascar", "3C")
    order(state, "peru", "pass")
    assert pos(s) == "c4"


@pytest.mark.parametrize(("card", "final_heading"), [("QH", 7), ("QD", 7), ("QS", 1), ("QC", 1)])
def test_steering_hit_turns_45_degrees_port_on_red_starboard_on_black(card: str, final_heading: int) -> None:
    state, s = duel_at("c3", "N")
    damage(state, "Huascar", card)
    order(state, "peru", "pass")
    assert (pos(s), s.heading) == ("c4", final_heading)


def test_forced_move_off_the_board_happens_by_itself() -> None:
    state, s = duel_at("c8", "N")
    damage(state, "Huascar", "KC")
    order(state, "peru", "pass")
    assert s.status == "off"


def test_damage_control_runs_when_the_activation_starts() -> None:
    state = new_game("duel")
    s = damage(state, "Huascar", "AC")
    place(state, "Huascar", "c3", "N")
    state.damage_deck.draw_pile.append("5C")  # same suit as the conning tower hit
    for other in state.ships:
        other.activated = other.id != s.id
    s.card = "KS"
    advance(state, Rng(seed_from_number(5)), [])
    assert state.active == s.id and not s.damage
    assert "repaired" in " ".join(state.report)
    # repaired at the start of the activation, so the ship moves freely in the same activation
    order(state, "peru", "move 2")
    assert pos(s) == "c5"


def test_pass_through_option_lets_a_two_square_move_pass_another_ship() -> None:
    state = new_game("duel", pass_through="yes")
    place(state, "Cochrane", "c4", "S")
    s = place(state, "Huascar", "c3", "N")
    activate(state, "Huascar", "2C")
    order(state, "peru", "move 2")
    assert pos(s) == "c5"


def test_pass_through_then_ram_stays_at_the_last_empty_square() -> None:
    state = new_game("standard", pass_through="yes")
    place(state, "Kaiser Max", "c4", "N")
    place(state, "Affondatore", "c5", "S")
    hab = place(state, "Habsburg", "c3", "N")
    activate(state, "Habsburg", "2S")
    stack(state, "2H", "2C")
    text = order(state, "austria", "move 2")
    assert "Habsburg rams Affondatore" in text and pos(hab) == "c3"
