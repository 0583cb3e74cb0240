"""The free table's house values from ``data/table/table.toml`` (side colours and size limits)."""

from __future__ import annotations

from functools import lru_cache

import msgspec

from games.core.data import load, on_reload
from games.core.errors import DataError
from games.table.schema import TableFile

LABEL_FORBIDDEN = frozenset("<>@`*~|")  # mentions and markdown would ping or garble every message naming it


@lru_cache(maxsize=1)
def settings() -> TableFile:
    """The table's house values, read once (again after a data pack reload)."""
    record = load("table/table.toml")
    try:
        return msgspec.convert(record.doc, TableFile)
    except msgspec.ValidationError as exc:
        raise DataError(f"{record.file}: {exc}") from exc


on_reload(settings.cache_clear)
