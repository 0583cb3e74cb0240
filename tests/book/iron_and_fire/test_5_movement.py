"""Iron and Fire, module 5.0 (Movement): movement points, shallow water and grounding, ungrounding,
drift, prohibited movement. The Antofagasta map (scenario 3) has land in columns 11-13, shallow
water in column 14 and 1505-1508; its current flows toward direction 5."""

from __future__ import annotations

import pytest

from games.iron_and_fire.state import State
from tests.book.iron_and_fire.book import fails, game, hits, in_play, line, place, play, play_freely, unit
from tests.iron_and_fire.helpers import add_battery


def antofagasta(card: str = "KH", **where: tuple[str, int]) -> State:
    """Scenario 3 in its activations with the named units placed (``huascar=("1605", 2)``) and
    ``card`` in play; the deck holds plain cards only."""
    state = game("s3")
    for uid, (hex_, facing) in where.items():
        place(state, uid, hex_, facing)
    side = "peru" if card[-1] in "HD" else "chile"
    return in_play(state, side, card)


def test_a_land_battery_never_moves() -> None:
    """5.0: "A land battery never moves. Once emplaced, it remains in its hex throughout the game." """
    state = antofagasta("KS", huascar=("2010", 3), loa=("2005", 3))
    add_battery(state, "1306")
    assert "never moves" in fails(state, "chile", "Battery 1 move F")


def test_a_ship_has_movement_points_equal_to_its_movement_factor() -> None:
    """5.0: "A ship has a number of movement points (MP) equal to its Movement Factor (MF). It may
    move some, none, or all of its MPs during a movement activation." Huáscar (MF 3) may move one
    hex or three, not four."""
    state = antofagasta(huascar=("2010", 3), union=("2305", 3), loa=("2005", 3))
    assert "3 MP" in fails(state, "peru", "Huascar move F F F F")
    assert "now in" in play(state, "peru", "Huascar move F F F")
    assert "now in" in play(state, "peru", "Union move F")


def test_turning_one_hexside_costs_one_mp() -> None:
    """5.0: "A ship expends 1 MP to: Enter a hex in front of the bow; Turn one hexside to port
    (left); Turn one hexside to starboard (right)" Two turns and a hex are three MP; two turns and
    two hexes are four."""
    state = antofagasta(huascar=("2010", 3), loa=("2005", 3))
    assert "needs 4" in fails(state, "peru", "Huascar move P P F F")
    assert "facing 5" in play(state, "peru", "Huascar move P P F")


def test_a_ram_costs_one_mp() -> None:
    """5.0: "A ship expends 1 MP to: ... Conduct a Ram attack (Section 6.2) if bow pointing at
    adjacent enemy ship" Huáscar three hexes short of Loa can close two hexes and ram, not three."""
    state = antofagasta(huascar=("2007", 3), loa=("2010", 6))
    assert "needs 4" in fails(state, "peru", "Huascar move F F F ram")


def test_a_ship_never_enters_a_land_hex() -> None:
    """5.0: "A ship never moves onto a land hex."; 5.5: "Ships never enter a land hex" Blanco
    Encalada in shallow water off the land may not steam into it."""
    state = antofagasta("KS", blanco_encalada=("1402", 2), huascar=("2010", 3))
    assert "it is land" in fails(state, "chile", "Blanco move F")


def test_no_stacking() -> None:
    """5.5: "Ships ... never move into a hex occupied by another ship (no stacking)." """
    state = antofagasta(huascar=("2007", 3), union=("2008", 3), loa=("2010", 6))
    assert fails(state, "peru", "Huascar move F")
    assert line(state, "Huáscar").startswith("Huáscar (Peru): 2007")


def test_entering_shallow_water_checks_for_grounding_and_clear_goes_on() -> None:
    """5.1: "Each ship that enters shoals or shallow water checks for possible grounding. ... Roll
    1d10 and add the following cumulative die modifiers"; 5.2: "If the modified die roll is less
    than a ship's Protection Factor, the ship does not ground and may continuing moving." Huáscar
    (PF 7) enters 1506 on its first MP, rolls 6 and goes on."""
    state = antofagasta(huascar=("1605", 2), loa=("2010", 3))
    out = play(state, "peru", "Huascar move F", [6])
    assert "d10 **6** = 6 vs PF 7: clear" in out
    assert not unit(state, "huascar").grounded


