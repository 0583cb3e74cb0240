"""Iron and Fire, module 15.0 (Scenarios): set-ups, special rules and how each is won. North and
the current are as each scenario gives them; hexes are the printed CCRR numbers."""

from __future__ import annotations

import pytest

from games.iron_and_fire.state import State
from tests.book.iron_and_fire.book import RS, end_turn, fails, game, hits, in_play, line, place, play, play_freely, unit


def playing(scenario: str, card: str = "KH", **where: tuple[str, int]) -> State:
    state = game(scenario)
    for uid, (hex_, facing) in where.items():
        place(state, uid, hex_, facing)
    return in_play(state, "peru" if card[-1] in "HD" else "chile", card)


def over(state: State) -> tuple[str | None, str]:
    result = RS.outcome(state)
    assert result is not None, "the game is not over"
    return result.winner, result.reason


# --- 15.0, 15.1 ------------------------------------------------------------------------------


@pytest.mark.parametrize("scenario", ["s1", "s2", "s3", "s4", "s5"])
def test_chile_sets_up_first(scenario: str) -> None:
    """15.0: "In all scenarios, the Chilean player sets up first followed by the Peruvian player." """
    state = game(scenario)
    assert RS.to_act(state) == ["chile"]
    assert "Chile first, then Peru" in RS.summary(state)[0]


def test_a_ship_that_leaves_the_map_is_out_of_play() -> None:
    """15.0: "Any ships that move off of the map are out of play for the rest of the scenario."
    Loa steams off the west edge in scenario 5 and can no longer be ordered."""
    state = playing("s5", "KS", huascar=("2610", 1), almirante_cochrane=("1705", 3), loa=("1107", 1))
    out = play(state, "chile", "Loa move F")
    assert "leaves the map" in out and "out of play" in out
    in_play(state, "chile", "KS")
    assert fails(state, "chile", "Loa move F")


# --- 15.2 Scenario 1 ---------------------------------------------------------------------------


def test_scenario_1_set_up_rows_and_facings() -> None:
    """15.2.1: "Set up the Esmeralda six hexes from the north edge of the map with its bow facing
    south." and "Set up the Huáscar four hexes from the south edge of the map with its bow facing
    north." North is direction 6 (the edge with 1101); the sixth row from it is row 06, the fourth
    from the south edge row 10 (house reading of "hexes from the edge")."""
    state = game("s1")
    assert "row 06" in fails(state, "chile", "Esmeralda at 1605 3")
    assert "face 3" in fails(state, "chile", "Esmeralda at 1606 6")
    play(state, "chile", "Esmeralda at 1606 3")
    play(state, "chile", "done")
    assert "row 10" in fails(state, "peru", "Huascar at 1609 6")
    assert "face 6" in fails(state, "peru", "Huascar at 1610 3")


def test_scenario_1_mines_near_the_east_edge() -> None:
    """15.2.1: "Mines (Module 9.0): The Chilean player rolls 1d6+2 and sets up that many Mine counters
    (randomly drawn) face down, one to a hex, in any hexes within 10 hexes of the east edge of the
    map." (ruled: this paragraph belongs to Scenario 1, as its option mines=on)"""
    state = game("s1", mines="on")
    out = play(state, "chile", "roll mines", [4])
    assert "= **6**" in out
    assert fails(state, "chile", "mine 1105")


def test_bad_boilers_cost_the_esmeralda_a_mp_for_good() -> None:
    """15.2.2: "Mark the Esmeralda with a Propulsion Critical Hit (Module 10.0, reduces MP by 1)
    marker which cannot be repaired." End Phase after End Phase it stays at MP 1."""
    for seed in range(1, 6):
        state = game("s1", boilers="bad")
        place(state, "huascar", "2610", 1)
        place(state, "esmeralda", "1606", 3)
        in_play(state, "peru", "KH")
        assert ", MP 1," in line(state, "Esmeralda")
        end_turn(state, seed)
        assert ", MP 1," in line(state, "Esmeralda")


