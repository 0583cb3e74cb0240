"""Private things go by DM, only to their owner; closed DMs fall back to ephemeral replies."""

from __future__ import annotations

import hashlib
import re
import time

import pytest

from bot.discord_app import DM_RETRY_SECONDS, DMS_WORK_AGAIN, PRIVATE_HELP, TableBot
from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import FakeDiscord, FakeUser, Recorded

pytestmark = pytest.mark.e2e


async def test_a_secret_roll_reaches_only_the_dm(fake: FakeDiscord, bot: TableBot) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    rolled = await fake.run(alice, "roll", {"dice": "3d10", "secret": True, "purpose": "setup"})
    dm = await fake.wait_for(lambda: fake.dms(alice), 5.0, "the secret roll's DM")
    result = re.search(r"\[([\d, ]+)\] = \*\*(\d+)\*\*", dm[0].content)
    assert result is not None, dm[0].content
    secret = result.group(0)
    public = "\n".join(m.text() for m in fake.channel_messages())
    assert "made secret roll #1" in public and "Commitment" in public
    assert secret not in public and secret not in rolled.text()
    assert not fake.dms(bob) and not fake.ephemeral_to(bob)

    await fake.run(alice, "reveal", {"roll": "1"})
    assert secret in "\n".join(m.text() for m in fake.channel_messages())
    assert not fake.violations


async def test_closed_dms_fall_back_and_are_not_retried(fake: FakeDiscord, bot: TableBot) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob", dms_open=False)
    await fake.run(alice, "deck new", {"name": "cards", "from": "standard54"})
    await fake.run(alice, "deck deal", {"name": "cards", "count": 3, "to": f"{alice.mention} {bob.mention}"})
    await fake.wait_for(lambda: fake.dms(alice), 5.0, "alice's dealt cards")
    notice = await fake.wait_for(
        lambda: next((m for m in fake.channel_messages() if "/game private" in m.content), None),
        5.0,
        "a public pointer to /game private for bob",
    )
    assert bob.mention in notice.content and "dealt" not in notice.content  # says how, reveals nothing
    assert not fake.dms(bob)

    # bob's own secret roll: he is right here, so he sees it ephemerally, with how to see it later
    await fake.run(bob, "roll", {"dice": "2d6", "secret": True, "purpose": "ambush"})
    told = await fake.wait_for(
        lambda: [m for m in fake.ephemeral_to(bob) if "Your secret roll" in m.content], 5.0, "bob's ephemeral roll"
    )
    assert told and any(PRIVATE_HELP in m.content for m in fake.ephemeral_to(bob))
    assert not any("Your secret roll" in m.text() for m in fake.channel_messages())

    assert len(dm_attempts(fake, bob)) == 1, "a closed DM must not be retried at every private event"

    # /game private tries a DM once more; still closed, so the ephemeral fallback stays
    hand = await fake.run(bob, "game private")
    assert hand.ephemeral() and not hand.public() and "cards" in hand.text()
    assert len(dm_attempts(fake, bob)) == 2 and not fake.dms(bob)
    assert bob.id in await bot.service.closed_dm_users()  # remembered across restarts by the service
    assert not fake.violations


def dm_attempts(fake: FakeDiscord, user: FakeUser) -> list[Recorded]:
    """Every message the bot tried to send into ``user``'s DM channel, delivered or refused."""
    paths = {f"/channels/{c}/messages" for c, r in fake.dm_channels.items() if r == user.id}
    return [r for r in fake.requests if r.method == "POST" and r.path in paths]


async def closed_and_dealt(fake: FakeDiscord, alice: FakeUser, bob: FakeUser) -> None:
    """A deck dealt to alice and bob while bob's DMs are closed: the bot marks them closed."""
    await fake.run(alice, "deck new", {"name": "cards", "from": "standard54"})
    await fake.run(alice, "deck deal", {"name": "cards", "count": 3, "to": f"{alice.mention} {bob.mention}"})
    await fake.wait_for(lambda: len(dm_attempts(fake, bob)) == 1, 5.0, "the refused DM to bob")
    # the bot stores the mark before it posts the pointer: wait for that, not just for the refusal
    await fake.wait_for(lambda: any(f"{bob.mention}: I could not send" in m.content for m in fake.channel_messages()),
                        5.0, "the public pointer for bob, posted once the mark is stored")


