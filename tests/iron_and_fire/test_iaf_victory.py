"""Victory (12.0 and each scenario's conditions), checked when they can happen, with the
victory-point fallback (ties to Peru)."""

from __future__ import annotations

from games.core.ruleset import Event
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.rules import scenarios_15, sequence_3, victory_12
from games.iron_and_fire.state import State
from tests.iron_and_fire.helpers import add_battery, in_play, new_game, place, ruleset, unit
from tests.scripted import ScriptedDice


def check(st: State, *, end_phase: bool = False) -> bool:
    return victory_12.check_victory(st, [], end_phase=end_phase)  # takes no dice: cannot roll


def final(st: State) -> None:
    victory_12.final_result(st, [], "the last turn is over")


def s1() -> State:
    st = new_game("s1")
    place(st, "huascar", "1610", 6)
    place(st, "esmeralda", "1606", 3)
    return in_play(st)


def test_s1_sinking_or_surrender_wins() -> None:
    st = s1()
    unit(st, "esmeralda").status = "sunk"
    assert check(st) and st.result_winner == "peru"
    st = s1()
    unit(st, "huascar").controller = "chile"
    assert check(st) and st.result_winner == "chile"


def test_s1_exit_edges() -> None:
    st = s1()
    e = unit(st, "esmeralda")
    e.status, e.exit_edge = "exited", "south"
    assert check(st) and st.result_winner == "chile"
    st = s1()
    e = unit(st, "esmeralda")
    e.status, e.exit_edge = "exited", "east"
    assert check(st) and st.result_winner == "peru"


def test_s1_victory_points_with_ties_to_peru() -> None:
    st = s1()
    final(st)
    assert st.result_winner == "peru" and "a tie goes to Peru" in st.result_reason
    st = s1()
    h = unit(st, "huascar")
    h.grounded = True  # 3 x PF 7 = 21 for Chile
    unit(st, "esmeralda").hits = 3  # crippled: PF 3 for Peru
    final(st)
    assert st.result_winner == "chile" and "Peru 3, Chile 21" in st.result_reason


def test_vp_battery_surrender_counts_for_peru_only() -> None:
    st = new_game("s4")
    place(st, "huascar", "2805", 1)
    place(st, "abtao", "1504", 3)
    b = add_battery(st, "1305")
    b.status = "surrendered"
    in_play(st)
    assert victory_12.vp(st, "peru")[0] == 5 and victory_12.vp(st, "chile")[0] == 0


def s2(options: dict[str, str] | None = None) -> State:
    st = new_game("s2", options)
    place(st, "covadonga", "2010", 3)
    place(st, "independencia", "1312", 6)
    return in_play(st)


def test_s2_conditions() -> None:
    st = s2()
    c = unit(st, "covadonga")
    c.status, c.exit_hex, c.exit_edge = "exited", "2813", "south"
    assert check(st) and st.result_winner == "chile"
    st = s2()
    c = unit(st, "covadonga")
    c.status, c.exit_hex, c.exit_edge, c.hits = "exited", "2813", "south", 2  # crippled
    assert check(st) and st.result_winner == ""  # Chile has nothing left: a draw
    st = s2()
    unit(st, "covadonga").status = "sunk"
    assert check(st) and st.result_winner == "peru"
    st = s2()
    unit(st, "independencia").controller = "chile"
    assert check(st) and st.result_winner == "chile"
    st = s2({"s2_end": "draw"})  # 15.3.4 as printed: "any other result is a draw"
    final(st)
    assert st.phase == "over" and st.result_winner == "" and st.result_reason.startswith("Draw")


def test_s2_turn_limit_goes_to_victory_points_by_the_ruling() -> None:
    """House ruling: Scenarios 1 and 2 end after 12 (house) turns, "then victory points"."""
    st = s2()
    unit(st, "independencia").grounded = True  # 3 x PF 6 = 18 VP for Chile
    final(st)
    assert st.phase == "over" and st.result_winner == "chile" and "Peru 0, Chile 18" in st.result_reason
    st = s2()
    final(st)  # nothing scored: 0-0, a tie goes to Peru (12.0)
    assert st.result_winner == "peru" and "a tie goes to Peru" in st.result_reason


