"""The server (guild) a game belongs to, on both backends: recorded at creation, filled lazily for
games made before schema 6, and listed newest activity first for /game list."""

from __future__ import annotations

import pytest

import tests.bot.duel  # noqa: F401
from bot import store as sqlite_store
from bot import store_pg
from bot.storage import open_store

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
