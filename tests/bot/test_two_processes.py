"""Two bot processes on one database (a deploy overlap, or several processes on PostgreSQL): each is
a service with its own connection to the same SQLite file or PostgreSQL database. Racing /game new
or a channel's first /roll must never crash with an IntegrityError: the loser gets the message one
process gives, or its roll lands on the winner's stream. Reminder scans racing each other ping each
due game once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

import tests.bot.duel  # noqa: F401
from bot.service import TableService
from tests.bot.helpers import ALICE, BOB, errors, make_service, run


@pytest.fixture
async def pair(store_url: str) -> AsyncIterator[tuple[TableService, TableService]]:
    first = await make_service(store_url)
    second = await make_service(store_url, seed_start=1000)
    yield first, second
    await first.store.close()
    await second.store.close()


def stale_read(svc: TableService, method: str) -> None:
    """Make ``svc``'s next ``method`` read see nothing, as if it read just before the other process
    committed: the exact interleaving of a race, made deterministic."""
    real = getattr(svc.store, method)
    calls = 0

    async def once(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        return None if calls == 1 else await real(*args)

    setattr(svc.store, method, once)


NEW = {"system": "table", "scenario": "free", "options": "sides=Peru,Chile"}


async def test_the_loser_of_a_game_new_race_gets_the_one_process_message(pair: tuple[TableService, TableService]) -> None:
    first, second = pair
    assert not errors(await run(first, ALICE, "game new", **NEW))
    stale_read(second, "live_game")
    lost = errors(await run(second, BOB, "game new", **NEW))
    assert lost == ["This channel already has a game. Finish it with /game end, or use another channel."]
    assert await first.store.count_games() == 1


async def test_a_first_roll_race_lands_both_rolls_on_one_stream(pair: tuple[TableService, TableService]) -> None:
    first, second = pair
    assert not errors(await run(first, ALICE, "roll", dice="1d6"))
    stale_read(second, "tools")
    out = await run(second, BOB, "roll", dice="2d6")
    assert not errors(out) and "2d6" in out[0].text
    tools = await first.store.tools("c1")
    assert tools is not None and tools.version == 2  # both rolls, one stream
    assert len(await first.store.orders(tools.id)) == 2


@pytest.mark.slow
async def test_concurrent_races_in_many_channels_never_crash(pair: tuple[TableService, TableService]) -> None:
    first, second = pair
    channels = [f"race{i}" for i in range(12)]
    results = await asyncio.gather(*(
        coro for ch in channels for coro in (
            run(first, ALICE, "game new", ch, **NEW), run(second, BOB, "game new", ch, **NEW),
            run(first, ALICE, "roll", ch, dice="1d6"), run(second, BOB, "roll", ch, dice="1d6"),
        )
    ))
    for ch, (new_a, new_b, roll_a, roll_b) in zip(channels, [results[i:i + 4] for i in range(0, len(results), 4)], strict=True):
        assert len(errors(new_a) + errors(new_b)) == 1, ch  # exactly one game, the other told politely
        assert not errors(roll_a) and not errors(roll_b), ch
        tools = await first.store.tools(ch)
        assert tools is not None and len(await first.store.orders(tools.id)) == 2


async def test_racing_reminder_scans_ping_each_due_game_once(pair: tuple[TableService, TableService]) -> None:
    """Both processes scan at the same moment: every due game is pinged by exactly one of them (the
    scan used to read due games and mark them afterwards, so both read and pinged them all)."""
    first, second = pair
    channels = [f"due{i}" for i in range(10)]
    for ch in channels:
        assert not errors(await run(first, ALICE, "game new", ch, system="test-duel", scenario="race"))
        assert not errors(await run(first, ALICE, "game join", ch, seat="north"))
        assert not errors(await run(first, BOB, "game join", ch, seat="south"))
        assert not errors(await run(first, ALICE, "game start", ch))
    later = max(row.last_activity for row in [await first.store.live_game(ch) for ch in channels] if row) + 2 * 86400
    pings = await asyncio.gather(*(svc.due_reminders(later) for svc in (first, second, first, second)))
    assert sorted(out.channel or "" for scan in pings for out in scan) == sorted(channels)
