"""Reminder claims limited to some channels (a sharded process claims only its own guilds' games),
on both backends."""

from __future__ import annotations

import asyncio

import pytest

from bot.database import open_store
from bot.storage import Storage

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast


async def _due_game(store: Storage, channel: str) -> int:
    game = await store.create_game(channel=channel, system="duel", scenario="s", options={}, seed=b"x" * 32,
                                   commitment="c", snapshot={}, counter=0, status="running", creator="1")
    await store.touch(game.id, last_activity=1000.0, remind_after=3600.0, remind_every=7200.0)
    return int(game.id)


async def test_a_claim_takes_only_the_channels_it_is_given(store_url: str) -> None:
    first, second = await open_store(store_url), await open_store(store_url)
    ids = {channel: await _due_game(first, channel) for channel in ("a1", "a2", "b1", "b2")}
    # The channels of "another shard" are left due, not marked: their own process claims them.
    mine = await first.claim_due_games(5000.0, channels={"a1", "a2", "elsewhere"})
    assert sorted(g.id for g in mine) == sorted([ids["a1"], ids["a2"]])
    assert await first.claim_due_games(5000.0, channels=set()) == []
    theirs = await asyncio.gather(*(second.claim_due_games(5000.0, channels=["b1", "b2"]) for _ in range(3)))
    assert sorted(g.channel for claim in theirs for g in claim) == ["b1", "b2"]  # once each, in all
    assert await first.claim_due_games(5000.0) == []  # every game marked exactly once
    await first.close()
    await second.close()
