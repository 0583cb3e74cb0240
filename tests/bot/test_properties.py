"""Property tests: random orders against the test duel through the real service and store.

Replaying the log equals the snapshot; a rejected order changes nothing; commitments verify;
a secret value never appears in any public output.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.bot.duel  # noqa: F401  (registers test-duel)
from bot.rooms.seats import replay_state
from bot.service import TableService
from games.core.rng import check_seal
from games.core.ruleset import get_ruleset
from tests.bot.helpers import ALICE, BOB, CAROL, errors, make_service, ok

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast

ORDERS = st.lists(
    st.tuples(st.sampled_from([ALICE, BOB, CAROL]), st.sampled_from(["roll", "hide", "spend", "pass", "jump", ""])),
    max_size=40,
)
OWNER = {"north": "alice", "south": "bob"}
TOOL_ACTIONS = st.lists(
    st.sampled_from(["roll", "secret", "reveal", "draw", "hand", "seal"]), max_size=15
)


async def _play(svc: TableService, orders: list[tuple[object, str]]) -> None:
    await ok(svc, ALICE, "game new", system="test-duel", scenario="race")
    await ok(svc, ALICE, "game join", seat="north")
    await ok(svc, BOB, "game join", seat="south")
    await ok(svc, CAROL, "game join", seat="umpire")
    await ok(svc, ALICE, "game start")
    public: list[str] = []
    secrets: list[str] = []
    for user, text in orders:
        row = await svc.store.latest_game("c1")
        assert row is not None
        before = (row.version, row.counter)
        out = await svc.handle("c1", user, "order", {"text": text})  # type: ignore[arg-type]
        after_row = await svc.store.latest_game("c1")
        assert after_row is not None
        if errors(out):
            assert (after_row.version, after_row.counter) == before
        public += [o.text for o in out if o.kind == "message"]
        for o in out:
            for m in re.finditer(r"SECRET-(north|south)-\d-\d+", o.text):
                assert o.kind == "dm" and o.to in {OWNER[m.group(1)], "carol"}, o
                secrets.append(m.group(0))
        if after_row.status == "over":
            break
    row = await svc.store.latest_game("c1")
    assert row is not None
    rules = get_ruleset("test-duel")
    state, counter = replay_state(rules, row, await svc.store.orders(row.id, include_undone=False))
    assert rules.encode(state) == row.snapshot and counter == row.counter
    for secret in secrets:
        assert all(secret not in text for text in public)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ORDERS)
def test_random_orders_replay_to_the_snapshot(orders: list[tuple[object, str]]) -> None:
    async def scenario() -> None:
        with tempfile.TemporaryDirectory() as d:
            svc = await make_service(Path(d) / "p.db")
            try:
                await _play(svc, orders)
            finally:
                await svc.store.close()

    asyncio.run(scenario())


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TOOL_ACTIONS)
def test_table_tools_keep_secrets_and_commitments(actions: list[str]) -> None:
    async def scenario() -> None:
        with tempfile.TemporaryDirectory() as d:
            svc = await make_service(Path(d) / "tools.db")
            try:
                await ok(svc, ALICE, "deck new", name="cards", **{"from": "standard52"})
                public: list[str] = []
                private: list[str] = []
                rolls = 0
                for i, action in enumerate(actions):
                    user = (ALICE, BOB)[i % 2]
                    if action == "roll":
                        out = await svc.handle("c1", user, "roll", {"dice": "2d6"})
                    elif action == "secret":
                        out = await svc.handle("c1", user, "roll", {"dice": "1d100", "secret": "true", "purpose": "p"})
                        rolls += 1
                    elif action == "reveal":
                        out = await svc.handle("c1", user, "reveal", {"roll": str(max(rolls, 1))})
                    elif action == "draw":
                        out = await svc.handle("c1", user, "deck draw", {"name": "cards", "to": "hand"})
                    elif action == "hand":
                        out = await svc.handle("c1", user, "hand", {})
                    else:
                        out = await svc.handle("c1", user, "seal", {"text": f"plan {i}"})
                    public += [o.text for o in out if o.kind == "message"]
                    private += [o.text for o in out if o.kind in ("dm", "ephemeral")]
                text = "\n".join(public)
                # every commitment revealed publicly checks out
                for m in re.finditer(r"\*p\*: (.*)\nNonce `([0-9a-f]+)`; check: .* commitment `([0-9a-f]+)`", text):
                    assert check_seal(m.group(1), m.group(2), m.group(3))
                # a drawn card stays out of public text; an unrevealed secret roll's result too
                for p in private:
                    drawn = re.match(r"You drew \*\*(.+)\*\* from cards", p)
                    if drawn:
                        assert f"**{drawn.group(1)}**" not in text
                    roll = re.match(r"Your secret roll #(\d+) \(p\): (.*)\n", p)
                    if roll and f"Secret roll #{roll.group(1)} by" not in text:
                        assert roll.group(2) not in text
            finally:
                await svc.store.close()

    asyncio.run(scenario())
