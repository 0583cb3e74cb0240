"""Movement (5.0-5.5), grounding with every modifier, the Scenario 2 shoals table, mines (9.0),
leaving the map, bridge and steering criticals, ramming (6.2) and its prohibitions."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder, NotYourTurn
from games.iron_and_fire import scene
from games.iron_and_fire.state import Mine
from tests.iron_and_fire.helpers import hexof, in_play, new_game, order, place, ruleset, text, unit


def s1(side: str = "peru", **placements: tuple[str, int]):  # type: ignore[no-untyped-def]
    st = new_game("s1", {"boilers": "fixed"})
    spots = {"huascar": ("1610", 6), "esmeralda": ("1606", 3)} | placements
    for uid, (lab, face) in spots.items():
        place(st, uid, lab, face)
    return in_play(st, side, "KH" if side == "peru" else "KS")


def where(st, uid: str) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    u = unit(st, uid)
    return scene.label(st, scene.pos(u)), scene.printed(st, u.facing)


def test_forward_port_starboard_cost_one_mp_each() -> None:
    st = s1()
    log = text(order(st, "peru", "Huascar move F P F"))
    assert where(st, "huascar") == ("1509", "1")
    assert "now in 1509 facing 1" in log
    st = s1()
    order(st, "peru", "Huascar move S S S")
    assert where(st, "huascar") == ("1610", "3")


def test_compact_steps_and_aliases_parse() -> None:
    st = s1()
    o = ruleset().parse_order(st, "peru", "huáscar MOVE fpf")
    assert o.text == "Huáscar move F P F"
    assert ruleset().parse_order(st, "peru", o.text) == o


def test_more_mp_than_allowed_is_refused() -> None:
    st = s1()
    with pytest.raises(IllegalOrder, match="has 3 MP this activation; that order needs 4"):
        order(st, "peru", "Huascar move F F F F")
    assert where(st, "huascar") == ("1610", "6") and st.used == []


def test_no_stacking() -> None:
    st = s1(esmeralda=("1609", 3))
    with pytest.raises(IllegalOrder, match="Esmeralda is there"):
        order(st, "peru", "Huascar move F")


def test_never_onto_land() -> None:
    st = new_game("s4")
    place(st, "huascar", "1504", 6)
    in_play(st, "peru")
    # 1504 facing 1 (upper-left) -> 1403 shallow; facing 2 from 1403 -> 1304 land
    place(st, "huascar", "1403", 2)
    assert scene.terrain(st, scene.layout(st).neighbour(hexof(st, "1403"), scene.dir_of(st, 2))) == "land"
    with pytest.raises(IllegalOrder, match="it is land"):
        order(st, "peru", "Huascar move F")


def test_wrong_side_and_twice_on_one_card() -> None:
    st = s1()
    with pytest.raises(NotYourTurn):
        order(st, "chile", "Esmeralda move F")
    with pytest.raises(NotYourTurn):
        order(st, "peru", "Esmeralda move F")
    st = new_game("s5")
    place(st, "huascar", "2905", 1)
    place(st, "union", "2907", 1)
    place(st, "loa", "1712", 2)
    in_play(st, "peru")
    order(st, "peru", "Huascar move F")
    assert st.used == ["huascar"] and st.acts_left == 2
    with pytest.raises(IllegalOrder, match="already activated on this card"):
        order(st, "peru", "Huascar move F")


def shallow_setup(hits: int = 0, crits: list[str] | None = None, turn: int = 1, visibility: str = "off", start: str = "1610"):  # type: ignore[no-untyped-def]
    st = new_game("s4", {"visibility": visibility})
    u = place(st, "huascar", start, 1)  # upper-left: 1610 -> 1510 deep -> 1409 shallow
    u.hits = hits
    u.criticals = list(crits or [])
    return in_play(st, "peru", turn=turn)


def test_grounding_check_clear_below_pf() -> None:
    st = shallow_setup()
    log = text(order(st, "peru", "Huascar move F F", [5]))
    assert "d10 **5** +1 2nd MP = 6 vs PF 7: clear" in log
    assert where(st, "huascar")[0] == "1409" and not unit(st, "huascar").grounded


def test_grounding_stops_movement() -> None:
    st = shallow_setup()
    log = text(order(st, "peru", "Huascar move F F S", [6]))
    assert "**grounded**" in log
    u = unit(st, "huascar")
    assert u.grounded and where(st, "huascar") == ("1409", "1")
    assert "stopped: grounded" in log


def test_grounding_modifiers_hits_criticals_visibility() -> None:
    st = shallow_setup(hits=4, crits=["steering", "fire"], turn=7, visibility="on", start="1510")
    log = text(order(st, "peru", "Huascar move F", [2]))
    assert "d10 **2** +2 4 hits +2 criticals +1 low visibility = 7 vs PF 7: **grounded**" in log


def test_one_hit_gives_no_grounding_modifier() -> None:
    st = shallow_setup(hits=1)
    assert "hits" not in text(order(st, "peru", "Huascar move F F", [1])).split("Grounding check")[1].split("\n")[0]


def test_grounding_at_twice_pf_adds_a_hit() -> None:
    st = shallow_setup(crits=["fire", "fire", "propulsion"])
    log = text(order(st, "peru", "Huascar move F F", [10]))  # 10 + 1 + 3 = 14
    assert "twice PF 14" in log and unit(st, "huascar").hits == 1


def test_grounded_ship_cannot_move_but_can_try_to_unground() -> None:
    st = shallow_setup()
    unit(st, "huascar").grounded = True
    with pytest.raises(IllegalOrder, match="grounded"):
        order(st, "peru", "Huascar move F")
    log = text(order(st, "peru", "Huascar unground", [6]))
    assert "d10 **6** = 6 vs PF 7: **afloat** again" in log


def test_unground_modifiers_and_failure() -> None:
    st = new_game("s1", {"boilers": "fixed"})
    place(st, "huascar", "1610", 6)
    e = place(st, "esmeralda", "1606", 3)
    e.grounded, e.hits, e.criticals = True, 3, ["bridge"]  # crippled: MP 0 and CF -1
    in_play(st, "chile", "KS")
    log = text(order(st, "chile", "Esmeralda unground", [1]))
    assert "d10 **1** +1 3 hits +1 criticals +1 crippled = 4 vs PF 3" in log and "stays grounded" in log


def test_unground_at_twice_pf_takes_a_hit() -> None:
    st = new_game("s1", {"boilers": "fixed"})
    place(st, "huascar", "1610", 6)
    e = place(st, "esmeralda", "1606", 3)
    e.grounded = True
    in_play(st, "chile", "KS")
    order(st, "chile", "Esmeralda unground", [6])
    assert e.grounded and e.hits == 1


def test_scenario2_shoals_table() -> None:
    st = new_game("s2")
    place(st, "independencia", "1308", 6)
    place(st, "covadonga", "2010", 3)
    in_play(st, "peru")
    # 1307 deep, then 1306 shoal on the second MP: d6 3 +1 Independencia +1 two hexes = 5: aground, 2 hits
    log = text(order(st, "peru", "Independencia move F F", [3]))
    assert "d6 **3** +1 Independencia +1 moving two or more hexes = 5 vs 5: **aground**, 2 hits" in log
    u = unit(st, "independencia")
    assert u.grounded and u.hits == 2


def test_scenario2_shoals_count_hexes_moved_not_mp() -> None:
    """15.3.3's modifier is "+1: Ship moving two or more hexes": a turn then one hex into the
    shoal is one hex moved, though it is the second MP (5.1's own modifier counts MP)."""
    st = new_game("s2")
    place(st, "independencia", "1307", 1)
    place(st, "covadonga", "2010", 3)
    in_play(st, "peru")
    log = text(order(st, "peru", "Independencia move S F", [3]))  # 1306 shoal: d6 3 +1 Independencia = 4
    assert "d6 **3** +1 Independencia = 4 vs 5: clear" in log
    assert not unit(st, "independencia").grounded


def test_scenario2_shoals_clear_and_critical_modifiers() -> None:
    st = new_game("s2")
    place(st, "independencia", "1307", 6)
    place(st, "covadonga", "2010", 3)
    unit(st, "independencia").criticals = ["bridge", "steering"]
    in_play(st, "peru")
    log = text(order(st, "peru", "Independencia move F", [2, 1]))  # bridge roll 2 (cleared), shoal d6 1
    assert "+1 Independencia +0" not in log
    assert "d6 **1** +1 Independencia +1 Rudder critical = 3 vs 5: clear" in log


def mine_game(value: str, ship: str = "huascar"):  # type: ignore[no-untyped-def]
    st = s1() if ship == "huascar" else new_game("s5", {"independencia": "survives"})
    if ship != "huascar":
        place(st, ship, "1610", 6)
        place(st, "loa", "1606", 3)
        in_play(st, "peru")
    h = hexof(st, "1609")
    st.mines = [Mine(h.q, h.r)]
    st.mine_bag = [value]
    return st


def test_mine_none_is_removed_and_movement_continues() -> None:
    st = mine_game("None")
    log = text(order(st, "peru", "Huascar move F F"))
    assert "**None**" in log and st.mines == [] and where(st, "huascar")[0] == "1608"


def test_mine_equal_to_pf_odd_gives_three_hits_and_movement_continues() -> None:
    st = mine_game("1")
    log = text(order(st, "peru", "Huascar move F F", [3, 3]))  # 6 + 1 = 7 = PF, odd
    assert "2d6 [3, 3] = 6 +1 mine counter = 7 vs PF 7: equal to PF (odd), 3 hits" in log
    assert unit(st, "huascar").hits == 3 and st.mines == [] and where(st, "huascar")[0] == "1608"


def test_mine_equal_to_pf_even_gives_two_hits() -> None:
    st = mine_game("2", "independencia")
    order(st, "peru", "Independencia move F", [2, 2])  # 4 + 2 = 6 = PF 6, even
    assert unit(st, "independencia").hits == 2


def test_mine_below_pf_no_effect_counter_stays_revealed() -> None:
    st = mine_game("0")
    order(st, "peru", "Huascar move F", [1, 2])
    assert unit(st, "huascar").hits == 0 and st.mines[0].value == "0"
    view = ruleset().view(st, None)
    mine = next(c for c in view.counters if c.kind == "mine")
    assert not mine.face_down and mine.label == "Mine 0"


def test_mine_above_pf_sinks() -> None:
    st = mine_game("2")
    log = text(order(st, "peru", "Huascar move F F", [6, 6]))
    assert "the ship **sinks**" in log and unit(st, "huascar").status == "sunk"
    assert st.phase == "over" and st.result_winner == "chile"


def test_mines_face_down_for_everyone_until_entered() -> None:
    st = mine_game("2")
    for seat in (None, "peru", "chile", "umpire"):
        view = ruleset().view(st, seat)
        mine = next(c for c in view.counters if c.kind == "mine")
        assert mine.face_down and mine.label == ""


def test_leaving_the_map() -> None:
    st = s1("chile", esmeralda=("1613", 3))
    log = text(order(st, "chile", "Esmeralda move F"))
    assert "leaves the map by the south edge" in log
    assert st.phase == "over" and st.result_winner == "chile"
    st = s1("chile", esmeralda=("1601", 6))
    order(st, "chile", "Esmeralda move F")
    assert st.result_winner == "peru"


def test_nothing_may_follow_leaving_the_map() -> None:
    st = s1("chile", esmeralda=("1613", 3))
    with pytest.raises(IllegalOrder, match="leaves the map"):
        order(st, "chile", "Esmeralda move F P")


def test_steering_critical_failure_wastes_the_activation() -> None:
    st = s1()
    unit(st, "huascar").criticals = ["steering"]
    log = text(order(st, "peru", "Huascar move P F", [1]))
    assert "the turn fails and the activation is spent" in log and where(st, "huascar") == ("1610", "6")
    st = s1()
    unit(st, "huascar").criticals = ["steering"]
    order(st, "peru", "Huascar move P F", [2])
    assert where(st, "huascar") == ("1510", "1")


def test_bridge_critical_roll_on_movement() -> None:
    st = s1()
    unit(st, "huascar").criticals = ["bridge"]
    assert "cannot move" in text(order(st, "peru", "Huascar move F", [3]))
    assert where(st, "huascar")[0] == "1610" and unit(st, "huascar").criticals == ["bridge"]
    st = s1()
    unit(st, "huascar").criticals = ["bridge"]
    order(st, "peru", "Huascar move F", [4])
    assert where(st, "huascar")[0] == "1609" and unit(st, "huascar").criticals == []


def test_bad_boilers_cost_one_mp_and_fixed_boilers_do_not() -> None:
    st = new_game("s1")
    place(st, "huascar", "1610", 6)
    place(st, "esmeralda", "1606", 3)
    in_play(st, "chile", "KS")
    with pytest.raises(IllegalOrder, match="has 1 MP"):
        order(st, "chile", "Esmeralda move F F")
    st = s1("chile")
    order(st, "chile", "Esmeralda move F F")


# --- ramming -------------------------------------------------------------------------------
def test_ram_bow_to_bow_two_hits_and_critical() -> None:
    st = s1(esmeralda=("1609", 3))
    # d10 8 +1 black bow -2 through the bow = 7 >= 6: two hits and a critical (d6 1: false alarm)
    log = text(order(st, "peru", "Huascar ram", [8, 1]))
    assert "d10 **8** +1 black bow −2 through the bow = 7 vs PF 3 (twice PF 6): 2 hits and a critical hit" in log
    assert unit(st, "esmeralda").hits == 2 and unit(st, "huascar").hits == 0
    assert "moves nothing" not in log  # a ram from where it lies is not reported as a move


def test_failed_ram_damages_the_rammer_twice() -> None:
    st = s1(esmeralda=("1609", 3))
    log = text(order(st, "peru", "Huascar ram", [1]))
    assert "the ram fails; the rammer takes 1 hit" in log and "below the rammer's PF 7" in log
    assert unit(st, "huascar").hits == 2


def test_ram_through_the_stern_and_target_mf_zero() -> None:
    st = s1(esmeralda=("1609", 6))
    unit(st, "esmeralda").hits = 3
    log = text(order(st, "peru", "Huascar ram", [1]))
    assert "+2 target MF 0 −1 through the stern" in log


def test_brown_bow_has_no_bonus() -> None:
    st = s1("chile", esmeralda=("1609", 3))
    log = text(order(st, "chile", "Esmeralda ram", [5]))
    assert "d10 **5** −2 through the bow = 3 vs PF 7" in log


def test_move_then_ram_costs_one_more_mp() -> None:
    st = s1(huascar=("1611", 6), esmeralda=("1609", 5))
    log = text(order(st, "peru", "Huascar move F ram", [5, 1]))
    assert "Huáscar rams Esmeralda" in log
    with pytest.raises(IllegalOrder, match="needs 4"):
        s = s1(huascar=("1613", 6), esmeralda=("1609", 5))
        order(s, "peru", "Huascar move F F F ram")


def test_ram_needs_the_bow_on_an_adjacent_enemy() -> None:
    st = s1(esmeralda=("1608", 3))
    with pytest.raises(IllegalOrder, match="bow"):
        order(st, "peru", "Huascar ram")
    st = s1(esmeralda=("1710", 3))
    with pytest.raises(IllegalOrder, match="bow"):
        order(st, "peru", "Huascar ram Esmeralda")


def test_ram_into_shallow_water_checks_grounding_first() -> None:
    st = new_game("s4")
    place(st, "huascar", "1510", 2)  # lower-left is 1410, shallow
    place(st, "abtao", "1410", 3)
    in_play(st, "peru")
    log = text(order(st, "peru", "Huascar ram", [6, 5]))
    assert log.index("Grounding check") < log.index("rams Abtao")
    st = new_game("s4")
    place(st, "huascar", "1510", 2)
    place(st, "abtao", "1410", 3)
    in_play(st, "peru")
    log = text(order(st, "peru", "Huascar ram", [9]))
    assert "no ram attack" in log and unit(st, "abtao").hits == 0


def test_a_ship_that_grounds_in_a_mined_shallow_hex_still_meets_the_mine() -> None:
    """9.0: entering a hex with a Mine counter turns it over. Grounding (5.2) stops the ship in
    that hex, but it has entered it: the mine attack is still resolved (Designer's Note: many
    mines lie in shallow water)."""
    st = new_game("s4")
    shallow = scene.layout(st).parse("1505")
    assert scene.terrain(st, shallow) == "shallow"
    place(st, "huascar", "1605", 1)
    h = unit(st, "huascar")
    h.facing = next(d for d in range(6) if scene.layout(st).neighbour(scene.pos(h), d) == shallow)
    place(st, "abtao", "1509", 3)
    place(st, "magallanes", "1511", 3)
    in_play(st, "peru")
    st.mines = [Mine(shallow.q, shallow.r)]
    st.mine_bag = ["1"]
    # grounding d10 9 vs PF 7: grounded (below twice PF); mine 2d6 [3, 3] +1 = 7 = PF, odd: 3 hits
    log = text(order(st, "peru", "Huascar move F", [9, 3, 3]))
    assert "**grounded**" in log and "mine counter **1**" in log
    assert h.grounded and h.hits == 3 and st.mines == []


def test_map_edges_are_named_by_the_scenarios_north() -> None:
    """15.4.1 / 15.5.1: on the Antofagasta map north is direction 3, the bottom edge, so the
    top edge is south (and east/west swap); the open-sea scenarios keep north at the top."""
    st = new_game("s4")
    place(st, "huascar", "2805", 1)
    place(st, "abtao", "1509", 3)
    m = place(st, "magallanes", "1701", 6)  # printed 6 = the top of the map
    in_play(st, "chile", "KS")
    log = text(order(st, "chile", "Magallanes move F"))
    assert m.exit_edge == "south" and "by the south edge" in log
    assert scene.edge_of(st, scene.layout(st).neighbour(scene.layout(st).parse("1713"), scene.dir_of(st, 3))) == "north"
    st = s1()
    top = scene.layout(st).neighbour(scene.layout(st).parse("1701"), scene.dir_of(st, 6))
    assert scene.edge_of(st, top) == "north"
