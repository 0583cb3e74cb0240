"""Start-up time: a bot process from launch until it is ready to serve, cold and warm.

    PYTHONPATH=. .venv/bin/python benchmarks/startup.py [--runs 7]

Each run launches ``python -m bot console --script`` on an empty script: the same start-up path as
``python -m bot discord`` up to the connection (imports, every data file and pack checked, the store
opened), then it exits. Cold = a fresh cache folder each run, so every data file is validated (what
every start cost before the check was kept by fingerprint); warm = the same cache folder, so an
unchanged start reuses the kept result. Both series run alternately in this one run; the target is
warm <= 1 s (issue 25 item 5).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def start_once(cache: Path, script: Path) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT), WARGAME_CACHE_DIR=str(cache))
    env.pop("DISCORD_TOKEN", None)
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--script", str(script)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"the bot did not start cleanly ({done.returncode}): {done.stderr[-500:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "empty.txt"
        script.write_text("")
        warm_cache = Path(tmp) / "warm"
        start_once(warm_cache, script)  # fills the warm cache (and the OS file cache for both series)
        cold, warm = [], []
        for run in range(args.runs):
            cold.append(start_once(Path(tmp) / f"cold-{run}", script))
            warm.append(start_once(warm_cache, script))
    c, w = statistics.median(cold), statistics.median(warm)
    print(f"start-up to ready, median of {args.runs}: cold {c:.2f} s (every file validated), warm {w:.2f} s "
          f"(kept result reused) = {c / w:.2f}x faster; warm max {max(warm):.2f} s; target warm <= 1 s: "
          f"{'PASS' if w <= 1.0 else 'MISS'}")  # fmt: skip


if __name__ == "__main__":
    main()
