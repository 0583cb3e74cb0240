"""Sharding: processes on different shards of one bot, on one database, against one fake Discord.

Discord delivers a guild's events only to the shard ``(guild_id >> 22) % shard_count``; the fake
does the same, so these tests check what the bot itself must get right: each process serves the
guilds on its shards, claims reminders and keeps status messages only for those guilds, and a
shard configuration that would misroute guilds is refused before connecting.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord_app import ShardConfigError, ShardedTableBot, ShardPlan, TableBot, make_bot, parse_shards
from tests.e2e.conftest import serving
from tests.e2e.fake_discord import FakeDiscord, FakeMessage

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 20.0
SHARDS = 4


# ---------------------------------------------------------------------------- configuration
@pytest.mark.parametrize(
    ("shards", "count", "plan"),
    [
        ("", "", None),
        (None, None, None),
        ("0,1", "4", ShardPlan((0, 1), 4)),
        (" 2 , 3 ", "4", ShardPlan((2, 3), 4)),
        ("0-2,5", "6", ShardPlan((0, 1, 2, 5), 6)),
        ("", "3", ShardPlan((0, 1, 2), 3)),
    ],
)
def test_shard_settings_that_work(shards: str | None, count: str | None, plan: ShardPlan | None) -> None:
    assert parse_shards(shards, count) == plan


@pytest.mark.parametrize(
    ("shards", "count", "says"),
    [
        ("0,1", "", "needs WARGAME_SHARD_COUNT"),
        ("0,4", "4", "shard 4 is outside 0..3"),
        ("-1", "4", "not a shard id"),
        ("1,1", "4", "shard 1 is listed twice"),
        ("0-2,2", "4", "shard 2 is listed twice"),
        ("0,x", "4", "'x' is not a shard id"),
        ("3-1", "4", "the range '3-1' is empty"),
        ("0", "four", "is not a whole number"),
        ("", "0", "must be at least 1"),
    ],
)
def test_shard_settings_that_are_refused(shards: str, count: str, says: str) -> None:
    with pytest.raises(ShardConfigError, match=says) as refused:
        parse_shards(shards, count)
    assert "\n" not in str(refused.value)


def test_plan_owns_the_guilds_discord_sends_to_its_shards() -> None:
    plan = ShardPlan((1, 3), 4)
    guild = (123456 << 22) | 99  # (id >> 22) % 4 == 0
    assert not plan.owns(guild)
    assert plan.owns(guild + (1 << 22)) and not plan.owns(guild + (2 << 22)) and plan.owns(guild + (3 << 22))


@pytest.mark.slow
def test_bad_shard_settings_stop_the_start_with_one_line(tmp_path: Path) -> None:
    """As deployed: ``python -m bot discord`` refuses before it opens the store or connects."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "not-used",
        "WARGAME_DB": str(tmp_path / "never.db"),
        "WARGAME_SHARDS": "0,1,4",
        "WARGAME_SHARD_COUNT": "4",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot", "discord"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "Not starting: WARGAME_SHARDS='0,1,4': shard 4 is outside 0..3 (WARGAME_SHARD_COUNT=4)"
    ]
    assert not (tmp_path / "never.db").exists()


# ---------------------------------------------------------------------------- the fake's gateway
@pytest.fixture
async def sharded_fake() -> AsyncIterator[FakeDiscord]:
    async with serving(FakeDiscord(shard_count=SHARDS)) as server:
        yield server


async def _no_identify_pause(shard_id: int | None, *, initial: bool = False) -> None:
    """Discord allows one IDENTIFY per 5 s (discord.py waits that long between shards); the fake does not."""


async def test_the_fake_closes_an_invalid_shard_with_4010(sharded_fake: FakeDiscord) -> None:
    client = discord.AutoShardedClient(intents=discord.Intents.none(), shard_ids=[5], shard_count=4)
    with pytest.raises(discord.ConnectionClosed) as closed:
        await asyncio.wait_for(client.start("fake-token"), START_TIMEOUT)
    await client.close()
    assert closed.value.code == 4010
    assert sharded_fake.identifies == [[5, 4]] and sharded_fake.closed_with == [4010]


