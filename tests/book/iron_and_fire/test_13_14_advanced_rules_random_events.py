"""Iron and Fire, modules 13.0 (Advanced Rules: Fortunes of War, Chilean Honor, Visibility) and 14.0
(Random Event Table)."""

from __future__ import annotations

import pytest

from games.iron_and_fire.state import State
from tests.book.iron_and_fire.book import RS, end_turn, fails, game, hits, in_play, line, place, play, play_freely, unit


def duel(card: str = "KH", turn: int = 1, **options: str) -> State:
    """Scenario 1 (boilers fixed): Huáscar on 1610 facing 6, Esmeralda on 1608 facing 5 (broadside
    on, two hexes off)."""
    state = game("s1", **options)
    place(state, "huascar", "1610", 6)
    place(state, "esmeralda", "1608", 5)
    return in_play(state, "peru" if card[-1] in "HD" else "chile", card, turn=turn)


def fleet(card: str = "KS", **options: str) -> State:
    """Scenario 5: Huáscar on 1610 facing 6; Almirante Cochrane (black bow) on 1608 facing 5 and Loa
    far off."""
    state = game("s5", **options)
    place(state, "huascar", "1610", 6)
    place(state, "almirante_cochrane", "1608", 5)
    place(state, "loa", "2404", 3)
    return in_play(state, "peru" if card[-1] in "HD" else "chile", card)


def total(out: str) -> int:
    return int(out.split(" vs PF")[0].rsplit("= ", 1)[1])


def fow_line(state: State) -> str:
    return next(x for x in RS.summary(state) if x.startswith("Fortunes of War"))


# --- 13.0, 13.1 ------------------------------------------------------------------------------


def test_the_advanced_rules_are_options_left_out_unless_chosen() -> None:
    """13.0: "The following optional rules add more detail and uncertainty to the battles of this
    period. Use some, none, or all of them." Fortunes of War, Chilean Honor and Visibility are table
    options, off unless chosen, each on its own."""
    defaults = {o.key: o.default for o in RS.options()}
    assert defaults["fow"] == defaults["honor"] == defaults["visibility"] == "off"
    state = duel(fow="on")
    assert any(x.startswith("Fortunes of War") for x in RS.summary(state))
    state = duel()
    assert not any(x.startswith("Fortunes of War") for x in RS.summary(state))


def test_peru_starts_with_the_fortunes_of_war() -> None:
    """13.1: "Unless otherwise noted, the Peruvian player starts with the FoW counter." and
    15.1: "If using the Advanced Rule Fortunes of War (Section 13.1), the Peruvian player starts with
    the FoW counter in all of the scenarios."""
    for scenario in ("s1", "s2", "s3", "s4", "s5"):
        state = game(scenario, fow="on")
        in_play(state, "peru", "KH")
        assert fow_line(state).startswith("Fortunes of War: held by Peru")


def test_a_fow_bonus_is_two_the_first_time_and_the_counter_passes() -> None:
    """13.1: "Gain +2 on player's first use for Firing, Ramming, or Mine attack (+1 if previously
    used)." and "After being played and all effects occur, the opposing player gains the FoW
    counter." """
    state = duel(fow="on")
    out = play(state, "peru", "Huascar fire Esmeralda fow", [1])
    assert "+2 Fortunes of War" in out and total(out) == 1 + 3 - 1 + 2
    assert fow_line(state).startswith("Fortunes of War: held by Chile")


def test_a_later_use_gives_one() -> None:
    """13.1: "(+1 if previously used)" and "Each player may use FoW only once per turn." Peru plays
    it, Chile plays it back; in turn 2 Peru's second use is +1."""
    state = duel(fow="on")
    state.deck = ["3H", "5S"]
    play(state, "peru", "Huascar fire Esmeralda fow", [1])
    play(state, "chile", "Esmeralda fire Huascar fow", [1])
    end_turn(state, seed=3)
    assert RS.summary(state)[0].startswith("Turn 2 of")
    unit(state, "esmeralda").hits = 0
    in_play(state, "peru", "KH", turn=2)
    assert fow_line(state).startswith("Fortunes of War: held by Peru; used this turn by nobody")
    out = play(state, "peru", "Huascar fire Esmeralda fow", [1])
    assert "+1 Fortunes of War" in out and total(out) == 1 + 3 - 1 + 1


def test_each_player_uses_the_fow_once_a_turn() -> None:
    """13.1: "Each player may use FoW only once per turn." Peru plays it, Chile plays it back, and
    Peru may not play it again this turn."""
    state = duel(fow="on")
    state.deck = ["3H", "5S"]
    play(state, "peru", "Huascar fire Esmeralda fow", [1])
    play(state, "chile", "Esmeralda fire Huascar fow", [1])
    assert fow_line(state).startswith("Fortunes of War: held by Peru")
    assert "already used" in fails(state, "peru", "Huascar fire Esmeralda fow", [1])


