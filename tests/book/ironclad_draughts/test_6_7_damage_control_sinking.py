"""Book 004, "Damage Control" (6) and "Sinking" (7): see test_sections_covered for the numbering.

Each test puts damage cards in force on Habsburg, stacks its damage-control draw on the damage pack
and lets Habsburg's activation begin (Affondatore acts first, far off)."""

from __future__ import annotations

import pytest

from games.ironclad_draughts.state import State
from tests.book.ironclad_draughts.book import (
    RS,
    acting,
    cards,
    damage,
    flotation,
    game,
    in_force,
    order,
    place,
    sail,
    ship,
    stack,
)


def control(in_force_now: tuple[str, ...], drawn: str) -> tuple[State, str]:
    """Habsburg (heading south on d8) with ``in_force_now`` draws ``drawn`` as its activation
    begins. Returns the state and the text of the draw."""
    state = game("Habsburg", "Affondatore", "Kaiser Max")
    place(state, "Habsburg", "d8", "S")
    place(state, "Affondatore", "a1", "E")
    place(state, "Kaiser Max", "h8", "S")
    damage(state, "Habsburg", *in_force_now)
    cards(state, Affondatore="2H", Habsburg="3H", **{"Kaiser Max": "KS"})
    stack(state, drawn)
    out = order(state, "italy", "move 1")
    assert acting(state) in ("Habsburg", "Kaiser Max", "")
    return state, out.split("Habsburg damage control", 1)[1] if "damage control" in out else ""


@pytest.mark.parametrize(
    ("cards_in_force", "drawn", "left"),
    [
        # Conning Tower before On Fire: a Heart matches the fire, not the conning tower hit.
        (("AC", "JH"), "4H", ["A♣", "J♥"]),
        (("AC", "JH"), "4C", ["J♥"]),
        # On Fire before Steering: a Heart matches the steering hit, not the fire.
        (("QH", "JC"), "5H", ["Q♥", "J♣"]),
        (("QH", "JC"), "5C", ["Q♥"]),
        # Steering before Engine.
        (("KS", "QD"), "3S", ["K♠", "Q♦"]),
        (("KS", "QD"), "3D", ["K♠"]),
    ],
)
def test_damage_is_tackled_most_serious_first_and_only_that_card_is_compared(
    cards_in_force: tuple[str, ...], drawn: str, left: list[str]
) -> None:
    """6.1: "Ships with more than one Damage Card tackle damage in the following order: Conning
    Tower Hit, On Fire, Steering Hit, Engine Hit. Damage Control Cards are compared with the most
    serious Damage Card in force, not all of them." """
    state, _ = control(cards_in_force, drawn)
    assert sorted(in_force(state, "Habsburg")) == sorted(left)


@pytest.mark.parametrize("kind", ["AD", "JD", "QD", "KD"])
def test_a_card_of_the_same_suit_removes_the_damage(kind: str) -> None:
    """6.2: "a) If the Damage Control Card is the same suit as most serious Damage Card currently in
    force, the Damage Card is removed." """
    state, _ = control((kind,), "9D")
    assert in_force(state, "Habsburg") == []


def test_a_same_suit_king_against_a_fire_removes_it_and_starts_nothing() -> None:
    """6.2: "a) If the Damage Control Card is the same suit ... the Damage Card is removed. b)
    Ineffective Damage Control Cards may cause further damage": only an ineffective card causes
    further damage, so the King of the fire's own suit puts the fire out and adds no Engine Hit."""
    state, _ = control(("JS",), "KS")
    assert in_force(state, "Habsburg") == []


@pytest.mark.parametrize(
    ("worst", "drawn", "added"),
    [
        ("AS", "KH", "K♥"),  # Conning Tower Hit (Ace): King Engine hit.
        ("AS", "QH", "Q♥"),  # Conning Tower Hit (Ace): Queen Steering hit.
        ("QS", "KD", "K♦"),  # Steering Hit (Queen): King Engine hit.
        ("JS", "AH", "A♥"),  # On Fire (Jack): Ace Conning Tower hit.
        ("JS", "KH", "K♥"),  # On Fire (Jack): King Engine hit.
        ("JS", "QC", "Q♣"),  # On Fire (Jack): Queen Steering hit.
        ("JS", "JH", "J♥"),  # On Fire (Jack): Jack Additional fire starts.
    ],
)
def test_an_ineffective_card_causes_the_listed_further_damage(worst: str, drawn: str, added: str) -> None:
    """6.2: "b) Ineffective Damage Control Cards may cause further damage: Conning Tower Hit (Ace):
    King Engine hit. Queen Steering hit. Steering Hit (Queen): King Engine hit. On Fire (Jack):
    Joker Ship blows up! Ace Conning Tower hit. King Engine hit. Queen Steering hit. Jack
    Additional fire starts." The further damage is in force as a Damage Card of its kind."""
    state, _ = control((worst,), drawn)
    assert sorted(in_force(state, "Habsburg")) == sorted([card_shown(worst), added])


