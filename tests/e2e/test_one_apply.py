"""One apply per interaction with real bot processes: Discord (and the fake) delivers a shard's events
to every session identified for it, so two processes on one store both receive every interaction.

Each test starts ``python -m bot discord`` twice as OS processes on one SQLite file (PostgreSQL
too), sends a stream of orders and rolls, each with a label of its own, kills either process with
SIGKILL mid-stream and starts it again, then reads the store: no label is stored twice, every
order answered as done is stored, no order answered with an error is, and each game has at most
one status message. The fake counts a second reply to an interaction as a violation.

- ``test_two_processes_on_one_shard_apply_each_interaction_once``: the shard leases are switched
  off in both children (a hook), so both serve shard 0 at once, as two unleased processes would:
  only the interaction claims keep them apart.
- ``test_a_second_process_waits_as_a_standby_and_takes_over``: leases on, as deployed: the second
  process does not connect while the first holds the lease, takes over when the first is killed,
  and a holder frozen past its lease stops with status 4 when it wakes.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.database import open_store
from tests.e2e.conftest import serving
from tests.e2e.fake_discord import FakeDiscord, FakeInteraction, FakeUser
from tests.e2e.test_entry_point import Child, launch, wait_exit

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

# No board drawing (the test is about applying, and drawing would only slow it down).
NO_DRAWING = "import bot.discord_app as app; app._load_renderer = lambda: None\n"
# Both processes serve shard 0 of 1 whoever else does: only the interaction claims protect the store.
NO_LEASES = NO_DRAWING + """
import asyncio, bot.leases as leases
async def acquire(self, closing=None):
    self.held = True
async def keep(self):
    await asyncio.Event().wait()
leases.ShardLeases.acquire = acquire
leases.ShardLeases.keep = keep
leases.ShardLeases.serving = lambda self: True
"""
REPLY_SECONDS = 6.0  # an interaction not answered by then went to a killed process
ORDERS_PER_GAME = 14
ROLLS = 24


@dataclass
class Tally:
    """What the players were told, by label."""

    applied: list[str] = field(default_factory=list)  # answered publicly: done
    refused: list[str] = field(default_factory=list)  # answered with an error only
    unanswered: list[str] = field(default_factory=list)  # no answer (the process that had it was killed)
    sent: int = 0


async def answer(fake: FakeDiscord, ix: FakeInteraction) -> str:
    """'applied', 'refused' or 'unanswered'."""
    with contextlib.suppress(AssertionError):
        await fake.settled(ix, REPLY_SECONDS)
    if not ix.settled():
        return "unanswered"
    return "applied" if ix.public() else "refused"


def record(tally: Tally, label: str, outcome: str) -> None:
    tally.sent += 1
    {"applied": tally.applied, "refused": tally.refused, "unanswered": tally.unanswered}[outcome].append(label)


class Bots:
    """Bot processes by name, started and killed at will."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path, db: str, hook: str, **env: str) -> None:
        self.fake, self.tmp_path, self.db, self.hook, self.env = fake, tmp_path, db, hook, env
        self.children: dict[str, Child] = {}
        self.stopped: list[Child] = []

    async def start(self, name: str) -> Child:
        child = await launch(self.fake, self.tmp_path, self.hook, WARGAME_DB=self.db, **self.env)
        self.children[name] = child
        return child

    async def kill(self, name: str) -> None:
        child = self.children.pop(name)
        child.process.send_signal(signal.SIGKILL)
        await wait_exit(child, "SIGKILL")
        self.stopped.append(child)

    async def stop_all(self) -> None:
        for name in list(self.children):
            child = self.children.pop(name)
            if child.process.returncode is None:
                child.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(AssertionError):
                await wait_exit(child, "SIGTERM")
            self.stopped.append(child)

    def logs(self) -> str:
        return "\n---\n".join(c.text()[-3000:] for c in [*self.stopped, *self.children.values()])


