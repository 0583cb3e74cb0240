"""Set-up, seats, the deal, activation order and the turn cycle."""

from __future__ import annotations

import pytest

from games.core.errors import GameError, InvalidSyntax, UnknownName
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import get_ruleset, legal_texts
from games.ironclad_draughts.data import scenarios, ship_classes
from games.ironclad_draughts.rules.movement_4 import update_manoeuvre
from games.ironclad_draughts.rules.sequence_3 import activation_key, advance
from tests.ironclad_draughts.helpers import RS, activate, new_game, order, park, place, ship


def test_registered_under_its_id() -> None:
    rs = get_ruleset("ironclad-draughts")
    assert rs.name == "Ironclad Draughts"
    assert {s.id for s in rs.scenarios()} >= {"standard", "duel", "fleet"}


def test_record_sheets_have_guns_with_calibres_and_arcs() -> None:
    classes = ship_classes()
    assert len(classes) >= 6
    for cls in classes.values():
        assert 1860 <= cls.year <= 1899
        assert cls.flotation > 0 and cls.guns
        assert all(g.calibre > 0 and g.arc in ("all", "fore", "aft", "port", "starboard") for g in cls.guns)
    assert any(g.calibre >= 16 for c in classes.values() for g in c.guns)


def test_scenario_sizes() -> None:
    specs = scenarios()
    assert [len(s.ships) for s in specs["standard"].sides] == [3, 3]
    assert [len(s.ships) for s in specs["duel"].sides] == [1, 1]
    assert all(len(s.ships) > 3 for s in specs["fleet"].sides)
    assert (specs["standard"].width, specs["standard"].height) == (8, 8)
    assert specs["fleet"].width > 8


@pytest.mark.parametrize("scenario", ["standard", "duel", "fleet"])
def test_squadrons_start_on_opposite_back_ranks_facing_each_other(scenario: str) -> None:
    state = new_game(scenario)
    first, second = state.sides[0].id, state.sides[1].id
    squares = {(s.x, s.y) for s in state.ships}
    assert len(squares) == len(state.ships)
    for s in state.ships:
        if s.side == first:
            assert (s.y, s.heading) == (0, 0)
        else:
            assert s.side == second and (s.y, s.heading) == (state.height - 1, 4)


def test_deal_gives_each_ship_a_distinct_face_up_card_and_lowest_acts_first() -> None:
    state = new_game("fleet", seed=3)
    cards = [s.card for s in state.ships]
    assert len(set(cards)) == len(cards) == 12
    first = min(state.ships, key=lambda s: activation_key(s.card))
    assert state.active == first.id and state.turn == 1
    assert len(state.activation_deck.draw_pile) == 52 - 12


def test_activation_order_ace_low_then_hearts_clubs_diamonds_spades() -> None:
    cards = ["3C", "2D", "KH", "AS", "2C", "2S", "2H", "10D"]
    assert sorted(cards, key=activation_key) == ["AS", "2H", "2C", "2D", "2S", "3C", "10D", "KH"]


def test_next_ship_follows_cards_and_turn_ends_with_a_new_deal() -> None:
    state = new_game("duel")
    a, b = state.ships
    a.card, b.card = "5S", "5H"
    a.activated = b.activated = False
    state.active = ""
    lines: list[str] = []
    advance(state, Rng(seed_from_number(1)), lines)
    assert state.active == b.id  # 5 of Hearts before 5 of Spades
    b.activated = True
    advance(state, Rng(seed_from_number(1)), lines)
    assert state.active == a.id
    a.activated = True
    advance(state, Rng(seed_from_number(1)), lines)
    assert state.turn == 2 and all(s.card for s in state.ships)
    assert "Turn 2: activation cards dealt" in "\n".join(lines)
    # all 52 activation cards were collected and reshuffled before the deal
    assert len(state.activation_deck.draw_pile) == 50 and not state.activation_deck.discards


def test_umpire_deals_when_option_set() -> None:
    state = new_game("duel", umpire_deals="yes")
    assert state.phase == "deal" and RS.to_act(state) == ["umpire"]
    assert legal_texts(RS, state, "umpire") == ["deal"]
    assert legal_texts(RS, state, "chile") == []
    with pytest.raises(GameError, match="Only the umpire"):
        RS.parse_order(state, "chile", "deal")
    with pytest.raises(GameError, match="not dealt yet"):
        RS.parse_order(state, "chile", "move 2")
    text = order(state, "umpire", "deal")
    assert "Turn 1: activation cards dealt" in text
    assert state.phase == "activate" and state.active
    with pytest.raises(GameError, match="nothing to deal"):
        RS.parse_order(state, "umpire", "deal")


