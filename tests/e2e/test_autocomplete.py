"""Autocomplete through Discord for the options added in issue 13 item 6: the generated slash
commands ask the service, with the options typed so far, and the asker sees only their own."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e


@pytest.mark.slow
async def test_play_card_and_reveal_roll_complete_from_the_askers_own_hand_and_rolls(
    fake: FakeDiscord, runner: BotRunner
) -> None:
    await runner.start()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    for user, path, options in [
        (alice, "deck new", {"name": "cards", "from": "standard52"}),
        (alice, "deck deal", {"name": "cards", "count": 2, "to": f"<@{alice.id}>"}),
        (alice, "roll", {"dice": "2d6", "secret": True, "purpose": "ambush"}),
    ]:
        await fake.settled(await fake.slash(user, path, options))
    hand = await fake.autocomplete(alice, "play", {"card": ""}, "card")
    assert len(hand) == 2
    assert await fake.autocomplete(bob, "play", {"card": ""}, "card") == []
    assert [c["name"] for c in await fake.autocomplete(alice, "reveal", {"roll": ""}, "roll")] == ["#1 ambush"]
    assert await fake.autocomplete(bob, "reveal", {"roll": ""}, "roll") == []
    assert [c["value"] for c in await fake.autocomplete(bob, "deck draw", {"name": "c"}, "name")] == ["cards"]


async def test_assign_seat_and_board_zoom_complete(fake: FakeDiscord, runner: BotRunner) -> None:
    await runner.start()
    umpire, peru = fake.add_user("umpire"), fake.add_user("peru")
    await fake.settled(await fake.slash(umpire, "game new", {"system": "hex-ironclads", "scenario": "hampton-roads"}))
    seats = await fake.autocomplete(umpire, "game assign", {"seat": ""}, "seat")
    assert seats and all("empty" in c["name"] for c in seats)
    zoom = await fake.autocomplete(peru, "game board", {"zoom": ""}, "zoom")
    assert zoom and all(c["value"] in c["name"] for c in zoom)
