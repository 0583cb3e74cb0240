"""Delivery: what a command's events become (a channel post, DMs to the seats' users, the umpire's
copies, pings to whoever acts next), and the bookkeeping of users whose DMs are closed."""

from __future__ import annotations

import re
from typing import Any

from bot.rooms.common import CONCEDE_ORDER, MAX_MESSAGE, Loaded, Output, User, event_json, picture
from bot.rooms.context import Table
from bot.rooms.seats import game_over_lines, mentions, private_views, seat_label, seat_users, umpire_of, users_for
from bot.storage import Storage
from bot.text import split_text
from games.core.errors import quote
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, Outcome
from games.tools import TOOLS


def route(loaded: Loaded, events: list[Event], *, umpire: str | None = None) -> list[Output]:
    """Public events become one channel message; private ones become DMs to their seats' users,
    with a labelled copy to ``umpire`` (the channel game's umpire, who sees everything)."""
    row = loaded.row
    outputs: list[Output] = []
    public_lines = [e.text for e in events if e.public]
    if public_lines:
        for chunk in split_text("\n".join(public_lines), MAX_MESSAGE):
            outputs.append(Output("message", chunk, channel=row.channel))
    tools = row.system == TOOLS.id  # the tools' private events name users, not seats
    for e in events:
        if e.to is None:
            continue
        recipients = list(e.to) if tools else seat_users(row, e.to)
        for uid in recipients:
            for chunk in split_text(e.text, MAX_MESSAGE):
                outputs.append(Output("dm", chunk, to=uid, private_fallback=True))
        if umpire and umpire not in recipients:  # the umpire sees all, labelled with whose it is
            whose = ", ".join(f"<@{u}>" if tools else seat_label(loaded, u) for u in sorted(e.to))
            for chunk in split_text(f"[umpire copy, for {whose}] {e.text}", MAX_MESSAGE):
                outputs.append(Output("dm", chunk, to=umpire, private_fallback=True))
    return outputs


async def give_order(ctx: Table, loaded: Loaded, working: Any, seat: str, user: User, order: Any,
                     text: str | None = None) -> list[Output]:
    """Carry out a read order on ``working`` (a copy of the game's state), store it and say what it
    posts: the one way a rules order is given, by /order or by /game concede (for rules that keep
    who is out, ``Ruleset.concede_order``), so both ways end the game alike. ``text``: the order as
    the log writes it, if the caller has it already. The rules are asked once (``resolve``)."""
    rules, row = loaded.rules, loaded.row
    rng = Rng(row.seed, row.counter)
    applied = rules.resolve(working, seat, order, rng)
    text = rules.format_order(order) if text is None else text
    row = await ctx.store.save_order(
        row, seat=seat, user_id=user.id, text=text, events=[event_json(e) for e in applied.events],
        snapshot=rules.encode(applied.state), counter=rng.counter, status="over" if applied.outcome else "running",
    )
    after = ctx.keep(row, rules, applied)
    if "conceded" in loaded.known and text not in (CONCEDE_ORDER, rules.concede_order):
        after.known["conceded"] = loaded.known["conceded"]  # no concession: out are those out before
    return order_outputs(loaded, after, seat, user, text, applied.events)


def order_outputs(
    before: Loaded, after: Loaded, seat: str, user: User, order_text: str, events: list[Event]
) -> list[Output]:
    """What an order posts ("table manners" in docs/deploy.md). The channel hears of an order only
    when something public changed: a public event, the public view, who is to act, or the end.
    Otherwise (a sealed fire order) nothing is posted and the giver alone gets a note, so nobody
    can count or time hidden orders. A board goes with the post only when the picture changed
    (see ``_picture``) or the game ended; pings go to those whose turn it newly is."""
    row, channel = after.row, after.row.channel
    outcome = after.outcome()
    shown_before, shown_after = before.public_view(), after.public_view()
    acting_changed = set(before.to_act()) != set(after.to_act())
    public_change = (outcome is not None or any(e.public for e in events) or acting_changed
                     or shown_before != shown_after)
    routed = _without_end_notice(events, outcome) if outcome else events
    outputs = route(after, routed, umpire=umpire_of(row))
    if not public_change:
        outputs.insert(0, Output("ephemeral", f"Order noted for {seat_label(after, seat)}: {quote(order_text)}. "
                                 "It changed nothing anyone else can see, so nothing was posted in the channel.",
                                 to=user.id))
    else:
        tail = game_over_lines(outcome, row, after) if outcome else turn_lines(before, after, seat)
        board = shown_after if outcome or picture(shown_before) != picture(shown_after) else None
        if outputs and outputs[0].kind == "message":
            merged = outputs[0].text + ("\n" + "\n".join(tail) if tail else "")
            chunks = split_text(merged, MAX_MESSAGE)
            outputs[0] = Output("message", chunks[0], channel=channel, view=board)
            outputs[1:1] = [Output("message", c, channel=channel) for c in chunks[1:]]
        else:
            outputs.insert(0, Output("message", "\n".join(tail) or f"Order received from {seat_label(after, seat)}.",
                                     channel=channel, view=board))
    private_seats = {s for e in events if e.to is not None for s in e.to}
    outputs = _once(outputs + (private_views(after, private_seats) if private_seats else []))
    if not public_change:  # one private reply to the giver, not a note and DMs (issue 24)
        own = [o for o in outputs[1:] if o.kind == "dm" and o.to == user.id]
        views = [o.view for o in own if o.view is not None]
        text = "\n".join([outputs[0].text, *(o.text for o in own)])
        outputs = [Output("ephemeral", chunk, to=user.id, view=views[-1] if views and i == 0 else None)
                   for i, chunk in enumerate(split_text(text, MAX_MESSAGE))] + [o for o in outputs[1:] if o not in own]
    return outputs

