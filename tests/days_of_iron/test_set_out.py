"""Days of Iron measured table: how the armies are set out (16.2) and how arriving and routing units
keep clear of other bases (17.2.1, 17.4.14, 17.4.8: no unit ends on another unit's base)."""

from __future__ import annotations

import copy
import itertools

import pytest

from games.core.geometry import overlaps
from games.days_of_iron.rules import deployment_16, formations_12
from games.days_of_iron.state import State
from tests.days_of_iron.helpers import RS, new_game, order, ready_both, start_turn

SCENARIOS = ("meeting", "outpost", "spicheren", "saar")


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
