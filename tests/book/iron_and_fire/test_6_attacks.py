"""Iron and Fire, module 6.0 (Attacks): firing, ramming and boarding. On the all-sea map hexes are
CCRR; a ship on 1610 facing 6 (the top edge) has 1609, 1608, ... straight ahead of its bow."""

from __future__ import annotations

import pytest

from games.iron_and_fire.state import State
from tests.book.iron_and_fire.book import RS, fails, game, hits, in_play, line, place, play, unit
from tests.iron_and_fire.helpers import add_battery


def duel(e_hex: str = "1608", e_face: int = 3, side: str = "peru", h_hex: str = "1610", h_face: int = 6) -> State:
    """Scenario 1 (boilers fixed): Huáscar (TIC, CF 3, PF 7, black bow) and Esmeralda (SSC, CF 1,
    PF 3, brown bow), ``side`` holding a King."""
    state = game("s1")
    place(state, "huascar", h_hex, h_face)
    place(state, "esmeralda", e_hex, e_face)
    return in_play(state, side, "KH" if side == "peru" else "KS")


def fleet(side: str = "peru") -> State:
    """Scenario 5: Huáscar 1610 and Unión 1810 facing 6; Cochrane (CBIC, PF 8), Loa and O'Higgins
    placed by each test."""
    state = game("s5")
    place(state, "huascar", "1610", 6)
    place(state, "union", "1810", 6)
    return in_play(state, side, "KH" if side == "peru" else "KS")


def roll_total(out: str) -> int:
    """The modified roll of the first attack line (``... = 5 vs PF 3``)."""
    return int(out.split(" vs PF")[0].rsplit("= ", 1)[1])


# --- 6.0 and 6.1: firing ------------------------------------------------------------------


def test_land_batteries_fire_but_never_ram_or_board() -> None:
    """6.0: "Ships and land batteries may attack using Firing. Ships may also attack using Ramming
    or Boarding." """
    state = game("s3")
    place(state, "blanco_encalada", "2010", 3)
    place(state, "huascar", "1605", 3)
    add_battery(state, "1306")
    in_play(state, "chile", "KS")
    assert fails(state, "chile", "Battery 1 board Huascar")
    assert fails(state, "chile", "Battery 1 ram")
    assert "fires at Huáscar" in play(state, "chile", "Battery 1 fire Huascar", [1])


def test_a_ship_with_no_chance_of_a_hit_cannot_fire() -> None:
    """6.0: "ships with a Combat Factor (CF) of 0 (zero) and even negative numbers ... can still
    fire as long as a possibility exists to roll, add modifiers, and cause a hit (Case 6.1.2)."
    Unión with 4 hits (CF 2 - 3 = -1) can reach Cochrane's PF 8 at range 1 (10 - 1 + 1) but not at
    range 3 (10 - 1 - 2 = 7)."""
    state = fleet()
    unit(state, "union").hits = 4
    place(state, "almirante_cochrane", "1807", 3)
    assert fails(state, "peru", "Union fire Cochrane")
    place(state, "almirante_cochrane", "1809", 3)
    assert "fires at Almirante Cochrane" in play(state, "peru", "Union fire Cochrane", [1])


def test_every_unit_needs_an_activation_to_fire_and_fire_is_not_simultaneous() -> None:
    """6.1: "All ships and land batteries require an activation to fire. Firing is not
    simultaneous; whichever ship or land battery has been activated fires and any damage that may
    result is placed on the enemy unit." Huáscar's hit is on Esmeralda at once; Esmeralda does not
    fire back until a black card activates it."""
    state = duel()
    state.deck = ["3S"]
    out = play(state, "peru", "Huascar fire Esmeralda", [1])
    assert hits(state, "esmeralda") == 1 and hits(state, "huascar") == 0
    assert "Esmeralda fires" not in out and RS.to_act(state) == ["chile"]


