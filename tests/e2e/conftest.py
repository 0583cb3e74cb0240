"""Fixtures: a fake Discord on 127.0.0.1 and the real bot (real service, real SQLite file) connected to it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord_app import TableBot
from tests.e2e.fake_discord import FakeDiscord

START_TIMEOUT = 10.0


@contextlib.asynccontextmanager
async def serving(server: FakeDiscord) -> AsyncIterator[FakeDiscord]:
    """Start ``server`` and point discord.py's REST and gateway addresses at it, until the end;
    then fail the test if the fake saw a breach of Discord's limits or API spec (``violations``)."""
    await server.start()
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = server.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = server.gateway_url
    try:
        yield server
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
        await server.stop()
    # Every e2e test holds its traffic to Discord's limits and to Discord's API spec (requests the
    # bot sent, answers the fake gave); tests that break limits on purpose set violations_expected.
    assert server.violations_expected or not server.violations, "\n".join(server.violations)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with serving(FakeDiscord()) as server:
        yield server


class BotRunner:
    """Starts and stops real bots against the fake; a restart is stop() then start() on the same file."""

    def __init__(self, fake: FakeDiscord, db_path: Path) -> None:
        self.fake = fake
        self.db_path = db_path
        self.running: list[tuple[TableBot, asyncio.Task[None]]] = []

    async def start(self, **options: Any) -> TableBot:
        self.fake.identified.clear()
        options.setdefault("reminder_seconds", 0.2)
        options.setdefault("guild_ready_timeout", 0.05)
        options.setdefault("status_delay", 0.05)
        options.setdefault("guild_id", int(self.fake.guild_id))  # guild_id=None: a global bot
        bot = TableBot(db_path=str(self.db_path), **options)
        task = asyncio.create_task(bot.start("fake-token"), name="bot")
        self.running.append((bot, task))
        waiting = asyncio.gather(bot.synced.wait(), self.fake.identified.wait(), bot.wait_until_ready())
        try:
            await asyncio.wait_for(asyncio.shield(waiting), START_TIMEOUT)
        except TimeoutError:
            raise AssertionError(f"bot did not start: task done={task.done()}") from None
        await asyncio.sleep(0.05)  # GUILD_CREATE parsed
        assert not task.done(), f"the client task died: {task.exception() if task.done() else ''}"
        return bot

    async def stop(self, bot: TableBot) -> None:
        for entry in list(self.running):
            if entry[0] is bot:
                self.running.remove(entry)
                await asyncio.wait_for(bot.close(), START_TIMEOUT)
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(entry[1], START_TIMEOUT)

    async def stop_all(self) -> None:
        for bot, _ in list(self.running):
            await self.stop(bot)


@pytest.fixture
async def runner(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotRunner]:
    bots = BotRunner(fake, tmp_path / "table.db")
    try:
        yield bots
    finally:
        await bots.stop_all()


@pytest.fixture
async def bot(runner: BotRunner) -> TableBot:
    return await runner.start()
