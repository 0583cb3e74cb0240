"""The web companion in a real browser (issue 23, item 3): headless Chromium through WebDriver.

Each test serves a store with ``bot.web.server.start`` (as ``python -m bot web`` does) and drives
the real pages: the board loads, the replay steps, an order given through the table service
reaches an open page within 2 s without a reload, a seat's link shows what only that seat sees,
and forged, expired, revoked, reassigned and other games' links are refused. Screenshots of each
system's page go to ``WARGAME_SCREENSHOTS`` (default: the test's temporary folder) to be looked at.
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.database import open_store
from bot.service import TableService
from bot.storage import Backend
from bot.web import links
from bot.web.server import start
from tests.bot.helpers import ALICE, BOB, hex_duel, ok
from tests.console import run_script
from tests.web.browser import Browser, free_port
from tests.web.helpers import SECRET_ORDER, assign, link_of, opening

pytestmark = pytest.mark.slow  # drives a real browser: left out of `tasks.py test --fast`
ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PAGES = {  # a console script per system, and a word its page's title must hold
    "hex_ironclads/hampton_roads.txt": "Hex ironclads",
    "ironclad_draughts/duel.txt": "Draughts",
    "oak_and_iron/quickstart.txt": "Oak",
    "iron_and_fire/s1_first_blood.txt": "Iron",
    "days_of_iron/meeting.txt": "Days of Iron",
}


def shots(tmp_path: Path) -> Path:
    return Path(os.environ.get("WARGAME_SCREENSHOTS", "") or tmp_path / "screenshots")


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    chromium = await Browser.start()
    try:
        yield chromium
    finally:
        await chromium.close()


async def serve(store: Backend) -> tuple[str, object]:
    port = free_port()
    runner = await start(store, host="127.0.0.1", port=port, rate=1000, burst=1000)
    return f"http://127.0.0.1:{port}", runner


@pytest.fixture
async def site(svc: TableService) -> AsyncIterator[str]:
    url, runner = await serve(svc.store)  # type: ignore[arg-type]
    try:
        yield url
    finally:
        await runner.cleanup()  # type: ignore[attr-defined]


async def loaded(browser: Browser, what: str = "live") -> None:
    await browser.wait_for(f"document.body.dataset.loaded === {what!r} && document.getElementById('board').complete "
                           "&& document.getElementById('board').naturalWidth > 0", what=f"the page at {what}")


async def log_lines(browser: Browser) -> list[str]:
    return list(await browser.js("return [...document.querySelectorAll('#log li')].map(li => li.textContent);"))


async def test_a_running_game_shows_its_board_steps_its_replay_and_follows_orders_live(
        svc: TableService, site: str, browser: Browser, tmp_path: Path) -> None:
    await opening(svc)
    await browser.open(f"{site}/g/1")
    await loaded(browser)
    assert "Hex ironclads" in await browser.js("return document.getElementById('title').textContent;")
    assert await browser.js("return document.getElementById('board').naturalWidth;") >= 800  # the bot's full size
    assert (await log_lines(browser))[0].startswith("4. [confederate] Virginia move F")
    assert "Union: Alice — to act" in await browser.js("return document.getElementById('status').textContent;")
    await browser.screenshot(shots(tmp_path) / "hex-live.png")

    await browser.click("#first")
    await loaded(browser, "step-0")
    assert await browser.js("return document.getElementById('caption').textContent;") == "Set-up"
    assert await log_lines(browser) == ["(no orders yet)"]
    await browser.click("#next")
    await browser.click("#next")
    await browser.click("#next")
    await loaded(browser, "step-3")
    assert (await log_lines(browser))[0].startswith("3. [union] Monitor move F")
    assert "step 3 of 4" in await browser.js("return document.getElementById('position').textContent;")
    await browser.screenshot(shots(tmp_path) / "hex-replay-step-3.png")
    await browser.click("#live")
    await loaded(browser)

    await browser.js("window.notReloaded = true;")
    await browser.wait_for("document.body.dataset.changes === undefined", what="no change before the order")
    await ok(svc, ALICE, "order", text=SECRET_ORDER)
    await ok(svc, ALICE, "order", text="seal")  # public: "Union has sealed"
    ordered = time.monotonic()
    await browser.wait_for("document.querySelector('#log li').textContent.startsWith('5. [union]')",
                           timeout=2.0, what="the sealed order in the log within 2 s")
    took = time.monotonic() - ordered
    assert took < 2.0 and await browser.js("return window.notReloaded === true;")
    assert SECRET_ORDER not in "".join(await log_lines(browser))


async def test_a_seats_link_shows_what_only_that_seat_sees(svc: TableService, site: str, browser: Browser,
                                                          tmp_path: Path) -> None:
    await opening(svc)
    await ok(svc, ALICE, "order", text=SECRET_ORDER)
    await browser.open(f"{site}/g/1?t={await link_of(svc, ALICE)}")
    await loaded(browser)
    assert "Union" in await browser.js("return document.getElementById('title').textContent;")
    assert not await browser.js("return document.getElementById('private').hidden;")
    assert any(SECRET_ORDER in line for line in await log_lines(browser))
    await browser.screenshot(shots(tmp_path) / "hex-union-own-view.png")

    await browser.open(f"{site}/g/1?t={await link_of(svc, BOB)}")
    await loaded(browser)
    assert SECRET_ORDER not in await browser.js("return document.body.innerText;")
    await browser.open(f"{site}/g/1")
    await loaded(browser)
    assert await browser.js("return document.getElementById('private').hidden;")
    page = await browser.js("return document.documentElement.outerHTML + document.body.innerText;")
    assert SECRET_ORDER not in page and "Only you see" in page  # the heading is there, hidden and empty
    assert await browser.js("return document.getElementById('private-text').textContent;") == ""


async def refused(browser: Browser, url: str, words: str) -> None:
    await browser.open(url)
    text = await browser.wait_for("document.body && document.body.innerText", what="the refusal")
    assert words in text, text
    assert await browser.js("return document.getElementById('board') === null;")  # no game page at all


async def test_forged_expired_revoked_reassigned_and_other_game_links_are_refused(
        svc: TableService, site: str, browser: Browser) -> None:
    await hex_duel(svc)
    good = await link_of(svc, ALICE)
    body, mac = good.split(".")
    forged = links._b64(links._unb64(body).replace(b'"union"', b'"umpire"')) + "." + mac
    await refused(browser, f"{site}/g/1?t={forged}", "not a valid game link")
    row = await svc.store.game_by_id(1)  # type: ignore[attr-defined]
    expired = await links.issue(svc.store, row, "union", now=time.time() - 8 * 86400)
    await refused(browser, f"{site}/g/1?t={expired}", "expired")
    await ok(svc, ALICE, "game new", channel="c2", system="hex-ironclads", scenario="duel")
    await refused(browser, f"{site}/g/2?t={good}", "another game")

    await browser.open(f"{site}/g/1?t={good}")
    await loaded(browser)
    await ok(svc, ALICE, "game web revoke")
    await refused(browser, f"{site}/g/1?t={good}", "revoked")
    fresh = await link_of(svc, ALICE)
    await browser.open(f"{site}/g/1?t={fresh}")
    await loaded(browser)
    await assign(svc, "union", "carol")  # the open page is told at once, and the link is dead
    await browser.wait_for("document.getElementById('notice').textContent.includes('changed hands')",
                           timeout=3.0, what="the open page told its seat changed hands")
    await refused(browser, f"{site}/g/1?t={fresh}", "changed hands")


@pytest.mark.parametrize("script", sorted(SYSTEM_PAGES))
async def test_each_systems_page_in_the_browser(script: str, browser: Browser, tmp_path: Path) -> None:
    db = tmp_path / "played.db"
    played = run_script(ROOT / "tests" / "scripts" / script, "--db", str(db))
    assert played.returncode == 0, played.stderr[-2000:]
    store = await open_store(db)
    try:
        games = [row for i in range(1, await store.count_games() + 1) if (row := await store.game_by_id(i))]
        game = max(row.id for row in games if row.system != "tools")
        url, runner = await serve(store)
        try:
            await browser.open(f"{url}/g/{game}")
            await loaded(browser)
            assert SYSTEM_PAGES[script] in await browser.js("return document.getElementById('title').textContent;")
            assert await browser.js("return document.querySelectorAll('#log li').length;") >= 1
            name = script.replace("/", "-").removesuffix(".txt")
            await browser.screenshot(shots(tmp_path) / f"{name}.png")
        finally:
            await runner.cleanup()  # type: ignore[attr-defined]
    finally:
        await store.close()