@pytest.mark.parametrize(("target", "distance"), [("1606", 4), ("1605", 5)])
def test_the_range_is_four_hexes_counting_the_target(target: str, distance: int) -> None:
    """6.1.1: "All ships and land batteries possess a range of 4 hexes, not counting the firing
    unit, but counting the target unit." From 1610, 1606 is four hexes and 1605 five."""
    state = duel(target, 5)
    if distance <= 4:
        assert "(range 4)" in play(state, "peru", "Huascar fire Esmeralda", [1])
    else:
        assert "5 hexes" in fails(state, "peru", "Huascar fire Esmeralda")


def test_any_unit_on_the_line_blocks_fire() -> None:
    """6.1.1: "Any unit, enemy or friendly, in a hex along this line of sight ... will block fire to
    an intended target." Loa between Huáscar and Cochrane blocks the shot."""
    state = fleet()
    place(state, "loa", "1609", 3)
    place(state, "almirante_cochrane", "1607", 3)
    assert "blocked" in fails(state, "peru", "Huascar fire Cochrane")


@pytest.mark.parametrize(
    ("target", "modifier", "label"),
    [("1609", 1, "range 1"), ("1608", -1, "range 2"), ("1607", -2, "range 3"), ("1606", -2, "range 4")],
)
def test_the_range_modifiers(target: str, modifier: int, label: str) -> None:
    """6.1.2: "+1 if range is 1 hex (target adjacent) -1 if range is 2 hexes -2 if range is 3 or 4
    hexes" Esmeralda faces across the line of fire (no raking)."""
    state = duel(target, 5)
    out = play(state, "peru", "Huascar fire Esmeralda", [1])
    assert roll_total(out) == 1 + 3 + modifier and label in out


def test_a_target_at_0_mf_is_easier_to_hit_unless_grounded() -> None:
    """6.1.2: "+1 if target ship has a MF of 0 (do not apply for grounded ships) +2 if target ship
    is grounded" Esmeralda at 3 hits would sink; Cochrane (PF 8) with 8 hits is at MF 0: +1;
    grounded as well, only the +2."""
    state = fleet()
    place(state, "almirante_cochrane", "1608", 5)
    unit(state, "almirante_cochrane").hits = 8
    out = play(state, "peru", "Huascar fire Cochrane", [1])
    assert roll_total(out) == 1 + 3 - 1 + 1
    state = fleet()
    place(state, "almirante_cochrane", "1608", 5)
    c = unit(state, "almirante_cochrane")
    c.hits, c.grounded = 8, True
    out = play(state, "peru", "Huascar fire Cochrane", [1])
    assert roll_total(out) == 1 + 3 - 1 + 2


def test_raking_fire_through_an_sscs_bow_or_stern_hexrow() -> None:
    """6.1.2: "+1 if fire enters through an SSC's bow or stern hexrow (suffering raking fire)"
    Esmeralda (an SSC) with its stern toward Huáscar is raked; turned broadside on, it is not."""
    state = duel("1608", 6)
    assert roll_total(play(state, "peru", "Huascar fire Esmeralda", [1])) == 1 + 3 - 1 + 1
    state = duel("1608", 5)
    assert roll_total(play(state, "peru", "Huascar fire Esmeralda", [1])) == 1 + 3 - 1


def test_a_broadside_ship_firing_out_of_its_bow_loses_one_and_a_turret_ship_does_not() -> None:
    """6.1.2: "-1 if ship with broadsides fires out of a bow or stern hex" Independencia (BIC)
    firing dead ahead takes -1; Huáscar (turret) does not (project ruling: turrets have no such
    penalty)."""
    state = game("s5", independencia="survives")
    place(state, "independencia", "1610", 6)
    place(state, "almirante_cochrane", "1608", 5)
    in_play(state, "peru", "KH")
    out = play(state, "peru", "Independencia fire Cochrane", [1])
    assert roll_total(out) == 1 + 3 - 1 - 1
    state = fleet()
    place(state, "almirante_cochrane", "1608", 5)
    assert roll_total(play(state, "peru", "Huascar fire Cochrane", [1])) == 1 + 3 - 1


