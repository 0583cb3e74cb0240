"""/game replay and /game verify of long games: time and peak extra memory, against older code.

    .venv/bin/python benchmarks/replay.py [--orders 3000] [--cases table-8x8,...,days-of-iron] [--against DIR]
                                          [--keep DIR] [--no-baseline]

For each case a game of ``--orders`` orders is played through the real table service into a fresh
SQLite file (every rule system; a game that ends or offers no order sooner is reported at the
length it reached). Then a *fresh process* per measurement opens that file, warms up (imports, one
board render), resets the kernel's peak-memory mark (``/proc/self/clear_refs``), runs ``/game
replay`` (or ``/game verify``) in that process (the bot runs it in a worker process: the same work)
and reports the peak resident memory above where it started (VmHWM - VmRSS), the wall time and the
CPU time of that process. ``--keep DIR`` keeps the built games there and reuses them on a later run.
``--against DIR`` measures the same game files, in the same run, with the code of another checkout
(e.g. ``git archive main | tar -x -C DIR``): the before-and-after of a change.

The baseline, measured in the same run on the same game file, is the replay as it was before issue
11: fold everything, keep a spectator View for each of the last 300 steps, render every frame,
caption, quantize and hand them all to Pillow's ``save_all``. Targets: a 3,000-order game of any
system replays in under 250 MB extra memory (issue 11) and in 5 s (issues 25 and 26), and is
verified in 5 s (issue 26), in CPU seconds. PASS/MISS is printed; the exit code is always 0 (a benchmark is not a
test).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
_CODE = Path(os.environ.get("REPLAY_BENCH_CODE") or _HERE.parent)  # whose bot/, games/, render/ run (--against)
sys.path[:] = [str(_CODE)] + [p for p in sys.path if Path(p or ".").resolve() not in (_HERE, _HERE.parent)]

from bot.rooms.seats import seat_label  # noqa: E402
from bot.service import TableService, User  # noqa: E402
from bot.store import Store  # noqa: E402
from games.core.rng import Rng, seed_from_number  # noqa: E402
from games.core.ruleset import UMPIRE, get_ruleset, legal_texts  # noqa: E402

TARGET_MB = 250
TARGET_S = 5.0
CASES = {  # name -> (system, scenario, options)
    "table-8x8": ("table", "free", "sides=Peru,Chile,board=8x8"),
    "table-26x26": ("table", "free", "sides=Peru,Chile,board=26x26"),
    "ironclad-draughts": ("ironclad-draughts", "fleet", ""),
    "hex-ironclads": ("hex-ironclads", "hampton-roads", ""),
    "iron-and-fire": ("iron-and-fire", "s1", ""),
    "oak-and-iron": ("oak-and-iron", "engagement", ""),
    "days-of-iron": ("days-of-iron", "spicheren", ""),
}
SPECTATOR = User("spectator", "Spectator")


async def _service(db: Path) -> TableService:
    seeds = iter(range(10**9))
    return TableService(await Store.open(db), mention=lambda u: f"@{u}", seed_source=lambda: seed_from_number(next(seeds)))


async def build(case: str, orders: int, db: Path) -> int:
    """Play ``orders`` orders into ``db``: random legal ones (umpire seat), a filler order when a
    system offers none that keeps the game going; an order that would end the game is passed over,
    so the game reaches its length. Returns how many were given."""
    system, scenario, options = CASES[case]
    svc = await _service(db)
    umpire = User("ump", "Umpire")
    opts = {"system": system, "scenario": scenario} | ({"options": options} if options else {})
    await svc.handle("c", umpire, "game new", opts)
    await svc.handle("c", umpire, "game join", {"seat": UMPIRE})
    rules = get_ruleset(system)
    live = await svc.store.live_game("c")
    assert live is not None
    for seat in rules.seats(rules.decode(live.snapshot)):
        if seat.id != UMPIRE and not seat.optional:
            await svc.handle("c", User(f"u-{seat.id}", seat.label), "game join", {"seat": seat.id})
    started = await svc.handle("c", umpire, "game start", {})
    assert not any(o.kind == "error" for o in started), started
    chooser = random.Random(7)
    given = failures = 0
    if system == "table":
        await svc.handle("c", umpire, "order", {"text": "place A a1", "seat": "peru"})
        given = 1
    while given < orders:
        if system == "table":
            text, seat = f"move A {'ab'[given % 2]}2", "peru"
        else:
            row = await svc.store.latest_game("c")
            assert row is not None
            if row.status != "running":
                break
            state = rules.decode(row.snapshot)
            to_act = rules.to_act(state) or [s.id for s in rules.seats(state) if s.id != UMPIRE]
            seat = chooser.choice(to_act)
            legal = [o for o in legal_texts(rules, state, seat) if not o.startswith(("concede", "end"))]
            if not legal:
                break
            text = chooser.choice(legal)
            if ends_game(rules, row, seat, text):  # a ship leaving the map...: keep the game going
                failures += 1
                if failures > 1000:  # every order left would end it: stop here and report the length
                    break
                continue
        out = await svc.handle("c", umpire, "order", {"text": text, "seat": seat})
        if any(o.kind == "error" for o in out):
            failures += 1
            if failures > 1000:
                raise RuntimeError(f"{case}: orders keep failing: {[o.text for o in out]}")
        else:
            given += 1
    await svc.store.close()
    return given


def kept_length(db: Path) -> int:
    """How many orders a game file built before holds (``--keep``)."""
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM orders WHERE NOT undone").fetchone()[0])
    finally:
        con.close()


def ends_game(rules: Any, row: Any, seat: str, text: str) -> bool:
    """Whether ``text`` would end the game, tried on a scratch copy of the state and stream."""
    state = rules.decode(row.snapshot)
    try:
        rules.apply(state, seat, rules.parse_order(state, seat, text), Rng(row.seed, row.counter))
    except Exception:  # refused: the real order will be refused too and counted as a failure
        return False
    return rules.outcome(state) is not None


def _status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(field)


async def old_replay(svc: TableService) -> bytes:
    """The replay before issue 11: every one of the last 300 frames held as a full image."""
    from PIL import Image

    from bot.service import Loaded, fold
    from render import DEFAULT
    from render.replay import captioned

    loaded = await svc.table.latest("c")
    orders = await svc.store.orders(loaded.row.id, include_undone=False)
    rules, row = loaded.rules, loaded.row
    first = len(orders) - 300
    views, caps = [], []
    for step, (state, _, _) in enumerate(fold(rules, row.seed, row.scenario, row.options, ((o.seat, o.text) for o in orders))):
        if step >= first:
            views.append(rules.view(state, None))
            caps.append("Set-up" if step == 0 else f"{orders[step - 1].seq}. {seat_label(Loaded(row, rules, state), orders[step - 1].seat)}")
    rendered = [DEFAULT._render(v, scale=None, zoom=None) for v in views]
    frames = [captioned(img, c, i, len(views)) for i, ((img, _), c) in enumerate(zip(rendered, caps, strict=True))]
    pal = [f.quantize(palette=p, dither=Image.Dither.NONE) for f, (_, p) in zip(frames, rendered, strict=True)]
    buf = io.BytesIO()
    pal[0].save(buf, "GIF", save_all=True, append_images=pal[1:], duration=1600, loop=0, disposal=1)
    return buf.getvalue()


async def measure(db: Path, how: str) -> dict[str, float]:
    svc = await _service(db)
    try:  # closed whatever happens: an open connection's thread would keep a failed child from exiting
        return await _measure(svc, how)
    finally:
        await svc.store.close()


async def _measure(svc: TableService, how: str) -> dict[str, float]:
    from bot.workers import in_thread

    svc.table.work = in_thread  # the job in this process, whose memory is measured
    await svc.handle("c", SPECTATOR, "game board", {})  # warm up: imports, caches, one render
    Path("/proc/self/clear_refs").write_text("5")  # reset the peak-RSS mark to the current RSS
    before = _status("VmRSS")
    t0, cpu0 = time.perf_counter(), time.process_time()
    if how in ("new", "verify"):
        out = await svc.handle("c", SPECTATOR, f"game {'replay' if how == 'new' else 'verify'}", {})
        assert out[0].kind != "error" and (how == "verify" or out[0].file is not None), out[0].text
        size, text = len(out[0].file[1]) if out[0].file else 0, out[0].text
    else:
        size, text = len(await old_replay(svc)), "old replay"
    seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    peak = _status("VmHWM")
    return {"extra_mb": (peak - before) / 2**20, "seconds": seconds, "cpu": cpu, "bytes": size, "text": text}  # type: ignore[dict-item]


def run_child(db: Path, how: str, code: Path | None = None) -> dict[str, float]:
    env = os.environ | ({"REPLAY_BENCH_CODE": str(code)} if code else {})
    out = subprocess.run([sys.executable, __file__, "--child", str(db), how], capture_output=True, text=True,
                         check=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _secs(result: dict[str, float]) -> str:
    return f"{result['seconds']:.1f}/{result['cpu']:.1f}"


def verdict(seconds: float, mb: float = 0.0) -> str:
    """PASS/MISS by CPU seconds (on a shared machine the wall time mostly measures other programs)."""
    return "PASS" if seconds <= TARGET_S and mb < TARGET_MB else "MISS"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--orders", type=int, default=3000)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--no-baseline", action="store_true", help="skip the old-style replay (it needs several GB)")
    ap.add_argument("--against", type=Path, help="also measure with the code of this checkout (before a change)")
    ap.add_argument("--keep", type=Path, help="keep the built game files in this folder and reuse those already there "
                                          "(same case and --orders): measure again without building again")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(measure(Path(args.child[0]), args.child[1]))))
        return
    print(f"/game replay and /game verify of {args.orders}-order games; target <= {TARGET_S:.0f} s each and "
          f"< {TARGET_MB} MB extra" + (f"; 'before' is the code in {args.against}, same game files, same run"
                                        if args.against else ""))
    print("(each time is wall seconds / CPU seconds of the measuring process: on a shared machine the CPU time is "
          "what the work itself cost, and the verdict goes by it)")
    print(f"{'case':18} {'orders':>6} {'replay s':>10} {'MB':>5} {'GIF KB':>7} {'verify s':>9}  "
          f"{'before: replay s':>16} {'MB':>5} {'verify s':>9}  {'old-style replay MB':>19} {'s':>5}")
    with tempfile.TemporaryDirectory() as tmp:
        for case in args.cases.split(","):
            folder = args.keep or Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            db = folder / f"{case}-{args.orders}.db"
            t0 = time.perf_counter()
            given = kept_length(db) if db.exists() and args.keep else asyncio.run(build(case, args.orders, db))
            built = time.perf_counter() - t0
            new, check = run_child(db, "new"), run_child(db, "verify")
            if args.against:
                before, before_check = run_child(db, "new", args.against), run_child(db, "verify", args.against)
                before_cols = f"{_secs(before):>16} {before['extra_mb']:5.0f} {_secs(before_check):>9}"
            else:
                before_cols = f"{'-':>16} {'-':>5} {'-':>9}"
            old = None if args.no_baseline else run_child(db, "old")
            old_cols = f"{old['extra_mb']:19.0f} {old['seconds']:5.1f}" if old else f"{'-':>19} {'-':>5}"
            print(f"{case:18} {given:6d} {_secs(new):>10} {new['extra_mb']:5.0f} {new['bytes'] / 1024:7.0f} "
                  f"{_secs(check):>9}  {before_cols}  {old_cols}  replay {verdict(new['cpu'], new['extra_mb'])}, "
                  f"verify {verdict(check['cpu'])}   (built in {built:.0f} s)", flush=True)
            if given < args.orders:
                print(f"  {case}: the game ended or offered no order after {given} orders")
            print(f"  replay: {new['text']}\n  verify: {check['text'][:150]}")

if __name__ == "__main__":
    main()
