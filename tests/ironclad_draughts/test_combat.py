"""Firing, damage cards, damage control, ramming and sinking, with fixed random streams."""

from __future__ import annotations

import re

import pytest

from games.core.errors import IllegalOrder
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import legal_texts
from games.core.squaregrid import Square
from games.ironclad_draughts.rules.damage_control_6 import damage_control
from games.ironclad_draughts.rules.firing_5 import dice_for, draw_damage, guns_bearing, hit_damage
from games.ironclad_draughts.rules.ramming_8 import ram_damage
from games.ironclad_draughts.rules.sequence_3 import advance
from games.ironclad_draughts.state import CONNING, ENGINE, FIRE, STEERING, Ship, State, label
from tests.ironclad_draughts.helpers import (
    RS,
    activate,
    damage,
    new_game,
    order,
    place,
    rng_rolling,
    ship,
    stack,
)


def duel(hu_sq: str, hu_head: str, co_sq: str, co_head: str) -> tuple[State, Ship, Ship]:
    state = new_game("duel")
    hu = place(state, "Huascar", hu_sq, hu_head)
    co = place(state, "Cochrane", co_sq, co_head)
    activate(state, "Huascar", "2C")
    return state, hu, co


# --- firing ----------------------------------------------------------------------------------


def test_range_is_counted_orthogonally_up_to_six() -> None:
    state, _, _ = duel("a1", "N", "d5", "S")  # after move 1: a2 -> d5 is 3 + 3 = 6
    assert "move 1 fire Almirante Cochrane" in legal_texts(RS, state, "peru")
    state, _, _ = duel("a1", "N", "d6", "S")  # a2 -> d6 is 7, though only 4 diagonally
    with pytest.raises(IllegalOrder, match="7 squares away from a2; range is 6") as err:
        RS.parse_order(state, "peru", "move 1 fire Cochrane")
    assert "`move 1 fire Cochrane`" in err.value.text


def test_range_is_four_on_fire() -> None:
    state, _, _ = duel("a1", "N", "c4", "S")  # a2 -> c4 is 4
    damage(state, "Huascar", "JH")
    assert "move 1 fire Almirante Cochrane" in legal_texts(RS, state, "peru")
    state, _, _ = duel("a1", "N", "c5", "S")
    damage(state, "Huascar", "JH")
    with pytest.raises(IllegalOrder, match=r"range is 4 \(on fire\)"):
        RS.parse_order(state, "peru", "move 1 fire Cochrane")


def test_broadside_guns_bear_only_abeam() -> None:
    # Cochrane's 9-inch battery: two to port, two to starboard, one bow gun.
    state = new_game("duel")
    co = place(state, "Cochrane", "c3", "N")
    hu = place(state, "Huascar", "f3", "N")
    assert len(guns_bearing(co, Square(2, 3), 0, Square(hu.x, hu.y))) == 2  # starboard beam
    assert [g.arc for g in guns_bearing(co, Square(2, 3), 0, Square(2, 6))] == ["fore"]
    assert guns_bearing(co, Square(2, 3), 0, Square(2, 0)) == []  # dead astern
    # exactly 45 degrees off the bow lies on both the fore and the starboard arcs
    assert len(guns_bearing(co, Square(2, 3), 0, Square(4, 5))) == 3


def test_no_gun_bearing_is_refused() -> None:
    state, _, _ = duel("c3", "N", "c1", "S")
    ship(state, "Huascar").guns = [g for g in ship(state, "Huascar").guns if g.arc == "fore"]
    with pytest.raises(IllegalOrder, match="no gun of Huascar bears"):
        RS.parse_order(state, "peru", "move 1 fire Cochrane")


def test_unknown_or_friendly_target_is_refused() -> None:
    state, _, _ = duel("c3", "N", "c6", "S")
    with pytest.raises(Exception, match="No ship called `Merrimack`"):
        RS.parse_order(state, "peru", "move 1 fire Merrimack")
    state = new_game("standard")
    place(state, "Habsburg", "c3", "N")
    place(state, "Kaiser Max", "d4", "N")
    activate(state, "Habsburg")
    with pytest.raises(IllegalOrder, match="own side"):
        RS.parse_order(state, "austria", "move 1 fire Kaiser Max")


def test_each_six_hits_and_the_target_draws_a_damage_card_per_hit() -> None:
    state, _, co = duel("c3", "N", "c6", "S")  # Huascar at c4: 10-inch turret bears, stern gun does not
    stack(state, "10D")
    text = order(state, "peru", "move 1 fire Cochrane", rng_rolling([6]))
    assert "1 die 6: 1 hit" in text
    assert "draws 10♦: flotation hit" in text and co.flotation == 13


def test_a_miss_draws_nothing() -> None:
    state, _, co = duel("c3", "N", "c6", "S")
    before = list(state.damage_deck.draw_pile)
    text = order(state, "peru", "move 1 fire Cochrane", rng_rolling([5]))
    assert "0 hits" in text and co.flotation == co.flotation_max
    assert state.damage_deck.draw_pile == before


