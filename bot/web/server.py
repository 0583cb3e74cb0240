"""The web companion's HTTP server (aiohttp): read-only pages of each game on the bot's store.

    python -m bot web      # WARGAME_WEB_PORT (8080), WARGAME_WEB_HOST (127.0.0.1), WARGAME_DB

Routes (GET only; anything else is 405, and nothing here ever gives an order):

- ``/g/<id>``: a game's page (``?t=<link>`` for a seat's own view); the HTML holds no game data,
  ``static/app.js`` fetches it;
- ``/api/g/<id>/page``: status, log page and replay position as JSON (``step``, ``log``);
- ``/api/g/<id>/board.png``: the board now, or at replay ``step``;
- ``/api/g/<id>/events``: server-sent events, a ``change`` whenever what this reader sees changes,
  carrying the reader's live page JSON (log page 1), so a viewer on it only fetches the new board
  (found by polling the watched games' versions, one query for all, so orders applied by any bot
  process on the store show within ``POLL`` + ``SPREAD`` seconds; a hidden order alone changes
  nothing a public reader sees, so sends nothing).

Safe by default: a strict Content-Security-Policy without inline script, nosniff, no framing, no
referrer; error pages are short fixed texts (no path, no traceback); each client is held to a
request rate; replay folds and draws are bounded and cached (``bot/web/views.py``).

Cheap for many viewers, and kept off the bot's order path (``benchmarks/web.py`` measures it):
on a SQLite file the web reads through a read-only connection of its own, never the bot's
connection and lock (in the bot's process) and never a write; one query every ``POLL`` seconds
reads the versions of all watched games, and a changed game's row is read once for all its
viewers; a public reader's game row is read at most once per ``FRESH`` seconds per game; every
page JSON and board answer carries an ETag made from (game, version, status, reader, step, log
page), checked before any work, so a repeat poll is a 304; each JSON body is encoded once per
(game, version, reader, request) and kept in a byte-bounded LRU shared by every viewer (a change
event sends the same bytes, so a viewer on the live page only fetches the new board); a game's
change events are spread over ``SPREAD`` seconds. ``python -m bot web`` and the web's drawing
process run ``WARGAME_WEB_NICE`` (default 10) steps lower in CPU priority than the bot, so on a
shared machine the bot's orders come first. A seat's link always reads the row fresh (a revoked
or reassigned link must be refused at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import secrets
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import cast

import aiosqlite
from aiohttp import web

from bot.service import TableService
from bot.storage import Backend, GameRow
from bot.store import SqliteConnection, Store
from bot.store_sql import SqlStore
from bot.web import links
from bot.web.views import GameViews, Lru, Reader, fingerprint
from games.tools import TOOLS

log = logging.getLogger("wargame.web")

STATIC = Path(__file__).resolve().parent / "static"
DEFAULT_PORT = 8080
POLL = 0.5  # seconds between version checks of the watched games
SPREAD = 0.4  # seconds over which one change's events to a game's viewers are spread
FRESH = 0.25  # seconds a public reader may be shown a game row already read (never a seat's)
BODY_CACHE_BYTES = 16 * 1024 * 1024  # encoded JSON answers kept
KEEPALIVE = 15.0
MAX_STREAMS = 2000  # live-update connections at once, over all clients
POLL_BATCH = 500  # watched games' versions read per query
NICE = 10  # how much lower than the bot's the web's CPU priority is (WARGAME_WEB_NICE; 0 keeps it)
RATE = 20.0  # requests per second per client, with bursts of BURST
BURST = 60.0
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Server": "wargame-web",
}
PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Game {game}</title>
<link rel="stylesheet" href="/static/style.css">
<script src="/static/app.js" defer></script>
</head>
<body data-game="{game}">
<header><h1 id="title">Game {game}</h1><p id="notice" role="status"></p></header>
<main>
<section id="board-pane">
<div id="board-frame"><img id="board" alt="The board"></div>
<div id="zoom-bar"><button id="zoom-out" type="button">−</button><button id="zoom-reset" type="button">Fit</button>
<button id="zoom-in" type="button">+</button></div>
<div id="replay"><button id="first" type="button">First</button><button id="prev" type="button">◀</button>
<input id="scrub" type="range" min="0" max="0" value="0" aria-label="Replay position">
<button id="next" type="button">▶</button><button id="live" type="button">Live</button>
<span id="position"></span></div>
<p id="caption"></p>
</section>
<aside>
<section id="status"></section>
<section id="private" hidden><h2>Only you see this</h2><pre id="private-text"></pre></section>
<section><h2>Log <small>newest first</small></h2><ol id="log"></ol>
<div id="log-pages"><button id="newer" type="button">Newer</button><span id="log-page"></span>
<button id="older" type="button">Older</button></div></section>
</aside>
</main>
</body>
</html>
"""
ERROR_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body><main class="error"><h1>{title}</h1><p>{text}</p></main></body></html>
"""


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


class Refused(Exception):
    """A request that must be turned away with this status and message (shown to the reader)."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