def test_the_second_mp_adds_one_to_the_grounding_roll() -> None:
    """5.1: "+1 if ship if ship uses 2 MP this activation" Entering 1507 with its second MP, a 6
    becomes 7 and grounds Huáscar (PF 7) there; its third MP is not spent."""
    state = antofagasta(huascar=("1706", 2), loa=("2010", 3))
    out = play(state, "peru", "Huascar move F F", [6])
    assert "+1 2nd MP = 7" in out
    assert unit(state, "huascar").grounded and line(state, "Huáscar").startswith("Huáscar (Peru): 1507")


@pytest.mark.parametrize(("ship_hits", "bonus"), [(1, 0), (2, 1), (3, 1), (4, 2)])
def test_every_two_hits_add_one_to_the_grounding_roll(ship_hits: int, bonus: int) -> None:
    """5.1: "+1 for every 2 hits on the ship (no modifier for only 1 hit)" """
    state = antofagasta(huascar=("1605", 2), loa=("2010", 3))
    unit(state, "huascar").hits = ship_hits
    out = play(state, "peru", "Huascar move F", [1])
    total = int(out.split(" vs PF")[0].rsplit("= ", 1)[1])
    assert total == 1 + bonus


def test_each_critical_hit_marker_adds_one_to_the_grounding_roll() -> None:
    """5.1: "+1 per Critical Hit marker (any type)" Two critical hits (fire and propulsion) add
    two."""
    state = antofagasta(huascar=("1605", 2), loa=("2010", 3))
    unit(state, "huascar").criticals = ["fire", "propulsion"]
    out = play(state, "peru", "Huascar move F", [1])
    assert "= 3 vs PF 7" in out


def test_grounding_at_pf_stops_the_ship_and_at_twice_pf_adds_a_hit() -> None:
    """5.2: "If the modified die roll is equal to or greater than a ship's Protection Factor, the
    ship ceases movement in that hex and is grounded." and "If the modified die roll is equal to
    or greater than twice a ship's Protection Factor, the ship ceases movement in that hex, is
    grounded, and suffers 1 hit." Loa (PF 3) rolls 3: grounded, no hit; rolls 6: grounded and hit."""
    state = antofagasta("KS", loa=("1605", 2), huascar=("2010", 3))
    play(state, "chile", "Loa move F F", [3])
    assert unit(state, "loa").grounded and hits(state, "loa") == 0
    assert line(state, "Loa").startswith("Loa (Chile): 1506")
    state = antofagasta("KS", loa=("1605", 2), huascar=("2010", 3))
    play(state, "chile", "Loa move F", [6])
    assert unit(state, "loa").grounded and hits(state, "loa") == 1


def test_a_ram_at_a_ship_in_shallow_water_checks_grounding_first() -> None:
    """5.1: "A ship in any depth of water attempting to ram a ship in shallow water checks for
    grounding before the ram attempt." and 6.2: "If attempting to ram a ship in shallow water,
    check for grounding before any ram attempts (Section 5.1)." Huáscar in deep water rams Loa in
    1506: the grounding roll (7: grounded) comes first, and a grounded ship rams no more."""
    state = antofagasta(huascar=("1605", 2), loa=("1506", 5))
    out = play(state, "peru", "Huascar ram", [7])
    assert "grounds before the ram: no ram attack" in out and "d10 **7** = 7 vs PF 7" in out
    assert unit(state, "huascar").grounded and hits(state, "loa") == 0


def test_a_grounded_ship_cannot_move_and_may_try_to_unground_as_an_activation() -> None:
    """5.2: "Place a "Grounded" marker on the ship."; 5.3: "Ungrounding attempts may be made as an
    activation" and "If the modified die roll is less than a ship's Protection Factor, the ship
    ungrounds, clears the underwater obstruction, and is eligible to move on a future activation."
    Grounded, Huáscar may not move; a 6 (< PF 7) ungrounds it but it does not move on that card."""
    state = antofagasta(huascar=("1605", 2), union=("2305", 3), loa=("2010", 3))
    unit(state, "huascar").grounded = True
    assert fails(state, "peru", "Huascar move F")
    out = play(state, "peru", "Huascar unground", [6])
    assert not unit(state, "huascar").grounded and "6" in out
    assert fails(state, "peru", "Huascar move F")


