"""WARGAME_DRAW_WORKERS: boards are drawn in one worker process per core unless told otherwise."""

from __future__ import annotations

import os

from bot.discord_app import draw_workers_from_env


def test_the_drawing_processes_default_to_one_per_core_and_zero_keeps_the_thread() -> None:
    cores = os.cpu_count() or 1
    assert draw_workers_from_env({}) == cores
    assert draw_workers_from_env({"WARGAME_DRAW_WORKERS": " "}) == cores
    assert draw_workers_from_env({"WARGAME_DRAW_WORKERS": "0"}) == 0  # one thread in the bot's process
    assert draw_workers_from_env({"WARGAME_DRAW_WORKERS": "3"}) == 3
    assert draw_workers_from_env({"WARGAME_DRAW_WORKERS": "many"}) == cores  # logged, not fatal
