"""The web companion under load: 50 viewers on one game and on 100 games, orders given meanwhile.

    .venv/bin/python benchmarks/web.py [--viewers 50] [--seconds 6] [--rounds 6] [--mode live|hammer|both]
                                       [--games one|many|both] [--process]

A fresh SQLite store gets hex-ironclads duels through the table service (each played through its
first turn). The web server runs in the same process and event loop as the orders (the
in-process ``WARGAME_WEB_PORT`` set-up, the harder case for the order path), or with ``--process``
as ``python -m bot web`` beside it on the same store. Two scenarios: ``--viewers`` viewers all on
one game, and the same number spread over 100 games. Meanwhile one player task gives orders
through ``TableService.handle`` back to back (fire orders, seals, moves; a finished game is
replaced by a new one in a channel of its own), far faster than any real table plays.

Two kinds of viewer:

- ``live`` (what a browser on the page does, ``static/app.js``): load the page (HTML, page JSON,
  board), open the live-update stream; each ``change`` event carries the page JSON, so fetch the
  new board (with the ETag held); every 2-6 s (a person clicking) look at a random replay step
  (page JSON and board). A game over, open the next of its chain. Here the player gives its
  orders in the watched games too (each at most every 0.5 s, the server's poll), so the viewers
  see them. "board page" times are the first loads and every board fetched after a change.
- ``hammer`` (the earlier benchmark, kept as a stress test; no browser does this): each viewer
  loops as fast as it can over the page JSON and board now, then a random replay step's JSON and
  board, with no ETag, i.e. 50 full reloads at once, all the time. The player orders in a game
  nobody watches.

The viewers run in a process of their own (as browsers do); an earlier version ran their HTTP
clients in the bot's process and event loop, charging their parsing to the order path. It also
ran only the hammer loop and reported its order-path figures as
"viewers watching"; that overstated what watching costs, so both are printed now.

Each scenario alternates ``--rounds`` times a phase of ``--seconds`` with no viewers (the web
up, nobody looking) and one with viewers (ABBA: every other round watches first), the player
giving the same kind of orders throughout, so a load that drifts (the machine is shared) falls on
both alike. Every accepted order is
counted in the phase it began in. Each phase prints the orders' p50/p99 and the CPU seconds the
bot, the web process, the viewers and the machine's other programs took; each scenario prints
the board page and replay step p50/p99 and the pooled order p99 without and with viewers, with
a bootstrap 90% interval of their ratio and each round's ratio (the spread). The issue asks the
order p99 with viewers be at most 10% worse: PASS when the whole interval is within +10%, MISS
when all of it is above, UNRESOLVED otherwise (a point estimate inside a wide interval proves
nothing either way). Exit code is always 0 (a benchmark is not a test).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent))

import aiohttp  # noqa: E402

from benchmarks.e2e import descendants, process_cpu  # noqa: E402
from bot.database import open_store  # noqa: E402
from bot.service import TableService, User  # noqa: E402
from bot.web.server import start  # noqa: E402
from games.core.rng import seed_from_number  # noqa: E402

ALICE, BOB, UMP = User("alice", "Alice"), User("bob", "Bob"), User("ump", "Ump")
CANDIDATES = ("Monitor fire Virginia", "Virginia fire Monitor", "seal", "Monitor move F", "Virginia move F",
              "Monitor move L", "Virginia move L", "Monitor hold", "Virginia hold")
CALM = tuple(c for c in CANDIDATES if "fire" not in c)  # a watched game lasts ~40 orders, not ~16


async def new_duel(svc: TableService, channel: str) -> None:
    await svc.handle(channel, ALICE, "game new", {"system": "hex-ironclads", "scenario": "duel"})
    for user, seat in ((ALICE, "union"), (BOB, "confederate"), (UMP, "umpire")):
        await svc.handle(channel, user, "game join", {"seat": seat})
    await svc.handle(channel, ALICE, "game start", {})


async def one_order(svc: TableService, channel: str, candidates: tuple[str, ...] = CANDIDATES) -> float | None:
    """Give the first order that is accepted (timing only that one); None when the game is over."""
    for text in candidates:
        for user in (ALICE, BOB):
            started = time.perf_counter()
            out = await svc.handle(channel, user, "order", {"text": text})
            took = time.perf_counter() - started
            if not any(o.kind == "error" for o in out):
                return took
            if any("is over" in o.text for o in out if o.kind == "error"):
                return None
    return None


class Player:
    """Gives orders back to back. A watched slot (a chain of games played one after another: a
    game over is followed by the next of its chain, as the viewers do) gets the next order when
    its last was ``every`` seconds ago, round robin; every other order goes to a game of the
    player's own channel that nobody watches. Every accepted order is timed and kept under the
    phase (no viewers, viewers) it began in; the workload is the same in both phases."""

    def __init__(self, svc: TableService, chains: list[list[str]] | None = None, game: int = 0,
                 every: float = 0.5) -> None:
        self.svc, self.game, self.every = svc, game, every
        self.chains = [list(c) for c in chains] if chains else []
        self.times: dict[str, list[float]] = {}
        self.phase = "setup"
        self.refused = 0
        self.ran_out = 0

    async def run(self, stop: asyncio.Event) -> None:
        await new_duel(self.svc, f"orders-{self.game}")
        turn, last = 0, [0.0] * len(self.chains)
        while not stop.is_set():
            slot = turn % len(self.chains) if self.chains else -1
            if slot >= 0 and self.chains[slot] and time.monotonic() - last[slot] >= self.every:
                turn += 1
                last[slot] = time.monotonic()
                channel = self.chains[slot][0]
            else:
                slot, channel = -1, f"orders-{self.game}"
            phase = self.phase
            took = await one_order(self.svc, channel, CALM if slot >= 0 else CANDIDATES)
            if took is not None:
                self.times.setdefault(phase, []).append(took)
            elif slot >= 0:
                self.chains[slot].pop(0)
                self.ran_out += not self.chains[slot]
            else:
                self.game += 1
                await new_duel(self.svc, f"orders-{self.game}")
            await asyncio.sleep(0.02)


def verdict(low: float, high: float) -> str:
    """PASS only when the whole 90% interval of the p99 change is within +10%, MISS when all of it
    is above; otherwise the run cannot tell (more rounds, longer phases or a quieter machine)."""
    if high <= 0.10:
        return "PASS"
    return "MISS" if low > 0.10 else "UNRESOLVED"


def bootstrap(alone: list[float], watched: list[float], draws: int = 1000) -> tuple[float, float]:
    """A 90% interval of (p99 with viewers / p99 without - 1), resampling both sets of orders: how
    far the ratio could move by chance alone (a tail of a few hundred orders is noisy)."""
    if not alone or not watched:
        return float("nan"), float("nan")
    rng = random.Random(1)
    ratios = sorted(pct(rng.choices(watched, k=len(watched)), 0.99) / pct(rng.choices(alone, k=len(alone)), 0.99) - 1
                    for _ in range(draws))
    return ratios[int(0.05 * draws)], ratios[int(0.95 * draws)]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


async def viewer(http: aiohttp.ClientSession, url: str, games: list[int], stop: asyncio.Event,
                 board: list[float], step: list[float], index: int) -> None:
    rng = random.Random(index)  # each viewer its own games (one seed for all put them all on one game)
    while not stop.is_set():
        game = rng.choice(games)
        started = time.perf_counter()
        async with http.get(f"{url}/api/g/{game}/page") as r:
            data = await r.json()
        async with http.get(f"{url}/api/g/{game}/board.png?{data['board']}") as r:
            await r.read()
        board.append(time.perf_counter() - started)
        k = rng.randint(0, data["steps"])
        started = time.perf_counter()
        async with http.get(f"{url}/api/g/{game}/page?step={k}") as r:
            data = await r.json()
        async with http.get(f"{url}/api/g/{game}/board.png?{data['board']}") as r:
            await r.read()
        step.append(time.perf_counter() - started)


async def live_viewer(http: aiohttp.ClientSession, url: str, chains: list[list[int]], stop: asyncio.Event,
                      board: list[float], step: list[float], changes: list[int], index: int) -> None:
    """A browser on the page: load it, follow the live stream, now and then look at a replay step;
    when its game is over, open the next game of its chain (the one the player went on to)."""
    rng = random.Random(index)  # each viewer its own game (one seed for all put them all on one game)
    chain = list(rng.choice(chains))
    while chain and not stop.is_set():
        await watch_game(http, url, chain.pop(0), rng, stop, board, step, changes)


async def watch_game(http: aiohttp.ClientSession, url: str, game: int, rng: random.Random, stop: asyncio.Event,
                     board: list[float], step: list[float], changes: list[int]) -> None:
    """One game's page until the game is over or the run stops."""
    tags: dict[str, tuple[str, bytes]] = {}

    async def get(path: str) -> bytes:
        headers = {"If-None-Match": tags[path][0]} if path in tags else {}
        async with http.get(f"{url}{path}", headers=headers) as r:
            body = await r.read()
            if r.status == 200 and "ETag" in r.headers:
                tags[path] = (r.headers["ETag"], body)
            return tags[path][1] if r.status == 304 else body

    async def refresh(query: str = "") -> tuple[float, dict[str, Any]]:
        started = time.perf_counter()
        data = json.loads(await get(f"/api/g/{game}/page{query}"))
        await get(f"/api/g/{game}/board.png?{data['board']}")
        return time.perf_counter() - started, data

    started = time.perf_counter()
    async with http.get(f"{url}/g/{game}") as r:
        await r.read()
    took, data = await refresh()
    board.append(time.perf_counter() - started)
    if data["status"]["state"] != "running":
        return
    changed = asyncio.Event()
    pushed: list[dict[str, Any]] = []

    async def follow() -> None:
        event = b""
        async with http.get(f"{url}/api/g/{game}/events", timeout=aiohttp.ClientTimeout(total=None)) as r:
            async for line in r.content:
                if line.startswith(b"event: "):
                    event = line[7:].strip()
                elif line.startswith(b"data: ") and event == b"change":
                    pushed.append(json.loads(line[6:]))  # the live page, as app.js shows it
                    changes.append(game)
                    changed.set()

    stream = asyncio.create_task(follow())
    try:
        next_step = time.monotonic() + rng.uniform(2, 6)
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), max(0.0, next_step - time.monotonic()))
            if stop.is_set():
                break
            if changed.is_set():
                changed.clear()
                started = time.perf_counter()
                data = pushed[-1]
                await get(f"/api/g/{game}/board.png?{data['board']}")
                board.append(time.perf_counter() - started)
                if data["status"]["state"] != "running":
                    return
            else:
                took, _ = await refresh(f"?step={rng.randint(0, max(data['steps'], 1))}")
                step.append(took)
                next_step = time.monotonic() + rng.uniform(2, 6)
    finally:
        stream.cancel()
        with contextlib.suppress(asyncio.CancelledError, aiohttp.ClientError):
            await stream


