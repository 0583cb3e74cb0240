"""Boarding (6.3), damage effects (7.1, 7.2), criticals and their End-Phase repair (10.0), repair (8.0)."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder, NotYourTurn
from games.core.ruleset import Event
from games.iron_and_fire import scene
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.rules import critical_hits_10, damage_7, end_phase_11, victory_12
from tests.iron_and_fire.helpers import in_play, new_game, order, place, ruleset, text, unit


def close(side: str = "peru", boilers: str = "fixed"):  # type: ignore[no-untyped-def]
    st = new_game("s1", {"boilers": boilers})
    place(st, "huascar", "1610", 6)
    place(st, "esmeralda", "1609", 3)
    return in_play(st, side, "KH" if side == "peru" else "KS")


def test_boarding_attempt_fails_above_target_pf() -> None:
    st = close()
    log = text(order(st, "peru", "Huascar board Esmeralda", [4]))
    assert "d10 **4** vs PF 3 (needs 3 or less): the Boarding Combat does not occur" in log
    assert unit(st, "huascar").boarding_with == ""


def test_boarding_capture_by_two_or_more() -> None:
    st = close()
    log = text(order(st, "peru", "Huascar board Esmeralda", [3, 1, 1]))
    assert "Huáscar d6 **1** +7 PF = 8; Esmeralda d6 **1** +3 PF = 4" in log
    assert "**Esmeralda is captured**" in log
    e = unit(st, "esmeralda")
    assert e.controller == "peru" and e.captured and e.hits == 1
    assert st.phase == "over" and st.result_winner == "peru"


def test_boarding_win_by_one_and_the_winner_decides() -> None:
    st = close()
    log = text(order(st, "peru", "Huascar board Esmeralda", [3, 1, 6]))  # 8 vs 9
    assert "Esmeralda wins by 1: 1 hit on Huáscar" in log
    assert st.phase == "boarding" and st.decider == "chile"
    assert ruleset().to_act(st) == ["chile"]
    with pytest.raises(NotYourTurn):
        order(st, "peru", "break off")
    order(st, "chile", "continue")
    assert unit(st, "huascar").boarding_with == "esmeralda"
    # locked ships cannot move, fire or ram, but fight on
    st.card, st.card_side, st.acts_left, st.used = "KH", "peru", 3, []
    with pytest.raises(IllegalOrder, match="Boarding Combat"):
        order(st, "peru", "Huascar move F")
    with pytest.raises(IllegalOrder, match="Boarding Combat"):
        order(st, "peru", "Huascar fire Esmeralda")
    log = text(order(st, "peru", "Huascar board", [6, 1]))  # 13 vs 4: capture, no new attempt roll
    assert "fights on" in log and unit(st, "esmeralda").captured


def test_boarding_tie_both_odd_both_hit_then_break_off() -> None:
    st = close()
    log = text(order(st, "peru", "Huascar board Esmeralda", [2, 1, 5]))  # 8 vs 8, both odd
    assert "both ships take 1 hit" in log
    assert unit(st, "huascar").hits == 1 and unit(st, "esmeralda").hits == 1
    assert st.decider == "both" and ruleset().to_act(st) == ["peru", "chile"]
    order(st, "chile", "break off")
    assert unit(st, "huascar").boarding_with == "" and unit(st, "esmeralda").boarding_with == ""


def test_boarding_tie_even_no_effect_and_fire_modifier() -> None:
    st = close()
    unit(st, "esmeralda").criticals = ["fire"]
    log = text(order(st, "peru", "Huascar board Esmeralda", [1, 2, 6]))  # 9 vs 6+3-1 = 8
    assert "−1 on fire" in log and "wins by 1" in log


def test_captured_ship_never_fires_and_moves_after_two_consecutive_activations() -> None:
    st = new_game("s5")
    place(st, "huascar", "1610", 6)
    place(st, "union", "2905", 1)
    place(st, "loa", "1609", 6)
    place(st, "ohiggins", "1202", 3)
    loa = unit(st, "loa")
    loa.controller = "peru"
    in_play(st, "peru")
    with pytest.raises(IllegalOrder, match="never fires"):
        order(st, "peru", "Loa fire Ohiggins")
    with pytest.raises(IllegalOrder, match="two consecutive activations"):
        order(st, "peru", "Loa move F")
    order(st, "peru", "Loa prepare")
    st.card, st.card_side, st.acts_left, st.used = "KH", "peru", 3, []
    order(st, "peru", "Loa move F")
    assert scene.label(st, scene.pos(loa)) == "1608"
    # another friendly activation in between cancels the preparation
    st.card, st.card_side, st.acts_left, st.used = "KH", "peru", 3, []
    order(st, "peru", "Loa prepare")
    st.card, st.card_side, st.acts_left, st.used = "KH", "peru", 3, []
    order(st, "peru", "Union move F")
    with pytest.raises(IllegalOrder, match="two consecutive"):
        order(st, "peru", "Loa move F")


def test_damage_effects_section_7_1() -> None:
    st = close(boilers="fixed")
    e = unit(st, "esmeralda")  # MF 2, CF 1, PF 3
    expected = {0: (2, 1), 1: (2, 1), 2: (1, -1), 3: (0, -1)}
    for hits, (mp, cf) in expected.items():
        e.hits = hits
        assert (damage_7.eff_mp(st, e), damage_7.eff_cf(st, e)) == (mp, cf), hits
    assert damage_7.crippled(st, e)
    h = unit(st, "huascar")  # MF 3, CF 3, PF 7: half PF rounded up = 4
    for hits, (mp, cf) in {3: (3, 1), 4: (1, 0), 6: (1, 0), 7: (0, 0)}.items():
        h.hits = hits
        assert (damage_7.eff_mp(st, h), damage_7.eff_cf(st, h)) == (mp, cf), hits
    assert not damage_7.crippled(st, h)  # CF 0 is not below 0


def test_crippled_is_by_hits_not_by_a_propulsion_critical() -> None:
    """2.1 / 12.0: crippled is "a number of hits that reduces its MP to 0 and its CF to less
    than 0". Bad Boilers (a propulsion critical) leave a 2-hit Esmeralda at MP 0, but hits alone
    hold her to MP 1: not crippled (no VP, no ungrounding modifier) until 3 hits."""
    st = close(boilers="bad")
    e = unit(st, "esmeralda")  # MF 2, CF 1, PF 3
    e.hits = 2
    assert damage_7.eff_mp(st, e) == 0 and damage_7.eff_cf(st, e) == -1 and not damage_7.crippled(st, e)
    assert victory_12.vp(st, "peru")[0] == 0
    e.hits = 3
    assert damage_7.crippled(st, e) and victory_12.vp(st, "peru")[0] == 3


def test_sinking_above_pf() -> None:
    st = close()
    unit(st, "esmeralda").hits = 3
    order(st, "peru", "Huascar fire Esmeralda", [1])  # 1+3+1+1 = 6: 2 hits
    assert unit(st, "esmeralda").status == "sunk"


def test_repair_removes_one_hit_on_pf_or_less() -> None:
    st = close("chile")
    unit(st, "esmeralda").hits = 2
    assert "one hit removed (1 left)" in text(order(st, "chile", "Esmeralda repair", [3]))
    st = close("chile")
    unit(st, "esmeralda").hits = 2
    assert "no effect" in text(order(st, "chile", "Esmeralda repair", [4]))
    assert unit(st, "esmeralda").hits == 2
    st = close("chile")
    with pytest.raises(IllegalOrder, match="no hits"):
        order(st, "chile", "Esmeralda repair")


def run_end_phase(st, dice: list[int]) -> str:  # type: ignore[no-untyped-def]
    from tests.scripted import ScriptedDice

    rng = ScriptedDice(dice)
    rolls = Dice(rng)
    events: list[Event] = []
    st.turns = st.turn  # the last turn: no new deck is shuffled
    end_phase_11.end_phase(st, rolls, events)
    assert not rng.dice, rng.dice
    return "\n".join(e.text for e in events)


def test_end_phase_critical_repairs() -> None:
    st = close()
    h = unit(st, "huascar")
    h.criticals = ["bridge", "propulsion", "steering", "fire"]
    log = run_end_phase(st, [2, 3, 4, 2])
    assert "Bridge repair d6 **2**: repaired" in log and "Propulsion repair d6 **3**: not repaired" in log
    assert "Steering repair d6 **4**: repaired" in log and "fire extinguished" in log
    assert h.criticals == ["propulsion"]


@pytest.mark.parametrize(("die", "hits", "alive"), [(4, 1, True), (5, 2, True), (6, 0, False)])
def test_fire_spreads_or_blows_up(die: int, hits: int, alive: bool) -> None:
    st = close()
    h = unit(st, "huascar")
    h.criticals = ["fire"]
    log = run_end_phase(st, [die])
    assert h.afloat == alive
    if alive:
        assert h.hits == hits and h.criticals == ["fire"]
    else:
        assert "blows up" in log


@pytest.mark.parametrize("die", [5, 6])
def test_a_ship_lost_to_a_fire_is_sunk_by_the_ship_that_set_it(die: int) -> None:
    """Scenario 5 counts the Chilean ships the Huáscar sinks (15.6.5): a Fire critical from her
    hit that later spreads (5: 2 hits) or reaches the magazine (6) is still her kill."""
    st = close()
    e = unit(st, "esmeralda")  # PF 3, adjacent to the Huáscar
    # d10 6 +3 CF +1 range 1 +1 raking = 11 >= 6: 2 hits; critical check d6 5; table d6 3: Fire
    order(st, "peru", "Huascar fire Esmeralda", [6, 5, 3])
    assert e.hits == 2 and e.criticals == ["fire"]
    run_end_phase(st, [die])
    assert e.status == "sunk" and e.sunk_by == "huascar"


def test_bad_boilers_are_never_repaired() -> None:
    st = close(boilers="bad")
    e = unit(st, "esmeralda")
    assert e.criticals == ["propulsion"] and e.bad_boilers
    run_end_phase(st, [])
    assert e.criticals == ["propulsion"]


def test_critical_table() -> None:
    from tests.scripted import ScriptedDice

    for die, kind in [(1, None), (2, "bridge"), (3, "fire"), (4, "fire"), (5, "propulsion"), (6, "steering")]:
        st = close()
        dice = Dice(ScriptedDice([die]))
        events: list[Event] = []
        critical_hits_10.critical(st, dice, events, unit(st, "huascar"))
        assert unit(st, "huascar").criticals == ([kind] if kind else [])
    st = close()
    dice = Dice(ScriptedDice([5]))
    critical_hits_10.critical(st, dice, [], unit(st, "huascar"))
    assert damage_7.eff_mp(st, unit(st, "huascar")) == 2


def test_save_the_captain_and_admiral() -> None:
    st = close()
    unit(st, "esmeralda").facing = scene.dir_of(st, 5)  # no raking fire
    st.save_captain = True
    log = text(order(st, "peru", "Huascar fire Esmeralda", [1, 6]))  # 1+3+1 = 5: 1 hit; captain roll 6
    assert "Save the Captain" in log and unit(st, "esmeralda").criticals == ["bridge"]
    assert not st.save_captain
    st = close("chile")
    st.save_admiral = True
    order(st, "chile", "Esmeralda fire Huascar", [9, 3])
    assert unit(st, "huascar").hits == 1 and unit(st, "huascar").criticals == []


def test_a_second_ship_may_board_the_same_target_without_combining() -> None:
    st = new_game("s5")
    place(st, "huascar", "1610", 6)
    place(st, "union", "2905", 1)
    place(st, "loa", "1609", 3)
    place(st, "ohiggins", "1511", 5)  # also adjacent to the Huascar
    in_play(st, "chile", "KS")
    # Loa boards Huascar: attempt 1, round Loa 6+3 = 9 vs Huascar 3+7 = 10: Huascar wins by 1
    order(st, "chile", "Loa board Huascar", [1, 6, 3])
    order(st, "peru", "continue")
    assert unit(st, "loa").boarding_with == "huascar" and unit(st, "huascar").boarding_with == "loa"
    st.card, st.card_side, st.acts_left, st.used = "KS", "chile", 3, ["loa"]
    # O'Higgins boards too, in its own combat: 4+4 = 8 vs 1+7 = 8, a tie (one die even)
    log = text(order(st, "chile", "OHiggins board Huascar", [2, 4, 1]))
    assert "O'Higgins d6 **4** +4 PF = 8; Huáscar d6 **1** +7 PF = 8: tie, inconclusive" in log
    order(st, "chile", "break off")
    # the Huascar is still locked with the Loa
    assert unit(st, "huascar").boarding_with == "loa" and unit(st, "ohiggins").boarding_with == ""
    # the Unión may board the Loa, which is locked with the Huáscar; a ship already locked cannot
    st.card, st.card_side, st.acts_left, st.used = "KH", "peru", 3, []
    place(st, "union", "1710", 1)
    assert "does not occur" in text(order(st, "peru", "Union board Loa", [9]))
    st.card, st.card_side, st.acts_left, st.used = "KH", "peru", 3, []
    with pytest.raises(IllegalOrder, match="already locked"):
        order(st, "peru", "Huascar board Ohiggins")
