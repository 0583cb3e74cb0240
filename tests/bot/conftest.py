"""Store tests run on both backends: ``store_url`` is a fresh SQLite file or PostgreSQL database."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's store lives: a file path for SQLite, a new database's URL for PostgreSQL."""
    if backend == "sqlite":
        return str(tmp_path / "store.db")
    return str(request.getfixturevalue("pg_url"))
