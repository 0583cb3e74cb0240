"""Play findings of issue 21 about shooting and its results (F8, F9, F14, F15): each test quotes the book and
fails on the rules as they were when the finding was made (the findings list is in the issue's report)."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from games.core.ruleset import legal_texts
from games.days_of_iron.rules import routing_17_4_14, shooting_17_3
from games.days_of_iron.state import ROUTING, State, Unit
from tests.book.days_of_iron.table import place, table, text_of, to_step
from tests.days_of_iron.helpers import RS, finish_turn, order, start_turn
from tests.scripted import DiceThenStream


def _batteries_exchange(damage: int, *, small_arms: bool = False) -> tuple[State, Unit, str]:
    """Turn 1's Shooting phase: the French fire at the 1st Heavy Battery (Krupp) 4" away, every die
    a 6 (the 7e Batterie, or the 2e de Ligne's small arms), and every roll on the Damage to
    Artillery chart is ``damage``. Returns the state in the Movement phase, the battery and the
    end-of-phase text."""
    state, rng = table()
    place(state, "2e de Ligne" if small_arms else "7e Batterie", 36.0, 30.0, 0.0, "line")
    battery = place(state, "1st Heavy Battery (Krupp)", 36.0, 25.75, 180.0, "line")
    to_step(state, "Shooting", rng)
    firer = "2e de Ligne" if small_arms else "7e Batterie"
    order(state, "french", f"{firer} fire at 1st Heavy Battery", DiceThenStream([6] * 40))
    hits = battery.pending_hits
    assert hits >= 1
    order(state, "french", "next", rng)
    text = text_of(order(state, "prussian", "next", DiceThenStream([damage] * hits)))
    return state, battery, text


def _status(state: State) -> str:
    return "\n".join(RS.view(state, "french").status)


def test_17_3_5_a_crew_hit_fires_at_half_effect_until_the_next_shooting_phase_ends() -> None:
    """17.3.5: "When artillery is hit by shooting, roll on the Damage to Artillery Table." The house
    table's 1-3 reads "crew hit: the gun fires at half effect"; in play (meeting, turn 3) the 8e
    Batterie's crews were hit and it fired next turn with all its dice, nothing halved. Now the
    battery records its hit crews, the status shows them, its next Shooting phase's fire counts
    half the H of those guns, and the mark is gone once that phase ends."""
    state, battery, text = _batteries_exchange(1)
    assert "crew hit: the gun fires at half effect until the next Shooting phase ends" in text
    assert battery.crew_hit == 2 and battery.stands == 2
    assert "Damaged batteries: 1st Heavy Battery (Krupp) 2 guns at half effect" in _status(state)
    finish_turn(state, DiceThenStream([6] * 40))
    start_turn(state, french_first=False)
    to_step(state, "Shooting", DiceThenStream([6] * 40))
    target = place(state, "7e Batterie", 36.0, 30.0, 0.0, "line")
    sound = Unit(**{**battery.__dict__, "crew_hit": 0})
    full, _ = shooting_17_3.volley(state, sound, target, DiceThenStream([6] * 4))
    half, said = shooting_17_3.volley(state, battery, target, DiceThenStream([6] * 4))
    assert full >= 2 and half == full // 2 and "2 guns with crew hit at half effect" in said
    order(state, "prussian", "1st Heavy Battery fire at 7e Batterie", DiceThenStream([6] * 4))
    assert target.pending_hits == half
    to_step(state, "Movement", DiceThenStream([6] * 40))
    assert battery.crew_hit == 0 and "Damaged batteries" not in _status(state)


def test_17_3_5_a_battery_that_lost_its_limber_team_cannot_limber() -> None:
    """17.3.5: "When artillery is hit by shooting, roll on the Damage to Artillery Table." The house
    table's 4-5 reads "limber or team lost: the battery cannot limber"; in play the text was posted
    and nothing followed. Now the battery is marked, the status says so and `form column` (limbering)
    is refused; without the loss it limbers."""
    state, battery, text = _batteries_exchange(4)
    assert "limber or team lost: the battery cannot limber" in text and battery.team_lost
    assert "limber team lost: it cannot limber" in _status(state)
    to_step(state, "Movement", DiceThenStream([6] * 40))
    order(state, "french", "next", DiceThenStream([6] * 40))
    with pytest.raises(IllegalOrder, match="lost its limber team"):
        RS.parse_order(state, "prussian", "1st Heavy Battery form column")
    battery.team_lost = False
    RS.parse_order(state, "prussian", "1st Heavy Battery form column")


def test_17_3_5_a_limbered_battery_that_lost_its_team_cannot_move_until_it_unlimbers() -> None:
    """17.3.5, the house chart's "limber or team lost" on a battery already limbered (RULINGS.md
    17.3.5): with no horses its limbered guns cannot be pulled, so `move` is refused (and not offered)
    until it unlimbers where it stands with `form line`; with its team it moves."""
    state, battery, _ = _batteries_exchange(4)
    to_step(state, "Movement", DiceThenStream([6] * 40))
    order(state, "french", "next", DiceThenStream([6] * 40))
    battery.formation = "column"  # it was limbered when the team was lost
    with pytest.raises(IllegalOrder, match="no horses"):
        RS.parse_order(state, "prussian", "1st Heavy Battery move 0 wheel left 45")
    assert not [t for t in legal_texts(RS, state, "prussian") if t.startswith(("1st-heavy move", "1st-heavy turn"))]
    with pytest.raises(IllegalOrder, match="no horses"):  # a turn is a move too (play-test: it was accepted)
        RS.parse_order(state, "prussian", "1st Heavy Battery turn left")
    assert "limber team lost: it cannot move until it unlimbers" in _status(state)
    RS.parse_order(state, "prussian", "1st Heavy Battery form line")
    battery.team_lost = False
    RS.parse_order(state, "prussian", "1st Heavy Battery move 0 wheel left 45")
    assert [t for t in legal_texts(RS, state, "prussian") if t.startswith("1st-heavy move")]


def test_17_3_5_small_arms_on_a_battery_say_a_gun_destroyed_was_a_crew_hit() -> None:
    """17.3.5: "Small arms fire may only kill crew or horses and will not damage the guns
    themselves." In play (outpost, turn 3) the post ran two texts together: "6: gun destroyed:
    remove one gun model from small arms: crew and horses only, never a gun (17.3.5)", which reads
    as a gun removed. Now each such roll says it was a crew hit instead, and it is one."""
    _, battery, text = _batteries_exchange(6, small_arms=True)
    assert battery.stands == 2
    assert "remove one gun model" not in text
    assert "6: gun destroyed - but small arms never destroy a gun (17.3.5): a crew hit instead" in text
    assert battery.crew_hit == 2


def test_17_3_4_the_stands_with_a_clear_line_fire() -> None:
    """17.3.4: "Units are Endangered if any part of their stand crosses a parallel line from the
    front corners of firing stand to the target ... Stands cannot fire if friendly troops are
    endangered." In play (outpost, turn 4) a 15" skirmish screen was refused its fire at a target
    straight ahead of its middle because a friend stood by one end. Gen. Doëns stands just in front
    of the 10e's right-hand stand: that stand does not fire, the other seven do."""
    state, rng = table()
    place(state, "10e Chasseurs à pied", 36.0, 30.0, 0.0, "skirmish")  # 8 stands, 28.5" to 43.5"
    target = place(state, "74th", 36.0, 20.0, 180.0)
    place(state, "Gen. Doëns", 43.0, 27.0, 0.0)
    to_step(state, "Shooting", rng)
    said = text_of(order(state, "french", "10e Chasseurs à pied fire at 74th", DiceThenStream([6] * 8)))
    assert "7 x 1d6" in said and "1 stand does not fire: Gen. Doëns stands in its line to 74th Infantry" in said
    assert target.pending_hits == 7


def test_17_3_5_the_post_says_an_attached_general_routs_with_his_unit() -> None:
    """17.3.5: "if they are attached to a unit that routs they will also rout." In play (meeting,
    turn 4) the post said only "24e de Ligne routs (under fire from 77th Infantry)"; the status
    showed General Frossard routing, the post never said so."""
    state, _ = table()
    ligne = place(state, "24e de Ligne", 36.0, 30.0, 0.0)
    general = place(state, "General Frossard", 36.0, 31.5, 0.0)
    general.attached = ligne.id
    said = text_of(routing_17_4_14.rout(state, ligne, (36.0, 20.0), cause="under fire from 77th Infantry"))
    assert general.status == ROUTING
    assert "General Frossard, attached to 24e de Ligne, routs with it (17.3.5" in said, said
