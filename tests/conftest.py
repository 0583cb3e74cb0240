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
