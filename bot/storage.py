"""The storage interface the table service and both front ends depend on, and ``open_store``.

Two backends implement it: embedded SQLite (``bot/store.py``, the default: a path or
``sqlite:///path``) and PostgreSQL (``bot/store_pg.py``, ``postgresql://...``) for communities
that run several bot processes on one database. Both guarantee the same things: one transaction
per order with the version checked in SQL (a stale write raises ``StaleVersion``, never applies
twice), at most one live game and one table-tools stream per channel (``ChannelTaken``), and
reminders claimed atomically so two processes never remind the same game twice.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit


class StaleVersion(Exception):
    """The game changed since it was loaded; the command must be retried on fresh state."""


class ChannelTaken(StaleVersion):
    """Another connection (a second bot process, e.g. during a deploy overlap) created the channel's
    live game or table tools between this one's check and its insert."""


class StoreUnavailable(Exception):
    """The database named by WARGAME_DB (or --db) cannot be used: a bad URL, an unreachable server,
    a refused login. The message is one line meant for whoever starts the bot."""


@dataclass
class GameRow:
    id: int
    channel: str
    system: str
    scenario: str
    options: dict[str, str]
    seed: bytes
    commitment: str
    status: str
    version: int
    snapshot: Any
    counter: int
    seats: dict[str, dict[str, str]]  # seat id -> {"user": id, "name": display name}
    creator: str
    created: float
    updated: float
    remind_after: float = 86400.0
    remind_every: float = 86400.0
    last_activity: float = 0.0
    last_reminded: float = 0.0
    status_message: str = ""
    guild: str = ""  # the Discord server's id ("" for the console, and for games made before schema 6 until filled)
    rules: str = ""  # the rules version it was created under (``Ruleset.rules_version``; "" before schema 8)
    # votes to end it on record when read (any public mark), or None when the read did not count
    # them: 0 spares the status its read of the votes. What a read saw, not the game: not compared
    votes: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class LiveStamp:
    """What a claim saw of its channel's live game in the same statement: which game, at which
    version, with how many votes to end it. A process holding that version needs no read."""

    game: int
    version: int
    votes: int


@dataclass
class OrderRow:
    seq: int
    seat: str
    user_id: str
    text: str
    events: list[dict[str, Any]]
    undone: bool
    at: float = field(default=0.0)


@dataclass(frozen=True)
class Lease:
    """Which process serves Discord shard ``shard`` of ``count``, as of its last ``heartbeat``."""

    shard: int
    count: int
    owner: str
    heartbeat: float


# Columns update_game / touch may set (names are spliced into SQL, so they are checked against this).
WRITABLE_COLUMNS = frozenset({
    "options", "snapshot", "seats", "status", "counter", "creator", "remind_after", "remind_every",
    "last_activity", "last_reminded", "status_message",
})
JSON_COLUMNS = frozenset({"options", "snapshot", "seats"})


def checked_columns(changes: dict[str, Any]) -> None:
    unknown = sorted(set(changes) - WRITABLE_COLUMNS)
    if unknown or not changes:
        raise ValueError(f"not a writable games column: {unknown or 'none given'}")


