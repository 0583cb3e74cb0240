"""Buttons for short choices, on a tiny test system with two or three legal orders per turn."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.discord_app import TableBot
from tests.e2e.fake_discord import FakeDiscord, FakeMessage
from tests.e2e.race_game import registered

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(autouse=True)
def race_system() -> Iterator[None]:
    with registered():
        yield


def button(message: FakeMessage, choice: str) -> str:
    """The custom id of the button offering ``choice`` (ids end with it, after the game's stamp)."""
    found = [c for c in message.custom_ids() if c.endswith(f":{choice}")]
    assert len(found) == 1, message.custom_ids()
    return found[0]


def public_reply(messages: list[FakeMessage]) -> FakeMessage:
    assert len(messages) == 1, [m.text() for m in messages]
    return messages[0]


async def test_a_race_played_with_buttons_to_the_finish(fake: FakeDiscord, bot: TableBot) -> None:
    red, blue, carol = fake.add_user("red"), fake.add_user("blue"), fake.add_user("carol")
    created = public_reply((await fake.run(red, "game new", {"system": "e2e-race", "scenario": "lane"})).public())
    await fake.settled(await fake.click(red, created, button(created, "red")))
    await fake.settled(await fake.click(blue, created, button(created, "blue")))
    message = public_reply((await fake.run(red, "game start")).public())
    assert f"To act: {red.mention}" in message.content

    turns = 0
    while "Game over" not in message.content:
        mover, other = (red, blue) if turns % 2 == 0 else (blue, red)
        row_2 = button(message, "row 2")  # the next player's own choices
        assert row_2.startswith("wg:order:")
        wrong = await fake.settled(await fake.click(other, message, row_2))  # not their turn
        assert not wrong.public() and wrong.ephemeral()
        spectator = await fake.settled(await fake.click(carol, message, button(message, "row 1")))
        assert "for the player to act now" in spectator.text()
        pressed = await fake.settled(await fake.click(mover, message, row_2))
        message = public_reply(pressed.public())
        assert message.has_image()
        if "Game over" not in message.content:
            assert f"Next: {other.mention}" in message.content
        turns += 1
    assert "Winner: Red" in message.content and turns == 5
    assert not [c for c in message.custom_ids() if c.startswith("wg:order:")]  # nothing left to press
    assert not fake.violations
