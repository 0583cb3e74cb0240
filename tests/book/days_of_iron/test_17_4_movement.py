"""Book 17.4 (the Movement phase: the 2nd Impulse and contact, formation changes, feints and
routers), checked sentence by sentence on the measured table."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from games.days_of_iron.state import DESTROYED, ROUTING
from tests.book.days_of_iron.table import piece, place, table, text_of, to_step
from tests.days_of_iron.helpers import RS, order
from tests.scripted import DiceThenStream


def test_17_4_12_class_1_troops_may_not_end_the_phase_short_of_a_declared_charge() -> None:
    """17.4.12: "If a feint charge is declared, the unit that declared the charge can not make any
    further movements during the same turn. Class 1 troops cannot make feint charges." Saying
    `next` with a Class 1 charge still short of its target is a feint by another name. RULING
    (RULINGS.md 17.4.12): the side's `next` is refused until the Class 1 unit charges home."""
    state, _ = table()
    forty = place(state, "40e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 23.0, 180.0)  # 6" apart
    order(state, "french", "40e de Ligne charge 74th", DiceThenStream([6] * 20))
    to_step(state, "Movement", DiceThenStream([6] * 40))
    assert forty.charging
    with pytest.raises(IllegalOrder, match=r"17\.4\.12"):
        RS.parse_order(state, "french", "next")
    with pytest.raises(IllegalOrder, match="Class 1 troops cannot make feint charges"):
        RS.parse_order(state, "french", "40e de Ligne feint")


def test_17_4_2_a_half_inch_corner_touch_is_not_contact() -> None:
    """17.4.2: "A unit needs to make base-to-base contact with 1" or more of an enemy unit to be
    'in contact'." Two lines 12" wide touching front to front over 0.5" fight no close assault;
    over 2" they do."""
    for overlap, fights in ((0.5, False), (2.0, True)):
        state, _ = table()
        place(state, "2e de Ligne", 36.0, 30.0, 0.0)
        place(state, "74th", 36.0 + 12.0 - overlap, 29.0, 180.0)
        said = text_of(to_step(state, "Close Assault", DiceThenStream([4] * 40)))
        assert ("2e de Ligne" in said and "74th" in said and "Close assault" in said) is fights, (overlap, said)


def test_17_4_15_a_router_clipping_half_an_inch_of_an_enemy_is_not_dispersed() -> None:
    """17.4.15: "If a routing unit is forced into contacting an enemy unit it will be dispersed and
    removed from play. Note: if less than 1" base contact, no 'contact' is deemed to take place."
    The 2e (a line, x 30-42) routs straight down the table past the 74th's column; clipping 0.5" of
    it, the 2e routs on; running 2" into it, the 2e is dispersed."""
    for clip, dispersed in ((0.5, False), (2.0, True)):
        state, rng = table()
        ligne = place(state, "2e de Ligne", 36.0, 20.0, 0.0)
        ligne.status, ligne.rout_bearing, ligne.rout_turn = ROUTING, 180.0, 1
        place(state, "74th", 42.0 - clip + 1.5, 24.0, 90.0, "column")  # 3" deep along x, 4" wide along y
        said = text_of(to_step(state, "Movement", rng))
        assert ("dispersed" in said) is dispersed, (clip, said)
        assert (ligne.status == DESTROYED) is dispersed


def test_17_4_7_only_one_formation_change_a_turn() -> None:
    """17.4.7: "Units can make only one formation change a turn." """
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    order(state, "french", "2e de Ligne form line", rng)
    with pytest.raises(IllegalOrder, match=r"17\.4\.7"):
        RS.parse_order(state, "french", "2e de Ligne form column")


def test_17_4_7_no_formation_change_in_a_heavy_wood_but_in_a_light_wood() -> None:
    """17.4.7: "A unit may change formation in a light wood or urban area but not in a heavy wood." """
    state, rng = table()
    piece(state, "heavy-wood", "Bois de Forbach", 26.0, 24.0, 46.0, 36.0)
    piece(state, "light-wood", "Gifertwald", 50.0, 24.0, 70.0, 36.0)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "column")
    place(state, "63e de Ligne", 60.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match=r"17\.4\.7"):
        RS.parse_order(state, "french", "2e de Ligne form skirmish")
    RS.parse_order(state, "french", "63e de Ligne form skirmish")


def test_17_4_10_a_failed_charge_home_halts_2_inches_in_front() -> None:
    """17.4.10: "If the charging unit fails the test they are halted 2\" in front of their intended
    target and can not make any other movements or formation changes." """
    state, _ = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 23.0, 180.0)  # 6" apart: the 1st Impulse leaves 3"
    order(state, "french", "2e de Ligne charge 74th", DiceThenStream([6] * 20))
    to_step(state, "Movement", DiceThenStream([6] * 40))
    order(state, "french", "2e de Ligne charge home", DiceThenStream([1]))
    assert 29.5 - ligne.y + 0.5 == pytest.approx(6.0 - 2.0)  # its front edge 2" from the 74th's
    assert not ligne.charging
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "french", "2e de Ligne move 1")
    with pytest.raises(IllegalOrder):
        RS.parse_order(state, "french", "2e de Ligne form column")
