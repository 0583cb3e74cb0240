"""CPU and store calls per order cycle of the bot itself, in-process, against older code in the same run.

    PYTHONPATH=. .venv/bin/python benchmarks/order_path.py [--orders 60] [--cases draughts,...] [--against DIR]

One order cycle is what a player's order costs the bot, as the default mix of benchmarks/e2e.py
gives it: an autocomplete of ``/order text:`` (its interaction claim, then the legal orders), the
``/order`` (its claim, the command, the buttons under its post, the board drawn), the claim's
outcome, and the refresh of the pinned status message. The cycle runs through the real
``TableBot`` methods (``once.claim``, ``_prepare``, ``_refresh_status``, ``once.record_outcome``)
on a real SQLite file, with Discord left out: nothing is sent, and the status message's post or
edit is a stand-in that returns at once. Each player picks among the legal orders autocomplete
offered with a seeded random stream, so the same games are played by every code measured.

Two modes: ``service``, the bot without a renderer (every store call and all the table service's
work, no drawing), and ``bot``, the whole bot with its renderer (the board drawn in its thread).
CPU is ``time.process_time`` over the timed cycles only (every thread of the process: the drawing
thread and SQLite's too), so other programs on a shared machine do not count; a few cycles are
played first, untimed. Store calls are every public call on the store made during a timed cycle.
The digest is a hash of every output text of every cycle: equal digests mean the code measured
said exactly the same things.

``--against DIR`` runs the same cases with the code of another checkout (e.g. ``git worktree add
/tmp/old <commit>``) in a child process each, in the same run: the before-and-after of a change.
Target (issue 25): at most 9 ms of CPU per order for the whole bot at the default mix, and at most
3 store calls per order's interaction. The exit code is always 0 (a benchmark is not a test).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

_HERE = Path(__file__).resolve().parent
_CODE = Path(os.environ.get("ORDER_BENCH_CODE") or _HERE.parent)  # whose bot/, games/, render/ run (--against)
sys.path[:] = [str(_CODE)] + [p for p in sys.path if Path(p or ".").resolve() not in (_HERE, _HERE.parent)]
sys.path.append(str(_HERE))  # last: for procstat alone (this folder's render.py must not shadow the package)
from procstat import descendants, process_cpu  # noqa: E402

CASES = {  # name -> (system, scenario, options)
    "draughts": ("ironclad-draughts", "duel", ""),
    "days-of-iron": ("days-of-iron", "spicheren", ""),
    "hex-ironclads": ("hex-ironclads", "hampton-roads", ""),
}
WARM_UP = 3  # cycles played untimed first in each case (imports, data packs, the first drawing)
TARGET_MS = 9.0


class Counted:
    """Counts the store's public calls while ``on``."""

    def __init__(self, store: Any) -> None:
        self.on = False
        self.calls = 0
        self.by_name: dict[str, int] = {}
        for name in dir(store):
            method = getattr(store, name)
            if not name.startswith("_") and name != "close" and asyncio.iscoroutinefunction(method):
                setattr(store, name, self._wrap(name, method))

    def _wrap(self, name: str, method: Any) -> Any:
        async def call(*a: Any, **k: Any) -> Any:
            if self.on:
                self.calls += 1
                self.by_name[name] = self.by_name.get(name, 0) + 1
            return await method(*a, **k)

        return call


def interaction(number: int, kind: Any, user: str, channel: str, data: dict[str, Any]) -> Any:
    """What the bot's claim and outcome read of an interaction."""
    return SimpleNamespace(id=number, type=kind, user=SimpleNamespace(id=int(user)), channel_id=int(channel),
                           data=data, extras={})


