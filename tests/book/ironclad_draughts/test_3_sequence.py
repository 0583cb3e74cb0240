"""Book 004, "Sequence of Play" (3): see test_sections_covered for the numbering (the book prints
two steps numbered 4; the second is 3.5 here and the book's 5 is 3.6)."""

from __future__ import annotations

import re

from games.core.decks import card_name
from games.core.rng import Rng, seed_from_number
from games.ironclad_draughts.state import State
from tests.book.ironclad_draughts.book import (
    RS,
    cards,
    damage,
    flotation,
    game,
    in_force,
    order,
    place,
    precedence,
    ship,
    stack,
)
from tests.ironclad_draughts.helpers import new_game

HEADER = re.compile(r"\*\*Turn (\d+), (.+?) \((.+?)\)\*\*")


def dealt(state: State) -> dict[str, str]:
    """Ship name -> this turn's activation card, as the public status line prints it."""
    line = next(x for x in RS.summary(state) if x.startswith("Cards:"))
    out = {}
    for entry in line.removeprefix("Cards: ").split(", "):
        card, rest = entry.split(" ", 1)
        out[rest.removesuffix(" <- now").removesuffix(" done")] = card
    return out


def play_turn(state: State, seed: int = 3) -> list[tuple[str, str]]:
    """Every ship of the turn gives its first legal order; the (ship, card) of each activation in
    the order they were made."""
    rng = Rng(seed_from_number(seed))
    turn = state.turn
    made = []
    while state.turn == turn and RS.outcome(state) is None:
        seat = RS.to_act(state)[0]
        first = RS.legal_orders(state, seat)[0]
        events = RS.apply(state, seat, first, rng)
        match = HEADER.search(events[0].text)
        assert match is not None
        made.append((match.group(2), match.group(3)))
    return made


def test_the_damage_pack_lies_shuffled_and_face_down() -> None:
    """3.1: "The pack of small playing cards is shuffled by the Umpire, and placed face down where
    everyone can see them." Every seat sees how many cards it holds, no seat sees a card of it, and
    it is not in pack order."""
    state = new_game(seed=2)
    pack = state.damage_deck.draw_pile
    assert len(pack) == 54 and pack != sorted(pack)
    for seat in ("austria", "italy", None):
        text = "\n".join(RS.view(state, seat).status)
        assert "Damage pack: 54 face down" in text
        assert card_name(pack[-1]) not in text.split("Damage pack")[1]


def test_one_activation_card_is_dealt_face_up_to_each_ship() -> None:
    """3.2: "The pack of standard playing cards is shuffled by the Umpire, who then deals one of the
    cards face up to each ship." Both squadrons see every ship's card."""
    state = new_game(seed=4)
    seen = dealt(state)
    assert sorted(seen) == sorted(s.name for s in state.ships)
    assert len(set(seen.values())) == 6
    for seat in ("austria", "italy"):
        status = "\n".join(RS.view(state, seat).status)
        assert all(f"{card} {name}" in status for name, card in seen.items())


def test_ships_activate_from_the_lowest_card_until_every_ship_has_acted() -> None:
    """3.3: "The ship with the lowest playing card is activated first. When that ship has completed
    all the actions it can take, the ship with the next lowest playing card is activated. This
    continues until every ship has been activated." Checked over several deals."""
    for seed in (1, 2, 5, 11):
        state = new_game(seed=seed)
        deal = dealt(state)
        made = play_turn(state)
        assert [name for name, _ in made] == sorted(deal, key=lambda n: precedence(_plain(deal[n])))
        assert state.turn == 2


def _plain(shown: str) -> str:
    return shown.replace("♥", "H").replace("♣", "C").replace("♦", "D").replace("♠", "S")


def test_the_footnote_order_of_precedence() -> None:
    """3.3: "An Ace counts as 1, and the order of card precedence is Ace, 2, 3, 4, 5, 6, 7, 8, 9,
    10, Jack, Queen, and King. The order of suit precedence is Hearts, Clubs, Diamonds, and Spades.
    Therefore a 2 of Clubs will take precedence over a 2 of Diamonds, which will in turn take
    precedence over a 3 of Clubs." """
    state = game("Habsburg", "Kaiser Max", "Affondatore", "Re d'Italia")
    place(state, "Habsburg", "a1", "N")
    place(state, "Kaiser Max", "c1", "N")
    place(state, "Affondatore", "e8", "S")
    place(state, "Re d'Italia", "g8", "S")
    cards(state, Habsburg="AS", Affondatore="3C", **{"Kaiser Max": "2D", "Re d'Italia": "2C"})
    made = [name for name, _ in play_turn(state)]
    assert made == ["Habsburg", "Re d'Italia", "Kaiser Max", "Affondatore"]


def test_the_king_is_the_highest_card() -> None:
    """3.3: "the order of card precedence is Ace, 2, ... 10, Jack, Queen, and King": a King of
    Hearts acts after a Queen of Spades."""
    state = game("Habsburg", "Affondatore")
    place(state, "Habsburg", "a1", "N")
    place(state, "Affondatore", "h8", "S")
    cards(state, Habsburg="KH", Affondatore="QS")
    assert [name for name, _ in play_turn(state)] == ["Affondatore", "Habsburg"]