def test_boilers_fixed_gives_full_mp() -> None:
    """15.2.3: "Assume the Esmeralda's boilers were refitted before the start of the war and the ship
    moves at full MPs at the start of the scenario." """
    state = playing("s1", huascar=("2610", 1), esmeralda=("1606", 3))
    assert ", MP 2," in line(state, "Esmeralda")


def test_scenario_1_is_won_by_the_survivor_or_by_the_edge_the_esmeralda_leaves() -> None:
    """15.2.4: "If one ship is sunk or surrenders, the survivor is the winner. If the Esmeralda exits
    the map via the south map edge, the Chilean player wins. If the Esmeralda exits the map from any
    other map edge the Peruvian player wins." """
    state = playing("s1", "KS", huascar=("2005", 1), esmeralda=("1613", 3))
    play(state, "chile", "Esmeralda move F")
    assert over(state)[0] == "chile"
    state = playing("s1", "KS", huascar=("2005", 1), esmeralda=("1107", 1))
    play(state, "chile", "Esmeralda move F")
    assert over(state)[0] == "peru"
    state = playing("s1", huascar=("1610", 6), esmeralda=("1608", 5))
    unit(state, "esmeralda").hits = 3
    play(state, "peru", "Huascar fire Esmeralda", [1])
    assert over(state)[0] == "peru"


# --- 15.3 Scenario 2 ---------------------------------------------------------------------------


def test_one_activation_per_ship_per_card() -> None:
    """15.3: "Remember that each ship is allowed only one activation per drawn card. Thus, drawing a
    face card (one activation for up to three ships) means only one activation; the other two cannot
    be used and are ignored." """
    state = playing("s2", "KS", independencia=("1312", 6), covadonga=("1102", 3))
    state.deck = ["4H"]
    play(state, "chile", "Covadonga move F")
    assert RS.to_act(state) == ["peru"]


def test_scenario_2_set_up() -> None:
    """15.3.1: "Set up the Covadonga on a deep water hex up to four hexes in any direction from hex
    1102 with its bow facing direction 3 towards the shoals. Set up the Independencia up to three
    hexes away from hex 1312 with its bow facing direction 6 or 1." """
    state = game("s2")
    play(state, "chile", "roll steam", [3])
    assert fails(state, "chile", "Covadonga at 1102 2")
    assert fails(state, "chile", "Covadonga at 1607 3")  # more than four hexes off
    play(state, "chile", "Covadonga at 1102 3")
    play(state, "chile", "done")
    assert fails(state, "peru", "Independencia at 1312 3")
    assert fails(state, "peru", "Independencia at 1812 6")  # more than three hexes off
    assert "sets up" in play(state, "peru", "Independencia at 1312 1")


def test_the_covadonga_raises_steam() -> None:
    """15.3.2: "The Covadonga may only move 1 MP until the crew fully raises steam. After set-up but
    before the first card is drawn, the Chilean player secretly rolls 1d6: 1-2: 1 Turn of 1 MP
    movement" A 2: in turn 1 the Covadonga has 1 MP; in turn 2 its full MF."""
    state = game("s2")
    play(state, "chile", "roll steam", [2])
    play(state, "chile", "Covadonga at 1102 3")
    play(state, "chile", "done")
    play(state, "peru", "Independencia at 1312 1")
    play_freely(state, "peru", "done")
    place(state, "covadonga", "1803", 3)
    in_play(state, "chile", "KS")
    assert "1 MP" in fails(state, "chile", "Covadonga move F F")
    end_turn(state, seed=4)
    in_play(state, "chile", "KS", turn=2)
    assert "Covadonga moves F F" in play(state, "chile", "Covadonga move F F")