def test_fow_gives_a_unit_a_second_activation() -> None:
    """13.1: "Pick one unit and gain a second activation for that unit." and 3.0: "playing the FoW
    counter allows one unit to immediately take a second activation." Huáscar moves, then fires on
    the same card."""
    state = duel(fow="on")
    play(state, "peru", "Huascar move F")
    play(state, "peru", "fow again Huascar")
    out = play(state, "peru", "Huascar fire Esmeralda", [1])
    assert "fires at Esmeralda" in out


def test_fow_adds_an_activation_to_a_card() -> None:
    """13.1: "Gain +1 activation to an activation card (for example, four activations instead of
    three on a face card draw)." """
    state = game("s5", fow="on")
    place(state, "huascar", "1610", 6)
    place(state, "union", "1810", 6)
    place(state, "almirante_cochrane", "1304", 3)
    in_play(state, "peru", "3H")
    play(state, "peru", "fow extra")
    play(state, "peru", "Huascar move F")
    assert RS.to_act(state) == ["peru"]
    assert "Unión moves F" in play(state, "peru", "Union move F")


def test_fow_ends_the_activations_at_the_first_joker_without_a_random_event() -> None:
    """13.1: "If the card draw was the first Joker, end the Activations Phase, do not roll for a
    Random Event, and go to the End Phase of the turn." (also 3.2, 11.0, 14.0)"""
    state = duel(fow="on")
    state.deck = ["3S", "JK1"]
    play(state, "peru", "Huascar move F")
    assert RS.to_act(state) == ["peru"]
    text = play_freely(state, "peru", "fow end")
    assert "Random Event" not in text and "**End Phase** of turn 1" in text


def test_fow_redraws_a_non_joker_card() -> None:
    """13.1: "Ignore a just-drawn, non-Joker activation card and draw another card." Peru throws
    away Chile's King; the next card is Peru's."""
    state = duel(fow="on")
    state.deck = ["3H", "KS"]
    play(state, "peru", "Huascar move F")
    assert RS.to_act(state) == ["chile"]
    play(state, "peru", "fow redraw")
    assert RS.to_act(state) == ["peru"]


def test_fow_rerolls_a_die() -> None:
    """13.1: "Immediately re-roll any die roll." Huáscar's miss (d10 1 at range 4) is re-rolled."""
    state = duel(fow="on")
    place(state, "esmeralda", "1606", 5)
    state.deck = ["3H", "3S"]
    play(state, "peru", "Huascar fire Esmeralda", [1])
    assert hits(state, "esmeralda") == 0
    play(state, "peru", "fow reroll", [4])  # 4 + 3 - 2 = 5: one hit
    assert hits(state, "esmeralda") == 1


# --- 13.2 ------------------------------------------------------------------------------------


def test_chilean_honor_costs_black_bows_two_until_they_ram() -> None:
    """13.2: "If the Peruvian player holds the FoW counter, all Chilean ships with a black (not
    brown) bow indicator must attempt to conduct one ram attack against the closest Peruvian
    ironclad" and "Until the Chilean ship or ships conduct a Ramming attack, their ships with a black
    bow indicator suffer a -2 die modifier for firing and Boarding Combats." Cochrane (black bow,
    CF 4) fires at Huáscar from two hexes while Peru holds the counter."""
    state = fleet(fow="on", honor="on")
    out = play(state, "chile", "Cochrane fire Huascar", [1])
    assert total(out) == 1 + 4 - 1 - 2


def test_chilean_honor_ends_after_a_ram() -> None:
    """13.2: "This requirement ends after a Ramming attack is resolved, successful or not" Cochrane
    rams Huáscar, then fires with no -2."""
    state = fleet(fow="on", honor="on")
    place(state, "almirante_cochrane", "1609", 3)
    play(state, "chile", "Cochrane ram", [5])  # 5 + 1 - 2 (through the bow) = 4: two hits on Cochrane
    assert unit(state, "almirante_cochrane").hits == 2
    in_play(state, "chile", "KS")
    place(state, "almirante_cochrane", "1608", 5)
    out = play(state, "chile", "Cochrane fire Huascar", [1])
    assert total(out) == 1 + (4 - 2) - 1


def test_chilean_honor_needs_peru_to_hold_the_fow() -> None:
    """13.2: "If the Peruvian player holds the FoW counter" (and "This requirement ends after ...
    the Peruvian player does not hold the FoW counter"): with the counter in Chile's hands there is
    no -2."""
    state = fleet(fow="on", honor="on")
    in_play(state, "peru", "3H", deck=["2H", "3S"])
    play(state, "peru", "Huascar fire Cochrane fow", [1])
    out = play(state, "chile", "Cochrane fire Huascar", [1])
    assert total(out) == 1 + 4 - 1


# --- 13.3 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("die", "modifier"), [(2, 0), (3, -1)])
def test_visibility_on_turns_4_to_6_rolls_for_fire_beyond_one_hex(die: int, modifier: int) -> None:
    """13.3: "On turns 4 through 6, all firing attacks at greater than 1 hex (adjacent) range roll
    1d6: Even result: No effect. Odd result: Apply -1 die modifier to firer." """
    state = duel(turn=5, visibility="on")
    out = play(state, "peru", "Huascar fire Esmeralda", [die, 1])  # the visibility d6, then the d10
    assert total(out) == 1 + 3 - 1 + modifier


