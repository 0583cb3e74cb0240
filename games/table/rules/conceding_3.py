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
    standing = _standing(state)
    still = f" Still playing: {', '.join(standing)}." if len(standing) > 1 else ""
    return [public(f"{side_name(state, seat)} concedes.{still}")]


def still_playing(state: State, seat: str) -> None:
    """Section 3: a side that conceded is out, so it places, moves and removes no more pieces. It
    may still post messages (section 2): talk at the table changes nothing in the game."""
    if seat in state.conceded:
        raise NotAllowed(f"{side_name(state, seat)} has conceded and is out of the game, "
                         "so it can no longer place, move or remove pieces.")


def out(state: State) -> list[str]:
    """Section 3: the sides that conceded, by name, in the order they did."""
    return [side_name(state, seat) for seat in state.conceded]


def _standing(state: State) -> list[str]:
    return [s for s in state.sides if s.lower() not in state.conceded]


def outcome(state: State) -> Outcome | None:
    """Section 3: the last side standing wins."""
    standing = _standing(state)
    if len(standing) == 1:
        return Outcome(standing[0].lower(), f"{standing[0]} is the last side standing; the others conceded.")
    return None