def test_scenario_2_shoals() -> None:
    """15.3.3: "This rule replaces Grounding in Shallow Water (Sections 5.1 and 5.2). Any ship
    moving into a shoal hex must roll 1d6 and add the following modifiers: +1: Ship is the
    Independencia (inept captain) +1: Ship moving two or more hexes" and "If the modified die roll
    is 5 or more, the ship runs aground and receives a number of hits equal to the modifiers
    applied. For example, if the Independencia grounds using its second MP, it would receive 2
    hits" The Iquique map's shoals run from 1105-1106 to 1908-1909."""
    state = playing("s2", independencia=("1410", 6), covadonga=("2004", 3))
    out = play(state, "peru", "Independencia move F F F", [3])
    assert "= 5" in out
    assert unit(state, "independencia").grounded and hits(state, "independencia") == 2


def test_scenario_2_is_won_by_the_covadongas_escape_or_a_capture_or_sinking() -> None:
    """15.3.4: "The Chilean player wins the game if the Covadonga exits the south edge of the map at
    hex 2813 or 2912 and is not Crippled, or if the Independencia is captured or sunk. The Peruvian
    player wins the game if the Covadonga is captured or sunk. Any other result is a draw." """
    state = playing("s2", "KS", independencia=("2010", 1), covadonga=("2813", 3))
    play(state, "chile", "Covadonga move F")
    assert over(state)[0] == "chile"
    state = playing("s2", "KS", independencia=("2010", 1), covadonga=("2213", 3))
    play(state, "chile", "Covadonga move F")
    assert over(state)[0] is None
    state = playing("s2", independencia=("1810", 6), covadonga=("1808", 5))
    unit(state, "covadonga").hits = 2
    play(state, "peru", "Independencia fire Covadonga", [1])
    assert over(state)[0] == "peru"


# --- 15.4 Scenario 3 ---------------------------------------------------------------------------


def test_scenario_3_batteries_mines_and_ships() -> None:
    """15.4.1: "The Chilean player rolls 1d6-1 for the number of land batteries available (from zero
    to 5). Place batteries on any land hex, maximum one battery per hex, either in an Antofagasta
    town hex or within four hexes of an Antofagasta town hex." and "The Chilean player rolls 1d6+2
    and randomly draws that many mine counters" and "The Chilean player places the Central Battery
    Ironclad Blanco Encalada and the Steam Screw Corvette Loa three hexes from the north edge of the
    map, with bows pointing south (direction 6)." """
    state = game("s3")
    assert "**2** → 2 land batteries" in play(state, "chile", "roll batteries", [3]).replace("= ", "")
    assert "= **3**" in play(state, "chile", "roll mines", [1])
    assert fails(state, "chile", "battery 1509")  # water, not land
    assert fails(state, "chile", "battery 1113")  # land, but more than four hexes from the town
    play(state, "chile", "battery 1306")
    assert fails(state, "chile", "battery 1306")  # one battery per hex
    assert fails(state, "chile", "Blanco Encalada at 1911 3")
    assert "sets up" in play(state, "chile", "Blanco Encalada at 1911 6")


def test_scenario_3_cable_is_cut_in_the_end_phase_after_a_whole_turn() -> None:
    """15.4.2: "If the ship spends the entire turn (not activation) atop the cable marker and without
    firing, ramming, or boarding, it may attempt to cut the cable in the End Phase. Roll 1d10: on a 5
    or more, the crew cuts the cable." and "The ship does not drift." Over a few games, the End Phase
    roll cuts the cable exactly when it is 5 or more (both happen in these games)."""
    outcomes = set()
    for seed in range(1, 9):
        state = game("s3")
        play(state, "chile", "roll batteries", [1])
        play(state, "chile", "roll mines", [1])
        for label in ("1705", "1706", "1707"):
            play(state, "chile", f"mine {label}")
        play(state, "chile", "Blanco Encalada at 1911 6")
        play(state, "chile", "Loa at 2211 6")
        play(state, "chile", "done")
        play(state, "peru", "Huascar at 2004 3")
        play(state, "peru", "Union at 2204 3")
        play(state, "peru", "cable Huascar")
        play_freely(state, "peru", "done")
        in_play(state, "chile", "KS")
        out = end_turn(state, seed)
        roll = int(out.split("Huáscar works on the cable (turn 1 atop the buoy): d10 **")[1].split("**")[0])
        cut = "Cable: cut" in "\n".join(RS.summary(state))
        assert cut is (roll >= 5)
        assert line(state, "Huáscar").startswith("Huáscar (Peru): 2004")
        outcomes.add(cut)
    assert outcomes == {True, False}