def test_umpire_deals_again_after_each_turn() -> None:
    state = new_game("duel", umpire_deals="yes")
    order(state, "umpire", "deal")
    for _ in range(2):
        seat = RS.to_act(state)[0]
        order(state, seat, legal_texts(RS, state, seat)[0])
    assert state.phase == "deal" and RS.to_act(state) == ["umpire"]


def test_seats_per_squadron_or_per_ship_and_optional_umpire() -> None:
    by_side = RS.seats(new_game())
    assert [s.id for s in by_side] == ["austria", "italy", "umpire"]
    assert by_side[-1].optional and not by_side[0].optional
    by_ship = RS.seats(new_game(seats="ship"))
    assert len(by_ship) == 7 and by_ship[0].kind == "ship" and by_ship[-1].id == "umpire"
    state = new_game(seats="ship")
    assert RS.to_act(state) == [state.active]


def test_options_are_validated() -> None:
    with pytest.raises(UnknownName, match="colour"):
        new_game(colour="red")
    with pytest.raises(InvalidSyntax, match="maybe"):
        new_game(seats="maybe")
    with pytest.raises(InvalidSyntax, match="turn_limit"):
        new_game(turn_limit="soon")
    with pytest.raises(GameError, match="board"):
        new_game(board="huge")


def test_squadron_composition_from_options() -> None:
    state = new_game("duel", squadron1="inflexible+devastation:Thunderer", squadron2="duilio+duilio")
    names = [(s.name, s.class_id, s.side) for s in state.ships]
    assert names == [
        ("Inflexible", "inflexible", "chile"),
        ("Thunderer", "devastation", "chile"),
        ("Duilio", "duilio", "peru"),
        ("Duilio 2", "duilio", "peru"),
    ]
    with pytest.raises(UnknownName, match="warship"):
        new_game("duel", squadron1="warship")
    with pytest.raises(GameError, match="back rank"):
        new_game("duel", squadron1="+".join(["huascar"] * 7))


def test_board_size_option() -> None:
    state = new_game("standard", board="10x12")
    assert (state.width, state.height) == (10, 12)
    assert {s.y for s in state.ships} == {0, 11}


def test_game_ends_when_a_side_is_all_sunk_or_off_and_reports_the_manoeuvre() -> None:
    state = new_game()
    austria = [s for s in state.ships if s.side == "austria"]
    austria[0].reached_far = True
    austria[0].returned = True
    ship(state, "Affondatore").reached_far = True
    park(state, "Re d'Italia", "Re di Portogallo")
    place(state, "Affondatore", "d2", "S")
    activate(state, "Affondatore", "KS")
    text = order(state, "italy", "move 2 leave")
    assert "Game over: Austrian squadron wins" in text
    outcome = RS.outcome(state)
    assert outcome is not None and outcome.winner == "austria"
    assert "no ship left" in outcome.reason
    assert any("Passed through and returned: Erzherzog Ferdinand Max" in d for d in outcome.details)
    assert any("far edge only: Affondatore" in d for d in outcome.details)
    assert RS.to_act(state) == [] and legal_texts(RS, state, "austria") == []
    with pytest.raises(GameError, match="over"):
        RS.parse_order(state, "austria", "move 2")


def test_manoeuvre_tracking_through_far_edge_and_back() -> None:
    state = new_game("duel")
    s = ship(state, "Huascar")
    assert (s.home_rank, s.far_rank) == (7, 0)
    s.y = 0
    update_manoeuvre(s)
    assert s.reached_far and not s.returned
    s.y = 7
    update_manoeuvre(s)
    assert s.returned


def test_turn_limit_option_ends_the_game() -> None:
    state = new_game("duel", turn_limit="1")
    for _ in range(2):
        seat = RS.to_act(state)[0]
        order(state, seat, legal_texts(RS, state, seat)[0])
    outcome = RS.outcome(state)
    assert outcome is not None and "turn limit 1" in outcome.reason


def test_each_turn_damage_shuffle_option_returns_discards_at_the_deal() -> None:
    state = new_game("duel", damage_shuffle="each-turn")
    state.damage_deck.discards.append(state.damage_deck.draw_pile.pop())
    for s in state.ships:
        s.activated = True
    advance(state, Rng(seed_from_number(2)), [])
    assert not state.damage_deck.discards and len(state.damage_deck.draw_pile) == 54
