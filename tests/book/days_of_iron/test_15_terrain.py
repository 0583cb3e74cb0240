"""Book 15 (terrain): who may enter woods and swamps, checked on the measured table."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder
from tests.book.days_of_iron.table import piece, place, table, to_step
from tests.days_of_iron.helpers import RS


@pytest.mark.parametrize("kind", ["heavy-wood", "swamp"])
def test_15_6_15_8_only_foot_enter_heavy_woods_and_swamps(kind: str) -> None:
    """15.6: "Swamps are impassable to all but infantry and dismounted cavalry units, leading their
    mounts at foot speed." 15.8: "All units may pass through light woods, but only units on foot,
    including dismounted cavalry, can pass through heavy woods, unless on a road." Cavalry and
    artillery moving into the ground are refused; infantry go in (slowed)."""
    state, rng = table()
    piece(state, kind, "the ground", 0.0, 14.0, 72.0, 24.0)
    place(state, "4e Chasseurs à cheval", 20.0, 30.0, 0.0, "column")
    place(state, "7e Batterie", 36.0, 30.0, 0.0, "column")
    place(state, "2e de Ligne", 52.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    for mounted in ("4e Chasseurs à cheval", "7e Batterie"):
        with pytest.raises(IllegalOrder, match=r"15\.[68]"):
            RS.parse_order(state, "french", f"{mounted} move 6")
    RS.parse_order(state, "french", "2e de Ligne move 4")


def test_15_8_all_units_may_pass_through_light_woods() -> None:
    """15.8: "All units may pass through light woods" - cavalry included."""
    state, rng = table()
    piece(state, "light-wood", "the wood", 0.0, 14.0, 72.0, 24.0)
    place(state, "4e Chasseurs à cheval", 20.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    RS.parse_order(state, "french", "4e Chasseurs à cheval move 8")
