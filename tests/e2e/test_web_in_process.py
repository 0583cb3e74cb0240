"""The bot serves the web companion in its own process when WARGAME_WEB_PORT is set (setup_hook),
on its own service and store, and stops serving when it closes."""

from __future__ import annotations

import socket

import aiohttp
import pytest

from bot.service import User
from tests.e2e.conftest import BotRunner


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
async def test_the_bot_serves_the_web_pages_in_process_and_stops_them_on_close(
        runner: BotRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    monkeypatch.setenv("WARGAME_WEB_PORT", str(port))
    monkeypatch.setenv("WARGAME_WEB_HOST", "127.0.0.1")
    bot = await runner.start()
    alice = User("alice", "Alice")
    await bot.service.handle("c1", alice, "game new", {"system": "hex-ironclads", "scenario": "duel"})
    url = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{url}/g/1") as page:
            assert page.status == 200 and 'data-game="1"' in await page.text()
        async with http.get(f"{url}/api/g/1/page") as data:
            assert data.status == 200
            status = (await data.json())["status"]
        assert status["system"] and status["scenario"] == "duel"  # the game the bot's service just made
        async with http.get(f"{url}/api/g/1/board.png") as board:
            assert board.status == 200 and (await board.read()).startswith(b"\x89PNG")
        async with http.get(f"{url}/api/g/2/page") as missing:
            assert missing.status == 404

        await runner.stop(bot)
        with pytest.raises(aiohttp.ClientConnectionError):
            async with http.get(f"{url}/g/1"):
                pass
    with socket.socket() as sock:  # nothing listens there any more (REUSEADDR: closed connections may linger)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen()


async def test_without_wargame_web_port_the_bot_serves_no_web(runner: BotRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WARGAME_WEB_PORT", raising=False)
    bot = await runner.start()
    assert bot._web is None
