"""Hostile input through the service: user text never formatted, huge numbers refused, replays bounded."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from bot.rooms.records import replay_frames
from bot.service import MAX_REPLAY_FRAMES, TableService, replay_steps
from tests.bot.helpers import ALICE, BOB, CAROL, errors, ok, run


async def started_table(svc: TableService) -> None:
    await ok(svc, ALICE, "game new", system="table", scenario="free", options="sides=Peru,Chile")
    await ok(svc, ALICE, "game join", seat="peru")
    await ok(svc, BOB, "game join", seat="chile")
    await ok(svc, ALICE, "game start")


def frames_of(gif: bytes) -> int:
    with Image.open(io.BytesIO(gif)) as img:
        return int(getattr(img, "n_frames", 1))


async def test_order_text_with_format_fields_is_shown_literally_and_replays(svc: TableService) -> None:
    await started_table(svc)
    for text in ("{0}", "{seat:>20000000}", "{seat.__class__}", "}{"):
        await ok(svc, ALICE, "order", text=text)
    out = await ok(svc, CAROL, "game replay")
    assert out[0].file is not None and frames_of(out[0].file[1]) == 5
    loaded = await svc.table.latest("c1")
    orders = await svc.store.orders(loaded.row.id, include_undone=False)
    shown = {i: (i, o.text) for i, o in enumerate(orders, start=1)}
    _, captions = replay_frames(loaded.row, orders, shown, replay_steps(len(orders), 10))
    assert captions == ["Set-up", "1. Peru: {0}", "2. Peru: {seat:>20000000}", "3. Peru: {seat.__class__}", "4. Peru: }{"]


@pytest.mark.slow
async def test_a_long_game_is_sampled_and_the_reply_says_so(svc: TableService) -> None:
    await started_table(svc)
    await ok(svc, ALICE, "order", text="place A a1")
    for i in range(MAX_REPLAY_FRAMES + 30):
        await ok(svc, ALICE, "order", text=f"move A {'ab'[i % 2]}2")
    out = await ok(svc, CAROL, "game replay")
    total = MAX_REPLAY_FRAMES + 31
    assert out[0].file is not None and frames_of(out[0].file[1]) == MAX_REPLAY_FRAMES
    assert f"Replay of {total} orders in {MAX_REPLAY_FRAMES} frames" in out[0].text


async def test_a_short_game_shows_every_order(svc: TableService) -> None:
    await started_table(svc)
    await ok(svc, ALICE, "order", text="place A a1")
    out = await ok(svc, CAROL, "game replay")
    assert out[0].text == "Replay of 1 order." and out[0].file is not None and frames_of(out[0].file[1]) == 2


@given(st.integers(0, 5000), st.integers(2, 300))
def test_replay_steps_keep_setup_and_last_and_respect_the_cap(orders: int, cap: int) -> None:
    steps = replay_steps(orders, cap)
    assert steps == sorted(set(steps)) and steps[0] == 0 and steps[-1] == orders
    assert len(steps) == min(cap, orders + 1)


async def test_thousands_of_digits_get_a_message_not_a_crash(svc: TableService) -> None:
    huge = "9" * 4400
    refused = errors(await run(svc, ALICE, "roll", dice="1d6+" + huge))
    assert refused and "too large" in refused[0]
    await started_table(svc)
    before = await svc.store.latest_game("c1")
    refused = errors(await run(svc, ALICE, "order", text=f"place A a{huge}"))
    assert refused and "too long" in refused[0] and len(refused[0]) < 400
    after = await svc.store.latest_game("c1")
    assert before is not None and after is not None and after.version == before.version  # nothing stored
    await ok(svc, ALICE, "order", text="place A a1")
