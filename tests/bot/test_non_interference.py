"""Non-interference of hidden orders (issue 24, item 2), through the table service in-process.

For every system with hidden information, a seeded random playout picks points where a seat gives
an order in secret (it posts nothing). The game is then played twice from the point before it:
once with that order, once with another hidden order of the same seat or none at all, and
optionally a few more secret orders of the other seats after it (the same in both games). Before
any reveal, every other seat's player and a spectator must receive exactly the same from every
command they may issue: channel posts, their DMs and private answers (texts, views, files byte for
byte), and autocomplete. Commands that change the game (undo, end, concede) run on fresh copies of
the store, so no probe disturbs the next. The giver's own seat and the umpire (who sees all) are
not compared: what they get may differ.

Systems and their hidden parts: hex-ironclads sealed fire orders; Days of Iron hidden deployment
and troops held off the table; Oak & Iron the initiative card a fleet (or, in a Fleet Battle with a
seat per Squadron, a Squadron) seals from its hand; Iron and Fire its secret rolls, whose results
come from the stream rather than a choice, so its pairs differ in the roll's draws alone (a twin
stream, below); the table tools' sealed texts and secret rolls. Each parametrisation asserts how
many pairs it ran and of which kinds. Everything is compared as the service hands it to the Discord
adapter: a board is compared as the view it is drawn from (the adapter's PNG is a function of the
view and zoom, both compared), files byte for byte.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiosqlite
import pytest

from bot.commands import COMMANDS
from bot.rooms.seats import replay_state
from bot.service import Output, TableService, User
from bot.store import SqliteConnection, Store
from bot.workers import in_thread
from games.core.rng import Rng, commitment, seed_from_number
from games.core.ruleset import UMPIRE, get_ruleset

pytestmark = pytest.mark.slow  # 1,010 pairs of whole games (minutes): left out of `tasks.py test --fast`

CHANNEL = "c"
SPECTATOR = User("spectator", "Spectator")
CREATOR = User("creator", "Creator")
MAX_ORDERS = 60
SUFFIX = 3  # at most this many secret orders of other seats after the deviation


async def inline_db() -> aiosqlite.Connection:
    """An in-memory aiosqlite connection whose statements run on the event loop's thread instead of
    being handed to aiosqlite's worker thread and back: the same SQL on the same SQLite, so the same
    answers, without two thread switches per statement (profiled: they took half of this test's time)."""
    db = await aiosqlite.connect(":memory:", check_same_thread=False)

    async def run_here(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    db._execute = run_here  # type: ignore[method-assign]
    return db


async def fresh_service() -> TableService:
    counter = iter(range(1_000_000))
    store = await Store.open(":memory:")  # migrated as the bot's own store is, then moved inline
    svc = await clone(TableService(store, mention=lambda uid: f"@{uid}",
                                   seed_source=lambda: seed_from_number(next(counter))))
    await store.close()
    return svc


async def clone(svc: TableService) -> TableService:
    """A service on an independent in-memory copy of ``svc``'s database."""
    db = await inline_db()
    source = svc.store
    assert isinstance(source, Store)
    await source._db.raw.backup(db)
    await db.execute("PRAGMA foreign_keys=ON")
    copy = TableService(Store(SqliteConnection(db)), mention=svc.mention, seed_source=svc.seed_source)
    # replay and verify run the same functions in a thread of this process rather than the worker
    # pool: the Iron and Fire twin stream below is patched into this process's Rng only
    copy.table.work = in_thread
    return copy


def errors(outputs: list[Output]) -> list[str]:
    return [o.text for o in outputs if o.kind == "error"]


def posted(outputs: list[Output]) -> bool:
    return any(o.kind == "message" for o in outputs)


HASH = re.compile(r"\b[0-9a-f]{16,64}\b")


def opaque(value: object) -> str:
    """``value`` as text with every commitment (a hex digest) made alike: sealing another card or
    order publishes another hash, which tells nothing of what was sealed."""
    return HASH.sub("<hash>", repr(value))


def seen_by(outputs: list[Output], audience: set[str]) -> list[str]:
    """Everything in ``outputs`` that reaches the channel or one of ``audience``, comparably (views
    as the drawing's input, files byte for byte)."""
    return [opaque((o.kind, o.text, o.channel, o.to, o.view, o.file, o.zoom, o.private_fallback))
            for o in outputs if o.kind == "message" or o.to in audience]


@dataclass
class Table:
    """A game being played: its users by seat and its system."""

    system: str
    scenario: str
    users: dict[str, User]
    umpire: User | None = None
    extra: dict[str, str] = field(default_factory=dict)


async def set_up(system: str, scenario: str, seed: int, with_umpire: bool, options: str = "") -> tuple[TableService, Table]:
    svc = await fresh_service()
    for _ in range(seed % 7):  # vary the game's seed with the playout
        svc.seed_source()
    out = await svc.handle(CHANNEL, CREATOR, "game new", {"system": system, "scenario": scenario,
                                                          **({"options": options} if options else {})})
    assert not errors(out), out
    rules = get_ruleset(system)
    live = await svc.store.live_game(CHANNEL)
    assert live is not None
    table = Table(system, scenario, {})
    for seat in rules.seats(rules.decode(live.snapshot)):
        if seat.id == UMPIRE:
            if with_umpire:
                table.umpire = User("ump", "Ump")
                assert not errors(await svc.handle(CHANNEL, table.umpire, "game join", {"seat": UMPIRE}))
            continue
        table.users[seat.id] = User(f"u-{seat.id}", seat.label)
        assert not errors(await svc.handle(CHANNEL, table.users[seat.id], "game join", {"seat": seat.id}))
    assert not errors(await svc.handle(CHANNEL, CREATOR, "game start", {}))
    return svc, table


async def state_of(svc: TableService) -> tuple[Any, Any]:
    row = await svc.store.latest_game(CHANNEL)
    assert row is not None
    loaded = svc.table.decode(row)
    return loaded.rules, (loaded.state if row.status == "running" else None)


async def give(svc: TableService, table: Table, seat: str, text: str) -> list[Output]:
    return await svc.handle(CHANNEL, table.users[seat], "order", {"text": text, "seat": seat})


Probe = Callable[[TableService, User], Awaitable[list[Any]]]


def command_probe(command: str, **options: str) -> Probe:
    async def probe(svc: TableService, user: User) -> list[Any]:
        return [await svc.handle(CHANNEL, user, command, dict(options))]
    probe.__name__ = f"/{command} {options}"
    return probe


async def autocomplete(svc: TableService, user: User) -> list[Any]:
    """Every option with suggestions of the game commands and /order, for "" and "?"."""
    found: list[Any] = []
    for name in ("order", "game board", "game join", "game assign", "game concede", "game log"):
        for param in COMMANDS[name].params:
            if param.complete:
                for current in ("", "?"):
                    found.append(opaque(await svc.choice_pairs(CHANNEL, user, name, param.name, current, {})))
    return found


async def preview(svc: TableService, user: User) -> list[Any]:
    """A preview of the first order the user's own autocomplete offers (the same in both games, or
    the autocomplete comparison fails first)."""
    offered = await svc.choice_pairs(CHANNEL, user, "order", "text", "", {})
    if not offered:
        return []
    return [await svc.handle(CHANNEL, user, "order", {"text": offered[0][1], "preview": "true"})]


READ_ONLY: list[Probe] = [
    command_probe("game status"), command_probe("game board"), command_probe("game log"),
    command_probe("game list"), command_probe("game export"), command_probe("game verify"),
    command_probe("game private"), command_probe("order", text="?"), autocomplete, preview,
]
CHANGING: list[Probe] = [command_probe("game undo"), command_probe("game end"), command_probe("game concede", confirm="true")]


@dataclass
class Difference:
    where: str
    probe: str
    observer: str
    a: list[Any]
    b: list[Any]

    def __str__(self) -> str:
        return f"{self.where}: {self.observer} {self.probe}:\n  with:    {self.a!r}\n  without: {self.b!r}"


async def compare(a: TableService, b: TableService, observers: list[User], audience: set[str],
                  where: str, found: list[Difference]) -> None:
    """Every probe by every observer, on both games; state-changing probes on fresh copies."""

    def norm(results: list[Any]) -> list[Any]:
        return [seen_by(r, audience) if isinstance(r, list) and r and isinstance(r[0], Output) else r for r in results]

    for user in observers:
        for probe in READ_ONLY:
            ra, rb = norm(await probe(a, user)), norm(await probe(b, user))
            if ra != rb:
                found.append(Difference(where, probe.__name__, user.id, ra, rb))
        # state-changing probes on fresh copies: an undo (then a look at the table), an end vote then a concession
        for batch in ([CHANGING[0], *READ_ONLY[:3]], CHANGING[1:]):
            ca, cb = await clone(a), await clone(b)
            try:
                for probe in batch:
                    ra, rb = norm(await probe(ca, user)), norm(await probe(cb, user))
                    if ra != rb:
                        found.append(Difference(where, " then ".join(p.__name__ for p in batch[:batch.index(probe) + 1]),
                                                user.id, ra, rb))
                        break
            finally:
                await ca.store.close()
                await cb.store.close()


async def playout(system: str, scenario: str, seed: int, with_umpire: bool, pairs: int,
                  found: list[Difference], prefer: str = "", options: str = "",
                  tally: Counter[str] | None = None) -> int:
    """One seeded random playout; up to ``pairs`` hidden points compared. Returns the pairs run;
    ``tally`` counts them by the hidden order's first word."""
    chooser = random.Random(f"{system}/{scenario}/{options}/{seed}")
    svc, table = await set_up(system, scenario, seed, with_umpire, options)
    done = 0
    try:
        for step in range(MAX_ORDERS):
            rules, state = await state_of(svc)
            if state is None:
                break
            to_act = [s for s in rules.to_act(state) if s in table.users]
            if not to_act:
                break
            seat = chooser.choice(to_act)
            legal, text = pick_order(rules, state, seat, chooser, prefer)
            if text is None:
                break
            candidate = done < pairs and chooser.random() < 0.7
            before = await clone(svc) if candidate else None
            out = await give(svc, table, seat, text)
            assert not errors(out), (system, seat, text, errors(out))
            if before is None:
                continue
            # a public order may have a hidden part too (where an Iron and Fire mine lies): tried
            # against orders of its kind, kept only where the others receive both alike
            if not posted(out) or await told_privately(svc) or chooser.random() < 0.3:
                where = f"{system}/{scenario} {options} seed {seed} step {step}"
                ran = await pair(before, svc, table, seat, text, out, legal, chooser, where, found)
                done += ran
                if tally is not None and ran:
                    tally[verb(text)] += 1
            await before.store.close()
    finally:
        await svc.store.close()
    return done


def pick_order(rules: Any, state: Any, seat: str, chooser: random.Random, prefer: str) -> tuple[list[str], str | None]:
    """The seat's orders to choose from and a legal one picked at random (of the ``prefer`` kinds,
    if any, 4 times in 5). Oak & Iron's ``legal_orders`` tries each of its candidates on a deep copy
    of the state (profiled: most of this test's time in Oak & Iron); there the candidates are
    returned and only the ones the chooser reaches are tried, by that same check. The list is what
    ``pair`` draws alternatives from, each of which it gives on a copy and drops if refused."""
    favoured: Callable[[str], bool] = lambda o: bool(prefer) and o.split()[0] in prefer.split()  # noqa: E731
    candidates, is_legal = getattr(rules, "_candidates", None), getattr(rules, "_is_legal", None)
    if candidates is None or is_legal is None or state.phase in ("over", "setup"):
        legal = [rules.format_order(o) for o in rules.legal_orders(state, seat)]
        if not legal:
            return [], None
        preferred = [o for o in legal if favoured(o)]
        return legal, chooser.choice(preferred if preferred and chooser.random() < 0.8 else legal)
    import pickle

    from games.oak_and_iron.rules.activation_4 import acting_side
    offered = [(rules.format_order(o), o) for o in candidates(state, seat, acting_side(state, seat))]
    chooser.shuffle(offered)
    if chooser.random() < 0.8:
        offered.sort(key=lambda pair: not favoured(pair[0]))
    frozen = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)  # what Oak & Iron's own legal_orders tries each on
    return [text for text, _ in offered], next((text for text, o in offered if is_legal(frozen, seat, o)), None)


def verb(order: str) -> str:
    """An order's kind: its first lower-case word ('Monitor fire Virginia' is a fire order)."""
    return next((w for w in order.split() if w.isalpha() and w.islower()), order.split()[0])


async def record(svc: TableService) -> list[Output]:
    """The log as a spectator reads it."""
    return await svc.handle(CHANNEL, SPECTATOR, "game log", {})


async def told_privately(svc: TableService) -> bool:
    """Whether the last order told someone something privately (its hidden part, if any)."""
    row = await svc.store.latest_game(CHANNEL)
    assert row is not None
    last = (await svc.store.orders(row.id))[-1]
    return any(e["to"] is not None for e in last.events)


async def pair(before: TableService, after: TableService, table: Table, seat: str, text: str, out: list[Output],
               legal: list[str], chooser: random.Random, where: str, found: list[Difference]) -> int:
    """Game A gave ``text`` for ``seat``, telling something privately; game B gives another order of
    the seat that the others receive alike at that moment (its hidden part differs), or, when A's
    order posted nothing, none at all. Returns 1 if such a B was found and the games compared."""
    giver = {table.users[seat].id}
    audience = {u.id for s, u in table.users.items() if s != seat} - giver | {SPECTATOR.id}
    public = seen_by(out, audience)
    alternatives = [o for o in legal if o != text]
    chooser.shuffle(alternatives)
    alternatives.sort(key=lambda o: o.split()[:1] != text.split()[:1])  # orders of its kind first
    given = "(none)" if not public and chooser.random() < 0.4 else ""
    a, b = await clone(after), await clone(before)
    try:
        for other in alternatives[:4] if not given else []:
            trial = await clone(b)
            tried = await give(trial, table, seat, other)
            # a public order's own text is public (the log lists it): alike only if the log is alike too
            alike = not errors(tried) and seen_by(tried, audience) == public and (
                not public or seen_by(await record(trial), audience) == seen_by(await record(after), audience))
            await trial.store.close()
            if alike:
                await give(b, table, seat, other)
                given = other
                break
        if not given:
            return 0
        observers = [u for s, u in table.users.items() if u.id in audience] + [SPECTATOR]
        where = f"{where}: {seat} gave {text!r} or {given!r}"
        # a few secret orders of the other seats, the same in both games, compared as they are given
        for _ in range(chooser.randrange(SUFFIX + 1)):
            rules, state = await state_of(a)
            if state is None:
                break
            others = [s for s in rules.to_act(state) if s in table.users and s != seat]
            if not others:
                break
            mover = chooser.choice(others)
            offered = await a.choice_pairs(CHANNEL, table.users[mover], "order", "text", "", {"seat": mover})
            if not offered:
                break
            order = chooser.choice(offered)[1]
            trial = await clone(a)
            out = await give(trial, table, mover, order)
            await trial.store.close()
            if errors(out) or posted(out):
                break
            oa, ob = await give(a, table, mover, order), await give(b, table, mover, order)
            if seen_by(oa, audience) != seen_by(ob, audience):
                found.append(Difference(where, f"/order {order!r} by {mover}", table.users[mover].id,
                                        seen_by(oa, audience), seen_by(ob, audience)))
            where += f", then {mover} {order!r}"
        await compare(a, b, observers, audience, where, found)
        return 1
    finally:
        await a.store.close()
        await b.store.close()


@pytest.fixture
def memo_legal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each system's ``legal_orders`` remembered per (encoded state, seat): it is a pure function of
    them, and a compared game asks it up to four times per state (autocomplete for "" and "?", the
    preview, ``/order ?``), at up to 0.1 s each in Oak & Iron. The answers are the same; only
    their repetition is saved."""
    for system in ("hex-ironclads", "days-of-iron", "oak-and-iron", "iron-and-fire"):
        cls = type(get_ruleset(system))
        original = cls.legal_orders
        cache: dict[tuple[Any, str], list[Any]] = {}

        def remembered(self: Any, state: Any, seat: str, _original: Any = original,
                       _cache: dict[tuple[Any, str], list[Any]] = cache) -> list[Any]:
            encoded = self.encode(state)
            key = (encoded if isinstance(encoded, (str, bytes)) else json.dumps(encoded, sort_keys=True), seat)
            if key not in _cache:
                if len(_cache) > 256:
                    _cache.clear()
                _cache[key] = _original(self, state, seat)
            return list(_cache[key])

        monkeypatch.setattr(cls, "legal_orders", remembered)


# (system, scenario, game options, umpire seated, pairs, orders favoured by the playout, kinds the
# pairs must include): 900 here, with Iron and Fire's 70 and the tools' 40, 1,010 pairs in all
HIDDEN_SYSTEMS = [
    ("hex-ironclads", "duel", "", True, 180, "", "fire"), ("hex-ironclads", "duel", "", False, 180, "", "fire"),
    ("hex-ironclads", "hampton-roads", "", False, 130, "", "fire"),
    ("hex-ironclads", "trents-reach", "", False, 100, "", "fire"),
    ("days-of-iron", "outpost", "", False, 120, "", ""),
    ("days-of-iron", "outpost", "", False, 60, "offboard dust", "offboard"),  # troops held off the table, then their arrival
    # the card each fleet holds and seals for initiative, face down until both are sealed
    ("oak-and-iron", "quickstart", "", False, 100, "initiative", "initiative"),
    # a Fleet Battle with a seat per Squadron: each Squadron's player seals from their own hand
    ("oak-and-iron", "fleet", "command=squadron", False, 30, "initiative", "initiative"),
]


@pytest.mark.parametrize(("system", "scenario", "options", "with_umpire", "pairs", "prefer", "kinds"), HIDDEN_SYSTEMS)
async def test_a_hidden_order_changes_nothing_anyone_else_receives(system: str, scenario: str, options: str,
                                                                   with_umpire: bool, pairs: int, prefer: str,
                                                                   kinds: str, memo_legal: None) -> None:
    found: list[Difference] = []
    tally: Counter[str] = Counter()
    total = 0
    for seed in range(4 * pairs):
        if total >= pairs:
            break
        total += await playout(system, scenario, seed, with_umpire, min(15, pairs - total), found, prefer, options, tally)
        assert not found, f"{len(found)} differences, first:\n" + "\n".join(str(d) for d in found[:3])
    assert total == pairs, f"only {total} hidden points"
    assert all(tally[k] >= pairs // 4 for k in kinds.split()), f"pairs by kind: {dict(tally)}"


async def test_a_hidden_order_costs_its_giver_one_private_reply() -> None:
    svc, table = await set_up("hex-ironclads", "duel", 0, True)
    try:
        out = await give(svc, table, "union", "Monitor fire Virginia")
        assert [(o.kind, o.to) for o in out if o.to != "ump"] == [("ephemeral", table.users["union"].id)], out
        assert out[0].view is not None and "Monitor fire Virginia" in out[0].text
    finally:
        await svc.store.close()


async def test_a_seat_takes_back_its_hidden_order_whatever_the_other_seat_did_in_secret() -> None:
    """The undo rule of issue 24: within the fire phase each side may take back its own sealed-to-be
    order until the reveal; the other side's secret orders stand and are replayed."""
    svc, table = await set_up("hex-ironclads", "duel", 0, False)
    union, confederate = table.users["union"], table.users["confederate"]
    try:
        assert not errors(await give(svc, table, "union", "Monitor fire Virginia"))
        assert not errors(await give(svc, table, "confederate", "Virginia fire Monitor"))
        undo = await svc.handle(CHANNEL, union, "game undo", {})
        assert not errors(undo) and not posted(undo), undo
        assert [o.to for o in undo] == [union.id] and "Monitor fire Virginia" in undo[0].text
        mine = "\n".join(o.text for o in await svc.handle(CHANNEL, confederate, "game private", {}))
        assert "Virginia fire Monitor" in mine  # the Confederate order stands
        row = await svc.store.latest_game(CHANNEL)
        assert row is not None
        state, counter = replay_state(get_ruleset("hex-ironclads"), row, await svc.store.orders(row.id, include_undone=False))
        assert get_ruleset("hex-ironclads").encode(state) == row.snapshot and counter == row.counter
        again = await svc.handle(CHANNEL, union, "game undo", {})
        assert errors(again) == ["There is no order to undo."]  # Union knows of no other order
    finally:
        await svc.store.close()


# Table tools: a sealed round's text and a secret roll's result are the hidden parts. What a player
# chooses in secret is the sealed text (the round, its players and the count of seals are public); a
# secret roll's dice and purpose are announced, only its result is hidden, and that comes from the
# stream's seed, so its pairs differ in the seed of a stream whose first draw is the secret roll.
ALICE, BOB, CAROL = User("alice", "Alice"), User("bob", "Bob"), User("carol", "Carol")
SEALS = ["go north", "fire at the flagship", "hold", "x" * 40, "ram the monitor at full steam"]


async def tools_autocomplete(svc: TableService, user: User) -> list[Any]:
    """Every tools option with suggestions (the user's rolls, hand cards, decks), for "" and "?"."""
    found: list[Any] = []
    for name in ("reveal", "play", "deck draw"):
        for param in COMMANDS[name].params:
            if param.complete:
                for current in ("", "?", "1"):
                    found.append(opaque(await svc.choice_pairs(CHANNEL, user, name, param.name, current, {})))
    return found


TOOLS_READ_ONLY: list[Probe] = [
    command_probe("hand"), command_probe("game private"), command_probe("game status"), command_probe("game log"),
    command_probe("tools verify"), command_probe("reveal", roll="1"), command_probe("reveal", roll="2"),
    tools_autocomplete, autocomplete,
]
# on copies: the observer's own seal (not the last one: that reveals all), a reveal call, a verify after a reveal attempt
TOOLS_CHANGING: list[list[Probe]] = [
    [command_probe("seal", text="hold fast"), command_probe("hand"), command_probe("tools verify")],
    [command_probe("seal", action="reveal"), command_probe("tools verify")],
    [command_probe("roll", dice="1d6", secret="true", purpose="p"), command_probe("reveal", roll="2"), tools_autocomplete],
]


async def compare_tools(a: TableService, b: TableService, observers: list[User], audience: set[str],
                        where: str, found: list[Difference], same_stream: bool = True) -> None:
    """As compare, for the tools; ``same_stream`` False when the games' streams have other seeds, so
    the observer's own later draws (not the secret) differ and are not compared."""
    def norm(result: list[Any]) -> list[Any]:
        return [seen_by(r, audience) if isinstance(r, list) and (not r or isinstance(r[0], Output)) else r for r in result]

    # with two players the observer's own seal is the last one: the reveal, where texts differ by design
    batches = TOOLS_CHANGING[0 if len(observers) > 2 else 1:None if same_stream else -1]
    for user in observers:
        for probe in TOOLS_READ_ONLY:
            ra, rb = norm(await probe(a, user)), norm(await probe(b, user))
            if ra != rb:
                found.append(Difference(where, probe.__name__, user.id, ra, rb))
        for batch in batches:
            ca, cb = await clone(a), await clone(b)
            try:
                for done, probe in enumerate(batch, start=1):
                    ra, rb = norm(await probe(ca, user)), norm(await probe(cb, user))
                    if ra != rb:
                        found.append(Difference(where, " then ".join(p.__name__ for p in batch[:done]), user.id, ra, rb))
                        break
            finally:
                await ca.store.close()
                await cb.store.close()


async def tools_table(with_game: bool, seed: int) -> tuple[TableService, list[User]]:
    """A channel with a running hex-ironclads duel (its two players seal without opening a round),
    or with none (Alice opens a round for Alice, Bob and Carol)."""
    if with_game:
        svc, table = await set_up("hex-ironclads", "duel", seed, False)
        return svc, list(table.users.values())
    svc = await fresh_service()
    for _ in range(seed):
        svc.seed_source()
    assert not errors(await svc.handle(CHANNEL, ALICE, "seal", {"action": "open", "who": "<@alice> <@bob> <@carol>"}))
    return svc, [ALICE, BOB, CAROL]


@pytest.mark.parametrize("with_game", [False, True])
async def test_a_sealed_text_changes_nothing_anyone_else_receives(with_game: bool) -> None:
    """10 pairs each: the first player seals one text or another (after 0-2 public rolls); the other
    players and a spectator must receive the same from every tools and game command, and from their
    own seal, until the round is revealed."""
    found: list[Difference] = []
    for seed in range(10):
        chooser = random.Random(f"seal/{with_game}/{seed}")
        games: list[TableService] = []
        text_a, text_b = chooser.sample(SEALS, 2)
        rolls = chooser.randrange(3)
        try:
            for text in (text_a, text_b):
                svc, players = await tools_table(with_game, seed)
                games.append(svc)
                for _ in range(rolls):
                    assert not errors(await svc.handle(CHANNEL, players[1], "roll", {"dice": "2d6"}))
                out = await svc.handle(CHANNEL, players[0], "seal", {"text": text})
                assert not errors(out), out
            audience = {u.id for u in players[1:]} | {SPECTATOR.id}
            await compare_tools(games[0], games[1], [*players[1:], SPECTATOR], audience,
                                f"seal {with_game} seed {seed}: {text_a!r} or {text_b!r}", found)
        finally:
            for svc in games:
                await svc.store.close()
    assert not found, f"{len(found)} differences, first:\n" + "\n".join(str(d) for d in found[:3])


@pytest.mark.parametrize("with_game", [False, True])
async def test_a_secret_rolls_result_changes_nothing_anyone_else_receives(with_game: bool) -> None:
    """10 pairs each: the first player's secret roll is the stream's first draw, in two streams of
    different seeds (so its hidden result and nonce differ); everything else anyone else receives,
    the public announcement included, must be the same up to the commitments."""
    found: list[Difference] = []
    for seed in range(10):
        games: list[TableService] = []
        results: list[str] = []
        try:
            for shift in (0, 1 + seed % 5):
                svc, players = await tools_table(with_game, 2 * seed + shift * 41)
                games.append(svc)
                out = await svc.handle(CHANNEL, players[0], "roll", {"dice": "3d6", "secret": "true", "purpose": "ambush"})
                assert not errors(out), out
                results += [o.text for o in out if o.to == players[0].id]
            audience = {u.id for u in players[1:]} | {SPECTATOR.id}
            assert seen_by(out, audience) and results[0] != results[1]  # the hidden parts do differ
            await compare_tools(games[0], games[1], [*players[1:], SPECTATOR], audience,
                                f"secret roll {with_game} seed {seed}", found, same_stream=False)
        finally:
            for svc in games:
                await svc.store.close()
    assert not found, f"{len(found)} differences, first:\n" + "\n".join(str(d) for d in found[:3])


# Iron and Fire: its hidden information is the secret rolls (the Covadonga's steam, the Union's
# arrival, the cable's activations), shown only to their side. Each secret is a result of the
# game's stream, so a pair is the game played twice with streams that agree on every draw except
# those of the secret roll: game B's seed is a twin of A's whose draws are A's (a patched
# ``Rng.raw``, for every Rng of that seed, replay and verify included) outside the roll's counters.
# B is then a consistent game in which the roll came out otherwise; the same orders follow in both
# until a secret is revealed, and the other side and a spectator must receive the same.
TWINS: dict[bytes, tuple[bytes, frozenset[int]]] = {}


def twin_seed(rng: Rng) -> bytes:
    """The seed of ``rng``'s next draw: a twin's own only at its secret roll's counters."""
    base = TWINS.get(rng._seed)
    return base[0] if base is not None and rng.counter not in base[1] else rng._seed


def twin_raw(self: Rng) -> int:
    mac = hmac.new(twin_seed(self), self.counter.to_bytes(8, "big"), hashlib.sha256).digest()
    self.counter += 1
    return int.from_bytes(mac, "big")


def twin_nonce(self: Rng, salt: str = "") -> str:
    seed, msg = twin_seed(self), b"nonce:" + self.counter.to_bytes(8, "big") + salt.encode()
    self.counter += 1
    return hmac.new(seed, msg, hashlib.sha256).hexdigest()


async def secrets_of(svc: TableService) -> list[tuple[str, bool]]:
    _, state = await state_of(svc)
    return [] if state is None else [(s.key, s.revealed) for s in state.secrets]


async def twin_of(before: TableService, seat: str, text: str, table: Table, own: range,
                  told: list[str]) -> TableService | None:
    """A copy of ``before`` on a twin stream, given ``text``, whose secret result (what ``seat``'s
    player is told) differs from ``told``; None if eight twins all rolled the same."""
    row = await before.store.latest_game(CHANNEL)
    assert row is not None
    giver = table.users[seat].id
    for k in range(8):
        twin = hashlib.sha256(row.seed + bytes([k])).digest()
        TWINS[twin] = (row.seed, frozenset(own))
        b = await clone(before)
        store = b.store
        assert isinstance(store, Store)
        await store._db.raw.execute("UPDATE games SET seed = ?, commitment = ? WHERE id = ?",
                                    (twin, commitment(twin), row.id))
        await store._db.raw.commit()
        out = await give(b, table, seat, text)
        assert not errors(out), out
        if [o.text for o in out if o.to == giver] != told:
            return b
        await b.store.close()
    return None


async def secret_roll_playout(scenario: str, seed: int, pairs: int, found: list[Difference], tally: Counter[str]) -> int:
    chooser = random.Random(f"iron-and-fire/{scenario}/{seed}")
    svc, table = await set_up("iron-and-fire", scenario, seed, False)
    done = 0
    try:
        for step in range(MAX_ORDERS):
            rules, state = await state_of(svc)
            if state is None or done >= pairs:
                break
            to_act = [s for s in rules.to_act(state) if s in table.users]
            if not to_act:
                break
            seat = chooser.choice(to_act)
            _, text = pick_order(rules, state, seat, chooser, "roll")
            if text is None:
                break
            row = await svc.store.latest_game(CHANNEL)
            assert row is not None
            before, secrets = await clone(svc), len(state.secrets)
            out = await give(svc, table, seat, text)
            assert not errors(out), (seat, text, errors(out))
            after_row = await svc.store.latest_game(CHANNEL)
            assert after_row is not None
            if len(await secrets_of(svc)) > secrets:
                giver = table.users[seat].id
                b = await twin_of(before, seat, text, table, range(row.counter, after_row.counter),
                                  [o.text for o in out if o.to == giver])
                if b is not None:
                    where = f"iron-and-fire/{scenario} seed {seed} step {step}: {seat}'s {text!r} came out otherwise"
                    done += await twin_pair(svc, b, table, seat, out, chooser, where, found)
                    tally[f"{verb(text)} {text.split()[-1]}"] += 1
            await before.store.close()
    finally:
        await svc.store.close()
    return done


async def twin_pair(after: TableService, b: TableService, table: Table, seat: str, out: list[Output],
                    chooser: random.Random, where: str, found: list[Difference]) -> int:
    """Game A (a copy of ``after``) and B differ only in a secret roll's result: compare what the
    others received of the roll, then play the same random orders in both (any seat's) while no
    secret is revealed, and compare every observer's every command."""
    audience = {u.id for s, u in table.users.items() if s != seat} | {SPECTATOR.id}
    observers = [u for s, u in table.users.items() if s != seat] + [SPECTATOR]
    a = await clone(after)
    try:
        row_b = await b.store.latest_game(CHANNEL)
        assert row_b is not None
        last_b = (await b.store.orders(row_b.id))[-1]
        b_out_public = [e["text"] for e in last_b.events if e["to"] is None]
        row_a = await a.store.latest_game(CHANNEL)
        assert row_a is not None
        a_out_public = [e["text"] for e in (await a.store.orders(row_a.id))[-1].events if e["to"] is None]
        if opaque(a_out_public) != opaque(b_out_public):
            found.append(Difference(where, "the roll's public events", "channel", a_out_public, b_out_public))
        for _ in range(chooser.randrange(2 * SUFFIX + 1)):
            rules, state = await state_of(a)
            if state is None:
                break
            movers = [s for s in rules.to_act(state) if s in table.users]
            if not movers:
                break
            mover = chooser.choice(movers)
            _, order = pick_order(rules, state, mover, chooser, "")
            if order is None:
                break
            ta, tb = await clone(a), await clone(b)
            oa, ob = await give(ta, table, mover, order), await give(tb, table, mover, order)
            revealed = any(r for _, r in await secrets_of(ta) + await secrets_of(tb))
            await ta.store.close()
            await tb.store.close()
            if errors(oa) or errors(ob) or revealed:
                break  # refused in one game (the secret bounds its side's orders) or the reveal: stop here
            oa, ob = await give(a, table, mover, order), await give(b, table, mover, order)
            if seen_by(oa, audience) != seen_by(ob, audience):
                found.append(Difference(where, f"/order {order!r} by {mover}", "others", seen_by(oa, audience),
                                        seen_by(ob, audience)))
            where += f", then {mover} {order!r}"
        await compare(a, b, observers, audience, where, found)
        return 1
    finally:
        await a.store.close()
        await b.store.close()


@pytest.mark.parametrize(("scenario", "pairs"), [("s2", 40), ("s4", 20), ("s5", 10)])
async def test_a_secret_rolls_result_in_iron_and_fire_changes_nothing_the_other_side_receives(
        scenario: str, pairs: int, monkeypatch: pytest.MonkeyPatch, memo_legal: None) -> None:
    monkeypatch.setattr(Rng, "raw", twin_raw)
    monkeypatch.setattr(Rng, "nonce", twin_nonce)
    found: list[Difference] = []
    tally: Counter[str] = Counter()
    total = 0
    for seed in range(4 * pairs):
        if total >= pairs:
            break
        total += await secret_roll_playout(scenario, seed, pairs - total, found, tally)
        assert not found, f"{len(found)} differences, first:\n" + "\n".join(str(d) for d in found[:3])
    assert total == pairs, f"only {total} secret rolls ({dict(tally)})"
