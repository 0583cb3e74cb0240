"""Stored games replay from their logged order text: the typed orders (issue 14) must read every
text the old parser read, print the same canonical text, list the same legal orders and report
the same events as the recording made before the conversion (``order_texts.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ironclad_draughts.order_texts import GAMES, compact, load_fixture, record


@pytest.fixture(scope="module")
def recorded() -> tuple[dict[str, Any], dict[str, Any]]:
    return load_fixture(), compact(record())


def first_difference(before: Any, now: Any, where: str = "") -> str:
    """Where two records part, for a readable failure."""
    if isinstance(before, dict) and isinstance(now, dict):
        for key in before.keys() | now.keys():
            if before.get(key) != now.get(key):
                return first_difference(before.get(key), now.get(key), f"{where}/{key}")
    if isinstance(before, list) and isinstance(now, list) and len(before) == len(now):
        for i, (a, b) in enumerate(zip(before, now, strict=True)):
            if a != b:
                return first_difference(a, b, f"{where}[{i}]")
    return f"{where}: recorded {before!r}, now {now!r}"


def test_the_recording_covers_every_reading_option_and_many_texts(recorded: tuple[dict[str, Any], dict[str, Any]]) -> None:
    before, _ = recorded
    assert len(before["games"]) == len(GAMES)
    probes = [r for steps in before["games"].values() for s in steps for r in s.get("probes", {}).values()]
    assert sum(r[0] == "ok" for r in probes) > 10_000 and sum(r[0] != "ok" for r in probes) > 10_000


@pytest.mark.parametrize("key", [f"{s}|{n}" for s, n, _ in GAMES])
def test_playout_texts_events_and_views_are_unchanged(recorded: tuple[dict[str, Any], dict[str, Any]], key: str) -> None:
    before, now = recorded
    game = next(k for k in before["games"] if k.startswith(key + "|"))
    assert before["games"][game] == now["games"][game], first_difference(before["games"][game], now["games"][game])


def test_option_answers_are_unchanged(recorded: tuple[dict[str, Any], dict[str, Any]]) -> None:
    before, now = recorded
    assert before["options"] == now["options"], first_difference(before["options"], now["options"])
