"""The table service on a real PostgreSQL server: whole games played through it answer exactly as
on SQLite, and ``python -m bot migrate`` copies a SQLite database (finished games, table-tools
streams, undone orders, reminder bookkeeping, closed DMs) so that the games go on, on PostgreSQL,
exactly as they would have on the SQLite file."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tests.bot.duel  # noqa: F401
from bot.database import open_store
from bot.migrate import copy_database
from bot.service import Output, TableService
from bot.storage import CopyRefused, Counts
from tests.bot.helpers import ADMIN, ALICE, BOB, CAROL, make_service, ok

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "scripts"


def comparable(outputs: list[Output]) -> list[tuple[Any, ...]]:
    """What players see of the outputs (images as their views, files as their bytes)."""
    return [(o.kind, o.text, o.channel, o.to, o.view, o.file) for o in outputs]


def console(db: str, script: Path, seed: int) -> list[dict[str, Any]]:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--script", str(script), "--json", "--seed", str(seed), "--db", db],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize("script, seed", [("table_tools.txt", 7), ("oak_and_iron/quickstart.txt", 1)])
def test_console_scripts_play_the_same_on_postgresql(script: str, seed: int, pg_url: str, tmp_path: Path) -> None:
    """A whole game (and the table tools) through the console and TableService on PostgreSQL."""
    on_postgres = console(pg_url, SCRIPTS / script, seed)
    assert on_postgres == console(str(tmp_path / "same.db"), SCRIPTS / script, seed)
    assert any(r["kind"] == "done" and r["state"] == "over" for r in on_postgres) or script == "table_tools.txt"


async def duel(svc: TableService) -> list[Output]:
    """A test-duel game with secrets, an undo, a reminder schedule and a race to the finish."""
    out: list[Output] = []
    out += await ok(svc, ALICE, "game new", system="test-duel", scenario="race")
    out += await ok(svc, ALICE, "game join", seat="north")
    out += await ok(svc, BOB, "game join", seat="south")
    out += await ok(svc, CAROL, "game join", seat="umpire")
    out += await ok(svc, ALICE, "game start")
    out += await ok(svc, CAROL, "game remind", after="1", every="2")
    out += await ok(svc, ALICE, "order", text="pass")
    out += await ok(svc, ALICE, "game undo")
    out += await ok(svc, ALICE, "order", text="hide")
    out += await ok(svc, BOB, "order", text="roll")
    out += await ok(svc, ALICE, "order", text="spend")
    for turn in range(60):
        if (await svc.channel_state("c1"))[0] == "over":
            break
        out += await ok(svc, BOB if turn % 2 == 0 else ALICE, "order", text="roll")
    out += await ok(svc, BOB, "game log")
    out += await ok(svc, BOB, "game verify")
    out += await ok(svc, BOB, "game export")
    return out


async def test_a_whole_duel_answers_the_same_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    on_postgres = await make_service(pg_url)
    on_sqlite = await make_service(tmp_path / "duel.db")
    played = await duel(on_postgres)
    assert (await on_postgres.channel_state("c1"))[0] == "over"
    assert comparable(played) == comparable(await duel(on_sqlite))
    for svc in (on_postgres, on_sqlite):
        await svc.store.close()


async def build_source(db: Path) -> TableService:
    """A SQLite database as a community would have it: a finished game, a running one with an undone
    order and a reminder schedule, table tools whose first stream was published, closed DMs."""
    svc = await make_service(db)
    await duel(svc)  # c1: over
    await ok(svc, ALICE, "game new", "c2", system="test-duel", scenario="race")
    await ok(svc, ALICE, "game join", "c2", seat="north")
    await ok(svc, BOB, "game join", "c2", seat="south")
    await ok(svc, ALICE, "game start", "c2")
    await ok(svc, ADMIN, "game remind", "c2", after="1", every="2")
    await ok(svc, ALICE, "order", "c2", text="pass")
    await ok(svc, ALICE, "game undo", "c2")
    await ok(svc, ALICE, "order", "c2", text="hide")
    await ok(svc, ALICE, "roll", "c3", dice="2d6")
    await ok(svc, BOB, "deck new", "c3", name="d", **{"from": "standard52"})
    await ok(svc, ADMIN, "tools verify", "c3")  # publishes the stream, opens the next
    await ok(svc, BOB, "roll", "c3", dice="1d20")
    await ok(svc, CAROL, "game new", "c5", system="test-duel", scenario="race")  # carol could end it at once
    await ok(svc, ALICE, "game join", "c5", seat="north")
    await ok(svc, BOB, "game join", "c5", seat="south")
    await ok(svc, CAROL, "game start", "c5")
    await ok(svc, BOB, "game end", "c5")  # a vote: the game ends when alice votes too
    await svc.dms_closed("bob")
    return svc


async def go_on(svc: TableService) -> list[Output]:
    """What happens next, identically on either copy."""
    out: list[Output] = []
    out += await ok(svc, ALICE, "game end", "c5")  # bob's vote was copied: this ends it
    out += await ok(svc, BOB, "order", "c2", text="roll")
    out += await ok(svc, ALICE, "order", "c2", text="spend")
    out += await ok(svc, ALICE, "roll", "c3", dice="3d6")
    out += await ok(svc, BOB, "deck draw", "c3", name="d")
    out += await ok(svc, ALICE, "game new", "c4", system="test-duel", scenario="race")  # new ids after copied ones
    for channel in ("c1", "c2"):
        out += await ok(svc, CAROL, "game log", channel)
        out += await ok(svc, CAROL, "game export", channel)
    out += await ok(svc, CAROL, "game verify", "c1")
    out += await svc.due_reminders(10**10)
    return out


async def test_migrate_copies_a_sqlite_database_and_the_games_go_on_equally(pg_url: str, tmp_path: Path) -> None:
    source_db = tmp_path / "wargame.db"
    source = await build_source(source_db)
    expected = await source.store.counts()  # type: ignore[attr-defined]
    assert expected.undone == 2 and expected.dm_closed == 1 and expected.end_votes == 1
    await source.store.close()

    copied = await copy_database(str(source_db), pg_url)
    assert copied == expected

    source_store, target_store = await open_store(source_db), await open_store(pg_url)
    async for batch in source_store.export_games():
        for game, log in batch:
            assert await target_store.game_by_id(game.id) == game  # every column, ids and timestamps kept
            assert await target_store.orders(game.id) == log
    assert await target_store.bookkeeping() == await source_store.bookkeeping()
    await source_store.close()
    await target_store.close()

    on_sqlite, on_postgres = await make_service(source_db, seed_start=500), await make_service(pg_url, seed_start=500)
    assert await on_postgres.closed_dm_users() == {"bob"}
    assert comparable(await go_on(on_postgres)) == comparable(await go_on(on_sqlite))
    assert (await on_postgres.channel_state("c5"))[0] == "over"  # alice's vote completed bob's copied one
    for svc in (on_sqlite, on_postgres):
        await svc.store.close()


def migrate_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "migrate", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


async def test_migrate_command_refuses_a_target_that_is_not_empty(pg_url: str, tmp_path: Path) -> None:
    source_db = tmp_path / "wargame.db"
    svc = await build_source(source_db)
    await svc.store.close()
    first = migrate_cli("--from", str(source_db), "--to", pg_url)
    assert first.returncode == 0, first.stderr
    assert "Copied 5 games (17 orders, 2 of them undone), 1 pending votes" in first.stdout and "counts equal" in first.stdout
    target = await open_store(pg_url)
    before = await target.counts()
    again = migrate_cli("--from", str(source_db), "--to", pg_url)
    assert again.returncode == 1 and again.stderr.strip().endswith("not empty; refusing to copy into it, nothing was written")
    assert len(again.stderr.strip().splitlines()) == 1
    assert await target.counts() == before  # nothing added
    await target.close()


async def test_a_copy_that_does_not_match_its_source_is_rolled_back(store_url: str, tmp_path: Path) -> None:
    """On either backend as the target: a count mismatch leaves the target empty, not half-filled."""
    source_db = tmp_path / "source.db"
    svc = await build_source(source_db)
    source = svc.store
    right = await source.counts()  # type: ignore[attr-defined]
    target = await open_store(store_url)
    wrong = dataclasses.replace(right, orders=right.orders + 1)
    with pytest.raises(CopyRefused, match="does not match"):
        await target.import_copy(source.export_games(), await source.bookkeeping(), wrong)  # type: ignore[attr-defined]
    assert await target.counts() == Counts(0, 0, 0, 0, 0, 0)
    await target.close()
    await source.close()


async def test_the_bot_refuses_a_bad_database_before_serving() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "discord"], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "x",
             "WARGAME_DB": "postgresql://bot:hunter2@/nodb?host=/nonexistent-socket-dir"},
    )
    assert result.returncode == 2
    assert result.stderr.strip().startswith("Not starting: WARGAME_DB: cannot connect to PostgreSQL at postgresql://bot:***@")
    assert len(result.stderr.strip().splitlines()) == 1 and "hunter2" not in result.stderr


async def tools_flow(svc: TableService) -> list[Output]:
    """Table tools in a channel without a game: a published stream (publish_stream) and the next one."""
    out: list[Output] = []
    out += await ok(svc, ALICE, "roll", "t", dice="2d6")
    out += await ok(svc, BOB, "deck new", "t", name="d", **{"from": "standard52"})
    out += await ok(svc, BOB, "deck draw", "t", name="d")
    out += await ok(svc, ADMIN, "tools verify", "t")
    out += await ok(svc, ALICE, "roll", "t", dice="1d20")
    out += await ok(svc, BOB, "deck draw", "t", name="d")
    out += await ok(svc, ADMIN, "tools verify", "t")
    return out


async def test_table_tools_streams_are_published_the_same_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    on_postgres = await make_service(pg_url)
    on_sqlite = await make_service(tmp_path / "tools.db")
    assert comparable(await tools_flow(on_postgres)) == comparable(await tools_flow(on_sqlite))
    current = await on_postgres.store.tools("t")
    assert current is not None and current.status == "tools"
    assert await on_postgres.store.count_games() == 3  # type: ignore[attr-defined]  # two published, one open
    for svc in (on_postgres, on_sqlite):
        await svc.store.close()
