"""The game's record: /game log, export, replay, verify and private, and the check of an export."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
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
    ruleset_for,
)
from bot.rooms.context import Table
from bot.rooms.seats import orders_seen, seat_label, user_seats
from bot.storage import GameRow, OrderRow, Storage
from bot.text import split_text
from games.core.errors import IllegalOrder, InvalidSyntax, WrongPhase, quote
from games.core.ruleset import UMPIRE
from games.core.view import View
from games.tools import TOOLS, ToolsState, small_number

LOG_PAGE = 15



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
        self._replay_lock = asyncio.Lock()

    async def game_log(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self.ctx.latest(channel)
        orders = await self.ctx.store.orders(loaded.row.id)
        # Page 1 is the newest orders, newest first: in a long game that is what players look for.
        lines = [line for _, line in reversed(log_lines(loaded.row, user.id, orders))]
        pages = max(1, (len(lines) + LOG_PAGE - 1) // LOG_PAGE)
        page_text = opts.get("page", "") or "1"
        page = small_number(page_text) or 0
        if not 1 <= page <= pages:
            raise InvalidSyntax(f"No log page {quote(page_text)}.", hint=f"Pages run 1 (newest) to {pages} (oldest).")
        chunk = lines[(page - 1) * LOG_PAGE: page * LOG_PAGE] or ["(no orders yet)"]
        older = f" (/game log page:{page + 1} for older orders)" if page < pages else ""
        return [Output("ephemeral", f"Log page {page} of {pages}, newest first{older}:\n" + "\n".join(chunk), to=user.id)]

    async def game_export(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self.ctx.latest(channel)
        data = await export_record(self.ctx.store, loaded.row, viewer=user.id)
        blob = json.dumps(data, indent=1, ensure_ascii=False).encode()
        name = f"game-{loaded.row.id}-{loaded.row.system}.json"
        note = "" if "seed" in data else (" so far, as you may see it: the whole record and the seed come once the "
                                          "game is over")
        return [Output("ephemeral", f"Export of game {loaded.row.id}{note}.", to=user.id, file=(name, blob))]

    async def game_replay(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """An animated GIF of the game so far in spectator frames (nothing private). Long games are
        sampled to at most MAX_REPLAY_FRAMES frames, and one replay is drawn at a time per process:
        each holds a fold of the whole game and a frame being encoded, so concurrent ones would
        multiply the memory any spectator can make the bot use."""
        loaded = await self.ctx.latest(channel)
        orders = await self.ctx.store.orders(loaded.row.id, include_undone=False)
        # frames follow the orders this user's log lists (numbered as there), never a secret one:
        # a frame or a count per hidden order would count them
        position = {o.seq: i for i, o in enumerate(orders)}
        listed = [(position[o.seq] + 1, o.text if readable else HIDDEN_ORDER)
                  for o, readable in orders_seen(loaded.row, user.id, orders)]
        if not listed:
            raise IllegalOrder("There is nothing to replay yet: no orders have been given.")
        if self._replay_lock.locked():
            raise WrongPhase("Another replay is being drawn right now (the bot draws one at a time).",
                             hint="Try /game replay again in a minute.")
        async with self._replay_lock:
            sample = replay_steps(len(listed), MAX_REPLAY_FRAMES)  # 0 is the set-up, k the k-th listed order
            shown = {listed[k - 1][0]: (k, listed[k - 1][1]) for k in sample if k}
            steps = [0, *shown]
            views, captions = await asyncio.to_thread(self._replay_frames, loaded, orders, shown, steps)
            from render import render_replay

            gif = await asyncio.to_thread(render_replay, views, captions)
        name = f"game-{loaded.row.id}-replay.gif"
        count = len(listed)
        if len(steps) == count + 1:
            said = f"Replay of {count} order{'s' if count != 1 else ''}."
        else:
            said = (f"Replay of {count} orders in {len(steps)} frames (a long game is sampled): the set-up, "
                    f"then about one frame every {round(count / (len(steps) - 1))} orders, ending on the last.")
        return [Output("ephemeral", said, to=user.id, file=(name, gif))]

    def _replay_frames(
        self, loaded: Loaded, orders: list[OrderRow], shown: dict[int, tuple[int, str]], steps: list[int]
    ) -> tuple[list[View], list[str]]:
        """Fold every order from set-up; a spectator frame and caption at each of ``steps`` (0 is
        the set-up, i follows order i, captioned with ``shown[i]``'s number and text). Order text
        goes into captions as it is, never formatted."""
        rules, row = loaded.rules, loaded.row
        wanted = set(steps)
        views: list[View] = []
        captions: list[str] = []
        for step, (state, _, _) in enumerate(fold(rules, row.seed, row.scenario, row.options, ((o.seat, o.text) for o in orders))):
            if step not in wanted:
                continue
            views.append(rules.view(state, None))
            if step == 0:
                captions.append("Set-up")
            else:
                order, (number, text) = orders[step - 1], shown[step]
                captions.append(f"{number}. {seat_label(Loaded(row, rules, state), order.seat)}: {text}")
        return views, captions

    async def game_verify(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        if opts.get("export"):
            try:
                data = json.loads(opts["export"])
            except (ValueError, RecursionError) as exc:
                raise InvalidSyntax(f"The export is not valid JSON: {exc}.") from None
            if not isinstance(data, dict):
                raise InvalidSyntax("The export must be the JSON object /game export wrote.")
            data.pop("_private", None)  # only the bot's own check of a running game may claim that
        else:
            loaded = await self.ctx.latest(channel)
            data = await export_record(self.ctx.store, loaded.row, secrets=True)
            if "seed" not in data:
                # the bot may check its own unfinished game with the secret seed, revealing nothing
                data = data | {"seed": loaded.row.seed.hex(), "_private": True}
        report = await asyncio.to_thread(verify_export, data)  # replays the whole game: off the event loop
        if data.get("_private"):
            return [Output("ephemeral", report, to=user.id)]
        return [Output("message", report, channel=channel)]

    async def game_private(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """Everything private this user may see here, ephemerally (the closed-DM fallback)."""
        lines: list[str] = []
        view: View | None = None
        row = await self.ctx.store.live_game(channel)
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


async def export_record(store: Storage, row: GameRow, *, secrets: bool = False, viewer: str | None = None) -> dict[str, Any]:
    """The record: once the game is over, every order and event and the seed. While it runs,
    ``viewer``'s part of it (the orders their log lists, see ``orders_seen`` in seats.py, numbered as
    there, with public events only), so an export neither counts nor times hidden orders;
    ``secrets`` is the whole record for the bot's own check (``/game verify``)."""
    orders = await store.orders(row.id)
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
        return "**Verification FAILED**: " + "; ".join(problems[:10])
    if data.get("_private"):  # a running game: how many orders were replayed would count the hidden ones
        return (f"**Verified** (checked by the bot with the still-secret seed): seed matches commitment "
                f"`{data['commitment'][:16]}…`; every order so far replayed, every roll and card identical.")
    return (f"**Verified**: seed matches commitment `{data['commitment'][:16]}…`; "
            f"{checked} order{'' if checked == 1 else 's'} replayed, every roll and card identical.")
