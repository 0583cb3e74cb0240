"""The console front end: script syntax, expected failures, JSON lines, exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import parse_line

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast

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


def test_piped_lines_are_numbered_in_the_whole_input_and_exit_ends_the_session() -> None:
    stdin = "as @a\n/roll dice:1d6\n/roll dice:3d0\nexit\n/roll dice:3d0\n"
    result = console("--db", ":memory:", stdin=stdin)
    assert result.returncode == 1
    assert "line 3: '/roll dice:3d0' failed" in result.stderr, result.stderr
    assert "line 5" not in result.stderr and "exit" not in result.stderr  # nothing after exit ran
    assert result.stdout.count("ERROR") == 1
    assert console("--db", ":memory:", stdin="/roll dice:1d6\nQUIT\n/roll dice:3d0\n").returncode == 0


def test_a_game_left_from_an_earlier_run_is_pointed_out(tmp_path: Path) -> None:
    db = str(tmp_path / "console.db")
    first = console("--db", db, stdin="as @a\n/game new system:table scenario:free\n")
    assert first.returncode == 0 and "Note:" not in first.stderr
    again = console("--db", db, stdin="as @a\n! /game new system:table scenario:free\n")
    assert again.returncode == 0, again.stderr
    assert "#table has a game in setup from an earlier run" in again.stderr and "/game end" in again.stderr


def test_deal_refuses_a_bare_name_and_play_finds_a_card_by_its_words(tmp_path: Path) -> None:
    stdin = "\n".join([
        "as @alice",
        "/deck new name:c from:standard52",
        "! /deck deal name:c count:2 to:bob",
        "/deck deal name:c count:52 to:@alice",
        "/play card:jack of spades",
        "/play card:10c",
        "! /play card:JS",
        "/deck new name:m from:mines",
        "/deck deal name:m count:12 to:@alice",
    ]) + "\n"
    result = console("--json", "--seed", "2", "--db", ":memory:", stdin=stdin)
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    errors = [r["text"] for r in records if r["kind"] == "error"]
    assert "`bob` is not a mention of a user" in errors[0] and "@alice @bob" in errors[0]
    refusal, held = errors[1].split(" You hold c: ")
    held, example = held.split(". Type a card like ")
    assert refusal == "You hold no card `JS`." and example.count("`") == 6  # e.g. `QH`, `Q♥` or `queen of hearts`
    assert len(held.split(", ")) == 50 and "J♠" not in held and "A♥" in held  # the refusal lists the hand
    public = [r["text"] for r in records if r["kind"] == "message"]
    assert any("plays **J♠**" in t for t in public) and any("plays **10♣**" in t for t in public)
    dealt = [r["text"] for r in records if r["kind"] == "dm" and "from m:" in r["text"]]
    assert dealt and "None" not in dealt[0] and "No mine" in dealt[0]
    assert all(r.get("to") != "bob" for r in records)  # nobody called bob was dealt anything
