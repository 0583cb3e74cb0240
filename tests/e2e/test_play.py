"""Whole games played through the fake Discord as players would: slash commands, buttons, restarts."""

from __future__ import annotations

import json
import time

import pytest

from bot.discord_app import TableBot
from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import FakeDiscord, FakeInteraction, FakeMessage, FakeUser

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def status_messages(fake: FakeDiscord) -> list[FakeMessage]:
    return [m for m in fake.channel_messages() if any(e.get("title") == "Game status" for e in m.embeds)]


async def wait_status(fake: FakeDiscord, needle: str) -> FakeMessage:
    """The channel's status message once it says ``needle``."""

    def found() -> FakeMessage | None:
        return next((m for m in status_messages(fake) if needle in m.text()), None)

    message: FakeMessage = await fake.wait_for(found, 5.0, f"a status message saying {needle!r}")
    return message


def only_public(ix: FakeInteraction) -> FakeMessage:
    public = ix.public()
    assert len(public) == 1, [m.text() for m in ix.messages()]
    return public[0]


async def seated_table_game(fake: FakeDiscord, peru: FakeUser, chile: FakeUser) -> None:
    await fake.run(peru, "game new", {"system": "table", "scenario": "free", "options": "sides=Peru,Chile"})
    await fake.run(peru, "game join", {"seat": "peru"})
    await fake.run(chile, "game join", {"seat": "chile"})
    start = await fake.run(peru, "game start")
    assert only_public(start).has_image()


async def test_free_table_game_to_the_end(fake: FakeDiscord, bot: TableBot) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")

    new = await fake.run(alice, "game new", {"system": "table", "scenario": "free", "options": "sides=Peru,Chile"})
    created = only_public(new)
    assert "Free table" in created.content and alice.mention in created.content
    game = await bot.service.store.live_game(fake.general)
    assert game is not None
    assert created.custom_ids() == [f"wg:join:{game.id}:{seat}" for seat in ("peru", "chile", "umpire")]

    joined = await fake.settled(await fake.click(bob, created, f"wg:join:{game.id}:peru"))  # the button, not the command
    assert f"{bob.mention} takes the seat **Peru**" in only_public(joined).content
    await fake.run(alice, "game join", {"seat": "chile"})
    start = only_public(await fake.run(bob, "game start"))
    assert "The game begins!" in start.content and start.has_image()
    status = await wait_status(fake, "running")
    await fake.wait_for(lambda: status.pinned, 5.0, "the status message to be pinned")

    moves = [
        (bob, "place Huascar d1 N", "Peru places Huascar on d1."),
        (alice, "place Esmeralda d8 S", "Chile places Esmeralda on d8."),
        (bob, "move Huascar d4 NE", "Peru moves Huascar to d4 heading NE."),
    ]
    for who, order, said in moves:
        message = only_public(await fake.run(who, "order", {"text": order}))
        assert said in message.content and message.has_image()

    refused = await fake.run(carol, "order", {"text": "move Huascar d5"})
    assert not refused.public() and "hold no seat" in refused.ephemeral()[0].content

    for path in ("game board", "game log", "game status"):  # spectators may look
        looked = await fake.run(carol, path)
        assert looked.ephemeral() and not looked.public()
    assert (await fake.run(carol, "game board")).ephemeral()[0].has_image()
    assert "move Huascar d4 NE" in (await fake.run(carol, "game log")).text()

    end = only_public(await fake.run(alice, "order", {"text": "concede"}))
    assert "**Game over.** Winner: Peru" in end.content and end.has_image()
    await wait_status(fake, "over")
    assert len(status_messages(fake)) == 1  # edited in place, not reposted

    export = await fake.run(carol, "game export")
    exported = json.loads(export.ephemeral()[0].attachments[0].data)
    assert [o["text"] for o in exported["orders"]][-1] == "concede" and "seed" in exported
    verified = only_public(await fake.run(carol, "game verify"))
    assert "**Verified**" in verified.content

    assert all(ix.latency is not None and ix.latency < 3 for ix in fake.interactions.values())
    assert not fake.violations


