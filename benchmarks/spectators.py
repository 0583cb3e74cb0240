"""/roll in one channel while five replays and five verifies of 3,000-order games run in others.

    .venv/bin/python benchmarks/spectators.py [--case days-of-iron] [--orders 3000] [--db built.db]

One game of ``--orders`` orders is played through the real table service (as benchmarks/replay.py
does; ``--db`` starts from a file it built, copied first), then copied into five more channels, so
five games of that length are stored. The real table service then runs with its worker pool
(bot/workers.py, started and warmed up before timing) while one task gives ``/roll dice:2d6`` in
channel ``r`` back to back, and a loop-lag probe (a 5 ms sleep, timed) watches the event loop:

1. baseline: the rolls and the probe alone for ``--baseline-seconds``;
2. load: the same while five ``/game replay`` and five ``/game verify`` (each by a different user,
   one of each per game) are asked at once and run to their end.

Printed: /roll p50/p99 and count, and the longest event-loop stall, for both phases; each replay's
and verify's time to its answer (the pool runs two jobs at once: the rest queue), and the worker
CPU time each took in its worker; and the CPU time other programs took from the machine meanwhile.
Every roll and every job is counted, slow ones included. Targets (issue 26): /roll p99 < 50 ms in
the load phase, no stall over 50 ms, a verify's worker time <= 5 s, a replay's <= 5 s. PASS/MISS is
printed; the exit code is always 0 (a benchmark is not a test).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent), str(_HERE)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from replay import CASES, build  # noqa: E402

from bot import workers  # noqa: E402
from bot.service import TableService, User  # noqa: E402
from bot.store import Store  # noqa: E402
from games.core.rng import seed_from_number  # noqa: E402

T = TypeVar("T")
GAMES = 5
TARGET_ROLL_P99_MS = 50.0
TARGET_STALL_MS = 50.0
TARGET_JOB_S = 5.0
PROBE_S = 0.005


def copy_game(db: Path, channels: list[str]) -> None:
    """The game in channel ``c`` copied (row and orders) into each of ``channels``: stored games of
    the same length, each with its own id, so no answer is shared between them."""
    con = sqlite3.connect(db)
    cols = [r[1] for r in con.execute("PRAGMA table_info(games)") if r[1] != "id"]
    (game_id,) = con.execute("SELECT id FROM games WHERE channel = 'c'").fetchone()
    order_cols = [r[1] for r in con.execute("PRAGMA table_info(orders)") if r[1] != "game_id"]
    for channel in channels:
        picked = ", ".join("?" if c == "channel" else c for c in cols)
        cur = con.execute(f"INSERT INTO games ({', '.join(cols)}) SELECT {picked} FROM games WHERE id = ?",
                          (channel, game_id))
        con.execute(f"INSERT INTO orders (game_id, {', '.join(order_cols)}) SELECT ?, {', '.join(order_cols)} "
                    f"FROM orders WHERE game_id = ?", (cur.lastrowid, game_id))
    con.commit()
    con.close()


def timed(fn: Callable[..., T], *args: object) -> tuple[T, float, float]:
    """In a worker: ``fn(*args)`` with the CPU and wall seconds it took there."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn(*args)
    return out, time.process_time() - cpu, time.perf_counter() - wall


def warm() -> int:
    """In a worker: the imports a replay and a verify need, done before timing."""
    import render  # noqa: F401
    from bot.rooms import records  # noqa: F401

    return os.getpid()


def cpu_busy() -> float:
    """CPU seconds the whole machine has been busy (all but idle and iowait)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int | str) -> float:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


class Probe:
    """Rolls back to back in one channel and times the event loop's lateness, until stopped."""

    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        self.rolls: list[float] = []
        self.stalls: list[float] = []
        self.running = True

    async def roll(self) -> None:
        user = User("roller", "Roller")
        while self.running:
            t0 = time.perf_counter()
            out = await self.svc.handle("r", user, "roll", {"dice": "2d6"})
            self.rolls.append(time.perf_counter() - t0)
            assert out and out[0].kind != "error", out

    async def lag(self) -> None:
        while self.running:
            t0 = time.perf_counter()
            await asyncio.sleep(PROBE_S)
            self.stalls.append(time.perf_counter() - t0 - PROBE_S)

    async def run(self, until: Callable[[], Any]) -> None:
        tasks = [asyncio.create_task(self.roll()), asyncio.create_task(self.lag())]
        try:
            await until()
        finally:
            self.running = False
            await asyncio.gather(*tasks)

    def summary(self) -> dict[str, float]:
        rolls = sorted(self.rolls)
        return {"n": len(rolls), "p50": statistics.median(rolls) * 1000,
                "p99": rolls[min(len(rolls) - 1, int(len(rolls) * 0.99))] * 1000,
                "stall": max(self.stalls) * 1000, "stalls_over": sum(1 for s in self.stalls if s > TARGET_STALL_MS / 1000)}