def _once(outputs: list[Output]) -> list[Output]:
    """Each private thing once: a private event's DM is left out when the same user's view DM,
    sent with it, already shows that text (an initiative hand was DMed as a note and in the view)."""
    shown: dict[str, str] = {}
    for o in outputs:
        if o.kind == "dm" and o.view is not None and o.to is not None:
            shown[o.to] = shown.get(o.to, "") + "\n" + o.text
    return [o for o in outputs if not (o.kind == "dm" and o.view is None and o.to in shown and o.text in shown[o.to])]


def turn_lines(before: Loaded, after: Loaded, seat: str) -> list[str]:
    """Who acts now, after an order that changed something public. A user is pinged when a seat
    of theirs is newly to act and they were not to act already (for another of their seats),
    or is still to act after the umpire moved the game on (a reveal that ends a phase changes
    what they must do; an adjustment that leaves the seats to act as they were does not).
    Those not pinged are named (they were pinged when their turn began), and only when the
    seats to act changed."""
    was = set(before.to_act())
    now = after.to_act()
    moved_on = seat == UMPIRE and set(now) != was
    fresh = [s for s in now if s not in was or (moved_on and s != UMPIRE)]
    busy = set() if moved_on else set(users_for(before.row, sorted(was)))
    pinged = [u for u in users_for(after.row, fresh) if u not in busy]
    waiting = [seat_label(after, s) for s in now if not set(users_for(after.row, [s])) & set(pinged)]
    if pinged:
        return [f"Next: {mentions(pinged)}" + (f" (still to act: {', '.join(waiting)})" if waiting else "")]
    if waiting and set(now) != was:
        return [f"Waiting for {', '.join(waiting)}."]
    return []



def _words(text: str) -> str:
    return " ".join(text.replace("*", "").split()).casefold()


def _announces_end(line: str, reason: str, details: set[str]) -> bool:
    """Whether a line of the last order's public text is the rules' own announcement of the end
    (it states the outcome's reason, e.g. "The battle is over: <reason>", or leads with a bold
    phrase and then the reason's first part, "**The battle ends.** <why>") or repeats a detail."""
    words = _words(line)
    if not words:
        return False
    if words in details or (reason and reason in words):
        return True
    rest = _words(re.sub(r"^\s*\*\*[^*]+\*\*", "", line))
    return len(rest) >= 20 and rest != words and rest in reason


def _without_end_notice(events: list[Event], outcome: Outcome) -> list[Event]:
    """The last order's events as posted: every system announces its own end, and the table adds
    the game-over block (the seed must be published), so the rules' announcement is left out of
    the channel message rather than said twice. The log keeps the events as they were."""
    reason, details = _words(outcome.reason), {_words(d) for d in outcome.details}
    kept: list[Event] = []
    for e in events:
        lines = e.text.split("\n") if e.public else [e.text]
        if e.public:
            lines = [line for line in lines if not _announces_end(line, reason, details)]
        if lines:
            kept.append(Event("\n".join(lines), e.to, e.reveals))
    return kept


class ClosedDms:
    """Users whose DMs are closed, remembered in the store (across restarts) and cached here; the
    Discord adapter then posts their private outputs as ephemeral replies instead."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._closed_dms: set[str] | None = None

    async def dms_closed(self, user_id: str) -> None:
        await self.store.set_dms_closed(user_id, True)
        if self._closed_dms is not None:
            self._closed_dms.add(user_id)

    async def closed_dm_users(self) -> set[str]:
        if self._closed_dms is None:
            self._closed_dms = await self.store.dms_closed_users()
        return self._closed_dms

    async def dms_reopened(self, user_id: str) -> None:
        """A DM to this user went through: forget that their DMs were closed."""
        await self.store.set_dms_closed(user_id, False)
        if self._closed_dms is not None:
            self._closed_dms.discard(user_id)

    async def closed_dm_times(self) -> dict[str, float]:
        """User id -> when their DMs were last found closed (the adapter tries again a while after)."""
        return await self.store.dms_closed_since()

