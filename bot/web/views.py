"""What a web viewer sees of a game: status, log and boards, now or at a step of the replay.

Everything goes through the table service the bot uses (``TableService.log_lines`` for the
per-reader log, ``rules.view(state, seat)`` for the board, ``fold`` for the replay) and is drawn
by ``render.render_png`` exactly as the bot draws it, so the web shows nothing the bot would not
show the same reader. The public viewer is seat ``None`` reading as nobody (user ``None``).

The replay walks the orders the viewer's log lists (step 0 is the set-up, step k follows the k-th
listed order), as ``/game replay`` does, so a step never counts or times a hidden order. Its views
are folded once per (game, viewer, last listed order) and kept in a small LRU; drawn PNGs are
kept in a byte-bounded LRU shared by every viewer; at most ``DRAW_SLOTS`` folds or draws run at a
time, off the event loop. With ``draw_process`` the PNGs are drawn in one worker process rather
than a thread: drawing is CPU-bound Python, and in a thread it holds the GIL the bot's event loop
(and its order path, when the web runs in the bot's process) needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from bot.rooms.common import ruleset_for, side_labels
from bot.rooms.records import log_lines
from bot.rooms.seats import seat_label
from bot.service import Loaded, TableService, fold
from bot.storage import Backend, GameRow, OrderRow
from games.core.view import View

log = logging.getLogger("wargame.web")

LOG_PAGE = 15  # as /game log
DRAW_SLOTS = 1  # one drawing thread: a second draws no faster (the GIL) and starves the event loop more
FOLD_CACHE = 16  # folded replays (a list of views each) kept
MEMO = 1024  # per (game, version) results kept: its orders, each reader's log, view and status
PNG_CACHE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Reader:
    """Who is looking: a seat (with the user holding it) or the public (both None)."""

    seat: str | None = None
    user: str | None = None


class Lru:
    """A thread-safe LRU bounded by total size (bytes for PNGs, entries for folds)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self._items: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            hit = self._items.get(key)
            if hit is None:
                return None
            self._items.move_to_end(key)
            return hit[0]

    def put(self, key: Any, value: Any, size: int = 1) -> None:
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.size -= old[1]
            self._items[key] = (value, size)
            self.size += size
            while self.size > self.limit and self._items:
                _, (_, dropped) = self._items.popitem(last=False)
                self.size -= dropped


def fingerprint(*parts: object) -> str:
    """A short digest of what a reader sees, for change detection and cache-busting URLs."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def draw(view: View) -> bytes:
    """A view's PNG (module level: the drawing process calls it)."""
    from render import render_png

    return render_png(view)


def warm(niceness: int = 0) -> None:
    """In the drawing process, before the first viewer asks: take the CPU priority asked for (at
    least this niceness: the bot's orders come first) and import the renderer (fonts, tables)."""
    if niceness > 0 and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(max(0, niceness - os.nice(0)))
    import render  # noqa: F401


def fold_views(row: GameRow, seat: str | None, orders: list[OrderRow], wanted: list[int]) -> list[View]:
    """The seat's view at set-up and after each order of ``wanted`` (seqs): one fold of the whole
    game (module level: the drawing process runs it, off the GIL the bot's loop needs). The stored
    orders are only shown again, so checks that can only refuse are skipped (``shown_only``)."""
    rules = ruleset_for(row.system)
    seqs = set(wanted)
    views: list[View] = []
    plays = ((o.seat, o.text) for o in orders)
    for i, (state, _, _) in enumerate(fold(rules, row.seed, row.scenario, row.options, plays, shown_only=True)):
        if i == 0 or orders[i - 1].seq in seqs:
            views.append(rules.view(state, seat))
        if len(views) == len(wanted) + 1:
            break
    return views


