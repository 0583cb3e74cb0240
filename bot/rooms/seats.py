"""Who holds which seat, who acts now, and what a user may read of the log: pure functions of a
stored game row (and its decoded state), shared by the rooms."""

from __future__ import annotations

from typing import Any

from bot.endings import winner_text
from bot.rooms.common import FINISHED, Loaded, Output, fold
from bot.storage import GameRow, OrderRow
from games.core.errors import UnknownName, quote
from games.core.ruleset import UMPIRE, Outcome, Ruleset, Seat


def user_seats(row: GameRow, user_id: str) -> list[str]:
    return [seat for seat, who in row.seats.items() if who["user"] == user_id]

def seat_users(row: GameRow, seats: frozenset[str] | list[str]) -> list[str]:
    return list(dict.fromkeys(row.seats[s]["user"] for s in seats if s in row.seats))

def umpire_of(row: GameRow | None) -> str | None:
    if row is None or UMPIRE not in row.seats:
        return None
    return row.seats[UMPIRE]["user"]

def users_to_act(loaded: Loaded) -> list[str]:
    return users_for(loaded.row, loaded.to_act())

def users_for(row: GameRow, seats: list[str]) -> list[str]:
    """The users who act for these seats; an empty seat waits on the umpire, if there is one."""
    users = seat_users(row, seats)
    if any(s not in row.seats for s in seats):
        umpire = umpire_of(row)
        if umpire and umpire not in users:
            users.append(umpire)  # an empty seat waits on the umpire
    return users

def mentions(users: list[str]) -> str:
    return " ".join(f"<@{u}>" for u in users)

def seat_label(loaded: Loaded, seat_id: str) -> str:
    for s in loaded.seats():
        if s.id == seat_id:
            return s.label
    return seat_id

def may_read_order(row: GameRow, user_id: str | None, order: OrderRow) -> bool:
    """An order that told someone something privately may be a secret choice (a sealed fire
    order, an initiative card): until the end only its own seat, the addressees and the umpire read it."""
    private_to = {s for e in order.events if e["to"] is not None for s in e["to"]}
    if row.status in FINISHED or not private_to:
        return True
    if user_id is None:
        return False
    mine = set(user_seats(row, user_id))
    return UMPIRE in mine or bool(mine & (private_to | {order.seat}))

def orders_seen(row: GameRow, user_id: str | None, orders: list[OrderRow]) -> list[tuple[OrderRow, bool]]:
    """The orders a viewer's log, export or replay lists, each with whether they may read its text.
    An order they may not read is listed only if the channel was told of it (it had a public
    event, "Union has sealed"); one given in secret is left out, and the lines are numbered
    afresh, so neither a placeholder nor a gap in the numbers counts or times hidden orders."""
    seen = []
    for o in orders:
        readable = may_read_order(row, user_id, o)
        if readable or any(e["to"] is None for e in o.events):
            seen.append((o, readable))
    return seen

def replay_state(rules: Ruleset[Any, Any], row: GameRow, orders: list[OrderRow]) -> tuple[Any, int]:
    """The state and stream counter after folding the given orders over set-up."""
    *_, (state, rng, _) = fold(rules, row.seed, row.scenario, row.options, ((o.seat, o.text) for o in orders))
    return state, rng.counter

def resolve_seat(seats: dict[str, Seat], wanted: str) -> Seat:
    w = wanted.strip().lower()
    for s in seats.values():
        if w in (s.id.lower(), s.label.lower()):
            return s
    raise UnknownName(f"No seat {quote(wanted)} in this game.", hint="Seats: " + ", ".join(seats) + ".")

def summary(loaded: Loaded) -> str:
    return "\n".join(loaded.rules.summary(loaded.state))

def private_views(loaded: Loaded, seats: set[str] | None) -> list[Output]:
    """DM each seated user their own view when it holds private lines (hands, secret values)."""
    outputs: list[Output] = []
    for seat, who in loaded.row.seats.items():
        if seats is not None and seat not in seats:
            continue
        view = loaded.rules.view(loaded.state, seat)
        if view.private_text:
            outputs.append(Output("dm", "\n".join(view.private_text), to=who["user"], view=view, private_fallback=True))
    return outputs

def players_of(row: GameRow) -> list[str]:
    """The users holding a side's seat (the umpire seat is not a side), each once."""
    return list(dict.fromkeys(w["user"] for s, w in row.seats.items() if s != UMPIRE))

def seed_reveal(row: GameRow) -> str:
    return (f"Seed: `{row.seed.hex()}` (its SHA-256 is the commitment `{row.commitment}` shown at the start). "
            "Anyone can now re-derive every roll and card: /game export, then /game verify.")

def game_over_lines(outcome: Outcome, row: GameRow, game: Loaded) -> list[str]:
    """The one game-over block: result (the winner named as the board names the side), the rules'
    final tallies, and the published seed."""
    winner = winner_text(game.rules, game.state, outcome.winner)
    reason = outcome.reason[:1].upper() + outcome.reason[1:]  # a rules' reason may be written to follow "Peru wins: "
    return [f"**Game over.** Winner: {winner}. {reason}", *outcome.details, seed_reveal(row)]

