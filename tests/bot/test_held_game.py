"""A process uses the game it holds unread only at the version its interaction's claim saw
(bot/rooms/context.py ``Table.seen``): whatever another process did meanwhile is read, never missed.

Two bots share one store file, as two processes would; each handles its interactions through its
real claim (``OneProcess.claim``) and ``_prepare``, with Discord left out."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord

from bot.database import open_store
from bot.discord_app import TableBot
from bot.service import TableService, User
from games.core.rng import seed_from_number

CHANNEL = "777"
ALICE, BOB = User("1", "Alice"), User("2", "Bob")
numbers = itertools.count(1)


def _interaction(kind: Any, user: User, text: str = "") -> Any:
    data: dict[str, Any] = {"name": "order", "options": [{"name": "text", "value": text}]}
    return SimpleNamespace(id=next(numbers), type=kind, user=SimpleNamespace(id=int(user.id)), channel_id=int(CHANNEL),
                           data=data, extras={})


async def _bot(db: str) -> tuple[TableBot, TableService]:
    seeds = (seed_from_number(n) for n in itertools.count())
    bot = TableBot(db_path=db, renderer=None, load_renderer=False, status_delay=0.0)
    service = TableService(await open_store(db), seed_source=lambda: next(seeds))
    bot._service = service
    return bot, service


async def _order(bot: TableBot, user: User, text: str) -> list[str]:
    """An /order as the bot runs it, in a task of its own (as discord.py gives each interaction)."""
    async def run() -> list[str]:
        assert await bot.once.claim(_interaction(discord.InteractionType.application_command, user, text))
        prepared = await bot._prepare(CHANNEL, user, "order", {"text": text}, guild="")
        return [f"{o.kind}: {o.text}" for o in prepared.outputs]

    return await asyncio.create_task(run())


async def _offered(bot: TableBot, service: TableService, user: User) -> list[str]:
    async def run() -> list[str]:
        assert await bot.once.claim(_interaction(discord.InteractionType.autocomplete, user))
        return await service.choices(CHANNEL, user, "order", "text", "")

    return await asyncio.create_task(run())


async def test_a_game_changed_by_another_process_is_read_not_taken_from_memory(tmp_path: Path) -> None:
    db = str(tmp_path / "shared.db")
    (first, one), (second, two) = await _bot(db), await _bot(db)
    try:
        await one.handle(CHANNEL, ALICE, "game new", {"system": "hex-ironclads", "scenario": "hampton-roads"})
        seats = await one.choices(CHANNEL, ALICE, "game join", "seat", "")
        for user, seat in ((ALICE, seats[0]), (BOB, seats[1])):
            await one.handle(CHANNEL, user, "game join", {"seat": seat})
        await one.handle(CHANNEL, ALICE, "game start", {})
        users = {ALICE.id: ALICE, BOB.id: BOB}

        async def acting(service: TableService) -> User:
            state, to_act = await service.channel_state(CHANNEL)
            assert state == "running"
            return users[to_act[0]]

        # the first process gives an order: it now holds the game as that order left it
        user = await acting(one)
        legal = await _offered(first, one, user)
        assert not [t for t in await _order(first, user, legal[0]) if t.startswith("error")]
        held = one.table.rows[CHANNEL]
        # the second process gives the next orders on the same store
        for _ in range(2):
            user = await acting(two)
            legal = await _offered(second, two, user)
            assert not [t for t in await _order(second, user, legal[0]) if t.startswith("error")]
        stored = await one.store.live_game(CHANNEL)
        assert stored is not None and stored.version > held.version
        # back at the first process: what it offers and applies is the stored game, not its own copy
        user = await acting(one)
        offered = await _offered(first, one, user)
        assert offered == await two.choices(CHANNEL, user, "order", "text", "")
        said = await _order(first, user, offered[0])
        assert not [t for t in said if t.startswith("error")], said  # not refused as out of date
        assert one.table.rows[CHANNEL].version == stored.version + 1
        # a vote to end it given in the second process shows in the first one's status
        await two.handle(CHANNEL, BOB, "game end", {})
        await _offered(first, one, ALICE)  # a claim that sees the vote
        async def status() -> str:
            found = await one.status_text(CHANNEL, User("0", "status"))
            assert found is not None
            return found[1]
        assert "Votes to end" in await status()
    finally:
        for bot, service in ((first, one), (second, two)):
            await service.store.close()
            bot.drawer.close()
