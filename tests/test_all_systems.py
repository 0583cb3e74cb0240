"""Every registered rule system, every scenario, played by random legal orders through the service.

Checks what must hold for all systems alike: no system fails to load; the orders `legal_orders`
offers are accepted; the game ends or keeps offering orders; replaying the log equals the stored
snapshot; nothing sent privately (DMs) is ever echoed in a public message; the spectator's view
holds no private lines; the board renders.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.rooms.seats import replay_state
from bot.service import Output, TableService, User
from games.core.ruleset import UMPIRE, broken_systems, get_ruleset, legal_texts, system_ids
from tests.bot.helpers import make_service

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast

SYSTEMS = [s for s in system_ids() if not s.startswith("test-")]
CASES = [(s, sc.id) for s in SYSTEMS for sc in get_ruleset(s).scenarios()]
MAX_ORDERS = 120


def test_no_system_failed_to_load() -> None:
    assert broken_systems() == {}
    assert {"table", "ironclad-draughts"} <= set(SYSTEMS)


async def _play(svc: TableService, system: str, scenario: str, chooser: random.Random) -> dict[str, object]:
    creator = User("creator", "Creator")
    out = await svc.handle("c", creator, "game new", {"system": system, "scenario": scenario})
    assert not [o for o in out if o.kind == "error"], out
    rules = get_ruleset(system)
    live = await svc.store.live_game("c")
    assert live is not None
    seats = rules.seats(rules.decode(live.snapshot))
    users: dict[str, User] = {}
    for seat in seats:
        if seat.id == UMPIRE:
            continue
        users[seat.id] = User(f"u-{seat.id}", seat.label)
        out = await svc.handle("c", users[seat.id], "game join", {"seat": seat.id})
        assert not [o for o in out if o.kind == "error"], out
    out = await svc.handle("c", creator, "game start", {})
    assert not [o for o in out if o.kind == "error"], out
    outputs: list[Output] = list(out)
    orders = 0
    rejected: list[str] = []
    while orders < MAX_ORDERS:
        row = await svc.store.latest_game("c")
        assert row is not None
        if row.status != "running":
            break
        state = rules.decode(row.snapshot)
        to_act = [s for s in rules.to_act(state) if s in users]
        if not to_act:
            break
        seat = chooser.choice(to_act)
        legal = legal_texts(rules, state, seat)
        if not legal:
            break
        text = chooser.choice(legal)
        idle = [s for s in users if s not in rules.to_act(state)]
        if idle:  # someone else's turn: refused, and nothing changes
            other = chooser.choice(idle)
            out = await svc.handle("c", users[other], "order", {"text": text, "seat": other})
            assert [o for o in out if o.kind == "error"], f"{other} could give {seat}'s order {text!r}"
            after = await svc.store.latest_game("c")
            assert after is not None and after.version == row.version
        out = await svc.handle("c", users[seat], "order", {"text": text, "seat": seat})
        errors = [o.text for o in out if o.kind == "error"]
        if errors:
            rejected.append(f"{seat}: {text!r} -> {errors[0]}")
        outputs += out
        orders += 1
    row = await svc.store.latest_game("c")
    assert row is not None
    state, counter = replay_state(rules, row, await svc.store.orders(row.id, include_undone=False))
    assert rules.encode(state) == row.snapshot and counter == row.counter, "replay differs from the snapshot"
    cached = svc.table.decode(row).state  # the service's in-memory state: views must not have changed it
    assert rules.encode(cached) == row.snapshot, "a view or query mutated the cached state"
    public = "\n".join(o.text for o in outputs if o.kind == "message")
    for dm in (o for o in outputs if o.kind == "dm"):
        for line in dm.text.split("\n"):
            if len(line) >= 25:
                assert line not in public, f"private line published: {line!r}"
    spectator = rules.view(state, None)
    assert spectator.private_text == ()
    for counter_view in spectator.counters:
        if counter_view.face_down:
            assert not counter_view.label or counter_view.label == "?", counter_view
    return {"orders": orders, "status": row.status, "rejected": rejected, "view": spectator}


@pytest.mark.parametrize(("system", "scenario"), CASES)
def test_random_legal_playout(system: str, scenario: str, tmp_path: Path) -> None:
    async def main() -> dict[str, object]:
        svc = await make_service(tmp_path / "g.db", seed_start=hash((system, scenario)) % 10_000)
        try:
            return await _play(svc, system, scenario, random.Random(f"{system}/{scenario}"))
        finally:
            await svc.store.close()

    result = asyncio.run(main())
    if system != "table":  # the free table names nobody to act
        assert result["orders"] > 0, "nobody was ever asked to act"
    assert result["rejected"] == [], f"legal_orders offered orders that apply() refused: {result['rejected'][:3]}"
    from render import render_png

    png = render_png(result["view"])  # type: ignore[arg-type]
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 300_000
