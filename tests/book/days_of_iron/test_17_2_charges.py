"""Book 17.2 (the Morale phase: declared charges, the 1st Impulse, going to ground) and 12.3
(skirmishers may not charge formed units), checked sentence by sentence on the measured table."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from games.days_of_iron.state import STEPS
from tests.book.days_of_iron.table import place, table, text_of, to_step
from tests.days_of_iron.helpers import RS, order, unit
from tests.scripted import DiceThenStream


def test_17_2_2_the_to_charge_test_waits_until_every_charge_is_declared() -> None:
    """17.2.2: "The non-initiative player can use the same procedure to declare all his charges.
    Once all charges are declared, the players use the To Charge table to determine whether the
    declared unit charges." The initiative player's declaration rolls nothing and moves nothing;
    the tests and 1st Impulses come once the non-initiative player has declared too."""
    state, _ = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 24.0, 180.0)  # 5" apart, edge to edge
    y = ligne.y
    events = order(state, "french", "2e de Ligne charge 74th", DiceThenStream([6] * 20))
    assert ligne.y == y, "the 1st Impulse was made before the other side declared"
    assert "1d6" not in text_of(events), "the To Charge test was rolled before the other side declared"
    order(state, "french", "next", DiceThenStream([6] * 20))
    assert ligne.y == y and STEPS[state.step] == "Morale"  # the Prussians may still declare
    order(state, "prussian", "next", DiceThenStream([6] * 20))
    assert ligne.y < y, "once every charge is declared the passed charge makes its 1st Impulse"


def test_17_2_3_the_1st_impulse_goes_over_a_quarter_and_up_to_halfway_to_the_target() -> None:
    """17.2.3: "The 1st Impulse allows the charging unit to wheel or change formation and advance
    to a point that is over a quarter but up to halfway to the target unit." RULING (RULINGS.md
    17.2.3): the bot advances the charger halfway, the most the book allows. 4" apart, the line's
    own half move (3") would overshoot the half-way point (2")."""
    state, _ = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 25.0, 180.0)  # the 74th's front edge at y 25.5, the 2e's at 29.5: 4"
    order(state, "french", "2e de Ligne charge 74th", DiceThenStream([6] * 20))
    to_step(state, "Shooting", DiceThenStream([6] * 40))
    moved = 30.0 - ligne.y
    assert 1.0 < moved <= 2.0 + 1e-6, f"the 1st Impulse moved {moved:g}\" of the 4\" to the target"
    assert moved == pytest.approx(2.0)


def test_12_3_skirmishers_cannot_charge_into_contact_with_formed_units() -> None:
    """12.3: "Skirmishers cannot charge into contact with formed units. They can only charge and
    perform Close Assaults on routing units, other skirmishers and artillery troops." """
    state, _ = table()
    place(state, "10e Chasseurs à pied", 36.0, 30.0, 0.0, "skirmish")
    place(state, "74th", 36.0, 25.0, 180.0, "line")
    with pytest.raises(IllegalOrder, match=r"12\.3"):
        RS.parse_order(state, "french", "10e Chasseurs à pied charge 74th")
    unit(state, "74th").formation = "skirmish"  # other skirmishers may be charged
    RS.parse_order(state, "french", "10e Chasseurs à pied charge 74th")


def test_17_2_9_infantry_may_go_to_ground_voluntarily() -> None:
    """17.2.9: "Infantry units may voluntarily go to ground if they choose but must make morale
    checks to move from this state." RULING (RULINGS.md 17.2.9): `UNIT go to ground`, infantry
    only, in its side's own part of the Movement phase instead of moving; it then rallies as any
    unit gone to ground does."""
    state, rng = table()
    ligne = place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    to_step(state, "Movement", rng)
    events = order(state, "french", "2e de Ligne go to ground", rng)
    assert ligne.ground and "17.2.9" in text_of(events)
    with pytest.raises(IllegalOrder):  # gone to ground, it may not move until it rallies
        RS.parse_order(state, "french", "2e de Ligne move 2")
    place(state, "4e Chasseurs à cheval", 50.0, 30.0, 0.0)
    with pytest.raises(IllegalOrder, match=r"17\.2\.9"):
        RS.parse_order(state, "french", "4e Chasseurs à cheval go to ground")


def test_17_2_4_infantry_charge_once_never_at_horse_and_artillery_never_charges() -> None:
    """17.2.4: "Infantry and irregular units can only attempt to charge once a turn. Infantry cannot
    charge mounted troops. Artillery cannot charge." """
    state, rng = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0)
    place(state, "74th", 36.0, 24.0, 180.0)
    place(state, "2nd Hussars", 20.0, 24.0, 180.0)
    place(state, "7e Batterie", 52.0, 30.0, 0.0)
    with pytest.raises(IllegalOrder, match=r"17\.2\.4"):
        RS.parse_order(state, "french", "2e de Ligne charge 2nd Hussars")
    with pytest.raises(IllegalOrder, match=r"17\.2\.4"):
        RS.parse_order(state, "french", "7e Batterie charge 74th")
    order(state, "french", "2e de Ligne charge 74th", rng)
    with pytest.raises(IllegalOrder, match=r"once a turn"):
        RS.parse_order(state, "french", "2e de Ligne charge 74th")