def test_general_firing_results_and_the_critical_check() -> None:
    """6.1.3: "If the modified die roll is less than a target unit's Protection Factor, no effect.
    If the modified die roll is equal to or greater than a target unit's Protection Factor, the
    unit suffers 1 hit. If the modified die roll is equal to or greater than twice a target unit's
    Protection Factor, the unit suffers 2 hits and the firer rolls 1d6 for a possible Critical Hit.
    On a roll of 5 or 6, the target suffers a Critical Hit" Esmeralda PF 3, from range 2 (+3 CF
    -1): a 0 is impossible, so d10 1 = 3: one hit; d10 4 = 6: two hits and a d6 (4: no critical)."""
    state = duel("1608", 5)
    play(state, "peru", "Huascar fire Esmeralda", [1])
    assert hits(state, "esmeralda") == 1
    state = duel("1608", 5)
    play(state, "peru", "Huascar fire Esmeralda", [4, 4])
    assert hits(state, "esmeralda") == 2 and unit(state, "esmeralda").criticals == []
    state = duel("1608", 5)
    play(state, "peru", "Huascar fire Esmeralda", [4, 5, 5])
    assert unit(state, "esmeralda").criticals == ["propulsion"]


@pytest.mark.parametrize(("roll", "hit"), [(8, False), (7, True)])
def test_an_ironclad_ignores_hits_on_an_even_raw_roll(roll: int, hit: bool) -> None:
    """6.1.4: "Ironclad: If the raw, unmodified d10 roll was even, the ship ignores all hits. If the
    raw, unmodified d10 roll was odd, the ship suffers hits as per Case 6.1.3." Esmeralda (CF 1)
    fires at Huáscar (PF 7) at range 1 out of its bow: 8 + 1 + 1 - 1 = 9 would hit, but the 8 is
    even; a 7 (7 + 1 + 1 - 1 = 8) hits."""
    state = duel("1609", 3, side="chile")
    play(state, "chile", "Esmeralda fire Huascar", [roll])
    assert (hits(state, "huascar") > 0) is hit


@pytest.mark.parametrize(("battery_hex", "roll", "hit"), [("1306", 8, True), ("1305", 10, False), ("1305", 9, True)])
def test_a_land_battery_ignores_even_rolls_only_at_range_3_or_4(battery_hex: str, roll: int, hit: bool) -> None:
    """6.1.4: "Land Battery: If the firer's range was 3 or 4 hexes and the raw, unmodified d10 roll
    was even, the land battery ignores all hits. ... If the firer's range was 1 or 2 hexes, the land
    battery suffers hits as per Case 6.1.3 (regardless of the raw die roll)." """
    state = game("s3")
    place(state, "blanco_encalada", "2010", 3)
    place(state, "huascar", "1506" if battery_hex == "1306" else "1705", 2)
    add_battery(state, battery_hex)
    in_play(state, "peru", "KH")
    play(state, "peru", "Huascar fire Battery 1", [roll])
    assert (unit(state, "battery1").hits > 0) is hit


def test_a_ship_in_boarding_combat_cannot_move_fire_or_ram() -> None:
    """6.1.5: "A ship with a Boarding Combat marker atop it cannot move, fire, or ram." and the same
    in 6.2.3: "A ship with a Boarding Combat marker atop it cannot move, fire, or ram." (and 5.3). Huáscar wins a boarding round by one and continues; on Chile's next card Esmeralda,
    locked in the combat, may do none of the three."""
    state = duel("1609", 3)
    play(state, "peru", "Huascar board Esmeralda", [1, 2, 5])  # 2 + 7 = 9 against 5 + 3 = 8
    play(state, "peru", "continue")
    in_play(state, "chile", "KS")
    assert "Boarding Combat" in fails(state, "chile", "Esmeralda move F")
    assert "Boarding Combat" in fails(state, "chile", "Esmeralda fire Huascar")
    assert "Boarding Combat" in fails(state, "chile", "Esmeralda ram")


# --- 6.2: ramming ---------------------------------------------------------------------------


def test_a_ram_needs_the_bow_pointed_at_an_adjacent_ship() -> None:
    """6.2: "The ship must have its bow pointed at the target ship, must be adjacent to the target
    ship, and must expend 1 MP for the ramming attack." Esmeralda two hexes off, or adjacent but
    not ahead of the bow, cannot be rammed."""
    state = duel("1608", 5)
    assert fails(state, "peru", "Huascar ram")
    state = duel("1709", 5, h_face=6)
    assert fails(state, "peru", "Huascar ram")


