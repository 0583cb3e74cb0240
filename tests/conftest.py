"""Session-wide fixtures: a throwaway PostgreSQL server, started only when a test asks for it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.pg import SKIP_REASON, PgServer, find_binaries


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL server for the whole run (skips when its binaries are missing)."""
    bindir = find_binaries()
    if bindir is None:
        pytest.skip(SKIP_REASON)
    server = PgServer(bindir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
async def pg_url(pg_server: PgServer) -> AsyncIterator[str]:
    """A fresh, empty database for one test, dropped afterwards."""
    url = await pg_server.new_database()
    yield url
    await pg_server.drop_database(url)


@pytest.fixture(autouse=True)
def _cool_down_not_from_machine_speed(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay or verify that took 1 s or more starts its asker's cool-down. On a loaded machine a
    small game's check can take that long, and a test asking twice would be refused by the speed
    of the machine, not by what it tests. Tests of the cool-down itself (marked cool_down) keep it."""
    if request.node.get_closest_marker("cool_down") is None:
        monkeypatch.setattr("bot.rooms.records.COSTLY", float("inf"))
