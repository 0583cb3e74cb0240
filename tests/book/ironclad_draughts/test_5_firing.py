"""Book 004, "Firing" (5): see test_sections_covered for the numbering. Which guns bear comes from
each ship's record sheet (house data: data/ironclad_draughts/ships.toml)."""

from __future__ import annotations

import pytest

from games.ironclad_draughts.state import State
from tests.book.ironclad_draughts.book import (
    RS,
    acting,
    cards,
    damage,
    fails,
    flotation,
    game,
    in_force,
    order,
    place,
    sail,
    ship,
    square,
    stack,
)


def duel(firer_at: str = "d2", target_at: str = "d6") -> State:
    """Affondatore (two 10-inch guns in a turret, bearing all round) heading north acts now;
    Habsburg heading south acts next; Kaiser Max out of the way acts last."""
    state = game("Affondatore", "Habsburg", "Kaiser Max")
    place(state, "Affondatore", firer_at, "N")
    place(state, "Habsburg", target_at, "S")
    place(state, "Kaiser Max", "a1", "E")
    cards(state, Affondatore="2H", Habsburg="3H", **{"Kaiser Max": "KS"})
    return state


@pytest.mark.parametrize(("target_at", "squares"), [("d8", 6), ("f6", 6), ("g6", 7), ("e8", 7)])
def test_the_range_is_six_squares_counted_orthogonally(target_at: str, squares: int) -> None:
    """5.1: "Each ship fires after their own movement, at any target ship that is not more than 6
    squares away counted orthogonally." From d2 (after moving from d1): d8 and f6 are 6 squares
    (f6 is 2 across and 4 up, counted orthogonally), g6 and e8 are 7."""
    state = duel("d1", target_at)
    text = "move 1 fire Habsburg"
    if squares <= 6:
        out = order(state, "italy", text, [1, 1])
        assert f"({squares} squares)" in out
    else:
        assert f"{squares} squares away" in fails(state, "italy", text)


def test_a_ship_on_fire_reaches_four_squares() -> None:
    """5.1: "Note: Ships that are on fire have the range of their guns restricted to 4 squares
    counted orthogonally." On fire, Affondatore can reach Habsburg 4 squares off, not 5."""
    state = duel("d1", "d7")
    damage(state, "Affondatore", "JH")
    assert "range is 4" in fails(state, "italy", "move 1 fire Habsburg")
    state = duel("d1", "d7")
    damage(state, "Affondatore", "JH")
    assert "(4 squares)" in order(state, "italy", "move 2 fire Habsburg", [1, 1])


def test_no_fire_with_an_unrepaired_conning_tower_hit() -> None:
    """5.1: "A ship may not fire if it has suffered an unrepaired Conning Tower Hit"; 5.4: "Ace:
    Conning Tower Hit - move one square straight ahead per turn, without firing." """
    state = duel()
    damage(state, "Affondatore", "AC")
    assert fails(state, "italy", "fire Habsburg")
    assert all(" fire " not in f" {o.text}" for o in RS.legal_orders(state, "italy"))
    out = order(state, "italy", "pass")
    assert square(state, "Affondatore") == "d3" and "fires" not in out


def test_no_fire_whilst_ramming() -> None:
    """5.1: "A ship may not fire ... whilst it is Ramming another ship." """
    state = duel("d2", "d4")
    assert "may not fire" in fails(state, "italy", "move 2 fire Habsburg")
    assert "fires" not in order(state, "italy", "move 2")


def test_one_die_for_each_gun_able_to_bear_and_each_six_hits() -> None:
    """5.2: "To see how many hits are made on a target ship, roll D6 for each gun able to bear. Each
    6 will score a hit on the target ship." and 1.4: "Several D6s." Habsburg's port battery of three
    guns bears on Affondatore off its port beam: three dice, the one 6 is one hit, one card drawn."""
    state = duel("d1", "g6")
    order(state, "italy", "move 1 turn starboard")  # d2 heading east
    stack(state, "5D")
    out = order(state, "austria", "move 1 fire Affondatore", [6, 5, 1])
    assert "3 dice 6 5 1: 1 hit" in out
    assert "Affondatore draws 5♦" in out