class GcPauses:
    """The garbage collector's pauses in this process (the event loop's), per generation."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._start = 0.0
        gc.callbacks.append(self._seen)

    def _seen(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._start)

    def summary(self) -> str:
        return ", ".join(f"gen {g}: {len(p)} ({max(p, default=0) * 1000:.0f} ms longest)" for g, p in self.pauses.items())


async def measure(db: Path, baseline_s: float, freeze: bool = False) -> dict[str, Any]:
    seeds = iter(range(10**9))
    svc = TableService(await Store.open(db), mention=lambda u: f"@{u}", seed_source=lambda: seed_from_number(next(seeds)))
    # start the pool and import what the jobs need in both workers, before any timing
    pids = set(await asyncio.gather(*(workers.in_worker(warm) for _ in range(workers.POOL_SIZE * 2))))
    await svc.handle("r", User("roller", "Roller"), "roll", {"dice": "2d6"})  # the channel's stream starts
    jobs: list[dict[str, Any]] = []

    async def timed_work(fn: Callable[..., T], *args: object) -> T:
        out, cpu, wall = await workers.in_worker(timed, fn, *args)
        jobs.append({"fn": fn.__name__, "cpu": cpu, "wall": wall})
        return out

    svc.table.work = timed_work
    ours = [os.getpid(), *pids]

    if freeze:
        workers.freeze_start_up()  # what start-up left (imports, data packs, caches) is never scanned again
    base = Probe(svc)
    await base.run(lambda: asyncio.sleep(baseline_s))

    busy0, ours0, t0 = cpu_busy(), sum(process_cpu(p) for p in ours), time.perf_counter()
    answers: list[dict[str, Any]] = []

    async def ask(kind: str, channel: str) -> None:
        start = time.perf_counter()
        out = await svc.handle(channel, User(f"{kind}-{channel}", f"{kind} {channel}"), f"game {kind}", {})
        answers.append({"kind": kind, "seconds": time.perf_counter() - start, "text": out[0].text,
                        "ok": bool(out) and out[0].kind != "error" and (kind != "replay" or out[0].file is not None)})

    async def heavy() -> None:
        await asyncio.gather(*(ask(kind, f"g{i}") for i in range(GAMES) for kind in ("replay", "verify")))

    load, pauses = Probe(svc), GcPauses()
    await load.run(heavy)
    gc.callbacks.remove(pauses._seen)
    seconds = time.perf_counter() - t0
    other = cpu_busy() - busy0 - (sum(process_cpu(p) for p in ours) - ours0)
    await svc.store.close()
    workers.shutdown()
    return {"base": base.summary(), "load": load.summary(), "answers": answers, "jobs": jobs,
            "seconds": seconds, "other_cpu": other, "cpus": os.cpu_count() or 1, "gc": pauses.summary()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--case", default="days-of-iron", choices=list(CASES))
    ap.add_argument("--orders", type=int, default=3000)
    ap.add_argument("--db", type=Path, help="a file this script or benchmarks/replay.py built (copied, not changed)")
    ap.add_argument("--baseline-seconds", type=float, default=10.0)
    ap.add_argument("--gc-freeze", action="store_true", help="collect, then gc.freeze() after start-up, as the Discord bot does (bot.workers.freeze_start_up)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.db"
        if args.db:
            shutil.copy(args.db, db)
            given = len(sqlite3.connect(args.db).execute("SELECT seq FROM orders").fetchall())
        else:
            t0 = time.perf_counter()
            given = asyncio.run(build(args.case, args.orders, db))
            print(f"built a {given}-order {args.case} game in {time.perf_counter() - t0:.0f} s")
        copy_game(db, [f"g{i}" for i in range(GAMES)])
        r = asyncio.run(measure(db, args.baseline_seconds, args.gc_freeze))
    base, load = r["base"], r["load"]
    print(f"{GAMES} replays + {GAMES} verifies of {given}-order games ({args.case}) with the worker pool "
          f"({workers.POOL_SIZE} processes), while /roll runs back to back in another channel")
    print(f"{'phase':9} {'rolls':>6} {'p50 ms':>7} {'p99 ms':>7} {'longest stall ms':>17} {'stalls > 50 ms':>15}")
    for name, p in (("baseline", base), ("load", load)):
        print(f"{name:9} {p['n']:6d} {p['p50']:7.1f} {p['p99']:7.1f} {p['stall']:17.1f} {p['stalls_over']:15d}")
    ok_roll = load["p99"] < TARGET_ROLL_P99_MS
    ok_stall = load["stall"] < TARGET_STALL_MS
    print(f"/roll p99 under load {load['p99']:.1f} ms (baseline {base['p99']:.1f} ms): "
          f"{'PASS' if ok_roll else 'MISS'} (< {TARGET_ROLL_P99_MS:.0f} ms); longest stall {load['stall']:.1f} ms: "
          f"{'PASS' if ok_stall else 'MISS'} (< {TARGET_STALL_MS:.0f} ms)")
    for kind, fn in (("replay", "draw_replay"), ("verify", "verify_export")):
        answered = sorted(a["seconds"] for a in r["answers"] if a["kind"] == kind)
        work = sorted(j["cpu"] for j in r["jobs"] if j["fn"] == fn)
        walls = sorted(j["wall"] for j in r["jobs"] if j["fn"] == fn)
        failed = [a["text"][:120] for a in r["answers"] if a["kind"] == kind and not a["ok"]]
        ok = bool(work) and max(work) <= TARGET_JOB_S and not failed and len(work) == GAMES
        print(f"{kind}: answered in {', '.join(f'{s:.1f}' for s in answered)} s; worker CPU "
              f"{', '.join(f'{s:.2f}' for s in work)} s (wall in the worker {', '.join(f'{s:.1f}' for s in walls)} s): "
              f"{'PASS' if ok else 'MISS'} (worker time <= {TARGET_JOB_S:.0f} s each)")
        for text in failed:
            print(f"  failed: {text}")
    print(f"garbage collections in the bot's process under load{' (start-up frozen)' if args.gc_freeze else ''}: "
          f"{r['gc']}")
    print(f"load phase {r['seconds']:.1f} s; other programs took {r['other_cpu']:.1f} CPU-s of "
          f"{r['cpus']} CPUs x {r['seconds']:.1f} s (timings grow with it)")


if __name__ == "__main__":
    main()
