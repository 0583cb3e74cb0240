"""Morale on the measured table (issue 15 item 1, helper C): unit order and status (17.2.8-17.2.10),
the Casualties from Shooting test (17.3), rallying (17.2.11), routing (17.4.14-15) and attached
Generals with their command radius (section 14, 17.3.5)."""

from __future__ import annotations

from games.core.codec import from_json, to_json
from games.days_of_iron.state import GOOD, State
from tests.days_of_iron.helpers import new_game


def test_a_stored_game_from_before_the_status_fields_loads_in_good_order() -> None:
    state, _ = new_game("meeting", scouting="no")
    encoded = to_json(state)
    assert isinstance(encoded, dict)
    for u in encoded["units"]:
        for key in ("order", "order_turn", "halted", "ground", "rout_bearing", "rout_done", "rout_turn", "attached"):
            u.pop(key)
    loaded = from_json(State, encoded)
    assert all(u.order == GOOD and not u.halted and not u.ground and not u.attached for u in loaded.units)