def test_s2_side_with_nothing_left_is_still_a_draw() -> None:
    st = s2()
    c = unit(st, "covadonga")
    c.status, c.exit_hex, c.exit_edge = "exited", "1101", "north"  # not an escape hex
    assert check(st) and st.result_winner == "" and st.result_reason.startswith("Draw")


def s3() -> State:
    st = new_game("s3")
    for uid, lab in (("huascar", "2004"), ("union", "2204"), ("blanco_encalada", "2011"), ("loa", "1811")):
        place(st, uid, lab, 3)
    return in_play(st)


def test_s3_more_ships_sunk_wins_else_cable_else_draw() -> None:
    st = s3()
    unit(st, "loa").status = "sunk"
    final(st)
    assert st.result_winner == "peru"
    st = s3()
    st.cable_cut = True
    final(st)
    assert st.result_winner == "peru" and "cable" in st.result_reason
    st = s3()
    st.cable_cut = True
    unit(st, "union").status = "sunk"
    unit(st, "loa").status = "sunk"
    final(st)
    assert st.result_winner == ""


def test_s3_cable_cut_after_a_whole_turn_atop_the_buoy() -> None:
    st = s3()
    h = unit(st, "huascar")
    st.cable, st.cable_ship, st.cable_clean, st.cable_progress = (h.q, h.r), "huascar", True, 1
    dice = Dice(ScriptedDice([4]))
    events: list[Event] = []  # second turn: d10 4 +1 = 5
    scenarios_15.cable_turn_check(st, dice, events)
    assert st.cable_cut
    st = s3()
    h = unit(st, "huascar")
    st.cable, st.cable_ship, st.cable_clean = (h.q, h.r), "huascar", False
    scenarios_15.cable_turn_check(st, Dice(ScriptedDice([])), [])
    assert not st.cable_cut and st.cable_progress == 0


def s4() -> State:
    st = new_game("s4")
    place(st, "huascar", "1605", 1)
    place(st, "abtao", "1509", 3)
    place(st, "magallanes", "1504", 3)
    return in_play(st)


def test_s4_conditions() -> None:
    st = s4()
    unit(st, "magallanes").status, unit(st, "magallanes").exit_edge = "exited", "north"
    assert check(st) and st.result_winner == "peru"
    st = s4()
    unit(st, "huascar").status = "sunk"
    assert check(st) and st.result_winner == "chile"
    st = s4()
    st.bombard_hits = 12
    unit(st, "abtao").status = "sunk"
    assert not check(st)  # checked in the End Phase
    assert check(st, end_phase=True) and st.result_winner == "peru"
    st = s4()
    unit(st, "union").status = "sunk"
    final(st)
    assert st.result_winner == "chile"


def test_s4_huascar_that_left_the_map_is_not_sunk() -> None:
    """15.5.5 asks only that "the Huáscar is not sunk": a Huáscar that raided and left the map
    still gives Peru the win in the End Phase."""
    st = s4()
    st.bombard_hits = 12
    unit(st, "abtao").status = "sunk"
    h = unit(st, "huascar")
    h.status, h.exit_edge, h.exit_hex = "exited", "south", "2913"
    assert check(st, end_phase=True) and st.result_winner == "peru"


def test_s4_bombardment() -> None:
    from tests.iron_and_fire.helpers import order

    st = s4()
    st.fired_on_huascar = ["abtao"]
    log = "\n".join(e.text for e in order(st, "peru", "Huascar fire town", [5]))
    assert "d6 **5** −1 fired upon by the Abtao −1 range 3 = 3 bombardment hits" in log
    assert st.bombard_hits == 3


def test_s4_cable_cut_by_activations_then_slow_first_move() -> None:
    from tests.iron_and_fire.helpers import order

    st = s4()
    h = place(st, "huascar", "1605", 4)
    st.cable = (h.q, h.r)
    from games.iron_and_fire.state import Secret

    st.secrets = [Secret("cable", "peru", "cable", 3, "1d6+2 = 3", "n", "d")]
    st.cable_progress = 2
    log = "\n".join(e.text for e in order(st, "peru", "Huascar cut"))
    assert st.cable_cut and "**The cable is cut.**" in log and st.secrets[0].revealed
    st.card, st.card_side, st.acts_left, st.used = "KH", "peru", 3, []
    import pytest

    from games.core.errors import IllegalOrder

    with pytest.raises(IllegalOrder, match="1 MP"):
        order(st, "peru", "Huascar move F F")
    order(st, "peru", "Huascar move F")
    st.card, st.card_side, st.acts_left, st.used = "KH", "peru", 3, []
    order(st, "peru", "Huascar move F F")