def test_guns_that_do_not_bear_do_not_fire() -> None:
    """5.2: "roll D6 for each gun able to bear": Habsburg's broadside guns do not bear dead ahead."""
    state = duel("d2", "d6")
    order(state, "italy", "move 1")
    assert "bears" in fails(state, "austria", "move 1 fire Affondatore")


@pytest.mark.parametrize("calibre_class", ["inflexible", "duilio"])
def test_guns_of_sixteen_inches_or_more_count_twice(calibre_class: str) -> None:
    """5.2: "Note: Guns that are 16" calibre or larger count as two guns for the purposes of
    firing." Two 16-inch (or 17.7-inch) turret guns roll four dice."""
    state = game("Big", "Re d'Italia", squadron1=f"{calibre_class}:Big+kaiser_max:Small")
    place(state, "Big", "d2", "N")
    place(state, "Re d'Italia", "d6", "S")
    cards(state, Big="2H", **{"Re d'Italia": "3H"})
    out = order(state, "austria", "move 1 fire Re d'Italia", [1, 1, 1, 2])
    assert "4 dice" in out


def test_the_target_draws_a_damage_card_for_each_hit_and_court_cards_and_tens_stay() -> None:
    """5.3: "The player controlling the target ship draws a Damage Card for each hit scored, and any
    Aces, Kings, Queens, Jacks, or 10s are placed face up on the Ship's Record Sheet." 5.4: "10
    Flotation Hit - lose one flotation point. Note: Once this damage has been recorded on the Ship's
    Record Sheet, the 10 is discarded." Two hits draw the Jack and the 10: the Jack stays in force,
    the 10 costs a point and goes; a third card is not drawn."""
    state = duel()
    stack(state, "JD", "10S", "2C")
    out = order(state, "italy", "move 1 fire Habsburg", [6, 6])
    assert "Habsburg draws J♦" in out and "Habsburg draws 10♠" in out
    assert "Habsburg draws 2♣" not in out  # the 2 is Habsburg's damage-control draw
    assert in_force(state, "Habsburg") == ["J♦"]
    assert flotation(state, "Habsburg") == 14 - 1


@pytest.mark.parametrize("card", ["2C", "5H", "9S", "JK1"])
def test_a_low_card_or_a_joker_drawn_for_a_hit_does_nothing(card: str) -> None:
    """5.3: "any Aces, Kings, Queens, Jacks, or 10s are placed face up": a 2-9 is not placed and
    costs nothing; a Joker, which the book lists only as a damage-control card against a fire, is
    ruled to do nothing as a Damage Card (RULINGS.md "Jokers")."""
    state = duel()
    stack(state, card)
    order(state, "italy", "move 1 fire Habsburg", [6, 1])
    assert in_force(state, "Habsburg") == [] and flotation(state, "Habsburg") == 14


def test_damage_has_an_immediate_effect() -> None:
    """5.3: "All damage caused has an immediate effect." A Conning Tower Hit from Affondatore's fire
    holds Habsburg, acting next in the same turn, to one square straight ahead without firing."""
    state = duel()
    stack(state, "AS", "2H")  # the hit, then Habsburg's damage-control draw: no repair
    order(state, "italy", "move 1 fire Habsburg", [6, 1])
    assert acting(state) == "Habsburg"
    assert fails(state, "austria", "move 1")
    assert fails(state, "austria", "fire Affondatore")
    order(state, "austria", "pass")
    assert square(state, "Habsburg") == "d5"


def test_a_flotation_hit_that_takes_the_last_point_sinks_at_once() -> None:
    """5.3: "All damage caused has an immediate effect." with 7: "A ship sinks when its Flotation
    Points are reduced to 0." Habsburg on its last point sinks when the 10 is drawn and never acts."""
    state = duel()
    ship(state, "Habsburg").flotation = 1
    stack(state, "10C")
    out = order(state, "italy", "move 1 fire Habsburg", [6, 1])
    assert "Habsburg sinks!" in out
    assert "Habsburg" not in {c.label for c in RS.view(state, None).counters}
    assert acting(state) == "Kaiser Max"


