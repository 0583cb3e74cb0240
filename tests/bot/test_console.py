"""The console front end: script syntax, expected failures, JSON lines, exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bot.console import parse_line

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "scripts"


def console(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "console", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_parse_line() -> None:
    assert parse_line("/order text:Huascar fire Esmeralda") == ("order", {"text": "Huascar fire Esmeralda"})
    assert parse_line("/game new system:table scenario:free options:sides=A,B") == (
        "game new", {"system": "table", "scenario": "free", "options": "sides=A,B"})
    assert parse_line("/seal text:meet at 10:30 sharp") == ("seal", {"text": "meet at 10:30 sharp"})
    assert parse_line("/hand") == ("hand", {})


def test_acceptance_script_passes_and_keeps_secrets(tmp_path: Path) -> None:
    result = console("--script", str(SCRIPTS / "table_tools.txt"), "--json", "--seed", "7", "--images", str(tmp_path))
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    public = "\n".join(r["text"] for r in records if r["kind"] == "message")
    dms = [r for r in records if r["kind"] == "dm"]
    assert dms and all(r["to"].startswith("@") for r in dms)
    for r in dms:
        if r["text"].startswith("You were dealt") or r["text"].startswith("You drew"):
            cards = r["text"].split(": ", 1)[-1] if "dealt" in r["text"] else r["text"].split("**")[1]
            for card in cards.split(", "):
                assert f"{card}," not in public and f"**{card}**" not in public
    assert "Verified" in public
    assert any(r["kind"] == "done" and r["state"] == "over" for r in records)
    assert (tmp_path / "game-2-table.json").exists()


def test_failing_lines_set_the_exit_status(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("as @a\n/roll dice:2d6\n/roll dice:3d0\n")
    assert console("--script", str(script)).returncode == 1
    script.write_text("as @a\n! /roll dice:2d6\n")
    result = console("--script", str(script))
    assert result.returncode == 1 and "expected to fail" in result.stderr
    script.write_text("as @a\n! /roll dice:3d0\n# comment\n\n/roll dice:1d4\n")
    assert console("--script", str(script)).returncode == 0


def test_interactive_json_done_lines_and_choices() -> None:
    stdin = "\n".join([
        "as @alice",
        "/game new system:table scenario:free",
        "/game join seat:?",
        "/game join seat:red",
        "as @bob",
        "/game join seat:blue",
        "/game start",
        "/order text:?",
    ]) + "\n"
    result = console("--json", "--seed", "1", "--db", ":memory:", stdin=stdin)
    done = [json.loads(line) for line in result.stdout.splitlines() if '"done"' in line]
    assert done[0]["state"] == "setup" and done[0]["ok"] is True
    assert done[1]["choices"] == ["red", "blue", "umpire"]
    assert done[-2]["state"] == "running"
    assert "choices" in done[-1] and "concede" in done[-1]["choices"]


def test_run_command_without_token_opens_the_console() -> None:
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=ROOT, input="/roll dice:1d6\n", capture_output=True,
                            text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "rolls 1d6" in result.stdout
