"""Store tests run on both backends: ``store_url`` is a fresh SQLite file or PostgreSQL database;
``svc`` is a table service on a fresh SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import TableService
from tests.bot.helpers import make_service


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's store lives: a file path for SQLite, a new database's URL for PostgreSQL."""
    if backend == "sqlite":
        return str(tmp_path / "store.db")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[TableService]:
    """A table service on a fresh SQLite file, closed after the test."""
    service = await make_service(tmp_path / "table.db")
    yield service
    await service.store.close()
