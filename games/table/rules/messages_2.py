"""Book section 2, Messages: any text that is not an order is posted, signed by the side, for
everyone at the table to read (it is logged like every order)."""

from __future__ import annotations

from games.core.ruleset import Event, public
from games.table.orders import Say
from games.table.state import State, side_name


def say(state: State, seat: str, order: Say) -> list[Event]:
    """Section 2: the message, in bold under the side's name."""
    return [public(f"**{side_name(state, seat)}**: {order.text}")]
