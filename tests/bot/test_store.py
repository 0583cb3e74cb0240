"""Storage on both backends (a real SQLite file and a real PostgreSQL server, see tests/conftest.py):
schema, atomic orders, stale versions, one live game per channel, resuming in a new process,
reminders claimed once across connections."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

import tests.bot.duel  # noqa: F401
from bot import store as sqlite_store
from bot import store_pg
from bot.database import open_store
from bot.storage import ChannelTaken, StaleVersion, StoreUnavailable
from tests.bot.helpers import ALICE, BOB, CAROL, make_service, ok

ROOT = Path(__file__).resolve().parents[2]


async def test_schema_is_migrated_once(store_url: str, backend: str) -> None:
    migrations = sqlite_store.MIGRATIONS if backend == "sqlite" else store_pg.MIGRATIONS
    first = await open_store(store_url)
    assert await first.schema_version() == len(migrations)
    await first.close()
    again = await open_store(store_url)  # reopening does not migrate twice
    assert await again.schema_version() == len(migrations)
    await again.close()


async def test_both_backends_have_the_same_migrations() -> None:
    """Numbered alike, so "schema 3" means the same tables whichever backend a community runs."""
    assert len(sqlite_store.MIGRATIONS) == len(store_pg.MIGRATIONS)


async def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    opened = await open_store(tmp_path / "s.db")
    await opened.close()
    async with aiosqlite.connect(tmp_path / "s.db") as db, db.execute("PRAGMA journal_mode") as cur:
        row = await cur.fetchone()
    assert row is not None and row[0] == "wal"


async def test_stale_version_is_rejected_and_not_applied(store_url: str) -> None:
    store = await open_store(store_url)
    game = await store.create_game(channel="c", system="test-duel", scenario="race", options={}, seed=b"x" * 32,
                                   commitment="c", status="running", snapshot={"a": 1}, counter=0, creator="u")
    fresh = await store.save_order(game, seat="north", user_id="u", text="roll", events=[], snapshot={"a": 2},
                                   counter=1, status="running")
    with pytest.raises(StaleVersion):
        await store.save_order(game, seat="north", user_id="u", text="roll", events=[], snapshot={"a": 3},
                               counter=2, status="running")
    orders = await store.orders(game.id)
    assert [o.text for o in orders] == ["roll"]
    again = await store.game_by_id(game.id)
    assert again is not None and again.snapshot == {"a": 2} and again.version == fresh.version
    await store.close()


async def test_one_live_game_per_channel_is_enforced_by_the_schema(store_url: str) -> None:
    store = await open_store(store_url)
    kwargs = dict(channel="c", system="test-duel", scenario="race", options={}, seed=b"x" * 32, commitment="c",
                  status="setup", snapshot={}, counter=0, creator="u")
    await store.create_game(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(ChannelTaken):  # the unique index refuses it; the store names the cause
        await store.create_game(**kwargs)  # type: ignore[arg-type]
    await store.close()


@pytest.mark.slow
async def test_resume_in_a_new_process(store_url: str) -> None:
    db = store_url
    svc = await make_service(db)
    await ok(svc, ALICE, "game new", system="test-duel", scenario="race")
    await ok(svc, ALICE, "game join", seat="north")
    await ok(svc, BOB, "game join", seat="south")
    await ok(svc, CAROL, "game join", seat="umpire")
    await ok(svc, ALICE, "game start")
    await ok(svc, ALICE, "order", text="roll")
    await ok(svc, BOB, "order", text="hide")
    row = await svc.store.live_game("c1")
    assert row is not None
    snapshot_before = row.snapshot
    await svc.store.close()

    script = textwrap.dedent(f"""
        import asyncio, json
        import tests.bot.duel
        from tests.bot.helpers import ALICE, make_service
        async def main():
            svc = await make_service({str(db)!r}, seed_start=100)
            row = await svc.store.live_game("c1")
            out = await svc.handle("c1", ALICE, "order", {{"text": "roll"}})
            row2 = await svc.store.live_game("c1")
            print(json.dumps({{"before": row.snapshot, "kinds": [o.kind for o in out], "turn": row2.snapshot["turn"]}}))
            await svc.store.close()
        asyncio.run(main())
    """)
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["before"] == snapshot_before
    assert "error" not in data["kinds"] and data["turn"] == 3


@pytest.mark.slow
async def test_transactions_of_many_channels_never_interleave(store_url: str) -> None:
    """Stale writes (rolled back) racing good ones in other channels leave every game consistent."""
    import asyncio

    store = await open_store(store_url)
    games = [
        await store.create_game(channel=f"c{i}", system="test-duel", scenario="race", options={}, seed=b"x" * 32,
                                commitment="c", status="running", snapshot={"n": 0}, counter=0, creator="u")
        for i in range(8)
    ]

    old = list(games)  # rows at version 0: once each game has moved on, writes with them are stale
    games = [await store.save_order(g, seat="s", user_id="u", text="o0", events=[], snapshot={"n": 0}, counter=0,
                                    status="running") for g in games]
    for n in range(1, 11):
        good = [store.save_order(g, seat="s", user_id="u", text=f"o{n}", events=[], snapshot={"n": n}, counter=n,
                                 status="running") for g in games]
        stale = [store.save_order(g, seat="s", user_id="u", text="lost", events=[], snapshot={"n": -1}, counter=-1,
                                  status="running") for g in old]
        mixed = [op for pair in zip(stale, good, strict=True) for op in pair]
        results = await asyncio.gather(*mixed, return_exceptions=True)
        assert all(isinstance(r, StaleVersion) for r in results[0::2])
        games = [r for r in results[1::2] if not isinstance(r, BaseException)]
        assert len(games) == 8, [r for r in results[1::2] if isinstance(r, BaseException)]
    for game in games:
        fresh = await store.game_by_id(game.id)
        assert fresh is not None and fresh.snapshot == {"n": 10} and fresh.counter == 10
        assert [o.text for o in await store.orders(game.id)] == [f"o{n}" for n in range(11)]
    await store.close()


async def test_rows_returned_by_writes_equal_the_stored_rows(store_url: str) -> None:
    store = await open_store(store_url)
    game = await store.create_game(channel="c", system="test-duel", scenario="race", options={"a": "1"},
                                   seed=b"x" * 32, commitment="c", status="setup", snapshot={"n": 0}, counter=0,
                                   creator="u")
    game = await store.update_game(game, seats={"north": {"user": "u", "name": "U"}}, status="running")
    assert game == await store.game_by_id(game.id)
    game = await store.save_order(game, seat="north", user_id="u", text="roll", events=[], snapshot={"n": (1, 2)},
                                  counter=3, status="running")
    assert game == await store.game_by_id(game.id) and game.snapshot == {"n": [1, 2]}
    game = await store.mark_undone(game, 1, snapshot={"n": 0}, counter=0)
    assert game == await store.game_by_id(game.id)
    await store.close()


async def _due_game(store: Any, channel: str) -> int:
    game = await store.create_game(channel=channel, system="test-duel", scenario="race", options={}, seed=bytes(32),
                                   commitment="c", status="running", snapshot={}, counter=0, creator="u")
    await store.touch(game.id, last_activity=1000.0, remind_after=3600.0, remind_every=7200.0)
    return int(game.id)


async def test_a_due_game_is_claimed_by_one_connection_only(store_url: str) -> None:
    """Two processes scanning at once: the first claim marks the game, the second gets nothing
    (reading the due games and marking them afterwards gave both of them the game)."""
    first, second = await open_store(store_url), await open_store(store_url)
    game_id = await _due_game(first, "c")
    claimed = await first.claim_due_games(5000.0)
    assert [g.id for g in claimed] == [game_id] and claimed[0].last_reminded == 5000.0
    assert await second.claim_due_games(5000.0) == []
    assert await first.claim_due_games(5000.0 + 7199) == []  # marked: next one `every` later
    assert [g.id for g in await second.claim_due_games(5000.0 + 7200)] == [game_id]
    await first.close()
    await second.close()


@pytest.mark.slow
async def test_concurrent_claims_share_the_due_games_without_overlap(store_url: str) -> None:
    import asyncio

    stores = [await open_store(store_url) for _ in range(3)]
    ids = {await _due_game(stores[0], f"c{i}") for i in range(30)}
    claims = await asyncio.gather(*(s.claim_due_games(5000.0, limit=12) for s in stores for _ in range(2)))
    claimed = [g.id for claim in claims for g in claim]
    assert sorted(claimed) == sorted(ids)  # every due game once, none twice
    for s in stores:
        await s.close()


async def test_postgres_claim_skips_rows_another_transaction_holds(backend: str, store_url: str) -> None:
    """FOR UPDATE SKIP LOCKED: a game another process is claiming right now is neither waited for
    nor claimed again; it is claimable once that transaction ends."""
    if backend != "postgresql":
        pytest.skip("SKIP LOCKED is PostgreSQL's; SQLite serialises writers on the file")
    import asyncio

    import asyncpg

    store = await open_store(store_url)
    held, free = await _due_game(store, "held"), await _due_game(store, "free")
    con = await asyncpg.connect(store_url)
    tx = con.transaction()
    await tx.start()
    await con.execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", held)
    claimed = await asyncio.wait_for(store.claim_due_games(5000.0), timeout=60)  # a hang guard, not a timing
    assert [g.id for g in claimed] == [free]
    await tx.rollback()
    assert [g.id for g in await store.claim_due_games(5000.0)] == [held]
    await con.close()
    await store.close()


async def test_only_game_columns_can_be_written(store_url: str) -> None:
    store = await open_store(store_url)
    game_id = await _due_game(store, "c")
    with pytest.raises(ValueError, match="writable"):
        await store.touch(game_id, **{"id = 0, status": "x"})
    await store.close()


@pytest.mark.parametrize("url, says", [
    ("mysql://db/x", "unknown database URL scheme 'mysql'"),
    ("sqlite://host/x.db", "names a host"),
    ("postgresql://nobody@/nodb?host=/nonexistent-socket-dir", "cannot connect to PostgreSQL at postgresql://"),
    ("postgresql://u:secret@/nodb?host=/nonexistent-socket-dir", "postgresql://u:***@/nodb"),
])
async def test_an_unusable_database_url_is_one_clear_line(url: str, says: str) -> None:
    with pytest.raises(StoreUnavailable) as caught:
        await open_store(url)
    text = str(caught.value)
    assert says in text and "\n" not in text and "secret" not in text


async def test_processes_starting_together_migrate_once(store_url: str, backend: str) -> None:
    """Several bot processes started at once on a new database: one migrates, the others find it done."""
    import asyncio

    migrations = sqlite_store.MIGRATIONS if backend == "sqlite" else store_pg.MIGRATIONS
    stores = await asyncio.gather(*(open_store(store_url) for _ in range(4)))
    assert [await s.schema_version() for s in stores] == [len(migrations)] * 4
    for s in stores:
        await s.close()


async def test_sqlite_urls_name_files_as_paths_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """sqlite:///relative/path and sqlite:////absolute/path, like other tools' database URLs."""
    monkeypatch.chdir(tmp_path)
    for url, file in (("sqlite:///rel/a.db", tmp_path / "rel" / "a.db"), (f"sqlite:///{tmp_path}/b.db", tmp_path / "b.db")):
        opened = await open_store(url)
        await opened.close()
        assert file.is_file(), url


