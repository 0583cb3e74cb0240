"""The free table's house values from ``data/table/table.toml`` (side colours and size limits)."""

from __future__ import annotations

from functools import lru_cache

from games.core.data import on_reload
from games.core.schema import decode
from games.table.schema import TableFile

LABEL_FORBIDDEN = frozenset("<>@`*~|")  # mentions and markdown would ping or garble every message naming it


@lru_cache(maxsize=1)
def settings() -> TableFile:
    """The table's house values, read once (again after a data pack reload); a bad value is
    refused naming the pack, file, key and what was expected (``games.core.schema.decode``)."""
    return decode("table/table.toml", TableFile)


on_reload(settings.cache_clear)
