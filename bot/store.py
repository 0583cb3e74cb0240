"""SQLite storage (aiosqlite, WAL): games, their append-only order logs, snapshots, reminders.

One transaction per order: the order row, the new snapshot and the bumped version commit together
or not at all. ``save_order`` only applies when the stored version is still the one the caller
loaded, so a stale command is rejected and never applied twice. The schema is versioned and
migrated forward on open. ``bot/store_pg.py`` implements the same ``bot.storage.Backend`` on
PostgreSQL; ``bot.storage.open_store`` picks one from WARGAME_DB.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import sqlite3
import time
from collections.abc import AsyncGenerator, AsyncIterator, Collection
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage import (
    JSON_COLUMNS,
    Bookkeeping,
    ChannelTaken,
    CopyRefused,
    Counts,
    GameRow,
    GameWithOrders,
    OrderRow,
    StaleVersion,
    StoreUnavailable,
    checked_columns,
)

__all__ = ["MIGRATIONS", "ChannelTaken", "GameRow", "OrderRow", "StaleVersion", "Store"]

MIGRATIONS: list[str] = [
    # 1: games, orders, closed DMs
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        channel TEXT NOT NULL,
        system TEXT NOT NULL,
        scenario TEXT NOT NULL,
        options TEXT NOT NULL,
        seed BLOB NOT NULL,
        commitment TEXT NOT NULL,
        status TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        snapshot TEXT NOT NULL,
        counter INTEGER NOT NULL DEFAULT 0,
        seats TEXT NOT NULL DEFAULT '{}',
        creator TEXT NOT NULL DEFAULT '',
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_live_game ON games(channel) WHERE status IN ('setup', 'running');
    CREATE UNIQUE INDEX one_tools ON games(channel) WHERE status = 'tools';
    CREATE INDEX games_channel ON games(channel, id);
    CREATE TABLE orders (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        seat TEXT NOT NULL,
        user_id TEXT NOT NULL,
        text TEXT NOT NULL,
        events TEXT NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE dm_closed (user_id TEXT PRIMARY KEY, at REAL NOT NULL);
    """,
    # 2: reminders
    """
    ALTER TABLE games ADD COLUMN remind_after REAL NOT NULL DEFAULT 86400;
    ALTER TABLE games ADD COLUMN remind_every REAL NOT NULL DEFAULT 86400;
    ALTER TABLE games ADD COLUMN last_activity REAL NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN last_reminded REAL NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN status_message TEXT NOT NULL DEFAULT '';
    """,
    # 3: when a running game's next reminder falls due, derived by SQLite from the reminder columns
    # (so no write path can forget it) and indexed, so the reminder scan reads only due games
    """
    ALTER TABLE games ADD COLUMN remind_due REAL GENERATED ALWAYS AS (MAX(last_activity + remind_after,
        CASE WHEN last_reminded > 0 THEN last_reminded + remind_every ELSE 0 END)) VIRTUAL;
    CREATE INDEX games_remind_due ON games(remind_due) WHERE status = 'running';
    """,
    # 4: players' votes to end a game: bookkeeping beside the game, never part of its history
    """
    CREATE TABLE end_votes (
        game_id INTEGER NOT NULL REFERENCES games(id),
        user_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    """,
    # 5: the deployment's own small facts (e.g. the hash of the slash commands last synced per scope)
    """
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL, at REAL NOT NULL);
    """,
    # 6: the Discord server a game belongs to, for /game list (older games get it lazily: fill_guild)
    """
    ALTER TABLE games ADD COLUMN guild TEXT NOT NULL DEFAULT '';
    CREATE INDEX games_guild ON games(guild, updated);
    """,
]


_GAME_COLUMNS = (
    "id, channel, system, scenario, options, seed, commitment, status, version, snapshot, counter, seats, "
    "creator, created, updated, remind_after, remind_every, last_activity, last_reminded, status_message, guild"
)


# Claims due games and marks them in one statement; the subquery is the indexed due query.
CLAIM_DUE = (
    f"UPDATE games SET last_reminded = ? WHERE id IN (SELECT id FROM games WHERE status = 'running'"
    f" AND remind_due <= ? ORDER BY remind_due LIMIT ?) RETURNING {_GAME_COLUMNS}"
)
# The same, among the channels given as a JSON array (a sharded process claims only its own guilds').
CLAIM_DUE_IN = (
    f"UPDATE games SET last_reminded = ? WHERE id IN (SELECT id FROM games WHERE status = 'running'"
    f" AND remind_due <= ? AND channel IN (SELECT value FROM json_each(?)) ORDER BY remind_due LIMIT ?)"
    f" RETURNING {_GAME_COLUMNS}"
)

