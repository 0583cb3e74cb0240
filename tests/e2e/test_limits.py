"""Discord's limits and the awkward moments: many choices, slow drawing, simultaneous orders, wrong seats."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.discord_app import TableBot
from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import FakeDiscord, FakeInteraction, FakeMessage, FakeUser

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


async def table_game(fake: FakeDiscord, peru: FakeUser, chile: FakeUser) -> None:
    await fake.run(peru, "game new", {"system": "table", "scenario": "free", "options": "sides=Peru,Chile,board=12x12"})
    await fake.run(peru, "game join", {"seat": "peru"})
    await fake.run(chile, "game join", {"seat": "chile"})
    await fake.run(peru, "game start")


def replies(fake: FakeDiscord) -> list[FakeMessage]:
    """Public messages other than the status message (which is edited in the background)."""
    return [m for m in fake.channel_messages() if not m.embeds]


def error_text(ix: FakeInteraction) -> str:
    assert not ix.public(), [m.text() for m in ix.public()]
    return "\n".join(m.text() for m in ix.ephemeral())


async def test_autocomplete_stays_within_25(fake: FakeDiscord, bot: TableBot) -> None:
    peru, chile, carol = fake.add_user("peru"), fake.add_user("chile"), fake.add_user("carol")
    await table_game(fake, peru, chile)
    for i in range(30):
        await fake.run(peru, "order", {"text": f"place P{i} {'abcdefghijkl'[i % 12]}{1 + i // 12}"})
    legal = await bot.service.choices(fake.general, bot.user_of_id(peru.id), "order", "text", "")
    assert len(legal) == 31  # 30 removes and concede: more than Discord takes

    choices = await fake.autocomplete(peru, "order", {"text": ""}, "text")
    assert len(choices) == 25 and all(c["value"] in legal for c in choices)
    narrowed = await fake.autocomplete(peru, "order", {"text": "remove P2"}, "text")
    assert {c["value"] for c in narrowed} == {"remove P2", *{f"remove P2{i}" for i in range(10)}}
    assert [c["value"] for c in await fake.autocomplete(chile, "order", {"text": ""}, "text")] == ["concede"]
    assert await fake.autocomplete(carol, "order", {"text": ""}, "text") == []  # spectators: nothing to order

    scenarios = await fake.autocomplete(carol, "game new", {"system": "table", "scenario": ""}, "scenario")
    assert [c["value"] for c in scenarios] == ["free"]
    options = await fake.autocomplete(carol, "game new", {"system": "table", "options": "sides=A,"}, "options")
    assert 0 < len(options) <= 25
    assert not fake.violations


async def test_a_slow_render_still_answers_in_time(fake: FakeDiscord, runner: BotRunner) -> None:
    def slow_render(view: Any, *, zoom: Any = None, names: Any = None) -> bytes:
        time.sleep(3.5)  # longer than Discord waits for a first response
        return b"\x89PNG slow board"

    await runner.start(renderer=slow_render)
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await fake.run(peru, "game new", {"system": "table", "scenario": "free"})
    await fake.run(peru, "game join", {"seat": "red"})
    await fake.run(chile, "game join", {"seat": "blue"})
    started = await fake.slash(peru, "game start")
    await fake.wait_for(lambda: started.response_type is not None, 2.0, "a deferral within the first second or so")
    assert started.response_type == 5 and started.latency is not None and started.latency < 1.5
    await fake.settled(started, timeout=8.0)
    board = started.public()
    assert len(board) == 1 and "The game begins!" in board[0].content and board[0].has_image()
    assert not fake.violations


async def test_two_users_ordering_at_once_in_one_channel(fake: FakeDiscord, bot: TableBot) -> None:
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await table_game(fake, peru, chile)
    both = await asyncio.gather(
        fake.slash(peru, "order", {"text": "place Huascar a1"}),
        fake.slash(chile, "order", {"text": "place Esmeralda a1"}),  # the same square: one must lose
    )
    for ix in both:
        await fake.settled(ix)
    winners = [ix for ix in both if ix.public()]
    losers = [ix for ix in both if not ix.public()]
    assert len(winners) == 1 and len(losers) == 1
    assert "occupied" in error_text(losers[0])

    # Twenty orders at once from both sides: every one applied exactly once, in some order.
    burst = [
        fake.slash(user, "order", {"text": f"place {name}{i} {'bcdefghijk'[i]}{row}"})
        for i in range(10)
        for user, name, row in ((peru, "Pe", 5), (chile, "Ch", 9))
    ]
    for ix in await asyncio.gather(*burst):
        await fake.settled(ix)
        assert len(ix.public()) == 1 and ix.public()[0].has_image()
    log = (await fake.run(peru, "game log", {"page": 1})).text() + (
        await fake.run(peru, "game log", {"page": 2})
    ).text()
    for i in range(10):
        assert log.count(f"place Pe{i} ") == 1 and log.count(f"place Ch{i} ") == 1
    assert not fake.violations


async def test_nobody_orders_for_anothers_seat(fake: FakeDiscord, bot: TableBot) -> None:
    peru, chile, carol = fake.add_user("peru"), fake.add_user("chile"), fake.add_user("carol")
    await table_game(fake, peru, chile)
    await fake.run(peru, "order", {"text": "place Huascar d1"})
    posted = len(replies(fake))

    assert "not yours to move" in error_text(await fake.run(chile, "order", {"text": "move Huascar d2"}))
    assert "do not hold the seat" in error_text(await fake.run(chile, "order", {"text": "concede", "seat": "peru"}))
    assert "hold no seat" in error_text(await fake.run(carol, "order", {"text": "concede"}))
    assert "Only the umpire" in error_text(await fake.run(carol, "game assign", {"seat": "peru", "user": carol}))
    assert "Only the umpire" in error_text(await fake.run(carol, "game end"))
    assert len(replies(fake)) == posted  # nothing public happened, nothing changed
    log = (await fake.run(carol, "game log")).text()
    assert "move Huascar d2" not in log and "concede" not in log

    # A server manager may sort out a stuck game: hand the seat over, or end it.
    moved = (await fake.run(fake.owner, "game assign", {"seat": "chile", "user": carol})).public()
    assert moved and f"{carol.mention} now holds the seat **Chile**" in moved[0].content
    assert (await fake.run(carol, "order", {"text": "place Esmeralda d8"})).public()
    # a seated player's /game end is a vote, announced with whoever has still to agree
    voted = (await fake.run(carol, "game end")).public()
    assert voted and f"{carol.mention} votes to end the game (1/2 players); {peru.mention}: /game end to agree" in voted[0].content
    assert "ended the game" in (await fake.run(fake.owner, "game end")).public()[0].content
    assert not fake.violations


async def test_long_text_is_split_within_discords_limit(fake: FakeDiscord, bot: TableBot) -> None:
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await table_game(fake, peru, chile)
    long_order = " ".join(["signal"] * 330)  # ~2,300 characters: logged as a message from the side
    said = await fake.run(peru, "order", {"text": long_order})
    public = await fake.wait_for(lambda: len(said.public()) >= 2 and said.public(), 5.0, "the rest of the text")
    assert len(public) >= 2 and all(len(m.content) <= 2000 for m in public)
    assert not any(m.has_image() for m in public)  # the words changed nothing on the board: no board
    assert not fake.violations


async def test_without_pin_permission_the_status_message_stays_unpinned(fake: FakeDiscord, bot: TableBot) -> None:
    fake.bot_can_pin = False
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await table_game(fake, peru, chile)
    await fake.run(peru, "order", {"text": "place Huascar d1"})
    status = await fake.wait_for(
        lambda: next((m for m in fake.channel_messages() if m.embeds and "1 pieces" in m.text()), None),
        5.0,
        "the status message",
    )
    await fake.wait_for(
        lambda: any(r.path.endswith(f"/pins/{status.id}") and r.status == 403 for r in fake.requests),
        5.0,
        "the refused pin",
    )
    assert not status.pinned and status in fake.channel_messages()
    assert not fake.violations


async def test_board_zoom_draws_a_close_up(fake: FakeDiscord, bot: TableBot) -> None:
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await table_game(fake, peru, chile)
    await fake.run(peru, "order", {"text": "place Huascar d4"})
    whole = (await fake.run(peru, "game board")).ephemeral()[0].attachments[0].data
    close = (await fake.run(peru, "game board", {"zoom": "d4"})).ephemeral()
    assert close[0].has_image() and close[0].attachments[0].data != whole
    assert not fake.violations


async def test_slow_answers_keep_their_visibility(
    fake: FakeDiscord, bot: TableBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the service itself is slow the bot defers; errors still end up private, hands stay private."""
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await table_game(fake, peru, chile)
    await fake.run(peru, "deck new", {"name": "cards", "from": "standard54"})
    await fake.run(peru, "deck draw", {"name": "cards", "to": "hand"})
    real = bot.service.handle

    async def slow(*args: Any) -> Any:
        await asyncio.sleep(1.3)
        return await real(*args)

    monkeypatch.setattr(bot.service, "handle", slow)

    mistake = await fake.run(chile, "order", {"text": "move Nobody d2"}, timeout=5)
    assert mistake.response_type == 5
    await fake.wait_for(lambda: mistake.ephemeral(), 5.0, "the error, privately")
    assert not mistake.public() and "Nobody" in mistake.ephemeral()[0].content

    hand = await fake.run(peru, "hand", timeout=5)
    assert hand.response_type == 5 and hand.original is not None and hand.original.ephemeral
    assert not hand.public() and "**cards**" in hand.text()

    moved = await fake.run(peru, "order", {"text": "place Huascar d1"}, timeout=5)
    # a slow /order is deferred privately (it might be a hidden order): the public post follows
    await fake.wait_for(lambda: moved.public(), 5.0, "the public post, a follow-up of the private deferral")
    assert moved.response_type == 5 and moved.original is not None and moved.original.ephemeral
    assert moved.public()[0].has_image()
    assert all(ix.latency is not None and ix.latency < 1.5 for ix in (mistake, hand, moved))
    assert not fake.violations
