"""/game replay of long games: peak extra memory and time, against the old hold-every-frame replay.

    .venv/bin/python benchmarks/replay.py [--orders 3000] [--cases table-8x8,table-26x26,iron-and-fire,days-of-iron]

For each case a game of ``--orders`` orders is played through the real table service into a fresh
SQLite file. Then a *fresh process* per measurement opens that file, warms up (imports, one board
render), resets the kernel's peak-memory mark (``/proc/self/clear_refs``), runs ``/game replay``
and reports the peak resident memory above where it started (VmHWM - VmRSS) and the wall time.

The baseline, measured in the same run on the same game file, is the replay as it was before issue
11: fold everything, keep a spectator View for each of the last 300 steps, render every frame,
caption, quantize and hand them all to Pillow's ``save_all``. Target (issue 11): a 3,000-order game
replays in under 250 MB extra memory and under 10 s. PASS/MISS is printed; the exit code is always
0 (a benchmark is not a test).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from games.core.ruleset import legal_texts

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from bot.rooms.seats import seat_label  # noqa: E402
from bot.service import TableService, User  # noqa: E402
from bot.store import Store  # noqa: E402
from games.core.rng import Rng, seed_from_number  # noqa: E402
from games.core.ruleset import UMPIRE, get_ruleset  # noqa: E402

TARGET_MB = 250
TARGET_S = 10.0
CASES = {  # name -> (system, scenario, options)
    "table-8x8": ("table", "free", "sides=Peru,Chile,board=8x8"),
    "table-26x26": ("table", "free", "sides=Peru,Chile,board=26x26"),
    "iron-and-fire": ("iron-and-fire", "s1", ""),
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
    await svc.handle("c", SPECTATOR, "game board", {})  # warm up: imports, caches, one render
    Path("/proc/self/clear_refs").write_text("5")  # reset the peak-RSS mark to the current RSS
    before = _status("VmRSS")
    t0 = time.perf_counter()
    if how == "new":
        out = await svc.handle("c", SPECTATOR, "game replay", {})
        assert out[0].file is not None, out[0].text
        size, text = len(out[0].file[1]), out[0].text
    else:
        size, text = len(await old_replay(svc)), "old replay"
    seconds = time.perf_counter() - t0
    peak = _status("VmHWM")
    await svc.store.close()
    return {"extra_mb": (peak - before) / 2**20, "seconds": seconds, "bytes": size, "text": text}  # type: ignore[dict-item]


def run_child(db: Path, how: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "--child", str(db), how], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--orders", type=int, default=3000)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--no-baseline", action="store_true", help="skip the old replay (it needs several GB)")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(measure(Path(args.child[0]), args.child[1]))))
        return
    print(f"/game replay of {args.orders}-order games; target < {TARGET_MB} MB extra and < {TARGET_S:.0f} s")
    print(f"{'case':16} {'orders':>6} {'new MB':>8} {'new s':>7} {'GIF KB':>7} {'old MB':>8} {'old s':>7} {'MB ratio':>9}  target")
    with tempfile.TemporaryDirectory() as tmp:
        for case in args.cases.split(","):
            db = Path(tmp) / f"{case}.db"
            t0 = time.perf_counter()
            given = asyncio.run(build(case, args.orders, db))
            built = time.perf_counter() - t0
            new = run_child(db, "new")
            old = None if args.no_baseline else run_child(db, "old")
            ok = new["extra_mb"] < TARGET_MB and new["seconds"] < TARGET_S and given >= args.orders
            old_cols = f"{old['extra_mb']:8.0f} {old['seconds']:7.1f} {old['extra_mb'] / max(new['extra_mb'], 1):8.1f}x" if old else f"{'-':>8} {'-':>7} {'-':>9}"
            print(f"{case:16} {given:6d} {new['extra_mb']:8.0f} {new['seconds']:7.1f} {new['bytes'] / 1024:7.0f} {old_cols}  "
                  f"{'PASS' if ok else 'MISS'}   (built in {built:.0f} s)", flush=True)
            if given < args.orders:
                print(f"  {case}: the game ended or offered no order after {given} orders")
            print(f"  reply: {new['text']}")


if __name__ == "__main__":
    main()
