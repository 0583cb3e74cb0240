"""Engineers attached to units (17.3.5, 17.5.7): the book gives staff and engineers the same place
beside a unit. "If Staff or engineers are attached to a unit, and that unit comes under fire or is in
Close Assault, an extra and separate 1d6 is rolled ... Staff or engineers do not test morale for any
hits received. However, if they are attached to a unit that routs they will also rout." Before, only
a General could attach (`only a General attaches`)."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from games.core.geometry import polygon_distance
from games.days_of_iron.rules import formations_12, staff_14
from games.days_of_iron.state import ROUTING, STEPS, Unit
from tests.book.days_of_iron.table import piece, place, table, text_of, to_step
from tests.days_of_iron.helpers import RS, order, unit
from tests.scripted import DiceThenStream


def _attached() -> tuple:  # type: ignore[type-arg]
    """The Génie detachment attached to the 2e de Ligne (in line, facing north) in turn 1's Movement phase."""
    state, rng = table()
    line = place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    engineer = place(state, "Génie detachment", 36.0, 32.0, 0.0, "column")
    to_step(state, "Movement", rng)
    while RS.to_act(state)[0] != "french":
        order(state, RS.to_act(state)[0], "next", rng)
    said = text_of(order(state, "french", "Génie detachment attach 2e de Ligne", rng))
    return state, rng, line, engineer, said


def _touching(a: Unit, b: Unit) -> bool:
    return polygon_distance(formations_12.base(a).polygon(), formations_12.base(b).polygon()) < 0.1


def test_17_3_5_an_engineer_attaches_to_a_unit_and_moves_with_it() -> None:
    """17.5.7: "If Staff and Engineer stands are attached, i.e. in contact with, a unit". `ENGINEER
    attach UNIT` puts the Génie against the 2e's rear; it is carried when the 2e moves and is offered
    `detach`; an infantry unit cannot attach."""
    state, rng, line, engineer, said = _attached()
    assert engineer.attached == "2e-ligne" and "shares its risks" in said, said
    assert _touching(engineer, line)
    assert "french-engineers detach" in {o.text for o in RS.legal_orders(state, "french")}
    order(state, "french", "2e de Ligne move 2", rng)
    assert _touching(engineer, line) and engineer.y < 32.0
    with pytest.raises(IllegalOrder, match="only a General or an engineer attaches"):
        RS.parse_order(state, "french", "24e de Ligne attach 2e de Ligne")


def test_17_3_5_an_attached_engineer_rolls_when_the_unit_is_shot_and_routs_with_it() -> None:
    """17.3.5: an attached engineer rolls "an extra and separate 1d6" when the unit comes under fire
    (a 6: a roll on the Casualties to Staff table), and "if they are attached to a unit that routs
    they will also rout"."""
    state, rng = table()
    line = place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    engineer = place(state, "Génie detachment", 36.0, 32.0, 0.0, "column")
    engineer.attached = line.id  # stood against its rear, as `attach` leaves it
    staff_14.carry(state, line)
    place(state, "74th", 36.0, 24.0, 180.0)
    to_step(state, "Shooting", rng)
    while RS.to_act(state)[0] != "prussian":
        order(state, RS.to_act(state)[0], "next", rng)
    order(state, "prussian", "74th fire at 2e de Ligne", DiceThenStream([6, 6] + [1] * 40))  # 2 H
    said = ""
    while STEPS[state.step] == "Shooting" and state.phase == "turn":
        said += text_of(order(state, RS.to_act(state)[0], "next", DiceThenStream([3] * 40)))
    assert "Génie detachment (attached): 1d6 = 3, unhurt (17.3.5)" in said, said
    said = text_of(order(state, "umpire", "rout 2e de Ligne", rng))
    assert engineer.status == ROUTING and "Génie detachment, attached to 2e de Ligne, routs with it" in said, said


def test_17_3_5_an_unattached_engineer_hit_rolls_on_the_staff_casualties_table() -> None:
    """17.3.5: "If unattached engineers or staff stands are hit by small arms fire ... then a 1d6 is
    rolled to determine the effect for every hit received on the Casualties to Staff Table." Before,
    its one stand simply came off; now each hit is a roll on that table (here one says lost)."""
    state, rng = table()
    engineer = place(state, "Génie detachment", 36.0, 30.0, 0.0, "column")
    place(state, "74th", 36.0, 26.0, 180.0)
    to_step(state, "Shooting", rng)
    while RS.to_act(state)[0] != "prussian":
        order(state, RS.to_act(state)[0], "next", rng)
    order(state, "prussian", "74th fire at Génie detachment", DiceThenStream([6] * 40))
    said = ""
    while STEPS[state.step] == "Shooting" and state.phase == "turn":
        said += text_of(order(state, RS.to_act(state)[0], "next", rng))
    assert "Génie detachment hit" in said and "Casualties to staff" in said, said
    assert "(lost)" in said and engineer.stands == 0


def test_17_3_5_a_wounded_engineer_cannot_work_until_the_wound_is_past() -> None:
    """RULING (RULINGS.md 17.3.5): the Casualties to Staff table's wounds ("no command for 2 turns")
    keep a wounded engineer from working for those turns; unhurt, he clears the wall."""
    for wounded in (True, False):
        state, rng = table()
        piece(state, "wall", "the wall", 30.0, 29.0, 42.0, 29.5)
        engineer = place(state, "Génie detachment", 36.0, 30.5, 0.0, "column")
        if wounded:
            staff_14.staff_casualty(state, engineer, "wounded: no command for 2 turns")
        to_step(state, "Movement", rng)
        while RS.to_act(state)[0] != "french":
            order(state, RS.to_act(state)[0], "next", rng)
        if wounded:
            with pytest.raises(IllegalOrder, match="wounded"):
                RS.parse_order(state, "french", "Génie detachment clear the wall")
        else:
            RS.parse_order(state, "french", "Génie detachment clear the wall")


def test_17_5_7_an_isolated_engineer_contacted_is_a_casualty() -> None:
    """17.5.7: "If the staff and engineers are contacted when isolated then they *automatically*
    become casualties." The Génie detachment alone with the 74th against it is taken at the Close
    Assault (before, it fought a melee as a unit)."""
    state, rng = table()
    engineer = place(state, "Génie detachment", 36.0, 30.0, 0.0, "column")
    place(state, "74th", 36.0, 29.0, 180.0)  # its front edge (y 29.5) against the engineer's
    assert formations_12.in_contact(engineer, unit(state, "74th"))
    said = text_of(to_step(state, "Close Assault", rng))
    while STEPS[state.step] == "Close Assault" and state.phase == "turn":
        said += text_of(order(state, RS.to_act(state)[0], "next", rng))
    assert "Génie detachment, isolated, is contacted by 74th" in said and engineer.status == "captured", said
