"""Decks: standard and custom cards, piles and hands, and who may see a card where it lies."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.decks import (
    RANKS,
    SUITS,
    Deck,
    card_matches,
    card_name,
    custom_cards,
    is_joker,
    is_red,
    rank_of,
    rank_value,
    standard_cards,
    suit_of,
)
from games.core.errors import GameError, IllegalOrder, UnknownName
from games.core.rng import Rng, seed_from_number

FAST = settings(max_examples=50, deadline=None)


def fresh(n: int = 1) -> Rng:
    return Rng(seed_from_number(n))


# --- cards ---------------------------------------------------------------------------------
def test_standard_52_and_54() -> None:
    cards = standard_cards()
    assert len(cards) == 52 == len(set(cards))
    assert Counter(suit_of(c) for c in cards) == dict.fromkeys(SUITS, 13)
    assert Counter(rank_of(c) for c in cards) == dict.fromkeys(RANKS, 4)
    with_jokers = standard_cards(jokers=2)
    assert len(with_jokers) == 54 == len(set(with_jokers))
    assert with_jokers[-2:] == ["JK1", "JK2"]
    assert all(is_joker(c) for c in with_jokers[-2:])
    assert not any(is_joker(c) for c in cards)


@pytest.mark.parametrize(
    ("card", "rank", "suit", "value", "red", "name"),
    [
        ("AH", "A", "H", 1, True, "A♥"),
        ("10C", "10", "C", 10, False, "10♣"),
        ("KS", "K", "S", 13, False, "K♠"),
        ("QD", "Q", "D", 12, True, "Q♦"),
        ("JK1", "", "", 0, False, "Joker"),
        ("Storm#2", "", "", 0, False, "Storm"),
        ("Gale", "", "", 0, False, "Gale"),
        ("1H", "", "", 0, False, "1H"),
    ],
)
def test_card_properties(card: str, rank: str, suit: str, value: int, red: bool, name: str) -> None:
    assert rank_of(card) == rank
    assert suit_of(card) == suit
    assert rank_value(card) == value
    assert is_red(card) is red
    assert card_name(card) == name


def test_rank_values_run_ace_low_to_king() -> None:
    assert [rank_value(r + "S") for r in RANKS] == list(range(1, 14))


def test_custom_counts() -> None:
    assert custom_cards({"Gale": 1, "Storm": 3, "Calm": 0}) == ["Gale", "Storm#1", "Storm#2", "Storm#3"]
    assert [card_name(c) for c in custom_cards({"Storm": 2})] == ["Storm", "Storm"]


@pytest.mark.slow
@FAST
@given(counts=st.dictionaries(st.from_regex(r"[A-Z][a-z]{2,8}", fullmatch=True), st.integers(1, 5), max_size=6))
def test_custom_deck_size_and_unique_ids(counts: dict[str, int]) -> None:
    cards = custom_cards(counts)
    assert len(cards) == sum(counts.values()) == len(set(cards))
    assert Counter(card_name(c) for c in cards) == counts


# --- piles ---------------------------------------------------------------------------------
def test_of_copies_the_cards_and_draws_from_the_end() -> None:
    cards = ["a", "b", "c"]
    deck = Deck.of("Test", cards)
    cards.append("d")
    assert deck.draw_pile == ["a", "b", "c"]
    assert deck.draw() == "c"
    assert deck.draw() == "b"


def test_shuffle_is_a_reproducible_permutation() -> None:
    a, b = Deck.of("Main", standard_cards()), Deck.of("Main", standard_cards())
    a.shuffle(fresh(5))
    b.shuffle(fresh(5))
    assert a.draw_pile == b.draw_pile
    assert sorted(a.draw_pile) == sorted(standard_cards())
    assert a.draw_pile != standard_cards()


def test_shuffle_follows_the_rng_shuffle() -> None:
    deck = Deck.of("Main", standard_cards())
    deck.shuffle(fresh(7))
    expected = standard_cards()
    fresh(7).shuffle(expected)
    assert deck.draw_pile == expected


def test_empty_deck_error_quotes_the_deck() -> None:
    deck = Deck.of("Fortune", [])
    with pytest.raises(IllegalOrder) as info:
        deck.draw()
    assert "`Fortune`" in str(info.value) and "empty" in str(info.value)
    assert info.value.hint == ""


def test_empty_deck_without_rng_suggests_reshuffling_the_discards() -> None:
    deck = Deck.of("Fortune", [])
    deck.discard("AH")
    with pytest.raises(IllegalOrder) as info:
        deck.draw()
    assert "Shuffle the discards" in str(info.value)
    assert deck.discards == ["AH"]


def test_draw_with_rng_refills_from_the_discards() -> None:
    deck = Deck.of("Main", [])
    for card in ["AH", "2H", "3H"]:
        deck.discard(card)
    rng = fresh()
    card = deck.draw(rng)
    assert card in {"AH", "2H", "3H"}
    assert deck.discards == []
    assert sorted([*deck.draw_pile, card]) == ["2H", "3H", "AH"]
    assert rng.counter >= 2


def test_reshuffle_puts_discards_under_and_shuffles_everything() -> None:
    deck = Deck.of("Main", ["x", "y"])
    deck.discard("a")
    deck.discard("b")
    rng = fresh(2)
    deck.reshuffle_discards(rng)
    expected = ["a", "b", "x", "y"]
    fresh(2).shuffle(expected)
    assert deck.draw_pile == expected
    assert deck.discards == []


def test_draw_to_hand_and_deal_round_robin() -> None:
    deck = Deck.of("Main", ["1", "2", "3", "4", "5", "6", "7"])
    dealt = deck.deal(["north", "south"], 3)
    assert dealt == {"north": ["7", "5", "3"], "south": ["6", "4", "2"]}
    assert deck.hands == dealt
    assert deck.draw_pile == ["1"]
    assert deck.draw_to_hand("north") == "1"
    assert deck.hands["north"] == ["7", "5", "3", "1"]


def test_deal_is_all_or_nothing() -> None:
    deck = Deck.of("Main", ["1", "2", "3"])
    with pytest.raises(IllegalOrder) as info:
        deck.deal(["a", "b"], 2)
    assert "`Main`" in str(info.value) and "3 cards left" in str(info.value)
    assert deck.draw_pile == ["1", "2", "3"] and deck.hands == {}


def test_deal_with_rng_may_use_the_discards() -> None:
    deck = Deck.of("Main", ["1"])
    deck.discard("2")
    deck.discard("3")
    dealt = deck.deal(["a", "b", "c"], 1, fresh())
    assert sorted(card for hand in dealt.values() for card in hand) == ["1", "2", "3"]
    assert deck.draw_pile == [] and deck.discards == []


def test_play_by_id_or_display_name() -> None:
    deck = Deck.of("Main", [])
    deck.hands["peru"] = ["10C", "AH", "Storm#1", "JK1"]
    assert deck.play("peru", "a♥") == "AH"
    assert deck.play("peru", " 10 c ") == "10C"
    assert deck.play("peru", "storm", face_up=False) == "Storm#1"
    assert deck.play("peru", "JOKER") == "JK1"
    assert deck.table == ["AH", "10C", "JK1"]
    assert deck.discards == ["Storm#1"]
    assert deck.hands["peru"] == []


def test_play_unknown_card_quotes_input_and_lists_the_hand() -> None:
    deck = Deck.of("Main", [])
    deck.hands["chile"] = ["KS", "2D"]
    with pytest.raises(UnknownName) as info:
        deck.play("chile", "QH")
    text = str(info.value)
    assert "`QH`" in text and "`Main`" in text and "K♠, 2♦" in text
    assert deck.hands["chile"] == ["KS", "2D"]
    with pytest.raises(UnknownName, match="no cards"):
        deck.play("nobody", "KS")


def test_visibility_per_location() -> None:
    deck = Deck.of("Main", ["AH", "2H", "3H", "4H"])
    deck.draw_to_hand("peru")  # 4H
    deck.discard(deck.draw())  # 3H
    deck.draw_to_hand("chile")  # 2H
    deck.play("chile", "2H")
    assert deck.visibility("AH") == "nobody"
    assert deck.visibility("4H") == "holder" and deck.holder_of("4H") == "peru"
    assert deck.visibility("3H") == "public"
    assert deck.visibility("2H") == "public"
    assert deck.holder_of("2H") is None and deck.holder_of("AH") is None


# --- conservation under any sequence of operations ------------------------------------------
operations = st.lists(
    st.tuples(
        st.sampled_from(["draw", "hand", "deal", "discard_hand", "play", "reshuffle", "shuffle"]), st.integers(0, 3)
    ),
    max_size=30,
)


@FAST
@given(ops=operations, seed=st.integers(0, 1000))
def test_cards_are_never_lost_or_duplicated(ops: list[tuple[str, int]], seed: int) -> None:
    rng = fresh(seed)
    deck = Deck.of("Main", standard_cards(jokers=2))
    holders = ["a", "b", "c", "d"]
    loose: list[str] = []  # drawn into nobody's pile: kept by the test and discarded later
    for op, k in ops:
        try:
            if op == "draw":
                loose.append(deck.draw(rng))
            elif op == "hand":
                deck.draw_to_hand(holders[k], rng)
            elif op == "deal":
                deck.deal(holders[: k + 1], 2, rng)
            elif op == "discard_hand":
                hand = deck.hands.get(holders[k], [])
                if hand:
                    deck.discard(hand.pop())
                elif loose:
                    deck.discard(loose.pop())
            elif op == "play":
                hand = deck.hands.get(holders[k], [])
                if hand:
                    card = hand[0]
                    assert deck.play(holders[k], card, face_up=bool(k % 2)) == card
                    assert deck.visibility(card) == "public"
            elif op == "reshuffle":
                deck.reshuffle_discards(rng)
            else:
                deck.shuffle(rng)
        except GameError:
            pass
        everywhere = deck.draw_pile + deck.discards + deck.table + loose + [c for h in deck.hands.values() for c in h]
        assert sorted(everywhere) == sorted(standard_cards(jokers=2))
        for holder, hand in deck.hands.items():
            for card in hand:
                assert deck.visibility(card) == "holder" and deck.holder_of(card) == holder
        for card in deck.draw_pile:
            assert deck.visibility(card) == "nobody"


@pytest.mark.parametrize(
    "typed", ["JS", "js", "J♠", "j ♠", "jack of spades", "Jack Of Spades", "jackofspades", "J of spades", "jack s"]
)
def test_a_card_is_found_by_id_symbol_or_words(typed: str) -> None:
    deck = Deck.of("Main", [])
    deck.hands["peru"] = ["10C", "JS"]
    assert deck.play("peru", typed) == "JS"


@pytest.mark.parametrize("typed", ["10c", "10 of clubs", "ten of clubs", "10♣", "TEN CLUB"])
def test_a_ten_is_found_by_id_symbol_or_words(typed: str) -> None:
    assert card_matches("10C", typed)
    assert not card_matches("10S", typed) and not card_matches("JC", typed)
