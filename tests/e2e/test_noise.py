"""Table manners through the fake Discord (issue 13, item 1): a hex-ironclads fire phase, counting
what the channel sees. Secret fire orders post nothing and ping nobody (one ephemeral note
for the giver only), and do not even touch the pinned status message; each seal is one post; the
reveal is one post with one board and a ping for the side that moves first (unless that side
sealed last and so is the one at the keyboard)."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.discord_app import TableBot
from games.core.rng import seed_from_number
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

QUIET = 0.4  # longer than the fixture's status delay (0.05 s): time for anything late to arrive


def status_message(fake: FakeDiscord) -> FakeMessage | None:
    return next((m for m in fake.channel_messages() if any(e.get("title") == "Game status" for e in m.embeds)), None)


def status_says(fake: FakeDiscord, needle: str) -> bool:
    message = status_message(fake)
    return message is not None and needle in message.text()


def posts(fake: FakeDiscord) -> list[FakeMessage]:
    """The channel's messages other than the pinned status message."""
    return [m for m in fake.channel_messages() if not m.embeds]


def mentions(messages: list[FakeMessage]) -> list[str]:
    return [uid for m in messages for uid in re.findall(r"<@!?(\d+)>", m.content)]


async def wait_dm(fake: FakeDiscord, user: FakeUser, had: int) -> None:
    await fake.wait_for(lambda: len(fake.dms(user)) > had, 5.0, f"a DM to {user.name}")


async def settle(fake: FakeDiscord) -> None:
    """Wait until nothing more arrives: no new message, DM or edit for a while (follow-ups, DMs and
    the status refresh come after the reply; on a busy machine, later)."""

    def sample() -> tuple[int, int]:
        return len(fake.messages), sum(m.edits for m in fake.messages.values())

    last = sample()
    for _ in range(40):
        await asyncio.sleep(QUIET)
        now = sample()
        if now == last:
            return
        last = now
    raise AssertionError("the channel never went quiet")


async def order(fake: FakeDiscord, user: FakeUser, text: str) -> list[FakeMessage]:
    """Give an order; returns the channel posts it made, once everything it caused has arrived."""
    seen = {m.id for m in posts(fake)}
    answered = await fake.run(user, "order", {"text": text})
    assert not [m for m in answered.ephemeral() if "went wrong" in m.content]
    await settle(fake)
    return [m for m in posts(fake) if m.id not in seen]


async def test_a_fire_phase_shows_the_channel_only_what_the_rules_make_public(fake: FakeDiscord, bot: TableBot) -> None:
    union, confederate = fake.add_user("union-player"), fake.add_user("confederate-player")
    # a fixed game seed: with a random one the fire could sink a ship and end the duel, leaving
    # nobody to move (a CI run failed so)
    bot.service.seed_source = lambda: seed_from_number(1)
    await fake.run(union, "game new", {"system": "hex-ironclads", "scenario": "duel"})
    await fake.run(union, "game join", {"seat": "union"})
    await fake.run(confederate, "game join", {"seat": "confederate"})
    start = await fake.run(union, "game start")
    assert union.mention in start.public()[0].content and confederate.mention in start.public()[0].content
    await fake.wait_for(lambda: status_says(fake, "running"), 5.0, "the status message")
    await settle(fake)
    status = status_message(fake)
    assert status is not None
    phase: list[FakeMessage] = []
    their_dms = len(fake.dms(confederate))  # their own view, sent at the start
    before = len(posts(fake))  # set-up, seats and the opening board

    for text in ("Monitor fire Virginia", "Monitor hold", "Monitor fire Virginia"):
        edits, dms = status.edits, len(fake.dms(union))
        answered = await fake.run(union, "order", {"text": text})
        assert not answered.public()
        (note,) = answered.ephemeral()
        assert "Order noted for Union" in note.content and "nothing was posted in the channel" in note.content
        assert "secret until the reveal" in note.content  # one private reply, no DM (issue 24)
        await settle(fake)
        assert len(fake.dms(union)) == dms
        assert status.edits == edits, "a secret order edited the status message: its timing would show"
        assert len(fake.dms(confederate)) == their_dms
    assert len(posts(fake)) == before, "three secret orders, no post"

    sealed = await order(fake, union, "seal")
    phase += sealed
    assert len(sealed) == 1 and "Union has sealed" in sealed[0].content and not sealed[0].attachments
    assert not mentions(sealed)

    assert not await order(fake, confederate, "Virginia fire Monitor")

    revealed = await order(fake, confederate, "seal")
    phase += revealed
    assert "All fire orders are sealed" in "\n".join(m.content for m in revealed)
    (_, movers) = await bot.service.channel_state(fake.general)
    assert len(movers) == 1

    assert len(phase) == 2, [m.content[:80] for m in phase]  # one post per seal
    assert sum(len(m.attachments) for m in phase) == 1 and phase[-1].has_image()
    assert "moves first" in revealed[0].content
    if movers == [confederate.id]:  # sealed last and acts on: here already, so pinged by nobody
        assert mentions(phase) == []
    else:  # one ping, for the side that moves first
        assert mentions(phase) == movers
    assert not fake.violations
