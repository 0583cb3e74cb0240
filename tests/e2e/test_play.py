"""A whole game played through the fake Discord, as players would."""

from __future__ import annotations

import pytest

from bot.discord_app import TableBot
from tests.e2e.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e


async def test_free_table_game_to_the_end(fake: FakeDiscord, bot: TableBot) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    new = await fake.run(alice, "game new", {"system": "table", "scenario": "free", "options": "sides=Peru,Chile"})
    print(new.text(), new.public())
    assert not fake.violations