def run_viewers(url: str, chains: list[list[int]], viewers: int, seconds: float, mode: str, ready: Any,
                go: Any, out: Any) -> None:
    """The viewers, in a process of their own (browsers are not in the bot's process): their
    HTTP clients must not take the bot's CPU time or GIL and be counted as the web's cost."""

    async def watch() -> tuple[list[float], list[float], list[int], float]:
        board: list[float] = []
        step: list[float] = []
        changes: list[int] = []
        stop = asyncio.Event()
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=2 * viewers + 10)) as http:
            ready.set()
            await asyncio.to_thread(go.wait)
            began = sum(os.times()[:2])
            if mode == "live":
                tasks = [asyncio.create_task(live_viewer(http, url, chains, stop, board, step, changes, i))
                         for i in range(viewers)]
            else:
                firsts = [c[0] for c in chains]
                tasks = [asyncio.create_task(viewer(http, url, firsts, stop, board, step, i)) for i in range(viewers)]
            await asyncio.sleep(seconds)
            stop.set()
            await asyncio.gather(*tasks)
        return board, step, changes, sum(os.times()[:2]) - began

    out.put(asyncio.run(watch()))


class Cpu:
    """CPU seconds over a phase: the whole machine's busy time, the bot's process and the web's
    (each with its drawing processes); the viewers' process reports its own. The rest is other
    programs': the order path's tail grows with it, so compare phases only when it is alike."""

    def __init__(self, web: int | None, viewers: int | None) -> None:
        self.web, self.viewers = web, viewers
        self.start = self.now()

    def now(self) -> dict[str, float]:
        tick = os.sysconf("SC_CLK_TCK")
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        taken = {"machine": (sum(fields) - fields[3] - fields[4]) / tick}
        tree = descendants(os.getpid())
        web = [self.web, *descendants(self.web)] if self.web else []
        viewers = [self.viewers, *descendants(self.viewers)] if self.viewers else []
        mine = [p for p in tree if p not in web and p not in viewers]
        taken["bot"] = sum(process_cpu(p) for p in (os.getpid(), *mine))
        if web:
            taken["web"] = sum(process_cpu(p) for p in web)
        return taken

    def used(self, viewers: float | None) -> dict[str, float]:
        end = self.now()
        used = {name: end[name] - self.start.get(name, 0.0) for name in end}
        if viewers is not None:
            used["viewers"] = viewers
        used["other"] = used["machine"] - sum(v for k, v in used.items() if k != "machine")
        return used