async def test_the_fake_requires_sharding_past_its_guild_limit() -> None:
    fake = FakeDiscord(guilds_per_shard=1)
    fake.add_guild("second")
    async with serving(fake):
        client = discord.Client(intents=discord.Intents.none())
        try:
            with pytest.raises(discord.ConnectionClosed) as closed:
                await asyncio.wait_for(client.start("fake-token"), START_TIMEOUT)
            assert closed.value.code == 4011 and fake.closed_with == [4011]
        finally:
            await client.close()


# ---------------------------------------------------------------------------- two processes
class Tracked:
    """A sharded bot whose commands, channel posts and status edits are recorded as they happen."""

    def __init__(self, name: str, bot: TableBot) -> None:
        self.name = name
        self.bot = bot
        self.commands: list[str] = []  # channel of every command this bot handled
        self.posted: list[str] = []  # channel of every message it posted outside interactions
        self.statuses: list[str] = []  # channel of every status message it put
        self.task: asyncio.Task[None] | None = None
        run_command, send_channel, put_status = bot.run_command, bot._send_channel, bot._put_status

        async def tracked_command(interaction: discord.Interaction[Any], command: str, options: dict[str, Any]) -> None:
            self.commands.append(str(interaction.channel_id))
            await run_command(interaction, command, options)

        async def tracked_send(prepared: Any, index: int, channel: str) -> None:
            self.posted.append(channel)
            await send_channel(prepared, index, channel)

        async def tracked_status(channel: str, message_id: str | None, embed: discord.Embed) -> str:
            self.statuses.append(channel)
            return await put_status(channel, message_id, embed)

        bot.run_command = tracked_command  # type: ignore[method-assign]
        bot._send_channel = tracked_send  # type: ignore[method-assign]
        bot._put_status = tracked_status  # type: ignore[method-assign]
        bot.before_identify_hook = _no_identify_pause  # type: ignore[method-assign]


@contextlib.asynccontextmanager
async def two_processes(fake: FakeDiscord, db: str) -> AsyncIterator[tuple[Tracked, Tracked]]:
    """Process A on shards 0-1 and process B on shards 2-3 of 4, one database."""
    bots = [
        Tracked(name, make_bot(
            shard_plan=ShardPlan(ids, SHARDS), db_path=db, reminder_seconds=3600.0, guild_ready_timeout=0.05,
            status_delay=0.05,
        ))
        for name, ids in (("A", (0, 1)), ("B", (2, 3)))
    ]
    try:
        for tracked in bots:  # one after the other, as deploys do; both migrate the same database
            tracked.task = asyncio.create_task(tracked.bot.start("fake-token"), name=f"bot-{tracked.name}")
            ready = asyncio.gather(tracked.bot.synced.wait(), tracked.bot.wait_until_ready())
            try:
                await asyncio.wait_for(asyncio.shield(ready), START_TIMEOUT)
            except TimeoutError:
                raise AssertionError(f"bot {tracked.name} did not start: {tracked.task}") from None
        await fake.wait_for(lambda: len(fake.connected_shards()) == SHARDS, START_TIMEOUT, "four shard connections")
        await asyncio.sleep(0.05)
        for tracked in bots:
            assert tracked.task is not None and not tracked.task.done(), tracked.task
        yield bots[0], bots[1]
    finally:
        for tracked in bots:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(tracked.bot.close(), START_TIMEOUT)
            if tracked.task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(tracked.task, START_TIMEOUT)


def reminders_in(fake: FakeDiscord, channel: str) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(channel) if m.content.startswith("Reminder:")]


