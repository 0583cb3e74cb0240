"""Days of Iron measured table: how the armies are set out (16.2) and how arriving and routing units
keep clear of other bases (17.2.1, 17.4.14, 17.4.8: no unit ends on another unit's base)."""

from __future__ import annotations

import copy
import itertools

import pytest

from games.core.errors import GameError
from games.core.geometry import overlaps
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event
from games.days_of_iron.rules import deployment_16, formations_12
from games.days_of_iron.rules.formations_12 import base
from games.days_of_iron.rules.routing_17_4_14 import rout
from games.days_of_iron.state import State, Unit
from tests.days_of_iron.helpers import RS, declare, new_game, order, ready_both, start_turn, unit
from tests.scripted import DiceThenStream

SCENARIOS = ("meeting", "outpost", "spicheren", "saar", "bridges")


def set_out(scenario: str, *, french_first: bool) -> State:
    """The scenario right after set-up, in the Movement phase of the side named to move first."""
    state, rng = new_game(scenario, scouting="no")
    ready_both(state, rng)
    start_turn(state, french_first=french_first)
    while state.step < 2:
        order(state, RS.to_act(state)[0], "next", rng)
    return state


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_unit_set_out_may_form_line_where_it_stands(scenario: str) -> None:
    for french_first in (True, False):
        state = set_out(scenario, french_first=french_first)
        side = state.acting_side()
        troops = [u for u in state.units if u.side == side and formations_12.on_table(u)
                  and u.type in ("infantry", "cavalry")]
        assert troops
        for u in troops:
            trial = copy.deepcopy(state)
            RS.parse_order(trial, side, f"{u.name} form line")  # refused before: the neighbours stood 3" apart


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_no_two_bases_overlap_and_each_stands_in_its_zone_generals_behind(scenario: str) -> None:
    state = set_out(scenario, french_first=True)
    units = [u for u in state.units if formations_12.on_table(u)]
    for a, b in itertools.combinations(units, 2):
        assert not overlaps(formations_12.base(a).polygon(), formations_12.base(b).polygon()), \
            (a.name, b.name)
    for u in units:
        x0, y0, x1, y1 = deployment_16.zone(state, u.side)
        assert all(x0 - 1e-6 <= x <= x1 + 1e-6 and y0 - 1e-6 <= y <= y1 + 1e-6
                   for x, y in formations_12.base(u).polygon()), u.name
    for g in (u for u in units if u.type == "general" and u.brigade):
        brigade = [u for u in units if u.brigade == g.brigade and u.type != "general"]
        if brigade:  # further from the enemy than the rearmost of his brigade's units
            toward_rear = 1 if g.side == state.sides[0].id else -1
            assert all((g.y - u.y) * toward_rear > 0 for u in brigade), g.name


# --- 17.2.1 arrivals on a clear place -----------------------------------------------------------

BRIGADE = ("gen-von-rheinbaben", "2nd-hussars", "11th-uhlans")


def held_off() -> tuple[State, Rng]:
    """The meeting with the Prussian cavalry brigade declared at the Givonne road (72", 6"), the
    Prussians first in turn 1's Morale phase."""
    state, rng = new_game("meeting", scouting="no", turns="3")
    order(state, "prussian", "staff", rng)
    order(state, "prussian", "offboard Rheinbaben", rng)
    ready_both(state, rng)
    start_turn(state, french_first=False)
    order(state, "prussian", "dust Rheinbaben at Givonne road", rng)
    return state, rng


def to_movement(state: State, rng: Rng) -> list[Event]:
    events: list[Event] = []
    while not (state.phase == "turn" and state.step == 2):
        events = order(state, UMPIRE, "next", rng)
    return events


def clear_of_everyone(state: State, ids: tuple[str, ...]) -> None:
    on = [u for u in state.units if formations_12.on_table(u)]
    for a in (u for u in on if u.id in ids):
        for b in (u for u in on if u.id != a.id):
            assert not overlaps(formations_12.base(a).polygon(), formations_12.base(b).polygon()), (a.name, b.name)


def test_an_arrival_blocked_at_its_entry_comes_on_at_the_nearest_clear_place_on_the_edge() -> None:
    state, rng = held_off()
    blocker = unit(state, "74th")  # stands on the Givonne road, in column facing into the table
    blocker.x, blocker.y, blocker.facing = 70.5, 6.0, 270.0
    events = to_movement(state, rng)
    said = "\n".join(e.text for e in events)
    assert "74th Infantry stands at Givonne road, so they come on at the nearest clear place along the table edge" in said
    assert all(unit(state, u).status == "on table" for u in BRIGADE)
    clear_of_everyone(state, BRIGADE)  # before: laid out on top of the 74th
    hussars = unit(state, "2nd Hussars")
    assert hussars.facing == 270.0 and max(p[0] for p in formations_12.base(hussars).polygon()) < 72.0 + 1e-6


