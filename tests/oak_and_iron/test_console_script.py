"""The console script of the quick-start game plays to a result through the real table service;
lines marked ! (a turn beyond the tool, boarding beyond Yard Arm, firing outside the broadside
path, sealing twice) must fail and change nothing, all others succeed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "scripts" / "oak_and_iron" / "quickstart.txt"


def test_the_quick_start_console_script_is_what_the_captains_play() -> None:
    from tests.oak_and_iron.autoplay import console_script

    assert SCRIPT.read_text() == console_script(1), "regenerate: python -m tests.oak_and_iron.autoplay 1 > " + str(SCRIPT)


def test_quick_start_plays_to_a_result_in_the_console() -> None:
    seed = re.search(r"--seed (\d+)", SCRIPT.read_text())
    assert seed
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--seed", seed[1], "--script", str(SCRIPT)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    out = done.stdout
    assert "**Game over.**" in out
    assert "seals an initiative card face down (commitment" in out
    assert re.search(r"reveals .+ \(initiative \d\); check: sha256\(nonce:card\)", out)
    assert re.search(r'moves: .*forward \d\.\d\d"', out)
    assert re.search(r'distance \d+\.\d\d" \((Yard Arm|Pistol Shot|Musket Shot|Cannon Shot)\)', out)
    assert "beyond the speed 4 tool's turning edge (45 degrees)" in out
    assert "boarding needs Yard Arm" in out