async def run(case: str, mode: str, orders: int, draw_workers: int = 0) -> dict[str, Any]:
    import discord

    from bot.database import open_store
    from bot.discord_app import READ_ONLY, TableBot
    from bot.service import TableService, User
    from games.core.rng import seed_from_number
    from games.core.ruleset import UMPIRE, get_ruleset

    system, scenario, options = CASES[case]
    rules = get_ruleset(system)
    seeds = iter(range(10**9))
    folder = tempfile.mkdtemp(prefix="order-path-")

    class Bot(TableBot):
        async def _put_status(self, channel: str, message_id: str | None, embed: Any) -> str:
            return message_id or "1"  # Discord left out: the post (or edit) answers at once

    renderer = None
    if mode == "bot":
        from render import render_png

        renderer = render_png
    bot = Bot(db_path=os.path.join(folder, "bench.db"), renderer=renderer, load_renderer=False, status_delay=0.0,
              draw_workers=draw_workers if mode == "bot" else 0)
    store = await open_store(bot.db_path)
    service = TableService(store, seed_source=lambda: seed_from_number(next(seeds)))
    bot._service = service
    counted = Counted(store)
    chooser = random.Random(25)
    digest = hashlib.sha256()
    numbers = iter(range(10**6, 10**9))
    games = 0

    async def new_game() -> tuple[str, dict[str, User]]:
        nonlocal games
        games += 1
        channel = f"{7_000_000 + games}"
        creator = User("100", "creator")
        opts = {"system": system, "scenario": scenario} | ({"options": options} if options else {})
        await service.handle(channel, creator, "game new", opts)
        row = await store.live_game(channel)
        assert row is not None
        users: dict[str, User] = {}
        for n, seat in enumerate(rules.seats(rules.decode(row.snapshot)), start=1):
            if seat.id != UMPIRE and not seat.optional:
                users[str(n)] = User(str(n), seat.label)
                await service.handle(channel, users[str(n)], "game join", {"seat": seat.id})
        started = await service.handle(channel, creator, "game start", {})
        assert not any(o.kind == "error" for o in started), started
        return channel, users

    async def cycle(channel: str, user: Any) -> bool:
        """One order cycle as the bot runs it; False if the player had no order to give."""
        ac = interaction(next(numbers), discord.InteractionType.autocomplete, user.id, channel, {"name": "order"})
        if not await bot.once.claim(ac):
            raise AssertionError("the autocomplete was not claimed")
        pairs = await service.choice_pairs(channel, user, "order", "text", "", {})
        legal = [value for _, value in pairs if not value.startswith("concede")]
        if not legal:
            return False
        text = chooser.choice(legal)
        ix = interaction(next(numbers), discord.InteractionType.application_command, user.id, channel,
                         {"name": "order", "options": [{"name": "text", "value": text}]})
        if not await bot.once.claim(ix):
            raise AssertionError("the order was not claimed")
        assert not await bot.once.answered_as_retry(ix, "order")
        prepared = await bot._prepare(channel, user, "order", {"text": text}, guild="1")
        for o in prepared.outputs:
            digest.update(f"{o.kind}|{o.to}|{o.channel}|{o.text}|{o.view is not None}".encode())
        if prepared.offer is not None:
            digest.update(repr(prepared.offer).encode())
        if "order" not in READ_ONLY and any(o.kind != "error" for o in prepared.outputs):
            bot._status_pending.add(channel)
            await bot._refresh_status(channel)  # what refresh_status spawns, awaited here
        await bot.once.record_outcome(ix)
        return True

    collecting: dict[str, float] = {"began": 0.0, "seconds": 0.0, "full": 0}

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        """The garbage collector's own time (it lands in whatever function allocated last)."""
        if phase == "start":
            collecting["began"] = time.process_time()
        elif counted.on:
            collecting["seconds"] += time.process_time() - collecting["began"]
            collecting["full"] += info.get("generation") == 2

    gc.callbacks.append(on_gc)
    timed = cpu = workers_cpu = 0.0
    given = skipped = 0
    channel, users = await new_game()
    step = 0
    while given < orders:
        state, to_act = await service.channel_state(channel)  # the players' side: neither timed nor counted
        if state != "running" or not to_act:
            channel, users = await new_game()
            continue
        user = users.get(to_act[0]) or next(iter(users.values()))
        measured = step >= WARM_UP
        workers = descendants(os.getpid()) if draw_workers else []  # read outside the timed cycle
        workers_before = sum(process_cpu(pid) for pid in workers)
        counted.on = measured
        began = time.process_time()
        ok = await cycle(channel, user)
        spent = time.process_time() - began
        counted.on = False
        if measured:
            workers_cpu += sum(process_cpu(pid) for pid in workers) - workers_before
        step += 1
        if not ok:
            skipped += 1
            if skipped > 50:
                channel, users = await new_game()
                skipped = 0
            continue
        if measured:
            cpu += spent
            given += 1
        timed += spent
    # what the cycles left running (the claims' outcomes, written in batches): its store calls count
    counted.on = True
    bot._closing.set()
    await asyncio.gather(*list(bot._background))
    counted.on = False
    bot.drawer.close()
    await store.close()
    return {
        "case": case, "mode": mode, "orders": given, "games": games,
        "cpu_ms_per_order": round(1000 * cpu / given, 2),
        "draw_workers": draw_workers if mode == "bot" else 0,
        "workers_cpu_ms_per_order": round(1000 * workers_cpu / given, 2),
        "store_calls_per_order": round(counted.calls / given, 2),
        "store_calls_by_name": {k: round(v / given, 2) for k, v in sorted(counted.by_name.items())},
        "gc_ms_per_order": round(1000 * collecting["seconds"] / given, 2), "full_gcs": collecting["full"],
        "digest": digest.hexdigest()[:16],
    }


