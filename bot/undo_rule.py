"""Which orders a ``/game undo`` takes back, decided from what the asker may know (issue 24).

A player's undo is answered from public information and their own: the secret orders of other
seats (a sealed fire order, given while they were writing theirs) must change neither the answer
nor what the player sees after it, or undoing and giving again, which costs nothing, would tell
them that the opponent gave a hidden order. So the orders the asker does not know of are left out
of the decision: the asker's last known order is theirs to take back as the old rule says. If it
was itself given in secret, the other seats' later secret orders stay (in a phase of hidden orders
none can have depended on it) and are replayed after it is taken out; if it was public, the later
secret orders, given after it and so perhaps because of it, are taken back with it and their
givers told privately. The umpire sees everything and undoes the very last order, as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage import OrderRow
from games.core.errors import IllegalOrder, NotAllowed, quote

NOT_YOURS = "You can only take back your own last order, and only while nobody has acted since."


def _told(order: OrderRow) -> set[str]:
    return {s for e in order.events if e["to"] is not None for s in e["to"]}


def given_in_secret(order: OrderRow) -> bool:
    """An order that told someone something privately and the channel nothing: only its seat, the
    seats it told and the umpire know it was given (the log leaves it out for everyone else)."""
    return bool(_told(order)) and not any(e["to"] is None for e in order.events)


def known_to(order: OrderRow, seats: set[str]) -> bool:
    """Whether a player holding ``seats`` knows that ``order`` was given."""
    return not given_in_secret(order) or order.seat in seats or bool(_told(order) & seats)


@dataclass(frozen=True)
class UndoPlan:
    """``target`` is taken back; ``dropped`` (other seats' later secret orders) go with it; the
    orders in ``remaining`` are replayed to rebuild the state."""

    target: OrderRow
    dropped: list[OrderRow]
    remaining: list[OrderRow]


def plan_undo(orders: list[OrderRow], user_id: str, seats: set[str], *, umpire: bool) -> UndoPlan:
    """What ``user_id`` (holding ``seats``; ``umpire``: the game's umpire) may undo among the game's
    standing ``orders``, or NotAllowed / IllegalOrder saying why not. Checks that need the rules (a
    reveal, a private random draw) are the caller's, on ``target`` alone."""
    known = orders if umpire else [o for o in orders if known_to(o, seats)]
    if not known:
        raise IllegalOrder("There is no order to undo.")
    target = known[-1]
    at = orders.index(target)
    later = orders[at + 1:]
    if umpire:
        return UndoPlan(target, [], orders[:at])
    if target.seat not in seats:
        raise NotAllowed(NOT_YOURS, hint="The umpire can undo further.")
    if target.user_id != user_id:
        raise NotAllowed(f"Your seat's last order ({quote(target.text)}) was given by <@{target.user_id}>, not by you, "
                         "so only the umpire can undo it.")
    if any(e["reveals"] for e in target.events):
        raise NotAllowed(f"Your last order {quote(target.text)} revealed something random or hidden, so only the umpire can undo it.")
    if given_in_secret(target):
        return UndoPlan(target, [], orders[:at] + later)
    return UndoPlan(target, later, orders[:at])