def test_an_activated_ship_first_draws_damage_control_then_moves_then_fires() -> None:
    """3.4: "When activated a ship: a) Draws a Damage Control Card for the most serious Damage Card
    currently in force, if any. c) Moves as required by Damage Cards, or as under Movement. d) Fires,
    and place Damage Cards on any target hit." The draw is made as the activation begins, before
    the ship's order; the move comes before the fire (the range is from the square moved to)."""
    state = game("Habsburg", "Affondatore", "Kaiser Max")
    place(state, "Affondatore", "h3", "N")
    place(state, "Habsburg", "d8", "S")
    place(state, "Kaiser Max", "a1", "E")
    damage(state, "Habsburg", "JS")
    cards(state, Affondatore="2H", Habsburg="5C", **{"Kaiser Max": "KS"})
    stack(state, "3S", "2D", "2C")
    out = order(state, "italy", "move 1")
    assert "Habsburg damage control against fire (J♠): drew 3♠" in out
    assert in_force(state, "Habsburg") == []
    # Affondatore on h4 is 8 squares from d8 and 6 from d6: in range only after the move.
    out = order(state, "austria", "move 2 fire Affondatore", [6, 1, 1])
    assert out.index("moves d8-d6") < out.index("fires at Affondatore")
    assert flotation(state, "Affondatore") == 12  # a 2 drawn: no effect
    assert "Affondatore draws 2♦" in out


def test_one_damage_control_draw_however_many_cards_are_in_force() -> None:
    """3.4: "Draws a Damage Control Card for the most serious Damage Card currently in force, if
    any." One draw, against the most serious card, with three cards in force; none without."""
    state = game("Habsburg", "Affondatore", "Kaiser Max")
    place(state, "Affondatore", "d2", "N")
    place(state, "Habsburg", "h8", "S")
    place(state, "Kaiser Max", "a8", "S")
    damage(state, "Habsburg", "KC", "QC", "JC")
    cards(state, Affondatore="2H", Habsburg="5C", **{"Kaiser Max": "9S"})
    stack(state, "4H", "5H")
    pack = len(state.damage_deck.draw_pile)
    out = order(state, "italy", "move 1")
    assert out.count("damage control") == 1 and "against fire (J♣): drew 4♥" in out
    assert len(state.damage_deck.draw_pile) == pack - 1
    order(state, "austria", "pass")
    assert len(state.damage_deck.draw_pile) == pack - 1  # Kaiser Max has no card in force: no draw
    assert ship(state, "Kaiser Max").damage == []


def test_the_activation_cards_are_collected_and_shuffled_each_turn() -> None:
    """3.5: "When all ships have been activated, all the discarded playing cards are collected in
    and shuffled." (the book's second step 4). Each turn's deal comes from the whole pack again: over a
    few games a card dealt in turn 1 is dealt again in turn 2."""
    again = 0
    for seed in range(1, 9):
        state = new_game(seed=seed)
        first = set(dealt(state).values())
        play_turn(state)
        again += len(first & set(dealt(state).values()))
        assert len(state.activation_deck.draw_pile) == 52 - 6
    assert again > 0


def test_the_game_ends_when_one_sides_ships_are_all_sunk_or_off_the_board() -> None:
    """3.6: "The sequence of play is repeated until one or other side's ships are all sunk or off
    the board." The last Austrian ship leaving the board ends the game for Italy; while one is left
    it goes on."""
    state = game("Habsburg", "Kaiser Max", "Affondatore")
    place(state, "Habsburg", "a1", "S")
    place(state, "Kaiser Max", "h1", "S")
    place(state, "Affondatore", "d8", "S")
    cards(state, Habsburg="2H", **{"Kaiser Max": "3H"}, Affondatore="4H")
    order(state, "austria", "move 1 leave")
    assert RS.outcome(state) is None
    order(state, "austria", "move 1 leave")
    result = RS.outcome(state)
    assert result is not None and result.winner == "italy"
    assert RS.to_act(state) == []


def test_with_an_umpire_dealing_the_umpire_deals_the_cards() -> None:
    """3.2: "The pack of standard playing cards is shuffled by the Umpire, who then deals one of the
    cards face up to each ship." With option umpire_deals=yes the turn waits for the umpire's
    `deal`; a squadron may not deal."""
    state = new_game(umpire_deals="yes")
    assert RS.to_act(state) == ["umpire"]
    try:
        order(state, "austria", "deal")
    except ValueError:
        pass
    else:
        raise AssertionError("a squadron dealt the cards")
    out = order(state, "umpire", "deal")
    assert "activation cards dealt" in out
    assert len(dealt(state)) == 6 and RS.to_act(state) != ["umpire"]


def test_both_squadrons_gone_at_once_is_a_draw() -> None:
    """3.6: "The sequence of play is repeated until one or other side's ships are all sunk or off
    the board." (ruled, RULINGS.md "Both squadrons gone at once"): a ram that sinks the last ship
    of each side ends the game with no winner."""
    state = game("Habsburg", "Affondatore")
    place(state, "Habsburg", "d4", "N")
    place(state, "Affondatore", "d5", "E")
    cards(state, Habsburg="2H", Affondatore="3H")
    ship(state, "Habsburg").flotation = 3
    ship(state, "Affondatore").flotation = 3
    stack(state, "9C", "9D")  # the rammer loses five, the rammed ship nine
    order(state, "austria", "move 1")
    result = RS.outcome(state)
    assert result is not None and result.winner is None