@pytest.mark.parametrize(("roll", "start_hits"), [(3, 1), (8, 2)])
def test_scenario_3_independencia_survives_with_one_or_two_hits(roll: int, start_hits: int) -> None:
    """15.4.3: "Assume the Independencia was not sunk at Iquique at the very start of hostilities
    (scenario 2), but only damaged. Roll 1d10: On an odd roll, the Independencia enters with 1 hit.
    On an even roll, the Independencia enters with two hits." """
    state = game("s3", independencia="survives")
    play(state, "chile", "roll batteries", [1])
    play(state, "chile", "roll mines", [1])
    for label in ("1705", "1706", "1707"):
        play(state, "chile", f"mine {label}")
    play(state, "chile", "Blanco Encalada at 1911 6")
    play(state, "chile", "Loa at 2211 6")
    play(state, "chile", "done")
    out = play(state, "peru", "roll damage", [roll])
    assert f"starts with {start_hits} hit" in out
    assert hits(state, "independencia") == start_hits


def s3_last_turn() -> State:
    state = game("s3")
    for uid, hex_ in (("huascar", "2004"), ("union", "2204"), ("blanco_encalada", "2011"), ("loa", "1811")):
        place(state, uid, hex_, 3)
    return in_play(state, "peru", "KH", turn=10)


def test_scenario_3_lasts_ten_turns_and_the_most_ships_sunk_wins() -> None:
    """15.4.4: "The game lasts 10 turns. The player that sinks or captures the most ships is the
    winner. ... Any other result is a draw." """
    state = s3_last_turn()
    unit(state, "loa").status = "sunk"
    end_turn(state, seed=1)
    assert over(state)[0] == "peru"
    state = s3_last_turn()
    end_turn(state, seed=1)
    assert over(state)[0] is None


# --- 15.5 Scenario 4 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "batteries"), [(4, 2), (5, 3)])
def test_scenario_4_two_or_three_batteries(roll: int, batteries: int) -> None:
    """15.5.1: "The Chilean player rolls 1d6. On an even roll, 2 land batteries set up, one per hex,
    on any land hex. On an odd roll, 3 land batteries set up" """
    state = game("s4")
    assert f"{batteries} land batteries" in play(state, "chile", "roll batteries", [roll])


def test_scenario_4_ships_set_up_near_antofagasta() -> None:
    """15.5.1: "The Chilean player places the Abtao and Magallanes within two hexes of Antofagasta
    with the bows facing direction 3." """
    state = game("s4")
    assert fails(state, "chile", "Abtao at 2010 3")  # far from the town
    assert fails(state, "chile", "Abtao at 1505 6")  # wrong facing
    assert "sets up" in play(state, "chile", "Abtao at 1505 3")


def test_scenario_4_bombardment() -> None:
    """15.5.4: "The Peruvian player can bombard the town by moving the Huáscar within range of any
    Antofagasta hex and performing a Firing activation to inflict bombardment points upon the town.
    Roll 1d6 and add the following die modifiers: -1: Huáscar was fired upon by the Abtao. -1:
    Huáscar was fired upon by the Magallanes -1: Huáscar fires on town at range 3 or 4 The modified
    result is the number of bombardment hits inflicted on the town." """
    state = playing("s4", huascar=("1605", 1), abtao=("1509", 3), magallanes=("1504", 3))
    out = play(state, "peru", "Huascar fire town", [5])
    assert "d6 **5** −1 range 3 = 4 bombardment hits" in out
    assert "Bombardment hits on Antofagasta: 4 of 12." in RS.summary(state)