async def test_a_store_cancelled_while_opening_leaves_no_database_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop signal can cancel start-up while the store migrates; the connection's worker thread is
    not a daemon, so a leaked one would keep the process alive after everything else has stopped."""
    import asyncio
    import threading

    entered = asyncio.Event()
    held: list[sqlite_store.Store] = []  # as a traceback or a log record would hold it

    async def slow_migrate(self: sqlite_store.Store) -> None:
        held.append(self)
        entered.set()
        await asyncio.Event().wait()  # never returns: only cancellation ends it

    monkeypatch.setattr(sqlite_store.Store, "_migrate", slow_migrate)
    before = set(threading.enumerate())
    opening = asyncio.create_task(sqlite_store.Store.open(tmp_path / "cancelled.db"))
    await entered.wait()
    opening.cancel()
    with pytest.raises(asyncio.CancelledError):
        await opening
    for _ in range(100):  # the closed connection's thread ends promptly
        left = [t for t in set(threading.enumerate()) - before if t.is_alive()]
        if not left:
            break
        await asyncio.sleep(0.02)
    assert not left, left


async def test_settings_are_kept_replaced_and_forgotten(store_url: str) -> None:
    """Deployment facts (e.g. the hash of the slash commands last synced) survive a reopen, on both backends."""
    store = await open_store(store_url)
    assert await store.setting("commands:1:global") is None
    await store.set_setting("commands:1:global", "aaa")
    await store.set_setting("commands:1:global", "bbb")
    await store.set_setting("commands:1:guild:5", "ccc")
    await store.set_setting("other", "x")
    await store.close()
    store = await open_store(store_url)
    assert await store.setting("commands:1:global") == "bbb"
    assert await store.settings_like("commands:1:") == {"commands:1:global": "bbb", "commands:1:guild:5": "ccc"}
    await store.set_setting("commands:1:guild:5", None)
    assert await store.settings_like("commands:") == {"commands:1:global": "bbb"}
    await store.close()
