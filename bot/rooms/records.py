"""The game's record: /game log, export, replay, verify and private, and the check of an export.

Replay, verify and export are the heavy ones: each reads its snapshot (the game at one version)
under the channel's lock, then works outside it (a replay and a verify in the worker pool), so
orders and status in that channel answer at once. One of each kind runs per game; whoever asks
while it runs is answered at once and sent theirs when it is done; a finished answer for an
unchanged version is reused; and each user has a short cool-down before starting another.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from bot.rooms.common import (
    FINISHED,
    HIDDEN_ORDER,
    MAX_MESSAGE,
    MAX_REPLAY_FRAMES,
    Loaded,
    Output,
    User,
    fold,
    replay_steps,
    rules_played,
    ruleset_for,
    version_words,
)
from bot.rooms.context import Table
from bot.rooms.seats import orders_seen, seat_label, user_seats
from bot.storage import GameRow, OrderRow, Storage
from bot.text import split_text
from games.core.errors import GameError, IllegalOrder, InvalidSyntax, WrongPhase, quote
from games.core.ruleset import UMPIRE
from games.core.view import View
from games.tools import TOOLS, ToolsState, small_number

LOG_PAGE = 15
COOL_DOWN = 20.0  # seconds before one user may start another costly replay (or verify) drawn anew
COSTLY = 1.0  # a run that took at least this long starts its asker's cool-down; a quick one does not
# an export only reads the record and writes it out: one per game at a time, no cool-down
COOL_DOWNS = {"replay": COOL_DOWN, "verify": COOL_DOWN, "export": 0.0}
KEPT_ANSWERS = 8  # finished replays, verifies and exports kept for re-asks at an unchanged version
Answer = Callable[[Any, str, bool], Output]  # (result, user id, first asker?) -> that user's answer



def log_lines(row: GameRow, user_id: str | None, orders: list[OrderRow]) -> list[tuple[OrderRow, str]]:
    """A reader's log, oldest first: each order they may see with its numbered line (what /game
    log pages through, and the web companion shows)."""
    lines = []
    for number, (o, readable) in enumerate(orders_seen(row, user_id, orders), start=1):
        mark = " ~~undone~~" if o.undone else ""
        public_text = " / ".join(e["text"].replace("\n", " ") for e in o.events if e["to"] is None)
        text = o.text if readable else HIDDEN_ORDER
        lines.append((o, f"{number}. [{o.seat}] {text}{mark} — {public_text}"[:400]))
    return lines

class Records:
    """Show, export, replay and check what a game recorded, to each user only what they may see."""

    def __init__(self, ctx: Table) -> None:
        self.ctx = ctx
        # (kind, game id) -> who asked while it runs: user id -> (their key, their work, their answer)
        self._running: dict[tuple[str, int], dict[str, tuple[Any, Callable[[], Awaitable[Any]], Answer]]] = {}
        self._kept: OrderedDict[Any, Any] = OrderedDict()  # key (kind, game, version, ...) -> result
        # (kind, user id) -> when they last started a costly one (a quick check of a small game costs
        # nobody anything, so it never makes its asker wait)
        self._asked: dict[tuple[str, str], float] = {}

    async def _bounded(self, kind: str, game: int, user: User, key: Any, work: Callable[[], Awaitable[Any]],
                       answer: Answer, busy: str) -> list[Output]:
        """``work()``'s result answered to ``user``: a kept one for ``key`` at once; while a ``kind``
        for this game runs, ``busy`` now and theirs (as a private message) when it is done; else
        started now, after the user's cool-down. The channel's lock is not held here."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return [answer(self._kept[key], user.id, False)]
        waiting = self._running.get((kind, game))
        if waiting is not None:
            waiting[user.id] = (key, work, answer)
            return [Output("ephemeral", busy, to=user.id)]
        now, last, wait = self.ctx.clock(), self._asked.get((kind, user.id)), COOL_DOWNS[kind]
        if last is not None and now - last < wait:
            raise WrongPhase(f"You started a /game {kind} {now - last:.0f} s ago; each person may start one "
                             f"every {wait:.0f} s.", hint=f"Ask again in {wait - (now - last):.0f} s.")
        waiting = self._running[(kind, game)] = {}
        try:
            outputs = [answer(await self._keep(key, work), user.id, True)]
            if self.ctx.clock() - now >= COSTLY:
                self._asked[(kind, user.id)] = now
            while waiting:  # those who asked meanwhile: the same answer, or theirs drawn now
                other, (their_key, their_work, their_answer) = waiting.popitem()
                try:
                    result = self._kept[their_key] if their_key in self._kept else await self._keep(their_key, their_work)
                    outputs.append(their_answer(result, other, False))
                except GameError as exc:
                    outputs.append(Output("ephemeral", exc.text, to=other))
        finally:
            del self._running[(kind, game)]
        return outputs

    async def _keep(self, key: Any, work: Callable[[], Awaitable[Any]]) -> Any:
        result = await work()
        self._kept[key] = result
        if len(self._kept) > KEPT_ANSWERS:
            self._kept.popitem(last=False)
        return result

    async def game_log(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        row = await self.ctx.latest_row(channel)  # a record: readable whatever rules saved the game
        orders = await self.ctx.store.orders(row.id)
        # Page 1 is the newest orders, newest first: in a long game that is what players look for.
        lines = [line for _, line in reversed(log_lines(row, user.id, orders))]
        pages = max(1, (len(lines) + LOG_PAGE - 1) // LOG_PAGE)
        page_text = opts.get("page", "") or "1"
        page = small_number(page_text) or 0
        if not 1 <= page <= pages:
            raise InvalidSyntax(f"No log page {quote(page_text)}.", hint=f"Pages run 1 (newest) to {pages} (oldest).")
        chunk = lines[(page - 1) * LOG_PAGE: page * LOG_PAGE] or ["(no orders yet)"]
        older = f" (/game log page:{page + 1} for older orders)" if page < pages else ""
        return [Output("ephemeral", f"Log page {page} of {pages}, newest first{older}:\n" + "\n".join(chunk), to=user.id)]

    async def game_export(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        async with self.ctx.lock(channel):  # the record at one version; written out after the lock
            row = await self.ctx.latest_row(channel)
            data = await export_record(self.ctx.store, row, viewer=user.id)
        name = f"game-{row.id}-{row.system}.json"
        note = "" if "seed" in data else (" so far, as you may see it: the whole record and the seed come once the "
                                          "game is over")

        async def work() -> bytes:
            return await asyncio.to_thread(lambda: json.dumps(data, indent=1, ensure_ascii=False).encode())

        def answer(blob: bytes, to: str, first: bool) -> Output:
            return Output("ephemeral", f"Export of game {row.id}{note}.", to=to, file=(name, blob))

        # a running game's export is the viewer's own part of it; a finished one is the same for all
        key = ("export", row.id, row.version, "" if "seed" in data else user.id)
        return await self._bounded("export", row.id, user, key, work, answer,
                                   "This game's export is being written for someone else right now; you will be "
                                   "sent yours when it is done.")

    async def game_replay(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """An animated GIF of the game so far in spectator frames (nothing private). Long games are
        sampled to at most MAX_REPLAY_FRAMES frames (the reply says which orders are not drawn), and one replay is drawn at a time per process:
        each holds a fold of the whole game and a frame being encoded, so concurrent ones would
        multiply the memory any spectator can make the bot use. Drawn in the worker pool, outside
        the channel's lock (see the module docstring)."""
        async with self.ctx.lock(channel):  # the game at one version: the rest works on this snapshot
            row = await self.ctx.latest_row(channel)
            orders = await self.ctx.store.orders(row.id, include_undone=False)
        # frames follow the orders this user's log lists (numbered as there), never a secret one:
        # a frame or a count per hidden order would count them. Worked out in a thread: a long game's
        # thousands of orders would hold up the event loop
        listed = await asyncio.to_thread(replay_listing, row, user.id, orders)
        if not listed:
            raise IllegalOrder("There is nothing to replay yet: no orders have been given.")
        sample = replay_steps(len(listed), MAX_REPLAY_FRAMES)  # 0 is the set-up, k the k-th listed order
        shown = {listed[k - 1][0]: (k, listed[k - 1][1]) for k in sample if k}
        steps = [0, *shown]
        name = f"game-{row.id}-replay.gif"
        count = len(listed)
        if len(steps) == count + 1:
            said = f"Replay of {count} order{'s' if count != 1 else ''}."
        else:
            said = (f"Replay of {count} orders in {len(steps)} frames (a long game is sampled): the set-up, "
                    f"then about one frame every {round(count / (len(steps) - 1))} orders, ending on the last; "
                    f"the orders between frames are not drawn (/game log lists every one).")

        async def work() -> bytes | None:
            return await self.ctx.work(draw_replay, row, orders, shown, steps)

        def answer(gif: bytes | None, to: str, first: bool) -> Output:
            if gif is None:
                rules = ruleset_for(row.system)
                why = rules_played(row, rules) or "Its record is damaged (/game verify says where)."
                return Output("ephemeral", f"No replay: this game's orders no longer replay under the rules this bot "
                                           f"runs. {why}", to=to)
            return Output("ephemeral", said, to=to, file=(name, gif))

        # the same frames and captions for whoever lists the same orders, at this version
        key = ("replay", row.id, row.version, tuple(listed))
        return await self._bounded("replay", row.id, user, key, work, answer,
                                   "A replay of this game is already being drawn; you will be sent yours (as a "
                                   "private message) when it is ready.")

    async def game_verify(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        if opts.get("export"):
            try:
                data = json.loads(opts["export"])
            except (ValueError, RecursionError) as exc:
                raise InvalidSyntax(f"The export is not valid JSON: {exc}.") from None
            if not isinstance(data, dict):
                raise InvalidSyntax("The export must be the JSON object /game export wrote.")
            data.pop("_private", None)  # only the bot's own check of a running game may claim that
            pasted = data

            async def check() -> str:
                return await self.ctx.work(verify_export, pasted)  # replays the whole game: off the event loop

            def posted(report: str, to: str, first: bool) -> Output:
                return Output("message", report, channel=channel) if first else Output("ephemeral", report, to=to)

            # pasted exports count as one "game" (0): one checked at a time, the same cool-down
            return await self._bounded("verify", 0, user, ("pasted", hashlib.sha256(opts["export"].encode()).digest()),
                                       check, posted, "Another pasted export is being checked right now; you will be "
                                       "sent the result of yours (as a private message) when it is done.")
        async with self.ctx.lock(channel):  # the record at one version; checked outside the lock
            row = await self.ctx.latest_row(channel)
            data = await export_record(self.ctx.store, row, secrets=True)
        if "seed" not in data:
            # the bot may check its own unfinished game with the secret seed, revealing nothing
            data = data | {"seed": row.seed.hex(), "_private": True}

        async def work() -> str:
            return await self.ctx.work(verify_export, data)

        def answer(report: str, to: str, first: bool) -> Output:
            # a finished game's check is posted once; a re-ask or a wait is answered privately
            if first and not data.get("_private"):
                return Output("message", report, channel=channel)
            return Output("ephemeral", report, to=to)

        return await self._bounded("verify", row.id, user, ("verify", row.id, row.version), work, answer,
                                   "This game is already being checked; you will be sent the result (as a private "
                                   "message) when it is done.")

    async def game_private(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """Everything private this user may see here, ephemerally (the closed-DM fallback)."""
        lines: list[str] = []
        view: View | None = None
        row = await self.ctx.live_game(channel)
        if row:
            loaded = self.ctx.decode(row)
            for seat in user_seats(row, user.id):
                seat_view = loaded.rules.view(loaded.state, seat)
                view = seat_view
                lines += [f"**{seat_label(loaded, seat)}**", *seat_view.private_text]
            mine = set(user_seats(row, user.id))
            # numbered as the asker's /game log numbers them: a global order number would count hidden orders
            seen = list(enumerate(orders_seen(row, user.id, await self.ctx.store.orders(row.id)), start=1))
            for number, (o, _) in [(n, seen_o) for n, seen_o in seen if not seen_o[0].undone][-10:]:
                for e in o.events:
                    if e["to"] is not None and (mine & set(e["to"]) or UMPIRE in mine):
                        lines.append(f"[{number}] {e['text']}")
        for sealed in await self.ctx.store.sealed_streams(channel):  # closed streams keep their secret rolls
            lines += TOOLS.secret_lines(TOOLS.decode(sealed.snapshot), user.id)
        tools_row = await self.ctx.store.tools(channel)
        if tools_row:
            tools_state: ToolsState = TOOLS.decode(tools_row.snapshot)
            lines += TOOLS.private_text(tools_state, user.id)
        text = "\n".join(lines) or "You have nothing private in this channel."
        # one page per answer: a long list (many secret rolls) must not become a flood of messages
        pages = split_text(text, MAX_MESSAGE - 100)
        page_text = opts.get("page", "") or "1"
        page = small_number(page_text) or 0
        if not 1 <= page <= len(pages):
            raise InvalidSyntax(f"No private page {quote(page_text)}.", hint=f"Pages run 1 to {len(pages)}.")
        if len(pages) > 1:
            more = f" (/game private page:{page + 1} for the next)" if page < len(pages) else ""
            return [Output("ephemeral", f"Page {page} of {len(pages)}{more}:\n{pages[page - 1]}", to=user.id,
                           view=view if page == 1 else None)]
        return [Output("ephemeral", text, to=user.id, view=view)]


def replay_listing(row: GameRow, user_id: str, orders: list[OrderRow]) -> list[tuple[int, str]]:
    """(fold step, caption text) of each order ``user_id``'s log lists, in order (see game_replay)."""
    position = {o.seq: i for i, o in enumerate(orders)}
    return [(position[o.seq] + 1, o.text if readable else HIDDEN_ORDER) for o, readable in orders_seen(row, user_id, orders)]


def draw_replay(row: GameRow, orders: list[OrderRow], shown: dict[int, tuple[int, str]],
                steps: list[int]) -> bytes | None:
    """The replay GIF (in a worker: everything it needs is in its arguments), or None when the
    orders no longer replay (rules changed since the game was played, or a damaged record)."""
    from render import render_replay

    try:
        views, captions = replay_frames(row, orders, shown, steps)
    except (GameError, TypeError, ValueError, KeyError):
        return None
    return render_replay(views, captions)


def replay_frames(
    row: GameRow, orders: list[OrderRow], shown: dict[int, tuple[int, str]], steps: list[int]
) -> tuple[list[View], list[str]]:
    """Fold every order from set-up; a spectator frame and caption at each of ``steps`` (0 is
    the set-up, i follows order i, captioned with ``shown[i]``'s number and text). Order text
    goes into captions as it is, never formatted. The orders are only shown again, so the fold
    may skip checks that can only refuse (``shown_only``); /game verify makes them all."""
    rules = ruleset_for(row.system)
    wanted = set(steps)
    views: list[View] = []
    captions: list[str] = []
    plays = ((o.seat, o.text) for o in orders)
    for step, (state, _, _) in enumerate(fold(rules, row.seed, row.scenario, row.options, plays, shown_only=True)):
        if step not in wanted:
            continue
        views.append(rules.view(state, None))
        if step == 0:
            captions.append("Set-up")
        else:
            order, (number, text) = orders[step - 1], shown[step]
            captions.append(f"{number}. {seat_label(Loaded(row, rules, state), order.seat)}: {text}")
    return views, captions


async def export_record(store: Storage, row: GameRow, *, secrets: bool = False, viewer: str | None = None) -> dict[str, Any]:
    """The record: once the game is over, every order and event and the seed. While it runs,
    ``viewer``'s part of it (the orders their log lists, see ``orders_seen`` in seats.py, numbered as
    there, with public events only), so an export neither counts nor times hidden orders;
    ``secrets`` is the whole record for the bot's own check (``/game verify``). Put together in a
    thread: a long game's thousands of orders would hold up the event loop."""
    return await asyncio.to_thread(record_of, row, await store.orders(row.id), secrets, viewer)


def record_of(row: GameRow, orders: list[OrderRow], secrets: bool, viewer: str | None) -> dict[str, Any]:
    """``export_record`` from the orders read."""
    over = row.status in FINISHED
    if not (over or secrets):
        listed = orders_seen(row, viewer, orders)
        orders = [dataclasses.replace(o, seq=n, text=o.text if readable else HIDDEN_ORDER)
                  for n, (o, readable) in enumerate(listed, start=1)]
    data: dict[str, Any] = {
        "format": "wargame-table-export/1",
        "system": row.system,
        "scenario": row.scenario,
        "options": row.options,
        "commitment": row.commitment,
        "rules_version": row.rules,
        "status": row.status,
        "orders": [
            {
                "seq": o.seq,
                "seat": o.seat,
                "text": o.text,
                "undone": o.undone,
                "events": [e for e in o.events if over or e["to"] is None],
            }
            for o in orders
        ],
    }
    if over:
        data["seed"] = row.seed.hex()
    return data


def _rules_changed(data: dict[str, Any]) -> str:
    """For a failed check: that the export's game was played under another version of its rules
    than the bot runs (an honest game then fails too, so nobody should cry foul), or ""."""
    played = data.get("rules_version", "")
    try:
        rules = ruleset_for(str(data.get("system")))
    except GameError:
        return ""
    if not isinstance(played, str) or played == rules.rules_version:
        return ""
    return (f". The {rules.name} rules have changed since this game was played: it was played under "
            f"{version_words(played)}, this bot runs version {rules.rules_version}")


def verify_export(data: dict[str, Any]) -> str:
    """Re-derive every roll and draw of an export from its seed and report any mismatch."""
    problems: list[str] = []
    if not isinstance(data, dict):
        return "**Verification FAILED**: this is not a game export (expected a JSON object from /game export)."
    seed_hex = data.get("seed")
    if not seed_hex:
        return "This export has no seed yet: it is published when the game ends. Nothing to verify."
    try:
        seed = bytes.fromhex(seed_hex)
    except (TypeError, ValueError):
        return f"**Verification FAILED**: the seed {quote(str(seed_hex))} is not hexadecimal."
    if hashlib.sha256(seed).hexdigest() != data.get("commitment"):
        problems.append("the seed does not match the commitment shown at the start")
    at = "set-up"
    try:
        rules = ruleset_for(data["system"])
        full = data.get("status") in FINISHED  # finished exports carry private events too
        live = [o for o in data["orders"] if not o["undone"]]
        checked = len(live)
        steps = fold(rules, seed, data["scenario"], data["options"], ((o["seat"], o["text"]) for o in live))
        next(steps)  # the set-up
        for o in live:
            at = "an order" if data.get("_private") else f"order {o['seq']}"
            _, _, events = next(steps)
            got = [e.text for e in events if full or e.public]
            if got != [e["text"] for e in o["events"]]:
                # the bot's own check of a running game replays hidden orders: it names none, nor
                # numbers them (a number counts the hidden orders before it)
                named = "an order" if data.get("_private") else f"order {o['seq']} ({o['text']})"
                problems.append(f"{named} gives different results on replay")
    except Exception as exc:  # an edited export can drive a ruleset anywhere: any failure is a failed check
        # the bot's own check may not quote the error: it can repeat a hidden order's text
        problems.append(f"replay failed at {at}" + ("" if data.get("_private") else f": {exc}"))
        checked = 0
    if problems:
        return "**Verification FAILED**: " + "; ".join(problems[:10]) + _rules_changed(data)
    if data.get("_private"):  # a running game: how many orders were replayed would count the hidden ones
        return (f"**Verified** (checked by the bot with the still-secret seed): seed matches commitment "
                f"`{data['commitment'][:16]}…`; every order so far replayed, every roll and card identical.")
    return (f"**Verified**: seed matches commitment `{data['commitment'][:16]}…`; "
            f"{checked} order{'' if checked == 1 else 's'} replayed, every roll and card identical.")
