"""The server (guild) a game belongs to, on both backends: recorded at creation, filled lazily for
games made before schema 6, and listed newest activity first for /game list."""

from __future__ import annotations

from pathlib import Path

import pytest

import tests.bot.duel  # noqa: F401
from bot import store as sqlite_store
from bot import store_pg
from bot.database import open_store
from bot.service import LIST_PAGE, User
from tests.bot.helpers import ALICE, BOB, CAROL, errors, make_service, ok, run

GAME = dict(system="test-duel", scenario="race", options={}, seed=b"x" * 32, commitment="c", status="setup",
            snapshot={}, counter=0, creator="u")


async def test_games_are_listed_by_server_newest_activity_first(store_url: str) -> None:
    store = await open_store(store_url)
    a = await store.create_game(channel="a", guild="g1", **GAME)  # type: ignore[arg-type]
    b = await store.create_game(channel="b", guild="g1", **GAME)  # type: ignore[arg-type]
    await store.create_game(channel="elsewhere", guild="g2", **GAME)  # type: ignore[arg-type]
    tools = dict(GAME, system="tools", status="tools")
    await store.create_game(channel="a", guild="g1", **tools)  # type: ignore[arg-type]
    assert a.guild == "g1"
    assert [g.channel for g in await store.guild_games("g1", limit=10)] == ["b", "a"]  # tools streams are not games
    await store.update_game(a, status="running")  # activity in a: it comes first
    assert [g.channel for g in await store.guild_games("g1", limit=10)] == ["a", "b"]
    assert [g.channel for g in await store.guild_games("g1", limit=1, offset=1)] == ["b"]
    assert await store.guild_games("g1", limit=10, offset=2) == []
    assert [g.id for g in await store.guild_games("g1", limit=10)] == [a.id, b.id]
    assert (await store.game_by_id(b.id)).guild == "g1"  # type: ignore[union-attr]
    await store.close()


async def test_games_from_before_schema_6_get_their_server_when_their_channel_is_used(
    store_url: str, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = sqlite_store if backend == "sqlite" else store_pg
    monkeypatch.setattr(module, "MIGRATIONS", module.MIGRATIONS[:5])
    old = await open_store(store_url)
    assert await old.schema_version() == 5
    await old._fetch(  # type: ignore[attr-defined]
        "INSERT INTO games (channel, system, scenario, options, seed, commitment, status, version, snapshot, counter,"
        " seats, creator, created, updated) VALUES ('old', 'test-duel', 'race', '{}', "
        + ("X'00'" if backend == "sqlite" else "'\\x00'::bytea")
        + ", 'c', 'over', 3, '{}', 0, '{}', 'u', 1, 1)", write=True)
    await old.close()
    monkeypatch.undo()

    store = await open_store(store_url)
    assert await store.schema_version() == len(module.MIGRATIONS) >= 6
    assert await store.guild_games("g1", limit=10) == []  # not known yet: not listed
    [row] = await store.guild_games("", limit=10)
    assert row.channel == "old" and row.guild == "" and row.version == 3
    await store.fill_guild("old", "g1")
    [row] = await store.guild_games("g1", limit=10)
    assert row.channel == "old" and row.version == 3  # bookkeeping: the game's version is untouched
    await store.fill_guild("old", "g2")  # a known server is never overwritten
    assert [r.channel for r in await store.guild_games("g1", limit=10)] == ["old"]
    await store.close()


async def test_game_list_shows_the_servers_games_and_whose_turn_without_pinging(store_url: str) -> None:
    svc = await make_service(store_url)
    await svc.note_guild("c1", "g1")
    await svc.note_guild("c2", "g1")
    await svc.note_guild("x", "g2")
    await ok(svc, ALICE, "game new", "c1", system="test-duel", scenario="race")
    await ok(svc, ALICE, "game new", "x", system="test-duel", scenario="race")  # another server's
    await ok(svc, BOB, "game new", "c2", system="test-duel", scenario="race")
    await ok(svc, User("a2", "Alice *the* <@1>"), "game join", "c2", seat="north")
    await ok(svc, CAROL, "game join", "c2", seat="south")
    await ok(svc, BOB, "game start", "c2")
    await ok(svc, ALICE, "game join", "c1", seat="north")

    listed = await ok(svc, CAROL, "game list", "c2")
    assert [o.kind for o in listed] == ["ephemeral"]
    lines = listed[0].text.splitlines()
    assert lines[1].startswith("1. <#c1> **Test duel** (race): setting up, open seats: South")  # joined last
    assert lines[2].startswith("2. <#c2> **Test duel** (race): running, to act: North (Alice \\*the\\* \\<\\@1\\>)")
    assert len(lines) == 3 and "<#x>" not in listed[0].text
    assert "<@" not in listed[0].text  # names, never mentions: a list pings nobody

    await ok(svc, ALICE, "game end", "c1")
    assert "<#c1> **Test duel** (race): over" in (await ok(svc, CAROL, "game list", "c2"))[0].text
    alone = await ok(svc, CAROL, "game list", "elsewhere")  # a channel the front end did not place
    assert alone[0].text.startswith("No games")
    await svc.store.close()


async def test_game_list_pages(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "s.db")
    for i in range(LIST_PAGE + 2):
        await svc.note_guild(f"c{i}", "g")
        await ok(svc, ALICE, "game new", f"c{i}", system="test-duel", scenario="race")
    first = (await ok(svc, BOB, "game list", "c0"))[0].text
    assert f"{LIST_PAGE}. <#c2>" in first and "More: /game list page:2" in first
    second = (await ok(svc, BOB, "game list", "c0", page="2"))[0].text
    assert f"{LIST_PAGE + 1}. <#c1>" in second and f"{LIST_PAGE + 2}. <#c0>" in second and "More" not in second
    assert errors(await run(svc, BOB, "game list", "c0", page="3"))
    assert errors(await run(svc, BOB, "game list", "c0", page="0"))
    await svc.store.close()
