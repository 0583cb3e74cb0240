"""SQLite storage (aiosqlite, WAL): the default backend, one file, one bot process at a time (or a
few during a deploy overlap).

The statements and rules are ``bot/store_sql.py``'s, shared with PostgreSQL (``bot/store_pg.py``);
this module runs them on one connection behind a lock, claims due reminders with SQLite's single
writer, keeps the schema version in ``PRAGMA user_version`` and migrates forward on open.
``bot.database.open_store`` picks a backend from WARGAME_DB.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator, Collection, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage import ChannelTaken, GameRow, OrderRow, StaleVersion, StoreUnavailable
from bot.store_sql import GAME_COLUMNS, SqlStore, render_migrations

__all__ = ["MIGRATIONS", "ChannelTaken", "GameRow", "OrderRow", "StaleVersion", "Store"]

SQLITE_TYPES = {"identity": "INTEGER PRIMARY KEY", "int": "INTEGER", "blob": "BLOB", "real": "REAL",
                "bool": "INTEGER", "false": "0", "greatest": "MAX", "generated": "VIRTUAL"}
MIGRATIONS: list[str] = render_migrations(SQLITE_TYPES)

# Claims due games and marks them in one statement; the subquery is the indexed due query.
CLAIM_DUE = (
    f"UPDATE games SET last_reminded = ? WHERE id IN (SELECT id FROM games WHERE status = 'running'"
    f" AND remind_due <= ? ORDER BY remind_due LIMIT ?) RETURNING {GAME_COLUMNS}"
)
# The same, among the channels given as a JSON array (a sharded process claims only its own guilds').
CLAIM_DUE_IN = (
    f"UPDATE games SET last_reminded = ? WHERE id IN (SELECT id FROM games WHERE status = 'running'"
    f" AND remind_due <= ? AND channel IN (SELECT value FROM json_each(?)) ORDER BY remind_due LIMIT ?)"
    f" RETURNING {GAME_COLUMNS}"
)


def _statements(script: str) -> list[str]:
    """A migration script cut into its statements (executescript would commit our transaction)."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    assert not pending.strip(), f"unterminated statement in a migration: {pending!r}"
    return statements


async def _switch_to_wal(db: aiosqlite.Connection) -> None:
    """Put the file in WAL mode, waiting (as busy_timeout would, up to 5 s) while another connection
    holds it: of two connections switching a new file at once SQLite tells one 'database is locked'
    at once instead of calling the busy handler (a lock deadlock it breaks), and that process failed
    to start. Once the other switched it, the file is in WAL already and this one goes through."""
    for attempt in range(50):
        try:
            await db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == 49:
                raise
            await asyncio.sleep(0.1)


class SqliteTx:
    """Statements on the connection while its lock is held."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = await self._db.execute(sql, params)
        return cur.rowcount

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def insert_rows(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        await self._db.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", rows)


class SqliteConnection:
    """One aiosqlite connection serves every channel: each transaction (and each read, so it never
    sees another's uncommitted half) runs alone, or a rollback in one channel could split another's."""

    claim_due = CLAIM_DUE
    claim_due_in = CLAIM_DUE_IN
    unique_violation: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.raw = db
        self._tx = SqliteTx(db)
        self._lock = asyncio.Lock()

    def channel_list(self, channels: Collection[str]) -> str:
        return json.dumps(sorted(channels))

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTx]:
        """Run alone on the connection; commit at the end, or roll back everything on any error."""
        async with self._lock:
            try:
                yield self._tx
                await self.raw.commit()
            except BaseException:
                await self.raw.rollback()
                raise

    copying = transaction

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[SqliteTx]:
        async with self._lock:
            await self.raw.execute("BEGIN")
            try:
                yield self._tx
            finally:
                await self.raw.rollback()

    async def fetch(self, sql: str, params: Sequence[Any] = (), *, write: bool = False) -> list[Any]:
        if write:
            async with self.transaction() as tx:
                return await tx.fetch(sql, params)
        async with self._lock, self.raw.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self.transaction() as tx:
            return await tx.execute(sql, params)

    async def close(self) -> None:
        await self.raw.close()


class Store(SqlStore[SqliteConnection]):
    """The repository on an embedded SQLite file (the default)."""

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating it and its folder if needed) and migrate; StoreUnavailable if it cannot."""
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            db = await aiosqlite.connect(str(path))
        except (OSError, sqlite3.Error) as exc:
            raise StoreUnavailable(f"cannot open the SQLite database {str(path)!r}: {exc}") from None
        try:
            await db.execute("PRAGMA busy_timeout=5000")  # first: processes opening a new file together wait
            await _switch_to_wal(db)
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
            store = cls(SqliteConnection(db))
            await store._migrate()
        except sqlite3.Error as exc:
            await db.close()
            raise StoreUnavailable(f"cannot use the SQLite database {str(path)!r}: {exc}") from None
        except BaseException:  # a cancellation (a stop signal) mid-open: its worker thread must not outlive us
            await asyncio.shield(db.close())
            raise
        return store

    async def schema_version(self) -> int:
        rows = await self._fetch("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    async def _migrate(self) -> None:
        """Each step in a write transaction taken before the version is read again (BEGIN IMMEDIATE),
        so processes opening a new file together migrate it once (they used to all find version 0 and
        fail on 'table games already exists')."""
        db = self._db.raw
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= await self.schema_version():
                continue
            await db.execute("BEGIN IMMEDIATE")
            try:
                async with db.execute("PRAGMA user_version") as cur:
                    row = await cur.fetchone()
                if row is not None and int(row[0]) < number:
                    for statement in _statements(script):
                        await db.execute(statement)
                    await db.execute(f"PRAGMA user_version = {number}")
                await db.commit()
            except BaseException:
                await db.rollback()
                raise