def test_scenario_4_a_chilean_ship_leaving_the_map_gives_peru_the_game() -> None:
    """15.5.5: "If any Chilean ship exits the map, the Peruvian player wins immediately." """
    state = playing("s4", "KS", huascar=("2605", 1), abtao=("1509", 3), magallanes=("1513", 3))
    play(state, "chile", "Magallanes move F")
    assert over(state)[0] == "peru"


def test_scenario_4_chile_wins_by_sinking_the_huascar() -> None:
    """15.5.5: "The Chilean player wins by sinking or capturing the Huáscar" """
    state = playing("s4", "KS", huascar=("1605", 1), abtao=("1509", 3), magallanes=("1604", 4))
    unit(state, "huascar").hits = 7
    play(state, "chile", "Magallanes fire Huascar", [9])
    assert over(state)[0] == "chile"


# --- 15.6 Scenario 5 ---------------------------------------------------------------------------


def test_scenario_5_set_up_zones_and_facings() -> None:
    """15.6.1: "The Chilean player sets up Almirante Cochrane, Loa, and O'Higgins within 3 hexes of
    hexes 1712, 1813, 1912, 2013, or 2112, facing direction 2 or 3." and "The Peruvian player sets
    up the Huáscar and Unión within 3 hexes of any hex 2901 to 2912 with the bows facing direction
    1." """
    state = game("s5")
    play(state, "chile", "roll inshore", [2])
    assert fails(state, "chile", "Almirante Cochrane at 1609 1")  # facing
    assert fails(state, "chile", "Almirante Cochrane at 1204 3")  # too far
    assert "sets up" in play(state, "chile", "Almirante Cochrane at 1911 3")


def test_peruvian_ships_may_escape_by_the_north_edge() -> None:
    """15.6.3: "The Peruvian player may exit his ships off the north map edge at 1101 or 1201. Any
    that do are considered to have escaped." and 15.6.5: "The Peruvian player wins if the Huáscar
    sinks two Chilean ships, exits via hexes 1101 or 1201, and is not crippled." """
    state = playing("s5", huascar=("1201", 6), almirante_cochrane=("2010", 3), union=("2510", 1))
    for uid in ("loa", "ohiggins"):
        unit(state, uid).status, unit(state, uid).sunk_by = "sunk", "huascar"
    play(state, "peru", "Huascar move F")
    winner, reason = over(state)
    assert winner == "peru" and "escaped" in reason


def test_chile_wins_scenario_5_by_sinking_the_huascar() -> None:
    """15.6.5: "The Chilean player wins if the Huáscar is sunk or captured." """
    state = playing("s5", "KS", huascar=("1610", 6), almirante_cochrane=("1609", 3), union=("2510", 1))
    unit(state, "huascar").hits = 7
    play(state, "chile", "Cochrane fire Huascar", [9])
    assert over(state)[0] == "chile"


def test_escaping_without_two_sinkings_is_not_a_peruvian_victory() -> None:
    """15.6.5: "The Peruvian player wins if the Huáscar sinks two Chilean ships, exits via hexes 1101
    or 1201, and is not crippled." Unión and Huáscar slip away on turn 1 having sunk nothing: Peru
    has not met its condition, and with the Huáscar off the map Chile cannot meet its own ("the
    Huáscar is sunk or captured"), so the game ends at once a draw (ruling; no victory points, the
    scenario has no last turn). The engine used to score it 0-0 on victory points, a Peruvian win."""
    state = playing("s5", huascar=("1201", 6), union=("1101", 6), almirante_cochrane=("2010", 3), loa=("2210", 3))
    play(state, "peru", "Union move F")
    assert RS.outcome(state) is None  # the Unión is not the Huáscar: nothing is decided yet
    play(state, "peru", "Huascar move F")
    winner, reason = over(state)
    assert winner is None
    assert "Peru can no longer meet its condition" in reason and "Chile cannot win either" in reason


