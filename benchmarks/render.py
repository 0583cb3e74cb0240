"""Render + encode speed and size for the three board kinds, against an uncached baseline.

    .venv/bin/python benchmarks/render.py [--runs N]      (or: python -m benchmarks.render)

Each timed run renders a *new* activation (counters moved, a new path and line of fire), so the
counter-overlay work is real every time; what is reused is what never changes (background, grid,
hex numbers, counter sprites, palette). The baseline, measured in the same run, draws the same
scenes from scratch with every cache off (``Renderer(cache=False)``) and saves a default
``img.save(buf, "PNG")``. Targets from issue 3: hex under 20 ms median and at least 4x faster than
the baseline, square under 8 ms, every image under 300 KB. PASS/MISS is printed; the exit code is
always 0 (a benchmark is not a test).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its own name would shadow the
# ``render`` package: put the project root first instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from games.core.hexgrid import HexLayout  # noqa: E402
from games.core.view import Arrow, Board, Counter, Overlay, SideInfo, Terrain, View, Zone  # noqa: E402
from render import Renderer  # noqa: E402

SIDES = (SideInfo("peru", "Peru", "#c0392b"), SideInfo("chile", "Chile", "#2e6fd8"))


def _activations(n: int, count: int, step: Callable[[int, int, float], tuple[tuple[float, float], float]]) -> list[tuple[int, int, list[tuple[float, float]], list[float], list[int]]]:
    """A game's worth of activations: each one moves (and maybe turns) one unit and hits another.

    Returns per activation: actor, target, positions, facings, damage. Like a real game, most
    counters look the same from one activation to the next; the actor and target change.
    """
    pos = [step(k, -1, 0.0)[0] for k in range(count)]
    facing = [step(k, -1, 0.0)[1] for k in range(count)]
    damage = [0] * count
    out = []
    for i in range(n):
        actor, target = i % count, (i * 5 + 3) % count
        if target == actor:
            target = (target + 1) % count
        pos[actor], facing[actor] = step(actor, i, facing[actor])
        damage[target] = (damage[target] + 1) % 4
        out.append((actor, target, list(pos), list(facing), list(damage)))
    return out


def hex_views(n: int) -> list[View]:
    """A 19x13 flat hex map (coast, shallows, shoals, towns, a set-up zone) with 12 counters."""
    layout = HexLayout(orientation="flat", first_col=11, first_row=1, cols=19, rows=13, shifted="odd")
    terrain = {"*": "deep"}
    for c in range(11, 30):
        terrain[f"{c}01"] = "land"
        if c % 3:
            terrain[f"{c}02"] = "shallow"
        if c % 4 == 0:
            terrain[f"{c}03"] = "shoal"
    terrain |= {"1401": "town", "1501": "town", "2207": "shoal", "2307": "shoal"}
    board = Board(
        kind="hex",
        key="bench:hex-19x13",
        name="Bench strait",
        hex_layout=layout,
        terrain=terrain,
        hexside_compass=("6", "5", "4", "3", "2", "1"),
        arrows=(Arrow("north", 0.0, "N"),),
    )
    hexes = layout.all_hexes()
    names = ["Huascar", "Indep.", "Union", "Pilcom.", "Manco", "Atahu.", "Blanco", "Cochr.", "O'Hig.", "Magal.", "Covad.", "Abtao"]

    def step(k: int, i: int, facing: float) -> tuple[tuple[float, float], float]:
        h = hexes[(k * 19 + 40 + max(i, 0) * 3) % len(hexes)]
        return (float(h.q), float(h.r)), layout.bearing((k + max(i, 0)) % 6)

    zone = Zone("Chile set-up", "chile", cells=tuple((float(h.q), float(h.r)) for h in hexes if h.q >= 17))
    views = []
    for i, (actor, target, pos, facing, damage) in enumerate(_activations(n, len(names), step)):
        counters = tuple(
            Counter(name, name, "peru" if k < 6 else "chile", pos[k], facing=facing[k], damage=damage[k], damage_max=4 + k % 3,
                    markers=("fire",) if k % 5 == 0 else (), highlight=k == actor, face_down=k == 11)
            for k, name in enumerate(names)
        )
        a, b = pos[actor], pos[target]
        overlays = (Overlay("path", ((a[0] - 2, a[1] + 1), (a[0] - 1, a[1] + 1), a), side="peru"), Overlay("fire", (a, b), side="peru", text=f"{i % 3} hits"))
        views.append(
            View(board=board, viewer=None, sides=SIDES, counters=counters, overlays=overlays, zones=(zone,),
                 arrows=(Arrow("wind", 45.0 * (i // 10 % 8), "Wind", "3"),),
                 status=(f"Turn {i + 1}: Peru to act.", f"{names[actor]} fired at {names[target]}: {i % 3} hits."),
                 title="Benchmark: Iron and Fire style hex map")
        )
    return views


def square_views(n: int) -> list[View]:
    board = Board(kind="square", key="bench:square-8x8", name="Draughts", width=8, height=8)
    names = ["Kent", "Essex", "Devon", "Kaiser", "Moltke", "Goeben"]

    def step(k: int, i: int, facing: float) -> tuple[tuple[float, float], float]:
        if i < 0:
            return (float(1 + k % 3 * 3), 0.0 if k < 3 else 7.0), 0.0 if k < 3 else 180.0
        return (float((k * 3 + i) % 8), float((k * 2 + i // 2) % 8)), 45.0 * ((k + i) % 8)

    views = []
    for i, (actor, target, pos, facing, damage) in enumerate(_activations(n, len(names), step)):
        counters = tuple(
            Counter(f"s{k}", name, "peru" if k < 3 else "chile", pos[k], facing=facing[k], damage=damage[k] % 3, damage_max=3, highlight=k == actor)
            for k, name in enumerate(names)
        )
        a, b = pos[actor], pos[target]
        overlays = (Overlay("path", ((a[0], max(0.0, a[1] - 2)), a), side="peru"), Overlay("fire", (a, b), text="J: fire"))
        views.append(View(board=board, viewer=None, sides=SIDES, counters=counters, overlays=overlays,
                          status=(f"Turn {i + 1}: {names[actor]} fired at {names[target]}.",), title="Benchmark: Ironclad Draughts"))
    return views


def table_views(n: int) -> list[View]:
    board = Board(
        kind="table",
        key="bench:table-36x36",
        name="Table",
        width=36,
        height=36,
        table_terrain=(
            Terrain("island", points=((4.0, 4.0), (11.0, 3.0), (13.0, 8.0), (9.0, 12.0), (3.0, 10.0))),
            Terrain("rock", centre=(20.0, 6.0), radius=1.0),
            Terrain("shoal", points=((24.0, 24.0), (32.0, 22.0), (34.0, 30.0), (26.0, 32.0))),
            Terrain("fog", centre=(10.0, 28.0), radius=5.0, label="Fog bank"),
        ),
    )
    names = ["Sloop", "Fluyt", "Corv.", "Frig.", "Swift", "Hind", "Lark", "Ajax"]

    def step(k: int, i: int, facing: float) -> tuple[tuple[float, float], float]:
        if i < 0:
            return (8.0 + k * 3, 14.0 + (k % 4) * 3), 30.0 * k
        turned = (facing + 17.0) % 360  # a table ship turns by any angle: its sprite is new
        return (8.0 + k * 3 + (i % 5), 14.0 + (k % 4) * 3 + (i % 3)), turned

    views = []
    for i, (actor, target, pos, facing, damage) in enumerate(_activations(n, len(names), step)):
        counters = tuple(
            Counter(f"t{k}", name, "peru" if k < 4 else "chile", pos[k], facing=facing[k], size=(2.5, 0.8), damage=damage[k], damage_max=4,
                    markers=("reload",) if k == 2 else (), highlight=k == actor)
            for k, name in enumerate(names)
        )
        a, b = pos[actor], pos[target]
        overlays = (Overlay("ring", (a,), radius=12.0, text='Cannon 12"'), Overlay("fire", (a, b), side="peru", text="2 hits"))
        views.append(View(board=board, viewer=None, sides=SIDES, counters=counters, overlays=overlays,
                          arrows=(Arrow("wind", 300.0, "Wind", "fresh"),), status=(f"Turn {i + 1}: {names[actor]} fired.",),
                          title="Benchmark: Oak & Iron"))
    return views


@dataclass
class Result:
    median_ms: float
    min_ms: float
    cpu_ms: float  # median CPU time of this process: what other busy processes cannot inflate
    size: int


def timed(fn: Callable[[View], bytes], views: list[View]) -> Result:
    times = []
    cpu = []
    size = 0
    for v in views:
        t, c = time.perf_counter(), time.process_time()
        data = fn(v)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        size = max(size, len(data))
    return Result(statistics.median(times), min(times), statistics.median(cpu), size)


def baseline(view: View) -> bytes:
    img = Renderer(cache=False).render_board(view)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="timed renders per scene (baseline: a third as many)")
    args = parser.parse_args()
    scenes = {"hex 19x13, 12 counters": hex_views, "square 8x8, 6 ships": square_views, "table 36x36in, 8 ships": table_views}
    targets = {"hex 19x13, 12 counters": 20.0, "square 8x8, 6 ships": 8.0}
    rows = []
    for name, make in scenes.items():
        views = make(args.runs + 1)
        fast = Renderer()
        t = time.perf_counter()
        fast.render_png(views[0])  # the first render of a board draws and caches its background
        cold_ms = (time.perf_counter() - t) * 1000
        ours = timed(fast.render_png, views[1:])
        base = timed(baseline, views[1 : 1 + max(5, args.runs // 3)])
        rows.append((name, cold_ms, ours, base))
    print("render + encode, ms (wall clock; 'cpu' is this process's CPU time, unaffected by other load)")
    print(f"{'scene':<24} {'first':>6} {'median':>7} {'min':>6} {'cpu':>6} {'PNG KB':>7} | {'baseline median':>15} {'min':>6} {'PNG KB':>7} | {'speed-up':>8}")
    print("-" * 110)
    for name, cold_ms, ours, base in rows:
        print(
            f"{name:<24} {cold_ms:>6.1f} {ours.median_ms:>7.2f} {ours.min_ms:>6.2f} {ours.cpu_ms:>6.2f} {ours.size / 1024:>7.1f} | "
            f"{base.median_ms:>15.2f} {base.min_ms:>6.2f} {base.size / 1024:>7.1f} | {base.median_ms / ours.median_ms:>7.1f}x"
        )
    print()
    checks = []
    for name, _, ours, base in rows:
        if name in targets:
            checks.append((f"{name}: median {ours.median_ms:.2f} ms < {targets[name]:g} ms", ours.median_ms < targets[name]))
        if name.startswith("hex"):
            ratio = base.median_ms / ours.median_ms
            checks.append((f"{name}: {ratio:.1f}x faster than baseline >= 4x", ratio >= 4.0))
        checks.append((f"{name}: largest PNG {ours.size / 1024:.0f} KB < 300 KB", ours.size < 300 * 1024))
    for text, ok in checks:
        print(f"{'PASS' if ok else 'MISS'}  {text}")
    load, cpus = os.getloadavg()[0], os.cpu_count() or 1
    print(f"\nload average {load:.1f} on {cpus} CPUs" + ("  (busy machine: timings are inflated, run again when idle)" if load > cpus * 0.75 else ""))


if __name__ == "__main__":
    main()
