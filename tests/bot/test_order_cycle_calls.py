"""What one order cycle asks of the store and of the rules (issue 25, "one result per order").

The cycle is the bot's own (``TableBot`` without Discord, as benchmarks/order_path.py runs it): an
autocomplete of ``/order text:`` (its claim, the legal orders), the ``/order`` (its claim, the
command, the buttons under its post), the claim's outcome and the status message's refresh. The
store is counted by a wrapper round every public call, the rules by wrappers round the ruleset's
methods. The old code made 12 store calls a cycle (three reads of the game for the buttons and
the status alone, the whole order log for every status) and asked the rules 14-17 times; then 7
(a read of the game per interaction, the status's read of the votes, the outcome's own write).
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.database import open_store
from bot.discord_app import TableBot
from bot.service import TableService, User
from games.core.rng import seed_from_number
from games.core.ruleset import get_ruleset

RULES_METHODS = ("to_act", "view", "outcome", "format_order", "legal_orders", "apply", "resolve", "seats",
                 "summary", "parse_order", "encode", "decode")


class Counting:
    """Counts the calls of an object's public coroutine methods (the store's)."""

    def __init__(self, target: Any) -> None:
        self.calls: Counter[str] = Counter()
        for name in dir(target):
            method = getattr(target, name)
            if not name.startswith("_") and name != "close" and callable(method) and _is_coroutine(method):
                setattr(target, name, self._wrap(name, method))

    def _wrap(self, name: str, method: Any) -> Any:
        async def call(*a: Any, **k: Any) -> Any:
            self.calls[name] += 1
            return await method(*a, **k)

        return call


def _is_coroutine(method: Any) -> bool:
    import inspect

    return inspect.iscoroutinefunction(method)


class StatusBot(TableBot):
    async def _put_status(self, channel: str, message_id: str | None, embed: Any) -> str:
        return message_id or "4242"  # no Discord here: the post answers at once


def _interaction(number: int, kind: Any, user: str, channel: str, data: dict[str, Any]) -> Any:
    return SimpleNamespace(id=number, type=kind, user=SimpleNamespace(id=user), channel_id=int(channel), data=data,
                           extras={})


@pytest.mark.slow  # about 1.5-2.5 s: left out of tasks.py test --fast
async def test_an_order_cycle_reads_the_game_once_per_interaction_and_asks_the_rules_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds = (seed_from_number(n) for n in itertools.count())
    bot = StatusBot(db_path=str(tmp_path / "cycle.db"), renderer=None, load_renderer=False, status_delay=0.0)
    store = await open_store(bot.db_path)
    try:
        service = TableService(store, seed_source=lambda: next(seeds))
        bot._service = service
        users = {"1": User("1", "Alice"), "2": User("2", "Bob")}
        channel = "555"
        await service.handle(channel, users["1"], "game new", {"system": "ironclad-draughts", "scenario": "duel"})
        seats = await service.choices(channel, users["1"], "game join", "seat", "")
        for user, command, options in ((users["1"], "game join", {"seat": seats[0]}),
                                       (users["2"], "game join", {"seat": seats[1]}),
                                       (users["1"], "game start", {})):
            assert not [o for o in await service.handle(channel, user, command, options) if o.kind == "error"]

        rules_type = type(get_ruleset("ironclad-draughts"))
        asked: Counter[str] = Counter()
        for name in RULES_METHODS:
            if hasattr(rules_type, name):
                original = getattr(rules_type, name)

                def wrapped(self: Any, *a: Any, _name: str = name, _original: Any = original, **k: Any) -> Any:
                    asked[_name] += 1
                    return _original(self, *a, **k)

                monkeypatch.setattr(rules_type, name, wrapped)
        store_calls = Counting(store)
        numbers = itertools.count(1)
        cycles, buttons = 6, 0
        for n in range(cycles):
            state, to_act = await service.channel_state(channel)  # the player's side: not counted
            assert state == "running" and len(to_act) == 1
            user = users[to_act[0]]
            store_calls.calls.clear()
            asked.clear()
            ac = _interaction(next(numbers), discord.InteractionType.autocomplete, user.id, channel, {"name": "order"})
            assert await bot.once.claim(ac)
            legal = await service.choices(channel, user, "order", "text", "")
            ix = _interaction(next(numbers), discord.InteractionType.application_command, user.id, channel,
                              {"name": "order", "options": [{"name": "text", "value": legal[0]}]})
            assert await bot.once.claim(ix)
            after_claims = sum(store_calls.calls.values())
            prepared = await bot._prepare(channel, user, "order", {"text": legal[0]}, guild="")
            assert not [o for o in prepared.outputs if o.kind == "error"], prepared.outputs
            in_order = sum(store_calls.calls.values()) - after_claims
            buttons += prepared.offer is not None
            bot._status_pending.add(channel)
            await bot._refresh_status(channel)
            await bot.once.record_outcome(ix)
            if n == 0:
                continue  # the first cycle after the start also asks what the start left unasked
            calls = store_calls.calls
            # the /order itself: only the order's transaction; the game is the one this process left,
            # which the order's claim saw at that version (no read), as did the autocomplete's claim
            assert in_order == 1, calls
            assert calls["live_game"] == 0 and calls["end_votes"] == 0, calls  # the claims counted no votes
            assert calls["latest_game"] == 0 and calls["orders"] == 0, calls  # the status: the game the order left
            assert sum(calls.values()) == 3, calls  # the two claims and the order; the outcome is written later
            # the rules: the order resolved once (apply, who acts, the outcome in one value), each
            # question about a state asked once per version
            assert asked["resolve"] == 1 and asked["apply"] == 1, asked
            assert asked["to_act"] == 1 and asked["outcome"] == 1, asked  # both inside resolve
            # the order written once for the log, and each legal order printed once (for the
            # autocomplete; the order's own check reuses them)
            assert asked["format_order"] == 1 + len(legal), asked
            assert asked["legal_orders"] <= 1, asked  # the player's, for the autocomplete; the order reuses them
            assert asked["view"] <= 1, asked  # the public view after the order (before: known from the last)
        assert buttons == 0  # a draughts side's orders are its secret: never offered as public buttons
        bot._closing.set()  # the outcomes kept for a batch are written at once when closing
        await asyncio.gather(*list(bot._background))
        assert store_calls.calls["set_outcomes"] >= 1
        assert await store.claim_outcome(f"ix:{next(numbers) - 1}") == (bot.once.owner, "answered")
    finally:
        await store.close()
        bot.drawer.close()
