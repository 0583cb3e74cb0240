"""The reminder scan at 10k and 50k running games, against the old full scan in the same run.

    .venv/bin/python benchmarks/reminders.py [--games 10000,50000] [--due 20]

A fresh SQLite file per size is filled directly (one transaction) with running games whose
snapshots are realistically large (a few KB of JSON), ``--due`` of them idle long enough to be
reminded. Measured, each the median of 5 runs on the same file:

- baseline: the scan as it was before issue 11: read every running game in full (``SELECT`` of
  every column, snapshot included) and filter in Python, holding the store lock throughout;
- now: ``claim_due_games``, what the service runs: one UPDATE ... RETURNING on the partial index of
  ``remind_due`` that also marks the due games reminded (unmarked again, untimed, before each run).

Prints both times, the ratio, and how long the store lock was held (every other command in the
process waits that long). Exit code is always 0 (a benchmark is not a test).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from bot.store import Store  # noqa: E402
from bot.store_sql import GAME_COLUMNS, game_from_row  # noqa: E402

NOW = 10_000_000.0
SNAPSHOT = json.dumps({"ships": [{"name": f"ship{i}", "hex": "0101", "damage": [0] * 20} for i in range(20)]})


async def fill(store: Store, games: int, due: int) -> None:
    """``games`` running games, the first ``due`` of them idle for two days, the rest for a minute."""
    rows = [
        (f"ch{i}", "table", "free", "{}", bytes(32), "c", "running", SNAPSHOT, "u",
         NOW, NOW, NOW - (2 * 86400 if i < due else 60))
        for i in range(games)
    ]
    async with store._db.transaction() as tx:
        await tx.insert_rows("games", ("channel", "system", "scenario", "options", "seed", "commitment", "status",
                                       "snapshot", "creator", "created", "updated", "last_activity"), rows)


async def old_scan(store: Store, now: float) -> int:
    """Before issue 11: every running game read in full, then filtered here."""
    found = 0
    for row in [game_from_row(r) for r in await store._fetch(f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'running'")]:
        if now - row.last_activity < row.remind_after:
            continue
        if row.last_reminded and now - row.last_reminded < row.remind_every:
            continue
        found += 1
    return found


async def unmark(store: Store) -> None:
    """Every game back to never reminded, so each timed run finds the same due games."""
    await store._db.write("UPDATE games SET last_reminded = 0")


async def new_scan(store: Store, now: float) -> int:
    return len(await store.claim_due_games(now))


async def timed(scan: Callable[[Store, float], Awaitable[int]], store: Store) -> tuple[float, int]:
    times, found = [], 0
    for _ in range(5):
        await unmark(store)
        start = time.perf_counter()
        found = await scan(store, NOW)
        times.append(time.perf_counter() - start)
    return statistics.median(times), found


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default="10000,50000")
    parser.add_argument("--due", type=int, default=20)
    args = parser.parse_args()
    print(f"{'running games':>14} {'due':>5} {'old scan ms':>12} {'claim ms':>13} {'ratio':>8}")
    for games in (int(g) for g in args.games.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            store = await Store.open(Path(tmp) / "bench.db")
            await fill(store, games, args.due)
            old_s, old_found = await timed(old_scan, store)
            new_s, new_found = await timed(new_scan, store)
            await store.close()
        assert old_found == new_found == args.due, (old_found, new_found)
        print(f"{games:>14,} {args.due:>5} {old_s * 1000:>12.1f} {new_s * 1000:>13.2f} {old_s / new_s:>7.0f}x")
    print("Both scans hold the store lock for their whole time: that is how long every command waits.")


if __name__ == "__main__":
    asyncio.run(main())
