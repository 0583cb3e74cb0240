"""The store calls on the order path, per call, on SQLite and PostgreSQL.

    .venv/bin/python benchmarks/store.py [--calls 2000] [--runs 3]

For each backend a fresh database (a SQLite file in a temporary folder; a throwaway PostgreSQL
server from tests/pg.py when its binaries exist) gets one running game, then times ``--calls`` of
each: ``live_game`` (the read every command starts with), ``save_order`` (an order's one write
transaction), ``update_game`` (a version-checked single statement) and ``orders`` (the log read).
Prints the median over ``--runs`` of the mean microseconds per call. To compare two trees, copy
this file into the other tree's benchmarks/ and run it there too. Exit code is always 0.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from bot.database import open_store  # noqa: E402
from tests.pg import PgServer, find_binaries  # noqa: E402

SNAPSHOT = {"ships": [{"name": f"ship{i}", "hex": "0101", "damage": [0] * 20} for i in range(20)]}


async def per_call(calls: int, step: Callable[[int], Awaitable[Any]]) -> float:
    start = time.perf_counter()
    for n in range(calls):
        await step(n)
    return (time.perf_counter() - start) / calls * 1e6


async def measure(url: str, calls: int) -> dict[str, float]:
    store: Any = await open_store(url)
    game = await store.create_game(channel="c", system="table", scenario="free", options={}, seed=bytes(32),
                                   commitment="c", status="running", snapshot=SNAPSHOT, counter=0, creator="u")
    box = [game]

    async def save(n: int) -> None:
        box[0] = await store.save_order(box[0], seat="north", user_id="u", text=f"o{n}", events=[{"n": n}],
                                        snapshot=SNAPSHOT, counter=n, status="running")

    async def update(n: int) -> None:
        box[0] = await store.update_game(box[0], counter=n)

    result = {
        "live_game": await per_call(calls, lambda n: store.live_game("c")),
        "save_order": await per_call(calls, save),
        "update_game": await per_call(calls, update),
        "orders(log)": await per_call(max(1, calls // 20), lambda n: store.orders(game.id)),
    }
    await store.close()
    return result


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    bindir = find_binaries()
    server = PgServer(bindir) if bindir is not None else None
    if server is not None:
        server.start()
    try:
        for backend in ("sqlite", "postgresql"):
            if backend == "postgresql" and server is None:
                print("postgresql: no server binaries, skipped")
                continue
            runs = []
            for run in range(args.runs):
                with tempfile.TemporaryDirectory() as tmp:
                    url = str(Path(tmp) / f"bench{run}.db") if server is None or backend == "sqlite" \
                        else await server.new_database()
                    runs.append(await measure(url, args.calls))
            print(backend + ": " + ", ".join(f"{k} {statistics.median(r[k] for r in runs):.0f} µs"
                                             for k in runs[0]))
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