def s5(survives: bool = False) -> State:
    st = new_game("s5", {"independencia": "survives"} if survives else {})
    for uid, lab in (("huascar", "2905"), ("union", "2907"), ("almirante_cochrane", "1712"), ("loa", "1812"), ("ohiggins", "1811")):
        place(st, uid, lab, 1)
    if survives:
        place(st, "independencia", "2806", 1)
    for uid in ("blanco_encalada", "matias_cousino", "covadonga"):
        unit(st, uid).arrive_turn = 2
    return in_play(st)


def test_s5_chile_wins_by_sinking_huascar() -> None:
    st = s5()
    unit(st, "huascar").status = "sunk"
    assert check(st) and st.result_winner == "chile"
    st = s5(survives=True)
    unit(st, "huascar").status = "sunk"
    assert not check(st)
    unit(st, "independencia").controller = "chile"
    assert check(st) and st.result_winner == "chile"


def test_s5_peru_escapes_after_two_kills() -> None:
    st = s5()
    for uid in ("loa", "ohiggins"):
        unit(st, uid).status, unit(st, uid).sunk_by = "sunk", "huascar"
    h = unit(st, "huascar")
    h.status, h.exit_hex, h.exit_edge = "exited", "1201", "north"
    assert check(st) and st.result_winner == "peru"
    st = s5()
    unit(st, "loa").status, unit(st, "loa").sunk_by = "sunk", "union"
    unit(st, "ohiggins").status, unit(st, "ohiggins").sunk_by = "sunk", "huascar"
    h = unit(st, "huascar")
    h.status, h.exit_hex, h.exit_edge = "exited", "1201", "north"
    assert not (check(st) and st.result_winner == "peru")


def test_s5_all_ironclads_gone_is_a_draw() -> None:
    st = s5()
    for uid in ("huascar", "almirante_cochrane", "blanco_encalada"):
        unit(st, uid).status = "sunk"
    unit(st, "huascar").status = "afloat"
    unit(st, "huascar").controller = "chile"
    st.turn = 3
    assert check(st)


def test_s5_inshore_squadron_arrives() -> None:
    st = s5()
    for uid in ("blanco_encalada", "matias_cousino", "covadonga"):
        unit(st, uid).arrive_turn = 2
    st.turn = 2
    sequence_3.begin_arrivals(st, [])
    assert st.phase == "arrive" and st.setup_side == "chile"
    assert ruleset().to_act(st) == ["chile"]


def test_s5_all_ironclads_sunk_is_a_draw_even_with_the_huascar_among_them() -> None:
    """15.6.5: "If all ironclads are sunk or captured, the game ends in a draw." The Huáscar is
    an ironclad, so this can only happen with her gone too; the draw takes precedence over
    Chile's win or the clause could never apply."""
    st = s5()
    for uid in ("almirante_cochrane", "blanco_encalada"):
        unit(st, uid).status = "sunk"
    st.turn = 3
    assert not check(st)
    unit(st, "huascar").status = "sunk"
    assert check(st) and st.result_winner == "" and "all ironclads" in st.result_reason
    st = s5(survives=True)
    for uid in ("almirante_cochrane", "blanco_encalada", "huascar"):
        unit(st, uid).status = "sunk"
    st.turn = 3
    unit(st, "independencia").controller = "chile"  # captured: Chile's condition and the draw's
    assert check(st) and st.result_winner == ""


def test_s5_huascar_sunk_while_a_chilean_ironclad_floats_is_chiles() -> None:
    st = s5()
    unit(st, "almirante_cochrane").status = "sunk"
    unit(st, "huascar").status = "sunk"
    st.turn = 3
    assert check(st) and st.result_winner == "chile"
