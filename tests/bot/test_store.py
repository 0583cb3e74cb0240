"""Storage on a real SQLite file: schema, atomic orders, stale versions, resuming in a new process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import aiosqlite
import pytest

import tests.bot.duel  # noqa: F401
from bot.store import MIGRATIONS, ChannelTaken, StaleVersion, Store
from tests.bot.helpers import ALICE, BOB, CAROL, make_service, ok

ROOT = Path(__file__).resolve().parents[2]


async def test_schema_is_migrated_and_wal(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "s.db")
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    async with aiosqlite.connect(tmp_path / "s.db") as db, db.execute("PRAGMA journal_mode") as cur:
        row = await cur.fetchone()
    assert row is not None and row[0] == "wal"
    store = await Store.open(tmp_path / "s.db")  # reopening does not migrate twice
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()


async def test_stale_version_is_rejected_and_not_applied(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "s.db")
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


async def test_one_live_game_per_channel_is_enforced_by_the_schema(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "s.db")
    kwargs = dict(channel="c", system="test-duel", scenario="race", options={}, seed=b"x" * 32, commitment="c",
                  status="setup", snapshot={}, counter=0, creator="u")
    await store.create_game(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(ChannelTaken):  # the unique index refuses it; the store names the cause
        await store.create_game(**kwargs)  # type: ignore[arg-type]
    await store.close()


async def test_resume_in_a_new_process(tmp_path: Path) -> None:
    db = tmp_path / "resume.db"
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


async def test_transactions_of_many_channels_never_interleave(tmp_path: Path) -> None:
    """Stale writes (rolled back) racing good ones in other channels leave every game consistent."""
    import asyncio

    store = await Store.open(tmp_path / "many.db")
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


async def test_rows_returned_by_writes_equal_the_stored_rows(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "r.db")
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
