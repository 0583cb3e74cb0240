"""A post Discord did not confirm is sent again, once only: the connection drops after Discord
created the message, so the bot cannot know it landed; the retry carries the same nonce with
``enforce_nonce`` and Discord answers it with the message already there."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from bot.discord_app import TableBot
from bot.discord_choices import OUT_OF_DATE
from tests.e2e.fake_discord import EPHEMERAL, FakeDiscord, FakeMessage, FakeUser, Recorded, component
from tests.e2e.race_game import registered as race_registered

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: each takes about 1 s or more


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


# Interaction answers: the initial response, its deferral, the edit of the reply, and follow-ups.
# Each kind is tried both ways an unconfirmed request goes: carried out with the answer lost
# ("answer"), and lost before Discord had it ("request"). The bot cannot tell the two apart.
CALLBACK = r"^/interactions/\d+/[^/]+/callback$"
FOLLOW_UP = r"^/webhooks/\d+/[^/]+$"
REPLY_EDIT = r"^/webhooks/\d+/[^/]+/messages/@original$"
CHANNEL_POST = r"^/channels/\d+/messages$"
HOW = ["answer", "request"]


def unconfirm(fake: FakeDiscord, how: str, method: str, route: str, only: Callable[[Any], bool] | None = None) -> None:
    if how == "answer":
        fake.drop_answers(method, route, only=only)
    else:
        fake.lose_requests(method, route, only=only)


def unconfirmed(fake: FakeDiscord) -> list[Recorded]:
    return fake.dropped + fake.lost


def sent(fake: FakeDiscord, method: str, route: str) -> list[Recorded]:
    """The requests that reached Discord (those lost on the way are in ``fake.lost``)."""
    return [r for r in fake.requests if r.method == method and re.search(route, r.path)]


async def table_game(fake: FakeDiscord) -> tuple[FakeUser, FakeUser]:
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await fake.run(peru, "game new", {"system": "table", "scenario": "free", "options": "sides=Peru,Chile,board=12x12"})
    await fake.run(peru, "game join", {"seat": "peru"})
    await fake.run(chile, "game join", {"seat": "chile"})
    await fake.run(peru, "game start")
    return peru, chile


def slow_service(bot: TableBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command takes longer than the bot's answer budget: it defers, then edits or follows up."""
    real = bot.service.handle

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(1.2)
        return await real(*args, **kwargs)

    monkeypatch.setattr(bot.service, "handle", slow)


@pytest.mark.parametrize("how", HOW)
async def test_an_unconfirmed_reply_lands_once(fake: FakeDiscord, bot: TableBot, how: str) -> None:
    peru, _ = await table_game(fake)
    for order in ("place Huascar d4", " ".join(["signal"] * 330)):  # a board (a file), then two pieces
        unconfirm(fake, how, "POST", CALLBACK)
        ix = await fake.run(peru, "order", {"text": order})
        callbacks = rf"^/interactions/{ix.id}/"
        if how == "answer":  # the retry is told 40060 "already acknowledged", which says the first landed
            await fake.wait_for(lambda: len(sent(fake, "POST", callbacks)) == 2, 5.0, "the retry")  # noqa: B023
        await asyncio.sleep(0.5)  # time for anything more the bot would send
        assert ix.response_type == 4 and not ix.ephemeral()  # no "something went wrong"
        assert [r.status for r in sent(fake, "POST", callbacks)] == ([200, 400] if how == "answer" else [200])
        if order.startswith("place"):
            board = ix.public()
            assert len(board) == 1 and board[0].has_image() and "Huascar" in board[0].content, ix.text()
        else:  # the rest of the answer follows the unconfirmed reply
            assert len(ix.public()) == 2 and ix.text().count("signal") == 330
    assert len(unconfirmed(fake)) == 2
    assert not fake.violations


