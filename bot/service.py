"""The table service: every command of both front ends, independent of Discord.

``handle(channel, user, command, options)`` returns ``Output``s (public messages, DMs, ephemeral
replies, errors) and never raises for a user's mistake: a ``GameError`` becomes an error output and
nothing is stored. Commands on one channel are serialised by a lock; the store also rejects a stale
version, so an order is never applied twice. Each game is (system, scenario, options, seed) plus
its order log; the state is a fold of the log, snapshotted after every order.

This is the facade: the commands' handlers live in rooms by concern (``bot/rooms/``), bound here
by reference from the one command table in bot/commands.py.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import time
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from bot.commands import COMMAND_LIST, COMMANDS
from bot.mentions import mentioned_users
from bot.rooms.choices import Choices
from bot.rooms.common import CONCEDE_ORDER as CONCEDE_ORDER
from bot.rooms.common import (
    FINISHED,
    HIDDEN_ORDER,
    MAX_INPUT,
    MAX_MESSAGE,
    MAX_REPLAY_FRAMES,
    NOT_YOUR_OFFER,
    OUT_OF_DATE,
    Loaded,
    Output,
    User,
    fold,
    parse_options,
    parse_zoom,
    replay_steps,
    ruleset_for,
    storable_name,
    unstorable,
)
from bot.rooms.context import Table
from bot.rooms.delivery import ClosedDms
from bot.rooms.help import Help
from bot.rooms.lifecycle import LIST_PAGE, Lifecycle, new_game_spec
from bot.rooms.orders import Orders
from bot.rooms.records import LOG_PAGE, Records, verify_export
from bot.rooms.reminders import Reminders
from bot.rooms.seats import users_to_act
from bot.rooms.tools import Tools
from bot.storage import GameRow, StaleVersion, Storage
from bot.web.command import WebLinks
from games.core.errors import DataError, GameError, InvalidSyntax, NotAllowed, UnknownName, WrongPhase, quote
from games.core.rng import new_seed

__all__ = [
    "CONCEDE_ORDER", "FINISHED", "HIDDEN_ORDER", "LIST_PAGE", "LOG_PAGE", "MAX_INPUT", "MAX_MESSAGE",
    "MAX_REPLAY_FRAMES", "Loaded", "Output", "TableService", "User", "fold", "mentioned_users", "parse_options",
    "parse_zoom", "replay_steps", "ruleset_for", "verify_export",
]

# The options each command takes (anything else is refused); the commands are in bot/commands.py.
COMMAND_OPTIONS = {name: command.option_names for name, command in COMMANDS.items()}
Bound = Callable[[str, User, dict[str, str]], Awaitable[list[Output]]]


class TableService:
    """All commands; both front ends call ``handle``, ``choices`` and ``channel_state``."""

    def __init__(
        self,
        store: Storage,
        *,
        mention: Callable[[str], str] = lambda uid: f"<@{uid}>",
        seed_source: Callable[[], bytes] = new_seed,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.table = Table(store, mention=mention, seed_source=seed_source, clock=clock)
        self.lifecycle = Lifecycle(self.table)
        self.orders = Orders(self.table)
        self.tools = Tools(self.table)
        self.records = Records(self.table)
        self.reminders = Reminders(self.table)
        self.help = Help([c.usage for c in COMMAND_LIST if c.slash])
        self.choosing = Choices(self.table)
        self.dms = ClosedDms(store)
        self.web = WebLinks(self.table)
        self._handlers = _bind(COMMAND_LIST, (self.lifecycle, self.orders, self.tools, self.records, self.reminders,
                                              self.help, self.web))

    @property
    def seed_source(self) -> Callable[[], bytes]:
        return self.table.seed_source

    @seed_source.setter
    def seed_source(self, source: Callable[[], bytes]) -> None:
        """Tests fix the seeds of a running service's new games and streams."""
        self.table.seed_source = source

    @property
    def clock(self) -> Callable[[], float]:
        return self.table.clock

    @property
    def mention(self) -> Callable[[str], str]:
        return self.table.mention

    @property
    def commands(self) -> list[str]:
        return sorted(self._handlers)

    # --- entry points ----------------------------------------------------------------------
    async def handle(
        self, channel: str, user: User, command: str, options: dict[str, str], *,
        offered: tuple[int, int | None] | None = None,
    ) -> list[Output]:
        """``offered``: the command comes from a button or menu offered for (game id, version) (see
        ``offer_is_current``); it is refused, under the channel's lock, if the game has moved on."""
        command = " ".join(command.split()).lower()
        handler = self._handlers.get(command)
        if handler is None:
            return [self._error(user, f"Unknown command {quote('/' + command)}. Commands: "
                                + ", ".join("/" + c for c in self.commands) + ".")]
        # a heavy command (replay, verify, export) takes the lock itself, only to read its snapshot
        lock = contextlib.nullcontext() if COMMANDS[command].detached else self.table.lock(channel)
        writes = contextlib.nullcontext() if COMMANDS[command].read_only else self.table.writing(channel)
        async with lock:
            with writes:
                return await self._handle(channel, user, command, options, offered)

    async def _handle(self, channel: str, user: User, command: str, options: dict[str, str],
                      offered: tuple[int, int | None] | None) -> list[Output]:
        handler = self._handlers[command]
        try:
            unknown = sorted(set(options) - COMMAND_OPTIONS[command])
            if unknown:
                known = ", ".join(sorted(COMMAND_OPTIONS[command])) or "none"
                raise UnknownName(f"/{command} has no option {quote(unknown[0])}.", hint=f"Its options: {known}.")
            for key, value in options.items():
                if len(value) > MAX_INPUT and key != "export":
                    raise InvalidSyntax(f"{key}: is {len(value)} characters long; at most {MAX_INPUT} are accepted.")
                why = unstorable(value)
                if why:  # the one edge every option passes: no room or store ever sees such text
                    raise InvalidSyntax(f"{key}: {why}, so nothing was done.",
                                        hint="Remove or retype that character and send the command again.")
            if unstorable(user.name):
                user = dataclasses.replace(user, name=storable_name(user.name))
            opts = {k: v.strip() for k, v in options.items()} | {"_verb": command.split()[-1]}
            if offered is not None:
                verdict = await self.offer_verdict(channel, user, *offered)
                if verdict == "not yours":  # before the version check: see may_use_order_offer
                    raise NotAllowed(NOT_YOUR_OFFER)
                if verdict == "out of date":
                    raise WrongPhase(OUT_OF_DATE, hint="Use the newest message's buttons, or the slash command.")
            outputs = await handler(channel, user, opts)
        except GameError as exc:
            outputs = [self._error(user, exc.text)]
        except StaleVersion:
            outputs = [self._error(user, "Someone else acted on this game at the same moment; nothing of yours was applied. Please try again.")]
        except DataError as exc:  # a data pack changed under a running bot: the admin's to mend, not a bug
            outputs = [self._error(user, f"This server's game data is broken, so nothing was done: {exc}. "
                                         "A server admin should check its data packs.")]
        return [self.table.format(o) for o in outputs]


    async def choices(self, channel: str, user: User, command: str, option: str, current: str,
                      given: dict[str, str] | None = None) -> list[str]:
        """Autocomplete values (uncapped; front ends cut to their limit)."""
        return [value for _, value in await self.choice_pairs(channel, user, command, option, current, given)]

    async def choice_pairs(self, channel: str, user: User, command: str, option: str, current: str,
                           given: dict[str, str] | None = None) -> list[tuple[str, str]]:
        """Autocomplete candidates as (label, value): see ``Choices.pairs``."""
        return await self.choosing.pairs(channel, user, command, option, current, given)

    async def offer_choices(self, channel: str, user: User, command: str, option: str,
                            only: Callable[[GameRow], bool] = lambda row: True) -> tuple[GameRow, list[str]] | None:
        """The choices for the buttons under a command's post, with the game row they were read at
        (the offer's id and version), or None when the channel has no live game or it is not
        ``only``'s. After an order this process gave, the game as that order left it
        (``Table.recent``): no store read, and a later change only makes the offer out of date,
        never the reverse."""
        loaded = self.table.recent.get(channel)
        if loaded is None:
            row = await self.table.live_game(channel)
            if row is None or not only(row):
                return None
            return row, await self.choices(channel, user, command, option, "")
        if loaded.row.status not in ("setup", "running") or not only(loaded.row):
            return None
        with self.table.reusing(loaded):
            return loaded.row, await self.choices(channel, user, command, option, "")

    async def status_text(self, channel: str, user: User) -> tuple[GameRow, str] | None:
        """The channel's newest game and its /game status text as ``user`` reads it ("" when it
        cannot be read), for the pinned status message: after an order this process gave, the
        game as that order left it, else read from the store."""
        loaded = self.table.recent.get(channel)
        row = loaded.row if loaded is not None else await self.store.latest_game(channel)
        if row is None:
            return None
        try:
            outputs = await self.lifecycle.status_of(loaded or self.table.decode(row), user)
        except (GameError, DataError):  # e.g. saved by rules this bot cannot read: the caller says only its status
            return row, ""
        return row, "\n".join(self.table.format(o).text for o in outputs)

    async def set_status_message(self, row: GameRow, message_id: str) -> None:
        """Keep the id of the game's status message in its row (so a restart edits the same one)."""
        await self.store.touch(row.id, status_message=message_id)
        recent = self.table.recent.get(row.channel)
        if recent is not None and recent.row.id == row.id:
            recent.row.status_message = message_id

    def forget_recent(self, channel: str) -> None:
        """The next look at the channel's game reads the store (another process may have changed it)."""
        self.table.recent.pop(channel, None)

    async def channel_state(self, channel: str) -> tuple[str, list[str]]:
        """("none" | "setup" | "running" | "over", user ids who must act now)."""
        row = await self.store.latest_game(channel)
        if row is None:
            return "none", []
        if row.status != "running":
            return row.status, []
        try:
            loaded = self.table.decode(row)
        except GameError:  # its system no longer loads; commands explain that to whoever asks
            return "running", []
        return "running", users_to_act(loaded)


    async def dms_closed(self, user_id: str) -> None:
        await self.dms.dms_closed(user_id)

    async def closed_dm_users(self) -> set[str]:
        return await self.dms.closed_dm_users()

    async def dms_reopened(self, user_id: str) -> None:
        """A DM to this user went through: forget that their DMs were closed."""
        await self.dms.dms_reopened(user_id)

    async def closed_dm_times(self) -> dict[str, float]:
        """User id -> when their DMs were last found closed (the adapter tries again a while after)."""
        return await self.dms.closed_dm_times()

    async def due_reminders(self, now: float | None = None, channels: Collection[str] | None = None) -> list[Output]:
        """Reminder pings for games whose seats to act have been idle too long: see ``Reminders.due_reminders``."""
        return await self.reminders.due_reminders(now, channels)

    async def note_guild(self, channel: str, guild: str) -> None:
        """The front end says which Discord server a channel (or thread) is in: new games there record
        it, /game list there lists that server's games, and the channel's games from before schema 6
        (which have none) get it now, once per channel and process."""
        if not guild or self.table.guilds.get(channel) == guild:
            return
        await self.store.fill_guild(channel, guild)
        self.table.guilds[channel] = guild

    async def offer_is_current(self, channel: str, game: int, version: int | None) -> bool:
        """Whether a button or menu offered for ``game`` at ``version`` still fits the channel's game:
        an order offer only at that very version, a seat offer (``version`` None) while it is set up."""
        return _is_current(await self.table.live_game(channel), game, version)

    async def may_use_order_offer(self, channel: str, user: User) -> bool:
        """Whether ``user`` acts now in the channel's running game (who is to act is public), so may
        use an order offer. Asked before whether the offer is current, so anyone else gets the same
        answer whatever the offer's version: a click must not tell them a hidden order was given."""
        return self._may_use(await self.table.live_game(channel), user)

    async def offer_verdict(self, channel: str, user: User, game: int, version: int | None) -> str:
        """A click on an offer for ``game`` at ``version``, on one read of the game: "not yours" (an
        order offer, ``may_use_order_offer``: asked first), "out of date" (``offer_is_current``) or "ok"."""
        row = await self.table.live_game(channel)
        if version is not None and not self._may_use(row, user):
            return "not yours"
        return "ok" if _is_current(row, game, version) else "out of date"

    def _may_use(self, row: GameRow | None, user: User) -> bool:
        if row is None or row.status != "running":
            return False
        try:
            loaded = self.table.decode(row)
        except GameError:
            return False
        return user.id in users_to_act(loaded)

    def new_game_title(self, options: dict[str, str]) -> str:
        """What ``/game new`` with these options would set up ("Rules: Scenario"), or a GameError
        saying what is wrong, without creating anything (e.g. before the front end makes a thread)."""
        rules, _, scenario, _ = new_game_spec(options)
        name = next(s.name for s in rules.scenarios() if s.id == scenario)
        return f"{rules.name}: {name}"

    def _error(self, user: User, text: str) -> Output:
        return Output("error", text, to=user.id)


def _is_current(row: GameRow | None, game: int, version: int | None) -> bool:
    if row is None or row.id != game:
        return False
    return row.status == "setup" if version is None else row.version == version


def _bind(commands: Collection[Any], rooms: tuple[object, ...]) -> dict[str, Bound]:
    """Each command's handler (a room class's function, bot/commands.py) bound to this service's
    room of that class; a handler of no room here fails at start-up, not at the first use."""
    owner = {member: room for room in rooms for member in vars(type(room)).values()}
    return {command.name: functools.partial(command.handler, owner[command.handler]) for command in commands}
