"""429 Too Many Requests: the bot waits them out on every route it uses; nothing is lost or sent twice.

discord.py retries a 429 after ``retry_after`` itself, both in ``HTTPClient.request`` (channel
messages, DMs, status edits) and in the webhook adapter that interaction replies and follow-ups go
through. These tests hold the bot to that against the fake, which answers as Discord does (JSON
``{message, retry_after, global, code}``, ``Retry-After``, ``X-RateLimit-*`` and ``Via`` headers).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.discord_app import TableBot
from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser

pytestmark = pytest.mark.e2e

CALLBACK = r"^/interactions/\d+/[^/]+/callback$"
FOLLOW_UP = r"^/webhooks/\d+/[^/]+$"
ORIGINAL = r"^/webhooks/\d+/[^/]+/messages/@original$"
CHANNEL_MESSAGE = r"^/channels/\d+/messages$"
OPEN_DM = r"^/users/@me/channels$"


async def table_game(fake: FakeDiscord, peru: FakeUser, chile: FakeUser) -> None:
    await fake.run(peru, "game new", {"system": "table", "scenario": "free", "options": "sides=Peru,Chile,board=12x12"})
    await fake.run(peru, "game join", {"seat": "peru"})
    await fake.run(chile, "game join", {"seat": "chile"})
    await fake.run(peru, "game start")


def limited(fake: FakeDiscord) -> list[str]:
    """ "METHOD path" of every request the fake answered with 429."""
    return [f"{r.method} {r.path}" for r in fake.requests if r.status == 429]


def status_messages(fake: FakeDiscord) -> list[FakeMessage]:
    return [m for m in fake.channel_messages() if m.embeds]


def alive(runner: BotRunner) -> bool:
    return all(not task.done() for _, task in runner.running)


@pytest.mark.slow
async def test_a_429_on_the_interaction_reply_is_waited_out(fake: FakeDiscord, runner: BotRunner) -> None:
    await runner.start()
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await table_game(fake, peru, chile)
    fake.rate_limit(CALLBACK, times=1, retry_after=0.4)
    moved = await fake.run(peru, "order", {"text": "place Huascar d4"})
    [reply] = moved.public()
    assert reply.has_image() and "Huascar" in reply.content
    assert moved.latency is not None and moved.latency < fake.first_response_seconds
    assert len(limited(fake)) == 1 and limited(fake)[0].endswith("/callback")
    assert alive(runner)


@pytest.mark.slow
async def test_a_429_on_a_follow_up_loses_no_piece_and_doubles_none(fake: FakeDiscord, runner: BotRunner) -> None:
    await runner.start()
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await table_game(fake, peru, chile)
    fake.rate_limit(FOLLOW_UP, method="POST", times=2, retry_after=0.3)  # the first attempt and its retry
    said = await fake.run(peru, "order", {"text": " ".join(["signal"] * 330)})  # two pieces: reply + follow-up
    await fake.wait_for(lambda: len(said.public()) >= 2, 5.0, "the second piece after the 429s")
    await asyncio.sleep(0.3)  # room for a stray duplicate to arrive
    pieces = said.public()
    assert len(pieces) == 2 and not any(m.has_image() for m in pieces)  # words only: the board is unchanged
    assert "".join(m.content for m in pieces).count("signal") == 330
    assert [p.split()[0] for p in limited(fake)] == ["POST", "POST"]
    assert alive(runner)


@pytest.mark.slow
async def test_a_429_on_the_deferred_replys_edit_is_waited_out(
    fake: FakeDiscord, runner: BotRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await runner.start()
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await table_game(fake, peru, chile)
    real = bot.service.handle

    async def slow(*args: Any) -> Any:
        await asyncio.sleep(1.2)  # past the answer budget: the bot defers, then edits the placeholder
        return await real(*args)

    monkeypatch.setattr(bot.service, "handle", slow)
    fake.rate_limit(ORIGINAL, method="PATCH", times=1, retry_after=0.3)
    moved = await fake.run(peru, "order", {"text": "place Huascar d4"}, timeout=8.0)
    assert moved.response_type == 5
    # an order is deferred privately (it may be a hidden one): the 429 hits the edit of that private
    # placeholder, and once it is waited out the public board follows as a follow-up
    await fake.wait_for(lambda: moved.public(), 8.0, "the public follow-up")
    [reply] = moved.public()
    assert reply.has_image() and "Huascar" in reply.content
    assert moved.original is not None and moved.original.ephemeral and not moved.original.loading
    assert limited(fake) == [f"PATCH /webhooks/{fake.app_id}/{moved.token}/messages/@original"]
    assert alive(runner)


@pytest.mark.slow
async def test_a_429_on_a_channel_message_still_posts_the_status_once(fake: FakeDiscord, runner: BotRunner) -> None:
    await runner.start()
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    fake.rate_limit(CHANNEL_MESSAGE, method="POST", times=2, retry_after=0.3)
    await table_game(fake, peru, chile)
    await fake.run(peru, "order", {"text": "place Huascar d4"})
    await fake.wait_for(
        lambda: any("1 pieces" in m.text() for m in status_messages(fake)), 8.0, "the status message after the 429s"
    )
    assert len(status_messages(fake)) == 1
    assert limited(fake) == [f"POST /channels/{fake.general}/messages"] * 2
    assert alive(runner)


@pytest.mark.slow
async def test_a_429_on_the_dm_routes_still_delivers_the_dm_once(fake: FakeDiscord, runner: BotRunner) -> None:
    await runner.start()
    alice = fake.add_user("alice")
    fake.rate_limit(OPEN_DM, times=1, retry_after=0.3)
    fake.rate_limit(CHANNEL_MESSAGE, method="POST", times=1, retry_after=0.3)  # no game here: only the DM posts
    rolled = await fake.run(alice, "roll", {"dice": "3d10", "secret": True, "purpose": "setup"})
    dm = await fake.wait_for(lambda: fake.dms(alice), 5.0, "the secret roll's DM after the 429s")
    await asyncio.sleep(0.3)
    assert len(fake.dms(alice)) == 1 and "3d10" in dm[0].content
    assert "Your secret roll" not in rolled.text()  # delivered by DM, so no ephemeral fallback
    [opened, posted] = limited(fake)
    assert opened == "POST /users/@me/channels" and posted.startswith("POST /channels/")
    assert alive(runner)


@pytest.mark.slow
async def test_a_global_429_is_waited_out_and_interactions_go_on(fake: FakeDiscord, runner: BotRunner) -> None:
    await runner.start()
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await table_game(fake, peru, chile)
    await fake.wait_for(lambda: status_messages(fake), 5.0, "the status message")
    fake.rate_limit(times=3, retry_after=0.4, is_global=True)
    moved = await fake.run(peru, "order", {"text": "place Huascar d4"})
    [reply] = moved.public()
    assert reply.has_image()
    await fake.wait_for(
        lambda: any("1 pieces" in m.text() for m in status_messages(fake)), 8.0, "the status edit after the 429s"
    )
    assert len(status_messages(fake)) == 1
    hit = limited(fake)
    assert len(hit) == 3 and not any("/interactions/" in h or "/webhooks/" in h for h in hit), hit
    assert alive(runner)
    again = await fake.run(chile, "order", {"text": "place Esmeralda h8"})  # and play goes on
    assert again.public() and again.public()[0].has_image()


async def test_the_429_answer_has_discords_shape(fake: FakeDiscord, bot: TableBot) -> None:
    """Checked against the spec's ClientRatelimitedResponse by the fake (serving() fails on a
    mismatch); the headers discord.py reads are there."""
    import aiohttp

    fake.rate_limit(CHANNEL_MESSAGE, times=1, retry_after=1.5)
    async with aiohttp.ClientSession() as session:
        url = f"{fake.api_base}/channels/{fake.general}/messages"
        async with session.post(url, json={"content": "hi"}) as response:
            body = await response.json()
            assert response.status == 429
            assert body == {"message": "You are being rate limited.", "retry_after": 1.5, "global": False, "code": 0}
            assert response.headers["Retry-After"] == "2" and response.headers["Via"] == "1.1 google"
            assert response.headers["X-RateLimit-Remaining"] == "0"
            assert float(response.headers["X-RateLimit-Reset-After"]) == 1.5
        async with session.post(url, json={"content": "hi"}) as response:
            assert response.status == 200  # once only


@pytest.mark.slow
async def test_as_many_429s_as_discord_py_tries_leave_the_bot_running_and_say_so(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    """discord.py tries a request five times; when all five are answered 429 the error reaches the
    bot. The reply that got through stays, the player is told something went wrong, and play goes on."""
    await runner.start()
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await table_game(fake, peru, chile)
    fake.rate_limit(FOLLOW_UP, method="POST", times=5, retry_after=0.05)
    said = await fake.run(peru, "order", {"text": " ".join(["signal"] * 330)})
    note = await fake.wait_for(lambda: said.ephemeral(), 5.0, "the note that something went wrong")
    assert "Something went wrong" in note[0].content
    assert len(said.public()) == 1 and len(limited(fake)) == 5
    assert alive(runner)
    again = await fake.run(chile, "order", {"text": "place Esmeralda h8"})
    assert again.public() and again.public()[0].has_image()