class Claims(Protocol):
    """One process per interaction and per Discord shard (bot/leases.py): claims and shard leases."""

    async def claim(self, key: str, owner: str, now: float, *, takeover_before: float = float("-inf")) -> bool:
        """Atomically claim ``key`` (an interaction id, a status post) for ``owner``: True for exactly
        one of several processes claiming it; a claim made before ``takeover_before`` may be taken over."""
        ...

    async def claim_command(self, key: str, owner: str, now: float, fingerprint: str, *, retry_since: float,
                            live_since: float, channel: str = "") -> tuple[bool, str | None, LiveStamp | None]:
        """Claim an interaction (as ``claim``) and name an unanswered identical earlier one whose
        process is gone (a retry after a crash), in one statement; with ``channel``, also what the
        statement saw of that channel's live game (None: none, or not claimed)."""
        ...

    async def claim_seeing(self, key: str, owner: str, now: float, channel: str) -> tuple[bool, LiveStamp | None]:
        """``claim`` (never taken over), and what the same statement saw of ``channel``'s live game."""
        ...

    async def mark_retried(self, key: str) -> bool: ...

    async def set_outcome(self, key: str, owner: str, outcome: str) -> None: ...

    async def set_outcomes(self, outcomes: Sequence[tuple[str, str, str]]) -> None:
        """Several (key, owner, outcome) at once, in one transaction."""
        ...

    async def claim_outcome(self, key: str) -> tuple[str, str] | None: ...

    async def prune_claims(self, before: float) -> int: ...

    async def take_lease(self, shard: int, count: int, owner: str, now: float, *, expired_before: float) -> bool:
        """Hold Discord shard ``shard`` unless another process's lease is live (heartbeat after ``expired_before``)."""
        ...

    async def renew_lease(self, shard: int, owner: str, now: float) -> bool: ...

    async def release_lease(self, shard: int, owner: str) -> None: ...

    async def leases(self) -> list[Lease]: ...


class Storage(Claims, Protocol):
    """What the service, the console and the Discord adapter use of a store; nothing else."""

    async def close(self) -> None: ...

    async def create_game(self, *, channel: str, system: str, scenario: str, options: dict[str, str], seed: bytes,
                          commitment: str, status: str, snapshot: Any, counter: int, creator: str,
                          guild: str = "", rules: str = "") -> GameRow:
        """Insert a game; ChannelTaken when the channel already has a live game (or tools)."""
        ...

    async def guild_games(self, guild: str, *, limit: int, offset: int = 0) -> list[GameRow]:
        """The server's games (not table-tools streams), the most recently changed first."""
        ...

    async def fill_guild(self, channel: str, guild: str) -> None:
        """Record the server of a channel's games that have none yet (made before schema 6)."""
        ...

    async def live_game(self, channel: str) -> GameRow | None:
        """The channel's game in set-up or running, if any."""
        ...

    async def latest_game(self, channel: str) -> GameRow | None:
        """The channel's newest game (live or over), not counting its table tools."""
        ...

    async def tools(self, channel: str) -> GameRow | None:
        """The channel's current table-tools stream."""
        ...

    async def sealed_streams(self, channel: str) -> list[GameRow]:
        """The channel's closed table-tools streams (status "sealed": seed still secret), oldest first."""
        ...

    async def publish_stream(self, tools: GameRow, *, seed: bytes, commitment: str, options: dict[str, str],
                             snapshot: Any, counter: int, creator: str, retire: str = "published") -> GameRow:
        """Retire a tools stream (as ``retire``: "published", or "sealed" to keep its seed secret) and
        open the next one in one transaction; StaleVersion if raced."""
        ...

    async def claim_due_games(
        self, now: float, limit: int = 500, channels: Collection[str] | None = None
    ) -> list[GameRow]:
        """Due running games, marked reminded at ``now`` in the same statement, so that of two
        processes scanning at once each game goes to exactly one. ``channels`` (None: every
        channel) limits the claim to the channels a sharded process serves, so each guild is reminded
        by the process that answers its commands; games elsewhere stay due for their own process."""
        ...

    async def update_game(self, game: GameRow, **changes: Any) -> GameRow:
        """Change columns if the version is unchanged (else StaleVersion); bumps the version."""
        ...

    async def touch(self, game_id: int, **changes: Any) -> None:
        """Bookkeeping outside the game's history (reminder times, status message id)."""
        ...

    async def save_order(self, game: GameRow, *, seat: str, user_id: str, text: str, events: list[dict[str, Any]],
                         snapshot: Any, counter: int, status: str) -> GameRow:
        """Append an order with its snapshot and version bump atomically; StaleVersion if raced."""
        ...

    async def orders(self, game_id: int, *, include_undone: bool = True) -> list[OrderRow]: ...

    async def mark_undone(self, game: GameRow, seq: int, *, snapshot: Any, counter: int) -> GameRow:
        """Mark one order undone (it stays in the log) with the rebuilt snapshot, atomically."""
        ...

    async def set_dms_closed(self, user_id: str, closed: bool) -> None: ...

    async def dms_closed_users(self) -> set[str]: ...

    async def dms_closed_since(self) -> dict[str, float]:
        """User id -> when their DMs were last found closed."""
        ...

    async def add_end_vote(self, game_id: int, user_id: str, version: int) -> None:
        """A player's vote to end the game as it stands at ``version`` (votes at other versions lapse)."""
        ...

    async def end_votes(self, game_id: int, version: int) -> set[str]: ...

    async def setting(self, key: str) -> str | None:
        """A deployment fact (not game history: never exported or migrated), e.g. the synced commands' hash."""
        ...

    async def set_setting(self, key: str, value: str | None) -> None:
        """Record (or with None forget) a deployment fact."""
        ...

    async def settings_like(self, prefix: str) -> dict[str, str]:
        """Every deployment fact whose key starts with ``prefix``."""
        ...