def child(code: Path, case: str, mode: str, orders: int, draw_workers: int) -> dict[str, Any]:
    """One measurement in a fresh process running the code in ``code``."""
    env = dict(os.environ, ORDER_BENCH_CODE=str(code), PYTHONPATH=str(code))
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", case, mode, str(orders),
                           str(draw_workers)],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"case": case, "mode": mode, "error": done.stderr.strip().splitlines()[-1:] or ["no output"]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--orders", type=int, default=60, help="timed order cycles per case and mode")
    ap.add_argument("--cases", default=",".join(CASES), help=f"some of {', '.join(CASES)}")
    ap.add_argument("--modes", default="service,bot")
    ap.add_argument("--against", type=Path, help="also measure the code of this checkout (before a change)")
    ap.add_argument("--draw-workers", type=int, default=0,
                    help="mode bot draws in this many worker processes (WARGAME_DRAW_WORKERS); their CPU is shown apart")
    ap.add_argument("--child", nargs=4, metavar=("CASE", "MODE", "ORDERS", "WORKERS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        case, mode, orders, workers = args.child
        print(json.dumps(asyncio.run(run(case, mode, int(orders), int(workers)))), flush=True)
        return
    codes = [("after", _CODE)] + ([("before", args.against.resolve())] if args.against else [])
    print(f"order cycle: autocomplete, /order, buttons, board ({'drawn' if 'bot' in args.modes else 'not drawn'}"
          f" in mode bot), claim outcome, status refresh; {args.orders} timed cycles per case; CPU = process_time")
    for case in args.cases.split(","):
        for mode in args.modes.split(","):
            results = {name: child(code, case, mode, args.orders, args.draw_workers) for name, code in codes}
            for name, r in results.items():
                if "error" in r:
                    print(f"{case:14} {mode:8} {name:6} FAILED: {r['error']}")
                    continue
                verdict = ""
                if mode == "bot":
                    verdict = "PASS" if r["cpu_ms_per_order"] <= TARGET_MS else "MISS"
                    verdict = f" ({verdict} <= {TARGET_MS:g} ms)"
                drawing = (f" + {r['workers_cpu_ms_per_order']:.2f} ms/order in {r['draw_workers']} drawing processes"
                           if r.get("draw_workers") else "")
                print(f"{case:14} {mode:8} {name:6} CPU {r['cpu_ms_per_order']:7.2f} ms/order{verdict}{drawing}; store calls "
                      f"{r['store_calls_per_order']:5.2f}/order {r['store_calls_by_name']}; {r['orders']} orders in "
                      f"{r['games']} games; of it GC {r['gc_ms_per_order']} ms/order ({r['full_gcs']} full); "
                      f"outputs digest {r['digest']}")
            digests = {r.get("digest") for r in results.values()}
            if len(results) > 1:
                print(f"{'':14} {mode:8} same outputs before and after: {'yes' if len(digests) == 1 else 'NO'}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