def error_response(status: int, text: str, *, html: bool) -> web.Response:
    if html:
        title = {403: "Not allowed", 404: "Not found", 405: "Read-only", 429: "Slow down"}.get(status, "Error")
        body = ERROR_PAGE.format(title=title, text=_escape(text))
        return web.Response(status=status, text=body, content_type="text/html")
    return web.json_response({"error": text}, status=status)


class RateLimit:
    """A token bucket per client address: ``rate`` requests a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if len(self._buckets) > 50_000:  # forget idle clients rather than grow without bound
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return False
        self._buckets[client] = (tokens - 1, now)
        return True


class Rows:
    """Game rows read from the store, each kept ``fresh`` seconds for public readers; concurrent
    askers for one game share one read."""

    def __init__(self, store: Backend, fresh: float = FRESH) -> None:
        self.store, self.fresh = store, fresh
        self._rows: dict[int, tuple[float, GameRow | None]] = {}
        self._pending: dict[int, asyncio.Future[GameRow | None]] = {}

    async def read(self, game: int) -> GameRow | None:
        """The row now (one store read, shared by everyone asking at the same moment)."""
        pending = self._pending.get(game)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[GameRow | None] = asyncio.get_running_loop().create_future()
        self._pending[game] = future
        try:
            row = await self.store.game_by_id(game)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._pending[game]
        future.set_result(row)
        if len(self._rows) > 10_000:  # forget the oldest rather than grow without bound
            self._rows.clear()
        self._rows[game] = (time.monotonic(), row)
        return row

    async def recent(self, game: int) -> GameRow | None:
        """The row as read at most ``fresh`` seconds ago."""
        hit = self._rows.get(game)
        if hit is not None and time.monotonic() - hit[0] < self.fresh:
            return hit[1]
        return await self.read(game)


class Watcher:
    """The live streams of one game: woken whenever its version or status changes."""

    def __init__(self, game: int, mark: tuple[int, str]) -> None:
        self.game = game
        self.watchers = 0
        self.changed = asyncio.Condition()
        self.mark = mark
        self.tick = 0  # changes seen so far: a stream busy when one came still sees it

async def versions(store: Backend, games: list[int]) -> dict[int, tuple[int, str]]:
    """(version, status) of each game still on the store: one query per POLL_BATCH games."""
    if not isinstance(store, SqlStore):  # a backend without SQL: one read per game
        rows = [await store.game_by_id(game) for game in games]
        return {row.id: (row.version, row.status) for row in rows if row is not None}
    marks: dict[int, tuple[int, str]] = {}
    for first in range(0, len(games), POLL_BATCH):
        batch = games[first:first + POLL_BATCH]
        found = await store._fetch(f"SELECT id, version, status FROM games WHERE id IN ({','.join('?' * len(batch))})",
                                   batch)
        marks.update({int(r[0]): (int(r[1]), str(r[2])) for r in found})
    return marks


class Poller:
    """Checks every watched game's version in one query each POLL seconds (not one per game or per
    viewer); a game that changed is read once, then its streams are woken."""

    def __init__(self, rows: Rows) -> None:
        self.rows = rows
        self.games: dict[int, Watcher] = {}
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        while True:
            await asyncio.sleep(POLL)
            if not self.games:
                continue
            try:
                marks = await versions(self.rows.store, list(self.games))
                for game, watcher in list(self.games.items()):
                    mark = marks.get(game, (-1, ""))
                    if mark != watcher.mark:
                        await self.rows.read(game)  # the streams about to wake find it fresh
                        watcher.mark = mark
                        watcher.tick += 1
                        async with watcher.changed:
                            watcher.changed.notify_all()
            except Exception:  # a store hiccup: try again at the next poll
                log.exception("polling the watched games")


class WebServer:
    """The application's state: the store, the views, the watchers and the rate limit."""

    def __init__(self, store: Backend, service: TableService | None = None, *, rate: float = RATE,
                 burst: float = BURST, trust_proxy: bool = False, fresh: float = FRESH,
                 draw_process: bool = False) -> None:
        self.store = store
        self.rows = Rows(store, fresh)
        self.views = GameViews(service or TableService(store), store, draw_process=draw_process)
        self.bodies = Lru(BODY_CACHE_BYTES)
        self.boot = secrets.token_hex(4)  # in every ETag: a restarted (maybe newer) server answers afresh
        self.limit = RateLimit(rate, burst)
        self.trust_proxy = trust_proxy
        self.poller = Poller(self.rows)
        self.watchers = self.poller.games
        self.streams = 0
        self.closing = False
        self.writer = store  # the store given; reads go to self.store (a read-only connection on SQLite)

    # --- plumbing --------------------------------------------------------------------------
    def client(self, request: web.Request) -> str:
        """The client's address; behind a trusted reverse proxy, the one it says it served."""
        forwarded = request.headers.get("X-Forwarded-For", "")
        if self.trust_proxy and forwarded:
            return forwarded.split(",")[-1].strip()
        return request.remote or "?"

    @web.middleware
    async def guard(self, request: web.Request,
                    handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        html = not request.path.startswith("/api/")
        if request.method not in ("GET", "HEAD"):
            return error_response(405, "This site only shows games; orders are given in Discord.", html=html)
        if not self.limit.allow(self.client(request)):
            return error_response(429, "Too many requests: wait a moment and try again.", html=html)
        try:
            return await handler(request)
        except Refused as refused:
            return error_response(refused.status, refused.text, html=html)
        except web.HTTPException as exc:
            if exc.status < 400:
                raise
            text = "There is no such page." if exc.status == 404 else "That request cannot be answered."
            return error_response(exc.status, text, html=html)
        except (asyncio.CancelledError, ConnectionResetError):
            raise
        except Exception:
            log.exception("web request %s failed", request.path)
            return error_response(500, "Something went wrong on the server; it has been logged.", html=html)

    @staticmethod
    async def headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(HEADERS)
        if request.path.startswith("/api/") and "Cache-Control" not in response.headers:
            response.headers["Cache-Control"] = "no-store"

    async def reader(self, request: web.Request) -> tuple[GameRow, Reader]:
        """The game asked for and who is looking (the public, or a link's seat)."""
        try:
            game = int(request.match_info["game"])
        except ValueError:
            raise Refused(404, "There is no such game.") from None
        if not 0 < game < 2**62:
            raise Refused(404, "There is no such game.")
        token = request.query.get("t", "")
        row = await (self.rows.read(game) if token else self.rows.recent(game))
        if row is None or row.system == TOOLS.id:
            raise Refused(404, "There is no such game.")
        if not token:
            return row, Reader()
        try:
            grant = await links.check(self.store, token, row)
        except links.LinkRefused as bad:
            raise Refused(403, str(bad)) from None
        except (ValueError, KeyError, TypeError):
            raise Refused(403, "This link is not a valid game link.") from None
        return row, Reader(grant.seat, grant.user)

    @staticmethod
    def number(request: web.Request, name: str) -> int | None:
        text = request.query.get(name, "")
        if not text:
            return None
        if not text.isdigit() or len(text) > 6:
            raise Refused(400, f"{name} must be a whole number, e.g. {name}=3.")
        return int(text)

    # --- routes ----------------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.Response:
        body = ERROR_PAGE.format(title="Wargame table", text="Open a game's page from its link: /game web in Discord.")
        return web.Response(text=body, content_type="text/html")

    async def game_page(self, request: web.Request) -> web.Response:
        row, _ = await self.reader(request)
        return web.Response(text=PAGE.format(game=row.id), content_type="text/html")

    def etag(self, request: web.Request, row: GameRow, reader: Reader, *parts: object) -> str:
        """The answer's tag: the same (game, version, status, reader, request) always gets the same
        answer from this server, so a client holding it is answered 304 before any work is done."""
        return '"' + fingerprint(self.boot, row.id, row.version, row.status, reader, *parts) + '"'

    @staticmethod
    def cached(request: web.Request, etag: str, body: bytes | None, content_type: str) -> web.Response:
        headers = {"ETag": etag, "Cache-Control": "no-cache, private"}
        if etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
        return web.Response(body=body, content_type=content_type, headers=headers)

    async def page_data(self, request: web.Request) -> web.Response:
        row, reader = await self.reader(request)
        step, log_page = self.number(request, "step"), self.number(request, "log") or 1
        etag = self.etag(request, row, reader, "page", step, log_page)
        if etag in request.headers.get("If-None-Match", ""):
            return self.cached(request, etag, None, "application/json")
        return self.cached(request, etag, await self.page_body(etag, row, reader, step, log_page), "application/json")

    async def page_body(self, etag: str, row: GameRow, reader: Reader, step: int | None, log_page: int) -> bytes:
        """The page JSON, encoded once per tag for every viewer (a page request, a change event)."""
        body = self.bodies.get(etag)
        if body is None:
            data = await self.views.page(row, reader, step, log_page)
            body = json.dumps(data, separators=(",", ":")).encode()
            self.bodies.put(etag, body, len(body))
        return body  # type: ignore[no-any-return]

    async def board(self, request: web.Request) -> web.Response:
        row, reader = await self.reader(request)
        step = self.number(request, "step")
        etag = self.etag(request, row, reader, "board", step)
        if etag in request.headers.get("If-None-Match", ""):
            return self.cached(request, etag, None, "image/png")
        if step is None:
            png = await self.views.live_png(row, reader)
        else:
            png = await self.views.step_png(row, reader, step)
        return self.cached(request, etag, png, "image/png")

    async def events(self, request: web.Request) -> web.StreamResponse:
        row, reader = await self.reader(request)
        if self.streams >= MAX_STREAMS:
            raise Refused(503, "Too many live viewers right now: reload the page later.")
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        await response.prepare(request)
        self.streams += 1
        try:
            async with self.watch(row) as watcher:
                seen = self.views.live_key(self.views.loaded(row), reader)
                await response.write(b"retry: 2000\n\n")
                tick = watcher.tick
                while not self.closing:
                    async with watcher.changed:
                        if watcher.tick == tick:
                            with contextlib.suppress(TimeoutError):
                                await asyncio.wait_for(watcher.changed.wait(), KEEPALIVE)
                    tick = watcher.tick
                    fresh = None if self.closing else await (
                        self.rows.recent(row.id) if reader.seat is None else self.rows.read(row.id))
                    if fresh is None:
                        break
                    if reader.seat is not None:
                        try:
                            await links.check(self.store, request.query["t"], fresh)
                        except links.LinkRefused as bad:
                            await response.write(f"event: refused\ndata: {json.dumps(str(bad))}\n\n".encode())
                            break
                    key = self.views.live_key(self.views.loaded(fresh), reader)
                    if key != seen:
                        seen = key
                        # the live page itself (log page 1), so the viewer need not ask for it; the
                        # events are spread over SPREAD s: the boards are not all asked for at once
                        body = await self.page_body(self.etag(request, fresh, reader, "page", None, 1),
                                                    fresh, reader, None, 1)
                        await asyncio.sleep(random.uniform(0, SPREAD))
                        await response.write(b"event: change\ndata: " + body + b"\n\n")
                    else:
                        await response.write(b": keepalive\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.streams -= 1
        return response

    @contextlib.asynccontextmanager
    async def watch(self, row: GameRow) -> AsyncIterator[Watcher]:
        watcher = self.watchers.get(row.id)
        if watcher is None:
            watcher = self.watchers[row.id] = Watcher(row.id, (row.version, row.status))
        if self.poller.task is None:
            self.poller.task = asyncio.create_task(self.poller.run(), name="web-poller")
        watcher.watchers += 1
        try:
            yield watcher
        finally:
            watcher.watchers -= 1
            if watcher.watchers == 0 and self.watchers.get(row.id) is watcher:
                del self.watchers[row.id]

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self.guard], client_max_size=4096)
        app.on_response_prepare.append(self.headers)
        app.router.add_get("/", self.index)
        app.router.add_get("/g/{game}", self.game_page)
        app.router.add_get("/api/g/{game}/page", self.page_data)
        app.router.add_get("/api/g/{game}/board.png", self.board)
        app.router.add_get("/api/g/{game}/events", self.events)
        app.router.add_static("/static", STATIC, show_index=False, follow_symlinks=False)
        app.on_startup.append(self.open_reads)
        app.on_shutdown.append(self.stop_watchers)
        app.on_cleanup.append(self.stop_drawing)
        return app

    async def open_reads(self, _: web.Application) -> None:
        """Read through a connection of our own, read-only, when the store is a SQLite file: the
        web's reads then never queue on the bot's connection and lock (when it runs in the bot's
        process), and never write (WAL readers do not block the writer)."""
        reads = await read_only(self.writer)
        self.store = self.rows.store = self.views.store = reads

    async def stop_drawing(self, _: web.Application) -> None:
        self.views.close()
        if self.store is not self.writer:
            await self.store.close()
            self.store = self.rows.store = self.views.store = self.writer

    async def stop_watchers(self, _: web.Application) -> None:
        """On shutdown, end every live stream now (they would hold the server open) and stop polling."""
        self.closing = True
        for watcher in list(self.watchers.values()):
            async with watcher.changed:
                watcher.changed.notify_all()
        if self.poller.task is not None:
            self.poller.task.cancel()
        self.watchers.clear()


