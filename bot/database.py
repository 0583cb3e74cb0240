"""The one way the bot opens its database (WARGAME_DB): PostgreSQL for ``postgresql://...``, else
SQLite. It sits above the stores so that bot/storage.py (the rows, errors and the ``Backend``
protocol every store implements) imports no store.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage import Backend, StoreUnavailable, is_postgres, sqlite_path

DEFAULT_DB = "var/wargame.db"  # WARGAME_DB when unset: a SQLite file under the working directory


def check_store(url: str | Path) -> str | None:
    """Open (and migrate) the database once before serving: None if it works, else the one-line
    reason, so a bad WARGAME_DB stops the start with a message instead of a traceback later."""
    async def attempt() -> None:
        store = await open_store(url)
        await store.close()

    try:
        asyncio.run(attempt())
    except StoreUnavailable as exc:
        return str(exc)
    return None


async def open_store(url: str | Path) -> Backend:
    """The one way the bot opens its database: PostgreSQL for ``postgresql://...``, else SQLite.
    Migrates the schema forward; raises StoreUnavailable with a one-line reason when it cannot."""
    if is_postgres(url):
        from bot.store_pg import PgStore

        return await PgStore.open(str(url))
    from bot.store import Store

    return await Store.open(sqlite_path(url))
