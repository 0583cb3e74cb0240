"""Book section 3, Conceding: a side may concede; when one side is left standing it wins. The umpire
cannot concede for a side (``/game end`` ends a game outright)."""

from __future__ import annotations

from games.core.errors import IllegalOrder, NotAllowed
from games.core.ruleset import UMPIRE, Event, Outcome, public
from games.table.state import State, side_name


def concede(state: State, seat: str) -> list[Event]:
    """Section 3: the side is out; conceding twice is refused."""
    if seat == UMPIRE:
        raise NotAllowed("The umpire cannot concede for a side; use /game end.")
    if seat in state.conceded:
        raise IllegalOrder("You have already conceded.")
    state.conceded.append(seat)
    return [public(f"{side_name(state, seat)} concedes.")]


def outcome(state: State) -> Outcome | None:
    """Section 3: the last side standing wins."""
    standing = [s for s in state.sides if s.lower() not in state.conceded]
    if len(standing) == 1:
        return Outcome(standing[0].lower(), f"{standing[0]} is the last side standing; the others conceded.")
    return None