def test_visibility_never_affects_adjacent_fire() -> None:
    """13.3: "all firing attacks at greater than 1 hex (adjacent) range" only."""
    state = duel(turn=8, visibility="on")
    place(state, "esmeralda", "1609", 5)
    out = play(state, "peru", "Huascar fire Esmeralda", [1])
    assert total(out) == 1 + 3 + 1


def test_visibility_from_turn_7_is_minus_one() -> None:
    """13.3: "On turns 7 through the last turn, all firing attacks at greater than 1 hex (adjacent)
    range suffer a -1 die modifier to firer." """
    state = duel(turn=7, visibility="on")
    assert total(play(state, "peru", "Huascar fire Esmeralda", [1])) == 1 + 3 - 1 - 1


def test_low_visibility_adds_one_to_a_grounding_roll() -> None:
    """5.1: "+1 if low visibility (Advanced Rule, Section 13.3) is in effect" From turn 7 it is."""
    state = game("s3", visibility="on")
    place(state, "huascar", "1605", 2)
    place(state, "loa", "2010", 3)
    in_play(state, "peru", "KH", turn=7)
    out = play(state, "peru", "Huascar move F", [1])
    assert total(out) == 2


# --- 14.0 ------------------------------------------------------------------------------------


def first_joker(dice: list[int], **options: str) -> tuple[State, str]:
    """Huáscar turns about on the spot (port, then starboard) on Peru's card and the first Joker
    comes up next (2d6 ``dice``; with the Fortunes of War its holder, Peru, lets the event roll);
    then a black 3 (Chile) and a red 3 (Peru)."""
    state = duel("KH", 1, **options)
    state.deck = ["3H", "3S", "JK1"]
    if options.get("fow") == "on":
        play(state, "peru", "Huascar move P S")
        return state, play(state, "peru", "pass", dice)
    return state, play(state, "peru", "Huascar move P S", dice)


def test_the_first_joker_rolls_on_the_random_event_table() -> None:
    """14.0: "When the first Joker gets drawn, roll 2d6 on the Random Event Table." A roll of 7 is
    "No Event"."""
    _, out = first_joker([3, 4])
    assert "Random Event, 2d6 [3, 4] = **7**: No Event." in out


@pytest.mark.parametrize("dice", [[1, 1], [1, 2], [5, 6], [6, 6]])
def test_fickle_luck_switches_the_fow(dice: list[int]) -> None:
    """14.0: "2-3: Fickle Luck. The "Fortunes of War" switches to the opponent. Ignore if FoW
    (Section 13.1) is not being used." and "11-12: Fickle Luck." """
    state, _ = first_joker(dice, fow="on")
    assert fow_line(state).startswith("Fortunes of War: held by Chile")


def test_order_confusion_and_confusing_signal_take_a_mp() -> None:
    """14.0: "4: Order Confusion. All Peruvian ships have 1 less MP for the next activation." and
    "10: Confusing Signal. All Chilean ships have 1 less MP for the next activation." """
    state, _ = first_joker([1, 3])
    in_play(state, "peru", "3H")
    assert "needs 3" in fails(state, "peru", "Huascar move F F F")
    state, _ = first_joker([4, 6])
    assert "needs 2" in fails(state, "chile", "Esmeralda move F F")


def test_lucky_shot_gives_the_next_fire_attack_one() -> None:
    """14.0: "6: Lucky Shot. Next fire attack by the Peruvian player has a +1 modifier." and "8: Lucky
    Shot. Next fire attack by the Chilean player has a +1 modifier." """
    state, _ = first_joker([2, 6])
    out = play(state, "chile", "Esmeralda fire Huascar", [1])
    assert total(out) == 1 + 1 - 1 + 1 and "+1 Lucky Shot" in out
    state, _ = first_joker([2, 4])
    in_play(state, "peru", "3H")
    out = play(state, "peru", "Huascar fire Esmeralda", [1])
    assert total(out) == 1 + 3 - 1 + 1 and "+1 Lucky Shot" in out


def test_save_the_captain_and_save_the_admiral_roll_for_a_bridge_hit() -> None:
    """14.0: "5: Save the Captain: The next time a Chilean ship sustains a hit, the Chilean player
    rolls 1d6. If the roll is a 6, the ship is immediately marked with a Bridge Critical Hit" and
    "9: Save the Admiral! Whenever the Huáscar or Independencia next sustains a hit, the Peruvian
    player rolls 1d6. If the roll is a 6, the ship is immediately marked with a Bridge Critical
    Hit" """
    state, _ = first_joker([1, 4])
    in_play(state, "peru", "3H")
    play(state, "peru", "Huascar fire Esmeralda", [1, 6])
    assert unit(state, "esmeralda").criticals == ["bridge"]
    state, _ = first_joker([4, 5])
    place(state, "esmeralda", "1609", 3)
    out = play(state, "chile", "Esmeralda fire Huascar", [9, 6])
    assert "Huáscar" in line(state, "Huáscar") and unit(state, "huascar").criticals == ["bridge"], out