@pytest.mark.parametrize(
    ("ship_hits", "criticals", "roll", "freed"),
    [(0, [], 7, False), (2, [], 6, False), (0, ["fire"], 6, False), (1, [], 6, True)],
)
def test_ungrounding_roll_and_its_modifiers(ship_hits: int, criticals: list[str], roll: int, freed: bool) -> None:
    """5.3: "To unground a ship, roll 1d10 and add the following cumulative die modifiers: +1 for
    every 2 hits sustained by the ship (no modifier for only 1 hit) +1 per Critical Hit of any
    type" and "If the modified die roll is equal to or greater than a ship's Protection Factor, the
    ship remains grounded and cannot move." """
    state = antofagasta(huascar=("1605", 2), loa=("2010", 3))
    u = unit(state, "huascar")
    u.grounded, u.hits, u.criticals = True, ship_hits, list(criticals)
    play(state, "peru", "Huascar unground", [roll])
    assert u.grounded is not freed


def test_a_d10_of_0_is_read_as_10() -> None:
    """2.1: "1d10: Roll one ten-sided die (0 is read as 10, not zero)" Huáscar's grounding roll of
    10 (+1 for its second MP) is 11: at least its PF 7, short of twice it, so aground without a hit."""
    state = antofagasta(huascar=("1706", 2), loa=("2010", 3))
    out = play(state, "peru", "Huascar move F F", [10])
    assert "d10 **10** +1 2nd MP = 11" in out
    assert unit(state, "huascar").grounded and hits(state, "huascar") == 0


def test_a_crippled_ship_adds_one_to_its_ungrounding_roll() -> None:
    """5.3: "+1 if ship is Crippled (Module 12.0)" with 2.1: "Crippled: A ship that sustained a
    number of hits that reduces its MP to 0 and its CF to less than 0." Loa (PF 3, CF 1) with 3 hits is crippled: 1 + 1 (two hits)
    + 1 (crippled) = 3, not below PF 3."""
    state = antofagasta("KS", loa=("1506", 2), huascar=("2010", 3))
    u = unit(state, "loa")
    u.grounded, u.hits = True, 3
    out = play(state, "chile", "Loa unground", [1])
    assert u.grounded and "= 3 vs PF 3" in out


def end_turn(state: State, seed: int = 5) -> str:
    """Spend the card in play and let the second Joker end the turn (a real stream: the End Phase
    and the next turn's shuffle)."""
    state.deck = ["JK2", "JK1"] if not state.deck or "JK1" not in state.deck else state.deck
    return play_freely(state, state.card_side, "done", seed)


def test_a_ship_at_0_mp_drifts_one_hex_with_the_current_in_the_end_phase() -> None:
    """5.4: "In the End Phase, ships with their MFs reduced to 0 will drift (move) one hex in the
    direction of the current (determined by scenario) without any facing change." Loa (PF 3) with
    3 hits drifts from 2010 toward direction 5, still facing 3."""
    state = antofagasta(huascar=("2305", 3), loa=("2010", 3))
    unit(state, "loa").hits = 3
    before = line(state, "Loa")
    end_turn(state)
    after = line(state, "Loa")
    assert after.split(";")[0] != before.split(";")[0] and "facing 3" in after


def test_a_ship_never_drifts_into_another_ship() -> None:
    """5.4: "A ship never drifts into a hex occupied by another ship and will instead remain in its
    hex." Huáscar waits in the hex down-current of the crippled Loa."""
    state = antofagasta(huascar=("2305", 3), loa=("2010", 3))
    unit(state, "loa").hits = 3
    probe = antofagasta(huascar=("2305", 3), loa=("2010", 3))
    unit(probe, "loa").hits = 3
    end_turn(probe)
    downstream = line(probe, "Loa").split(": ")[1].split(";")[0]
    place(state, "union", downstream, 3)
    end_turn(state)
    assert line(state, "Loa").startswith("Loa (Chile): 2010")


def test_grounded_ships_do_not_drift() -> None:
    """5.4: "Grounded ships do not drift." Loa, crippled and grounded, fails its End Phase
    ungrounding roll (any d10 + 1 for three hits + 1 crippled reaches its PF 3) and stays put."""
    state = antofagasta(huascar=("2305", 3), loa=("1506", 3))
    u = unit(state, "loa")
    u.hits, u.grounded = 3, True
    out = end_turn(state, seed=8)
    assert "Loa tries to unground (End Phase)" in out and "stays grounded" in out
    assert line(state, "Loa").startswith("Loa (Chile): 1506")
