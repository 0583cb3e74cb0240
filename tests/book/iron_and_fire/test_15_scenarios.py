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
