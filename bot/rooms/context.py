"""The table every room works at: the store, the service's clock, seed source and mention format,
the cache of decoded game states, and the channels' Discord servers. Rooms load games through it;
it holds no command logic."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

from bot.rooms.common import STATE_CACHE, USER_TOKEN, Loaded, Output, User, rules_played, ruleset_for
from bot.rooms.seats import umpire_of
from bot.storage import GameRow, LiveStamp, Storage
from bot.workers import Runner, in_worker
from games.core.errors import NoSuchGame, WrongPhase
from games.core.rng import new_seed
from games.core.ruleset import Applied, Ruleset
from games.tools import TOOLS, ToolsState

# the live game a completer run by ``Table.reusing`` works on, instead of reading the store
_REUSED: ContextVar[Loaded | None] = ContextVar("reused", default=None)
# (channel, what the interaction's claim saw of its live game): set by the front end for the task
# that handles the interaction (``Table.seen``), so a game this process holds at that version is not read
_SEEN: ContextVar[tuple[str, LiveStamp | None] | None] = ContextVar("seen", default=None)


class Table:
    """Shared by the rooms of one ``TableService``; the service sets ``seed_source`` on it too."""

    def __init__(
        self,
        store: Storage,
        *,
        mention: Callable[[str], str] = lambda uid: f"<@{uid}>",
        seed_source: Callable[[], bytes] = new_seed,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.mention = mention
        self.seed_source = seed_source
        self.clock = clock
        self.states: OrderedDict[tuple[int, int, str], Any] = OrderedDict()
        # the rules' answers about each cached state (``Loaded.known``), dropped with it
        self.known: dict[tuple[int, int, str], dict[Any, Any]] = {}
        # channel -> the game as the last order this process gave there left it, for the buttons and
        # the status refresh that follow that order: forgotten when the channel's next command begins
        self.recent: OrderedDict[str, Loaded] = OrderedDict()
        # channel -> its live game's row as this process last read or wrote it: used, unread, only
        # when an interaction's claim saw that very version (``seen``)
        self.rows: OrderedDict[str, GameRow] = OrderedDict()
        self._kept: set[str] = set()  # channels whose running command's order was kept (``writing``)
        self.guilds: dict[str, str] = {}  # channel -> its Discord server, as the front end said (note_guild)
        self.locks: dict[str, asyncio.Lock] = {}
        # heavy pure work (a replay's drawing, a verify): the worker pool; tests may run it in a thread
        self.work: Runner = in_worker

    def lock(self, channel: str) -> asyncio.Lock:
        """The channel's lock: commands there run one at a time; a replay, verify or export holds it
        only while it reads its snapshot."""
        return self.locks.setdefault(channel, asyncio.Lock())

    def format(self, out: Output) -> Output:
        text = USER_TOKEN.sub(lambda m: self.mention(m.group(1)), out.text)
        return Output(out.kind, text, out.channel, out.to, out.view, out.file, out.private_fallback, out.zoom)

    def decode(self, row: GameRow) -> Loaded:
        """The row's state, decoded once per (game, version): callers must not mutate it."""
        rules = ruleset_for(row.system)
        key = (row.id, row.version, row.status)
        state = self.states.get(key)
        if state is None:
            try:
                state = rules.decode(row.snapshot)
            except (TypeError, ValueError, KeyError) as exc:  # saved by other rules, or damaged
                played = rules_played(row, rules) or "Its saved position does not fit these rules."
                raise WrongPhase(f"This bot cannot read the saved position of this {rules.name} game. {played}",
                                 hint="/game log and /game export still show its orders. Whoever set it up, the umpire"
                                      " or a server manager can /game end it, then /game new starts another.") from exc
            self._cache(key, state, {})
        else:
            self.states.move_to_end(key)
        return Loaded(row, rules, state, self.known.setdefault(key, {}))

    def keep(self, row: GameRow, rules: Ruleset[Any, Any], applied: Applied[Any]) -> Loaded:
        """The game as an order just saved it (``row``, from the store) with the state that order
        left, cached under the row's version with what the rules already said of it: no need to
        decode what we hold, nor to ask again who acts or whether it ended."""
        key = (row.id, row.version, row.status)
        self._cache(key, applied.state, {"to_act": applied.to_act, "outcome": applied.outcome})
        after = Loaded(row, rules, applied.state, self.known[key])
        self.recent[row.channel] = after
        self.recent.move_to_end(row.channel)
        if len(self.recent) > STATE_CACHE:
            self.recent.popitem(last=False)
        self._hold(row)
        self._kept.add(row.channel)
        return after

    @contextlib.contextmanager
    def writing(self, channel: str) -> Iterator[None]:
        """Around a command that may change the channel's game, under its lock: what an order left
        (``recent``) is past. After it, the held row stays only if the command's own order stored
        it (``keep``): any other write (a seat taken, the game started or ended, an undo) leaves the
        next look to read. And the claim's stamp is spent: it told the version before the command."""
        self.recent.pop(channel, None)
        self._kept.discard(channel)
        try:
            yield
        finally:
            if channel not in self._kept:
                self.rows.pop(channel, None)
            self._kept.discard(channel)
            _SEEN.set(None)

    def _hold(self, row: GameRow) -> None:
        self.rows[row.channel] = row
        self.rows.move_to_end(row.channel)
        if len(self.rows) > STATE_CACHE:
            self.rows.popitem(last=False)

    @staticmethod
    def seen(channel: str, stamp: LiveStamp | None) -> None:
        """What the claim of the interaction this task handles saw of ``channel``'s live game, in
        the claim's own statement (the front end says it). Until the task ends, a live game this
        process holds at that version is used unread; any other version is read as before, so a
        change made elsewhere (another process, another command here) is never missed."""
        _SEEN.set((channel, stamp))

    def _held(self, channel: str) -> GameRow | None:
        """The live game's row if this task's claim saw the version this process holds."""
        seen = _SEEN.get()
        if seen is None or seen[0] != channel or seen[1] is None:
            return None
        stamp, row = seen[1], self.rows.get(channel)
        if row is None or (row.id, row.version) != (stamp.game, stamp.version):
            return None
        row.votes = stamp.votes  # as the claim counted them (a vote does not change the version)
        return row

    async def live_game(self, channel: str) -> GameRow | None:
        """The channel's game in set-up or running, if any: held or read (see ``seen``)."""
        row = self._held(channel)
        if row is None:
            row = await self.store.live_game(channel)
            if row is not None:
                self._hold(row)
        return row

    def _cache(self, key: tuple[int, int, str], state: Any, known: dict[Any, Any]) -> None:
        self.states[key] = state
        self.states.move_to_end(key)
        self.known[key] = known
        while len(self.states) > STATE_CACHE:
            old, _ = self.states.popitem(last=False)
            self.known.pop(old, None)

    async def live(self, channel: str) -> Loaded:
        reused = _REUSED.get()
        if reused is not None and reused.row.channel == channel:
            return reused
        return self.decode(await self.live_row(channel))

    @contextlib.contextmanager
    def reusing(self, loaded: Loaded) -> Iterator[None]:
        """Within it (this task only), ``live`` of the game's channel answers ``loaded`` unread."""
        token = _REUSED.set(loaded)
        try:
            yield
        finally:
            _REUSED.reset(token)

    async def live_row(self, channel: str) -> GameRow:
        """The channel's game in set-up or running, not yet decoded; else why there is none."""
        row = await self.live_game(channel)
        if row is None:
            ended = await self.store.latest_game(channel)
            if ended is not None:
                raise WrongPhase(f"The {ended.system} game in this channel is over.",
                                 hint="/game log, /game export and /game verify still show it; start another with /game new.")
            raise NoSuchGame("There is no game in this channel.", hint="Start one with /game new system:<id> scenario:<id>.")
        return row

    async def latest(self, channel: str) -> Loaded:
        return self.decode(await self.latest_row(channel))

    async def latest_row(self, channel: str) -> GameRow:
        """The channel's newest game, not decoded (its record can be read whatever rules saved it)."""
        row = await self.store.latest_game(channel)
        if row is None:
            raise NoSuchGame("There is no game in this channel.", hint="Start one with /game new system:<id> scenario:<id>.")
        return row

    async def tools_state(self, channel: str) -> ToolsState:
        row = await self.store.tools(channel)
        return TOOLS.decode(row.snapshot) if row else ToolsState()

    async def is_umpire(self, channel: str, user: User) -> bool:
        return umpire_of(await self.live_game(channel)) == user.id

    async def end_votes(self, row: GameRow, mark: int) -> set[str]:
        """Who voted to end the game while it showed ``mark``: no read when the row counted none."""
        return set() if row.votes == 0 else await self.store.end_votes(row.id, mark)