async def read_only(store: Backend) -> Backend:
    """A read-only second connection to the same SQLite file, else the store itself (PostgreSQL's
    pool already reads without the writer's lock; an in-memory database has no file to share)."""
    if not isinstance(store, Store):
        return store
    rows = await store._fetch("PRAGMA database_list")
    path = next((str(r[2]) for r in rows if r[1] == "main"), "")
    if not path:
        return store
    db = await aiosqlite.connect(f"{Path(path).as_uri()}?mode=ro", uri=True)
    try:
        await db.execute("PRAGMA busy_timeout=5000")
        await db.execute("PRAGMA query_only=ON")
    except BaseException:
        await db.close()
        raise
    return Store(SqliteConnection(db))


def lower_priority(nice: int) -> None:
    """Let the bot's order path come first for the CPU: this process runs ``nice`` steps lower
    (Unix only; elsewhere, or at 0, nothing changes)."""
    if nice > 0 and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(nice)


def nice_from_env() -> int:
    text = os.environ.get("WARGAME_WEB_NICE", "").strip()
    if not text:
        return NICE
    if not text.isdigit() or int(text) > 19:
        raise ValueError(f"WARGAME_WEB_NICE must be a whole number from 0 to 19, not {text!r}.")
    return int(text)


def settings_from_env() -> tuple[str, int, bool, int]:
    """(host, port, trust the proxy, niceness); ValueError saying what is wrong with a setting."""
    host = os.environ.get("WARGAME_WEB_HOST", "").strip() or "127.0.0.1"
    port_text = os.environ.get("WARGAME_WEB_PORT", "").strip() or str(DEFAULT_PORT)
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"WARGAME_WEB_PORT must be a port number (1-65535), not {port_text!r}.")
    trust = os.environ.get("WARGAME_WEB_TRUST_PROXY", "").strip().lower() in ("1", "true", "yes")
    return host, int(port_text), trust, nice_from_env()