async def play_and_remind_on_two_shards(fake: FakeDiscord, db: str) -> None:
    pytest.importorskip("games.ironclad_draughts")
    guilds = [fake.add_guild(f"guild-{shard}", shard=shard) for shard in range(SHARDS)]
    channels = [fake.add_channel(f"table-{shard}", guild=guild) for shard, guild in enumerate(guilds)]
    owner = {channel: "A" if shard < 2 else "B" for shard, channel in enumerate(channels)}
    peru, chile = fake.add_user("peru-player"), fake.add_user("chile-player")
    async with two_processes(fake, db) as (a, b):
        assert sorted(fake.connected_shards()) == [(s, SHARDS) for s in range(SHARDS)]
        for tracked, shards in ((a, (0, 1)), (b, (2, 3))):  # the default guild too, wherever it falls
            assert isinstance(tracked.bot, ShardedTableBot)
            expected = sorted(int(g) for g in fake.guilds if fake.shard_of(g, SHARDS) in shards)
            assert sorted(g.id for g in tracked.bot.guilds) == expected, tracked.name
        interactions = []
        for channel in channels:  # an ironclad duel: someone is always to act, so reminders are due
            interactions.append(await fake.run(peru, "game new", {"system": "ironclad-draughts", "scenario": "duel"},
                                               channel=channel, timeout=10.0))
            seats = [c["value"] for c in await fake.autocomplete(peru, "game join", {"seat": ""}, "seat",
                                                                 channel=channel)]
            for user, command, options in (
                (peru, "game join", {"seat": seats[0]}),
                (chile, "game join", {"seat": seats[1]}),
                (peru, "game start", {}),
            ):
                interactions.append(await fake.run(user, command, options, channel=channel, timeout=10.0))
        for ix in interactions:  # each answered once, publicly, by one process
            assert len(ix.public()) == 1, [m.text() for m in ix.messages()]
            assert "took too long" not in ix.text()
        for tracked in (a, b):
            handled = set(tracked.commands)
            assert handled == {c for c in channels if owner[c] == tracked.name}, tracked.name
            assert len(tracked.commands) == 4 * len(handled)  # autocomplete does not go through run_command
        await fake.wait_for(
            lambda: set(a.statuses) | set(b.statuses) == set(channels), 10.0, "a status message in every channel"
        )
        assert {owner[c] for c in a.statuses} == {"A"} and {owner[c] for c in b.statuses} == {"B"}

        # Every game is overdue. A scans first: it must claim only its own guilds' games, and the
        # two scanning together afterwards must not remind anyone twice.
        later = time.time() + 60 * 86400
        await a.bot.send_reminders(later)
        assert sorted(a.posted) == sorted(c for c in channels if owner[c] == "A")
        await asyncio.gather(b.bot.send_reminders(later), a.bot.send_reminders(later), b.bot.send_reminders(later))
        assert sorted(b.posted) == sorted(c for c in channels if owner[c] == "B")
        for channel in channels:
            reminded = reminders_in(fake, channel)
            assert len(reminded) == 1, (channel, [m.content for m in reminded])
            assert peru.mention in reminded[0].content or chile.mention in reminded[0].content
    assert not fake.undelivered, fake.undelivered
    assert not fake.violations, fake.violations


@pytest.mark.slow
async def test_two_sharded_processes_on_one_sqlite_file(sharded_fake: FakeDiscord, tmp_path: Path) -> None:
    await play_and_remind_on_two_shards(sharded_fake, str(tmp_path / "table.db"))


@pytest.mark.slow
async def test_two_sharded_processes_on_postgresql(sharded_fake: FakeDiscord, pg_url: str) -> None:
    await play_and_remind_on_two_shards(sharded_fake, pg_url)


@pytest.mark.slow
async def test_one_process_on_every_shard_serves_every_guild(sharded_fake: FakeDiscord, tmp_path: Path) -> None:
    """WARGAME_SHARD_COUNT alone: one process holds every shard (0..count-1), as discord.py would."""
    guild = sharded_fake.add_guild("far", shard=3)
    channel = sharded_fake.add_channel("far-table", guild=guild)
    bot = make_bot(
        shard_plan=parse_shards("", str(SHARDS)), db_path=str(tmp_path / "t.db"), guild_ready_timeout=0.05,
        reminder_seconds=3600.0,
    )
    bot.before_identify_hook = _no_identify_pause  # type: ignore[method-assign]
    task = asyncio.create_task(bot.start("fake-token"))
    try:
        await asyncio.wait_for(asyncio.gather(bot.synced.wait(), bot.wait_until_ready()), START_TIMEOUT)
        assert sorted(sharded_fake.identifies, key=str) == [[s, SHARDS] for s in range(SHARDS)]
        alice = sharded_fake.add_user("alice")
        for where in (channel, sharded_fake.general):
            ix = await sharded_fake.run(alice, "roll", {"dice": "2d6"}, channel=where, timeout=10.0)
            assert ix.public()
            said = await sharded_fake.wait_for(
                lambda w=where: [m for m in sharded_fake.channel_messages(w) if "2d6" in m.text()], 5.0, "the roll"
            )
            assert len(said) == 1
        served = bot.served_channels()
        assert served is not None and {channel, sharded_fake.general} <= served
    finally:
        await asyncio.wait_for(bot.close(), START_TIMEOUT)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, START_TIMEOUT)
    assert not sharded_fake.violations