async def sessions(fake: FakeDiscord, count: int, what: str) -> None:
    await fake.wait_for(lambda: len(fake.sockets_for(fake.guild_id)) == count and fake.guild_id in fake.commands,
                        40, what)


async def play_orders(fake: FakeDiscord, channel: str, players: list[FakeUser], tag: str, tally: Tally,
                      milestones: dict[int, asyncio.Event], ready: dict[int, asyncio.Event]) -> None:
    """Alternate the players' orders (free table: sides take turns), each a note with its own label.
    After an unanswered order the same player sends a new one: if the lost one was applied, the new
    one is refused (not their turn) and the other player goes on."""
    turn = 0
    for step in range(ORDERS_PER_GAME):
        if step in milestones:
            milestones[step].set()
            await ready[step].wait()
        label = f"{tag}-{step}"
        ix = await fake.slash(players[turn], "order", {"text": f"note {label}"}, channel=channel)
        outcome = await answer(fake, ix)
        record(tally, label, outcome)
        if outcome != "unanswered":
            turn = 1 - turn


async def play_rolls(fake: FakeDiscord, channel: str, roller: FakeUser, tally: Tally) -> None:
    for step in range(ROLLS):
        label = f"r{step}"
        ix = await fake.slash(roller, "roll", {"dice": f"1d6 # {label}"}, channel=channel)
        record(tally, label, await answer(fake, ix))


async def stored_labels(db: str, games: list[str], dice: str) -> Counter[str]:
    """Every label in the order logs of the games and the dice channel's stream, as stored."""
    store = await open_store(db)
    try:
        rows = [await store.live_game(channel) for channel in games] + [await store.tools(dice)]
        texts = [order.text for row in rows if row is not None for order in await store.orders(row.id)]
    finally:
        await store.close()
    found: Counter[str] = Counter()
    for text in texts:
        match = re.search(r"\b((?:[ab]-|r|crash)\d+)\b", text)
        if match:
            found[match.group(1)] += 1
    return found


@contextlib.asynccontextmanager
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with serving(FakeDiscord()) as server:
        yield server


async def new_game(fake: FakeDiscord, channel: str, peru: FakeUser, chile: FakeUser) -> None:
    for user, command, options in (
        (peru, "game new", {"system": "table", "scenario": "free", "options": "sides=Peru,Chile"}),
        (peru, "game join", {"seat": "peru"}),
        (chile, "game join", {"seat": "chile"}),
        (peru, "game start", {}),
    ):
        ix = await fake.run(user, command, options, channel=channel, timeout=15)
        assert ix.public(), ix.text()


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The store both processes use: a SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "shared.db")
    return str(request.getfixturevalue("pg_url"))


