"""Iron and Fire, modules 11.0 (End Phase) and 12.0 (Victory Points and Winning the Game)."""

from __future__ import annotations

from games.iron_and_fire.state import State
from tests.book.iron_and_fire.book import RS, end_turn, fails, game, in_play, line, place, play, unit
from tests.iron_and_fire.helpers import add_battery


def last_turn(scenario: str = "s1", **where: tuple[str, int]) -> State:
    """``scenario`` in the activations of its last turn with the named units placed."""
    state = game(scenario)
    for uid, (hex_, facing) in where.items():
        place(state, uid, hex_, facing)
    in_play(state, "peru", "KH")
    turns = int(RS.summary(state)[0].split(" of ")[1].split(":")[0])
    state.turn = turns
    return state


def test_the_end_phase_runs_its_steps_in_the_books_order() -> None:
    """11.1: "During the End Phase players do the following: Determine if one side won the game ...
    If a ship contains Critical Hits (Module 10.0), roll to repair or for additional results. Roll
    for Ungrounding a ship (Section 5.3) Conduct Drift Movement (only ships with a 0 MF - Section
    5.4) If not the last turn of the game, advance the Game Turn Marker to the next space and start a
    new turn"; 3.3: "During the End Phase players determine the following" lists the same steps in
    the same order. Huáscar has a steering hit and is grounded; Esmeralda, at 0 MP,
    drifts."""
    state = game("s1")
    place(state, "huascar", "2610", 1)
    place(state, "esmeralda", "1604", 3)
    in_play(state, "peru", "KH")
    u = unit(state, "huascar")
    u.criticals, u.grounded = ["steering"], True
    unit(state, "esmeralda").hits = 3
    out = end_turn(state, seed=2)
    order = [out.index(step) for step in ("End Phase", "Steering repair", "tries to unground", "drifts", "**Turn 2**")]
    assert order == sorted(order)


def test_the_second_joker_starts_the_end_phase() -> None:
    """11.0: "The End Phase usually begins with the drawing of the second Joker." """
    state = game("s1")
    place(state, "huascar", "2610", 1)
    place(state, "esmeralda", "1604", 3)
    in_play(state, "peru", "KH")
    out = end_turn(state)
    assert out.index("Second Joker drawn") < out.index("**End Phase** of turn 1")


def test_fortunes_of_war_never_avoids_a_joker() -> None:
    """11.0: "players may never use Fortunes of War to avoid the Joker card draws." 13.1's redraw is
    for "a just-drawn, non-Joker activation card": at the first Joker the holder may end the phase
    (`fow end`) but not redraw."""
    state = game("s1", fow="on")
    place(state, "huascar", "2610", 1)
    place(state, "esmeralda", "1604", 3)
    in_play(state, "peru", "KH")
    state.deck = ["3S", "JK1"]
    play(state, "peru", "done")
    assert RS.to_act(state) == ["peru"]  # the holder of the Fortunes of War decides at the first Joker
    assert fails(state, "peru", "fow redraw")


def test_the_unground_roll_of_the_end_phase_at_twice_pf_adds_a_hit() -> None:
    """5.1: "If the modified die roll is equal to or greater than twice a ship's Protection Factor,
    the ship remains grounded, cannot move and receives a hit." (ruled: this sentence, printed in
    5.1, is about the ungrounding roll of 5.3). A grounded Esmeralda (PF 3) that rolls 6 or more in
    the End Phase stays grounded and takes a hit."""
    seen = False
    for seed in range(1, 12):
        state = game("s1")
        place(state, "huascar", "2610", 1)
        place(state, "esmeralda", "1604", 3)
        in_play(state, "peru", "KH")
        unit(state, "esmeralda").grounded = True
        out = end_turn(state, seed)
        roll = int(out.split("Esmeralda tries to unground (End Phase): d10 **")[1].split("**")[0])
        if roll >= 6:
            seen = True
            assert unit(state, "esmeralda").hits == 1 and unit(state, "esmeralda").grounded
        elif roll >= 3:
            assert unit(state, "esmeralda").hits == 0 and unit(state, "esmeralda").grounded
        else:
            assert not unit(state, "esmeralda").grounded
    assert seen


# --- 12.0 ------------------------------------------------------------------------------------


