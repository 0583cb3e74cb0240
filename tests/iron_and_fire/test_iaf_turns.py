"""Sequence of play (3.0, 4.0, 11.0): cards, Jokers, the 2d6 extra draws, End Phase order, drift,
and the advanced rules (13.1 Fortunes of War, 13.2 Chilean Honor, 13.3 Visibility, 14.0 events)."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.core.ruleset import Event, legal_texts
from games.iron_and_fire import scene
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.rules import activations_4, chilean_honor_13_2, end_phase_11, movement_5, random_events_14
from games.iron_and_fire.state import State
from tests.iron_and_fire.helpers import in_play, new_game, order, place, ruleset, text, unit
from tests.scripted import ScriptedDice


def s1(side: str = "peru", card: str = "KH", deck: list[str] | None = None, options: dict[str, str] | None = None) -> State:
    st = new_game("s1", {"boilers": "fixed", **(options or {})})
    place(st, "huascar", "1610", 6)
    place(st, "esmeralda", "1606", 3)
    return in_play(st, side, card, deck)


@pytest.mark.parametrize(("card", "acts"), [("AH", 1), ("3D", 1), ("9H", 1), ("2H", 2), ("8D", 2), ("10H", 2), ("JH", 3), ("QD", 3), ("KH", 3)])
def test_activations_per_card(card: str, acts: int) -> None:
    assert activations_4.acts_for(s1(), card) == acts


def test_red_cards_activate_peru_and_black_cards_chile() -> None:
    st = s1(deck=["5S", "5H"])
    order(st, "peru", "Huascar move F")  # the only Peruvian ship: the card is finished
    assert st.card == "5H" and st.card_side == "peru"
    order(st, "peru", "done")
    assert st.card == "5S" and st.card_side == "chile"
    assert ruleset().to_act(st) == ["chile"]


def test_done_ends_the_card_and_wrong_seat_is_refused() -> None:
    st = s1(deck=["7C"])
    with pytest.raises(NotYourTurn):
        order(st, "chile", "done")
    order(st, "peru", "done")
    assert st.card == "7C"


def test_first_joker_random_event_second_joker_end_phase() -> None:
    st = s1(deck=["4S", "JK2", "6C", "JK1"], card="2S", side="chile")
    # Esmeralda acts, then Joker 1: Random Event 2d6 [3, 4] = 7 (No Event); 6C is drawn
    log = text(order(st, "chile", "Esmeralda move F", [3, 4]))
    assert "First Joker drawn" in log and "No Event" in log
    assert st.card == "6C"
    # Chile acts again; Joker 2: both sides have activated? Peru has not: 2d6 extra draws
    log = text(order(st, "chile", "Esmeralda move F", [1, 1]))
    assert "but Peru has not activated this turn" in log and "2d6 [1, 1] = **2** more card draws" in log
    assert st.extra_draws == 1 and st.card == "4S"


def test_second_joker_goes_to_the_end_phase_when_both_sides_acted() -> None:
    st = s1(deck=["JK2"], card="2S", side="chile")
    st.acted_sides = ["peru"]
    st.jokers_drawn = 1
    st.turns = 1
    log = text(order(st, "chile", "Esmeralda move F"))
    assert "Second Joker drawn: the Activations Phase ends" in log and "**End Phase** of turn 1" in log
    assert st.phase == "over"  # last turn: victory points


def test_extra_draws_run_out_into_the_end_phase() -> None:
    st = s1(deck=["3S", "3S"], card="2S", side="chile")
    st.extra_draws = 0
    st.turns = 1
    order(st, "chile", "Esmeralda move F")
    assert st.phase == "over"


def test_new_turn_shuffles_54_cards() -> None:
    st = s1(deck=[], card="2S", side="chile")
    st.acted_sides = ["peru"]
    rs = ruleset()
    from games.core.rng import Rng, seed_from_number

    rs.apply(st, "chile", rs.parse_order(st, "chile", "Esmeralda move F"), Rng(seed_from_number(7)))
    assert st.turn == 2
    assert len(st.deck) + len(st.discards) == 54


def test_end_phase_order_victory_repairs_unground_drift() -> None:
    st = s1()
    h, e = unit(st, "huascar"), unit(st, "esmeralda")
    h.criticals = ["steering"]
    h.grounded = True
    e.hits = 3  # MP 0: drifts with the current (direction 2, lower-left)
    rng = ScriptedDice([2, 6])  # steering repaired; unground d10 6 < 7
    dice = Dice(rng)
    events: list[Event] = []
    st.turns = st.turn  # the last turn: nothing is shuffled after the End Phase
    end_phase_11.end_phase(st, dice, events)
    log = "\n".join(ev.text for ev in events)
    assert log.index("Steering repair") < log.index("tries to unground") < log.index("drifts to")
    assert not h.grounded and h.criticals == []
    assert scene.label(st, scene.pos(e)) == "1507"


def coastal_game(monkeypatch: pytest.MonkeyPatch, current: int = 2) -> State:
    """Map 3 with the current turned towards the coast (lower-left) so drift can reach it."""
    import msgspec

    st = new_game("s4")
    turned = msgspec.structs.replace(scene.scenario(st), current=current)
    monkeypatch.setattr(scene, "scenario", lambda s: turned)
    return st


def find_drift_start(st: State, target_terrain: str) -> str:
    """A water hex whose neighbour with the current is ``target_terrain``."""
    for h in scene.layout(st).all_hexes():
        nxt = scene.layout(st).neighbour(h, scene.dir_of(st, scene.scenario(st).current))
        if scene.terrain(st, h) in ("deep", "shallow") and scene.layout(st).on_map(nxt) and scene.terrain(st, nxt) == target_terrain:
            return scene.label(st, h)
    raise AssertionError(target_terrain)


def test_drift_blocked_and_off_the_map() -> None:
    st = s1()
    e = unit(st, "esmeralda")
    e.hits = 3
    place(st, "huascar", "1507", 6)
    dice = Dice(ScriptedDice([]))
    events: list[Event] = []
    movement_5.drift(st, dice, events, e)
    assert scene.label(st, scene.pos(e)) == "1606"  # the current's hex is occupied: stays
    place(st, "esmeralda", "1113", 3)
    movement_5.drift(st, dice, events, e)
    assert e.status == "sunk" and "eliminated" in events[-1].text


def test_drift_into_shallow_water_grounds_automatically(monkeypatch: pytest.MonkeyPatch) -> None:
    st = coastal_game(monkeypatch)
    a = place(st, "abtao", find_drift_start(st, "shallow"), 3)
    a.hits = 4
    target = scene.layout(st).neighbour(scene.pos(a), scene.dir_of(st, 2))
    movement_5.drift(st, Dice(ScriptedDice([])), [], a)
    assert a.grounded and (a.q, a.r) == (target.q, target.r)


def test_drift_onto_land_two_hits_and_grounded_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    st = coastal_game(monkeypatch)
    start = find_drift_start(st, "land")
    a = place(st, "abtao", start, 3)
    a.hits = 1
    movement_5.drift(st, Dice(ScriptedDice([])), [], a)
    assert a.grounded and a.hits == 3 and scene.label(st, scene.pos(a)) == start


def test_drift_onto_land_holding_a_battery_is_still_land(monkeypatch: pytest.MonkeyPatch) -> None:
    """5.4/5.5: a ship never drifts into a hex occupied by another *ship*; a land battery's hex
    is land, so the drifting ship suffers the two hits and grounding of a drift onto land."""
    from tests.iron_and_fire.helpers import add_battery

    st = coastal_game(monkeypatch)
    start = find_drift_start(st, "land")
    a = place(st, "abtao", start, 3)
    a.hits = 1
    land = scene.layout(st).neighbour(scene.pos(a), scene.dir_of(st, 2))
    add_battery(st, scene.label(st, land))
    movement_5.drift(st, Dice(ScriptedDice([])), [], a)
    assert a.grounded and a.hits == 3 and scene.label(st, scene.pos(a)) == start


def test_drift_onto_a_mine_attacks() -> None:
    from games.iron_and_fire.state import Mine

    st = s1()
    e = unit(st, "esmeralda")
    e.hits = 3
    dice = Dice(ScriptedDice([6, 6]))
    events: list[Event] = []
    h = scene.layout(st).neighbour(scene.pos(e), scene.dir_of(st, 2))
    st.mines, st.mine_bag = [Mine(h.q, h.r)], ["0"]
    movement_5.drift(st, dice, events, e)
    assert e.status == "sunk"


def test_grounded_ships_do_not_drift() -> None:
    st = s1()
    e = unit(st, "esmeralda")
    e.hits, e.grounded = 3, True
    st.turns = 1
    end_phase_11.end_phase(st, Dice(ScriptedDice([1])), [])  # unground roll 1+1 (3 hits) +1 crippled = 3 >= 3: stays
    assert scene.label(st, scene.pos(e)) == "1606"


# --- Random events ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dice", "check"),
    [
        ([1, 1], lambda st: st.fow_holder == "chile"),
        ([2, 2], lambda st: unit(st, "huascar").mp_penalty == 1),
        ([2, 3], lambda st: st.save_captain),
        ([3, 3], lambda st: st.lucky_shot == ["peru"]),
        ([4, 4], lambda st: st.lucky_shot == ["chile"]),
        ([4, 5], lambda st: st.save_admiral),
        ([5, 5], lambda st: unit(st, "esmeralda").mp_penalty == 1),
        ([6, 6], lambda st: st.fow_holder == "chile"),
    ],
)
def test_random_events(dice: list[int], check) -> None:  # type: ignore[no-untyped-def]
    st = s1(options={"fow": "on"})
    rolls = Dice(ScriptedDice(dice))
    events: list[Event] = []
    random_events_14.random_event(st, rolls, events)
    assert check(st)


def test_order_confusion_costs_one_mp_on_the_next_activation_only() -> None:
    st = s1()
    unit(st, "huascar").mp_penalty = 1
    with pytest.raises(IllegalOrder, match="has 2 MP"):
        order(st, "peru", "Huascar move F F F")
    order(st, "peru", "Huascar move F F")
    assert unit(st, "huascar").mp_penalty == 0


def test_random_events_can_be_switched_off() -> None:
    st = s1(options={"random_events": "off"})
    dice = Dice(ScriptedDice([]))
    events: list[Event] = []
    random_events_14.random_event(st, dice, events)
    assert "not in use" in events[0].text


# --- Fortunes of War -------------------------------------------------------------------------
def fow_game(side: str = "peru", deck: list[str] | None = None) -> State:
    st = s1(side, "KH" if side == "peru" else "KS", deck=deck, options={"fow": "on"})
    assert st.fow_holder == "peru"
    return st


def test_fow_first_use_gives_plus_two_then_passes_and_once_per_turn() -> None:
    st = fow_game()
    place(st, "esmeralda", "1608", 5)
    log = text(order(st, "peru", "Huascar fire Esmeralda fow", [1]))
    assert "+2 Fortunes of War" in log and st.fow_holder == "chile"
    assert st.fow_used_turn == ["peru"] and st.fow_used_ever == ["peru"]
    with pytest.raises(IllegalOrder, match="does not hold"):
        order(st, "peru", "fow extra")


def test_fow_second_use_gives_plus_one() -> None:
    st = fow_game()
    place(st, "esmeralda", "1608", 5)
    st.fow_used_ever = ["peru"]
    assert "+1 Fortunes of War" in text(order(st, "peru", "Huascar fire Esmeralda fow", [1]))


def test_fow_once_per_turn_per_player() -> None:
    st = fow_game()
    st.fow_used_turn = ["peru"]
    with pytest.raises(IllegalOrder, match="already used"):
        order(st, "peru", "fow extra")


def test_fow_extra_activation_and_second_activation() -> None:
    st = fow_game()
    st.card, st.acts_left = "3H", 1
    order(st, "peru", "fow extra")
    assert st.acts_left == 2
    st = fow_game()
    st.card, st.acts_left = "3H", 1
    order(st, "peru", "fow again Huascar")
    order(st, "peru", "Huascar move F")
    assert st.card == "3H" and st.acts_left == 1
    order(st, "peru", "Huascar move F")
    assert unit(st, "huascar").r != 0


def test_fow_redraw_ignores_a_fresh_card() -> None:
    st = fow_game(deck=["9S", "4H"])
    st.card = "3H"
    order(st, "peru", "fow redraw")
    assert st.card == "4H" and st.fow_holder == "chile"


def test_fow_reroll_replays_the_last_activation_with_fresh_dice() -> None:
    st = fow_game("chile")
    st.fow_holder = "peru"
    place(st, "esmeralda", "1607", 5)
    order(st, "chile", "Esmeralda fire Huascar", [9])  # 9+1-2 = 8 >= 7, odd: 1 hit
    assert unit(st, "huascar").hits == 1 and st.snapshot
    log = text(order(st, "peru", "fow reroll", [2]))
    assert "re-roll" in log and unit(st, "huascar").hits == 0
    assert st.fow_holder == "chile" and "peru" in st.fow_used_turn


def test_fow_end_on_the_first_joker() -> None:
    st = fow_game(deck=["5S", "JK1"])
    st.turns = 1
    order(st, "peru", "Huascar move F")
    assert st.phase == "joker" and ruleset().to_act(st) == ["peru"]
    with pytest.raises(WrongPhase):
        order(st, "chile", "Esmeralda move F")
    order(st, "peru", "fow end")
    assert st.phase == "over"  # End Phase of the last turn


def test_fow_pass_on_the_first_joker_rolls_the_event() -> None:
    st = fow_game(deck=["5S", "JK1"])
    order(st, "peru", "Huascar move F")
    log = text(order(st, "peru", "pass", [3, 4]))
    assert "No Event" in log and st.card == "5S"


def test_fow_mine_bonus_helps_the_holder() -> None:
    from games.iron_and_fire.state import Mine

    st = fow_game()
    h = scene.layout(st).parse("1609")
    st.mines, st.mine_bag = [Mine(h.q, h.r)], ["1"]
    log = text(order(st, "peru", "Huascar move F fow", [3, 3]))
    assert "−2 Fortunes of War = 5 vs PF 7: no effect" in log


# --- Chilean Honor, Visibility ----------------------------------------------------------------
def honor_game() -> State:
    st = new_game("s3", {"fow": "on", "honor": "on"})
    place(st, "huascar", "2004", 3)
    place(st, "union", "2204", 3)
    place(st, "blanco_encalada", "2008", 6)
    place(st, "loa", "1511", 6)
    return in_play(st, "chile", "KS")


def test_chilean_honor_penalty_and_closing_requirement() -> None:
    st = honor_game()
    log = text(order(st, "chile", "Blanco fire Huascar", [1]))
    assert "−2 Chilean Honor" in log
    st = honor_game()
    with pytest.raises(IllegalOrder, match="Chilean Honor"):
        order(st, "chile", "Blanco move P P F")
    st = honor_game()
    order(st, "chile", "Blanco move F F")  # closing is fine
    st = honor_game()
    unit(st, "loa").bow = "brown"
    assert "Chilean Honor" not in text(order(st, "chile", "Loa move F"))


def test_chilean_honor_ends_when_peru_loses_the_counter() -> None:
    st = honor_game()
    st.fow_holder = "chile"
    assert "Chilean Honor" not in text(order(st, "chile", "Blanco fire Huascar", [1]))


def test_chilean_honor_ends_when_the_peruvian_ironclad_is_a_chilean_prize() -> None:
    """13.2 binds black-bow Chilean ships to ram "the closest Peruvian ironclad"; a Huáscar
    captured by Chile is no longer one, so with no other the requirement is over."""
    st = honor_game()
    unit(st, "huascar").controller = "chile"
    place(st, "union", "2006", 3)
    assert "Chilean Honor" not in text(order(st, "chile", "Blanco fire Union", [1]))


def test_visibility_turns_4_to_6_roll_and_7_on_minus_one() -> None:
    st = s1(options={"visibility": "on"})
    place(st, "esmeralda", "1608", 5)
    st.turn = 5
    log = text(order(st, "peru", "Huascar fire Esmeralda", [3, 1]))
    assert "−1 visibility (d6 3, odd)" in log
    st = s1(options={"visibility": "on"})
    place(st, "esmeralda", "1608", 5)
    st.turn = 8
    assert "−1 reduced visibility" in text(order(st, "peru", "Huascar fire Esmeralda", [1]))
    st = s1(options={"visibility": "on"})
    place(st, "esmeralda", "1609", 5)
    st.turn = 8
    assert "visibility" not in text(order(st, "peru", "Huascar fire Esmeralda", [1]))


def test_option_once_per_turn() -> None:
    st = s1(options={"once_per": "turn"})
    st.turn_used = ["huascar"]  # activated on an earlier card this turn
    assert not activations_4.can_activate(st, unit(st, "huascar"))
    with pytest.raises(IllegalOrder, match="already activated this turn"):
        order(st, "peru", "Huascar move F")
    st2 = s1()
    st2.turn_used = ["huascar"]
    assert activations_4.can_activate(st2, unit(st2, "huascar"))


def test_option_land_does_not_block() -> None:
    from tests.iron_and_fire.helpers import add_battery

    st = new_game("s4", {"land_blocks": "off"})
    place(st, "huascar", "1407", 1)
    add_battery(st, "1305")
    in_play(st, "peru")
    assert "Huáscar fire Battery 1" in legal_texts(ruleset(), st, "peru")


def test_fow_ram_bonus() -> None:
    st = s1(options={"fow": "on"})
    place(st, "esmeralda", "1609", 5)
    log = text(order(st, "peru", "Huascar ram fow", [1]))
    assert "+1 black bow +2 Fortunes of War = 4 vs PF 3: 1 hit" in log


def test_chilean_honor_boarding_penalty_and_ram_lifts_it() -> None:
    st = honor_game()
    place(st, "blanco_encalada", "2005", 6)  # bow on Huascar at 2004
    log = text(order(st, "chile", "Blanco board Huascar", [1, 6, 1]))
    assert "−2 Chilean Honor" in log
    st = honor_game()
    place(st, "blanco_encalada", "2005", 6)
    order(st, "chile", "Blanco ram", [5])
    assert unit(st, "blanco_encalada").honor_done
    assert not chilean_honor_13_2.honor_bound(st, unit(st, "blanco_encalada"))


def test_fow_reroll_one_die_keeps_the_others() -> None:
    st = fow_game("chile")
    st.fow_holder = "peru"
    place(st, "esmeralda", "1609", 3)  # Huascar on Esmeralda's bow: -1 broadside
    # Esmeralda: d10 10 + 1 + 1 (range 1) - 1 = 11: 1 hit but saved (even); Peru re-rolls? no:
    # d10 9 + 1 + 1 - 1 = 10 >= 7: 1 hit on the Huascar (odd: armour fails)
    order(st, "chile", "Esmeralda fire Huascar", [9])
    assert st.snapshot_dice == [(10, 9)]
    assert "fow reroll 1" in legal_texts(ruleset(), st, "peru")
    with pytest.raises(IllegalOrder, match="no die 2"):
        order(st, "peru", "fow reroll 2")
    log = text(order(st, "peru", "fow reroll 1", [4]))
    assert "re-roll die 1 (d10 9)" in log and "d10 **4**" in log
    assert unit(st, "huascar").hits == 0


def test_fow_reroll_of_the_critical_die_keeps_the_hit() -> None:
    st = fow_game()
    st.fow_holder = "chile"
    place(st, "esmeralda", "1608", 3)
    # Huascar: d10 6 +3 -1 +1 = 9 >= 6: 2 hits; critical check d6 5; table d6 6 (Steering)
    order(st, "peru", "Huascar fire Esmeralda", [6, 5, 6])
    assert unit(st, "esmeralda").criticals == ["steering"]
    log = text(order(st, "chile", "fow reroll 2", [1]))  # the critical check becomes a 1
    e = unit(st, "esmeralda")
    assert e.hits == 2 and e.criticals == [] and "d10 **6**" in log


def test_fow_reroll_never_swaps_a_mine_counter_already_turned_over() -> None:
    """13.1 re-rolls a die; a Mine counter turned over by the activation is a counter, not a
    die: the replay must meet the same counter (9.0), whatever else the cup holds."""
    from games.iron_and_fire.state import Mine

    rs = ruleset()
    for seed_die in range(1, 7):
        st = new_game("s4", {"fow": "on"})
        shallow = scene.layout(st).parse("1505")
        place(st, "huascar", "1605", 1)
        h = unit(st, "huascar")
        h.facing = next(d for d in range(6) if scene.layout(st).neighbour(scene.pos(h), d) == shallow)
        place(st, "abtao", "1509", 3)
        place(st, "magallanes", "1511", 3)
        in_play(st, "peru")
        st.fow_holder = "chile"
        st.mines = [Mine(shallow.q, shallow.r)]
        st.mine_bag = ["None", "0", "1", "2"] * 3
        rng = ScriptedDice([1, seed_die, 1, 1, 1, 1])  # grounding d10 1 (clear), then the mine's 2d6 if any
        rs.apply(st, "peru", rs.parse_order(st, "peru", "Huascar move F"), rng)
        first = " ".join(st.log_tail)
        counter = first.split("mine counter is turned over: **")[1][:4] if "turned over" in first else first.split("mine counter **")[1][0]
        st.card, st.card_side = "KS", "chile"  # Chile holds the counter and re-rolls the grounding die
        later = ScriptedDice([2, 1, 1, 1, 1, 1])
        for _ in range(seed_die):  # the shared stream has moved on since (other draws, nonces)
            later.below(1000)
        rs.apply(st, "chile", rs.parse_order(st, "chile", "fow reroll 1"), later)
        replay = " ".join(st.log_tail)
        assert (f"turned over: **{counter}" in replay) if counter == "None" else (f"mine counter **{counter}**" in replay), (counter, replay)