def test_an_arrival_with_no_room_on_the_edge_waits_off_the_table_for_the_next_movement_phase() -> None:
    state, rng = held_off()
    for i, name in enumerate(("74th", "39th", "77th", "40th")):  # four lines of 12" along the whole 48" edge
        u = unit(state, name)
        u.formation, u.facing, u.x, u.y = "line", 270.0, 71.5, 6.0 + 12.0 * i
    events = to_movement(state, rng)
    said = "\n".join(e.text for e in events)
    assert "**Arrival held** (17.2.1, 17.4.8): 2nd Hussars, 11th Uhlans, Gen. von Rheinbaben find no clear room" in said
    assert all(unit(state, u).status == "off board" and unit(state, u).entry == "Givonne road" for u in BRIGADE)
    assert not any(c.id in BRIGADE for c in RS.view(state, None).counters)
    for name in ("74th", "39th", "77th", "40th"):
        unit(state, name).x = 40.0  # the lines step off the edge; next turn the brigade comes on
        unit(state, name).y = 20.0 + 5 * ("74th", "39th", "77th", "40th").index(name)
    while state.phase == "turn":
        order(state, UMPIRE, "next", rng)
    order(state, "prussian", "initiative", DiceThenStream([1, 6]))  # the Prussians first again
    said = "\n".join(e.text for e in to_movement(state, rng))
    # the 2nd Light Battery, set out at the right of the Prussians' second row, still stands 1" too near
    assert "Gen. von Rheinbaben come on at Givonne road (72\", 7\")" in said and "2nd Light Battery (Krupp) stands at" in said
    clear_of_everyone(state, BRIGADE)


# --- 17.4.14 routs end on no base ----------------------------------------------------------------

def router_game() -> tuple[State, Unit]:
    """The meeting set out, the ground cleared, the 2e de Ligne in column mid-table at (36", 20")."""
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    state.terrain.clear()
    ligne = unit(state, "2e de Ligne")
    ligne.x, ligne.y, ligne.facing, ligne.formation = 36.0, 20.0, 0.0, "column"
    return state, ligne


def stand(u: Unit, x: float, y: float, formation: str, status: str = "on table") -> Unit:
    u.x, u.y, u.facing, u.formation, u.status = x, y, 0.0, formation, status
    return u


def test_a_rout_does_not_end_on_a_routing_friend() -> None:
    state, ligne = router_game()
    friend = stand(unit(state, "63e de Ligne"), 36.0, 26.0, "column", "routing")  # where the rout would end
    rout(state, ligne, (36.0, 0.0), cause="test")  # away from the top edge: 6" down the table
    assert not overlaps(base(ligne).polygon(), base(friend).polygon())  # before: routing friends were ignored
    assert ligne.y == pytest.approx(26.0) and ligne.x != pytest.approx(36.0)  # stepped aside


def test_a_rout_with_no_sidestep_stops_short_on_its_path() -> None:
    state, ligne = router_game()
    lines = [stand(unit(state, "63e de Ligne"), 30.0, 26.0, "line"), stand(unit(state, "24e de Ligne"), 42.0, 26.0, "line")]
    said = "\n".join(e.text for e in rout(state, ligne, (36.0, 0.0), cause="test"))
    for other in lines:  # before: left on top of them (no sidestep clears x 24-48)
        assert not overlaps(base(ligne).polygon(), base(other).polygon())
    assert ligne.x == pytest.approx(36.0) and 20.0 < ligne.y <= 24.0 + 1e-6  # its rear short of the lines' front (y 25.5)
    assert "2e de Ligne stops short of" in said and "no unit ends on another's base" in said


# --- 17.4.8 charging through a friendly deployed battery -----------------------------------------

def battery_game(battery_formation: str) -> tuple[State, Rng, Unit, Unit]:
    """Turn 1's Morale phase, the French first: the 4e Chasseurs à cheval (y 28.5-31.5) with the 7e
    Batterie right in front of them (y 27-28.5) and the 74th Infantry 12" beyond, ground cleared."""
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    state.terrain.clear()
    start_turn(state)
    horse = stand(unit(state, "4e Chasseurs à cheval"), 36.0, 30.0, "column")
    guns = stand(unit(state, "7e Batterie"), 36.0, 27.75, battery_formation)
    target = stand(unit(state, "74th"), 36.0, 15.0, "column")
    target.facing = 180.0
    return state, rng, horse, guns


@pytest.mark.slow
def test_a_charge_passes_through_a_friendly_deployed_battery_disordered_and_the_guns_fall_silent() -> None:
    state, rng, horse, guns = battery_game("line")
    # refused before; the 1st Impulse goes halfway to the 74th, 12" away (17.2.3); the 74th stands on a 6
    events = declare(state, "french", "4e Chasseurs à cheval charge 74th", [4, 6])
    said = "\n".join(e.text for e in events)
    assert "1st Impulse: 6\"" in said
    assert ("4e Chasseurs à cheval charges through 7e Batterie (4-pdr): it is disordered; the gunners evade it and "
            "7e Batterie (4-pdr) may not fire until they return to the guns in the Movement phase (17.4.8).") in said
    assert horse.order == "disordered" and horse.y == pytest.approx(24.0)
    assert not overlaps(base(horse).polygon(), base(guns).polygon())
    while state.step < 1:  # the Shooting phase, the French part
        order(state, RS.to_act(state)[0], "next", rng)
    assert RS.to_act(state) == ["french"]
    with pytest.raises(GameError, match=r"7e Batterie \(4-pdr\) has fired this turn"):
        RS.parse_order(state, "french", "7e Batterie fire at 74th")


def test_a_limbered_battery_still_blocks_a_charge() -> None:
    state, _, _, guns = battery_game("column")
    guns.y = 26.9  # limbered, 3" deep: y 25.4-28.4, still right in front of the horse
    with pytest.raises(GameError, match=r"cannot reach 74th Infantry: 7e Batterie \(4-pdr\) is in the way"):
        RS.parse_order(state, "french", "4e Chasseurs à cheval charge 74th")