async def test_game_private_reopens_dms_that_work_again(fake: FakeDiscord, bot: TableBot) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob", dms_open=False)
    await closed_and_dealt(fake, alice, bob)
    assert bob.id in await bot.service.closed_dm_users()
    fake.set_dms(bob, open=True)  # bob changes his privacy settings, then asks for his cards

    reply = await fake.run(bob, "game private")
    assert reply.ephemeral() and not reply.public() and DMS_WORK_AGAIN in reply.text()
    assert "cards" not in reply.text()  # it went by DM, where it belongs
    dm = await fake.wait_for(lambda: fake.dms(bob), 5.0, "bob's private information by DM")
    assert "cards" in dm[0].content
    assert bob.id not in await bot.service.closed_dm_users()
    assert bob.id not in await bot.service.store.dms_closed_since()  # the mark is gone from the store

    await fake.run(alice, "deck deal", {"name": "cards", "count": 1, "to": bob.mention})
    await fake.wait_for(lambda: len(fake.dms(bob)) == 2, 5.0, "the next deal straight to bob's DMs")
    assert not fake.violations


@pytest.mark.slow
async def test_closed_dms_are_retried_after_a_while_even_across_a_restart(fake: FakeDiscord, runner: BotRunner) -> None:
    bot = await runner.start()
    alice, bob = fake.add_user("alice"), fake.add_user("bob", dms_open=False)
    await closed_and_dealt(fake, alice, bob)
    await runner.stop(bot)
    bot = await runner.start()  # the mark and when it was made come back from the store
    fake.set_dms(bob, open=True)

    await fake.run(alice, "deck deal", {"name": "cards", "count": 1, "to": bob.mention})
    await fake.wait_for(lambda: any(f"{bob.mention}: I could not send" in m.content for m in fake.channel_messages()),
                        5.0, "the public pointer for bob")
    assert len(dm_attempts(fake, bob)) == 1, "not retried before DM_RETRY_SECONDS"

    bot.clock = lambda: time.time() + DM_RETRY_SECONDS + 60  # a while later
    await fake.run(alice, "deck deal", {"name": "cards", "count": 1, "to": bob.mention})
    dm = await fake.wait_for(lambda: fake.dms(bob), 5.0, "the retried DM")
    assert "dealt" in dm[0].content or "cards" in dm[0].content
    assert bob.id not in await bot.service.store.dms_closed_since()
    assert not fake.violations


@pytest.mark.slow
async def test_hand_and_errors_are_ephemeral(fake: FakeDiscord, bot: TableBot) -> None:
    alice = fake.add_user("alice")
    await fake.run(alice, "deck new", {"name": "cards", "from": "standard54"})
    await fake.run(alice, "deck draw", {"name": "cards", "to": "hand"})
    hand = await fake.run(alice, "hand")
    assert hand.ephemeral() and not hand.public() and "**cards**" in hand.text()
    bad = await fake.run(alice, "roll", {"dice": "3d0"})
    assert bad.ephemeral() and not bad.public() and "`3d0`" in bad.text()
    assert not fake.violations


async def test_a_channels_dice_stream_is_committed_then_published_on_request(fake: FakeDiscord, bot: TableBot) -> None:
    """The first tool use shows the stream's commitment; /tools verify posts the seed, the check
    and the export file, and the next stream's commitment."""
    alice = fake.add_user("alice")
    first = await fake.run(alice, "roll", {"dice": "2d6"})
    opened = re.search(r"Seed commitment: `([0-9a-f]{64})`", first.text())
    assert opened is not None, first.text()
    reply = await fake.run(alice, "tools verify", {})
    seed = re.search(r"table-tools seed: `([0-9a-f]{64})`", reply.text())
    assert seed is not None, reply.text()
    assert hashlib.sha256(bytes.fromhex(seed.group(1))).hexdigest() == opened.group(1)
    assert "**Verified**" in reply.text() and "1 order replayed" in reply.text()
    [message] = reply.public()
    assert [a.filename for a in message.attachments] == [f"tools-1-{message.channel_id}.json"]
    renewed = re.findall(r"Seed commitment: `([0-9a-f]{64})`", reply.text())
    assert len(renewed) == 1 and renewed[0] != opened.group(1)
    assert not fake.violations
