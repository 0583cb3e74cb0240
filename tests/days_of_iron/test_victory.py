"""Losses and the end of the battle: points lost and the margin of 18.2, objectives, shattered units."""

from __future__ import annotations

import pytest

from games.days_of_iron import data as rec
from games.days_of_iron.rules.victory_18 import lost_halves, margin, side_lost_halves
from games.days_of_iron.state import State
from tests.days_of_iron.helpers import RS, finish_turn, new_game, order, ready_both, start_turn, unit


def playing(scenario: str = "meeting", french_first: bool = True, **options: str) -> State:
    """A game of the table assistant (board=tape): losses and objectives recorded by hand (on the
    measured table the table decides them: test_victory_measured.py)."""
    state, rng = new_game(scenario, **{"board": "tape", **options})
    ready_both(state, rng)
    start_turn(state, french_first=french_first)
    return state


def test_losses_shatter_infantry_at_two_stands_and_cavalry_at_one() -> None:
    state = playing()
    _, rng = new_game()
    events = order(state, "french", "loss 2e de Ligne 9", rng)
    assert unit(state, "2e de Ligne").stands == 3 and unit(state, "2e de Ligne").status == "on table"
    assert "9 stands (3/12 left)" in events[0].text
    events = order(state, "french", "loss 2e de Ligne 1", rng)
    assert unit(state, "2e de Ligne").status == "shattered" and "17.5.8" in events[0].text
    order(state, "french", "loss 4e Chasseurs 5", rng)
    assert unit(state, "4e Chasseurs").status == "shattered"
    order(state, "french", "loss 7e Batterie 2", rng)
    assert unit(state, "7e Batterie").status == "destroyed"
    events = order(state, "french", "loss Micheler 1", rng)
    assert unit(state, "Micheler").status == "killed" and "Casualties to Staff" in events[0].text


def test_points_lost_full_half_and_none() -> None:
    state = playing()
    _, rng = new_game()
    order(state, "prussian", "loss 74th 6", rng)  # 6/12 left: not under half, nothing lost
    assert lost_halves(unit(state, "74th")) == 0
    order(state, "prussian", "loss 74th 1", rng)  # 5/12: under half strength -> half of 48
    assert lost_halves(unit(state, "74th")) == 48
    order(state, "prussian", "rout 77th", rng)  # routing -> half of 36
    assert lost_halves(unit(state, "77th")) == 36
    order(state, "prussian", "rally 77th", rng)
    assert lost_halves(unit(state, "77th")) == 0
    order(state, "prussian", "surrender 40th", rng)  # full 36
    order(state, "prussian", "routed-off 8th Jäger", rng)  # full 40
    order(state, "prussian", "captured Woyna", rng)  # a captured General counts as a loss (14.5): 30
    assert side_lost_halves(state, "prussian") == 2 * (24 + 36 + 40 + 30)
    assert "lost 130" in "\n".join(RS.view(state, None).status)


@pytest.mark.parametrize(
    ("lost", "result"),
    [(0, "Draw"), (150, "Draw"), (151, "Minor Victory"), (250, "Minor Victory"), (251, "Major Victory"),
     (400, "Major Victory"), (401, "Massacre")],
)
def test_margin_bands_of_18_2(lost: int, result: str) -> None:
    state = playing()
    for u in state.units:  # one synthetic loss of exactly `lost` points on the Prussian side
        if u.id == "74th":
            u.points, u.status = lost, "destroyed"
    m = margin(state, rec.rules(), scaled=False)
    assert m.result == result and m.difference_halves == 2 * lost
    assert m.leader == ("french" if lost else "")


def test_scaled_margin_for_a_400_point_game() -> None:
    state = playing("outpost")
    assert state.options["margin"] == "scaled"
    assert margin(state, rec.rules(), scaled=True).thresholds == (75, 125, 200)


def test_points_victory_at_the_end() -> None:
    state = playing()
    _, rng = new_game()
    order(state, "prussian", "destroyed 1st Heavy", rng)  # 100
    order(state, "prussian", "destroyed 2nd Light", rng)  # 100: 200 in all -> Minor Victory
    finish_turn(state, rng)
    order(state, "french", "end", rng)
    order(state, "prussian", "end", rng)
    outcome = RS.outcome(state)
    assert outcome is not None and outcome.winner == "french"
    assert "Minor Victory for the French" in outcome.reason
    assert any("Prussians: lost 200 of 634 points" in d for d in outcome.details)
    assert any("the French lost 200 points fewer: Minor Victory" in d for d in outcome.details)


def test_objective_battle_18_2() -> None:
    state = playing("spicheren", french_first=False)
    _, rng = new_game()
    assert state.options["victory"] == "objectives"
    order(state, "prussian", "objective Rotherberg prussian", rng)
    order(state, "prussian", "objective Stiring prussian", rng)
    order(state, "french", "destroyed 7e Batterie", rng)
    finish_turn(state, rng)
    status = "\n".join(RS.view(state, None).status)
    assert "Rotherberg - Prussians" in status and "Forbach station - French" in status
    order(state, "umpire", "end", rng)
    outcome = RS.outcome(state)
    assert outcome is not None and outcome.winner is None  # both achieved theirs: a draw
    assert "Both sides achieved" in outcome.reason


def test_objective_win_when_one_side_takes_all_and_denies_the_other() -> None:
    state = playing("spicheren", french_first=False)
    _, rng = new_game()
    for name in ("Rotherberg", "Stiring works", "Forbach station"):
        order(state, "prussian", f"objective {name} prussian", rng)
    order(state, "umpire", "objective Stiring works none", rng)
    order(state, "umpire", "objective Stiring works prussian", rng)
    finish_turn(state, rng)
    order(state, "umpire", "end", rng)
    outcome = RS.outcome(state)
    assert outcome is not None and outcome.winner == "prussian"
    assert outcome.reason.endswith("The Prussians took their objectives; the French took none of theirs.")


def test_neither_side_achieving_is_a_draw_and_points_mode_can_be_chosen() -> None:
    state = playing("spicheren", french_first=False)
    _, rng = new_game()
    order(state, "prussian", "objective Forbach prussian", rng)
    order(state, "umpire", "end", rng)
    outcome = RS.outcome(state)
    assert outcome is not None and outcome.winner is None and "Neither side" in outcome.reason
    state = playing("spicheren", victory="points")
    order(state, "umpire", "end", rng)
    outcome = RS.outcome(state)
    assert outcome is not None and "Draw on points lost" in outcome.reason