def test_an_engine_hit_moves_one_square_straight_ahead_and_stops() -> None:
    """5.4: "King: Engine Hit - move one square straight ahead and stop." (ruled, RULINGS.md "Engine
    Hit"): the ship's next activation makes the one square straight ahead, and it then stays where
    it is, able to fire, until the hit is repaired."""
    state = duel("d2", "d8")
    damage(state, "Habsburg", "KS")
    stack(state, "2H", "3H")  # both damage-control draws fail
    order(state, "italy", "move 1")
    assert fails(state, "austria", "move 1")
    order(state, "austria", "pass")
    assert square(state, "Habsburg") == "d7"
    sail(state, {"Kaiser Max": ["move 1"], "Affondatore": ["move 1 turn port", "move 1"], "Habsburg": ["pass"]})
    assert square(state, "Habsburg") == "d7"


def test_a_steering_hit_moves_one_ahead_and_turns_45_degrees_by_colour() -> None:
    """5.4: "Queen: Steering Hit - move one square straight ahead and turn 4 points (45°) to Port
    (red card) or Starboard (black card). Continue turning until damage is repaired." A red Queen
    turns Habsburg (heading south) to port, i.e. towards the east: south-east, then east."""
    state = duel("a2", "d8")
    damage(state, "Habsburg", "QH")
    stack(state, "2C", "3C")
    order(state, "italy", "move 1")
    order(state, "austria", "pass")
    assert square(state, "Habsburg") == "d7"
    assert [c.facing for c in RS.view(state, None).counters if c.label == "Habsburg"] == [135.0]
    sail(state, {"Kaiser Max": ["move 1"], "Affondatore": ["move 1", "move 1"], "Habsburg": ["pass"]})
    assert square(state, "Habsburg") == "e6"
    assert [c.facing for c in RS.view(state, None).counters if c.label == "Habsburg"] == [90.0]


def test_a_black_queen_turns_to_starboard() -> None:
    """5.4: "turn 4 points (45°) to Port (red card) or Starboard (black card)": Habsburg heading
    south turns to starboard (towards the west) on a black Queen."""
    state = duel("h2", "d8")
    damage(state, "Habsburg", "QS")
    stack(state, "2C")
    order(state, "italy", "move 1")
    order(state, "austria", "pass")
    assert [c.facing for c in RS.view(state, None).counters if c.label == "Habsburg"] == [225.0]


def test_a_ship_on_fire_moves_as_usual() -> None:
    """5.4: "Jack: On Fire - move as usual: may blow up (See Damage Control)." """
    state = duel("a2", "d8")
    damage(state, "Habsburg", "JC")
    stack(state, "2H")
    order(state, "italy", "move 1")
    order(state, "austria", "move 2 turn port")
    assert square(state, "Habsburg") == "d6" and in_force(state, "Habsburg") == ["J♣"]


def test_a_ship_fires_only_at_an_enemy() -> None:
    """5.1: "Each ship fires after their own movement, at any target ship that is not more than 6
    squares away" (ruled, RULINGS.md "Targets"): a target ship is an enemy; Ramming says "regardless
    of which squadron" and Firing does not, so a ship never fires on its own squadron."""
    state = duel("d1", "h8")
    place(state, "Kaiser Max", "d6", "S")
    order(state, "italy", "move 1")
    stack(state, "2H")
    assert "own side" in fails(state, "austria", "move 1 fire Kaiser Max")


def test_the_damage_pack_is_reshuffled_when_it_runs_out() -> None:
    """5.3: "draws a Damage Card for each hit scored" (ruled, RULINGS.md "The damage pack"): when
    the pack is empty its discards are shuffled into a new pack and the draw goes on."""
    state = duel()
    deck = state.damage_deck
    deck.discards.extend(deck.draw_pile[:-1])
    del deck.draw_pile[:-1]
    stack(state, "5C")  # the last card; the second hit draws from the reshuffled discards
    out = order(state, "italy", "move 1 fire Habsburg", [6, 6])
    assert "Habsburg draws 5♣" in out and out.count("Habsburg draws") == 2
