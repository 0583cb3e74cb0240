"""The reminder scan reads only the games that are due, with one indexed statement on either
backend: it used to load every running game in full under the store lock (3.6 s at 10k running
games, 10-28 s at 50k). The statement claims the due games (marks them reminded) as it reads them,
so two processes never remind the same game (tests/bot/test_two_processes.py)."""

from __future__ import annotations

from typing import Any

import pytest

import tests.bot.duel  # noqa: F401
from bot import store as sqlite_store
from bot import store_pg
from bot.database import open_store
from bot.service import TableService
from bot.storage import Backend
from tests.bot.helpers import ALICE, BOB, ok

FILLERS = 300  # running games whose reminders are not due


async def _start_duel(svc: TableService, channel: str) -> None:
    await ok(svc, ALICE, "game new", channel, system="test-duel", scenario="race")
    await ok(svc, ALICE, "game join", channel, seat="north")
    await ok(svc, BOB, "game join", channel, seat="south")
    await ok(svc, ALICE, "game start", channel)


async def _add_fillers(store: Backend, now: float) -> None:
    """Running games that acted a moment ago (their snapshots are not even decodable, so a scan that
    touched them would have to read rows it has no business reading)."""
    for i in range(FILLERS):
        game = await store.create_game(channel=f"quiet{i}", system="test-duel", scenario="race", options={},
                                       seed=bytes(32), commitment="c", status="running", snapshot={}, counter=0,
                                       creator="u")
        await store.touch(game.id, last_activity=now)


@pytest.mark.slow
async def test_the_scan_reads_only_due_games(store_url: str) -> None:
    clock = [0.0]
    store: Any = await open_store(store_url)
    svc = TableService(store, mention=lambda u: f"@{u}", clock=lambda: clock[0])
    for channel in ("due1", "due2"):
        await _start_duel(svc, channel)
    due_rows = [await store.live_game(ch) for ch in ("due1", "due2")]
    latest = max(r.last_activity for r in due_rows if r is not None)
    now = latest + 2 * 86400  # the default reminder (after 24 h) is due for both duels
    await _add_fillers(store, now - 60)

    fetched: list[int] = []
    real_fetch = store._fetch

    async def counting_fetch(sql: str, params: tuple[Any, ...] = (), *, write: bool = False) -> list[Any]:
        rows = await real_fetch(sql, params, write=write)
        fetched.append(len(rows))
        return rows

    store._fetch = counting_fetch
    reminders = await svc.due_reminders(now)
    assert sorted(r.channel for r in reminders) == ["due1", "due2"]
    assert fetched == [2], "one statement, claiming and returning the two due games and none of the quiet ones"
    store._fetch = real_fetch
    assert await svc.due_reminders(now + 60) == []  # each was marked; nothing is read again for a day
    await store.close()


async def test_the_claim_uses_its_index_and_scans_no_table_sqlite(tmp_path: Any) -> None:
    store: Any = await open_store(tmp_path / "plan.db")
    plan = await store._fetch("EXPLAIN QUERY PLAN " + sqlite_store.CLAIM_DUE, (0.0, 0.0, 500))
    details = " | ".join(str(row[3]) for row in plan)
    assert "games_remind_due" in details and "SCAN games" not in details.replace("USING INDEX", ""), details
    await store.close()


@pytest.mark.slow
async def test_the_claim_uses_its_index_and_scans_no_table_postgresql(pg_url: str) -> None:
    """PostgreSQL picks plans by statistics, so this asks on a table big enough for the choice to
    matter (20,000 running games, 5 due), analysed, and with sequential scans allowed."""
    store: Any = await open_store(pg_url)
    await store._fetch(
        "INSERT INTO games (channel, system, scenario, options, seed, commitment, status, snapshot, created,"
        " updated, last_activity) SELECT 'c' || n, 'test-duel', 'race', '{}', '\\x00', 'c', 'running', '{}', 0, 0,"
        " CASE WHEN n <= 5 THEN 0 ELSE 1e9 END FROM generate_series(1, 20000) AS n RETURNING id", write=True)
    await store._fetch("ANALYZE games", write=True)
    plan = await store._fetch("EXPLAIN " + store_pg.CLAIM_DUE, (1e6, 1e6, 500))
    details = " | ".join(str(row[0]) for row in plan)
    assert "games_remind_due" in details and "Seq Scan" not in details, details
    assert len(await store.claim_due_games(1e6)) == 5
    await store.close()


async def test_the_due_time_follows_the_reminder_columns_on_every_write(store_url: str) -> None:
    """remind_due is computed by the database, so an order (new activity) or a reminder moves it at once."""
    store = await open_store(store_url)
    game = await store.create_game(channel="c", system="test-duel", scenario="race", options={}, seed=bytes(32),
                                   commitment="c", status="running", snapshot={}, counter=0, creator="u")
    await store.touch(game.id, last_activity=1000.0, remind_after=3600.0, remind_every=7200.0)
    assert await store.claim_due_games(4599.0) == []
    assert [g.id for g in await store.claim_due_games(4600.0)] == [game.id]  # reminded: next one `every` later
    assert await store.claim_due_games(11_799.0) == []
    await store.touch(game.id, last_activity=11_000.0)  # an order: idle time counts from it
    assert await store.claim_due_games(14_599.0) == []
    assert [g.id for g in await store.claim_due_games(14_600.0)] == [game.id]
    await store.touch(game.id, status="over")
    assert await store.claim_due_games(1e12) == []  # only running games are reminded
    await store.close()