def cpu_text(used: dict[str, float], seconds: float) -> str:
    names = [n for n in ("bot", "web", "viewers") if n in used]
    return ("CPU s " + ", ".join(f"{n} {used[n]:.1f}" for n in names)
            + f", other programs {used['other']:.1f} of {os.cpu_count()} x {seconds:.0f}")


async def scenario(svc: TableService, url: str, chains: list[list[str]], id_of: dict[str, int],
                   args: argparse.Namespace, mode: str, tag: int, web_pid: int | None) -> tuple[float, float]:
    """Rounds of (no viewers, viewers) under the same orders; each phase's figures, then the pooled ones.
    Returns the pooled order p99 without and with viewers."""
    stop = asyncio.Event()
    player = Player(svc, chains if mode == "live" else None, game=10_000 + tag * 1000)
    order_task = asyncio.create_task(player.run(stop))
    context = multiprocessing.get_context("spawn")
    board: list[float] = []
    step: list[float] = []
    changes: list[int] = []
    where = "one game" if len(chains) == 1 else f"{len(chains)} games"
    print(f"[{mode}] {args.viewers} viewers on {where}, {args.rounds} rounds of {args.seconds:.0f} s without "
          f"then {args.seconds:.0f} s with viewers:", flush=True)
    spreads: list[str] = []
    try:
        for round_no in range(args.rounds):
            # ABBA: every other round watches first, so a load that rises or falls within a round
            # (the machine is shared) does not always fall on the same phase
            for phase in ("alone", "viewers") if round_no % 2 == 0 else ("viewers", "alone"):
                proc = None
                if phase == "viewers":
                    ready, go, out = context.Event(), context.Event(), context.Queue()
                    # the viewers open the game each chain is at now (the player's)
                    ids = [[id_of[c] for c in chain] for chain in (player.chains or chains)]
                    proc = context.Process(target=run_viewers,
                                           args=(url, ids, args.viewers, args.seconds, mode, ready, go, out))
                    proc.start()
                    if args.pin and proc.pid is not None:  # the viewers beside the web, off the bot's core
                        os.sched_setaffinity(proc.pid, set(range(os.cpu_count() or 1)) - os.sched_getaffinity(0))
                    await asyncio.to_thread(ready.wait, 120)
                key = f"{phase}-{round_no}"
                cpu = Cpu(web_pid, proc.pid if proc else None)
                if proc is not None:
                    go.set()
                before = len(player.times.get(key, []))
                player.phase = key
                started = time.monotonic()
                viewers_cpu = None
                await asyncio.sleep(args.seconds)  # the phase: orders are counted in it, as long with or without viewers
                player.phase = "between"
                if proc is not None:
                    got = await asyncio.to_thread(out.get)
                    board += got[0]
                    step += got[1]
                    changes += got[2]
                    viewers_cpu = got[3]
                used = cpu.used(viewers_cpu)
                if proc is not None:
                    await asyncio.to_thread(proc.join)
                times = player.times.get(key, [])[before:]
                print(f"  round {round_no + 1} {'viewers   ' if proc else 'no viewers'}: orders p50 "
                      f"{pct(times, 0.5):.1f} ms p99 {pct(times, 0.99):.1f} ms ({len(times)}); "
                      f"{cpu_text(used, time.monotonic() - started)}", flush=True)
            alone = player.times.get(f"alone-{round_no}", [])
            watched = player.times.get(f"viewers-{round_no}", [])
            spreads.append(f"{pct(watched, 0.99) / pct(alone, 0.99) - 1:+.0%}")
    finally:
        stop.set()
        await order_task
    alone = [t for k, v in player.times.items() if k.startswith("alone") for t in v]
    watched = [t for k, v in player.times.items() if k.startswith("viewers") for t in v]
    print(f"  board page p50 {pct(board, 0.5):.1f} ms p99 {pct(board, 0.99):.1f} ms ({len(board)} loads); "
          f"replay step p50 {pct(step, 0.5):.1f} ms p99 {pct(step, 0.99):.1f} ms ({len(step)})"
          + (f"; {len(changes)} change events seen" if mode == "live" else ""), flush=True)
    worse = pct(watched, 0.99) / pct(alone, 0.99) - 1
    low, high = bootstrap(alone, watched)
    print(f"  orders without viewers p50 {pct(alone, 0.5):.1f} p99 {pct(alone, 0.99):.1f} ms ({len(alone)}), "
          f"with viewers p50 {pct(watched, 0.5):.1f} p99 {pct(watched, 0.99):.1f} ms ({len(watched)}): "
          f"p99 {worse:+.0%} (90% interval {low:+.0%}..{high:+.0%}; rounds: {', '.join(spreads)}) -> "
          f"{verdict(low, high)} (at most +10%)" + (f"; {player.ran_out} watched chains ran out" if player.ran_out else ""), flush=True)
    return pct(alone, 0.99), pct(watched, 0.99)


