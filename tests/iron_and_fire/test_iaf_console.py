"""The console script plays a whole Scenario 1 game to its end through the real table service;
lines marked ! must fail (wrong side, set-up outside the zone, too many MP), all others succeed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.console import run_script

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "tests" / "scripts" / "iron_and_fire").glob("*.txt"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_console_script_plays_to_a_result(script: Path) -> None:
    assert re.search(r"--seed (\d+)", script.read_text()), "each script names the seed it was written for"
    done = run_script(script)
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    out = done.stdout
    assert "**Game over.**" in out
    over = re.search(r"\*\*Game over\.\*\* Winner: [^.]+\. (.)", out)
    assert over and not over[1].islower(), "the reason after the winner starts a sentence: 'Winner: Peru. The Esmeralda ...'"
    assert "**Verified**" in out, "replaying the orders from the seed gives identical rolls and cards"
    assert "Card " in out and "**Turn 1**" in out
    assert re.search(r"d(6|10) \*\*\d+\*\*.* = -?\d+ vs (PF )?\d", out), "dice are shown with total and target"
    if "scenario:s1" in script.read_text():
        assert "ERROR for @prat | Esmeralda cannot set up in `1607`" in out
        assert "**End Phase** of turn 1" in out
    for line in script.read_text().splitlines():
        if line.startswith("/order text:roll") and any(k in line for k in ("steam", "arrival", "inshore", "cable")):
            assert "makes a secret roll" in out and "Secret roll revealed" in out


def test_every_scenario_has_a_script() -> None:
    from tests.iron_and_fire.helpers import ruleset

    played = {m for p in SCRIPTS for m in re.findall(r"scenario:(s\d)", p.read_text())}
    assert played == {s.id for s in ruleset().scenarios()}