async def test_two_processes_on_one_shard_apply_each_interaction_once(tmp_path: Path, shared_db: str) -> None:
    db = shared_db
    async with fake_discord() as fake:
        bots = Bots(fake, tmp_path, db, NO_LEASES)
        try:
            await bots.start("A")
            await bots.start("B")
            await sessions(fake, 2, "two processes on shard 0")
            peru, chile, roller = fake.add_user("peru"), fake.add_user("chile"), fake.add_user("roller")
            games = [fake.add_channel("game-a"), fake.add_channel("game-b")]
            dice = fake.add_channel("dice")
            for channel in games:
                await new_game(fake, channel, peru, chile)
            assert not fake.undelivered and all(n == 2 for _, n in fake.deliveries), fake.deliveries[-3:]

            orders, rolls = Tally(), Tally()
            kill_a, kill_b = ORDERS_PER_GAME // 3, 2 * ORDERS_PER_GAME // 3
            reached = {kill_a: asyncio.Event(), kill_b: asyncio.Event()}
            go_on = {kill_a: asyncio.Event(), kill_b: asyncio.Event()}

            async def chaos() -> None:
                for step, victim in ((kill_a, "A"), (kill_b, "B")):
                    await reached[step].wait()  # game a is mid-stream, game b and the rolls are running
                    await bots.kill(victim)
                    go_on[step].set()
                    await asyncio.sleep(1.0)  # interactions keep coming while it is down
                    await bots.start(victim)
                    await sessions(fake, 2, f"{victim} back")

            await asyncio.gather(
                play_orders(fake, games[0], [peru, chile], "a", orders, reached, go_on),
                play_orders(fake, games[1], [peru, chile], "b", orders, {}, {}),
                play_rolls(fake, dice, roller, rolls),
                chaos(),
            )
            await asyncio.sleep(4.0)  # status edits wait out their 3 s delay
            statuses = {c: [m for m in fake.channel_messages(c) if any(e.get("title") == "Game status" for e in m.embeds)]
                        for c in games}
        finally:
            await bots.stop_all()
        stored = await stored_labels(db, games, dice)
        twice = {label: n for label, n in stored.items() if n > 1}
        report = (f"orders {len(orders.applied)} applied, {len(orders.refused)} refused, {len(orders.unanswered)} "
                  f"unanswered; rolls {len(rolls.applied)} applied, {len(rolls.unanswered)} unanswered; "
                  f"stored {sum(stored.values())}; status messages {[len(s) for s in statuses.values()]}")
        print(report)
        assert not twice, (twice, report, bots.logs())
        for label in orders.applied + rolls.applied:
            assert stored[label] == 1, (label, report)  # answered as done: it is in the store, once
        for label in orders.refused + rolls.refused:
            assert stored[label] == 0, (label, report)  # answered "not applied": it is not
        assert len(rolls.refused) == 0, report
        assert all(len(s) <= 1 for s in statuses.values()), report  # never posted (and pinned) twice
        assert any(len(s) == 1 for s in statuses.values()), report
        assert len(orders.applied) >= ORDERS_PER_GAME, report  # the stream went on through both kills
        assert len(fake.identifies) == 4  # A, B, and each once more after its kill
        assert not fake.violations, fake.violations  # nobody answered an interaction twice


async def roll(fake: FakeDiscord, user: FakeUser, channel: str, label: str, tally: Tally) -> None:
    ix = await fake.slash(user, "roll", {"dice": f"1d6 # {label}"}, channel=channel)
    record(tally, label, await answer(fake, ix))


async def said(child: Child, text: str, timeout: float = 30.0) -> None:
    for _ in range(int(timeout * 10)):
        if text in child.text():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"the bot never said {text!r}:\n{child.text()[-3000:]}")


