"""Whole games through the console front end (``python -m bot console --script F --seed 1``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.console import run_script

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "scripts" / "ironclad_draughts"


def run(script: Path) -> tuple[int, list[dict[str, object]], str]:
    result = run_script(script, "--json", seed=1)
    records = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    return result.returncode, records, result.stderr


@pytest.mark.parametrize("name", sorted(p.name for p in SCRIPTS.glob("*.txt")))
def test_script_plays_to_the_end(name: str) -> None:
    code, records, stderr = run(SCRIPTS / name)
    assert code == 0, stderr
    done = [r for r in records if r["kind"] == "done"]
    assert done[-1]["state"] == "over"
    messages = "\n".join(str(r["text"]) for r in records if r["kind"] == "message")
    assert "Game over" in messages and "Passed through and returned" in messages
    # pair each command line with its outputs (a command's outputs end with its "done" record)
    commands = [ln.strip().lstrip("!").strip() for ln in (SCRIPTS / name).read_text().splitlines()]
    commands = [c for c in commands if c.startswith("/")]
    groups: list[list[dict[str, object]]] = [[]]
    for record in records:
        if record["kind"] == "done":
            groups.append([])
        else:
            groups[-1].append(record)
    assert len(groups) - 1 == len(commands)
    refused_orders = 0
    started = False
    for command, outputs in zip(commands, groups, strict=False):
        started = started or command.startswith("/game start")
        for error in (o for o in outputs if o["kind"] == "error"):
            # the rules' own messages (not the table's refusals before the game or to spectators)
            if started and command.startswith("/order") and "hold no seat" not in str(error["text"]):
                refused_orders += 1
                assert "`" in str(error["text"]), f"{command}: error does not quote the input: {error['text']}"
    assert refused_orders >= 3, "each script includes bad orders marked with !"
