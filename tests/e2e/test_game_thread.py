"""/game new thread:true (the game lives in a new public thread), /game list (the server's games,
without pings) and /game concede, end to end against the fake Discord."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.discord_app import TableBot
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser
from tests.e2e.race_game import registered

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(autouse=True)
def race_system() -> Iterator[None]:
    with registered():
        yield


def only_public(messages: list[FakeMessage]) -> FakeMessage:
    assert len(messages) == 1, [m.text() for m in messages]
    return messages[0]


async def test_a_game_in_its_own_thread(fake: FakeDiscord, bot: TableBot) -> None:
    red, blue = fake.add_user("red"), fake.add_user("blue")
    asked = await fake.run(red, "game new", {"system": "e2e-race", "scenario": "lane", "thread": True})
    [thread] = fake.threads(fake.general)
    assert thread["type"] == 11 and thread["name"] == "Boat race (test): One lane"  # public, named after the game
    assert thread["thread_metadata"]["auto_archive_duration"] == 10080
    pointer = only_public(asked.public())
    assert pointer.channel_id == fake.general and f"<#{thread['id']}>" in pointer.content

    [created] = fake.channel_messages(thread["id"])  # the game's own messages are in the thread
    assert "set up **Boat race (test)**" in created.content
    assert [c.split(":")[-1] for c in created.custom_ids()] == ["red", "blue"]
    joined = await fake.settled(await fake.click(red, created, created.custom_ids()[0]))
    assert "takes the seat **Red**" in only_public(joined.public()).content
    await fake.run(blue, "game join", {"seat": "blue"}, channel=thread["id"])
    started = only_public((await fake.run(red, "game start", channel=thread["id"])).public())
    assert started.channel_id == thread["id"] and f"To act: {red.mention}" in started.content

    assert await bot.service.store.live_game(fake.general) is None  # the channel itself stays free
    row = await bot.service.store.live_game(thread["id"])
    assert row is not None and row.guild == fake.guild_id
    assert not fake.violations


async def test_thread_true_is_refused_cleanly(fake: FakeDiscord, bot: TableBot) -> None:
    red = fake.add_user("red")
    typo = await fake.run(red, "game new", {"system": "e2e-rac", "scenario": "lane", "thread": True})
    assert not typo.public() and "e2e-rac" in typo.text() and fake.threads() == []  # no empty thread left

    fake.bot_can_start_threads = False
    refused = await fake.run(red, "game new", {"system": "e2e-race", "scenario": "lane", "thread": True})
    assert "Create Public Threads" in refused.text() and fake.threads() == []
    assert await bot.service.store.live_game(fake.general) is None

    fake.bot_can_start_threads = True
    await fake.run(red, "game new", {"system": "e2e-race", "scenario": "lane", "thread": True})
    [thread] = fake.threads()
    nested = await fake.run(red, "game new", {"system": "e2e-race", "scenario": "lane", "thread": True},
                            channel=thread["id"])
    assert "thread" in nested.text() and not nested.public() and len(fake.threads()) == 1
    assert not fake.violations


async def seated(fake: FakeDiscord, channel: str, red: FakeUser, blue: FakeUser) -> None:
    await fake.run(red, "game new", {"system": "e2e-race", "scenario": "lane"}, channel=channel)
    await fake.run(red, "game join", {"seat": "red"}, channel=channel)
    await fake.run(blue, "game join", {"seat": "blue"}, channel=channel)
    await fake.run(red, "game start", channel=channel)


async def test_game_list_names_whose_turn_it_is_without_pinging(fake: FakeDiscord, bot: TableBot) -> None:
    red, blue, carol = fake.add_user("red"), fake.add_user("blue"), fake.add_user("carol")
    harbour = fake.add_channel("harbour")
    await seated(fake, fake.general, red, blue)
    await fake.run(carol, "game new", {"system": "e2e-race", "scenario": "lane"}, channel=harbour)

    listed = await fake.run(carol, "game list")
    assert not listed.public()
    [reply] = listed.ephemeral()
    lines = reply.content.splitlines()
    assert lines[1] == f"1. <#{harbour}> **Boat race (test)** (lane): setting up, open seats: Red, Blue"
    assert lines[2] == f"2. <#{fake.general}> **Boat race (test)** (lane): running, to act: Red (red)"
    assert "<@" not in reply.content  # named, not mentioned
    assert not fake.violations


async def test_concede_asks_first_then_ends_the_game(fake: FakeDiscord, bot: TableBot) -> None:
    red, blue = fake.add_user("red"), fake.add_user("blue")
    await seated(fake, fake.general, red, blue)
    asked = await fake.run(blue, "game concede")
    assert not asked.public() and "confirm:true" in asked.text()
    done = only_public((await fake.run(blue, "game concede", {"confirm": True})).public())
    assert "Blue concedes." in done.content and "**Game over.** Winner: Red." in done.content and done.has_image()
    assert (await bot.service.channel_state(fake.general))[0] == "over"
    assert not fake.violations