COUNTS = (
    "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM orders), (SELECT COUNT(*) FROM orders WHERE undone != 0),"
    " (SELECT COUNT(*) FROM dm_closed), (SELECT COALESCE(SUM(version), 0) FROM games), (SELECT COUNT(*) FROM end_votes)"
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


def _game(row: aiosqlite.Row) -> GameRow:
    return GameRow(
        id=row[0],
        channel=row[1],
        system=row[2],
        scenario=row[3],
        options=json.loads(row[4]),
        seed=bytes(row[5]),
        commitment=row[6],
        status=row[7],
        version=row[8],
        snapshot=json.loads(row[9]),
        counter=row[10],
        seats=json.loads(row[11]),
        creator=row[12],
        created=row[13],
        updated=row[14],
        remind_after=row[15],
        remind_every=row[16],
        last_activity=row[17],
        last_reminded=row[18],
        status_message=row[19],
        guild=row[20],
    )


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


class Store:
    """The repository the table service talks to (embedded SQLite by default)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # One connection serves every channel: each transaction (and each read, so it never sees
        # another's uncommitted half) runs alone, or a rollback in one channel could split another's.
        self._lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run alone on the connection; commit at the end, or roll back everything on any error."""
        async with self._lock:
            try:
                yield self._db
                await self._db.commit()
            except BaseException:
                await self._db.rollback()
                raise

    async def _fetch(self, sql: str, params: tuple[Any, ...] = (), *, write: bool = False) -> list[aiosqlite.Row]:
        """Every statement that returns rows goes through here (tests count them); ``write`` runs it
        as its own committed transaction (UPDATE ... RETURNING)."""
        if write:
            async with self._transaction() as db, db.execute(sql, params) as cur:
                return list(await cur.fetchall())
        async with self._lock, self._db.execute(sql, params) as cur:
            return list(await cur.fetchall())

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
            store = cls(db)
            await store._migrate()
        except sqlite3.Error as exc:
            await db.close()
            raise StoreUnavailable(f"cannot use the SQLite database {str(path)!r}: {exc}") from None
        except BaseException:  # a cancellation (a stop signal) mid-open: its worker thread must not outlive us
            await asyncio.shield(db.close())
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        rows = await self._fetch("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    async def _migrate(self) -> None:
        """Each step in a write transaction taken before the version is read again (BEGIN IMMEDIATE),
        so processes opening a new file together migrate it once (they used to all find version 0 and
        fail on 'table games already exists')."""
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= await self.schema_version():
                continue
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                async with self._db.execute("PRAGMA user_version") as cur:
                    row = await cur.fetchone()
                if row is not None and int(row[0]) < number:
                    for statement in _statements(script):
                        await self._db.execute(statement)
                    await self._db.execute(f"PRAGMA user_version = {number}")
                await self._db.commit()
            except BaseException:
                await self._db.rollback()
                raise

    # --- games -----------------------------------------------------------------------------
    async def create_game(
        self,
        *,
        channel: str,
        system: str,
        scenario: str,
        options: dict[str, str],
        seed: bytes,
        commitment: str,
        status: str,
        snapshot: Any,
        counter: int,
        creator: str,
        guild: str = "",
    ) -> GameRow:
        now = time.time()
        try:
            # the row as inserted (RETURNING, before the commit): read back after the commit it could
            # already hold another process's order, and the caller would save its own on top of that
            async with self._transaction() as db, db.execute(
                "INSERT INTO games (channel, system, scenario, options, seed, commitment, status, version, snapshot,"
                " counter, seats, creator, created, updated, last_activity, guild)"
                " VALUES (?,?,?,?,?,?,?,0,?,?,'{}',?,?,?,?,?)"
                f" RETURNING {_GAME_COLUMNS}",
                (channel, system, scenario, json.dumps(options), seed, commitment, status, json.dumps(snapshot),
                 counter, creator, now, now, now, guild),
            ) as cur:
                row = await cur.fetchone()
        except sqlite3.IntegrityError:  # the unique live-game / tools index: someone else was first
            raise ChannelTaken(channel) from None
        assert row is not None
        return _game(row)

    async def game_by_id(self, game_id: int) -> GameRow | None:
        rows = await self._fetch(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def live_game(self, channel: str) -> GameRow | None:
        """The channel's game in set-up or running, if any."""
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel = ? AND status IN ('setup','running')", (channel,)
        )
        return _game(rows[0]) if rows else None

    async def latest_game(self, channel: str) -> GameRow | None:
        """The channel's newest game (live or over), not counting its table tools."""
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel = ? AND system != 'tools' ORDER BY id DESC LIMIT 1",
            (channel,),
        )
        return _game(rows[0]) if rows else None

    async def tools(self, channel: str) -> GameRow | None:
        rows = await self._fetch(f"SELECT {_GAME_COLUMNS} FROM games WHERE channel = ? AND status = 'tools'", (channel,))
        return _game(rows[0]) if rows else None

    async def guild_games(self, guild: str, *, limit: int, offset: int = 0) -> list[GameRow]:
        """The server's games (not table-tools streams), the most recently changed first."""
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild = ? AND system != 'tools'"
            " ORDER BY updated DESC, id DESC LIMIT ? OFFSET ?",
            (guild, limit, offset),
        )
        return [_game(r) for r in rows]

    async def fill_guild(self, channel: str, guild: str) -> None:
        """Bookkeeping, no version bump: games made before schema 6 learn their server when their
        channel is next used."""
        async with self._transaction() as db:
            await db.execute("UPDATE games SET guild = ? WHERE channel = ? AND guild = ''", (guild, channel))

    async def publish_stream(self, tools: GameRow, *, seed: bytes, commitment: str, options: dict[str, str],
                             snapshot: Any, counter: int, creator: str) -> GameRow:
        """Retire a channel's table-tools stream (its seed is being published) and open the next one,
        atomically: the channel is never left without its decks and hands' table, nor with two."""
        now = time.time()
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE games SET status = 'published', version = version + 1, updated = ? WHERE id = ? AND version = ?",
                (now, tools.id, tools.version),
            )
            if cur.rowcount != 1:
                raise StaleVersion(tools.id)
            async with db.execute(  # the new stream as inserted, as in create_game
                "INSERT INTO games (channel, system, scenario, options, seed, commitment, status, version, snapshot,"
                " counter, seats, creator, created, updated, last_activity, guild)"
                " VALUES (?,?,?,?,?,?,'tools',0,?,?,'{}',?,?,?,?,?)"
                f" RETURNING {_GAME_COLUMNS}",
                (tools.channel, tools.system, tools.scenario, json.dumps(options), seed, commitment,
                 json.dumps(snapshot), counter, creator, now, now, now, tools.guild),
            ) as inserted:
                row = await inserted.fetchone()
        assert row is not None
        return _game(row)

    async def claim_due_games(
        self, now: float, limit: int = 500, channels: Collection[str] | None = None
    ) -> list[GameRow]:
        """Due running games, marked reminded at ``now`` by the same UPDATE ... RETURNING (SQLite >=
        3.35): one statement, one write transaction, so a second process's claim sees them marked.
        ``channels``: only games in these channels (None: all)."""
        if channels is None:
            rows = await self._fetch(CLAIM_DUE, (now, now, limit), write=True)
        else:
            rows = await self._fetch(CLAIM_DUE_IN, (now, now, json.dumps(sorted(channels)), limit), write=True)
        return [_game(r) for r in rows]

    async def count_games(self) -> int:
        rows = await self._fetch("SELECT COUNT(*) FROM games")
        return int(rows[0][0]) if rows else 0

    async def update_game(self, game: GameRow, **changes: Any) -> GameRow:
        """Change columns of a game if its version is unchanged; bumps the version."""
        checked_columns(changes)
        encoded = {k: json.dumps(v) if k in JSON_COLUMNS else v for k, v in changes.items()}
        sets = ", ".join(f"{k} = ?" for k in encoded)
        now = time.time()
        async with self._transaction() as db:
            cur = await db.execute(
                f"UPDATE games SET {sets}, version = version + 1, updated = ? WHERE id = ? AND version = ?",
                (*encoded.values(), now, game.id, game.version),
            )
            if cur.rowcount != 1:
                raise StaleVersion(game.id)
        stored: dict[str, Any] = {k: json.loads(v) if k in JSON_COLUMNS else v for k, v in encoded.items()}
        return dataclasses.replace(game, **stored, version=game.version + 1, updated=now)

    async def touch(self, game_id: int, **changes: Any) -> None:
        """Bookkeeping that is not part of the game's history (reminder times, status message id)."""
        checked_columns(changes)
        sets = ", ".join(f"{k} = ?" for k in changes)
        async with self._transaction() as db:
            await db.execute(f"UPDATE games SET {sets} WHERE id = ?", (*changes.values(), game_id))

    # --- orders ----------------------------------------------------------------------------
    async def save_order(
        self,
        game: GameRow,
        *,
        seat: str,
        user_id: str,
        text: str,
        events: list[dict[str, Any]],
        snapshot: Any,
        counter: int,
        status: str,
    ) -> GameRow:
        """Append an order with its snapshot and version bump, atomically; StaleVersion if raced."""
        now = time.time()
        dumped = json.dumps(snapshot)
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE games SET snapshot = ?, counter = ?, status = ?, version = version + 1, updated = ?,"
                " last_activity = ?, last_reminded = 0 WHERE id = ? AND version = ?",
                (dumped, counter, status, now, now, game.id, game.version),
            )
            if cur.rowcount != 1:
                raise StaleVersion(game.id)
            await db.execute(
                "INSERT INTO orders (game_id, seq, seat, user_id, text, events, at) VALUES"
                " (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM orders WHERE game_id = ?), ?, ?, ?, ?, ?)",
                (game.id, game.id, seat, user_id, text, json.dumps(events), now),
            )
        # the row as now stored, built rather than read back (this is every order's hot path)
        return dataclasses.replace(game, snapshot=json.loads(dumped), counter=counter, status=status,
                                   version=game.version + 1, updated=now, last_activity=now, last_reminded=0.0)

    async def orders(self, game_id: int, *, include_undone: bool = True) -> list[OrderRow]:
        sql = "SELECT seq, seat, user_id, text, events, undone, at FROM orders WHERE game_id = ?"
        if not include_undone:
            sql += " AND undone = 0"
        rows = await self._fetch(sql + " ORDER BY seq", (game_id,))
        return [OrderRow(r[0], r[1], r[2], r[3], json.loads(r[4]), bool(r[5]), r[6]) for r in rows]

    async def mark_undone(self, game: GameRow, seq: int, *, snapshot: Any, counter: int) -> GameRow:
        """Mark one order undone (it stays in the log) with the rebuilt snapshot, atomically."""
        dumped, now = json.dumps(snapshot), time.time()
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE games SET snapshot = ?, counter = ?, version = version + 1, updated = ?, status = 'running'"
                " WHERE id = ? AND version = ?",
                (dumped, counter, now, game.id, game.version),
            )
            if cur.rowcount != 1:
                raise StaleVersion(game.id)
            await db.execute("UPDATE orders SET undone = 1 WHERE game_id = ? AND seq = ?", (game.id, seq))
        return dataclasses.replace(game, snapshot=json.loads(dumped), counter=counter, status="running",
                                   version=game.version + 1, updated=now)

    # --- direct messages -------------------------------------------------------------------
    async def set_dms_closed(self, user_id: str, closed: bool) -> None:
        async with self._transaction() as db:
            if closed:
                await db.execute("INSERT OR REPLACE INTO dm_closed VALUES (?, ?)", (user_id, time.time()))
            else:
                await db.execute("DELETE FROM dm_closed WHERE user_id = ?", (user_id,))

    async def dms_closed_users(self) -> set[str]:
        return {r[0] for r in await self._fetch("SELECT user_id FROM dm_closed")}

    # --- votes to end a game, and when DMs were found closed (issue 13) -------------------------
    async def add_end_vote(self, game_id: int, user_id: str, version: int) -> None:
        """Record a player's vote to end the game as it stands at ``version``; votes cast at any other
        version are dropped, since the game has changed under them."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM end_votes WHERE game_id = ? AND version != ?", (game_id, version))
            await db.execute("INSERT OR REPLACE INTO end_votes VALUES (?, ?, ?, ?)", (game_id, user_id, version, time.time()))

    async def end_votes(self, game_id: int, version: int) -> set[str]:
        """Who voted to end the game while it stood at ``version`` (a vote does not bump the version)."""
        rows = await self._fetch("SELECT user_id FROM end_votes WHERE game_id = ? AND version = ?", (game_id, version))
        return {r[0] for r in rows}

    async def setting(self, key: str) -> str | None:
        rows = await self._fetch("SELECT value FROM settings WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    async def set_setting(self, key: str, value: str | None) -> None:
        async with self._transaction() as db:
            if value is None:
                await db.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                await db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?, ?)", (key, value, time.time()))

    async def settings_like(self, prefix: str) -> dict[str, str]:
        rows = await self._fetch("SELECT key, value FROM settings WHERE substr(key, 1, ?) = ?", (len(prefix), prefix))
        return {str(k): str(v) for k, v in rows}

    async def dms_closed_since(self) -> dict[str, float]:
        """User id -> when their DMs were last found closed, so a retry can wait a while after it."""
        return {r[0]: float(r[1]) for r in await self._fetch("SELECT user_id, at FROM dm_closed")}

    # --- copying whole databases (python -m bot migrate) -----------------------------------
    async def counts(self) -> Counts:
        rows = await self._fetch(COUNTS)
        return Counts(*(int(v) for v in rows[0]))

    async def export_games(self, batch: int = 200) -> AsyncGenerator[list[GameWithOrders], None]:
        """One read transaction over the whole export, so every batch sees the same database."""
        async with self._lock:
            await self._db.execute("BEGIN")
            try:
                last = 0
                while True:
                    async with self._db.execute(
                        f"SELECT {_GAME_COLUMNS} FROM games WHERE id > ? ORDER BY id LIMIT ?", (last, batch)
                    ) as cur:
                        games = [_game(r) for r in await cur.fetchall()]
                    if not games:
                        break
                    logs: dict[int, list[OrderRow]] = {g.id: [] for g in games}
                    async with self._db.execute(
                        "SELECT game_id, seq, seat, user_id, text, events, undone, at FROM orders"
                        " WHERE game_id > ? AND game_id <= ? ORDER BY game_id, seq", (last, games[-1].id)
                    ) as cur:
                        for r in await cur.fetchall():
                            logs[r[0]].append(OrderRow(r[1], r[2], r[3], r[4], json.loads(r[5]), bool(r[6]), r[7]))
                    yield [(g, logs[g.id]) for g in games]
                    last = games[-1].id
            finally:
                await self._db.rollback()

    async def bookkeeping(self) -> Bookkeeping:
        dms = await self._fetch("SELECT user_id, at FROM dm_closed ORDER BY user_id")
        votes = await self._fetch("SELECT game_id, user_id, version, at FROM end_votes ORDER BY game_id, user_id")
        return Bookkeeping([(r[0], r[1]) for r in dms], [(r[0], r[1], r[2], r[3]) for r in votes])

    async def import_copy(self, games: AsyncIterator[list[GameWithOrders]], bookkeeping: Bookkeeping,
                          expected: Counts) -> Counts:
        async with self._transaction() as db:
            async with db.execute("SELECT (SELECT COUNT(*) FROM games) + (SELECT COUNT(*) FROM dm_closed)") as cur:
                row = await cur.fetchone()
            if row is None or row[0]:
                raise CopyRefused("the target database is not empty; refusing to copy into it, nothing was written")
            async for batch in games:
                await db.executemany(
                    f"INSERT INTO games ({_GAME_COLUMNS}) VALUES ({', '.join('?' * 21)})",
                    [(g.id, g.channel, g.system, g.scenario, json.dumps(g.options), g.seed, g.commitment, g.status,
                      g.version, json.dumps(g.snapshot), g.counter, json.dumps(g.seats), g.creator, g.created,
                      g.updated, g.remind_after, g.remind_every, g.last_activity, g.last_reminded, g.status_message,
                      g.guild)
                     for g, _ in batch],
                )
                await db.executemany(
                    "INSERT INTO orders (game_id, seq, seat, user_id, text, events, undone, at) VALUES (?,?,?,?,?,?,?,?)",
                    [(g.id, o.seq, o.seat, o.user_id, o.text, json.dumps(o.events), int(o.undone), o.at)
                     for g, log in batch for o in log],
                )
            await db.executemany("INSERT INTO dm_closed (user_id, at) VALUES (?, ?)", bookkeeping.dm_closed)
            await db.executemany("INSERT INTO end_votes (game_id, user_id, version, at) VALUES (?, ?, ?, ?)",
                                 bookkeeping.end_votes)
            async with db.execute(COUNTS) as cur:
                row = await cur.fetchone()
            assert row is not None
            got = Counts(*(int(v) for v in row))
            if got != expected:
                raise CopyRefused(f"the copy does not match its source ({got} != {expected}), so nothing was written")
        return got
