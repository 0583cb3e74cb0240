"""Iron and Fire, modules 3.0 (Sequence of Play) and 4.0 (Activations)."""

from __future__ import annotations

import pytest

from games.iron_and_fire.state import State
from tests.book.iron_and_fire.book import RS, fails, game, in_play, place, play, play_freely


def fleet(card: str, deck: list[str] | None = None) -> State:
    """Scenario 5 in its activations: Huáscar and Unión against Cochrane, Loa and O'Higgins, far
    apart on the all-sea map, with ``card`` in play and ``deck`` still to draw (last drawn first)."""
    state = game("s5")
    place(state, "huascar", "2610", 1)
    place(state, "union", "2710", 1)
    place(state, "almirante_cochrane", "1304", 3)
    place(state, "loa", "1404", 3)
    place(state, "ohiggins", "1504", 3)
    side = "peru" if card[-1] in "HD" else "chile"
    return in_play(state, side, card, deck=deck if deck is not None else ["2H", "3S"] * 10)


def card_line(state: State) -> str:
    return next(x for x in RS.summary(state) if x.startswith("Card "))


@pytest.mark.parametrize(("card", "side"), [("7H", "peru"), ("7D", "peru"), ("7C", "chile"), ("7S", "chile")])
def test_a_red_card_activates_peru_and_a_black_card_chile(card: str, side: str) -> None:
    """4.0: "A card with a red suit activates Peruvian ships, while a card with a black suit
    activates Chilean units." The card drawn after the one in play decides who acts next."""
    state = fleet("KH", deck=[card])
    play(state, "peru", "done")
    assert RS.to_act(state) == [side]


@pytest.mark.parametrize(("card", "units"), [("AS", 1), ("9S", 1), ("2S", 2), ("10C", 2), ("JS", 3), ("KC", 3)])
def test_odd_cards_activate_one_unit_even_two_face_cards_three(card: str, units: int) -> None:
    """4.1: "An odd-numbered card (Ace-3-5-7-9) provides one activation for 1 unit. An even-numbered
    card (2-4-6-8-10) provides one activation for up to 2 units. A face card (J, Q, K) provides one
    activation for up to 3 units." Chile's three ships each move a hex in turn until the card is
    spent and the next card (red) passes the turn to Peru."""
    state = fleet(card, deck=["3H"])
    for n, ship in enumerate(("Cochrane", "Loa", "O'Higgins"), start=1):
        play(state, "chile", f"{ship} move F")
        if n == units:
            break
        assert RS.to_act(state) == ["chile"]
    assert RS.to_act(state) == ["peru"] and "Card 3♥" in card_line(state)


def test_each_unit_takes_one_action_per_card() -> None:
    """3.2: "Each activated unit performs one and only one of the following actions: Ship Movement
    or Ramming, Firing, Ship Boarding, Attempt to repair ship damage, Attempt to unground a ship";
    4.2: "Each activated unit performs one and only one of the following actions". Huáscar, having
    moved on a King, may not also fire on it; Unión may still act."""
    state = fleet("KH")
    play(state, "peru", "Huascar move F")
    assert "Huáscar" in fails(state, "peru", "Huascar fire Loa")
    assert RS.to_act(state) == ["peru"]
    assert "Unión moves F" in play(state, "peru", "Union move F")


def test_a_ship_never_moves_and_fires_in_one_activation() -> None:
    """5.0: "Note that a ship never moves and fires on one activation. It either moves or fires" """
    state = fleet("KH")
    assert fails(state, "peru", "Huascar move F fire Loa")


def test_unused_activations_are_lost() -> None:
    """4.1: "Unused activations cannot be saved for future use—use it or lose it." `done` gives up
    the rest of a King; the next card is drawn and Peru has only what that card gives."""
    state = fleet("KH", deck=["2S", "3D"])
    play(state, "peru", "Huascar move F")
    play(state, "peru", "done")
    assert "Card 3♦: Peru, 1 activation left" in card_line(state)


def test_the_first_joker_rolls_a_random_event_and_the_second_ends_the_activations() -> None:
    """4.1: "The drawing of the first Joker results in a 2d6 roll on the Random Event (Module 15.0).
    The drawing of the second Joker ends the Activation Phase. Proceed to the End Phase"; 3.2:
    "Players continue with Activation Phases (card draws) until the second Joker card gets drawn." """
    state = fleet("3H", deck=["4S", "JK2", "5S", "JK1"])
    out = play(state, "peru", "Huascar move F", [3, 4])
    assert "First Joker drawn." in out and "Random Event, 2d6 [3, 4] = **7**" in out
    out = play_freely(state, "chile", "Cochrane move F")
    assert "Second Joker drawn" in out
    assert RS.summary(state)[0].startswith("Turn 2 ")


def test_a_side_with_no_activation_when_the_second_joker_comes_gets_2d6_more_draws() -> None:
    """4.1: "In the unlikely event the second Joker gets drawn and a player has yet to perform an
    activation, roll 2d6 for the number of card draws before the turn ends." (also 11.0) Chile has
    not acted this turn when the second Joker follows Peru's card: the turn goes on with 2d6 (here
    1 + 1 = 2) more card draws, the first of them Chile's."""
    state = fleet("3H", deck=["5S", "4S", "JK2", "JK1"])
    out = play(state, "peru", "Huascar move F", [3, 4, 1, 1])
    assert "2d6" in out.split("Random Event", 1)[1]
    assert RS.to_act(state) == ["chile"]


def test_the_second_joker_names_every_side_yet_to_act_in_one_sentence() -> None:
    """4.1 as above, with neither side having acted: Peru gives up its card, both Jokers follow
    (no Random Event), and the log names both sides: "Peru and Chile have not activated" (it used
    to read "Peru, Chile has not activated")."""
    state = fleet("3H", deck=["5S", "4S", "JK2", "JK1"])
    state.options["random_events"] = "off"
    out = play(state, "peru", "done", [1, 1])
    assert "Second Joker drawn, but Peru and Chile have not activated this turn (4.1): 2d6 [1, 1]" in out


def test_a_turn_has_preparation_activations_and_end() -> None:
    """3.0: "A game turn consists of three phases: Preparation, Activations, and End." and 3.1: "At
    the beginning of a turn, one player shuffles the deck of cards." with 2.0: "Players will also
    need one standard deck of playing cards (including two Joker cards)". After the End Phase of
    turn 1 the next turn begins with a freshly shuffled full deck of 54 cards."""
    state = fleet("3H", deck=["JK2", "JK1"])
    out = play_freely(state, "peru", "Huascar move F")
    assert "End Phase" in out and "the deck of 54 cards is shuffled" in out
    assert RS.summary(state)[0].startswith("Turn 2 ")
    left = int(RS.summary(state)[0].split("Cards left ")[1].split(",")[0])
    assert left + 1 == 54 or left + 2 == 54  # the card now in play (and a Joker, if one came first)
