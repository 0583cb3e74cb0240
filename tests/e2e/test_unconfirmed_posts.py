"""A post Discord did not confirm is sent again, once only: the connection drops after Discord
created the message, so the bot cannot know it landed; the retry carries the same nonce with
``enforce_nonce`` and Discord answers it with the message already there."""

from __future__ import annotations

import re

import pytest

from bot.discord_app import TableBot
from tests.e2e.fake_discord import FakeDiscord, Recorded

pytestmark = pytest.mark.e2e


@pytest.mark.slow
async def test_a_dm_whose_answer_was_lost_arrives_once(fake: FakeDiscord, bot: TableBot) -> None:
    alice = fake.add_user("alice")
    fake.drop_answers("POST", r"^/channels/\d+/messages$")
    await fake.run(alice, "roll", {"dice": "3d10", "secret": True, "purpose": "setup"})
    dm = await fake.wait_for(lambda: fake.dms(alice), 5.0, "the secret roll's DM")

    def tries() -> list[Recorded]:
        return [r for r in fake.requests if r.method == "POST" and r.path == f"/channels/{dm[0].channel_id}/messages"]

    await fake.wait_for(lambda: len(tries()) >= 2, 5.0, "the retry of the dropped try")
    assert len(fake.dropped) == 1  # the first try landed but its answer was lost
    assert len(tries()) == 2 and tries()[0].body["nonce"] == tries()[1].body["nonce"] and tries()[1].body["enforce_nonce"]
    assert len(fake.dms(alice)) == 1, [m.content for m in fake.dms(alice)]  # one DM, not two
    assert re.search(r"= \*\*\d+\*\*", dm[0].content)
    assert not fake.violations


async def test_a_post_without_an_enforced_nonce_would_be_doubled(fake: FakeDiscord, bot: TableBot) -> None:
    """The fake's side of it: Discord creates a message anew for a repeated request without an
    enforced nonce, so the retry above is single only because the nonce is honoured."""
    alice = fake.add_user("alice")
    await fake.run(alice, "roll", {"dice": "1d6", "secret": True, "purpose": "p"})
    dm = await fake.wait_for(lambda: fake.dms(alice), 5.0, "the DM")
    channel = dm[0].channel_id
    first = fake._channel_message(channel, {"content": "x", "nonce": "7", "enforce_nonce": True}, [])
    again = fake._channel_message(channel, {"content": "x", "nonce": "7", "enforce_nonce": True}, [])
    loose = fake._channel_message(channel, {"content": "x", "nonce": "7"}, [])
    assert first.status == again.status == loose.status == 200
    assert first.body == again.body and loose.body != first.body
    assert len(fake.dms(alice)) == 3
