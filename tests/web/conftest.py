"""A table service on a fresh SQLite file and the web companion over the same store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web as aioweb
from aiohttp.test_utils import TestClient, TestServer

from bot.service import TableService
from bot.storage import Backend
from bot.web.server import WebServer
from tests.bot.helpers import make_service

SERVER = aioweb.AppKey("server", WebServer)


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[TableService]:
    service = await make_service(tmp_path / "table.db", seed_start=1)  # the Union moves first in turn 1
    yield service
    await service.store.close()


@pytest.fixture
async def web(svc: TableService) -> AsyncIterator[TestClient[object, object]]:
    """An HTTP client of a web server on the service's store (its own TableService, as a separate
    ``python -m bot web`` process would have)."""
    store: Backend = svc.store  # type: ignore[assignment]
    server = WebServer(store, rate=1000, burst=1000)
    app = server.app()
    app[SERVER] = server
    async with TestClient(TestServer(app)) as client:
        yield client