def test_a_ram_is_part_of_a_movement_activation_and_the_rammer_never_enters_the_target_hex() -> None:
    """6.2: "Ships may opt to conduct a ramming attack as part of a Movement Activation." and "The
    ramming ship never enters the target's hex." Huáscar closes two hexes and rams with its third
    MP; it stays in the hex next to Esmeralda."""
    state = duel("1607", 5)
    out = play(state, "peru", "Huascar move F F ram", [1])
    assert "rams Esmeralda" in out
    assert line(state, "Huáscar").startswith("Huáscar (Peru): 1608")
    assert line(state, "Esmeralda").startswith("Esmeralda (Chile): 1607")


@pytest.mark.parametrize(
    ("e_face", "modifier", "why"),
    [
        (5, 1, "black bow, through the side"),
        (6, 0, "black bow, through the stern"),
        (3, -1, "black bow, through the bow"),
    ],
)
def test_the_ramming_modifiers_for_bow_colour_and_the_hex_rammed_through(e_face: int, modifier: int, why: str) -> None:
    """6.2.1: "The attacking ship rolls 1d10 and adds the following die modifiers: +1 if the
    ramming ship has a black bow indicator ... -1 if attacking through the target ship's stern hex
    -2 if attacking through the target ship's bow hex" Huáscar has a black bow."""
    state = duel("1609", e_face)
    out = play(state, "peru", "Huascar ram", [1])
    assert roll_total(out) == 1 + modifier, why


def test_a_brown_bow_adds_nothing_and_a_target_at_0_mf_adds_two() -> None:
    """6.2.1: "+0 if the ramming ship has a brown bow indicator +2 if the target ship has a MF of 0"
    Esmeralda (brown bow) rams Huáscar, broadside on; then Huáscar at 7 hits (MF 0)."""
    state = duel("1609", 3, side="chile", h_face=5)
    assert roll_total(play(state, "chile", "Esmeralda ram", [1])) == 1
    state = duel("1609", 3, side="chile", h_face=5)
    unit(state, "huascar").hits = 7
    assert roll_total(play(state, "chile", "Esmeralda ram", [1])) == 1 + 2


def test_ramming_results() -> None:
    """6.2.2: "If the modified die roll is less than the target's Protection Factor, the ramming
    ship takes 1 hit. If the modified die roll is equal to or greater than a target's Protection
    Factor, the target ship suffers 1 hit. If the modified die roll is equal to or greater than
    twice a target's Protection Factor, the target unit suffers 2 hits and suffers a Critical Hit
    (Module 10.0). Also: If the modified die roll is less than the rammer's Protection Factor, the
    ramming ship takes 1 hit." Huáscar (PF 7) rams Esmeralda (PF 3) broadside on (+1): 1 + 1 = 2
    misses (two hits on Huáscar: below both PFs); 2 + 1 = 3 hits Esmeralda and shakes Huáscar; 6 + 1 =
    7 is twice PF: two hits and a critical hit with no 5-or-6 check (a d6 for its kind only)."""
    state = duel("1609", 5)
    play(state, "peru", "Huascar ram", [1])
    assert hits(state, "huascar") == 2 and hits(state, "esmeralda") == 0
    state = duel("1609", 5)
    play(state, "peru", "Huascar ram", [2])
    assert hits(state, "huascar") == 1 and hits(state, "esmeralda") == 1
    state = duel("1609", 5)
    play(state, "peru", "Huascar ram", [6, 6])
    assert hits(state, "huascar") == 0 and hits(state, "esmeralda") == 2
    assert unit(state, "esmeralda").criticals == ["steering"]


