"""Claims and shard leases in the store (both backends): one holder per interaction id, status post
and shard, decided by one atomic statement even when several processes ask at once."""

from __future__ import annotations

import asyncio

from bot.database import open_store
from bot.storage import LiveStamp


async def test_one_claim_per_key_across_connections(store_url: str) -> None:
    first, second = await open_store(store_url), await open_store(store_url)
    try:
        won = await asyncio.gather(*(store.claim(f"ix{i}", name, 100.0)
                                     for i in range(20) for store, name in ((first, "a"), (second, "b"))))
        assert [won[i] + won[i + 1] for i in range(0, 40, 2)] == [1] * 20  # exactly one winner per key
        assert not await first.claim("ix0", "a", 101.0)  # not even its own holder claims it twice
        await first.set_outcome("ix0", "a" if won[0] else "b", "answered")
        assert await second.claim_outcome("ix0") == ("a" if won[0] else "b", "answered")
        assert await second.claim_outcome("never") is None
    finally:
        await first.close()
        await second.close()


async def test_a_stale_claim_is_taken_over_once_and_old_claims_are_pruned(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        assert await store.claim("status:1:", "dead", 10.0)
        assert not await store.claim("status:1:", "b", 50.0, takeover_before=5.0)  # still fresh
        assert await store.claim("status:1:", "b", 50.0, takeover_before=20.0)
        assert not await store.claim("status:1:", "c", 51.0, takeover_before=20.0)  # b's is fresh now
        assert await store.claim_outcome("status:1:") == ("b", "")
        assert await store.claim("old", "a", 1.0)
        assert await store.prune_claims(before=20.0) == 1
        assert await store.claim_outcome("old") is None and await store.claim_outcome("status:1:") is not None
    finally:
        await store.close()


async def test_a_shard_lease_has_one_live_holder(store_url: str) -> None:
    first, second = await open_store(store_url), await open_store(store_url)
    try:
        taken = await asyncio.gather(first.take_lease(0, 2, "a", 100.0, expired_before=70.0),
                                     second.take_lease(0, 2, "b", 100.0, expired_before=70.0))
        assert sorted(taken) == [False, True]
        holder, other = ("a", "b") if taken[0] else ("b", "a")
        assert await first.take_lease(0, 2, holder, 110.0, expired_before=80.0)  # its own: renewed
        assert not await first.take_lease(0, 2, other, 120.0, expired_before=90.0)  # live
        assert await first.renew_lease(0, holder, 125.0)
        assert await second.take_lease(0, 2, other, 200.0, expired_before=170.0)  # expired: taken over
        assert not await first.renew_lease(0, holder, 201.0)  # the old holder learns it lost it
        [lease] = await first.leases()
        assert (lease.shard, lease.count, lease.owner, lease.heartbeat) == (0, 2, other, 200.0)
        await first.release_lease(0, holder)  # not its lease any more: nothing happens
        assert len(await first.leases()) == 1
        await first.release_lease(0, other)
        assert await first.leases() == []
    finally:
        await first.close()
        await second.close()


async def test_a_command_claim_names_an_unanswered_identical_one_of_a_gone_process(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        async def claim(key: str, owner: str, now: float, fingerprint: str = "f") -> tuple[bool, str | None]:
            claimed, lost, seen = await store.claim_command(key, owner, now, fingerprint, retry_since=now - 900,
                                                           live_since=now - 30)
            assert seen is None  # no channel named: nothing seen
            return claimed, lost

        assert await claim("ix1", "dead", 100.0) == (True, None)
        assert await claim("ix1", "new", 101.0) == (False, None)  # the same interaction: not ours
        assert await claim("ix2", "new", 110.0) == (True, "ix1")  # "dead" holds no lease: ix1 was lost
        assert await claim("ix3", "new", 111.0, "g") == (True, None)  # another command
        assert await store.mark_retried("ix1") and not await store.mark_retried("ix1")  # answered once
        assert await claim("ix5", "other", 112.0) == (True, "ix2")  # ix1 is answered now; ix2 is "new"'s
        await store.set_outcome("ix2", "new", "answered")
        assert await store.take_lease(0, 1, "new", 113.0, expired_before=83.0)
        assert await claim("ix6", "other", 113.0) == (True, None)  # ix5 is its own, "new" is alive
        assert await claim("ix7", "late", 2000.0) == (True, None)  # ix5 is past the retry window
    finally:
        await store.close()


async def test_a_claim_sees_its_channels_live_game_in_the_same_statement(store_url: str) -> None:
    """What a process may use unread (bot/rooms/context.py ``Table.seen``): the live game's id,
    version and votes to end it, as the claim's own statement found them; nothing when it is not
    the claimer, or when the channel has no live game."""
    store = await open_store(store_url)
    try:
        assert await store.claim_seeing("ix:a", "p", 1.0, "chan") == (True, None)  # no game yet
        game = await store.create_game(channel="chan", system="ironclad-draughts", scenario="duel", options={},
                                       seed=b"s", commitment="c", status="setup", snapshot={}, counter=0, creator="u")
        assert game.votes == 0
        assert await store.claim_seeing("ix:b", "p", 2.0, "chan") == (True, LiveStamp(game.id, game.version, 0))
        assert await store.claim_seeing("ix:b", "q", 2.0, "chan") == (False, None)  # not the claimer: told nothing
        moved = await store.update_game(game, status="running")
        await store.add_end_vote(game.id, "u", 7)
        claimed, lost, seen = await store.claim_command("ix:c", "p", 3.0, "f", retry_since=0.0, live_since=0.0,
                                                        channel="chan")
        assert (claimed, lost, seen) == (True, None, LiveStamp(game.id, moved.version, 1))
        assert (await store.live_game("chan") or moved).votes == 1  # the row counts them too
        assert await store.claim_seeing("ix:d", "p", 4.0, "elsewhere") == (True, None)
        await store.set_outcomes([("ix:b", "p", "answered"), ("ix:c", "p", "failed"), ("ix:d", "other", "x")])
        assert await store.claim_outcome("ix:b") == ("p", "answered")
        assert await store.claim_outcome("ix:c") == ("p", "failed")
        assert await store.claim_outcome("ix:d") == ("p", "")  # only the claimer's outcome is kept
    finally:
        await store.close()
