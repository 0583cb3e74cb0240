"""Slash commands are sent to Discord only when their definitions changed (issue 13, item 4), a
global start clears a development guild's leftovers, and ``python -m bot commands`` syncs or clears
by hand. Against the fake Discord, counting the PUTs it received."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import bot.slash as slash
from bot.discord_app import manage_commands
from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e


def syncs(fake: FakeDiscord) -> list[str]:
    """The paths of every command sync (PUT .../commands) the fake has received."""
    return [r.path for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]


def guild_path(fake: FakeDiscord) -> str:
    return f"/guilds/{fake.guild_id}/commands"


async def test_a_restart_with_the_same_commands_does_not_sync(fake: FakeDiscord, runner: BotRunner) -> None:
    bot = await runner.start()
    assert len(syncs(fake)) == 1 and syncs(fake)[0].endswith(guild_path(fake))
    await runner.stop(bot)
    await runner.start()
    assert len(syncs(fake)) == 1  # nothing changed: no second sync
    names = {c["name"] for c in fake.commands[fake.guild_id]}
    assert {"game", "order", "roll", "deck", "seal", "help"} <= names


@pytest.mark.slow
async def test_changed_definitions_are_synced_once(
    fake: FakeDiscord, runner: BotRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    await runner.stop(await runner.start())
    changed = tuple(
        dataclasses.replace(c, description="Roll dice (changed)") if c.name == "roll" else c
        for c in slash.COMMAND_LIST
    )
    monkeypatch.setattr(slash, "COMMAND_LIST", changed)
    await runner.stop(await runner.start())
    assert len(syncs(fake)) == 2
    roll = next(c for c in fake.commands[fake.guild_id] if c["name"] == "roll")
    assert roll["description"] == "Roll dice (changed)"
    await runner.start()
    assert len(syncs(fake)) == 2


@pytest.mark.slow
async def test_going_global_clears_the_testing_guild(fake: FakeDiscord, runner: BotRunner) -> None:
    """Guild-scoped testing, then a global start: the guild's copies go, so no command shows twice."""
    await runner.stop(await runner.start())
    assert fake.commands[fake.guild_id]
    await runner.stop(await runner.start(guild_id=None))
    assert fake.commands[None] and fake.commands[fake.guild_id] == []
    assert syncs(fake)[-1].endswith(guild_path(fake))
    count = len(syncs(fake))
    await runner.start(guild_id=None)  # the guild is cleared once, the global set is unchanged
    assert len(syncs(fake)) == count


async def test_commands_cli_clears_a_guild_and_forces_a_sync(fake: FakeDiscord, tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    fake.commands[fake.guild_id] = [{"name": "stale", "description": "left from testing", "type": 1}]
    assert await manage_commands("fake-token", db, ["clear-guild", fake.guild_id]) == 0
    assert fake.commands[fake.guild_id] == []
    assert await manage_commands("fake-token", db, ["sync"]) == 0
    assert {c["name"] for c in fake.commands[None]} >= {"game", "order"}
    assert await manage_commands("fake-token", db, ["sync"]) == 0  # forced: it syncs even when unchanged
    assert len([p for p in syncs(fake) if not p.endswith(guild_path(fake))]) == 2


async def test_commands_cli_refuses_bad_arguments(fake: FakeDiscord, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.db")
    assert await manage_commands("fake-token", db, ["clear-guild", "my-server"]) == 2
    assert "not a guild id" in capsys.readouterr().err
    assert await manage_commands("fake-token", db, ["resync"]) == 2
    assert "clear-guild ID" in capsys.readouterr().err
    assert syncs(fake) == []
