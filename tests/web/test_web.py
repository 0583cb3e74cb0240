"""The web companion over HTTP (issue 23): who sees what, links, live changes, safety.

A hex-ironclads duel keeps its fire orders secret until both sides seal: what a public page
(HTML, script, JSON, PNG, live events) shows must not change when a secret order is given, and
no secret text may appear in any public response. A seat's link shows that seat's own view; a
forged, expired, revoked, other game's or reassigned seat's link is refused.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient

from bot.service import TableService
from bot.web import links
from bot.web.server import FRESH, NICE, RateLimit, WebServer, read_only, settings_from_env, versions
from bot.web.views import Lru, Reader
from tests.bot.helpers import ALICE, BOB, CAROL, UMP, hex_duel, ok
from tests.web.conftest import SERVER
from tests.web.helpers import SECRET_ORDER, assign, link_of, opening

Client = TestClient[Any, Any]


async def public_everything(web: Client, game: int = 1) -> list[object]:
    """Every public response about the game: page HTML, script, JSON now and at each step, PNGs."""
    seen: list[object] = []
    for path in (f"/g/{game}", "/static/app.js", "/static/style.css"):
        seen.append(await (await web.get(path)).text())
    page = await (await web.get(f"/api/g/{game}/page")).json()
    seen.append(page)
    seen.append(await (await web.get(f"/api/g/{game}/board.png")).read())
    for step in range(page["steps"] + 1):
        seen.append(await (await web.get(f"/api/g/{game}/page?step={step}")).json())
        seen.append(await (await web.get(f"/api/g/{game}/board.png?step={step}")).read())
    for log_page in range(2, page["log_pages"] + 1):
        seen.append(await (await web.get(f"/api/g/{game}/page?log={log_page}")).json())
    return seen


async def test_a_public_page_shows_the_game_and_never_a_secret_order(svc: TableService, web: Client) -> None:
    await opening(svc)
    before = await public_everything(web)
    page = before[3]
    assert isinstance(page, dict)
    assert page["status"]["state"] == "running" and "private" not in page["status"]
    assert [s["label"] for s in page["status"]["seats"]] == ["Union", "Confederate", "Umpire"]
    assert page["log"][0].startswith("4. [confederate] Virginia move F") and page["steps"] == 4

    await ok(svc, ALICE, "order", text=SECRET_ORDER)  # secret until sealed: the public sees nothing change
    after = await public_everything(web)
    assert after == before
    assert not any(SECRET_ORDER.encode() in (x if isinstance(x, bytes) else str(x).encode()) for x in after)
    alice = await (await web.get("/api/g/1/page", params={"t": await link_of(svc, ALICE)})).json()
    assert any(SECRET_ORDER in line for line in alice["log"])


async def test_a_seat_link_shows_that_seats_private_view_and_the_umpire_sees_all(svc: TableService, web: Client) -> None:
    await opening(svc)
    await ok(svc, ALICE, "order", text=SECRET_ORDER)
    bob = await (await web.get("/api/g/1/page", params={"t": await link_of(svc, BOB)})).json()
    ump = await (await web.get("/api/g/1/page", params={"t": await link_of(svc, UMP)})).json()
    assert bob["status"]["viewer"] == "Confederate" and ump["status"]["viewer"] == "Umpire"
    assert not any(SECRET_ORDER in line for line in bob["log"])
    assert any(SECRET_ORDER in line for line in ump["log"])
    public_png = await (await web.get("/api/g/1/board.png")).read()
    own_png = await (await web.get("/api/g/1/board.png", params={"t": await link_of(svc, UMP)})).read()
    assert own_png != public_png  # drawn with the umpire's private lines
    (out,) = await ok(svc, CAROL, "game web")
    assert "?t=" not in out.text and "/g/1" in out.text  # a spectator gets the public page only


async def refusal(response: ClientResponse) -> str:
    assert response.status == 403, await response.text()
    return str((await response.json())["error"])


async def test_forged_expired_revoked_reassigned_and_other_game_links_are_refused(svc: TableService, web: Client) -> None:
    await hex_duel(svc)
    good = await link_of(svc, ALICE)
    assert (await web.get("/api/g/1/page", params={"t": good})).status == 200
    body, mac = good.split(".")
    forged_seat = links._b64(links._unb64(body).replace(b'"union"', b'"umpire"'))
    for forged in (f"{forged_seat}.{mac}", good[:-2] + ("AA" if not good.endswith("AA") else "BB"), "x", "a.b.c"):
        assert "not a valid" in await refusal(await web.get("/api/g/1/page", params={"t": forged}))

    row = await svc.store.game_by_id(1)  # type: ignore[attr-defined]
    stale = await links.issue(svc.store, row, "union", now=time.time() - 8 * 86400)
    assert "expired" in await refusal(await web.get("/api/g/1/page", params={"t": stale}))

    await ok(svc, ALICE, "game new", channel="c2", system="hex-ironclads", scenario="duel")
    assert "another game" in await refusal(await web.get("/api/g/2/page", params={"t": good}))

    await ok(svc, ALICE, "game web revoke")
    assert "revoked" in await refusal(await web.get("/api/g/1/page", params={"t": good}))
    fresh = await link_of(svc, ALICE)
    assert (await web.get("/api/g/1/page", params={"t": fresh})).status == 200
    bobs = await link_of(svc, BOB)

    await assign(svc, "union", "carol")
    assert "changed hands" in await refusal(await web.get("/api/g/1/page", params={"t": fresh}))
    assert (await web.get("/api/g/1/board.png", params={"t": fresh})).status == 403
    assert (await web.get("/api/g/1/page", params={"t": bobs})).status == 200  # other seats keep theirs
    page = await web.get("/g/1", params={"t": fresh})
    assert page.status == 403 and "changed hands" in await page.text()


async def test_the_web_is_read_only_and_its_errors_tell_nothing_of_the_server(svc: TableService, web: Client) -> None:
    await hex_duel(svc)
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        for path in ("/g/1", "/api/g/1/page", "/api/g/1/board.png"):
            response = await web.request(method, path, data=b"order=Monitor move F")
            assert response.status == 405
    assert (await (await web.get("/api/g/1/page")).json())["steps"] == 0  # nothing was ordered
    for path in ("/g/999", "/g/x", "/api/g/1/page?step=-1", "/api/g/1/page?step=1e9", "/nope",
                 "/static/../bot/web/server.py", "/static/%2e%2e/server.py", "/api/g/99999999999999999999/page"):
        response = await web.get(path)
        text = await response.text()
        assert response.status in (400, 403, 404), (path, response.status)
        assert "Traceback" not in text and "/work" not in text and "bot/web" not in text and ".py" not in text, text
    response = await web.get("/api/g/1/page")
    for header in ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options"):
        assert header in response.headers
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert "unsafe-inline" not in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    html = await (await web.get("/g/1")).text()
    assert "<script src=" in html and "<script>" not in html and " on" not in html.split("<body", 1)[1].split(">")[0]


async def test_a_crash_in_a_handler_becomes_a_fixed_message(svc: TableService, web: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    await hex_duel(svc)
    server = web.app[SERVER]

    async def broken(*_: object) -> None:
        raise RuntimeError("/secret/path/in/a/traceback")

    monkeypatch.setattr(server.views, "page", broken)
    response = await web.get("/api/g/1/page")
    assert response.status == 500 and "secret" not in await response.text()


def test_the_rate_limit_lets_a_burst_through_then_refills_at_its_rate() -> None:
    limit = RateLimit(rate=2, burst=3)
    assert [limit.allow("a", now=0) for _ in range(4)] == [True, True, True, False]
    assert limit.allow("b", now=0)  # per client
    assert not limit.allow("a", now=0.2) and limit.allow("a", now=0.8)


async def test_a_client_over_its_rate_is_told_to_slow_down(svc: TableService) -> None:
    from aiohttp.test_utils import TestServer

    from bot.web.server import WebServer

    await hex_duel(svc)
    server = WebServer(svc.store, rate=0.01, burst=3)  # type: ignore[arg-type]
    async with TestClient(TestServer(server.app())) as client:
        statuses = [(await client.get("/api/g/1/page")).status for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]


def test_the_frame_cache_stays_within_its_bytes() -> None:
    cache = Lru(100)
    for i in range(50):
        cache.put(i, b"x" * 30, 30)
        assert cache.size <= 100
    assert cache.get(49) == b"x" * 30 and cache.get(0) is None


async def test_replay_steps_show_the_board_and_log_at_each_listed_order(svc: TableService, web: Client) -> None:
    await opening(svc)
    start = await (await web.get("/api/g/1/page?step=0")).json()
    three = await (await web.get("/api/g/1/page?step=3")).json()
    four = await (await web.get("/api/g/1/page?step=4")).json()
    assert start["caption"] == "Set-up" and start["log"] == []
    assert three["caption"].startswith("3. [union] Monitor move F") and len(three["log"]) == 3
    assert four["log"][0].startswith("4. [confederate] Virginia move F")
    assert (await (await web.get("/api/g/1/page?step=99")).json())["step"] == 4  # clamped
    pngs = [await (await web.get(f"/api/g/1/board.png?step={k}")).read() for k in range(5)]
    assert len({pngs[0], pngs[3], pngs[4]}) == 3
    assert pngs[4] == await (await web.get("/api/g/1/board.png")).read()  # the last step is the board now


async def next_event(lines: Any, timeout: float) -> str:
    async def read() -> str:
        while True:
            line = (await lines.readline()).decode()
            if line.startswith("event:"):
                return line.split(":", 1)[1].strip()

    return await asyncio.wait_for(read(), timeout)


@pytest.mark.slow
async def test_live_events_follow_public_changes_and_not_a_hidden_order(svc: TableService, web: Client) -> None:
    await hex_duel(svc)
    public = await web.get("/api/g/1/events")
    bobs = await web.get("/api/g/1/events", params={"t": await link_of(svc, BOB)})
    alices = await web.get("/api/g/1/events", params={"t": await link_of(svc, ALICE)})
    await asyncio.sleep(0.8)
    for user, order in ((ALICE, "Monitor fire Virginia"), (ALICE, "seal"), (BOB, "Virginia fire Monitor"), (BOB, "seal")):
        await ok(svc, user, "order", text=order)
    assert await next_event(public.content, 2.0) == "change"
    assert await next_event(bobs.content, 2.0) == "change"
    assert await next_event(alices.content, 2.0) == "change"
    await asyncio.sleep(1.2)  # let every stream read its change
    await ok(svc, ALICE, "order", text="Monitor move F")
    for stream in (public, bobs, alices):
        assert await next_event(stream.content, 2.0) == "change"
    await ok(svc, BOB, "order", text="Virginia move F")
    for stream in (public, bobs, alices):
        assert await next_event(stream.content, 2.0) == "change"
    await ok(svc, ALICE, "order", text=SECRET_ORDER)  # turn 2's fire order: secret
    with pytest.raises(TimeoutError):
        await next_event(public.content, 1.5)  # a hidden order changes nothing the public sees
    with pytest.raises(TimeoutError):
        await next_event(bobs.content, 0.1)
    await assign(svc, "confederate", "carol")
    assert await next_event(bobs.content, 2.0) == "refused"  # Bob's seat changed hands
    for response in (public, bobs, alices):
        response.close()


@pytest.mark.slow
async def test_boards_drawn_in_the_drawing_process_are_the_ones_a_thread_draws(svc: TableService, web: Client) -> None:
    await opening(svc)
    threaded = [await (await web.get(f"/api/g/1/board.png?step={k}")).read() for k in (0, 4)]
    server = WebServer(svc.store, svc, draw_process=True)  # type: ignore[arg-type]
    row = await svc.store.game_by_id(1)
    assert row is not None
    try:
        drawn = [await server.views.step_png(row, Reader(), k) for k in (0, 4)]
        assert server.views._pool is not None  # drawn there, not in a thread
    finally:
        server.views.close()
    assert drawn == threaded


@pytest.mark.slow
async def test_a_repeat_poll_is_answered_304_and_a_change_gives_a_new_tag(svc: TableService, web: Client) -> None:
    await opening(svc)
    first = await web.get("/api/g/1/page")
    tag = first.headers["ETag"]
    again = await web.get("/api/g/1/page", headers={"If-None-Match": tag})
    assert again.status == 304 and await again.read() == b""
    board = await web.get("/api/g/1/board.png")
    assert (await web.get("/api/g/1/board.png", headers={"If-None-Match": board.headers["ETag"]})).status == 304
    for user, order in ((ALICE, SECRET_ORDER), (ALICE, "seal"), (BOB, "Virginia hold"), (BOB, "seal")):
        await ok(svc, user, "order", text=order)  # both sealed: the fire orders are public now
    await asyncio.sleep(FRESH + 0.05)  # past FRESH: a public reader may be shown a row that old, no older
    changed = await web.get("/api/g/1/page", headers={"If-None-Match": tag})
    assert changed.status == 200 and changed.headers["ETag"] != tag


def test_a_bad_wargame_web_nice_is_refused_saying_what_would_be_right(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARGAME_WEB_PORT", "8080")
    for bad in ("-3", "20", "high"):
        monkeypatch.setenv("WARGAME_WEB_NICE", bad)
        with pytest.raises(ValueError, match="WARGAME_WEB_NICE must be a whole number from 0 to 19"):
            settings_from_env()
    monkeypatch.setenv("WARGAME_WEB_NICE", "0")
    assert settings_from_env()[3] == 0
    monkeypatch.delenv("WARGAME_WEB_NICE")
    assert settings_from_env()[3] == NICE


async def test_the_web_reads_through_a_read_only_connection_that_sees_every_commit(svc: TableService) -> None:
    store = svc.store
    reads = await read_only(store)  # type: ignore[arg-type]
    try:
        assert reads is not store
        await hex_duel(svc)
        row = await reads.game_by_id(1)
        assert row is not None and row.status == "running"
        with pytest.raises(sqlite3.OperationalError):  # it can never write, nor take the writer's lock
            await reads.set_setting("web-test", "x")
        await ok(svc, ALICE, "order", text="Monitor fire Virginia")  # committed by the bot's connection
        assert await versions(reads, [1, 99]) == {1: (row.version + 1, "running")}  # one query, a gone game left out
    finally:
        await reads.close()


@pytest.mark.slow
def test_python_m_bot_web_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    """docker stop and systemd send SIGTERM: the server must close (its drawing process too), not die."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "WARGAME_DB": str(tmp_path / "t.db"), "WARGAME_WEB_PORT": str(port)}
    proc = subprocess.Popen([sys.executable, "-m", "bot", "web"], env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        for line in proc.stderr:  # until it serves (its drawing process is started by then)
            if "Serving the web companion" in line:
                break
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