def test_the_huascar_escaping_with_one_sinking_is_a_draw_not_victory_points() -> None:
    """15.6.5 and 12.0: victory points decide "by the end of the scenario's last turn"; scenario 5
    has none. The Huáscar leaves with one Chilean ship sunk (its 2 x PF would win Peru the victory
    points): a draw (ruling)."""
    state = playing("s5", huascar=("1201", 6), union=("2510", 1), almirante_cochrane=("2010", 3))
    unit(state, "loa").status, unit(state, "loa").sunk_by = "sunk", "huascar"
    play(state, "peru", "Huascar move F")
    assert over(state)[0] is None


def test_with_the_independencia_the_game_waits_for_both_and_ends_a_draw_when_she_is_lost() -> None:
    """15.6.5: "the Peruvian player wins if the Huáscar and Independencia sink three Chilean ships,
    both exit via hexes 1101 or 1201, and both are not crippled"; "the Chilean player wins if the
    Huáscar and Independencia are sunk or captured." The Huáscar leaves with three kills: the game
    goes on for the Independencia. She is then sunk: Peru's condition is gone and Chile's cannot be
    met with the Huáscar off the map, a draw (ruling)."""
    state = game("s5", independencia="survives")
    for uid, (hex_, facing) in {"huascar": ("1201", 6), "independencia": ("2510", 1), "union": ("2610", 1),
                                "almirante_cochrane": ("2409", 4)}.items():
        place(state, uid, hex_, facing)
    in_play(state, "peru", "KH")
    for uid in ("loa", "ohiggins", "covadonga"):
        unit(state, uid).status, unit(state, uid).sunk_by = "sunk", "huascar"
    play(state, "peru", "Huascar move F")
    assert RS.outcome(state) is None
    in_play(state, "chile", "KS")
    unit(state, "independencia").hits = unit(state, "independencia").pf  # one more hit sinks her
    play(state, "chile", "Cochrane fire Independencia", [9])
    assert unit(state, "independencia").status == "sunk"
    winner, reason = over(state)
    assert winner is None and "Chile cannot win either" in reason


def test_with_chile_left_without_ships_the_huascar_may_still_sail_off_to_win() -> None:
    """15.6.5 gives no turn limit and no ending for a side left with nothing afloat: the game goes on
    (ruling) until the scenario's own conditions decide it. Chile's last ship sinks; the Huáscar,
    with two kills, then leaves by 1201 and wins."""
    state = playing("s5", huascar=("1202", 6), union=("1402", 6), almirante_cochrane=("1303", 6))
    for uid in ("loa", "ohiggins"):
        unit(state, uid).status, unit(state, uid).sunk_by = "sunk", "huascar"
    for uid in ("blanco_encalada", "matias_cousino", "covadonga"):
        unit(state, uid).status = "sunk"
    unit(state, "almirante_cochrane").hits = unit(state, "almirante_cochrane").pf  # one more hit sinks her
    play(state, "peru", "Union fire Cochrane", [9])
    assert unit(state, "almirante_cochrane").status == "sunk"
    assert RS.outcome(state) is None
    assert RS.to_act(state) == ["peru"]
    play(state, "peru", "Huascar move F F")
    winner, reason = over(state)
    assert winner == "peru" and "escaped" in reason


def s4_chile_set_up() -> State:
    """Scenario 4 with Chile's set-up given through its orders: two batteries, three mines, the
    Abtao and Magallanes by the town; Peru to set up."""
    state = game("s4")
    play(state, "chile", "roll batteries", [4])
    play(state, "chile", "roll mines", [1])
    for order in ("battery 1303", "battery 1304", "mine 1705", "mine 1706", "mine 1707"):
        play(state, "chile", order)
    play(state, "chile", "Abtao at 1505 3")
    play(state, "chile", "Magallanes at 1507 3")
    play(state, "chile", "done")
    return state