async def test_a_second_process_waits_as_a_standby_and_takes_over(tmp_path: Path) -> None:
    """Leases on, as deployed (WARGAME_LEASE_SECONDS=2 to keep the test short)."""
    db = str(tmp_path / "leased.db")
    async with fake_discord() as fake:
        bots = Bots(fake, tmp_path, db, NO_DRAWING, WARGAME_LEASE_SECONDS="2")
        roller, dice, rolls = fake.add_user("roller"), fake.add_channel("dice"), Tally()
        try:
            await bots.start("A")
            await sessions(fake, 1, "A to connect")
            b = await bots.start("B")  # a second service for the same shard: it must not connect
            await said(b, "not serving shard 0 of 1: shard 0 is served by process")
            for step in range(3):
                await roll(fake, roller, dice, f"r{step}", rolls)
            assert len(fake.identifies) == 1 and len(rolls.applied) == 3, (fake.identifies, rolls)

            mismatched = await launch(fake, tmp_path, NO_DRAWING, WARGAME_DB=db, WARGAME_SHARD_COUNT="2")
            assert await wait_exit(mismatched, "a refused start") == 2
            assert mismatched.text().strip().splitlines()[-1].startswith(
                "Not starting: WARGAME_SHARD_COUNT=2, but process "), mismatched.text()[-2000:]

            await bots.kill("A")  # B takes over once A's lease expires
            await said(b, "the lease is this process's now; serving")
            await sessions(fake, 1, "B to connect")
            for step in range(3, 6):
                await roll(fake, roller, dice, f"r{step}", rolls)
            a = await bots.start("A")  # back, as a standby behind B
            await said(a, "not serving shard 0 of 1")

            # B freezes past its lease: A takes over; B wakes up still connected, and stops.
            b.process.send_signal(signal.SIGSTOP)
            try:
                await said(a, "the lease is this process's now; serving")
                await sessions(fake, 2, "A to connect while frozen B's session is still open")
                await roll(fake, roller, dice, "r6", rolls)  # both sessions get it: A answers
            finally:
                b.process.send_signal(signal.SIGCONT)
            for step in range(7, 10):  # B may still receive these until it closes: it acts on none
                await roll(fake, roller, dice, f"r{step}", rolls)
            assert await wait_exit(b, "B's lease was lost") == 4, b.text()[-3000:]
            bots.children.pop("B")
            bots.stopped.append(b)
            assert "Stopped: lost the lease of shard 0 of 1 to " in b.text(), b.text()[-3000:]
            await roll(fake, roller, dice, "r10", rolls)
        finally:
            await bots.stop_all()
        stored = await stored_labels(db, [], dice)
        print(f"rolls {len(rolls.applied)} applied, {len(rolls.unanswered)} unanswered, stored {sum(stored.values())}")
        assert rolls.applied == [f"r{n}" for n in range(11)], (rolls, bots.logs())
        assert stored == Counter({f"r{n}": 1 for n in range(11)}), stored
        assert not fake.violations, fake.violations


# The process dies after the command was stored and before its answer goes out (once: a marker file).
CRASH_AFTER_SAVING = NO_DRAWING + """
import os, signal, pathlib
import bot.discord_app as app
deliver = app.TableBot._deliver
async def _deliver(self, interaction, channel, invoker, prepared, deferred):
    marker = pathlib.Path(os.environ["CRASH_MARKER"])
    if not marker.exists() and any("crash" in o.text for o in prepared.outputs):
        marker.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    await deliver(self, interaction, channel, invoker, prepared, deferred)
app.TableBot._deliver = _deliver
"""


async def test_a_retry_after_a_crash_between_saving_and_answering_is_not_applied_again(tmp_path: Path) -> None:
    db = str(tmp_path / "crash.db")
    async with fake_discord() as fake:
        bots = Bots(fake, tmp_path, db, CRASH_AFTER_SAVING, WARGAME_LEASE_SECONDS="2",
                    CRASH_MARKER=str(tmp_path / "crashed"))
        roller, other, dice = fake.add_user("roller"), fake.add_user("other"), fake.add_channel("dice")
        try:
            a = await bots.start("A")
            await sessions(fake, 1, "A to connect")
            lost = await fake.slash(roller, "roll", {"dice": "1d6 # crash1"}, channel=dice)
            assert await wait_exit(a, "the crash after saving") == -signal.SIGKILL
            bots.children.pop("A")
            assert await answer(fake, lost) == "unanswered"  # "The application did not respond"
            await bots.start("A")  # restarted: it waits out the dead process's lease, then serves
            await sessions(fake, 1, "the restarted A to connect")
            retry = await fake.run(roller, "roll", {"dice": "1d6 # crash1"}, channel=dice, timeout=15)
            assert not retry.public() and "did **not** apply this one" in retry.text(), retry.text()
            assert (await stored_labels(db, [], dice))["crash1"] == 1  # the retry was not applied
            again = await fake.run(roller, "roll", {"dice": "1d6 # crash1"}, channel=dice, timeout=15)
            assert again.public(), again.text()  # told to send it again if it was not there: applied
            same_text = await fake.run(other, "roll", {"dice": "1d6 # crash1"}, channel=dice, timeout=15)
            assert same_text.public(), same_text.text()  # someone else's command is never a retry
        finally:
            await bots.stop_all()
        assert (await stored_labels(db, [], dice))["crash1"] == 3
        assert not fake.violations, fake.violations
