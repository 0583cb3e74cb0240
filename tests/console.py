"""Running ``python -m bot console`` on a script, as the per-system console tests all do."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_script(script: Path, *args: str, seed: int | None = None) -> subprocess.CompletedProcess[str]:
    """The console playing ``script`` through the real table service. ``seed``: by default the one
    the script names in a ``--seed N`` comment (each script is written for one), else 1. Extra data
    packs of the caller's environment are dropped so the shipped data is what plays."""
    if seed is None:
        named = re.search(r"--seed (\d+)", script.read_text(encoding="utf-8"))
        seed = int(named[1]) if named else 1
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("WARGAME_DATA_PACKS", None)
    return subprocess.run([sys.executable, "-m", "bot", "console", "--seed", str(seed), "--script", str(script), *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