async def test_turn_based_game_pings_whoever_acts_next(fake: FakeDiscord, bot: TableBot) -> None:
    """Ironclad draughts: each activation posts what happened, the board and a ping for the next
    player when the turn passes to them (not when the same player's next ship activates)."""
    austria, italy = fake.add_user("tegetthoff"), fake.add_user("persano")
    await ironclad_duel(fake, austria, italy)
    players = {austria.id: austria, italy.id: italy}
    for _ in range(6):
        to_act = [players[uid] for uid in (await bot.service.channel_state(fake.general))[1]]
        assert len(to_act) == 1
        mover = to_act[0]
        choices = await fake.autocomplete(mover, "order", {"text": ""}, "text")
        assert 0 < len(choices) <= 25
        message = only_public(await fake.run(mover, "order", {"text": choices[0]["value"]}))
        assert message.has_image()
        state, next_ids = await bot.service.channel_state(fake.general)
        if state != "running":
            break
        if next_ids == [mover.id]:  # the same player's next ship: they were pinged for this turn already
            assert "<@" not in message.content
        else:
            assert all(f"<@{uid}>" in message.content for uid in next_ids)
    ended = only_public(await fake.run(fake.owner, "game end"))  # Manage Server may end a stuck game
    assert "ended the game" in ended.content
    assert not fake.violations


async def test_restart_in_the_middle_of_a_game_resumes_it(fake: FakeDiscord, runner: BotRunner) -> None:
    bot = await runner.start()
    peru, chile = fake.add_user("peru-player"), fake.add_user("chile-player")
    await seated_table_game(fake, peru, chile)
    await fake.run(peru, "order", {"text": "place Huascar d1"})
    status_before = await wait_status(fake, "1 pieces")
    await runner.stop(bot)

    bot = await runner.start()
    message = only_public(await fake.run(chile, "order", {"text": "place Esmeralda d8"}))
    assert "Chile places Esmeralda on d8." in message.content and message.has_image()
    log = (await fake.run(peru, "game log")).text()
    assert "place Huascar d1" in log and "place Esmeralda d8" in log
    status_after = await wait_status(fake, "2 pieces")
    assert status_after.id == status_before.id  # the same status message, edited after the restart

    assert not fake.violations


def reminders(fake: FakeDiscord) -> list[FakeMessage]:
    return [m for m in fake.channel_messages() if m.content.startswith("Reminder:")]


async def ironclad_duel(fake: FakeDiscord, first: FakeUser, second: FakeUser) -> None:
    pytest.importorskip("games.ironclad_draughts")
    await fake.run(first, "game new", {"system": "ironclad-draughts", "scenario": "duel"})
    seats = [c["value"] for c in await fake.autocomplete(first, "game join", {"seat": ""}, "seat")]
    await fake.run(first, "game join", {"seat": seats[0]})
    await fake.run(second, "game join", {"seat": seats[1]})
    assert only_public(await fake.run(first, "game start")).has_image()


async def test_reminders_survive_a_restart(fake: FakeDiscord, runner: BotRunner) -> None:
    bot = await runner.start()
    first, second = fake.add_user("first"), fake.add_user("second")
    await ironclad_duel(fake, first, second)
    refused = await fake.run(second, "game remind", {"after": "1", "every": "2"})
    assert not refused.public() and "Manage Server" in refused.text()  # players may not change them
    said = only_public(await fake.run(fake.owner, "game remind", {"after": "1", "every": "2"}))
    assert "after 1 h" in said.content
    await runner.stop(bot)

    bot = await runner.start()
    now = time.time()  # time is passed in rather than waited for
    await bot.send_reminders(now + 1800)
    await bot.send_reminders(now + 3700)
    await fake.wait_for(lambda: len(reminders(fake)) == 1, 5.0, "the first reminder")
    (_, to_act) = await bot.service.channel_state(fake.general)
    assert f"<@{to_act[0]}>" in reminders(fake)[0].content
    await bot.send_reminders(now + 3700 + 3600)  # not yet: every 2 h
    await bot.send_reminders(now + 3700 + 7300)
    await fake.wait_for(lambda: len(reminders(fake)) == 2, 5.0, "the repeated reminder")
    assert not fake.violations


async def test_old_buttons_still_work_after_a_restart(fake: FakeDiscord, runner: BotRunner) -> None:
    bot = await runner.start()
    alice = fake.add_user("alice")
    created = only_public(await fake.run(alice, "game new", {"system": "table", "scenario": "free"}))
    await runner.stop(bot)
    await runner.start()
    joined = await fake.settled(await fake.click(alice, created, created.custom_ids()[0]))
    assert "takes the seat **Red**" in only_public(joined).content
    assert not fake.violations


async def test_a_gateway_reconnect_is_resumed_and_play_goes_on(fake: FakeDiscord, bot: TableBot) -> None:
    peru, chile = fake.add_user("peru-player"), fake.add_user("chile-player")
    await seated_table_game(fake, peru, chile)
    await fake.ask_to_reconnect()
    await fake.wait_for(lambda: fake.resumed == 1 and fake.sockets, 10.0, "the bot to resume its session")
    message = only_public(await fake.run(chile, "order", {"text": "place Esmeralda d8"}))
    assert "Chile places Esmeralda on d8." in message.content
    assert not fake.violations
