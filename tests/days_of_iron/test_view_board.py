"""The measured table as the board draws it: Generals as commanders' discs, the scenario's objective
points as flags in the holder's colour, the deployment zones only while the sides set up, and a
name on every counter that no other counter on the same board shares."""

from __future__ import annotations

import re

import pytest

from games.core.ruleset import UMPIRE
from games.days_of_iron import data
from games.days_of_iron.state import HIDDEN, SETUP, State, Unit
from games.days_of_iron.view import board_labels, short_label
from tests.days_of_iron.helpers import RS, new_game, order, ready_both, unit

SCENARIOS = data.scenario_ids()


def seats(state: State) -> list[str | None]:
    return [None, UMPIRE, *(s.id for s in state.sides)]


def test_generals_are_drawn_as_generals_and_troops_as_units() -> None:
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    kinds = {c.id: c.kind for c in RS.view(state, None).counters}
    for u in state.units:
        assert kinds[u.id] == ("general" if u.type == "general" else "unit"), u.name
    assert kinds[unit(state, "Frossard").id] == "general"


def test_objective_points_are_flags_in_the_holders_colour() -> None:
    state, rng = new_game("spicheren", scouting="no")
    ready_both(state, rng)
    for seat in seats(state):
        flags = {c.label: c for c in RS.view(state, seat).counters if c.kind == "objective"}
        assert set(flags) == {"Rotherberg", "Stiring works", "Forbach station"}
        assert flags["Rotherberg"].pos == (37.0, 18.0) and flags["Rotherberg"].side == "french"
        assert flags["Forbach station"].pos == (62.0, 44.0)
    next(o for o in state.objectives if o.name == "Rotherberg").held_by = ""  # nobody holds it
    flags = {c.label: c for c in RS.view(state, None).counters if c.kind == "objective"}
    assert flags["Rotherberg"].side == ""  # drawn neutral: no side's colour
    next(o for o in state.objectives if o.name == "Stiring works").held_by = "prussian"
    flags = {c.label: c for c in RS.view(state, None).counters if c.kind == "objective"}
    assert flags["Stiring works"].side == "prussian"


def test_objectives_without_a_point_or_on_a_tape_board_are_not_drawn() -> None:
    state, rng = new_game("spicheren", scouting="no", board="tape")
    ready_both(state, rng)
    assert RS.view(state, None).counters == ()
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    assert not [c for c in RS.view(state, None).counters if c.kind == "objective"]


def test_deployment_zones_leave_the_measured_table_when_the_set_up_is_over() -> None:
    """On the measured table the units stand where they were set out; a tape board (nothing drawn
    on it) keeps its zones, so its picture does not change and is not posted again."""
    for board in ("measured", "tape"):
        state, rng = new_game("meeting", scouting="no", board=board)
        assert state.phase == SETUP
        assert [z.side for z in RS.view(state, None).zones] == ["french", "prussian"]
        ready_both(state, rng)
        assert state.phase != SETUP
        for seat in seats(state):
            assert len(RS.view(state, seat).zones) == (0 if board == "measured" else 2), (board, seat)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_no_two_counters_on_a_board_share_a_label(scenario: str) -> None:
    state, rng = new_game(scenario, scouting="no")
    ready_both(state, rng)
    for seat in seats(state):
        labels = [c.label for c in RS.view(state, seat).counters]
        assert labels and len(labels) == len(set(labels)), (scenario, seat, labels)


def test_the_two_bothmers_of_the_outpost_are_told_apart() -> None:
    state, rng = new_game("outpost", scouting="no")
    ready_both(state, rng)
    labels = {c.id: c.label for c in RS.view(state, None).counters}
    colonel, general = unit(state, "Colonel von Bothmer"), unit(state, "Gen. von Bothmer")
    assert labels[colonel.id] == "Col. Bothmer" and labels[general.id] == "Gen. Bothmer"
    assert labels[unit(state, "Schmidt").id] == "Schmidt"  # a name nobody shares stays short


def test_a_hidden_unit_never_changes_the_labels_others_see() -> None:
    """Labels are made unique among the counters a seat sees: a hidden General sharing a surname
    renames nothing on the other side's board (that would betray him)."""
    state, rng = new_game("outpost", scouting="no")
    general = unit(state, "Gen. von Bothmer")
    order(state, "prussian", "hide Gen. von Bothmer at 30 6", rng)  # x y on the measured table
    ready_both(state, rng)
    assert general.status == HIDDEN
    colonel = unit(state, "Colonel von Bothmer")
    for seat in (None, "french"):
        labels = {c.id: c.label for c in RS.view(state, seat).counters}
        assert general.id not in labels and labels[colonel.id] == "Bothmer"
    own = {c.id: c.label for c in RS.view(state, "prussian").counters}
    assert own[colonel.id] == "Col. Bothmer" and own[general.id] == "Gen. Bothmer"


def test_shortened_names_end_in_a_full_stop_only_where_a_word_was_cut() -> None:
    state, _ = new_game("meeting", scouting="no")
    assert short_label(unit(state, "1st Heavy Battery")) == "1st Heavy"
    assert short_label(unit(state, "2nd Light Battery")) == "2nd Light"
    assert short_label(unit(state, "10e Chasseurs à pied")) == "10e Chass."
    assert short_label(unit(state, "7e Batterie (4-pdr)")) == "7e Batt."  # was "7e Batte."
    for scenario in SCENARIOS:
        state, _ = new_game(scenario, scouting="no")
        for u in state.units:
            label = short_label(u)
            cut = re.search(r"(\S+)\.$", label)
            if cut:  # the stop marks a word cut short: a longer word of the name starts with it
                stem = cut.group(1)
                assert any((w.startswith(stem) and len(w) > len(stem)) or w == cut.group(0)
                           for w in u.name.split()), (u.name, label)


def test_labels_lengthen_only_as_far_as_they_must() -> None:
    def general(uid: str, name: str, rank: str) -> Unit:
        return Unit(id=uid, name=name, side="french", brigade="", type="general", rank=rank)

    twins = [general("a", "General Smith", "army"), general("b", "General Smith", "brigade"),
             general("c", "Gen. Smith", "brigade"), general("d", "Gen. Jones", "division")]
    assert board_labels(twins, set()) == {"a": "General Smith (army)", "b": "General Smith (brigade)",
                                          "c": "Gen. Smith", "d": "Jones"}
    same = [general("a", "Gen. Smith", "brigade"), general("b", "Gen. Smith", "brigade")]
    assert board_labels(same, set()) == {"a": "Gen. Smith [a]", "b": "Gen. Smith [b]"}  # nothing but the id tells
    assert board_labels([general("d", "Gen. Jones", "division")], {"Jones"}) == {"d": "Gen. Jones"}  # an objective's name


def test_a_piece_named_like_an_objective_leaves_the_name_to_the_flag() -> None:
    """Spicheren's Rotherberg is both a high hill and an objective: one name on the board, the
    flag's (the piece is captioned by its kind); other pieces keep their names."""
    state, rng = new_game("spicheren", scouting="no")
    ready_both(state, rng)
    view = RS.view(state, None)
    captions = [t.label for t in view.board.table_terrain[1:]]
    flags = {c.label for c in view.counters if c.kind == "objective"}
    assert not flags & set(captions) and "High hill" in captions and "Gifert wood" in captions
    assert {t.name for t in state.terrain} >= {"Rotherberg", "Stiring works"}  # the pieces keep their names
