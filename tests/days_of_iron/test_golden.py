"""Recorded games replay exactly: every order text typed then still parses to the same canonical text
(the line stored games replay from), with the same events, legal orders, views and answers to good
and bad probe orders. The recordings were made before the issue-14 conversion (see golden.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.days_of_iron.golden import FIXTURE, play

RECORDED: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.mark.slow  # replays whole recorded games: left out of `tasks.py test --fast`
@pytest.mark.parametrize("game", RECORDED, ids=lambda g: f"{g['scenario']}-{g['seed']}")
def test_recorded_game_replays_exactly(game: dict[str, Any]) -> None:
    now = play({k: game[k] for k in ("scenario", "seed", "options", "pack")})
    for i, (then, got) in enumerate(zip(game["steps"], now["steps"], strict=False)):
        assert got == then, f"step {i}: {then['seat']} {then['input']!r}"
    assert len(now["steps"]) == len(game["steps"])
    assert now["final"] == game["final"]


def test_recordings_cover_every_order() -> None:
    verbs = {s["text"].split()[0] for g in RECORDED for s in g["steps"] if "text" in s}
    assert verbs >= {"staff", "hide", "offboard", "cancel", "scout", "ready", "initiative", "next", "reveal", "dust",
                     "loss", "rout", "rally", "routed-off", "captured", "killed", "promote", "objective", "morale",
                     "table", "dispute", "check", "end"}