async def start(store: Backend, service: TableService | None = None, *, host: str, port: int,
                trust_proxy: bool = False, rate: float = RATE, burst: float = BURST, nice: int = NICE) -> web.AppRunner:
    """Serve on (host, port) in the running loop (the bot calls this to run the web in-process);
    boards are drawn and replays folded in a process of their own, off the GIL the loop needs,
    ``nice`` steps below this process's CPU priority."""
    await links.server_secret(store)  # made now, not by two first requests at once
    server = WebServer(store, service, rate=rate, burst=burst, trust_proxy=trust_proxy, draw_process=True)
    server.views.niceness = min(19, os.nice(0) + nice) if hasattr(os, "nice") else 0
    await asyncio.to_thread(server.views.pool)  # started now, not by the first viewer
    runner = web.AppRunner(server.app(), access_log=None, handle_signals=False, shutdown_timeout=5)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("web companion on http://%s:%s/", host, port)
    return runner


async def start_from_env(service: TableService) -> web.AppRunner:
    """The web companion inside the bot's process, on its service and store (WARGAME_WEB_*)."""
    host, port, trust, nice = settings_from_env()
    return await start(cast(Backend, service.store), service, host=host, port=port, trust_proxy=trust, nice=nice)


def main(argv: list[str]) -> int:
    """``python -m bot web``: serve until stopped."""
    from bot.database import DEFAULT_DB, open_store
    from bot.storage import StoreUnavailable

    if argv:
        print("python -m bot web takes no arguments; set WARGAME_WEB_PORT, WARGAME_WEB_HOST and WARGAME_DB.",
              file=sys.stderr)
        return 2
    try:
        host, port, trust, nice = settings_from_env()
    except ValueError as bad:
        print(f"Not starting: {bad}", file=sys.stderr)
        return 2
    db = os.environ.get("WARGAME_DB", "").strip() or DEFAULT_DB
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    lower_priority(nice)  # the bot on the same machine gives its orders first

    async def serve() -> None:
        store = await open_store(db)
        rate = float(os.environ.get("WARGAME_WEB_RATE", "") or RATE)  # requests a second per client
        runner = await start(store, host=host, port=port, trust_proxy=trust, rate=rate, burst=max(BURST, 3 * rate),
                             nice=0)
        stop = asyncio.Event()
        with contextlib.suppress(NotImplementedError):  # SIGTERM (systemd, docker stop) stops it cleanly too
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        print(f"Serving the web companion on http://{host}:{port}/ (Ctrl-C stops it)", file=sys.stderr, flush=True)
        try:
            await stop.wait()
        finally:
            await runner.cleanup()
            await store.close()

    try:
        asyncio.run(serve())
    except StoreUnavailable as bad:
        print(f"Not starting: WARGAME_DB: {bad}", file=sys.stderr)
        return 2
    except OSError as bad:
        print(f"Not starting: cannot listen on {host}:{port}: {bad.strerror}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0

