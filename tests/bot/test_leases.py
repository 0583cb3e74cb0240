"""ShardLeases on a real store with a clock the test moves: all-or-nothing acquisition, the standby,
the count check, fencing when the heartbeat stops, and the pruning of old claims."""

from __future__ import annotations

import asyncio

import pytest

from bot.database import open_store
from bot.leases import CLAIM_KEEP_SECONDS, LeaseRefused, ShardLeases, lease_seconds


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_leases_are_taken_whole_kept_fenced_and_handed_over(store_url: str) -> None:
    store, clock = await open_store(store_url), Clock()
    try:
        first = ShardLeases(store, [1, 0], 4, "first", seconds=30, clock=clock)
        second = ShardLeases(store, [0, 1, 2], 4, "second", seconds=30, clock=clock)
        assert await first.try_acquire() == [] and first.serving()
        in_the_way = await second.try_acquire()
        assert [(lease.shard, lease.owner) for lease in in_the_way] == [(0, "first"), (1, "first")]
        assert not second.serving() and {lease.shard for lease in await store.leases()} == {0, 1}  # shard 2 not kept

        assert await store.claim("ix:old", "first", clock.now - CLAIM_KEEP_SECONDS - 1)
        clock.now += 10
        assert await first.renew() and first.serving()
        assert await store.claim_outcome("ix:old") is None  # pruned by the heartbeat

        clock.now += 29  # 29 s since the last heartbeat: still first's
        assert first.serving() and await second.try_acquire() != []
        clock.now += 2  # past the lease: first stops acting at once, before any store call
        assert not first.serving()
        assert await second.try_acquire() == [] and second.serving()
        assert not await first.renew()
        assert first.lost is not None and "lost the lease of shard 0 of 4 to second" in first.lost

        await second.release()
        assert await store.leases() == []
    finally:
        await store.close()


async def test_a_standby_waits_then_serves_and_another_count_is_refused(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        holder = ShardLeases(store, [0], 1, "holder", seconds=0.3)
        assert await holder.try_acquire() == []
        other_count = ShardLeases(store, [0, 1], 2, "other", seconds=0.3)
        with pytest.raises(LeaseRefused, match=r"WARGAME_SHARD_COUNT=2, but process holder serves shard 0 of 1"):
            await other_count.try_acquire()
        standby = ShardLeases(store, [0], 1, "standby", seconds=0.3)
        waiting = asyncio.create_task(standby.acquire())
        await asyncio.sleep(0.25)
        assert not waiting.done()  # the holder's lease is live
        await holder.release()  # a clean stop hands it over at the next look
        await asyncio.wait_for(waiting, 2)
        assert standby.serving() and [lease.owner for lease in await store.leases()] == ["standby"]
    finally:
        await store.close()


def test_the_lease_time_setting() -> None:
    assert lease_seconds({}) == 30.0 and lease_seconds({"WARGAME_LEASE_SECONDS": "2.5"}) == 2.5
    for bad in ("soon", "0", "-3"):
        with pytest.raises(LeaseRefused, match="WARGAME_LEASE_SECONDS"):
            lease_seconds({"WARGAME_LEASE_SECONDS": bad})