@pytest.mark.slow
def test_sixteen_inch_guns_roll_two_dice_each() -> None:
    state = new_game("duel", squadron1="inflexible")
    inf = place(state, "Inflexible", "c3", "N")
    place(state, "Huascar", "c6", "S")
    activate(state, "Inflexible")
    assert dice_for(inf.guns) == 4
    text = order(state, "chile", "move 1 fire Huascar", rng_rolling([1, 2, 3, 4]))
    assert "4 dice 1 2 3 4: 0 hits" in text


@pytest.mark.parametrize(("card", "kind"), [("AS", CONNING), ("KS", ENGINE), ("QS", STEERING), ("JS", FIRE)])
def test_face_cards_stay_in_force(card: str, kind: str) -> None:
    state, _, co = duel("c3", "N", "c6", "S")
    lines: list[str] = []
    hit_damage(state, co, card, lines)
    assert [(d.card, d.kind) for d in co.damage] == [(card, kind)]
    assert co.flotation == co.flotation_max


@pytest.mark.parametrize("card", ["2H", "5C", "9D", "JK1"])
def test_low_cards_and_jokers_have_no_effect(card: str) -> None:
    state, _, co = duel("c3", "N", "c6", "S")
    hit_damage(state, co, card, [])
    assert not co.damage and co.flotation == co.flotation_max
    assert card in state.damage_deck.discards


def test_sinking_at_zero_flotation_stops_further_draws() -> None:
    state, _, co = duel("c3", "N", "c6", "S")
    co.flotation = 1
    stack(state, "10D", "AS")
    text = order(state, "peru", "move 1 fire Cochrane", rng_rolling([6]))
    assert co.status == "sunk" and "Almirante Cochrane sinks" in text
    assert "Game over: Peruvian ship wins" in text


# --- damage control --------------------------------------------------------------------------


def control(state: State, s: Ship, card: str) -> str:
    stack(state, card)
    lines: list[str] = []
    damage_control(state, s, Rng(seed_from_number(0)), lines)
    return "\n".join(lines)


def test_same_suit_repairs_the_most_serious_card() -> None:
    state, hu, _ = duel("c3", "N", "c6", "S")
    damage(state, "Huascar", "KH", "QD", "JC", "AS")
    text = control(state, hu, "3S")
    assert "against conning tower" in text and "repaired" in text
    assert [d.card for d in hu.damage] == ["KH", "QD", "JC"]
    text = control(state, hu, "4C")  # the fire is next in priority
    assert "against fire" in text and [d.card for d in hu.damage] == ["KH", "QD"]
    text = control(state, hu, "5D")
    assert "against steering" in text and [d.card for d in hu.damage] == ["KH"]


def test_no_draw_without_damage() -> None:
    state, hu, _ = duel("c3", "N", "c6", "S")
    before = len(state.damage_deck.draw_pile)
    damage_control(state, hu, Rng(seed_from_number(0)), [])
    assert len(state.damage_deck.draw_pile) == before


@pytest.mark.parametrize(
    ("in_force", "draw", "result"),
    [
        ("AS", "KH", ENGINE),
        ("AS", "QH", STEERING),
        ("AS", "JH", None),
        ("QS", "KH", ENGINE),
        ("QS", "AH", None),
        ("JS", "AH", CONNING),
        ("JS", "KH", ENGINE),
        ("JS", "QH", STEERING),
        ("JS", "JH", FIRE),
        ("JS", "10H", None),
        ("KS", "AH", None),
        ("KS", "JD", None),
    ],
)
def test_further_damage_tables(in_force: str, draw: str, result: str | None) -> None:
    state, hu, _ = duel("c3", "N", "c6", "S")
    damage(state, "Huascar", in_force)
    control(state, hu, draw)
    kinds = [d.kind for d in hu.damage[1:]]
    assert kinds == ([result] if result else [])
    assert (draw in state.damage_deck.discards) is (result is None)


def test_joker_against_a_fire_blows_the_ship_up() -> None:
    state, hu, _ = duel("c3", "N", "c6", "S")
    damage(state, "Huascar", "AC", "JS")  # the conning tower hit is tackled first...
    text = control(state, hu, "JK1")
    assert hu.status == "afloat" and "no effect" in text
    state, hu, _ = duel("c3", "N", "c6", "S")
    damage(state, "Huascar", "JS")
    text = control(state, hu, "JK2")
    assert hu.status == "sunk" and "blows up" in text
    assert "JS" in state.damage_deck.discards and "JK2" in state.damage_deck.discards


def test_blowing_up_at_activation_start_passes_to_the_next_ship() -> None:
    state = new_game("standard")
    kaiser = damage(state, "Kaiser Max", "JS")
    stack(state, "JK1")
    for s in state.ships:
        s.activated = True
    kaiser.activated = False
    kaiser.card = "2H"
    ship(state, "Habsburg").activated = False
    ship(state, "Habsburg").card = "3H"
    lines: list[str] = []
    advance(state, Rng(seed_from_number(0)), lines)
    assert kaiser.status == "sunk" and state.active == ship(state, "Habsburg").id
    assert "Kaiser Max blows up" in "\n".join(lines)


