"""Book section 5.2 (Additional Rules: Moving off the Table): a ship
that ends a move with part of its base off the table is removed from the game."""

from __future__ import annotations

from collections.abc import Iterable

from games.core.geometry import Base
from games.oak_and_iron.rules.ship_status_4_2 import release
from games.oak_and_iron.state import ShipState, State


def off_table(state: State, base: Base) -> bool:
    """Any corner of the base beyond a table edge."""
    return beyond_edge(state, base.corners())


def beyond_edge(state: State, points: Iterable[tuple[float, float]]) -> bool:
    """Any of the points beyond a table edge (a base's corners, a terrain piece's outline)."""
    return any(x < -1e-9 or y < -1e-9 or x > state.table_width + 1e-9 or y > state.table_height + 1e-9 for x, y in points)


def check_off_table(state: State, ship: ShipState, notes: list[str]) -> None:
    """MOVING OFF THE TABLE (5.2): remove the ship if it now lies partly off the table."""
    if ship.on_table and off_table(state, ship.base):
        ship.status = "off"
        release(state, ship)
        notes.append(f"{ship.name} ends with part of its base off the table and is removed from the game")
