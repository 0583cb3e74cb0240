"""The fake Discord itself: a deliberately careless discord.py client must hit every limit it enforces.

Without these, a passing e2e suite could just mean the fake lets everything through.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.e2e.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e

Action = Callable[[discord.Interaction[Any]], Awaitable[None]]


class Careless:
    """A bare client whose /act command runs whatever the test sets, recording what Discord answered."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.client = discord.Client(intents=discord.Intents.none(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self.client)
        self.action: Action | None = None
        self.errors: list[discord.HTTPException] = []
        self.done = asyncio.Event()

        @app_commands.command(name="act", description="do the thing under test")
        async def act(interaction: discord.Interaction[Any], text: str) -> None:
            try:
                assert self.action is not None
                await self.action(interaction)
            except discord.HTTPException as error:
                self.errors.append(error)
            finally:
                self.done.set()

        @act.autocomplete("text")
        async def many(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f"choice {i}", value=str(i)) for i in range(30)]

        self.tree.add_command(act)

    async def run(self, action: Action) -> list[discord.HTTPException]:
        self.action, self.errors = action, []
        self.done.clear()
        await self.fake.slash(self.fake.owner, "act", {"text": "x"})
        await asyncio.wait_for(self.done.wait(), 8)
        return self.errors


@pytest.fixture
async def careless(fake: FakeDiscord) -> AsyncIterator[Careless]:
    bot = Careless(fake)
    fake.violations_expected = True  # each test here breaks a limit on purpose and checks it was caught
    guild = discord.Object(int(fake.guild_id))
    bot.tree.copy_global_to(guild=guild)
    task = asyncio.create_task(bot.client.start(fake.token))
    await asyncio.wait_for(fake.identified.wait(), 10)
    await asyncio.wait_for(bot.client.wait_until_ready(), 10)
    await bot.tree.sync(guild=guild)
    try:
        yield bot
    finally:
        await bot.client.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)


@pytest.mark.slow
async def test_more_than_25_choices_are_refused(fake: FakeDiscord, careless: Careless) -> None:
    with pytest.raises(AssertionError, match="timed out"):
        await fake.autocomplete(fake.owner, "act", {"text": ""}, "text", timeout=1.0)
    assert any("choices: 30 items" in v for v in fake.violations)


async def test_a_second_initial_response_is_refused(fake: FakeDiscord, careless: Careless) -> None:
    async def twice(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("one")
        interaction.response._response_type = None  # get past discord.py's own guard to reach the server
        await interaction.response.send_message("two")

    errors = await careless.run(twice)
    assert [e.code for e in errors] == [40060]


async def test_a_late_first_response_is_unknown(fake: FakeDiscord, careless: Careless) -> None:
    fake.first_response_seconds = 0.2

    async def late(interaction: discord.Interaction[Any]) -> None:
        await asyncio.sleep(0.4)
        await interaction.response.send_message("too late")

    errors = await careless.run(late)
    assert [e.code for e in errors] == [10062] and any("first response after" in v for v in fake.violations)


@pytest.mark.slow
@pytest.mark.parametrize(
    "send",
    [
        {"content": "x" * 2001},
        {"embed": discord.Embed(description="x" * 4097)},
        {"embed": discord.Embed(title="x" * 257)},
        {"embeds": [discord.Embed(description="x" * 4000), discord.Embed(description="x" * 2001)]},
    ],
    ids=["content", "description", "title", "embed-total"],
)
async def test_oversized_messages_are_refused(fake: FakeDiscord, careless: Careless, send: dict[str, Any]) -> None:
    async def big(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(**send)

    errors = await careless.run(big)
    assert [e.code for e in errors] == [50035] and fake.violations


async def test_files_over_the_interactions_limit_are_refused(fake: FakeDiscord, careless: Careless) -> None:
    fake.attachment_limit = 1000

    async def big(interaction: discord.Interaction[Any]) -> None:
        assert interaction.filesize_limit == 1000
        await interaction.response.send_message("board", file=discord.File(io.BytesIO(b"x" * 1001), "board.png"))

    errors = await careless.run(big)
    assert [e.code for e in errors] == [40005]


async def test_closed_dms_answer_50007(fake: FakeDiscord, careless: Careless) -> None:
    shy = fake.add_user("shy", dms_open=False)

    async def dm(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("sending")
        channel = await interaction.client.create_dm(discord.Object(int(shy.id)))
        await channel.send("secret")

    errors = await careless.run(dm)
    assert len(errors) == 1 and isinstance(errors[0], discord.Forbidden) and errors[0].code == 50007
    assert not fake.dms(shy)


async def test_follow_ups_need_an_acknowledged_interaction(fake: FakeDiscord, careless: Careless) -> None:
    async def eager(interaction: discord.Interaction[Any]) -> None:
        await interaction.followup.send("before any response")

    errors = await careless.run(eager)
    assert [e.code for e in errors] == [10015]
    assert any("before the interaction was acknowledged" in v for v in fake.violations)