async def duel_chain(svc: TableService, prefix: str, length: int) -> tuple[list[str], list[int]]:
    """``length`` duels, each played through its first orders: their channels and game ids."""
    channels, ids = [], []
    for k in range(length):
        channel = f"{prefix}-{k}"
        await new_duel(svc, channel)
        for _ in range(6):
            await one_order(svc, channel)
        row = await svc.store.latest_game(channel)
        assert row is not None
        channels.append(channel)
        ids.append(row.id)
    return channels, ids


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=6.0, help="length of each phase")
    parser.add_argument("--rounds", type=int, default=6, help="rounds of (no viewers, viewers) per scenario")
    parser.add_argument("--mode", choices=("live", "hammer", "both"), default="both")
    parser.add_argument("--games", choices=("one", "many", "both"), default="both")
    parser.add_argument("--process", action="store_true", help="serve the web from python -m bot web, not in-process")
    parser.add_argument("--pin", action="store_true",
                        help="with --process: the bot on CPU 0, the web and the viewers on CPU 1 (a deployment "
                             "that gives the web its own core, e.g. docker's cpuset)")
    args = parser.parse_args()
    if args.pin:
        if not args.process or len(os.sched_getaffinity(0)) < 2:
            parser.error("--pin needs --process and at least 2 CPUs")
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    folder = Path(tempfile.mkdtemp(prefix="web-bench-"))
    store = await open_store(folder / "bench.db")
    counter = iter(range(10**9))
    svc = TableService(store, seed_source=lambda: seed_from_number(next(counter)))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    web_pid = None
    if args.process:  # python -m bot web on the same store, as a deployment beside the bot would run it
        env = {**os.environ, "WARGAME_DB": str(folder / "bench.db"), "WARGAME_WEB_PORT": str(port),
               "WARGAME_WEB_RATE": "1000000", "PYTHONPATH": str(_HERE.parent)}
        web_cpus = set(os.sched_getaffinity(0)) ^ set(range(os.cpu_count() or 1)) if args.pin else None
        proc = subprocess.Popen([sys.executable, "-m", "bot", "web"], env=env, stderr=subprocess.DEVNULL,
                                preexec_fn=(lambda: os.sched_setaffinity(0, web_cpus)) if web_cpus else None)
        web_pid = proc.pid
        runner = None
        for _ in range(300):  # until it listens (a loaded machine starts it slowly)
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            except OSError:
                await asyncio.sleep(0.1)
    else:
        runner = await start(store, svc, host="127.0.0.1", port=port, rate=1e6, burst=1e6)
    print(f"web {'as python -m bot web' if args.process else 'in the bot process'}"
          f"{' (bot pinned to CPU ' + str(sorted(os.sched_getaffinity(0))) + ', web and viewers to the rest)' if args.pin else ''}; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs at the start", flush=True)
    try:
        modes = ("live", "hammer") if args.mode == "both" else (args.mode,)
        sizes = {"one": (1,), "many": (100,), "both": (1, 100)}[args.games]
        results = []
        for tag, (mode, count) in enumerate((m, c) for m in modes for c in sizes):
            # a watched game lasts about 35 orders: a chain long enough for every round at 2 orders/s
            length = max(2, int(args.rounds * 2 * args.seconds * 2 / 30) + 2) if count == 1 else 2
            built = [await duel_chain(svc, f"watch-{tag}-{i}", length if mode == "live" else 1) for i in range(count)]
            chains = [channels for channels, _ in built]
            id_of = {c: g for channels, ids in built for c, g in zip(channels, ids, strict=True)}
            results.append((mode, count, await scenario(svc, url, chains, id_of, args, mode, tag, web_pid)))
        print("summary (order p99 without -> with viewers):", "; ".join(
            f"{m} {'one game' if c == 1 else f'{c} games'} {a:.1f} -> {w:.1f} ms ({w / a - 1:+.0%})"
            for m, c, (a, w) in results))
    finally:
        if runner is not None:
            await runner.cleanup()
        else:  # it stops cleanly on SIGTERM, closing its drawing process
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
