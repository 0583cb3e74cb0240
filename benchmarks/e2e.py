"""End-to-end benchmark: N concurrent games played through the fake Discord by the real bot.

    PYTHONPATH=. .venv/bin/python benchmarks/e2e.py                 # 100 games, 1,000 stored
    PYTHONPATH=. .venv/bin/python benchmarks/e2e.py --games 20 --stored 100 --seconds 10

The bot runs in its own process (real discord.py client, real table service, a real SQLite file
already holding ``--stored`` games) so its peak memory is its own. This process runs the fake
Discord and the players: each game's player to act asks autocomplete for their legal orders, picks
one, sends ``/order`` and waits for the reply carrying the board image; then thinks for an
exponentially distributed time (mean ``--think`` seconds; 0 = as fast as possible, a stress test).

Printed: p50/p99 latency from INTERACTION_CREATE to the arrival of the reply with the board image,
activations per second, the bot's peak RSS, and how much of the latency was drawing the board.
Targets (issue 6): with 100 concurrent games p50 < 60 ms and p99 < 250 ms per activation; peak
memory < 150 MB with 1,000 stored games.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MENTION = re.compile(r"<@(\d+)>")
SYSTEM = "ironclad-draughts"
SCENARIO = "duel"


# ------------------------------------------------------------------------------- the bot process
def run_bot(args: argparse.Namespace) -> None:
    """Child process: the real bot pointed at the fake, with the board drawing timed."""
    import discord
    import yarl

    from bot.discord_app import TableBot
    from render import render_png

    discord.http.Route.BASE = args.api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    drawing: list[float] = []

    def timed_render(view: Any, *, zoom: Any = None) -> bytes:
        began = time.perf_counter()
        png: bytes = render_png(view) if zoom is None else render_png(view, zoom=zoom)
        drawing.append(time.perf_counter() - began)
        return png

    async def main() -> None:
        bot = TableBot(
            db_path=args.db,
            guild_id=int(args.guild),
            renderer=timed_render,
            reminder_seconds=3600,
            guild_ready_timeout=0.05,
        )
        task = asyncio.create_task(bot.start("benchmark-token"))
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.readline)  # the parent says when to stop
        await bot.close()
        await asyncio.wait({task}, timeout=10)

    if args.profile:
        import cProfile

        cProfile.runctx("asyncio.run(main())", globals(), {"asyncio": asyncio, "main": main}, args.profile)
    else:
        asyncio.run(main())
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"peak_rss_mb": peak_mb, "draw_seconds": drawing}), flush=True)


# ------------------------------------------------------------------------------- stored games
async def store_games(db: str, count: int) -> None:
    """Fill the database with finished-looking and running games, as a busy server would have."""
    from bot.service import TableService, User
    from bot.store import Store

    store = await Store.open(db)
    service = TableService(store)
    a, b = User("1", "stored-a"), User("2", "stored-b")
    for i in range(count):
        channel = f"9{i:08d}"
        await service.handle(channel, a, "game new", {"system": SYSTEM, "scenario": SCENARIO})
        seats = await service.choices(channel, a, "game join", "seat", "")
        await service.handle(channel, a, "game join", {"seat": seats[0]})
        await service.handle(channel, b, "game join", {"seat": seats[1]})
        await service.handle(channel, a, "game start", {})
        for _ in range(4):
            _, to_act = await service.channel_state(channel)
            if not to_act:
                break
            who = a if to_act[0] == "1" else b
            legal = await service.choices(channel, who, "order", "text", "")
            await service.handle(channel, who, "order", {"text": legal[0]})
    await store.close()


# ------------------------------------------------------------------------------- the players
@dataclass
class Phase:
    games: int
    seconds: float
    set_up: int = 0
    started: float = 0.0
    until: float = 0.0
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    def start(self) -> None:
        self.started = time.monotonic()
        self.until = self.started + self.seconds
        self.ready.set()


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    without_image: int = 0
    errors: list[str] = field(default_factory=list)
    games_finished: int = 0


async def play(fake: Any, channel: str, users: list[Any], results: Results, think: float, phase: Phase) -> None:
    """One game's players: set up, then order until time is up (a finished game starts again)."""
    by_id = {u.id: u for u in users}

    async def setup() -> Any:
        await fake.run(users[0], "game new", {"system": SYSTEM, "scenario": SCENARIO}, channel=channel, timeout=30)
        seats = [
            c["value"]
            for c in await fake.autocomplete(users[0], "game join", {"seat": ""}, "seat", channel=channel, timeout=30)
        ]
        await fake.run(users[0], "game join", {"seat": seats[0]}, channel=channel, timeout=30)
        await fake.run(users[1], "game join", {"seat": seats[1]}, channel=channel, timeout=30)
        return await fake.run(users[0], "game start", channel=channel, timeout=30)

    last = await setup()
    phase.set_up += 1
    if phase.set_up == phase.games:
        phase.start()
    await phase.ready.wait()  # time only the steady state, not 100 games being created at once
    await asyncio.sleep(random.uniform(0, min(think, phase.seconds)))  # players do not all act at the same instant
    while time.monotonic() < phase.until:
        mentioned = [by_id[m] for m in MENTION.findall(last.text().rsplit("\n", 1)[-1]) if m in by_id]
        if "Game over" in last.text() or not mentioned:
            results.games_finished += "Game over" in last.text()
            await fake.run(users[0], "game end", channel=channel, timeout=30)
            last = await setup()
            continue
        who = mentioned[0]
        choices = await fake.autocomplete(who, "order", {"text": ""}, "text", channel=channel, timeout=30)
        if not choices:
            results.errors.append(f"no legal orders offered in {channel}")
            return
        ix = await fake.slash(who, "order", {"text": random.choice(choices)["value"]}, channel=channel)
        await fake.wait_for(lambda ix=ix: ix.image_at is not None or ix.ephemeral(), 30, "the board reply")
        if ix.image_latency is None:
            results.without_image += 1
            results.errors.append(ix.text()[:200])
        else:
            results.latencies.append(ix.image_latency)
        await fake.settled(ix, 30)
        last = ix
        if think > 0:
            await asyncio.sleep(min(random.expovariate(1 / think), max(0.0, phase.until - time.monotonic())))


