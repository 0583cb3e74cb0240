"""Book 16.3 (visibility) and 16.4 (hidden units), checked on the measured table."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from games.days_of_iron.state import HIDDEN, ON_TABLE
from tests.book.days_of_iron.table import piece, place, to_step
from tests.days_of_iron.helpers import RS, new_game, order, ready_both, start_turn, unit


def test_16_3_a_formed_unit_in_a_light_wood_is_seen_only_at_6_inches() -> None:
    """16.3: "Formed units are visible at 4" in heavy urban areas and woods and at 6" in light
    urban areas and woods." The 74th in line inside a light wood may not be shot at from 8", and
    may from 5"."""
    from tests.book.days_of_iron.table import table

    for apart, seen in ((8.0, False), (5.0, True)):
        state, rng = table()
        piece(state, "light-wood", "the wood", 20.0, 10.0, 52.0, 23.0)
        place(state, "74th", 36.0, 21.0, 180.0)  # its stands y 20.5-21.5, wholly inside the wood (y 10-23)
        place(state, "2e de Ligne", 36.0, 21.5 + apart + 0.5, 0.0)
        to_step(state, "Shooting", rng)
        if seen:
            RS.parse_order(state, "french", "2e de Ligne fire at 74th")
        else:
            with pytest.raises(IllegalOrder):
                RS.parse_order(state, "french", "2e de Ligne fire at 74th")


def test_16_4_a_hidden_unit_in_the_open_is_placed_when_an_enemy_sees_it() -> None:
    """16.4: "As the battle develops troops are placed on the table when they shoot or become
    visible to enemy units." 16.3: "Maximum visibility is 6'." A hidden unit standing in the open
    7" in front of an enemy is placed on the table (by the end of the phase it became visible in)."""
    state, rng = new_game("meeting", scouting="no")
    hidden = unit(state, "77th")
    order(state, "prussian", "hide 77th at 36 10 facing 180 line", rng)
    ready_both(state, rng)
    assert hidden.status == HIDDEN
    state.terrain.clear()
    for u in state.units:  # everyone else far off
        if u is not hidden and u.status == ON_TABLE:
            u.y = 46.0 if u.side == "french" else 1.0
            u.x = 4.0 + 5.0 * (state.units.index(u) % 14)
            u.formation = "column"
    place(state, "2e de Ligne", 36.0, 18.0, 0.0)  # 7" from the hidden 77th (y 9.5-10.5), in the open
    start_turn(state)
    to_step(state, "Shooting", rng)
    assert hidden.status == ON_TABLE, "the hidden 77th, in the open 7\" from the 2e, was never placed"
    assert any(c.id == hidden.id for c in RS.view(state, "french").counters)