def s4_set_up(arrival: int, cable: int) -> State:
    """Scenario 4 set up through its orders: Chile's as ``s4_chile_set_up``; Peru's secret rolls
    ``arrival`` (the Unión's turn) and ``cable`` (the d6 of 1d6+2), the buoy on 2507 and the
    Huáscar on 2704."""
    state = s4_chile_set_up()
    play(state, "peru", "roll arrival", [arrival])
    play(state, "peru", "roll cable", [cable])
    play(state, "peru", "cable 2507")
    play(state, "peru", "Huascar at 2704 4")
    play_freely(state, "peru", "done")
    return state


def test_scenario_4_the_huascar_sets_up_exactly_three_hexes_from_2801_or_2901() -> None:
    """15.5.1: "The Peruvian player places the Huáscar three hexes from hex 2801 or 2901 with its
    facing in any direction." Read as 15.2.1's "six hexes from the north edge" is (the sixth row):
    at that distance, not up to it (ruling; the book says "up to" or "within" where it means a
    range, as in 15.4.1's "up to five hexes from hex 2004")."""
    state = s4_chile_set_up()
    assert "not exactly 3 hexes from 2801 or 2901" in fails(state, "peru", "Huascar at 2802 4")  # one hex away
    assert "not exactly 3 hexes from 2801 or 2901" in fails(state, "peru", "Huascar at 2705 4")  # four away
    assert "sets up" in play(state, "peru", "Huascar at 2704 4")


def test_scenario_4_the_union_arrives_on_its_secret_turn() -> None:
    """15.5.2: "The Peruvian player secretly rolls 1d6 for the arrival turn of the Unión, which
    arrives on any hex 2901 to 2907 with its facing in any direction." Rolled 2: the Unión is not on
    the map in turn 1; rolled 1: turn 1 opens with Peru placing it on 2901-2907, any facing."""
    state = s4_set_up(arrival=2, cable=2)
    assert not any(x.startswith("Unión (") for x in RS.summary(state))
    state = s4_set_up(arrival=1, cable=2)
    assert "arrivals (Peru places)" in RS.summary(state)[0]
    assert fails(state, "peru", "Union at 2908 1")
    assert "Unión" in play(state, "peru", "Union at 2905 5")


def test_scenario_4_cable_cut_after_its_secret_number_of_activations() -> None:
    """15.5.3: "If a Peruvian ship wishes to cut the cable, it must remain stationary atop the
    Underwater Cable Buoy marker for a number of consecutive activations (not turns) equal to 1d6+2.
    ... It automatically cuts the cable after spending the activations." Rolled 1: three
    activations of `cut` on the buoy cut it."""
    state = s4_set_up(arrival=6, cable=1)
    place(state, "huascar", "2507", 1)
    for _ in range(3):
        assert "Cable: intact." in RS.summary(state)
        in_play(state, "peru", "3H")
        play(state, "peru", "Huascar cut")
    assert "Cable: cut." in RS.summary(state)


@pytest.mark.parametrize(("roll", "turn"), [(4, 2), (3, 3)])
def test_scenario_5_inshore_squadron_turn(roll: int, turn: int) -> None:
    """15.6.2: "The Chilean player secretly rolls 1d6. If even, the Chilean Inshore Squadron enters
    the game on turn 2. If odd, the Chilean Inshore Squadron enters the game on turn 3." """
    state = game("s5")
    assert f"enters on turn {turn}" in play(state, "chile", "roll inshore", [roll])


@pytest.mark.parametrize(("roll", "start_hits"), [(4, 2), (5, 3)])
def test_scenario_5_independencia_variant(roll: int, start_hits: int) -> None:
    """15.6.4: "The Independencia sets up at the start of the game within three hexes of the Huáscar
    and Unión. Roll 1d6. If even, the Independencia has two hits of damage. If odd, the Independencia
    has three hits of damage." """
    state = game("s5", independencia="survives")
    play(state, "chile", "roll inshore", [2])
    for order in ("Almirante Cochrane at 1911 3", "Loa at 2011 3", "O'Higgins at 1811 3", "done"):
        play(state, "chile", order)
    out = play(state, "peru", "roll damage", [roll])
    assert f"{start_hits} hits" in out
    assert hits(state, "independencia") == start_hits
