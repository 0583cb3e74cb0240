"""Board drawing of every system's largest scenario in play, against a from-scratch redraw.

    .venv/bin/python benchmarks/boards.py [--frames 40] [--systems days-of-iron,...]

For each rule system, the scenario whose opening public view has the most counters (ties: the larger
board) is played from its pinned log (tests/<package>/rules_pins.json: random legal orders from a
fixed seed, the same log the replay tests fold). The spectator's board after each order is one
frame; ``--frames`` of them in a row, from the middle of the log, are drawn:

* **bot**: as the bot draws a channel's boards, one ``Renderer`` with its caches warm (one frame
  drawn first, untimed, as an earlier order would have) and the channel's ``NamePlaces``;
* **scratch**: ``Renderer(cache=False)``, every layer, sprite and text drawn anew for every frame.

Both encode the PNG. Times are CPU milliseconds of this process (``time.process_time``), so other
programs on a shared machine do not count; every frame is counted, the slow ones included. Targets
(issue 25): the bot's median <= 20 ms and >= 4x the scratch median, per system. PASS/MISS is
printed; the exit code is always 0 (a benchmark is not a test).
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from bot.rooms.common import fold  # noqa: E402
from games.core.ruleset import get_ruleset  # noqa: E402
from render import NamePlaces, Renderer  # noqa: E402
from tests.rules_pins import cases, load_pins, seed_of  # noqa: E402

TARGET_MS = 20.0
TARGET_RATIO = 4.0


def largest(system: str, pins: dict[str, Any]) -> str:
    """The system's pinned scenario with the most counters on its opening board (then the widest)."""
    rules = get_ruleset(system)
    sizes = {}
    for sys_id, scenario in cases():
        if sys_id == system and f"{system}/{scenario}" in pins:
            state, _, _ = next(fold(rules, seed_of(system, scenario), scenario, {}, []))
            view = rules.view(state, None)
            sizes[scenario] = (len(view.counters), view.board.width * view.board.height)
    return max(sizes, key=lambda s: sizes[s])


def frames(system: str, scenario: str, log: list[list[str]], wanted: int) -> list[Any]:
    """The spectator's board after each of ``wanted`` orders in a row from the middle of the log
    (a channel's boards, as the bot draws one after every order)."""
    rules = get_ruleset(system)
    first = max(0, (len(log) - wanted) // 2)
    picks = set(range(first, first + wanted))
    views = []
    for at, (state, _, _) in enumerate(fold(rules, seed_of(system, scenario), scenario, {}, (tuple(o) for o in log))):
        if at in picks:
            views.append(rules.view(state, None))
    return views


def timed(draw: Any, views: list[Any]) -> list[float]:
    spent = []
    for view in views:
        began = time.process_time()
        draw(view)
        spent.append(1000 * (time.process_time() - began))
    return spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--systems", default="", help="some systems (default: all)")
    args = ap.parse_args()
    pins = load_pins()
    systems = args.systems.split(",") if args.systems else sorted({s for s, _ in cases()})
    print(f"board draw + PNG encode, CPU ms per frame, {args.frames} frames of each system's largest scenario")
    print(f"{'system / scenario':40} {'counters':>8} | {'bot median':>10} {'p90':>7} {'max':>7} | "
          f"{'scratch median':>14} {'max':>7} | speed-up")
    for system in systems:
        scenario = largest(system, pins)
        views = frames(system, scenario, pins[f"{system}/{scenario}"]["log"], args.frames)
        bot, places = Renderer(), NamePlaces()
        bot.render_png(views[0], names=places)  # the channel's earlier boards: caches warm
        warm = timed(functools.partial(bot.render_png, names=places), views)
        scratch = Renderer(cache=False)
        cold = timed(scratch.render_png, views)
        median, ratio = statistics.median(warm), statistics.median(cold) / statistics.median(warm)
        p90 = statistics.quantiles(warm, n=10)[-1] if len(warm) > 1 else warm[0]
        counters = max(len(v.counters) for v in views)
        print(f"{system + ' / ' + scenario:40} {counters:8} | {median:10.1f} {p90:7.1f} {max(warm):7.1f} | "
              f"{statistics.median(cold):14.1f} {max(cold):7.1f} | {ratio:5.1f}x  "
              f"{'PASS' if median <= TARGET_MS else 'MISS'} <= {TARGET_MS:g} ms, "
              f"{'PASS' if ratio >= TARGET_RATIO else 'MISS'} >= {TARGET_RATIO:g}x")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