def card_shown(card: str) -> str:
    return card[:-1] + {"H": "♥", "C": "♣", "D": "♦", "S": "♠"}[card[-1]]


@pytest.mark.parametrize(
    ("worst", "drawn"),
    [
        ("AS", "JH"),  # a Jack is not listed against a Conning Tower Hit
        ("AS", "AH"),
        ("AS", "10H"),
        ("QS", "QH"),  # a Queen is not listed against a Steering Hit
        ("QS", "AH"),
        ("QS", "JH"),
        ("KS", "KH"),  # nothing is listed against an Engine Hit
        ("KS", "AH"),
        ("KS", "JK1"),
        ("JS", "10H"),  # a 10 drawn for damage control is not a flotation hit
        ("JS", "2H"),
    ],
)
def test_an_ineffective_card_not_listed_does_nothing(worst: str, drawn: str) -> None:
    """6.2: "b) Ineffective Damage Control Cards may cause further damage": only the listed cards
    do. Nothing else is added and no flotation is lost."""
    state, _ = control((worst,), drawn)
    assert in_force(state, "Habsburg") == [card_shown(worst)]
    assert flotation(state, "Habsburg") == 14


def test_a_joker_against_a_fire_blows_the_ship_up() -> None:
    """6.2: "On Fire (Jack): Joker Ship blows up!" Habsburg is gone before it can act."""
    state, text = control(("JS",), "JK2")
    assert "blows up" in text
    assert "Habsburg" not in {c.label for c in RS.view(state, None).counters}
    assert acting(state) == "Kaiser Max"


def test_a_joker_against_anything_but_a_fire_does_nothing() -> None:
    """6.2: the Joker is listed only under "On Fire (Jack)": against a Conning Tower Hit it does
    nothing."""
    state, _ = control(("AS",), "JK1")
    assert in_force(state, "Habsburg") == ["A♠"] and flotation(state, "Habsburg") == 14


def test_damage_cards_stay_until_repaired() -> None:
    """6.3: "Keep current Damage Cards on the damaged Ship's Record Sheet until the damage is
    repaired." A fire not put out in turn 1 is still in force after Habsburg's activation and
    through the end of the turn; Habsburg's draw in turn 2 puts it out."""
    state, _ = control(("JS",), "2H")
    order(state, "austria", "move 1")
    assert in_force(state, "Habsburg") == ["J♠"]
    stack(state, "3S")
    out = order(state, "austria", "move 1")  # Kaiser Max, the last of turn 1
    while acting(state) != "Habsburg":
        assert in_force(state, "Habsburg") == ["J♠"]
        out = sail(state, {acting(state): ["move 1"]})
    assert state.turn == 2 and "drew 3♠, same suit: fire repaired" in out
    assert in_force(state, "Habsburg") == []


def test_a_ship_sinks_when_its_flotation_points_reach_nought() -> None:
    """7: "A ship sinks when its Flotation Points are reduced to 0." One point left stays afloat;
    losing it sinks the ship."""
    state = game("Habsburg", "Affondatore", "Kaiser Max")
    place(state, "Affondatore", "d2", "N")
    place(state, "Habsburg", "d6", "S")
    place(state, "Kaiser Max", "a8", "E")
    cards(state, Affondatore="2H", Habsburg="3H", **{"Kaiser Max": "KS"})
    ship(state, "Habsburg").flotation = 2
    stack(state, "10H", "2C")
    out = order(state, "italy", "move 1 fire Habsburg", [6, 1])
    assert flotation(state, "Habsburg") == 1 and "sinks" not in out
    cards(state, Affondatore="2H", Habsburg="3H", **{"Kaiser Max": "KS"})
    stack(state, "10D")
    out = order(state, "italy", "move 1 fire Habsburg", [6, 1])
    assert "Habsburg sinks!" in out
    assert "Habsburg" not in {c.label for c in RS.view(state, None).counters}