# --- 6.3: boarding ----------------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "occurs"), [(3, True), (4, False)])
def test_boarding_occurs_on_a_d10_at_or_under_the_targets_pf(roll: int, occurs: bool) -> None:
    """6.3: "Boarding may be attempted against an adjacent enemy ship." and "To attempt a Boarding
    Combat, the attacker rolls 1d10: If the die roll is less than or equal to the target's
    Protection Factor, the Boarding Combat occurs. ... If the die roll is greater than the target's
    Protection Factor, the Boarding Combat does not occur." """
    state = duel("1609", 5)
    out = play(state, "peru", "Huascar board Esmeralda", [roll, 1, 5] if occurs else [roll])
    assert ("Boarding Combat!" in out) is occurs


def test_boarding_needs_an_adjacent_enemy() -> None:
    """6.3: "Boarding may be attempted against an adjacent enemy ship." """
    state = duel("1608", 5)
    assert fails(state, "peru", "Huascar board Esmeralda")


def test_boarding_combat_results_win_by_one_and_capture() -> None:
    """6.3: "To resolve Boarding Combat, both players roll 1d6 and add the following modifiers: +
    Protection Factor of their ship" and "Higher by 1: Success. The ship with the higher total wins
    the Boarding Combat. Place one hit on the losing ship." and "Higher by 2 or more: Capture. ...
    Place 1 hit on the captured ship" """
    state = duel("1609", 5)
    play(state, "peru", "Huascar board Esmeralda", [1, 2, 5])  # 9 against 8
    assert hits(state, "esmeralda") == 1 and unit(state, "esmeralda").controller == "chile"
    state = duel("1609", 5)
    play(state, "peru", "Huascar board Esmeralda", [1, 3, 5])  # 10 against 8
    assert hits(state, "esmeralda") == 1 and unit(state, "esmeralda").controller == "peru"


@pytest.mark.parametrize(("dice", "each"), [([1, 5], 1), ([2, 6], 0)])
def test_a_boarding_tie_hits_both_ships_only_when_both_dice_are_odd(dice: list[int], each: int) -> None:
    """6.3: "Tie Result: Inconclusive. If both players' totals are equal and both unmodified die
    rolls are odd numbers, both ships take 1 hit. If both players' totals are equal and both
    unmodified die rolls are even numbers, or one is even and one is odd, no effect." Huáscar (PF 7)
    and Esmeralda (PF 3) tie when Esmeralda's die is four higher: 1 and 5, or 2 and 6."""
    state = duel("1609", 5)
    play(state, "peru", "Huascar board Esmeralda", [1, *dice])
    assert hits(state, "huascar") == each and hits(state, "esmeralda") == each


def test_a_ship_on_fire_fights_a_boarding_combat_at_minus_one() -> None:
    """6.3: "-1 if their ship is on Fire (Critical Hit)" and 10.0: "Fire: -1 die modifier to
    Boarding Combat (not approach)." Huáscar on fire: 3 + 7 - 1 = 9 against 5 + 3 = 8 is a win by
    one, not a capture."""
    state = duel("1609", 5)
    unit(state, "huascar").criticals = ["fire"]
    play(state, "peru", "Huascar board Esmeralda", [1, 3, 5])
    assert hits(state, "esmeralda") == 1 and unit(state, "esmeralda").controller == "chile"


def test_a_captured_ship_never_fires_rams_or_boards_and_moves_on_two_consecutive_activations() -> None:
    """6.3: "The captured ship never fires, rams, or starts Boarding Combats. It can be the target
    of an enemy Boarding Combat. To move, a captured ship requires two consecutive friendly
    activations (i.e. two cards)." Loa captured by Peru in scenario 5 cannot fire, and moves only
    after a first `prepare` activation."""
    state = fleet()
    place(state, "loa", "1609", 5)
    place(state, "almirante_cochrane", "2005", 3)
    play(state, "peru", "Huascar board Loa", [1, 3, 1])  # 10 against 4: captured
    assert unit(state, "loa").controller == "peru"
    in_play(state, "peru", "3H")
    assert fails(state, "peru", "Loa fire Cochrane")
    assert fails(state, "peru", "Loa move F")
    play(state, "peru", "Loa prepare")
    in_play(state, "peru", "3D")
    assert "Loa moves F" in play(state, "peru", "Loa move F")
