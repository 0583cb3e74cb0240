"""The console scripts in tests/scripts/hex_ironclads play every scenario to a result with sealed
fire orders through the real table service; lines marked ! must fail, all others succeed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.console import run_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "tests" / "scripts" / "hex_ironclads").glob("*.txt"))


def test_every_scenario_has_a_script() -> None:
    from tests.hex_ironclads.helpers import ruleset

    played = {m for p in SCRIPTS for m in re.findall(r"scenario:([a-z-]+)", p.read_text())}
    assert played == {s.id for s in ruleset().scenarios()}


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_console_script_plays_to_a_result(script: Path) -> None:
    assert re.search(r"--seed (\d+)", script.read_text()), "each script names the seed it was written for"
    done = run_script(script)
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    assert "**Game over.**" in done.stdout
    assert "has sealed its fire orders. Commitment:" in done.stdout
    assert "All fire orders are sealed: here they are, with their nonces." in done.stdout
    assert re.search(r"fires at .+ \[(\d (Major|Minor|Miss)(, )?)+\]", done.stdout)
