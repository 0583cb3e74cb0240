"""Replay, verify and export never hold the channel's lock while they work (issue 26): they read the
game at one version under it, then work in the worker pool, so orders and status in that channel
answer at once. One of each runs per game (whoever asks meanwhile is told so and sent theirs), a
finished answer for an unchanged version is reused, and each user has a short cool-down.

The heavy work is held at a gate (a threading.Event) so the tests assert on what answers while it is
held, not on timings; the wait_for bounds only keep a regression from hanging the suite."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from bot import workers
from bot.rooms import records
from bot.rooms.records import COOL_DOWN, COSTLY
from bot.service import Output, TableService
from tests.bot.helpers import ALICE, BOB, CAROL, errors, ok, run

pytestmark = pytest.mark.cool_down  # these tests are about the cool-down: keep it (tests/conftest.py)

GUARD = 60.0  # only against a hang: every assertion is on order of events


class Gate:
    """Holds the heavy work (in its worker thread) until released, counting how often it ran."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.open = threading.Event()
        self.runs = 0
        self.during: Any = None  # called while held (a test's clock moving on: the work took time)

    def hold(self) -> None:
        self.runs += 1
        self.entered.set()
        assert self.open.wait(GUARD)
        if self.during is not None:
            self.during()

    async def reached(self) -> None:
        assert await asyncio.to_thread(self.entered.wait, GUARD)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch, svc: TableService) -> Iterator[Gate]:
    gate = Gate()
    real_fold, real_verify = records.fold, records.verify_export

    def slow_fold(*args: Any, **kwargs: Any) -> Iterator[Any]:
        gate.hold()
        yield from real_fold(*args, **kwargs)

    def slow_verify(data: dict[str, Any]) -> str:
        gate.hold()
        return real_verify(data)

    monkeypatch.setattr(records, "fold", slow_fold)
    monkeypatch.setattr(records, "verify_export", slow_verify)
    svc.table.work = workers.in_thread  # the patched functions run in this process
    yield gate
    gate.open.set()


async def table_game(svc: TableService, orders: int = 6) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Peru,Chile")
    await ok(svc, ALICE, "game join", seat="peru")
    await ok(svc, BOB, "game join", seat="chile")
    await ok(svc, ALICE, "game start")
    await ok(svc, ALICE, "order", text="place A a1")
    for i in range(orders - 1):
        await ok(svc, ALICE, "order", text=f"move A {'ab'[i % 2]}2")


@pytest.mark.slow
@pytest.mark.parametrize("command", ["game replay", "game verify"])
async def test_status_and_orders_answer_while_a_replay_or_verify_of_that_game_works(
        svc: TableService, gate: Gate, command: str) -> None:
    await table_game(svc)
    heavy = asyncio.create_task(svc.handle("c1", CAROL, command, {}))
    try:
        await gate.reached()
        status = await asyncio.wait_for(svc.handle("c1", BOB, "game status", {}), GUARD)
        order = await asyncio.wait_for(svc.handle("c1", ALICE, "order", {"text": "move A a3"}), GUARD)
        assert not heavy.done()  # both answered while the replay or verify was still at work
    finally:
        gate.open.set()
    assert not errors(status) and not errors(order)
    out = await asyncio.wait_for(heavy, GUARD)
    assert not errors(out)
    if command == "game replay":
        # drawn from the version it read: the order given meanwhile is not in it
        assert out[0].text == "Replay of 6 orders." and out[0].file is not None
    else:
        assert "**Verified**" in out[0].text


async def test_a_second_ask_is_answered_at_once_and_sent_the_same_replay(svc: TableService, gate: Gate) -> None:
    await table_game(svc)
    first = asyncio.create_task(svc.handle("c1", CAROL, "game replay", {}))
    try:
        await gate.reached()
        second = await asyncio.wait_for(svc.handle("c1", BOB, "game replay", {}), GUARD)
        assert not first.done()
    finally:
        gate.open.set()
    assert [o.text for o in second] == ["A replay of this game is already being drawn; you will be sent yours (as a "
                                        "private message) when it is ready."]
    out: list[Output] = await asyncio.wait_for(first, GUARD)
    assert [(o.kind, o.to) for o in out] == [("ephemeral", "carol"), ("ephemeral", "bob")]
    assert out[0].file is not None and out[0].file == out[1].file
    assert gate.runs == 1  # drawn once for both


async def test_a_quick_run_starts_no_cool_down(svc: TableService) -> None:
    """A verify of a small game costs nothing: asking again at once (a new version) is answered."""
    now = [1000.0]
    svc.table.clock = lambda: now[0]
    await table_game(svc)
    assert not errors(await run(svc, CAROL, "game verify"))
    await ok(svc, ALICE, "order", text="move A a3")
    assert not errors(await run(svc, CAROL, "game verify"))


@pytest.mark.slow
async def test_an_unchanged_version_is_not_redrawn_and_each_user_has_a_cool_down(svc: TableService, gate: Gate) -> None:
    """The cool-down follows a costly run (here each takes 2 s on the test's clock)."""
    gate.open.set()
    now = [1000.0]
    svc.table.clock = lambda: now[0]
    gate.during = lambda: now.__setitem__(0, now[0] + 2 * COSTLY)
    await table_game(svc)
    drawn = await ok(svc, CAROL, "game replay")
    again = await ok(svc, BOB, "game replay")
    again_mine = await ok(svc, CAROL, "game replay")  # a kept answer: no cool-down for it
    assert gate.runs == 1 and drawn[0].file == again[0].file == again_mine[0].file
    await ok(svc, ALICE, "order", text="move A a3")
    now[0] += 5  # started 2 s of work and 5 s ago: 7 s
    refused = errors(await run(svc, CAROL, "game replay"))
    assert refused == [f"You started a /game replay 7 s ago; each person may start one every {COOL_DOWN:.0f} s. "
                       f"Ask again in {COOL_DOWN - 7:.0f} s."]
    assert gate.runs == 1
    assert not errors(await run(svc, CAROL, "game verify"))  # another kind has its own cool-down
    runs = gate.runs
    now[0] += COOL_DOWN
    redrawn = await ok(svc, CAROL, "game replay")
    assert gate.runs == runs + 1 and redrawn[0].text == "Replay of 7 orders."  # a new version: drawn again


async def test_the_worker_pool_draws_a_replay_and_checks_a_game(svc: TableService) -> None:
    """The bot's own runner: worker processes (forkserver), not this process's threads."""
    try:
        await table_game(svc, orders=3)
        out = await ok(svc, CAROL, "game replay")
        assert out[0].text == "Replay of 3 orders." and out[0].file is not None and out[0].file[1][:6] == b"GIF89a"
        out = await ok(svc, CAROL, "game verify")
        assert "**Verified**" in out[0].text
        assert workers._pool is not None  # it ran there
    finally:
        workers.shutdown()