def stuck(uid: str, ship_hits: int) -> State:
    """Scenario 1 ended with ``uid`` aground after its End Phase ungrounding roll failed (the first
    game, over a few streams, where it does)."""
    for seed in range(1, 40):
        state = last_turn(huascar=("2610", 1), esmeralda=("1604", 3))
        u = unit(state, uid)
        u.grounded, u.hits = True, ship_hits
        end_turn(state, seed)
        if u.grounded:
            return state
    raise AssertionError(f"{uid} got off every time")


def test_victory_points_for_a_grounded_ship_at_the_last_turn() -> None:
    """12.0: "if neither player achieves their victory condition by the end of the scenario's last
    turn, the victor is determined by the number of Victory Points" and "Each other ship sunk,
    captured, or grounded: VPs equal to 2 x PF." Esmeralda (PF 3) aground at the end of scenario 1:
    6 VP to Peru."""
    result = RS.outcome(stuck("esmeralda", 0))
    assert result is not None and result.winner == "peru"
    assert any("Esmeralda grounded: 2 x PF 3 = 6" in d for d in result.details)


def test_an_ironclad_is_worth_three_times_its_pf() -> None:
    """12.0: "Each Ironclad ship sunk, captured, or grounded: VPs equal to 3 x PF." Huáscar (PF 7)
    aground at the end: 21 VP to Chile."""
    result = RS.outcome(stuck("huascar", 0))
    assert result is not None and result.winner == "chile"
    assert any("Huáscar grounded: 3 x PF 7 = 21" in d for d in result.details)


def test_a_crippled_ship_is_worth_its_pf() -> None:
    """12.0: "Any Crippled Ship: VP equal to PF. Crippled is defined as a ship that sustained a
    number of hits that reduces its MP to 0 and its CF to less than 0 (negative number)." Esmeralda
    (PF 3, CF 1) with 3 hits: MP 0, CF -1: 3 VP to Peru."""
    state = last_turn(huascar=("2610", 1), esmeralda=("1604", 3))
    unit(state, "esmeralda").hits = 3
    state.options["boilers"] = "fixed"
    end_turn(state, seed=1)
    result = RS.outcome(state)
    assert result is not None and result.winner == "peru"
    assert any(d.startswith("Peru 3 VP: Esmeralda") and "crippled" in d.lower() for d in result.details), result.details


def test_a_tie_in_victory_points_is_a_peruvian_victory() -> None:
    """12.0: "The player with the most VPs at the end of the game is declared the winner. A tie
    results in a Peruvian Victory." """
    state = last_turn(huascar=("2610", 1), esmeralda=("1604", 3))
    end_turn(state, seed=1)
    result = RS.outcome(state)
    assert result is not None and result.winner == "peru" and "tie" in result.reason


def test_a_surrendered_battery_is_worth_five_to_peru() -> None:
    """12.0: "5 VP per land battery that surrendered (Peruvian player only)." No scenario with
    batteries ends on victory points (scenarios 3 and 4 have their own winning rules), so a Chilean
    battery is added to scenario 1 for the count."""
    state = last_turn(huascar=("2610", 1), esmeralda=("1604", 3))
    add_battery(state, "1306")
    battery = unit(state, "battery1")
    battery.hits, battery.status = 3, "surrendered"
    end_turn(state, seed=1)
    result = RS.outcome(state)
    assert result is not None and result.winner == "peru"
    assert "Peru 5 VP: Battery 1 surrendered: 5" in result.details


def test_scenario_5_has_no_turn_limit() -> None:
    """15.6.5: "The game has no turn limit." Scenario 5 goes on after its twentieth turn while
    neither side has won."""
    state = game("s5")
    place(state, "huascar", "2610", 1)
    place(state, "almirante_cochrane", "1304", 3)
    in_play(state, "peru", "KH", turn=20)
    end_turn(state)
    assert RS.outcome(state) is None
    assert line(state, "Huáscar")


def test_scenario_5_with_a_chosen_last_turn_ends_on_victory_points() -> None:
    """12.0: "if neither player achieves their victory condition by the end of the scenario's last
    turn, the victor is determined by the number of Victory Points". Scenario 5 has no last turn;
    option ``turns=3`` gives it one (ruling), and then 12.0 decides: 0-0, a tie to Peru."""
    state = game("s5", turns="3")
    place(state, "huascar", "2610", 1)
    place(state, "almirante_cochrane", "1304", 3)
    in_play(state, "peru", "KH", turn=3)
    end_turn(state)
    result = RS.outcome(state)
    assert result is not None and result.winner == "peru" and "the last turn (3) is over" in result.reason
