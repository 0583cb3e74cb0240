"""Book section 3.4 (disputed matters): a die decides, 1-3 as the side asking wishes, 4-6 as the other."""

from __future__ import annotations

from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, public
from games.days_of_iron.data import rules
from games.days_of_iron.orders import Dispute, free_text
from games.days_of_iron.state import State


def check_dispute(order: Dispute) -> Dispute:
    """The matter in dispute (3.4) as stored: present, not too long, no backticks."""
    return Dispute(free_text(order.matter, "the matter in dispute"))


def dispute(state: State, seat: str, order: Dispute, rng: Rng) -> list[Event]:
    """Roll for a disputed matter (3.4); the umpire's dispute counts the first side as the asker."""
    roll = rng.die(6)
    asker = seat if seat != UMPIRE else ""
    a = asker or state.sides[0].id
    b = state.other(a)
    winner = a if roll in rules().dispute.player_a else b
    who = f"The {state.side_name(a)} raise" if asker else "The umpire raises"
    return [public(f"{who} a disputed matter (3.4): \"{order.matter}\". 1d6 = {roll}: decided as the "
                   f"{state.side_name(winner)} wish (Player {'A' if winner == a else 'B'}).", reveals=True)]
