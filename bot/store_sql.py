"""The store both backends share: every statement and every rule (version checks, one live game per
channel, claims, copies) written once, over a small connection layer each backend supplies.

The SQL here is the subset SQLite and PostgreSQL both read, with ``?`` placeholders (PostgreSQL's
layer numbers them ``$1, $2, ...``). What really differs stays in the backend modules: how a
statement runs (SQLite: one connection behind a lock; PostgreSQL: a pool), the reminder claim
(SQLite's single-writer UPDATE ... RETURNING, PostgreSQL's FOR UPDATE SKIP LOCKED), how a copy loads
rows, how the schema version is kept, and the column types the migrations below are rendered with.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import AsyncGenerator, AsyncIterator, Collection, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from string import Template
from typing import Any, Generic, Protocol, TypeVar

from bot.storage import (
    JSON_COLUMNS,
    Bookkeeping,
    ChannelTaken,
    CopyRefused,
    Counts,
    GameRow,
    GameWithOrders,
    Lease,
    LiveStamp,
    OrderRow,
    StaleVersion,
    checked_columns,
)

# Numbered alike on both backends, so "schema 3" means the same tables whichever a community runs;
# ``$name`` is a column type or function the backend names (SQLITE_TYPES, PG_TYPES).
MIGRATION_TEMPLATES: list[str] = [
    # 1: games, orders, closed DMs
    """
    CREATE TABLE games (
        id $identity,
        channel TEXT NOT NULL,
        system TEXT NOT NULL,
        scenario TEXT NOT NULL,
        options TEXT NOT NULL,
        seed $blob NOT NULL,
        commitment TEXT NOT NULL,
        status TEXT NOT NULL,
        version $int NOT NULL DEFAULT 0,
        snapshot TEXT NOT NULL,
        counter $int NOT NULL DEFAULT 0,
        seats TEXT NOT NULL DEFAULT '{}',
        creator TEXT NOT NULL DEFAULT '',
        created $real NOT NULL,
        updated $real NOT NULL
    );
    CREATE UNIQUE INDEX one_live_game ON games(channel) WHERE status IN ('setup', 'running');
    CREATE UNIQUE INDEX one_tools ON games(channel) WHERE status = 'tools';
    CREATE INDEX games_channel ON games(channel, id);
    CREATE TABLE orders (
        game_id $int NOT NULL REFERENCES games(id),
        seq $int NOT NULL,
        seat TEXT NOT NULL,
        user_id TEXT NOT NULL,
        text TEXT NOT NULL,
        events TEXT NOT NULL,
        undone $bool NOT NULL DEFAULT $false,
        at $real NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE dm_closed (user_id TEXT PRIMARY KEY, at $real NOT NULL);
    """,
    # 2: reminders
    """
    ALTER TABLE games ADD COLUMN remind_after $real NOT NULL DEFAULT 86400;
    ALTER TABLE games ADD COLUMN remind_every $real NOT NULL DEFAULT 86400;
    ALTER TABLE games ADD COLUMN last_activity $real NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN last_reminded $real NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN status_message TEXT NOT NULL DEFAULT '';
    """,
    # 3: when a running game's next reminder falls due, derived by the database from the reminder
    # columns (so no write path can forget it) and indexed, so the reminder scan reads only due games
    """
    ALTER TABLE games ADD COLUMN remind_due $real GENERATED ALWAYS AS ($greatest(last_activity + remind_after,
        CASE WHEN last_reminded > 0 THEN last_reminded + remind_every ELSE 0 END)) $generated;
    CREATE INDEX games_remind_due ON games(remind_due) WHERE status = 'running';
    """,
    # 4: players' votes to end a game: bookkeeping beside the game, never part of its history
    """
    CREATE TABLE end_votes (
        game_id $int NOT NULL REFERENCES games(id),
        user_id TEXT NOT NULL,
        version $int NOT NULL,
        at $real NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    """,
    # 5: the deployment's own small facts (e.g. the hash of the slash commands last synced per scope)
    """
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL, at $real NOT NULL);
    """,
    # 6: the Discord server a game belongs to, for /game list (older games get it lazily: fill_guild)
    """
    ALTER TABLE games ADD COLUMN guild TEXT NOT NULL DEFAULT '';
    CREATE INDEX games_guild ON games(guild, updated);
    """,
    # 7: one process per interaction and per shard. ``claims``: a key (an interaction id, or a
    # status post) is handled by whoever inserts it first, with its outcome; pruned after a day.
    # ``shard_leases``: which process serves each Discord shard, renewed by its heartbeat.
    """
    CREATE TABLE claims (key TEXT PRIMARY KEY, owner TEXT NOT NULL, at $real NOT NULL,
        outcome TEXT NOT NULL DEFAULT '', fingerprint TEXT NOT NULL DEFAULT '');
    CREATE INDEX claims_at ON claims(at);
    CREATE INDEX claims_fingerprint ON claims(fingerprint, at);
    CREATE TABLE shard_leases (shard $int PRIMARY KEY, shard_count $int NOT NULL, owner TEXT NOT NULL,
        heartbeat $real NOT NULL);
    """,
    # 8: the rules version a game was created under (``Ruleset.rules_version``); '' for older games
    """
    ALTER TABLE games ADD COLUMN rules TEXT NOT NULL DEFAULT '';
    """,
]


def render_migrations(types: Mapping[str, str]) -> list[str]:
    """The migrations in one backend's types (every ``$name`` must be given)."""
    return [Template(script).substitute(types) for script in MIGRATION_TEMPLATES]


GAME_COLUMN_NAMES = (
    "id", "channel", "system", "scenario", "options", "seed", "commitment", "status", "version", "snapshot",
    "counter", "seats", "creator", "created", "updated", "remind_after", "remind_every", "last_activity",
    "last_reminded", "status_message", "guild", "rules",
)
GAME_COLUMNS = ", ".join(GAME_COLUMN_NAMES)
ORDER_COLUMN_NAMES = ("game_id", "seq", "seat", "user_id", "text", "events", "undone", "at")

SELECT_GAMES = f"SELECT {GAME_COLUMNS} FROM games"
# The row as inserted (RETURNING, inside the transaction): read back after the commit it could
# already hold another process's order, and the caller would save its own on top of that.
INSERT_GAME = (
    "INSERT INTO games (channel, system, scenario, options, seed, commitment, status, version, snapshot, counter,"
    " seats, creator, created, updated, last_activity, guild, rules)"
    f" VALUES (?,?,?,?,?,?,?,0,?,?,'{{}}',?,?,?,?,?,?) RETURNING {GAME_COLUMNS}"
)
SAVE_ORDER = (
    "UPDATE games SET snapshot = ?, counter = ?, status = ?, version = version + 1, updated = ?,"
    " last_activity = ?, last_reminded = 0 WHERE id = ? AND version = ?"
)
SET_OUTCOME = "UPDATE claims SET outcome = ? WHERE key = ? AND owner = ?"
# The game's row is written by SAVE_ORDER in the same transaction (locked until commit on PostgreSQL,
# the one writer on SQLite), so no one else numbers an order of this game meanwhile.
APPEND_ORDER = (
    "INSERT INTO orders (game_id, seq, seat, user_id, text, events, at) VALUES"
    " (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM orders WHERE game_id = ?), ?, ?, ?, ?, ?)"
)
SELECT_ORDERS = "SELECT seq, seat, user_id, text, events, undone, at FROM orders WHERE game_id = ?"
# The first insert of a key wins; a claim older than ``takeover_before`` (its owner died mid-way) may
# be taken over, in the same statement, so two processes never both hold it.
CLAIM = (
    "INSERT INTO claims (key, owner, at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET owner = excluded.owner,"
    " at = excluded.at, outcome = '' WHERE claims.at < ?"
)
# An interaction's claim, returning (when it went in) the key of the newest earlier claim of the
# same command by the same user in the same channel that was never answered and whose process is
# gone (no live lease): the interaction may be the user's retry after a crash. One statement.
# What the claim sees of the interaction's channel's live game (its id, version and votes to end
# it), returned by the same statement: a process holding that version of the game needs no read.
_LIVE_ID = "(SELECT g.id FROM games g WHERE g.channel = ? AND g.status IN ('setup','running'))"
LIVE_STAMP = (
    f"{_LIVE_ID}, (SELECT g.version FROM games g WHERE g.channel = ? AND g.status IN ('setup','running')),"
    f" (SELECT COUNT(*) FROM end_votes v WHERE v.game_id = {_LIVE_ID})"
)
CLAIM_COMMAND = (
    "INSERT INTO claims (key, owner, at, fingerprint) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING"
    " RETURNING (SELECT c.key FROM claims c WHERE c.fingerprint = ? AND c.key != ? AND c.at >= ?"
    " AND c.outcome = '' AND c.owner != ? AND c.owner NOT IN (SELECT owner FROM shard_leases WHERE heartbeat >= ?)"
    f" ORDER BY c.at DESC LIMIT 1), {LIVE_STAMP}"
)
CLAIM_SEEING = f"INSERT INTO claims (key, owner, at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING RETURNING {LIVE_STAMP}"
# The votes to end a game, counted with the live game's row (0 spares the status a read of them).
COUNT_VOTES = "(SELECT COUNT(*) FROM end_votes v WHERE v.game_id = games.id)"
# A shard's lease goes to a process if nobody holds it, it already holds it, or its holder's
# heartbeat is older than ``expired_before``: one statement, so of two processes one wins.
TAKE_LEASE = (
    "INSERT INTO shard_leases (shard, shard_count, owner, heartbeat) VALUES (?, ?, ?, ?) ON CONFLICT (shard)"
    " DO UPDATE SET shard_count = excluded.shard_count, owner = excluded.owner, heartbeat = excluded.heartbeat"
    " WHERE shard_leases.owner = excluded.owner OR shard_leases.heartbeat < ?"
)
COUNTS = (
    "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM orders), (SELECT COUNT(*) FROM orders WHERE undone),"
    " (SELECT COUNT(*) FROM dm_closed), (SELECT COALESCE(SUM(version), 0) FROM games), (SELECT COUNT(*) FROM end_votes)"
)


def game_from_row(row: Any) -> GameRow:
    """A games row read in GAME_COLUMNS order (a tuple from SQLite, a Record from asyncpg)."""
    return GameRow(
        id=row[0], channel=row[1], system=row[2], scenario=row[3], options=json.loads(row[4]), seed=bytes(row[5]),
        commitment=row[6], status=row[7], version=row[8], snapshot=json.loads(row[9]), counter=row[10],
        seats=json.loads(row[11]), creator=row[12], created=row[13], updated=row[14], remind_after=row[15],
        remind_every=row[16], last_activity=row[17], last_reminded=row[18], status_message=row[19], guild=row[20],
        rules=row[21], votes=row[22] if len(row) > len(GAME_COLUMN_NAMES) else None,
    )


LONG_LOG = 300  # orders read out of the event loop's thread from this many on


def order_from_row(r: Any) -> OrderRow:
    """An orders row read in SELECT_ORDERS order (SQLite keeps ``undone`` as 0/1)."""
    return OrderRow(r[0], r[1], r[2], r[3], json.loads(r[4]), bool(r[5]), r[6])


def _stamp(row: Any) -> LiveStamp | None:
    """(game id, version, votes) as a claim returned them; None when the channel had no live game."""
    return None if row[0] is None else LiveStamp(int(row[0]), int(row[1]), int(row[2]))


def _first_game(rows: list[Any]) -> GameRow | None:
    return game_from_row(rows[0]) if rows else None


def game_record(g: GameRow) -> tuple[Any, ...]:
    """A game as a row in GAME_COLUMN_NAMES order, for a copy."""
    return (g.id, g.channel, g.system, g.scenario, json.dumps(g.options), g.seed, g.commitment, g.status, g.version,
            json.dumps(g.snapshot), g.counter, json.dumps(g.seats), g.creator, g.created, g.updated, g.remind_after,
            g.remind_every, g.last_activity, g.last_reminded, g.status_message, g.guild, g.rules)


class Tx(Protocol):
    """Statements inside one transaction of a backend."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; the number of rows it changed."""
        ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    async def insert_rows(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Load many rows at once (a copy between databases)."""
        ...


class Connection(Protocol):
    """What a backend supplies: how statements run, and the few statements that differ."""

    claim_due: str  # params (now, now, limit): due running games, marked reminded at ``now``
    claim_due_in: str  # params (now, now, channel_list(channels), limit): the same among those channels
    unique_violation: tuple[type[Exception], ...]  # what a unique index refusing an INSERT raises

    def channel_list(self, channels: Collection[str]) -> Any:
        """The channels as claim_due_in's parameter."""
        ...

    async def fetch(self, sql: str, params: Sequence[Any] = (), *, write: bool = False) -> list[Any]:
        """Rows of one statement; ``write`` runs it as its own committed transaction."""
        ...

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, committed; the number of rows it changed."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """Statements that commit together, or roll back together on any error."""
        ...

    def snapshot(self) -> AbstractAsyncContextManager[Tx]:
        """A read-only transaction: every read in it sees the same database."""
        ...

    def copying(self) -> AbstractAsyncContextManager[Tx]:
        """The transaction that loads a copy (nobody else writes meanwhile)."""
        ...

    async def close(self) -> None: ...


C = TypeVar("C", bound=Connection)


class _Copying(Generic[C]):
    """Copying whole databases (python -m bot migrate): the same rows out of and into either backend."""

    _db: C

    async def counts(self) -> Counts:
        rows = await self._db.fetch(COUNTS)
        return Counts(*(int(v) for v in rows[0]))

    async def export_games(self, batch: int = 200) -> AsyncGenerator[list[GameWithOrders], None]:
        """One read transaction over the whole export, so every batch sees the same database."""
        async with self._db.snapshot() as tx:
            last = 0
            while True:
                games = [game_from_row(r) for r in await tx.fetch(f"{SELECT_GAMES} WHERE id > ? ORDER BY id LIMIT ?",
                                                                  (last, batch))]
                if not games:
                    break
                logs: dict[int, list[OrderRow]] = {g.id: [] for g in games}
                for r in await tx.fetch(
                    "SELECT seq, seat, user_id, text, events, undone, at, game_id FROM orders"
                    " WHERE game_id > ? AND game_id <= ? ORDER BY game_id, seq", (last, games[-1].id),
                ):
                    logs[r[7]].append(order_from_row(r))
                yield [(g, logs[g.id]) for g in games]
                last = games[-1].id

    async def bookkeeping(self) -> Bookkeeping:
        dms = await self._db.fetch("SELECT user_id, at FROM dm_closed ORDER BY user_id")
        votes = await self._db.fetch("SELECT game_id, user_id, version, at FROM end_votes ORDER BY game_id, user_id")
        return Bookkeeping([(r[0], r[1]) for r in dms], [(r[0], r[1], r[2], r[3]) for r in votes])

    async def import_copy(self, games: AsyncIterator[list[GameWithOrders]], bookkeeping: Bookkeeping,
                          expected: Counts) -> Counts:
        async with self._db.copying() as tx:
            if (await tx.fetch("SELECT EXISTS (SELECT 1 FROM games) OR EXISTS (SELECT 1 FROM dm_closed)"))[0][0]:
                raise CopyRefused("the target database is not empty; refusing to copy into it, nothing was written")
            async for batch in games:
                await tx.insert_rows("games", GAME_COLUMN_NAMES, [game_record(g) for g, _ in batch])
                await tx.insert_rows("orders", ORDER_COLUMN_NAMES, [
                    (g.id, o.seq, o.seat, o.user_id, o.text, json.dumps(o.events), o.undone, o.at)
                    for g, log in batch for o in log
                ])
            await tx.insert_rows("dm_closed", ("user_id", "at"), bookkeeping.dm_closed)
            await tx.insert_rows("end_votes", ("game_id", "user_id", "version", "at"), bookkeeping.end_votes)
            got = Counts(*(int(v) for v in (await tx.fetch(COUNTS))[0]))
            if got != expected:
                raise CopyRefused(f"the copy does not match its source ({got} != {expected}), so nothing was written")
        return got


class _Claims(Generic[C]):
    """Claims and shard leases (bot/leases.py), and the one way statements that return rows run."""

    _db: C

    async def _fetch(self, sql: str, params: Sequence[Any] = (), *, write: bool = False) -> list[Any]:
        """Every statement that returns rows outside a transaction goes through here (tests count them)."""
        return await self._db.fetch(sql, params, write=write)

    async def claim(self, key: str, owner: str, now: float, *, takeover_before: float = float("-inf")) -> bool:
        """True for the one process whose claim of ``key`` went in first (or took over a claim made
        before ``takeover_before``); everyone else gets False."""
        return await self._db.write(CLAIM, (key, owner, now, takeover_before)) == 1

    async def claim_command(self, key: str, owner: str, now: float, fingerprint: str, *, retry_since: float,
                            live_since: float, channel: str = "") -> tuple[bool, str | None, LiveStamp | None]:
        """Claim an interaction as ``claim`` does, and find whether it may be a retry: (claimed, the
        key of an unanswered identical command claimed since ``retry_since`` by a process whose lease
        is not live since ``live_since``, or None, what it saw of ``channel``'s live game)."""
        rows = await self._fetch(CLAIM_COMMAND, (key, owner, now, fingerprint, fingerprint, key, retry_since, owner,
                                                 live_since, channel, channel, channel), write=True)
        if not rows:
            return False, None, None
        return True, None if rows[0][0] is None else str(rows[0][0]), _stamp(rows[0][1:])

    async def claim_seeing(self, key: str, owner: str, now: float, channel: str) -> tuple[bool, LiveStamp | None]:
        """``claim`` (never taken over), and what the same statement saw of ``channel``'s live game."""
        rows = await self._fetch(CLAIM_SEEING, (key, owner, now, channel, channel, channel), write=True)
        return (True, _stamp(rows[0])) if rows else (False, None)

    async def set_outcome(self, key: str, owner: str, outcome: str) -> None:
        """What became of a claimed key (kept with the claim for whoever looks into an incident)."""
        await self._db.write(SET_OUTCOME, (outcome, key, owner))

    async def set_outcomes(self, outcomes: Sequence[tuple[str, str, str]]) -> None:
        """Several outcomes in one transaction (the bot writes them in batches, off the order path)."""
        async with self._db.transaction() as tx:
            for key, owner, outcome in outcomes:
                await tx.execute(SET_OUTCOME, (outcome, key, owner))

    async def mark_retried(self, key: str) -> bool:
        """Mark an unanswered claim as answered by its retry; True for the one retry that did it."""
        return await self._db.write("UPDATE claims SET outcome = 'retried' WHERE key = ? AND outcome = ''", (key,)) == 1

    async def claim_outcome(self, key: str) -> tuple[str, str] | None:
        """(owner, outcome) of a claimed key, None if nobody claimed it."""
        rows = await self._fetch("SELECT owner, outcome FROM claims WHERE key = ?", (key,))
        return (str(rows[0][0]), str(rows[0][1])) if rows else None

    async def prune_claims(self, before: float) -> int:
        """Forget claims made before ``before`` (Discord's interactions are dead after 15 minutes)."""
        return await self._db.write("DELETE FROM claims WHERE at < ?", (before,))

    async def take_lease(self, shard: int, count: int, owner: str, now: float, *, expired_before: float) -> bool:
        """Hold (or keep holding) ``shard`` of ``count``: False while another process's lease is live."""
        return await self._db.write(TAKE_LEASE, (shard, count, owner, now, expired_before)) == 1

    async def renew_lease(self, shard: int, owner: str, now: float) -> bool:
        """The heartbeat: False when the lease is no longer ``owner``'s (another took it over)."""
        return await self._db.write("UPDATE shard_leases SET heartbeat = ? WHERE shard = ? AND owner = ?",
                                    (now, shard, owner)) == 1

    async def release_lease(self, shard: int, owner: str) -> None:
        await self._db.write("DELETE FROM shard_leases WHERE shard = ? AND owner = ?", (shard, owner))

    async def leases(self) -> list[Lease]:
        rows = await self._fetch("SELECT shard, shard_count, owner, heartbeat FROM shard_leases ORDER BY shard")
        return [Lease(int(r[0]), int(r[1]), str(r[2]), float(r[3])) for r in rows]


class SqlStore(_Claims[C], _Copying[C]):
    """The repository the table service talks to, on whichever backend's connection it is given.

    One transaction per order: the order row, the new snapshot and the bumped version commit
    together or not at all, and every version check is in the SQL (``... WHERE id = ? AND version =
    ?``; no row changed means StaleVersion), so a stale command is rejected and never applied twice."""

    def __init__(self, db: C) -> None:
        self._db = db

    async def close(self) -> None:
        await self._db.close()

    # --- games -----------------------------------------------------------------------------
    async def create_game(self, *, channel: str, system: str, scenario: str, options: dict[str, str], seed: bytes,
                          commitment: str, status: str, snapshot: Any, counter: int, creator: str,
                          guild: str = "", rules: str = "") -> GameRow:
        now = time.time()
        try:
            rows = await self._fetch(INSERT_GAME, (channel, system, scenario, json.dumps(options), seed, commitment,
                                                   status, json.dumps(snapshot), counter, creator, now, now, now,
                                                   guild, rules), write=True)
        except self._db.unique_violation:  # the unique live-game / tools index: someone else was first
            raise ChannelTaken(channel) from None
        return dataclasses.replace(game_from_row(rows[0]), votes=0)

    async def game_by_id(self, game_id: int) -> GameRow | None:
        return _first_game(await self._fetch(f"{SELECT_GAMES} WHERE id = ?", (game_id,)))

    async def live_game(self, channel: str) -> GameRow | None:
        """The channel's game in set-up or running, if any."""
        return _first_game(await self._fetch(
            f"SELECT {GAME_COLUMNS}, {COUNT_VOTES} FROM games WHERE channel = ? AND status IN ('setup','running')",
            (channel,)))

    async def latest_game(self, channel: str) -> GameRow | None:
        """The channel's newest game (live or over), not counting its table tools."""
        return _first_game(await self._fetch(
            f"SELECT {GAME_COLUMNS}, {COUNT_VOTES} FROM games WHERE channel = ? AND system != 'tools'"
            " ORDER BY id DESC LIMIT 1", (channel,)))

    async def tools(self, channel: str) -> GameRow | None:
        return _first_game(await self._fetch(f"{SELECT_GAMES} WHERE channel = ? AND status = 'tools'", (channel,)))

    async def guild_games(self, guild: str, *, limit: int, offset: int = 0) -> list[GameRow]:
        """The server's games (not table-tools streams), the most recently changed first."""
        rows = await self._fetch(f"{SELECT_GAMES} WHERE guild = ? AND system != 'tools'"
                                 " ORDER BY updated DESC, id DESC LIMIT ? OFFSET ?", (guild, limit, offset))
        return [game_from_row(r) for r in rows]

    async def fill_guild(self, channel: str, guild: str) -> None:
        """Bookkeeping, no version bump: games made before schema 6 learn their server when their
        channel is next used."""
        await self._db.write("UPDATE games SET guild = ? WHERE channel = ? AND guild = ''", (guild, channel))

    async def sealed_streams(self, channel: str) -> list[GameRow]:
        rows = await self._fetch(f"{SELECT_GAMES} WHERE channel = ? AND system = 'tools' AND status = 'sealed'"
                                 " ORDER BY id", (channel,))
        return [game_from_row(r) for r in rows]

    async def publish_stream(self, tools: GameRow, *, seed: bytes, commitment: str, options: dict[str, str],
                             snapshot: Any, counter: int, creator: str, retire: str = "published") -> GameRow:
        """Retire a channel's table-tools stream (its seed is being published, or with ``retire``
        "sealed" kept secret) and open the next one, atomically: the channel is never left without
        its decks and hands' table, nor with two."""
        assert retire in ("published", "sealed")
        now = time.time()
        async with self._db.transaction() as tx:
            if await tx.execute("UPDATE games SET status = ?, version = version + 1, updated = ?"
                                " WHERE id = ? AND version = ?", (retire, now, tools.id, tools.version)) != 1:
                raise StaleVersion(tools.id)
            try:
                rows = await tx.fetch(INSERT_GAME, (tools.channel, tools.system, tools.scenario, json.dumps(options),
                                                    seed, commitment, "tools", json.dumps(snapshot), counter, creator,
                                                    now, now, now, tools.guild, tools.rules))
            except self._db.unique_violation:
                raise ChannelTaken(tools.channel) from None
        return game_from_row(rows[0])

    async def claim_due_games(
        self, now: float, limit: int = 500, channels: Collection[str] | None = None
    ) -> list[GameRow]:
        """Due running games, marked reminded at ``now`` by the same statement, so a second process's
        claim never gets them too. ``channels``: only games in these channels (None: all)."""
        if channels is None:
            rows = await self._fetch(self._db.claim_due, (now, now, limit), write=True)
        else:
            rows = await self._fetch(self._db.claim_due_in, (now, now, self._db.channel_list(channels), limit),
                                     write=True)
        return [game_from_row(r) for r in rows]

    async def count_games(self) -> int:
        rows = await self._fetch("SELECT COUNT(*) FROM games")
        return int(rows[0][0])

    async def update_game(self, game: GameRow, **changes: Any) -> GameRow:
        """Change columns of a game if its version is unchanged; bumps the version."""
        checked_columns(changes)
        encoded = {k: json.dumps(v) if k in JSON_COLUMNS else v for k, v in changes.items()}
        sets = ", ".join(f"{k} = ?" for k in encoded)
        now = time.time()
        if await self._db.write(f"UPDATE games SET {sets}, version = version + 1, updated = ? WHERE id = ? AND version = ?",
                                (*encoded.values(), now, game.id, game.version)) != 1:
            raise StaleVersion(game.id)
        stored: dict[str, Any] = {k: json.loads(v) if k in JSON_COLUMNS else v for k, v in encoded.items()}
        return dataclasses.replace(game, **stored, version=game.version + 1, updated=now)

    async def touch(self, game_id: int, **changes: Any) -> None:
        """Bookkeeping that is not part of the game's history (reminder times, status message id)."""
        checked_columns(changes)
        sets = ", ".join(f"{k} = ?" for k in changes)
        await self._db.write(f"UPDATE games SET {sets} WHERE id = ?", (*changes.values(), game_id))

    # --- orders ----------------------------------------------------------------------------
    async def save_order(self, game: GameRow, *, seat: str, user_id: str, text: str, events: list[dict[str, Any]],
                         snapshot: Any, counter: int, status: str) -> GameRow:
        """Append an order with its snapshot and version bump, atomically; StaleVersion if raced."""
        now = time.time()
        dumped = json.dumps(snapshot)
        async with self._db.transaction() as tx:
            if await tx.execute(SAVE_ORDER, (dumped, counter, status, now, now, game.id, game.version)) != 1:
                raise StaleVersion(game.id)
            await tx.execute(APPEND_ORDER, (game.id, game.id, seat, user_id, text, json.dumps(events), now))
        # the row as now stored, built rather than read back (this is every order's hot path)
        return dataclasses.replace(game, snapshot=json.loads(dumped), counter=counter, status=status,
                                   version=game.version + 1, updated=now, last_activity=now, last_reminded=0.0)

    async def orders(self, game_id: int, *, include_undone: bool = True) -> list[OrderRow]:
        sql = SELECT_ORDERS if include_undone else SELECT_ORDERS + " AND NOT undone"
        rows = await self._fetch(sql + " ORDER BY seq", (game_id,))
        if len(rows) < LONG_LOG:
            return [order_from_row(r) for r in rows]
        # a long game's log (3,000 orders: ~30 ms of JSON) is read out in a thread, so the event loop
        # runs between the thread's turns at the interpreter lock instead of stalling for all of it
        return await asyncio.to_thread(lambda: [order_from_row(r) for r in rows])

    async def mark_undone(self, game: GameRow, seq: int, *, snapshot: Any, counter: int) -> GameRow:
        """Mark one order undone (it stays in the log) with the rebuilt snapshot, atomically."""
        dumped, now = json.dumps(snapshot), time.time()
        async with self._db.transaction() as tx:
            if await tx.execute("UPDATE games SET snapshot = ?, counter = ?, version = version + 1, updated = ?,"
                                " status = 'running' WHERE id = ? AND version = ?",
                                (dumped, counter, now, game.id, game.version)) != 1:
                raise StaleVersion(game.id)
            await tx.execute("UPDATE orders SET undone = TRUE WHERE game_id = ? AND seq = ?", (game.id, seq))
        return dataclasses.replace(game, snapshot=json.loads(dumped), counter=counter, status="running",
                                   version=game.version + 1, updated=now)

    # --- direct messages -------------------------------------------------------------------
    async def set_dms_closed(self, user_id: str, closed: bool) -> None:
        if closed:
            await self._db.write("INSERT INTO dm_closed (user_id, at) VALUES (?, ?)"
                                 " ON CONFLICT (user_id) DO UPDATE SET at = excluded.at", (user_id, time.time()))
        else:
            await self._db.write("DELETE FROM dm_closed WHERE user_id = ?", (user_id,))

    async def dms_closed_users(self) -> set[str]:
        return {r[0] for r in await self._fetch("SELECT user_id FROM dm_closed")}

    async def dms_closed_since(self) -> dict[str, float]:
        """User id -> when their DMs were last found closed, so a retry can wait a while after it."""
        return {r[0]: float(r[1]) for r in await self._fetch("SELECT user_id, at FROM dm_closed")}

    # --- votes to end a game, and deployment settings --------------------------------------
    async def add_end_vote(self, game_id: int, user_id: str, version: int) -> None:
        """Record a player's vote to end the game as it stands at ``version``; votes cast at any other
        version are dropped, since the game has changed under them."""
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM end_votes WHERE game_id = ? AND version != ?", (game_id, version))
            await tx.execute("INSERT INTO end_votes (game_id, user_id, version, at) VALUES (?, ?, ?, ?)"
                             " ON CONFLICT (game_id, user_id) DO UPDATE SET version = excluded.version, at = excluded.at",
                             (game_id, user_id, version, time.time()))

    async def end_votes(self, game_id: int, version: int) -> set[str]:
        """Who voted to end the game while it stood at ``version`` (a vote does not bump the version)."""
        rows = await self._fetch("SELECT user_id FROM end_votes WHERE game_id = ? AND version = ?", (game_id, version))
        return {r[0] for r in rows}

    async def setting(self, key: str) -> str | None:
        rows = await self._fetch("SELECT value FROM settings WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    async def set_setting(self, key: str, value: str | None) -> None:
        if value is None:
            await self._db.write("DELETE FROM settings WHERE key = ?", (key,))
        else:
            await self._db.write("INSERT INTO settings (key, value, at) VALUES (?, ?, ?)"
                                 " ON CONFLICT (key) DO UPDATE SET value = excluded.value, at = excluded.at",
                                 (key, value, time.time()))

    async def settings_like(self, prefix: str) -> dict[str, str]:
        rows = await self._fetch("SELECT key, value FROM settings WHERE substr(key, 1, ?) = ?", (len(prefix), prefix))
        return {str(k): str(v) for k, v in rows}
