"""Fixtures for the core tests: data-pack isolation so no test leaks packs or caches into another."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from games.core import data, maps


def _clear_caches() -> None:
    data.load.cache_clear()
    maps.load_map.cache_clear()


@pytest.fixture
def clean_data(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No packs from the environment or from earlier tests; caches empty before and after."""
    monkeypatch.delenv("WARGAME_DATA_PACKS", raising=False)
    monkeypatch.setattr(data, "_packs", None)
    _clear_caches()
    yield
    _clear_caches()


@pytest.fixture
def write_pack(tmp_path: Path) -> Callable[[str, str, str], Path]:
    """Writes ``text`` to ``relpath`` inside pack directory ``pack`` under tmp; returns the pack root."""

    def write(pack: str, relpath: str, text: str) -> Path:
        root = tmp_path / pack
        target = root / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        return root

    return write