def test_damage_pack_reshuffles_its_discards_when_empty() -> None:
    state, _, _ = duel("c3", "N", "c6", "S")
    deck = state.damage_deck
    deck.discards = deck.draw_pile[:-1]
    deck.draw_pile = deck.draw_pile[-1:]
    draw_damage(state, Rng(seed_from_number(0)))
    assert draw_damage(state, Rng(seed_from_number(0))) is not None
    assert not deck.discards and len(deck.draw_pile) == 52


# --- ramming ---------------------------------------------------------------------------------


def test_ramming_an_enemy_uses_both_tables_and_the_rammer_stays_adjacent() -> None:
    state, hu, co = duel("c3", "N", "c5", "S")
    stack(state, "7H", "9C")  # rammer draws 7 (loses 4), rammed draws 9 (loses 9)
    text = order(state, "peru", "move 2")
    assert "Huascar rams Almirante Cochrane" in text
    assert label(Square(hu.x, hu.y)) == "c4"
    assert hu.flotation == hu.flotation_max - 4 and co.flotation == co.flotation_max - 9
    assert state.marks[-1].kind == "ram"


@pytest.mark.parametrize(
    ("rammer_card", "rammer_loss", "rammer_kind"),
    [
        ("AH", 5, CONNING),
        ("KH", 5, ENGINE),
        ("QH", 5, STEERING),
        ("JH", 5, None),
        ("10H", 5, None),
        ("8H", 4, None),
        ("6H", 3, None),
        ("5H", 3, None),
        ("4H", 2, None),
        ("3H", 2, None),
        ("2H", 1, None),
    ],
)
def test_rammer_table(rammer_card: str, rammer_loss: int, rammer_kind: str | None) -> None:
    state = new_game("duel", squadron2="duilio")
    du = ship(state, "Duilio")
    ram_damage(state, du, rammer_card, True, [])
    assert du.flotation == du.flotation_max - rammer_loss
    assert [d.kind for d in du.damage] == ([rammer_kind] if rammer_kind else [])


@pytest.mark.parametrize(
    ("card", "loss", "kind"),
    [
        ("AS", 10, CONNING),
        ("KS", 10, ENGINE),
        ("QS", 10, STEERING),
        ("JS", 10, None),
        ("10S", 10, None),
        ("7S", 7, None),
        ("2S", 2, None),
        ("JK1", 0, None),
    ],
)
def test_rammed_table(card: str, loss: int, kind: str | None) -> None:
    state = new_game("duel", squadron2="duilio")
    du = ship(state, "Duilio")
    ram_damage(state, du, card, False, [])
    assert du.flotation == du.flotation_max - loss
    assert [d.kind for d in du.damage] == ([kind] if kind else [])


def test_a_ramming_ship_may_not_fire() -> None:
    state, _, _ = duel("c3", "N", "c4", "S")
    with pytest.raises(IllegalOrder, match="may not fire"):
        RS.parse_order(state, "peru", "move 1 fire Cochrane")
    rams_then_fires = [o for o in legal_texts(RS, state, "peru") if re.match(r"move 1( turn \w+)? fire", o)]
    assert rams_then_fires == []
    assert "move 1" in legal_texts(RS, state, "peru")


def friendly(card: str) -> tuple[State, Ship, Ship]:
    state = new_game("standard")
    hab = place(state, "Habsburg", "c3", "N")
    kai = place(state, "Kaiser Max", "c4", "N")
    activate(state, "Habsburg", card)
    return state, hab, kai


def test_friendly_ship_is_rammed_on_a_red_activation_card() -> None:
    state, hab, kai = friendly("5D")
    stack(state, "2C", "3C")
    text = order(state, "austria", "move 1")
    assert "Habsburg rams Kaiser Max" in text
    assert hab.flotation == hab.flotation_max - 1 and kai.flotation == kai.flotation_max - 3


def test_friendly_ship_is_avoided_on_a_black_activation_card() -> None:
    state, hab, kai = friendly("5S")
    before = list(state.damage_deck.draw_pile)
    text = order(state, "austria", "move 1")
    assert "avoid Kaiser Max" in text and (hab.x, hab.y) == (2, 2)
    assert state.damage_deck.draw_pile == before and kai.flotation == kai.flotation_max


def test_ram_can_sink_both_ships() -> None:
    state, hu, co = duel("c3", "N", "c4", "S")
    hu.flotation, co.flotation = 1, 2
    stack(state, "2H", "2C")
    text = order(state, "peru", "move 1")
    assert hu.status == co.status == "sunk"
    assert "Game over: a draw" in text
    outcome = RS.outcome(state)
    assert outcome is not None and outcome.winner is None