@dataclass(frozen=True)
class Counts:
    """What a copy between databases must preserve, compared before the copy commits."""

    games: int
    orders: int
    undone: int
    dm_closed: int
    versions: int  # the sum of every game's version: a row copied at another version shows here
    end_votes: int


@dataclass(frozen=True)
class Bookkeeping:
    """The rows beside the games that a copy keeps: closed DMs, pending votes to end a game."""

    dm_closed: list[tuple[str, float]]  # user id, when found closed
    end_votes: list[tuple[int, str, int, float]]  # game id, user id, the game's version voted on, when


GameWithOrders = tuple[GameRow, list[OrderRow]]


class Backend(Storage, Protocol):
    """A whole backend: the service's Storage plus what tests, benchmarks and ``python -m bot
    migrate`` need (reads by id, counts, copying whole databases)."""

    async def schema_version(self) -> int: ...

    async def game_by_id(self, game_id: int) -> GameRow | None: ...

    async def count_games(self) -> int: ...

    async def counts(self) -> Counts: ...

    def export_games(self, batch: int = 200) -> AsyncGenerator[list[GameWithOrders], None]:
        """Every game (tools streams too) with its whole order log, by id, in batches."""
        ...

    async def bookkeeping(self) -> Bookkeeping: ...

    async def import_copy(self, games: AsyncIterator[list[GameWithOrders]], bookkeeping: Bookkeeping,
                          expected: Counts) -> Counts:
        """Write a copy into this empty database in one transaction, keeping ids, versions and
        timestamps; refuses a non-empty database; rolls back unless the counts equal ``expected``."""
        ...


class CopyRefused(Exception):
    """A copy that must not happen (a non-empty target) or did not match (rolled back)."""


def is_postgres(url: str | Path) -> bool:
    return isinstance(url, str) and url.split(":", 1)[0].lower() in ("postgresql", "postgres")


def sqlite_path(url: str | Path) -> str:
    """The file a SQLite WARGAME_DB names: a plain path, or ``sqlite:///relative`` / ``sqlite:////absolute``."""
    text = str(url)
    if "://" not in text:
        return text
    parts = urlsplit(text)
    if parts.scheme.lower() != "sqlite":
        raise StoreUnavailable(f"unknown database URL scheme {parts.scheme!r}: "
                               "use a file path, sqlite:///path or postgresql://user@host/db")
    if parts.netloc:
        raise StoreUnavailable(f"{text!r} names a host; a SQLite URL is sqlite:///path (three slashes)")
    path = parts.path[1:] if parts.path.startswith("/") else parts.path
    if not path:
        raise StoreUnavailable(f"{text!r} names no file")
    return path
