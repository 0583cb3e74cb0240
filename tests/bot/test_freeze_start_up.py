"""The bot freezes its start-up heap once per process (bot.workers.freeze_start_up)."""

from __future__ import annotations

import gc

import pytest

from bot import workers


def test_the_start_up_heap_is_collected_then_frozen_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(workers, "_frozen", False)
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    workers.freeze_start_up()
    workers.freeze_start_up()  # a second client in the same process (tests) freezes nothing more
    assert calls == ["collect", "freeze"]