@pytest.mark.parametrize("how", HOW)
async def test_an_unconfirmed_deferral_and_edit_land_once(
    fake: FakeDiscord, bot: TableBot, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    peru, _ = await table_game(fake)
    await fake.run(peru, "roll", {"dice": "1d6"})  # the channel's dice stream begins (its own message)
    slow_service(bot, monkeypatch)
    unconfirm(fake, how, "POST", CALLBACK)  # the deferral
    unconfirm(fake, how, "PATCH", REPLY_EDIT)  # the placeholder's edit into the answer
    ix = await fake.run(peru, "roll", {"dice": "2d6", "purpose": "boarding"}, timeout=8.0)
    tries = 2 if how == "answer" else 1  # the edits that reached Discord
    await fake.wait_for(lambda: len(sent(fake, "PATCH", REPLY_EDIT)) == tries, 5.0, "the edit sent again")
    await asyncio.sleep(0.5)  # time for anything more the bot would send
    assert ix.response_type == 5 and len(unconfirmed(fake)) == 2
    answer = ix.public()
    assert len(answer) == 1 and "rolls 2d6" in answer[0].content and not ix.ephemeral(), ix.text()
    assert not fake.violations


@pytest.mark.parametrize("how", HOW)
async def test_an_unconfirmed_public_follow_up_lands_once(fake: FakeDiscord, bot: TableBot, how: str) -> None:
    peru, _ = await table_game(fake)
    unconfirm(fake, how, "POST", FOLLOW_UP)
    ix = await fake.run(peru, "order", {"text": " ".join(["signal"] * 330)})  # two pieces: a reply and a follow-up
    await fake.wait_for(lambda: len(ix.public()) >= 2 and unconfirmed(fake), 5.0, "the follow-up")
    await asyncio.sleep(1.0)  # time for a second copy, were one posted
    assert len(ix.public()) == 2, [m.content[:40] for m in ix.public()]
    assert ix.text().count("signal") == 330
    # the bot read the channel back to learn whether the unconfirmed follow-up had landed
    assert sent(fake, "GET", rf"^/channels/{fake.general}/messages$")
    assert len(sent(fake, "POST", FOLLOW_UP)) == 1  # landed and found, or lost and sent again
    assert not fake.violations


@pytest.mark.parametrize("how", HOW)
async def test_an_unconfirmed_private_follow_up_is_seen(fake: FakeDiscord, bot: TableBot, how: str) -> None:
    """Bob's DMs are closed, so his secret roll comes to him as an ephemeral follow-up of the
    public reply. An ephemeral message is in no channel's history and a follow-up takes no nonce:
    the bot cannot tell whether an unconfirmed one landed, so it sends it again; bob sees it once
    when the request was lost, twice when only the answer was."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob", dms_open=False)
    await fake.run(alice, "roll", {"dice": "1d6"})  # the channel's dice stream begins (its own message)
    unconfirm(fake, how, "POST", FOLLOW_UP, only=private)
    ix = await fake.run(bob, "roll", {"dice": "2d6", "secret": True, "purpose": "ambush"})
    tries = 2 if how == "answer" else 1  # those that reached Discord
    await fake.wait_for(lambda: len([r for r in sent(fake, "POST", FOLLOW_UP) if private(r.body)]) == tries,
                        5.0, "the private follow-up sent again")
    await asyncio.sleep(0.5)  # time for anything more the bot would send
    assert len(unconfirmed(fake)) == 1
    seen = [m for m in fake.ephemeral_to(bob) if "Your secret roll" in m.content]
    assert len(seen) == (2 if how == "answer" else 1), [m.content for m in fake.ephemeral_to(bob)]
    assert len(ix.public()) == 1 and "Your secret roll" not in ix.public()[0].text()
    assert not fake.violations


def private(body: Any) -> bool:
    return bool((body or {}).get("flags", 0) & EPHEMERAL)


def status_messages(fake: FakeDiscord) -> list[FakeMessage]:
    return [m for m in fake.channel_messages() if m.embeds and m.embeds[0].get("title") == "Game status"]


@pytest.mark.parametrize("how", HOW)
async def test_an_unconfirmed_status_post_and_edit_land_once(fake: FakeDiscord, bot: TableBot, how: str) -> None:
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    unconfirm(fake, how, "POST", CHANNEL_POST)  # the bot's first channel post: the status message
    await fake.run(peru, "game new", {"system": "table", "scenario": "free", "options": "sides=Peru,Chile"})
    await fake.wait_for(lambda: status_messages(fake), 5.0, "the status message")
    unconfirm(fake, how, "PATCH", r"^/channels/\d+/messages/\d+$")  # its next edit
    await fake.run(peru, "game join", {"seat": "peru"})
    await fake.wait_for(lambda: peru.mention in status_messages(fake)[0].text(), 5.0, "the status edited")
    await fake.run(chile, "game join", {"seat": "chile"})
    await fake.wait_for(lambda: chile.mention in status_messages(fake)[0].text(), 5.0, "the status edited again")
    assert len(status_messages(fake)) == 1 and len(unconfirmed(fake)) == 2
    assert not fake.violations


def greyed(message: FakeMessage) -> bool:
    ids = message.custom_ids()
    return bool(ids) and all((component(message, c) or {}).get("disabled") for c in ids)


@pytest.mark.parametrize("how", HOW)
async def test_an_unconfirmed_update_of_a_clicked_message_lands_once(fake: FakeDiscord, bot: TableBot, how: str) -> None:
    """A click on a seat of an earlier game is answered by greying that message out (an
    update-message callback), then privately told why (a follow-up)."""
    with race_registered():
        red, blue = fake.add_user("red"), fake.add_user("blue")
        old = (await fake.run(red, "game new", {"system": "e2e-race", "scenario": "lane"})).public()[0]
        await fake.run(red, "game end")
        await fake.wait_for(lambda: greyed(old), 5.0, "the ended game's seats greyed out")
        old.components = [  # as if that edit had been lost, so the click below can be made
            {**row, "components": [{**c, "disabled": False} for c in row["components"]]} for row in old.components
        ]
        await fake.run(red, "game new", {"system": "e2e-race", "scenario": "lane"})
        unconfirm(fake, how, "POST", CALLBACK)
        refused = await fake.click(blue, old, old.custom_ids()[1])
        await fake.wait_for(lambda: refused.followups, 5.0, "the out-of-date notice")
        await asyncio.sleep(0.5)  # time for anything more the bot would send
        assert refused.response_type == 7 and greyed(old) and len(unconfirmed(fake)) == 1
        assert [(m.ephemeral, m.content) for m in refused.messages()] == [(True, OUT_OF_DATE)]
        statuses = [r.status for r in sent(fake, "POST", rf"^/interactions/{refused.id}/")]
        assert statuses == ([200, 400] if how == "answer" else [200])
    assert not fake.violations


async def test_list_messages_answers_as_discord_does(fake: FakeDiscord, bot: TableBot) -> None:
    """The fake's List Messages: the ``limit`` messages nearest the ``after`` or ``before`` id, else the
    newest, always newest first; ephemeral messages are in nobody's history."""
    posted = [fake._channel_message(fake.general, {"content": str(i)}, []) for i in range(5)]
    ids = [json.loads(p.body)["id"] for p in posted]  # type: ignore[arg-type]
    fake._channel_message(fake.general, {"content": "private", "flags": EPHEMERAL}, [])

    def listed(query: dict[str, str]) -> list[str]:
        return [m["content"] for m in json.loads(fake._read_channel(fake.general, query).body)]  # type: ignore[arg-type]

    assert listed({"after": ids[0], "limit": "2"}) == ["2", "1"]
    assert listed({"before": ids[4], "limit": "2"}) == ["3", "2"]
    assert listed({"limit": "3"}) == ["4", "3", "2"]
    assert listed({}) == ["4", "3", "2", "1", "0"]
    assert fake._read_channel("42", {}).status == 404
