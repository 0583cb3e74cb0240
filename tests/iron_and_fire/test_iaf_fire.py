"""Firing (6.1): range, line of sight, every modifier, results, ironclad and battery saves, criticals."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from games.core.ruleset import legal_texts
from tests.iron_and_fire.helpers import add_battery, in_play, new_game, order, place, ruleset, text, unit


def duel(h_hex: str = "1610", h_face: int = 6, e_hex: str = "1608", e_face: int = 3, side: str = "peru", options: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    st = new_game("s1", options or {"boilers": "fixed"})
    place(st, "huascar", h_hex, h_face)
    place(st, "esmeralda", e_hex, e_face)
    return in_play(st, side, "KH" if side == "peru" else "KS")


def test_hit_with_every_modifier_shown_and_raking_fire() -> None:
    st = duel()
    # d10 2 + CF 3 - 1 (range 2) + 1 (raking: Huascar is on Esmeralda's bow hexrow) = 5 >= PF 3
    ev = order(st, "peru", "Huascar fire Esmeralda", [2])
    log = text(ev)
    assert "d10 **2** +3 CF −1 range 2 +1 raking fire = 5 vs PF 3: 1 hit" in log
    assert unit(st, "esmeralda").hits == 1


def test_twice_pf_gives_two_hits_and_a_critical_check() -> None:
    st = duel()
    # d10 6 +3 -1 +1 = 9 >= 6: two hits; critical check d6 5 -> critical; table d6 2 -> bridge
    log = text(order(st, "peru", "Huascar fire Esmeralda", [6, 5, 2]))
    assert "2 hits and a critical-hit check" in log
    assert "Critical hit on Esmeralda: d6 **2**: Bridge" in log
    e = unit(st, "esmeralda")
    assert e.hits == 2 and e.criticals == ["bridge"]


def test_critical_check_fails_below_five() -> None:
    st = duel()
    order(st, "peru", "Huascar fire Esmeralda", [6, 4])
    assert unit(st, "esmeralda").criticals == []


def test_miss_below_pf() -> None:
    st = duel(e_hex="1606", e_face=5)  # range 4: -2, no raking
    log = text(order(st, "peru", "Huascar fire Esmeralda", [1]))
    assert "−2 range 4" in log and "no effect" in log
    assert unit(st, "esmeralda").hits == 0


def test_range_one_bonus() -> None:
    st = duel(e_hex="1609", e_face=5)
    assert "+1 range 1" in text(order(st, "peru", "Huascar fire Esmeralda", [1]))


def test_range_three_penalty() -> None:
    st = duel(e_hex="1607")
    assert "−2 range 3" in text(order(st, "peru", "Huascar fire Esmeralda", [1]))


def test_out_of_range_is_refused_and_nothing_changes() -> None:
    st = duel(e_hex="1605")
    with pytest.raises(IllegalOrder, match="5 hexes away"):
        order(st, "peru", "Huascar fire Esmeralda")
    assert st.acts_left == 3 and st.used == []


def test_line_of_sight_blocked_by_any_unit_even_along_a_hexside() -> None:
    st = new_game("s5")
    place(st, "huascar", "1610", 6)
    place(st, "union", "1609", 6)
    place(st, "loa", "1607", 3)
    in_play(st, "peru")
    with pytest.raises(IllegalOrder, match="blocked by Unión"):
        order(st, "peru", "Huascar fire Loa")
    # a line along the hexside between 1609 and 1710 (1610 -> 1809 passes between them)
    st2 = new_game("s5")
    place(st2, "huascar", "1610", 6)
    place(st2, "union", "1710", 6)
    place(st2, "loa", "1809", 3)
    in_play(st2, "peru")
    with pytest.raises(IllegalOrder, match="line of sight"):
        order(st2, "peru", "Huascar fire Loa")


def test_line_of_sight_blocked_by_land() -> None:
    st = new_game("s4")
    place(st, "huascar", "1407", 1)
    add_battery(st, "1305")  # range 3; the line runs through the town hex 1306
    in_play(st, "peru")
    with pytest.raises(IllegalOrder, match="blocked by land in 1306"):
        order(st, "peru", "Huascar fire Battery 1")
    assert not any("fire Battery" in o for o in legal_texts(ruleset(), st, "peru"))


def test_ironclad_ignores_hits_on_an_even_raw_die() -> None:
    st = duel(side="chile")
    # Esmeralda: d10 10 + CF 1 -1 range 2 -1 broadside out of the bow = 9 >= 7, raw 10 even: saved
    log = text(order(st, "chile", "Esmeralda fire Huascar", [10]))
    assert "−1 broadside ship firing out of bow/stern" in log and "ignores all hits" in log
    assert unit(st, "huascar").hits == 0


def test_ironclad_hit_on_an_odd_raw_die() -> None:
    st = duel(side="chile")
    order(st, "chile", "Esmeralda fire Huascar", [9])
    assert unit(st, "huascar").hits == 1


def test_ironclad_save_can_be_switched_off() -> None:
    st = duel(side="chile", options={"boilers": "fixed", "ironclad_save": "off"})
    order(st, "chile", "Esmeralda fire Huascar", [10])
    assert unit(st, "huascar").hits == 1


def test_turret_ship_has_no_bow_penalty() -> None:
    st = duel()
    assert "broadside" not in text(order(st, "peru", "Huascar fire Esmeralda", [1]))


def test_target_grounded_and_target_mf_zero() -> None:
    st = duel(e_hex="1609", e_face=5)
    e = unit(st, "esmeralda")
    e.grounded = True
    # 1 + 3 + 1 + 2 = 7 >= 6: two hits; critical check d6 1: none
    assert "+2 target grounded" in text(order(st, "peru", "Huascar fire Esmeralda", [1, 1]))
    st = duel(e_hex="1609", e_face=5)
    unit(st, "esmeralda").hits = 3  # hits == PF: MP 0
    log = text(order(st, "peru", "Huascar fire Esmeralda", [1]))  # 1+3+1+1 = 6: 2 hits, sunk
    assert "+1 target MF 0" in log and "target grounded" not in log
    assert unit(st, "esmeralda").status == "sunk"


def test_damaged_firer_loses_cf() -> None:
    st = duel(e_hex="1609", e_face=5)
    unit(st, "huascar").hits = 4  # CF 3 - 2 - 1 = 0
    assert "+0 CF" in text(order(st, "peru", "Huascar fire Esmeralda", [1]))


def test_battery_saves_at_long_range_on_even_die_only() -> None:
    st = new_game("s4")
    place(st, "huascar", "1604", 1)
    b = add_battery(st, "1305")  # town hex, range 3
    in_play(st, "peru")
    # range 3: d10 10 + 3 - 2 = 11 >= 10: 2 hits, but raw even: ignored
    assert "the battery ignores all hits" in text(order(st, "peru", "Huascar fire Battery", [10]))
    assert b.hits == 0


def test_battery_takes_hits_at_close_range_and_surrenders_at_three() -> None:
    st = new_game("s4")
    place(st, "huascar", "1405", 1)
    b = add_battery(st, "1305")
    b.hits = 1
    in_play(st, "peru")
    log = text(order(st, "peru", "Huascar fire Battery", [10]))  # range 1: 10+3+1 = 14 >= 10
    assert "surrenders" in log and b.status == "surrendered"


def test_battery_fires_but_never_moves() -> None:
    st = new_game("s4")
    place(st, "huascar", "1405", 1)
    add_battery(st, "1305")
    in_play(st, "chile", "KS")
    with pytest.raises(IllegalOrder, match="never moves"):
        order(st, "chile", "Battery 1 move F")
    assert "Battery 1 fires at Huáscar" in text(order(st, "chile", "Battery 1 fire Huascar", [1]))


def test_collier_cannot_fire() -> None:
    st = new_game("s5")
    place(st, "huascar", "1610", 6)
    place(st, "matias_cousino", "1609", 3)
    in_play(st, "chile", "KS")
    with pytest.raises(IllegalOrder, match="no guns"):
        order(st, "chile", "Matias fire Huascar")


def test_fire_at_own_side_refused() -> None:
    st = new_game("s5")
    place(st, "huascar", "1610", 6)
    place(st, "union", "1609", 6)
    in_play(st, "peru")
    with pytest.raises(IllegalOrder, match="your side"):
        order(st, "peru", "Huascar fire Union")


def test_lucky_shot_is_used_once() -> None:
    st = duel(e_hex="1608", e_face=5)
    st.lucky_shot = ["peru"]
    assert "+1 Lucky Shot" in text(order(st, "peru", "Huascar fire Esmeralda", [1]))
    assert st.lucky_shot == []


def test_raking_through_the_stern_and_broadside_firing_out_of_the_stern() -> None:
    # Esmeralda faces 6 (away): Huascar at 1610 lies on her stern hexrow
    st = duel(e_hex="1608", e_face=6)
    assert "+1 raking fire" in text(order(st, "peru", "Huascar fire Esmeralda", [1]))
    st = duel(e_hex="1608", e_face=6, side="chile")
    assert "−1 broadside ship firing out of bow/stern" in text(order(st, "chile", "Esmeralda fire Huascar", [1]))
    # abeam: no penalty, no raking
    st = duel(e_hex="1609", e_face=5, side="chile")
    log = text(order(st, "chile", "Esmeralda fire Huascar", [1]))
    assert "broadside" not in log and "raking" not in log


def test_a_shot_that_cannot_hit_is_refused_until_a_bonus_makes_it_possible() -> None:
    """6.1 / 7.1: a unit with CF 0 or less "can still fire as long as a possibility exists to
    roll, add modifiers, and cause a hit". Esmeralda with 2 hits (CF -1) at range 4 (-2) and
    out of her bow (-1): 10 - 4 = 6 < PF 7, no hit possible; the Fortunes of War (+2) makes one."""
    st = duel(e_hex="1606", e_face=3, side="chile", options={"boilers": "fixed", "fow": "on"})
    unit(st, "esmeralda").hits = 2
    st.fow_holder = "chile"
    with pytest.raises(IllegalOrder, match=r"no hit is possible \(the best total, a d10 of 10 with every modifier, is 6; PF 7\)"):
        order(st, "chile", "Esmeralda fire Huascar")
    assert "Esmeralda fire Huáscar" not in legal_texts(ruleset(), st, "chile")
    log = text(order(st, "chile", "Esmeralda fire Huascar fow", [10]))
    assert "= 8 vs PF 7" in log
