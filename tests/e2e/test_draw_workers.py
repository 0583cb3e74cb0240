"""Boards drawn in worker processes (WARGAME_DRAW_WORKERS): the same picture as the drawing thread
gives, and a killed worker costs no board (issue 25 item 3)."""

from __future__ import annotations

import os
import signal

import pytest

from bot.service import User
from render import render_png
from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import FakeDiscord, FakeInteraction

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def png_of(ix: FakeInteraction) -> bytes:
    return next(a.data for m in ix.messages() for a in m.attachments if a.filename.endswith(".png"))


async def test_boards_come_from_the_worker_and_a_killed_worker_is_replaced(fake: FakeDiscord, runner: BotRunner) -> None:
    bot = await runner.start(draw_workers=1)
    peru, chile, carol = fake.add_user("peru-player"), fake.add_user("chile-player"), fake.add_user("carol")
    await fake.run(peru, "game new", {"system": "table", "scenario": "free", "options": "sides=Peru,Chile"}, timeout=30)
    await fake.run(peru, "game join", {"seat": "peru"}, timeout=30)
    await fake.run(chile, "game join", {"seat": "chile"}, timeout=30)
    await fake.run(peru, "game start", timeout=30)
    await fake.run(peru, "order", {"text": "place Huascar d1 N"}, timeout=30)
    assert bot.drawer.processes is not None, "the board was not sent to a drawing process"
    workers = list(bot.drawer.processes._processes)  # the pool's own pids, to kill them below
    assert workers

    looked = await fake.run(carol, "game board", timeout=30)  # drawn in the worker
    outputs = await bot.service.handle(fake.general, User(carol.id, carol.name), "game board", {})
    view = next(o.view for o in outputs if o.view is not None)
    assert png_of(looked) == render_png(view)  # byte for byte what the thread would have drawn

    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    placed = await fake.run(chile, "order", {"text": "place Esmeralda d8 S"}, timeout=30)
    assert any(m.has_image() for m in placed.public()), [m.text() for m in placed.messages()]  # drawn in the thread
    moved = await fake.run(peru, "order", {"text": "move Huascar d4 NE"}, timeout=30)
    assert any(m.has_image() for m in moved.public()), [m.text() for m in moved.messages()]
    assert bot.drawer.processes is not None and set(bot.drawer.processes._processes).isdisjoint(workers)  # new ones
    assert not fake.violations
