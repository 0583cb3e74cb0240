"""Book section 5.5 (Additional Rules: Formation): ships in line ahead
with the Flagship add a die to Broadside and Partial Fire attacks."""

from __future__ import annotations

from games.oak_and_iron.data import rules
from games.oak_and_iron.measure import formation_members
from games.oak_and_iron.rules.terrain_5_9 import sight_blockers
from games.oak_and_iron.state import State


def formation(state: State, side_id: str) -> set[str]:
    """FORMATION (5.5): the side's ships linked to the Flagship, each within Musket Shot of the one
    ahead with a clear line from bow to stern (``measure.formation_members``)."""
    ships = {s.id: s.base for s in state.ships if s.on_table and s.controller == side_id and s.can_act}
    flag = next((s.id for s in state.ships if s.flagship and s.side == side_id and s.can_act), "")
    return formation_members(ships, flag, rules().distance("musket_shot"), sight_blockers(state))