async def benchmark(args: argparse.Namespace) -> dict[str, Any]:
    import discord  # noqa: F401 - imported so the fake's yarl/aiohttp versions match the bot's

    from tests.e2e.fake_discord import FakeDiscord

    workdir = Path(tempfile.mkdtemp(prefix="wargame-e2e-bench-"))
    db = str(workdir / "bench.db")
    began = time.perf_counter()
    await store_games(db, args.stored)
    stored_seconds = time.perf_counter() - began

    fake = FakeDiscord()
    await fake.start()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--bot", "--api", fake.api_base, "--gateway", str(fake.gateway_url),
        "--guild", fake.guild_id, "--db", db, *(["--profile", args.profile] if args.profile else []),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env,
    )  # fmt: skip
    try:
        await fake.wait_for(lambda: fake.identified.is_set() and fake.commands, 30, "the bot to connect and sync")
        await asyncio.sleep(0.2)
        channels = [fake.add_channel(f"game-{i}") for i in range(args.games)]
        players = [[fake.add_user(f"g{i}-a"), fake.add_user(f"g{i}-b")] for i in range(args.games)]
        results = Results()
        fake.requests.clear()
        phase = Phase(args.games, args.seconds)
        await asyncio.gather(
            *(play(fake, c, p, results, args.think, phase) for c, p in zip(channels, players, strict=True))
        )
        elapsed = time.monotonic() - phase.started
    finally:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(b"stop\n")
        await child.stdin.drain()
        out = await asyncio.wait_for(child.stdout.read(), 60)
        await child.wait()
        await fake.stop()
    bot = json.loads(out.decode().strip().splitlines()[-1])
    lat = sorted(results.latencies)
    drawing = bot["draw_seconds"]
    return {
        "games": args.games,
        "stored_games": args.stored,
        "think_seconds": args.think,
        "activations": len(lat),
        "seconds": round(elapsed, 1),
        "throughput_per_s": round(len(lat) / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(1000 * statistics.median(lat), 1) if lat else None,
        "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 1) if lat else None,
        "max_ms": round(1000 * lat[-1], 1) if lat else None,
        "draw_median_ms": round(1000 * statistics.median(drawing), 1) if drawing else None,
        # medians, because the bot also draws boards for set-up messages the players do not time
        "draw_share_of_latency": round(statistics.median(drawing) / statistics.median(lat), 2)
        if lat and drawing
        else None,
        "bot_peak_rss_mb": round(bot["peak_rss_mb"], 1),
        "games_finished": results.games_finished,
        "without_image": results.without_image,
        "violations": len(fake.violations),
        "errors": results.errors[:5],
        "storing_seconds": round(stored_seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    parser.add_argument("--stored", type=int, default=1000, help="games already in the database (default 1000)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to play (default 30)")
    parser.add_argument("--think", type=float, default=4.0, help="mean seconds between a reply and the next order")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.add_argument("--profile", default="", help="write a cProfile of the bot process to this file")
    parser.add_argument("--bot", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--api", help=argparse.SUPPRESS)
    parser.add_argument("--gateway", help=argparse.SUPPRESS)
    parser.add_argument("--guild", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bot:
        run_bot(args)
        return
    random.seed(1)
    result = asyncio.run(benchmark(args))
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{result['games']} concurrent games, {result['stored_games']} stored, think {result['think_seconds']} s mean"
    )
    print(f"  activations        {result['activations']} in {result['seconds']} s = {result['throughput_per_s']}/s")
    print(f"  latency to board   p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, max {result['max_ms']} ms"
          f"   (targets: p50 < 60, p99 < 250)")  # fmt: skip
    print(
        f"  board drawing      median {result['draw_median_ms']} ms, {result['draw_share_of_latency']} of the latency"
    )
    print(f"  bot peak memory    {result['bot_peak_rss_mb']} MB   (target < 150 MB with 1,000 stored games)")
    print(f"  (storing {result['stored_games']} games took {result['storing_seconds']} s before the run)")
    print(f"  games finished {result['games_finished']}, replies without image {result['without_image']}, "
          f"fake Discord violations {result['violations']}")  # fmt: skip
    if result["errors"]:
        print("  errors:", *result["errors"], sep="\n    ")


if __name__ == "__main__":
    main()
