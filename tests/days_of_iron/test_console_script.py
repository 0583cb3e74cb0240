"""The console script of a short meeting engagement runs to its end through the real table service;
lines marked ! must fail, and the sealed records stay out of the channel until they are revealed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.console import run_script

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "scripts" / "days_of_iron" / "meeting.txt"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_script(SCRIPT, *args, seed=1)


def test_meeting_engagement_plays_to_a_result() -> None:
    done = run()
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    out = done.stdout
    assert "staff quality** (14.1)" in out
    assert "Scouting points (19.2): French 24, Prussians 0." in out
    assert "**Turn 1 initiative** (17.1)" in out
    assert "40e de Ligne is shattered and removed from play (17.5.8)" in out
    assert "**Game over.**" in out and "Points (18.2)" in out


def test_secrets_stay_sealed_until_revealed() -> None:
    done = run("--json")
    assert done.returncode == 0, done.stderr
    records: list[dict[str, Any]] = [json.loads(line) for line in done.stdout.splitlines()]
    public = [r["text"] for r in records if r["kind"] == "message"]
    reveal_at = next(i for i, t in enumerate(public) if "The French reveal 10e Chasseurs" in t)
    dust_at = next(i for i, t in enumerate(public) if "Dust on the horizon" in t)
    assert not any("farm wall" in t for t in public[:reveal_at])
    assert not any("Rheinbaben cavalry brigade (the east road)" in t for t in public[:dust_at])
    hidden_dms = {r["to"] for r in records if r["kind"] == "dm" and "farm wall" in r["text"]}
    offboard_dms = {r["to"] for r in records if r["kind"] == "dm" and "Off-board: Rheinbaben" in r["text"]}
    assert hidden_dms == {"@alice", "@umpy"} and offboard_dms == {"@bob", "@umpy"}
    assert records[-1]["kind"] == "done" and records[-1]["state"] == "over"
