"""A SQLite database written before the store was shared between backends (bot/store_sql.py) opens
and plays on with the shared store: tests/bot/fixtures/sqlite_schema6.sql is such a file, dumped,
with a finished game, a running one with an undone order, a published table-tools stream, a pending
vote to end a game, a closed DM and a setting."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import tests.bot.duel  # noqa: F401
from bot.database import open_store
from bot.storage import Counts
from bot.store import MIGRATIONS
from tests.bot.helpers import CAROL, make_service, ok
from tests.bot.test_postgres import go_on

FIXTURE = Path(__file__).parent / "fixtures" / "sqlite_schema6.sql"


def old_database(path: Path) -> Path:
    con = sqlite3.connect(path)
    con.executescript(FIXTURE.read_text())
    con.close()
    return path


def schema(path: Path) -> list[tuple[str, str, str]]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name").fetchall()
    finally:
        con.close()


async def test_a_new_file_gets_the_same_schema_as_the_old_code_made(tmp_path: Path) -> None:
    """The migrations rendered from the shared templates are the old SQLite ones, to the letter."""
    store = await open_store(tmp_path / "new.db")
    assert await store.schema_version() == len(MIGRATIONS) == 8
    await store.close()
    old = await open_store(old_database(tmp_path / "old.db"))  # schema 6, migrated on to 8 (claims, leases; rules)
    assert await old.schema_version() == 8
    await old.close()
    assert schema(tmp_path / "new.db") == schema(tmp_path / "old.db")


async def test_an_old_file_opens_reads_back_and_plays_on(tmp_path: Path) -> None:
    db = old_database(tmp_path / "old.db")
    store = await open_store(db)
    assert await store.schema_version() == len(MIGRATIONS)
    assert await store.counts() == Counts(games=5, orders=17, undone=2, dm_closed=1, versions=30, end_votes=1)
    assert await store.setting("commands:1:global") == "abc"
    assert await store.dms_closed_users() == {"bob"}
    running = await store.live_game("c2")
    assert running is not None and running.seats["north"] == {"user": "alice", "name": "Alice"}
    assert [(o.text, o.undone) for o in await store.orders(running.id)] == [("pass", True), ("hide", False)]
    assert [o.text for o in await store.orders(running.id, include_undone=False)] == ["hide"]
    [(game_id, user, version, _)] = (await store.bookkeeping()).end_votes
    assert (game_id, user) == (5, "bob") and await store.end_votes(5, version) == {"bob"}
    await store.close()

    svc = await make_service(db, seed_start=500)
    assert "verified" in (await ok(svc, CAROL, "game verify", "c1"))[0].text.lower()  # the old log replays
    await go_on(svc)  # votes, orders, tools, a new game and reminders on the old rows, without an error
    assert (await svc.channel_state("c5"))[0] == "over"
    new = await svc.store.live_game("c4")
    assert new is not None and new.id == 6 and (await svc.store.latest_game("c1")).id == 1  # type: ignore[union-attr]
    assert len(await svc.store.orders(running.id)) == 4
    await svc.store.close()
