"""Order-of-battle points (sections 5-6) and staff quality (14.1, 14.3, 19.4 as ruled)."""

from __future__ import annotations

import pytest

from games.core.data import load
from games.core.errors import IllegalOrder, WrongPhase
from games.core.ruleset import UMPIRE
from games.days_of_iron import data as rec
from games.days_of_iron.rules.points_5 import side_points, unit_points
from tests.days_of_iron.helpers import RS, finish_turn, new_game, order, ready_both, start_turn, unit
from tests.scripted import DiceThenStream


def spec(**kw: object) -> rec.UnitSpec:
    base: dict[str, object] = {"id": "u", "name": "U", "type": "infantry", "cls": 1, "stands": 1,
                               "modifiers": (), "gun": "", "light": False}
    base.update(kw)
    return rec.UnitSpec(**base)  # type: ignore[arg-type]


def test_the_books_worked_example_and_point_values() -> None:
    rules = rec.rules()
    # 6.1: a rifle armed 8 stand Class 3 infantry unit: 8 x (3 + 1 Dreyse) = 32 points.
    assert unit_points(spec(cls=3, stands=8, modifiers=("dreyse",)), rules) == 32
    assert unit_points(spec(cls=2, stands=12, modifiers=("chassepot",)), rules) == 48
    assert unit_points(spec(type="cavalry", cls=4, stands=6, modifiers=("cuirassier",)), rules) == 72
    assert unit_points(spec(type="artillery", gun="breech", stands=2, modifiers=("horse-artillery",)), rules) == 120
    assert unit_points(spec(type="artillery", gun="muzzle", stands=3), rules) == 120
    assert unit_points(spec(type="engineer"), rules) == 30
    assert rules.points.staff == {"army": 0, "corps": 40, "division": 40, "brigade": 30}


def test_sample_forces_add_up_and_fit_their_scenarios() -> None:
    for scenario in rec.scenario_ids():
        state, _ = new_game(scenario)
        for side in state.sides:
            total = side_points(state, side.id)
            assert 0 < total <= state.points_limit
    state, _ = new_game("meeting")
    assert side_points(state, "french") == 644 and side_points(state, "prussian") == 634
    assert unit(state, "General Frossard").points == 0 and unit(state, "Laveaucoupet").points == 40
    assert unit(state, "Doëns").points == 30 and unit(state, "8th Jäger").points == 8 * 5


def test_data_files_are_tagged() -> None:
    assert load("days_of_iron/rules.toml").doc["source"] == "book"
    for fid in rec.force_ids():
        assert load(f"days_of_iron/forces/{fid}.toml").doc["source"] == "house"
    for sid in rec.scenario_ids():
        assert load(f"days_of_iron/scenarios/{sid}.toml").doc["source"] == "house"


def test_standard_staff_table_14_1() -> None:
    state, _ = new_game("meeting")
    # French Generals in data order: Laveaucoupet, Doëns, Micheler, Valabrègue.
    events = order(state, "french", "staff", DiceThenStream([1, 2, 5, 6]))
    quality = {u.name: (u.roll, u.quality) for u in state.units if u.side == "french" and u.type == "general"}
    assert quality == {
        "General Frossard": (0, "capable"),  # the player's General is not diced
        "Gen. Laveaucoupet": (1, "inept"),
        "Gen. Doëns": (2, "capable"),
        "Gen. Micheler": (5, "capable"),
        "Gen. de Valabrègue": (6, "exceptional"),
    }
    assert len(events) == 1 and events[0].public and events[0].reveals
    assert "Gen. Laveaucoupet: 1 = Inept" in events[0].text and "(14.1)" in events[0].text
    with pytest.raises(IllegalOrder, match="already rolled"):
        RS.parse_order(state, "french", "staff")


@pytest.mark.parametrize(
    ("nation_force", "faces", "expected"),
    [
        ("prussian-division", [1, 2, 4, 5], ["inept", "capable", "capable", "exceptional"]),
        ("prussian-division", [6, 3, 1, 5], ["exceptional", "capable", "inept", "exceptional"]),
        ("french-division", [1, 2, 3, 6], ["inept", "inept", "capable", "exceptional"]),
        ("french-division", [5, 4, 2, 6], ["capable", "capable", "inept", "exceptional"]),
    ],
)
def test_national_staff_table_19_4_as_ruled(nation_force: str, faces: list[int], expected: list[str]) -> None:
    state, _ = new_game("meeting", staff="national", force1=nation_force)
    order(state, "french", "staff", DiceThenStream(faces))
    diced = [u.quality for u in state.units if u.side == "french" and u.type == "general" and u.rank != "army"]
    assert diced == expected


def test_german_row_has_no_exceptional_generals() -> None:
    table = rec.rules().staff_table("german")
    assert table == {"inept": (1, 2), "capable": (3, 4, 5, 6), "exceptional": ()}


def test_ready_needs_staff_and_staff_ends_with_set_up() -> None:
    state, rng = new_game("meeting")
    with pytest.raises(IllegalOrder, match="staff quality first"):
        RS.parse_order(state, "french", "ready")
    ready_both(state, rng)
    with pytest.raises(WrongPhase, match="`staff` belongs to the set-up"):
        RS.parse_order(state, "french", "staff")


def test_field_promotion_14_3_waits_a_turn_and_rolls_1_3_inept() -> None:
    state, rng = new_game("meeting")
    ready_both(state, rng)
    start_turn(state)
    order(state, UMPIRE, "killed Doëns", rng)  # the measured table loses Generals to rolls; the umpire records it
    with pytest.raises(IllegalOrder, match="after 1 turn"):
        RS.parse_order(state, "french", "promote Doëns")
    finish_turn(state, rng)
    start_turn(state)
    events = order(state, "french", "promote Doëns", DiceThenStream([3]))
    successor = unit(state, "Gen. Doëns's successor")
    assert successor.quality == "inept" and successor.roll == 3 and successor.points == 0
    assert "3 = Inept" in events[0].text
    with pytest.raises(IllegalOrder, match="already has a successor"):
        RS.parse_order(state, "french", "promote Doëns")
    order(state, UMPIRE, "captured Micheler", rng)
    finish_turn(state, rng)
    start_turn(state)
    order(state, "french", "promote Micheler", DiceThenStream([4]))
    assert unit(state, "Gen. Micheler's successor").quality == "capable"
    with pytest.raises(IllegalOrder, match="not replaced"):
        order(state, UMPIRE, "killed Frossard", rng)
        RS.parse_order(state, "french", "promote Frossard")