class GameViews:
    """The per-reader pictures and pages of every game on one store."""

    def __init__(self, service: TableService, store: Backend, *, png_bytes: int = PNG_CACHE_BYTES,
                 draw_process: bool = False) -> None:
        self.service = service
        self.store = store
        self.pngs = Lru(png_bytes)
        self.folds = Lru(FOLD_CACHE)
        self.memo = Lru(MEMO)
        self._slots = asyncio.Semaphore(DRAW_SLOTS)
        self._pending: dict[Any, asyncio.Future[Any]] = {}  # one fold or draw per key at a time
        self.draw_process = draw_process
        self.niceness = 0  # the drawing process's CPU priority (bot/web/server.py sets it)
        self._pool: ProcessPoolExecutor | None = None

    def close(self) -> None:
        """Stop the drawing process, if one was started."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def pool(self) -> ProcessPoolExecutor:
        """The drawing process, started (and its renderer imported) on first use."""
        if self._pool is None:  # forkserver: never a fork of this process's threads (SQLite's)
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver"),
                                             initializer=warm, initargs=(self.niceness,))
            self._pool.submit(warm)
        return self._pool

    async def _off_loop(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in the drawing process, or else a thread."""
        if self.draw_process:
            try:
                return await asyncio.get_running_loop().run_in_executor(self.pool(), work, *args)
            except BrokenProcessPool:  # the process died: start another next time, do this one here
                log.exception("the web's drawing process died")
                self.close()
        return await asyncio.to_thread(work, *args)

    async def _draw(self, view: View) -> bytes:
        """The PNG, drawn in the drawing process or else a thread."""
        return await self._off_loop(draw, view)  # type: ignore[no-any-return]

    async def _once(self, cache: Lru, key: Any, work: Callable[[], Awaitable[Any]], size: Any = None) -> Any:
        """``cache[key]``, else the result of ``work()`` (off the event loop), at most DRAW_SLOTS
        at a time; concurrent askers for one key share the one run."""
        hit = cache.get(key)
        if hit is not None:
            return hit
        pending = self._pending.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            async with self._slots:
                value = await work()
            cache.put(key, value, size(value) if size else 1)
            future.set_result(value)
            return value
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._pending[key]

    async def row(self, game: int) -> GameRow | None:
        return await self.store.game_by_id(game)

    def loaded(self, row: GameRow) -> Loaded:
        return self.service.table.decode(row)

    async def listed(self, row: GameRow, reader: Reader) -> tuple[list[OrderRow], list[tuple[OrderRow, str]]]:
        """The reader's whole log (as /game log, undone orders marked), and the standing orders the
        replay folds. Kept per (game, version): a version is never reused for other orders or seats."""
        key = ("log", row.id, row.version, row.status, reader.user)
        hit = self.memo.get(key)
        if hit is None:
            orders = await self.store.orders(row.id)
            hit = [o for o in orders if not o.undone], log_lines(row, reader.user, orders)
            self.memo.put(key, hit)
        return hit  # type: ignore[no-any-return]

    def live(self, loaded: Loaded, reader: Reader) -> tuple[View, dict[str, Any], str]:
        """The reader's view and status of the game now, and their fingerprint (kept per version)."""
        row = loaded.row
        key = ("live", row.id, row.version, row.status, reader)
        hit = self.memo.get(key)
        if hit is None:
            view = loaded.view(reader.seat)
            status = self.status(loaded, reader)
            hit = (view, status, fingerprint(view, status))
            self.memo.put(key, hit)
        return hit  # type: ignore[no-any-return]

    def status(self, loaded: Loaded, reader: Reader) -> dict[str, Any]:
        """Turn, phase, who acts and the sides, as /game status tells anyone (plus, for a seat,
        its own private lines: its hand, its secret values)."""
        rules, row, state = loaded.rules, loaded.row, loaded.state
        acting = set(rules.to_act(state)) if row.status == "running" else set()
        seats = [{"label": s.label, "holder": row.seats[s.id]["name"] if s.id in row.seats else "open",
                  "acts": s.id in acting} for s in rules.seats(state)]
        outcome = rules.outcome(state)
        data: dict[str, Any] = {
            "system": rules.name, "scenario": row.scenario, "state": row.status,
            "summary": list(rules.summary(state)), "seats": seats,
            "sides": list(side_labels(rules, state).values()),
            "result": outcome.reason if outcome else "",
        }
        if reader.seat is not None:
            view = rules.view(state, reader.seat)
            data["viewer"] = seat_label(loaded, reader.seat)
            data["private"] = list(view.private_text)
        return data

    async def page(self, row: GameRow, reader: Reader, step: int | None, log_page: int) -> dict[str, Any]:
        """The JSON a page shows: status, the board's URL part, the log page (newest first) and the
        replay position. ``step`` None is the game now; else 0..steps (clamped)."""
        loaded = self.loaded(row)
        _, log = await self.listed(row, reader)
        lines = [(o, line) for o, line in log if not o.undone]
        steps = len(lines)
        if step is not None:
            step = max(0, min(step, steps))
            shown = lines[:step]
            caption = lines[step - 1][1] if step else "Set-up"
            board = f"step={step}&f={fingerprint(row.id, reader, [o.seq for o, _ in shown])}"
        else:
            shown = log
            caption = ""
            board = f"f={self.live_key(loaded, reader)}"
        newest_first = [line for _, line in reversed(shown)]
        pages = max(1, (len(newest_first) + LOG_PAGE - 1) // LOG_PAGE)
        log_page = max(1, min(log_page, pages))
        return {
            "status": self.live(loaded, reader)[1], "steps": steps, "step": step, "caption": caption,
            "board": board, "log": newest_first[(log_page - 1) * LOG_PAGE: log_page * LOG_PAGE],
            "log_page": log_page, "log_pages": pages,
        }

    def live_key(self, loaded: Loaded, reader: Reader) -> str:
        """Changes exactly when what this reader sees now changes (never on a hidden order alone)."""
        return self.live(loaded, reader)[2]

    async def live_png(self, row: GameRow, reader: Reader) -> bytes:
        view, _, key = self.live(self.loaded(row), reader)
        return await self._png(("live", key), view)

    async def step_png(self, row: GameRow, reader: Reader, step: int) -> bytes:
        orders, log = await self.listed(row, reader)
        lines = [(o, line) for o, line in log if not o.undone]
        step = max(0, min(step, len(lines)))
        last = lines[-1][0].seq if lines else 0
        key = ("step", row.id, reader.seat, tuple(o.seq for o, _ in lines[:step]))
        png = self.pngs.get(("png", key))
        if png is not None:
            return png  # type: ignore[no-any-return]
        fold_key = (row.id, reader, last)
        wanted = [o.seq for o, _ in lines]
        views = await self._once(self.folds, fold_key,
                                 lambda: self._off_loop(fold_views, row, reader.seat, orders, wanted))
        return await self._png(key, views[step])

    async def _png(self, key: Any, view: View) -> bytes:
        return await self._once(self.pngs, ("png", key), lambda: self._draw(view), len)  # type: ignore[no-any-return]
