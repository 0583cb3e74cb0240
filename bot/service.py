"""The table service: every command of both front ends, independent of Discord.

``handle(channel, user, command, options)`` returns ``Output``s (public messages, DMs, ephemeral
replies, errors) and never raises for a user's mistake: a ``GameError`` becomes an error output and
nothing is stored. Commands on one channel are serialised by a lock; the store also rejects a stale
version, so an order is never applied twice. Each game is (system, scenario, options, seed) plus
its order log; the state is a fold of the log, snapshotted after every order.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import hashlib
import json
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from bot.commands import COMMAND_LIST, COMMANDS, Command
from bot.storage import ChannelTaken, GameRow, OrderRow, StaleVersion, Storage
from bot.text import split_text
from games.core.codec import to_json
from games.core.dice import DiceParser, sanitise_label
from games.core.errors import (
    DataError,
    GameError,
    IllegalOrder,
    InvalidSyntax,
    NoSuchGame,
    NotAllowed,
    UnknownName,
    WrongPhase,
    quote,
)
from games.core.hexgrid import Hex
from games.core.options import check_options
from games.core.preview import preview_view
from games.core.rng import DrawRefused, NoDraws, Rng, commitment, new_seed
from games.core.ruleset import UMPIRE, Event, Outcome, Ruleset, Seat, get_ruleset, read_order, system_ids
from games.core.squaregrid import Square, SquareBoard
from games.core.view import View
from games.tools import TOOLS, ToolsState, custom_dice, small_number

LOG_PAGE = 15
LIST_PAGE = 10  # games per /game list page
MAX_REPLAY_FRAMES = 100  # a longer game is sampled: set-up, evenly spaced orders, the last
STATE_CACHE = 512  # decoded game states kept in memory, newest first out last
MAX_MESSAGE = 1900  # the service leaves a front end room to add to a message (a ping, a note)
MAX_INPUT = 6000  # characters in one option, as on Discord; a pasted export (/game verify export:) may be longer
HIDDEN_ORDER = "(a hidden order, shown when the game ends)"
FINISHED = ("over", "published")  # a game that ended; a table-tools stream whose seed was published
TOOLS_RETRIES = 3
CHANNEL_HAS_GAME = "This channel already has a game."
CHANNEL_HAS_GAME_HINT = "Finish it with /game end, or use another channel."
END_RULE = ("Only the umpire, whoever created the game, or a member with Manage Server can end it at once; "
            "otherwise it ends when every seated player has voted with /game end.")
OUT_OF_DATE = "This choice is out of date: the game has moved on since it was offered, so nothing was done."
NOT_YOUR_OFFER = "These choices are for the player to act now, so nothing was done."
VOTES_LAPSE = "(Any change on the board, in who is to act or in the seats clears the votes.)"
USER_TOKEN = re.compile(r"<@([^<>\s]+)>")
MENTION = re.compile(r"<@([!&]?)([^<>\s!&]+)>")  # <@id>, <@!id> (nickname form), <@&id> (a role)


# The options each command takes (anything else is refused); the commands are in bot/commands.py.
COMMAND_OPTIONS = {name: command.option_names for name, command in COMMANDS.items()}


@dataclass(frozen=True)
class User:
    id: str
    name: str
    manage_server: bool = False


@dataclass(frozen=True)
class Output:
    kind: Literal["message", "dm", "ephemeral", "error"]
    text: str
    channel: str | None = None
    to: str | None = None
    view: View | None = None
    file: tuple[str, bytes] | None = None
    private_fallback: bool = False
    zoom: tuple[str | tuple[float, float], float] | None = None  # (where, radius) for the renderer


@dataclass
class Loaded:
    """A game row with its ruleset and decoded state."""

    row: GameRow
    rules: Ruleset[Any]
    state: Any


def parse_options(text: str) -> dict[str, str]:
    """``k=v,k2=v2`` -> dict. A part without ``=`` continues the previous value (``sides=Peru,Chile``)."""
    out: dict[str, str] = {}
    last = ""
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "=" not in part:
            if not last:
                raise InvalidSyntax(f"Option {quote(part)} has no value.", hint="Write options as key=value,key2=value2.")
            out[last] += "," + part
            continue
        key, value = (x.strip() for x in part.split("=", 1))
        if not key:
            raise InvalidSyntax(f"Option {quote(part)} has no name.", hint="Write options as key=value,key2=value2.")
        if key in out:
            raise InvalidSyntax(f"Option {quote(key)} is given twice.", hint="Give each option once.")
        out[key] = value
        last = key
    return out


def _place(view: View, pos: tuple[float, float]) -> str:
    """A counter's position as /game board zoom: reads it: hex label, square, or x,y inches."""
    if view.board.kind == "hex" and view.board.hex_layout is not None:
        return view.board.hex_layout.label(Hex(int(pos[0]), int(pos[1])))
    if view.board.kind == "square":
        return SquareBoard(int(view.board.width), int(view.board.height)).label(Square(int(pos[0]), int(pos[1])))
    return f"{pos[0]:g},{pos[1]:g}"


ZOOM_RADIUS = {"hex": 3.0, "square": 2.0, "table": 6.0}


def parse_zoom(view: View, text: str) -> tuple[str | tuple[float, float], float]:
    """``1205``, ``c4 3`` or ``12.5,18 8``: where to centre a zoomed board, and how far to show."""
    parts = text.replace(";", " ").split()
    kind = view.board.kind
    radius = ZOOM_RADIUS[kind]
    if len(parts) == 2:
        try:
            radius = float(parts[1])
        except ValueError:
            raise InvalidSyntax(f"Zoom radius {quote(parts[1])} is not a number.") from None
        if not 0.5 <= radius <= 50:
            raise InvalidSyntax("Zoom radius must be between 0.5 and 50.")
    elif len(parts) != 1:
        raise InvalidSyntax(f"Cannot read zoom {quote(text)}.", hint="Write a hex (1205), a square (c4) or a point (12,18), then optionally a radius.")
    where = parts[0]
    if kind == "hex" and view.board.hex_layout is not None:
        view.board.hex_layout.parse(where)
        return where, radius
    if kind == "square":
        SquareBoard(int(view.board.width), int(view.board.height)).parse(where)
        return where.lower(), radius
    try:
        x_text, y_text = where.split(",")
        x, y = float(x_text), float(y_text)
    except ValueError:
        raise InvalidSyntax(f"Zoom point {quote(where)} should be x,y in inches, e.g. 12,18.") from None
    if not (0 <= x <= view.board.width and 0 <= y <= view.board.height):
        raise InvalidSyntax(f"Point {quote(where)} is off the {view.board.width:g}x{view.board.height:g} inch table.")
    return (x, y), radius


def mentioned_users(text: str) -> list[str]:
    """User ids from ``<@1> <@!2> bob``: both mention forms name the same user; a role is refused."""
    users: list[str] = []
    for word in MENTION.sub(lambda m: f" {m.group(0)} ", text).split():
        token = MENTION.fullmatch(word)
        if token and token.group(1) == "&":
            raise InvalidSyntax(f"{quote(word)} is a role, not a user.", hint="Mention each person, e.g. @alice @bob.")
        users.append(token.group(2) if token else word)
    return users


def ruleset_for(system: str) -> Ruleset[Any]:
    """The rule system of a stored row or an export: a game's, or the channel table tools'."""
    return TOOLS if system == TOOLS.id else get_ruleset(system)


def fold(
    rules: Ruleset[Any], seed: bytes, scenario: str, options: dict[str, str], orders: Iterable[tuple[str, str]]
) -> Iterator[tuple[Any, Rng, list[Event]]]:
    """Replay a game: set-up, then each (seat, order text) in turn, yielding the state, the random
    stream and that step's events after set-up and after every order (the same live objects).
    A concession (``CONCEDE_ORDER``, logged by /game concede) changes no state and draws nothing."""
    rng = Rng(seed)
    state = rules.setup(scenario, options, rng)
    yield state, rng, []
    for seat, text in orders:
        if text == CONCEDE_ORDER:
            yield state, rng, [concession_event(rules, state, seat)]
            continue
        yield state, rng, rules.apply(state, seat, rules.parse_order(state, seat, text), rng)


# /game concede is logged as an order with this text, for the conceding side's seat. No system's
# notation starts with "/" (tests/bot/test_concede.py checks every system refuses it as an order),
# so replay, export and verify tell it from a rules order without asking the rule system.
CONCEDE_ORDER = "/concede"


def side_of(seat: Seat) -> str:
    """The side a seat plays for (a ship's seat belongs to its side; a side's seat is the side)."""
    return seat.side or seat.id


def side_labels(rules: Ruleset[Any], state: Any) -> dict[str, str]:
    """Side id -> its label, in seat order (the umpire is no side): its own seat's label, else (a
    side whose seats are its parts, e.g. an Oak & Iron fleet's squadrons) the view's name for it."""
    labels: dict[str, str] = {}
    named: dict[str, str] | None = None
    for seat in rules.seats(state):
        if seat.kind != "umpire" and seat.id != UMPIRE:
            side = side_of(seat)
            if side == seat.id:
                labels[side] = seat.label
            elif side not in labels:
                if named is None:
                    named = {s.id: s.name for s in rules.view(state, None).sides}
                labels[side] = named.get(side, side)
    return labels


def concession_event(rules: Ruleset[Any], state: Any, seat_id: str) -> Event:
    seat = next((s for s in rules.seats(state) if s.id == seat_id), None)
    side = side_of(seat) if seat is not None else seat_id
    return Event(f"{side_labels(rules, state).get(side, side)} concedes.")


def replay_steps(orders: int, cap: int) -> list[int]:
    """The fold steps a replay shows (0 = set-up, i = after order i): all of them when they fit in
    ``cap`` frames, else ``cap`` evenly spaced ones that always include the set-up and the last."""
    if orders + 1 <= cap:
        return list(range(orders + 1))
    return sorted({round(i * orders / (cap - 1)) for i in range(cap)})


def _event_json(e: Event) -> dict[str, Any]:
    return {"text": e.text, "to": sorted(e.to) if e.to is not None else None, "reveals": e.reveals}


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
        self.mention = mention
        self.seed_source = seed_source
        self.clock = clock
        self._locks: dict[str, asyncio.Lock] = {}
        self._closed_dms: set[str] | None = None
        self._states: OrderedDict[tuple[int, int, str], Any] = OrderedDict()
        self._replay_lock = asyncio.Lock()
        self._guilds: dict[str, str] = {}  # channel -> its Discord server, as the front end said (note_guild)
        self._handlers: dict[str, Callable[[str, User, dict[str, str]], Awaitable[list[Output]]]] = {
            name: getattr(self, command.handler) for name, command in COMMANDS.items()
        }

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
        lock = self._locks.setdefault(channel, asyncio.Lock())
        async with lock:
            try:
                unknown = sorted(set(options) - COMMAND_OPTIONS[command])
                if unknown:
                    known = ", ".join(sorted(COMMAND_OPTIONS[command])) or "none"
                    raise UnknownName(f"/{command} has no option {quote(unknown[0])}.", hint=f"Its options: {known}.")
                for key, value in options.items():
                    if len(value) > MAX_INPUT and key != "export":
                        raise InvalidSyntax(f"{key}: is {len(value)} characters long; at most {MAX_INPUT} are accepted.")
                opts = {k: v.strip() for k, v in options.items()} | {"_verb": command.split()[-1]}
                if offered is not None and offered[1] is not None and not await self.may_use_order_offer(channel, user):
                    raise NotAllowed(NOT_YOUR_OFFER)  # before the version check: see may_use_order_offer
                if offered is not None and not await self.offer_is_current(channel, *offered):
                    raise WrongPhase(OUT_OF_DATE, hint="Use the newest message's buttons, or the slash command.")
                outputs = await handler(channel, user, opts)
            except GameError as exc:
                outputs = [self._error(user, exc.text)]
            except StaleVersion:
                outputs = [self._error(user, "Someone else acted on this game at the same moment; nothing of yours was applied. Please try again.")]
            except DataError as exc:  # a data pack changed under a running bot: the admin's to mend, not a bug
                outputs = [self._error(user, f"This server's game data is broken, so nothing was done: {exc}. "
                                             "A server admin should check its data packs.")]
        return [self._format(o) for o in outputs]

    async def choices(self, channel: str, user: User, command: str, option: str, current: str,
                      given: dict[str, str] | None = None) -> list[str]:
        """Autocomplete values (uncapped; front ends cut to their limit)."""
        return [value for _, value in await self.choice_pairs(channel, user, command, option, current, given)]

    async def choice_pairs(self, channel: str, user: User, command: str, option: str, current: str,
                           given: dict[str, str] | None = None) -> list[tuple[str, str]]:
        """Autocomplete candidates as (label, value), for the option's ``complete`` list in
        bot/commands.py; ``given`` holds the command's other options typed so far. Only what this
        user may see is offered: their own seats' orders, hand, secret rolls and view of the board."""
        spec = COMMANDS.get(" ".join(command.split()).lower())
        param = next((p for p in spec.params if p.name == option), None) if spec else None
        if param is None or not param.complete:
            return []
        completer: Callable[[str, User, dict[str, str], str], Awaitable[list[tuple[str, str]]]] = getattr(
            self, f"_complete_{param.complete}")
        try:
            found = await completer(channel, user, given or {}, current)
        except (GameError, DataError):
            return []
        needle = current.strip().lower()
        unique = dict((value, label) for label, value in reversed(found))  # the first label of a value wins
        return [(label, value) for value, label in reversed(unique.items())
                if needle in value.lower() or needle in label.lower() or param.complete == "options"]

    async def _complete_systems(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        pairs = []
        for system_id in system_ids():
            try:
                pairs.append((f"{get_ruleset(system_id).name} ({system_id})", system_id))
            except GameError:  # listed but broken on this server: offer the id, /game new explains
                pairs.append((system_id, system_id))
        return pairs

    async def _complete_scenarios(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        systems = [given["system"]] if given.get("system") else system_ids()
        return [(f"{s.name} ({s.id})", s.id) for sid in systems for s in get_ruleset(sid).scenarios()]

    async def _complete_options(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        """``key=value`` completions for the last item of a comma-separated options string."""
        if not given.get("system"):
            return []
        done, _, last = current.rpartition(",")
        prefix = f"{done}," if done else ""
        used = {item.split("=", 1)[0].strip() for item in done.split(",") if item.strip()}
        names = [prefix + f"{spec.key}={value}" for spec in get_ruleset(given["system"]).options() if spec.key not in used
                 for value in (spec.choices or (spec.default,)) if f"{spec.key}={value}".startswith(last.strip())]
        if current and current not in names:
            names.insert(0, current)
        return [(name, name) for name in names]

    async def _complete_seats_free(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        loaded = await self._live(channel)
        return [(f"{s.label} ({s.id})" if s.label != s.id else s.id, s.id)
                for s in loaded.rules.seats(loaded.state) if s.id not in loaded.row.seats]

    async def _complete_seats(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        loaded = await self._live(channel)
        held = {seat: who.get("name", who["user"]) for seat, who in loaded.row.seats.items()}
        return [(f"{s.label} ({s.id}) - {'held by ' + held[s.id] if s.id in held else 'empty'}", s.id)
                for s in loaded.rules.seats(loaded.state)]

    async def _complete_my_seats(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        loaded = await self._live(channel)
        mine = set(self._user_seats(loaded.row, user.id))
        return [(s.label, s.id) for s in loaded.rules.seats(loaded.state) if s.id in mine]

    async def _complete_orders(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        loaded = await self._live(channel)
        seats = self._user_seats(loaded.row, user.id)
        if given.get("seat"):
            wanted = given["seat"].lower()
            seats = [s for s in seats if s.lower() == wanted] or seats
        return [(text, text) for seat in seats for text in loaded.rules.legal_orders(loaded.state, seat)]

    async def _complete_zoom(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        """The places of the units this user can see, named: where /game board zoom: most often goes."""
        loaded = await self._latest(channel)
        seats = self._user_seats(loaded.row, user.id)
        view = loaded.rules.view(loaded.state, UMPIRE if UMPIRE in seats else (seats[0] if seats else None))
        pairs = []
        for counter in view.counters:
            if counter.face_down or counter.kind in ("wake", "marker"):
                continue
            where = _place(view, counter.pos)
            pairs.append((f"{counter.label} ({where})", where))
        return pairs

    async def _complete_deck_sources(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        from games.tools import deck_sources

        return [(name, name) for name in sorted(deck_sources())]

    async def _tools_state(self, channel: str) -> ToolsState:
        row = await self.store.tools(channel)
        return TOOLS.decode(row.snapshot) if row else ToolsState()

    async def _complete_decks(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        state = await self._tools_state(channel)
        return [(f"{name} ({len(deck.draw_pile)} to draw)", name) for name, deck in sorted(state.decks.items())]

    async def _complete_hand_cards(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        state = await self._tools_state(channel)
        decks = [given["deck"]] if given.get("deck") in state.decks else sorted(state.decks)
        return [(f"{card} ({name})" if len(decks) > 1 else card, card)
                for name in decks for card in state.decks[name].hands.get(user.id, [])]

    async def _complete_my_rolls(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        state = await self._tools_state(channel)
        umpire = await self._is_umpire(channel, user)
        return [(f"#{r.number} {r.purpose}".strip() + ("" if r.roller == user.id else f" (by {self.mention(r.roller)})"),
                 str(r.number)) for r in state.rolls if not r.revealed and (r.roller == user.id or umpire)]

    async def channel_state(self, channel: str) -> tuple[str, list[str]]:
        """("none" | "setup" | "running" | "over", user ids who must act now)."""
        row = await self.store.latest_game(channel)
        if row is None:
            return "none", []
        if row.status != "running":
            return row.status, []
        try:
            loaded = self._decode(row)
        except GameError:  # its system no longer loads; commands explain that to whoever asks
            return "running", []
        return "running", self._users_to_act(loaded)

    async def dms_closed(self, user_id: str) -> None:
        await self.store.set_dms_closed(user_id, True)
        if self._closed_dms is not None:
            self._closed_dms.add(user_id)

    async def closed_dm_users(self) -> set[str]:
        if self._closed_dms is None:
            self._closed_dms = await self.store.dms_closed_users()
        return self._closed_dms

    async def dms_reopened(self, user_id: str) -> None:
        """A DM to this user went through: forget that their DMs were closed."""
        await self.store.set_dms_closed(user_id, False)
        if self._closed_dms is not None:
            self._closed_dms.discard(user_id)

    async def note_guild(self, channel: str, guild: str) -> None:
        """The front end says which Discord server a channel (or thread) is in: new games there record
        it, /game list there lists that server's games, and the channel's games from before schema 6
        (which have none) get it now, once per channel and process."""
        if not guild or self._guilds.get(channel) == guild:
            return
        await self.store.fill_guild(channel, guild)
        self._guilds[channel] = guild

    async def offer_is_current(self, channel: str, game: int, version: int | None) -> bool:
        """Whether a button or menu offered for ``game`` at ``version`` still fits the channel's game:
        an order offer only at that very version, a seat offer (``version`` None) while it is set up."""
        row = await self.store.live_game(channel)
        if row is None or row.id != game:
            return False
        return row.status == "setup" if version is None else row.version == version

    async def may_use_order_offer(self, channel: str, user: User) -> bool:
        """Whether ``user`` acts now in the channel's running game (who is to act is public), so may
        use an order offer. Asked before whether the offer is current, so anyone else gets the same
        answer whatever the offer's version: a click must not tell them a hidden order was given."""
        row = await self.store.live_game(channel)
        if row is None or row.status != "running":
            return False
        try:
            loaded = self._decode(row)
        except GameError:
            return False
        return user.id in self._users_to_act(loaded)

    def new_game_title(self, options: dict[str, str]) -> str:
        """What ``/game new`` with these options would set up ("Rules: Scenario"), or a GameError
        saying what is wrong, without creating anything (e.g. before the front end makes a thread)."""
        rules, _, scenario, _ = _new_game_spec(options)
        name = next(s.name for s in rules.scenarios() if s.id == scenario)
        return f"{rules.name}: {name}"

    async def closed_dm_times(self) -> dict[str, float]:
        """User id -> when their DMs were last found closed (the adapter tries again a while after)."""
        return await self.store.dms_closed_since()

    async def due_reminders(self, now: float | None = None, channels: Collection[str] | None = None) -> list[Output]:
        """Reminder pings for games whose seats to act have been idle too long. Only due games are
        read (an indexed query), each claimed and marked as reminded at ``now`` in the same statement,
        so another process scanning at once gets none of them; a claimed game is not read again
        before ``remind_every`` even when nobody is to act or its system no longer loads here.
        ``channels``: only games in these channels (a sharded bot's own guilds'); None: all."""
        now = self.clock() if now is None else now
        outputs: list[Output] = []
        for row in await self.store.claim_due_games(now, channels=channels):
            try:
                users = self._users_to_act(self._decode(row))
            except GameError:  # its system no longer loads here: skip it, keep reminding the others
                continue
            if not users:
                continue
            hours = (now - row.last_activity) / 3600
            outputs.append(self._format(Output(
                "message",
                f"Reminder: {' '.join('<@' + u + '>' for u in users)}, the game here is waiting for you "
                f"({hours:.0f} h since the last order).",
                channel=row.channel,
            )))
        return outputs

    # --- helpers ---------------------------------------------------------------------------
    def _format(self, out: Output) -> Output:
        text = USER_TOKEN.sub(lambda m: self.mention(m.group(1)), out.text)
        return Output(out.kind, text, out.channel, out.to, out.view, out.file, out.private_fallback, out.zoom)

    def _error(self, user: User, text: str) -> Output:
        return Output("error", text, to=user.id)

    def _decode(self, row: GameRow) -> Loaded:
        """The row's state, decoded once per (game, version): callers must not mutate it."""
        rules = ruleset_for(row.system)
        key = (row.id, row.version, row.status)
        state = self._states.get(key)
        if state is None:
            state = rules.decode(row.snapshot)
            self._states[key] = state
            if len(self._states) > STATE_CACHE:
                self._states.popitem(last=False)
        else:
            self._states.move_to_end(key)
        return Loaded(row, rules, state)

    async def _live(self, channel: str) -> Loaded:
        row = await self.store.live_game(channel)
        if row is None:
            ended = await self.store.latest_game(channel)
            if ended is not None:
                raise WrongPhase(f"The {ended.system} game in this channel is over.",
                                 hint="/game log, /game export and /game verify still show it; start another with /game new.")
            raise NoSuchGame("There is no game in this channel.", hint="Start one with /game new system:<id> scenario:<id>.")
        return self._decode(row)

    async def _latest(self, channel: str) -> Loaded:
        row = await self.store.latest_game(channel)
        if row is None:
            raise NoSuchGame("There is no game in this channel.", hint="Start one with /game new system:<id> scenario:<id>.")
        return self._decode(row)

    def _user_seats(self, row: GameRow, user_id: str) -> list[str]:
        return [seat for seat, who in row.seats.items() if who["user"] == user_id]

    def _seat_users(self, row: GameRow, seats: frozenset[str] | list[str]) -> list[str]:
        return list(dict.fromkeys(row.seats[s]["user"] for s in seats if s in row.seats))

    def _umpire(self, row: GameRow | None) -> str | None:
        if row is None or UMPIRE not in row.seats:
            return None
        return row.seats[UMPIRE]["user"]

    def _users_to_act(self, loaded: Loaded) -> list[str]:
        return self._users_for(loaded.row, loaded.rules.to_act(loaded.state))

    def _users_for(self, row: GameRow, seats: list[str]) -> list[str]:
        """The users who act for these seats; an empty seat waits on the umpire, if there is one."""
        users = self._seat_users(row, seats)
        if any(s not in row.seats for s in seats):
            umpire = self._umpire(row)
            if umpire and umpire not in users:
                users.append(umpire)  # an empty seat waits on the umpire
        return users

    def _mentions(self, users: list[str]) -> str:
        return " ".join(f"<@{u}>" for u in users)

    def _seat_label(self, loaded: Loaded, seat_id: str) -> str:
        for s in loaded.rules.seats(loaded.state):
            if s.id == seat_id:
                return s.label
        return seat_id

    def _may_read_order(self, row: GameRow, user_id: str | None, order: OrderRow) -> bool:
        """An order that told someone something privately may be a secret choice (a sealed fire
        order, an initiative card): until the end only its own seat, the addressees and the umpire read it."""
        private_to = {s for e in order.events if e["to"] is not None for s in e["to"]}
        if row.status in FINISHED or not private_to:
            return True
        if user_id is None:
            return False
        mine = set(self._user_seats(row, user_id))
        return UMPIRE in mine or bool(mine & (private_to | {order.seat}))

    def _orders_seen(self, row: GameRow, user_id: str | None, orders: list[OrderRow]) -> list[tuple[OrderRow, bool]]:
        """The orders a viewer's log, export or replay lists, each with whether they may read its text.
        An order they may not read is listed only if the channel was told of it (it had a public
        event, "Union has sealed"); one given in secret is left out, and the lines are numbered
        afresh, so neither a placeholder nor a gap in the numbers counts or times hidden orders."""
        seen = []
        for o in orders:
            readable = self._may_read_order(row, user_id, o)
            if readable or any(e["to"] is None for e in o.events):
                seen.append((o, readable))
        return seen

    def log_lines(self, row: GameRow, user_id: str | None, orders: list[OrderRow]) -> list[tuple[OrderRow, str]]:
        """A reader's log, oldest first: each order they may see with its numbered line (what /game
        log pages through, and the web companion shows)."""
        lines = []
        for number, (o, readable) in enumerate(self._orders_seen(row, user_id, orders), start=1):
            mark = " ~~undone~~" if o.undone else ""
            public_text = " / ".join(e["text"].replace("\n", " ") for e in o.events if e["to"] is None)
            text = o.text if readable else HIDDEN_ORDER
            lines.append((o, f"{number}. [{o.seat}] {text}{mark} — {public_text}"[:400]))
        return lines

    def _replay(self, rules: Ruleset[Any], row: GameRow, orders: list[OrderRow]) -> tuple[Any, int]:
        """The state and stream counter after folding the given orders over set-up."""
        *_, (state, rng, _) = fold(rules, row.seed, row.scenario, row.options, ((o.seat, o.text) for o in orders))
        return state, rng.counter

    def _route(self, loaded: Loaded, events: list[Event], *, umpire: str | None = None) -> list[Output]:
        """Public events become one channel message; private ones become DMs to their seats' users,
        with a labelled copy to ``umpire`` (the channel game's umpire, who sees everything)."""
        row = loaded.row
        outputs: list[Output] = []
        public_lines = [e.text for e in events if e.public]
        if public_lines:
            for chunk in split_text("\n".join(public_lines), MAX_MESSAGE):
                outputs.append(Output("message", chunk, channel=row.channel))
        tools = row.system == TOOLS.id  # the tools' private events name users, not seats
        for e in events:
            if e.to is None:
                continue
            recipients = list(e.to) if tools else self._seat_users(row, e.to)
            for uid in recipients:
                for chunk in split_text(e.text, MAX_MESSAGE):
                    outputs.append(Output("dm", chunk, to=uid, private_fallback=True))
            if umpire and umpire not in recipients:  # the umpire sees all, labelled with whose it is
                whose = ", ".join(f"<@{u}>" if tools else self._seat_label(loaded, u) for u in sorted(e.to))
                for chunk in split_text(f"[umpire copy, for {whose}] {e.text}", MAX_MESSAGE):
                    outputs.append(Output("dm", chunk, to=umpire, private_fallback=True))
        return outputs

    # --- lifecycle -------------------------------------------------------------------------
    async def _game_new(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        if _flag(opts, "thread"):  # the Discord adapter makes threads
            raise InvalidSyntax("This table has no threads: thread:true works on Discord only.",
                                hint="Leave out thread:, or open another channel.")
        if await self.store.live_game(channel):
            raise IllegalOrder(CHANNEL_HAS_GAME, hint=CHANNEL_HAS_GAME_HINT)
        rules, system, scenario, full = _new_game_spec(opts)
        scenarios = rules.scenarios()
        seed = self.seed_source()
        rng = Rng(seed)
        state = rules.setup(scenario, full, rng)
        try:
            row = await self.store.create_game(
                channel=channel, system=system, scenario=scenario, options=full, seed=seed,
                commitment=commitment(seed), status="setup", snapshot=rules.encode(state), counter=rng.counter,
                creator=user.id, guild=self._guilds.get(channel, ""),
            )
        except ChannelTaken:
            raise IllegalOrder(CHANNEL_HAS_GAME, hint=CHANNEL_HAS_GAME_HINT) from None
        seats = rules.seats(state)
        name = next(s.name for s in scenarios if s.id == scenario)
        text = (
            f"<@{user.id}> set up **{rules.name}**: {name}.\n"
            f"Seed commitment: `{row.commitment}` (SHA-256 of the secret seed, published at the end).\n"
            f"Seats: {', '.join(f'{s.label} (`{s.id}`)' for s in seats)}.\n"
            "Take a seat with /game join seat:<seat>, then /game start."
        )
        return [Output("message", text, channel=channel)]

    async def _game_join(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self._live(channel)
        row = loaded.row
        seats = {s.id: s for s in loaded.rules.seats(loaded.state)}
        open_seats = [s for s in seats if s not in row.seats]
        wanted = opts.get("seat", "")
        if wanted in ("", "?"):
            return [Output("ephemeral", "Open seats: " + (", ".join(open_seats) or "none"), to=user.id)]
        seat = self._resolve_seat(seats, wanted)
        if row.status != "setup" and seat.id != UMPIRE:
            raise WrongPhase("This game has already started.", hint="Ask the umpire to assign you a seat with /game assign.")
        if row.status != "setup" and not user.manage_server:
            raise NotAllowed("The umpire sees every hand and sealed order, so once the game has begun only a member "
                             "with Manage Server may take the umpire seat (or /game assign it).")
        if seat.id in row.seats:
            holder = row.seats[seat.id]["user"]
            raise IllegalOrder(f"Seat {quote(seat.label)} is taken by <@{holder}>.", hint="Open seats: " + (", ".join(open_seats) or "none") + ".")
        if seat.id == UMPIRE and self._user_seats(row, user.id):
            raise IllegalOrder("The umpire cannot also hold a side's seat.", hint="Leave your seat first with /game leave.")
        if UMPIRE in row.seats and row.seats[UMPIRE]["user"] == user.id:
            raise IllegalOrder("You are the umpire here and cannot also hold a side's seat.")
        new_seats = dict(row.seats) | {seat.id: {"user": user.id, "name": user.name}}
        await self.store.update_game(row, seats=new_seats)
        return [Output("message", f"<@{user.id}> takes the seat **{seat.label}**.", channel=channel)]

    def _resolve_seat(self, seats: dict[str, Seat], wanted: str) -> Seat:
        w = wanted.strip().lower()
        for s in seats.values():
            if w in (s.id.lower(), s.label.lower()):
                return s
        raise UnknownName(f"No seat {quote(wanted)} in this game.", hint="Seats: " + ", ".join(seats) + ".")

    async def _game_leave(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self._live(channel)
        mine = self._user_seats(loaded.row, user.id)
        if not mine:
            raise NotAllowed("You hold no seat in this game.")
        if loaded.row.status == "running" and UMPIRE not in loaded.row.seats:
            note = " The game waits for a new player in that seat (the umpire or a Manage Server member can /game assign)."
        else:
            note = ""
        seats = {k: v for k, v in loaded.row.seats.items() if k not in mine}
        await self.store.update_game(loaded.row, seats=seats)
        return [Output("message", f"<@{user.id}> leaves {', '.join(mine)}.{note}", channel=channel)]

    async def _game_assign(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """Umpire (or Manage Server): put a user in a seat, or empty it (``user:none``)."""
        loaded = await self._live(channel)
        if self._umpire(loaded.row) != user.id and not user.manage_server:
            raise NotAllowed("Only the umpire or a member with Manage Server can assign seats.")
        seats = {s.id: s for s in loaded.rules.seats(loaded.state)}
        seat = self._resolve_seat(seats, opts.get("seat", ""))
        target = opts.get("user", "").strip()
        new = dict(loaded.row.seats)
        if target.lower() in ("", "none"):
            new.pop(seat.id, None)
            text = f"Seat **{seat.label}** is now empty."
        else:
            named = mentioned_users(target)
            if len(named) != 1:
                raise InvalidSyntax(f"Assign one user, not {quote(target)}.", hint="e.g. /game assign seat:red user:@alice")
            uid = named[0]
            others = {s for s, who in new.items() if who["user"] == uid and s != seat.id}
            if (seat.id == UMPIRE and others) or (seat.id != UMPIRE and UMPIRE in others):
                raise IllegalOrder(f"<@{uid}> cannot be both the umpire and a side's player.",
                                   hint="Empty their other seat first with /game assign seat:<seat> user:none.")
            new[seat.id] = {"user": uid, "name": opts.get("name", uid)}
            text = f"<@{uid}> now holds the seat **{seat.label}** (assigned by <@{user.id}>)."
        await self.store.update_game(loaded.row, seats=new)
        return [Output("message", text, channel=channel)]

    async def _game_start(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self._live(channel)
        row = loaded.row
        if row.status != "setup":
            raise WrongPhase("This game has already started.")
        if not self._user_seats(row, user.id) and user.id != row.creator:
            raise NotAllowed("Only a seated player or whoever created the game can start it.")
        missing = [s.label for s in loaded.rules.seats(loaded.state) if not s.optional and s.id not in row.seats]
        if missing:
            raise WrongPhase(f"Seats still empty: {', '.join(missing)}.", hint="Fill them with /game join seat:<seat> first.")
        loaded.rules.check_start(loaded.state, set(row.seats))
        row = await self.store.update_game(row, status="running", last_activity=self.clock())
        loaded = Loaded(row, loaded.rules, loaded.state)
        to_act = self._users_to_act(loaded)
        text = f"The game begins! {self._summary(loaded)}"
        if to_act:
            text += f"\nTo act: {self._mentions(to_act)}"
        return [Output("message", text, channel=channel, view=loaded.rules.view(loaded.state, None)),
                *self._private_views(loaded, None)]

    def _summary(self, loaded: Loaded) -> str:
        return "\n".join(loaded.rules.summary(loaded.state))

    def _private_views(self, loaded: Loaded, seats: set[str] | None) -> list[Output]:
        """DM each seated user their own view when it holds private lines (hands, secret values)."""
        outputs: list[Output] = []
        for seat, who in loaded.row.seats.items():
            if seats is not None and seat not in seats:
                continue
            view = loaded.rules.view(loaded.state, seat)
            if view.private_text:
                outputs.append(Output("dm", "\n".join(view.private_text), to=who["user"], view=view, private_fallback=True))
        return outputs

    async def _game_status(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self._latest(channel)
        row = loaded.row
        seats = loaded.rules.seats(loaded.state)
        lines = [f"**{loaded.rules.name}** ({row.scenario}), {row.status}.", self._summary(loaded)]
        lines.append("Seats: " + ", ".join(
            f"{s.label}: {('<@' + row.seats[s.id]['user'] + '>') if s.id in row.seats else 'open'}" for s in seats))
        if row.status == "running":
            users = self._users_to_act(loaded)
            if users:
                lines.append(f"To act: {self._mentions(users)}")
        if row.status in ("setup", "running"):
            players, voted = self._players(row), await self.store.end_votes(row.id, self._public_mark(loaded))
            votes = [p for p in players if p in voted]
            if votes:
                lines.append(f"Votes to end: {self._mentions(votes)} ({len(votes)}/{len(players)} players).")
        outcome = loaded.rules.outcome(loaded.state)
        if outcome:
            lines.append(f"Result: {outcome.reason}")
        return [Output("ephemeral", "\n".join(lines), to=user.id)]

    async def _game_board(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self._latest(channel)
        seats = self._user_seats(loaded.row, user.id)
        viewer = UMPIRE if UMPIRE in seats else (seats[0] if seats else None)
        view = loaded.rules.view(loaded.state, viewer)
        zoom = parse_zoom(view, opts.get("zoom", "")) if opts.get("zoom") else None
        note = f" around {opts['zoom']}" if zoom else ""
        return [Output("ephemeral", f"Board{note}: {view.title or loaded.rules.name}", to=user.id, view=view, zoom=zoom)]

    async def _game_log(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self._latest(channel)
        orders = await self.store.orders(loaded.row.id)
        # Page 1 is the newest orders, newest first: in a long game that is what players look for.
        lines = [line for _, line in reversed(self.log_lines(loaded.row, user.id, orders))]
        pages = max(1, (len(lines) + LOG_PAGE - 1) // LOG_PAGE)
        page_text = opts.get("page", "") or "1"
        page = small_number(page_text) or 0
        if not 1 <= page <= pages:
            raise InvalidSyntax(f"No log page {quote(page_text)}.", hint=f"Pages run 1 (newest) to {pages} (oldest).")
        chunk = lines[(page - 1) * LOG_PAGE: page * LOG_PAGE] or ["(no orders yet)"]
        older = f" (/game log page:{page + 1} for older orders)" if page < pages else ""
        return [Output("ephemeral", f"Log page {page} of {pages}, newest first{older}:\n" + "\n".join(chunk), to=user.id)]

    async def _game_undo(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self._live(channel)
        row = loaded.row
        orders = await self.store.orders(row.id, include_undone=False)
        if not orders:
            raise IllegalOrder("There is no order to undo.")
        last = orders[-1]
        is_umpire = self._umpire(row) == user.id
        if not is_umpire:
            if last.seat not in self._user_seats(row, user.id):
                raise NotAllowed("You can only take back your own last order, and only while nobody has acted since.",
                                 hint="The umpire can undo further.")
            if last.user_id != user.id:
                raise NotAllowed(f"Your seat's last order ({quote(last.text)}) was given by <@{last.user_id}>, not by you, "
                                 "so only the umpire can undo it.")
            if any(e["reveals"] for e in last.events):
                raise NotAllowed(f"Your last order {quote(last.text)} revealed something random or hidden, so only the umpire can undo it.")
        state, counter = self._replay(loaded.rules, row, orders[:-1])
        drew_random = counter != row.counter
        if not is_umpire and drew_random and any(e["to"] is not None for e in last.events):
            # a privately told random value (a hidden die, a drawn card, a nonce): after an undo the
            # stream rewinds, so the player would know what comes next before choosing again
            raise NotAllowed(f"Your last order {quote(last.text)} told you something random in private, so only the umpire can undo it.")
        await self.store.mark_undone(row, last.seq, snapshot=loaded.rules.encode(state), counter=counter)
        rules = loaded.rules
        shown_after = rules.view(state, None)
        public = (any(e["to"] is None for e in last.events) or rules.view(loaded.state, None) != shown_after
                  or set(rules.to_act(loaded.state)) != set(rules.to_act(state)))
        whose = "their last order" if last.user_id == user.id else f"the last order of {self._seat_label(loaded, last.seat)}"
        if public:
            shown = f" ({quote(last.text)})" if self._may_read_order(row, None, last) else f" {HIDDEN_ORDER}"
            return [Output("message", f"<@{user.id}> undid {whose}{shown}. It stays in the log, marked undone.",
                           channel=channel, view=shown_after)]
        # The order was given in secret (nothing public changed when it was given, so nothing does
        # now): its undo is as quiet as it was, told only to whoever undid it and the seat's players.
        outputs = [Output("ephemeral", f"You undid {whose} ({quote(last.text)}). It changed nothing anyone else "
                                       "can see, so nothing was posted in the channel; it stays in the log, marked undone.",
                          to=user.id, view=rules.view(state, UMPIRE if is_umpire else last.seat))]
        for uid in self._seat_users(row, [last.seat]):
            if uid != user.id:
                outputs.append(Output("dm", f"The umpire took back your order {quote(last.text)} for "
                                            f"{self._seat_label(loaded, last.seat)}.", to=uid, private_fallback=True))
        return outputs

    async def _game_end(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """The umpire, whoever created the game, or a Manage Server member end it at once; the seated
        players end it together, each by voting. A vote is bookkeeping in the store, not an order:
        it changes nothing in the game and counts only while the game stands as everyone saw it when
        cast (``_public_mark``: a change on the board, in who is to act or in the seats clears the
        votes; a hidden order does not, or the vanishing votes would tell that it was given)."""
        loaded = await self._live(channel)
        row = loaded.row
        if user.manage_server or self._umpire(row) == user.id or user.id == row.creator:
            await self.store.update_game(row, status="over")
            return [Output("message", f"<@{user.id}> ended the game.\n{self._standing(loaded)}{self._seed_reveal(row)}",
                           channel=channel)]
        players = self._players(row)
        if user.id not in players:
            raise NotAllowed(f"You hold no seat in this game. {END_RULE}")
        mark = self._public_mark(loaded)
        votes = await self.store.end_votes(row.id, mark) & set(players)
        if user.id in votes:
            waiting = [p for p in players if p not in votes]
            raise IllegalOrder(f"You have already voted to end the game ({len(votes)}/{len(players)} players).",
                               hint=f"Waiting for {self._mentions(waiting)}.")
        votes.add(user.id)
        if len(votes) == len(players):
            await self.store.update_game(row, status="over")  # refused if an order came in meanwhile
            return [Output("message", f"<@{user.id}> votes to end too. All {len(players)} players agreed to end the "
                                      f"game.\n{self._standing(loaded)}{self._seed_reveal(row)}", channel=channel)]
        await self.store.add_end_vote(row.id, user.id, mark)
        waiting = [p for p in players if p not in votes]
        return [Output("message", f"<@{user.id}> votes to end the game ({len(votes)}/{len(players)} players); "
                                  f"{self._mentions(waiting)}: /game end to agree. {VOTES_LAPSE}", channel=channel)]

    @staticmethod
    def _standing(loaded: Loaded) -> str:
        """The rules' count of a running game stopped by /game end (Ruleset.standing), a line each;
        worked out only when the game really ends, not for every vote."""
        if loaded.row.status != "running":
            return ""
        return "".join(f"{line}\n" for line in loaded.rules.standing(loaded.state))

    def _public_mark(self, loaded: Loaded) -> int:
        """What everyone can see of the game (the picture, who is to act, the seats), as a number
        that fits the store's 64-bit vote column: end votes count while it stays the same."""
        state, rules = loaded.state, loaded.rules
        seen = [to_json(_picture(rules.view(state, None))), sorted(rules.to_act(state)) if loaded.row.status == "running" else [],
                loaded.row.seats, loaded.row.status]
        return int.from_bytes(hashlib.sha256(json.dumps(seen, sort_keys=True).encode()).digest()[:7], "big")

    def _players(self, row: GameRow) -> list[str]:
        """The users holding a side's seat (the umpire seat is not a side), each once."""
        return list(dict.fromkeys(w["user"] for s, w in row.seats.items() if s != UMPIRE))

    def _seed_reveal(self, row: GameRow) -> str:
        return (f"Seed: `{row.seed.hex()}` (its SHA-256 is the commitment `{row.commitment}` shown at the start). "
                "Anyone can now re-derive every roll and card: /game export, then /game verify.")

    async def _game_concede(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """A seated player gives up for their side. It is logged as an order (``CONCEDE_ORDER``) so the
        log, export, replay and verify show it; it changes nothing on the board. With two sides the
        other side wins and the game ends. With more (the free table's sides= option) the conceding
        side is out and the game ends once one side is left. The umpire plays no side, so cannot
        concede; without ``confirm`` nothing happens but a reminder of what it would do."""
        loaded = await self._live(channel)
        row, rules = loaded.row, loaded.rules
        if row.status != "running":
            raise WrongPhase("The game has not started, so there is nothing to concede.",
                             hint="Leave your seat with /game leave, or end the game with /game end.")
        held = self._user_seats(row, user.id)
        mine = [s for s in held if s != UMPIRE]
        if not mine:
            if UMPIRE in held:
                raise NotAllowed("The umpire plays no side, so cannot concede for one.",
                                 hint="A side's player concedes; the umpire can end the game with /game end.")
            raise NotAllowed("You hold no seat in this game, so you have nothing to concede.")
        seats = {s.id: s for s in rules.seats(loaded.state)}
        if opts.get("seat"):
            seat = self._resolve_seat(seats, opts["seat"])
            if seat.id not in mine:
                raise NotAllowed(f"You do not hold the seat {quote(opts['seat'])}.")
        else:
            sides = list(dict.fromkeys(side_of(seats[s]) for s in mine if s in seats))
            if len(sides) > 1:
                raise InvalidSyntax("You hold seats of several sides: say which one concedes.",
                                    hint="e.g. /game concede seat:" + mine[0] + " confirm:true")
            seat = seats[mine[0]]
        side = side_of(seat)
        labels = side_labels(rules, loaded.state)
        orders = await self.store.orders(row.id, include_undone=False)
        out = {side_of(seats[o.seat]) if o.seat in seats else o.seat for o in orders if o.text == CONCEDE_ORDER}
        if side in out:
            raise IllegalOrder(f"{labels.get(side, side)} has already conceded.")
        standing = [s for s in labels if s not in out | {side}]
        if not _flag(opts, "confirm"):
            if len(standing) == 1:
                effect = f"the game ends and {labels[standing[0]]} wins"
            else:
                effect = f"{labels.get(side, side)} is out; {', '.join(labels[s] for s in standing)} play on"
            return [Output("ephemeral", f"Conceding for {labels.get(side, side)} cannot be taken back: {effect}. "
                                        "To concede, run /game concede confirm:true.", to=user.id)]
        event = concession_event(rules, loaded.state, seat.id)
        over = len(standing) <= 1
        row = await self.store.save_order(
            row, seat=seat.id, user_id=user.id, text=CONCEDE_ORDER, events=[_event_json(event)],
            snapshot=row.snapshot, counter=row.counter, status="over" if over else "running",
        )
        text = f"<@{user.id}>: {event.text}"
        if over:  # the same game-over block as every other ending
            ending = Outcome(standing[0] if standing else None,
                             f"{labels.get(side, side)} conceded." + ("" if standing else " No side is left."))
            text += "\n" + "\n".join(self._game_over_lines(ending, row))
        else:
            text += f" Still playing: {', '.join(labels[s] for s in standing)}."
        return [Output("message", text, channel=channel, view=rules.view(loaded.state, None))]

    async def _game_list(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """This server's games, the most recently active first, with whose turn it is. Players are
        named, not mentioned, so listing games pings nobody."""
        page_text = opts.get("page", "") or "1"
        page = small_number(page_text) or 0
        if page < 1:
            raise InvalidSyntax(f"No list page {quote(page_text)}.", hint="Pages start at 1 (the most recent games).")
        rows = await self.store.guild_games(self._guilds.get(channel, ""), limit=LIST_PAGE + 1,
                                            offset=(page - 1) * LIST_PAGE)
        if not rows:
            if page > 1:
                raise InvalidSyntax(f"No list page {page}: the server's games fit on fewer pages.",
                                    hint="Try /game list page:1.")
            return [Output("ephemeral", "No games on this server yet. Start one with /game new.", to=user.id)]
        lines = [f"Games on this server, most recent activity first (page {page}):"]
        for number, row in enumerate(rows[:LIST_PAGE], start=(page - 1) * LIST_PAGE + 1):
            lines.append(f"{number}. <#{row.channel}> {self._list_line(row)}")
        if len(rows) > LIST_PAGE:
            lines.append(f"More: /game list page:{page + 1}")
        return [Output("ephemeral", chunk, to=user.id) for chunk in split_text("\n".join(lines), MAX_MESSAGE)]

    def _list_line(self, row: GameRow) -> str:
        try:
            loaded = self._decode(row)
        except GameError:  # its system no longer loads here
            return f"**{row.system}** ({row.scenario}): {row.status}"
        head = f"**{loaded.rules.name}** ({row.scenario})"
        if row.status == "setup":
            open_seats = [s.label for s in loaded.rules.seats(loaded.state) if not s.optional and s.id not in row.seats]
            return f"{head}: setting up" + (f", open seats: {', '.join(open_seats)}" if open_seats else ", ready to start")
        if row.status != "running":
            return f"{head}: over"
        waiting = []
        for seat in loaded.rules.to_act(loaded.state):
            who = row.seats.get(seat, {}).get("name") or "seat empty"
            waiting.append(f"{self._seat_label(loaded, seat)} ({_plain(who)})")
        return f"{head}: running" + (f", to act: {', '.join(waiting)}" if waiting else "")

    async def _game_export(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self._latest(channel)
        data = await self._export(loaded.row, viewer=user.id)
        blob = json.dumps(data, indent=1, ensure_ascii=False).encode()
        name = f"game-{loaded.row.id}-{loaded.row.system}.json"
        note = "" if "seed" in data else (" so far, as you may see it: the whole record and the seed come once the "
                                          "game is over")
        return [Output("ephemeral", f"Export of game {loaded.row.id}{note}.", to=user.id, file=(name, blob))]

    async def _export(self, row: GameRow, *, secrets: bool = False, viewer: str | None = None) -> dict[str, Any]:
        """The record: once the game is over, every order and event and the seed. While it runs,
        ``viewer``'s part of it (the orders their log lists, see ``_orders_seen``, numbered as
        there, with public events only), so an export neither counts nor times hidden orders;
        ``secrets`` is the whole record for the bot's own check (``/game verify``)."""
        orders = await self.store.orders(row.id)
        over = row.status in FINISHED
        if not (over or secrets):
            listed = self._orders_seen(row, viewer, orders)
            orders = [dataclasses.replace(o, seq=n, text=o.text if readable else HIDDEN_ORDER)
                      for n, (o, readable) in enumerate(listed, start=1)]
        data: dict[str, Any] = {
            "format": "wargame-table-export/1",
            "system": row.system,
            "scenario": row.scenario,
            "options": row.options,
            "commitment": row.commitment,
            "status": row.status,
            "orders": [
                {
                    "seq": o.seq,
                    "seat": o.seat,
                    "text": o.text,
                    "undone": o.undone,
                    "events": [e for e in o.events if over or e["to"] is None],
                }
                for o in orders
            ],
        }
        if over:
            data["seed"] = row.seed.hex()
        return data

    async def _game_replay(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """An animated GIF of the game so far in spectator frames (nothing private). Long games are
        sampled to at most MAX_REPLAY_FRAMES frames, and one replay is drawn at a time per process:
        each holds a fold of the whole game and a frame being encoded, so concurrent ones would
        multiply the memory any spectator can make the bot use."""
        loaded = await self._latest(channel)
        orders = await self.store.orders(loaded.row.id, include_undone=False)
        # frames follow the orders this user's log lists (numbered as there), never a secret one:
        # a frame or a count per hidden order would count them
        position = {o.seq: i for i, o in enumerate(orders)}
        listed = [(position[o.seq] + 1, o.text if readable else HIDDEN_ORDER)
                  for o, readable in self._orders_seen(loaded.row, user.id, orders)]
        if not listed:
            raise IllegalOrder("There is nothing to replay yet: no orders have been given.")
        if self._replay_lock.locked():
            raise WrongPhase("Another replay is being drawn right now (the bot draws one at a time).",
                             hint="Try /game replay again in a minute.")
        async with self._replay_lock:
            sample = replay_steps(len(listed), MAX_REPLAY_FRAMES)  # 0 is the set-up, k the k-th listed order
            shown = {listed[k - 1][0]: (k, listed[k - 1][1]) for k in sample if k}
            steps = [0, *shown]
            views, captions = await asyncio.to_thread(self._replay_frames, loaded, orders, shown, steps)
            from render import render_replay

            gif = await asyncio.to_thread(render_replay, views, captions)
        name = f"game-{loaded.row.id}-replay.gif"
        count = len(listed)
        if len(steps) == count + 1:
            said = f"Replay of {count} order{'s' if count != 1 else ''}."
        else:
            said = (f"Replay of {count} orders in {len(steps)} frames (a long game is sampled): the set-up, "
                    f"then about one frame every {round(count / (len(steps) - 1))} orders, ending on the last.")
        return [Output("ephemeral", said, to=user.id, file=(name, gif))]

    def _replay_frames(
        self, loaded: Loaded, orders: list[OrderRow], shown: dict[int, tuple[int, str]], steps: list[int]
    ) -> tuple[list[View], list[str]]:
        """Fold every order from set-up; a spectator frame and caption at each of ``steps`` (0 is
        the set-up, i follows order i, captioned with ``shown[i]``'s number and text). Order text
        goes into captions as it is, never formatted."""
        rules, row = loaded.rules, loaded.row
        wanted = set(steps)
        views: list[View] = []
        captions: list[str] = []
        for step, (state, _, _) in enumerate(fold(rules, row.seed, row.scenario, row.options, ((o.seat, o.text) for o in orders))):
            if step not in wanted:
                continue
            views.append(rules.view(state, None))
            if step == 0:
                captions.append("Set-up")
            else:
                order, (number, text) = orders[step - 1], shown[step]
                captions.append(f"{number}. {self._seat_label(Loaded(row, rules, state), order.seat)}: {text}")
        return views, captions

    async def _game_verify(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        if opts.get("export"):
            try:
                data = json.loads(opts["export"])
            except (ValueError, RecursionError) as exc:
                raise InvalidSyntax(f"The export is not valid JSON: {exc}.") from None
            if not isinstance(data, dict):
                raise InvalidSyntax("The export must be the JSON object /game export wrote.")
            data.pop("_private", None)  # only the bot's own check of a running game may claim that
        else:
            loaded = await self._latest(channel)
            data = await self._export(loaded.row, secrets=True)
            if "seed" not in data:
                # the bot may check its own unfinished game with the secret seed, revealing nothing
                data = data | {"seed": loaded.row.seed.hex(), "_private": True}
        report = await asyncio.to_thread(verify_export, data)  # replays the whole game: off the event loop
        if data.get("_private"):
            return [Output("ephemeral", report, to=user.id)]
        return [Output("message", report, channel=channel)]

    async def _game_private(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """Everything private this user may see here, ephemerally (the closed-DM fallback)."""
        lines: list[str] = []
        view: View | None = None
        row = await self.store.live_game(channel)
        if row:
            loaded = self._decode(row)
            for seat in self._user_seats(row, user.id):
                seat_view = loaded.rules.view(loaded.state, seat)
                view = seat_view
                lines += [f"**{self._seat_label(loaded, seat)}**", *seat_view.private_text]
            orders = await self.store.orders(row.id, include_undone=False)
            mine = set(self._user_seats(row, user.id))
            for o in orders[-10:]:
                for e in o.events:
                    if e["to"] is not None and (mine & set(e["to"]) or UMPIRE in mine):
                        lines.append(f"[{o.seq}] {e['text']}")
        tools_row = await self.store.tools(channel)
        if tools_row:
            tools_state: ToolsState = TOOLS.decode(tools_row.snapshot)
            lines += TOOLS.private_text(tools_state, user.id)
        text = "\n".join(lines) or "You have nothing private in this channel."
        return [Output("ephemeral", chunk, to=user.id, view=view if i == 0 else None) for i, chunk in enumerate(split_text(text, MAX_MESSAGE))]

    async def _game_remind(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self._live(channel)
        row = loaded.row
        umpire = self._umpire(row)
        if umpire != user.id and not user.manage_server:
            who = f"the umpire (<@{umpire}>) or a member with Manage Server" if umpire else "a member with Manage Server"
            raise NotAllowed(f"Only {who} can change this game's reminders.",
                             hint="Reminders ping whoever must act; players cannot quieten them for each other.")
        try:
            after = float(opts.get("after", row.remind_after / 3600))
            every = float(opts.get("every", row.remind_every / 3600))
        except ValueError:
            raise InvalidSyntax("Give hours as numbers, e.g. /game remind after:12 every:24.") from None
        if not (0.05 <= after <= 24 * 30 and 0.05 <= every <= 24 * 30):
            raise InvalidSyntax("Reminder hours must be between 0.05 and 720.")
        await self.store.touch(row.id, remind_after=after * 3600, remind_every=every * 3600)
        return [Output("message", f"Reminders: after {after:g} h without an order, then every {every:g} h.", channel=channel)]

    async def _game_web(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        from bot.web.command import game_web  # the web companion's command lives with it

        return await game_web(self, channel, user, opts)

    async def _help(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        system = opts.get("system", "")
        if system:
            rules = get_ruleset(system)
            text = f"**{rules.name}**\n{rules.help()}"
            if rules.book:
                text += f"\nRule book: {rules.book}"
            scen = ", ".join(f"{s.id} ({s.name})" for s in rules.scenarios())
            text += f"\nScenarios: {scen}"
            opts_text = ", ".join(f"{o.key}={o.default}" for o in rules.options())
            if opts_text:
                text += f"\nOptions (defaults): {opts_text}"
        else:
            text = ("Commands:\n" + "\n".join(_usage(c) for c in COMMAND_LIST if c.slash) +
                    f"\nSystems: {', '.join(system_ids())}. Use /help system:<id> for a system's order notation."
                    "\nBefore you order, `/order text:<order> preview:true` shows only you where your pieces would end."
                    "\nBoards: a yellow ring marks the counters that act now; the last move, shot or ram is drawn "
                    "as a line in its side's colour.")
        return [Output("ephemeral", c, to=user.id) for c in split_text(text, MAX_MESSAGE)]

    # --- orders ----------------------------------------------------------------------------
    async def _order(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded, seat = await self._ordering_seat(channel, user, opts)
        row, text = loaded.row, opts.get("text", "")
        if text in ("", "?"):
            legal = loaded.rules.legal_orders(loaded.state, seat)
            return [Output("ephemeral", "Legal orders: " + ("; ".join(legal) or "none right now"), to=user.id)]
        working = copy.deepcopy(loaded.state)
        rng = Rng(row.seed, row.counter)
        order = read_order(loaded.rules, working, seat, text)
        if loaded.rules.format_order(order) == CONCEDE_ORDER:  # the log's concession mark: /game concede
            raise InvalidSyntax(f"{quote(text)} is not an order.", hint="To concede, use /game concede.")
        events = loaded.rules.apply(working, seat, order, rng)
        outcome = loaded.rules.outcome(working)
        status = "over" if outcome else "running"
        row = await self.store.save_order(
            row, seat=seat, user_id=user.id, text=loaded.rules.format_order(order),
            events=[_event_json(e) for e in events], snapshot=loaded.rules.encode(working),
            counter=rng.counter, status=status,
        )
        self._states[(row.id, row.version, row.status)] = working  # no need to decode what we hold
        after = Loaded(row, loaded.rules, working)
        return self._order_outputs(loaded, after, seat, user, loaded.rules.format_order(order), events)

    def _order_outputs(
        self, before: Loaded, after: Loaded, seat: str, user: User, order_text: str, events: list[Event]
    ) -> list[Output]:
        """What an order posts ("table manners" in docs/deploy.md). The channel hears of an order only
        when something public changed: a public event, the public view, who is to act, or the end.
        Otherwise (a sealed fire order) nothing is posted and the giver alone gets a note, so nobody
        can count or time hidden orders. A board goes with the post only when the picture changed
        (see ``_picture``) or the game ended; pings go to those whose turn it newly is."""
        rules, row, channel = after.rules, after.row, after.row.channel
        outcome = rules.outcome(after.state)
        shown_before, shown_after = rules.view(before.state, None), rules.view(after.state, None)
        acting_changed = set(rules.to_act(before.state)) != set(rules.to_act(after.state))
        public_change = (outcome is not None or any(e.public for e in events) or acting_changed
                         or shown_before != shown_after)
        routed = _without_end_notice(events, outcome) if outcome else events
        outputs = self._route(after, routed, umpire=self._umpire(row))
        if not public_change:
            outputs.insert(0, Output("ephemeral", f"Order noted for {self._seat_label(after, seat)}: {quote(order_text)}. "
                                     "It changed nothing anyone else can see, so nothing was posted in the channel.",
                                     to=user.id))
        else:
            tail = self._game_over_lines(outcome, row) if outcome else self._turn_lines(before, after, seat)
            board = shown_after if outcome or _picture(shown_before) != _picture(shown_after) else None
            if outputs and outputs[0].kind == "message":
                merged = outputs[0].text + ("\n" + "\n".join(tail) if tail else "")
                chunks = split_text(merged, MAX_MESSAGE)
                outputs[0] = Output("message", chunks[0], channel=channel, view=board)
                outputs[1:1] = [Output("message", c, channel=channel) for c in chunks[1:]]
            else:
                outputs.insert(0, Output("message", "\n".join(tail) or f"Order received from {self._seat_label(after, seat)}.",
                                         channel=channel, view=board))
        private_seats = {s for e in events if e.to is not None for s in e.to}
        outputs += self._private_views(after, private_seats) if private_seats else []
        return outputs

    def _turn_lines(self, before: Loaded, after: Loaded, seat: str) -> list[str]:
        """Who acts now, after an order that changed something public. A user is pinged when a seat
        of theirs is newly to act and they were not to act already (for another of their seats),
        or is still to act after the umpire moved the game on (a reveal that ends a phase changes
        what they must do; an adjustment that leaves the seats to act as they were does not).
        Those not pinged are named (they were pinged when their turn began), and only when the
        seats to act changed."""
        was = set(before.rules.to_act(before.state))
        now = after.rules.to_act(after.state)
        moved_on = seat == UMPIRE and set(now) != was
        fresh = [s for s in now if s not in was or (moved_on and s != UMPIRE)]
        busy = set() if moved_on else set(self._users_for(before.row, sorted(was)))
        pinged = [u for u in self._users_for(after.row, fresh) if u not in busy]
        waiting = [self._seat_label(after, s) for s in now if not set(self._users_for(after.row, [s])) & set(pinged)]
        if pinged:
            return [f"Next: {self._mentions(pinged)}" + (f" (still to act: {', '.join(waiting)})" if waiting else "")]
        if waiting and set(now) != was:
            return [f"Waiting for {', '.join(waiting)}."]
        return []

    def _game_over_lines(self, outcome: Outcome, row: GameRow) -> list[str]:
        """The one game-over block: result, the rules' final tallies, and the published seed."""
        winner = outcome.winner or "nobody (a draw)"
        return [f"**Game over.** Winner: {winner}. {outcome.reason}", *outcome.details, self._seed_reveal(row)]

    async def _ordering_seat(self, channel: str, user: User, opts: dict[str, str]) -> tuple[Loaded, str]:
        """The running game and the seat an /order (given or previewed) is for; refused for a game
        not started and for a user holding no seat."""
        loaded = await self._live(channel)
        if loaded.row.status != "running":
            raise WrongPhase("The game has not started yet.", hint="Fill the seats and /game start.")
        mine = self._user_seats(loaded.row, user.id)
        if not mine:
            raise NotAllowed("You hold no seat in this game, so you cannot give orders.",
                             hint="Spectators can use /game board, /game status and /game log.")
        return loaded, self._pick_seat(loaded, mine, opts.get("seat", ""))

    def _pick_seat(self, loaded: Loaded, mine: list[str], wanted: str) -> str:
        if wanted:
            seats = {s.id: s for s in loaded.rules.seats(loaded.state)}
            seat = self._resolve_seat(seats, wanted)
            if seat.id not in mine and UMPIRE not in mine:
                raise NotAllowed(f"You do not hold the seat {quote(wanted)}.")
            return seat.id
        to_act = loaded.rules.to_act(loaded.state)
        for held in mine:
            if held in to_act:
                return held
        # Not this user's turn as far as to_act says; the rules refuse out-of-turn orders
        # themselves (with a message that can say more, e.g. "your orders are already sealed").
        return UMPIRE if UMPIRE in mine else mine[0]

    async def _order_or_preview(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        if _flag(opts, "preview"):
            return await self._preview(channel, user, opts)
        return await self._order(channel, user, opts)

    async def _preview(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """/order preview:true: the order run on a copy that may not roll, drawn for the asker only
        (games/core/preview.py says what is and is not shown). Nothing is stored."""
        loaded, seat = await self._ordering_seat(channel, user, opts)
        text = opts.get("text", "")
        if text in ("", "?"):
            raise InvalidSyntax("Give the order to preview.", hint="e.g. /order text:<your order> preview:true")
        working = copy.deepcopy(loaded.state)
        order = read_order(loaded.rules, working, seat, text)
        written = loaded.rules.format_order(order)
        try:
            loaded.rules.apply(working, seat, order, NoDraws())
        except DrawRefused:
            return [Output("ephemeral", f"{quote(written)} rolls dice, so it cannot be previewed: a preview never "
                           "spends or shows the game's rolls. Moves and turns can be previewed.", to=user.id)]
        view = preview_view(loaded.rules, loaded.state, working, seat, written)
        moved = sum(1 for c in view.counters if c.ghost)
        where = "where your pieces would end, translucent" if moved else "no piece of yours would move"
        return [Output("ephemeral", f"Preview of {quote(written)}: {where}. Nothing has been ordered; "
                       f"give it with /order text:{written}", to=user.id, view=view)]

    # --- table tools -----------------------------------------------------------------------
    async def _tools_apply(self, channel: str, user: User, text: str, *, as_umpire: bool = False) -> list[Output]:
        # Another bot process on the same database (a deploy overlap) may open this channel's tools
        # first or act on them at the same moment; a roll or draw decided nothing on the state it
        # read, so it is simply applied again on the fresh stream (one process serialises instead).
        for _ in range(TOOLS_RETRIES):
            try:
                return await self._tools_once(channel, user, text, as_umpire=as_umpire)
            except StaleVersion:
                continue
        return await self._tools_once(channel, user, text, as_umpire=as_umpire)

    async def _tools_once(self, channel: str, user: User, text: str, *, as_umpire: bool) -> list[Output]:
        row = await self.store.tools(channel)
        seat = "umpire" if as_umpire else user.id
        if row is None:  # the channel's first table command: store its tools only if the command is good
            seed = self.seed_source()
            setup_rng = Rng(seed)
            initial = TOOLS.setup("tools", {}, setup_rng)
            state: ToolsState = TOOLS.decode(TOOLS.encode(initial))
            rng = Rng(seed, setup_rng.counter)
            events = TOOLS.apply(state, seat, TOOLS.parse_order(state, seat, text), rng)
            row = await self.store.create_game(
                channel=channel, system="tools", scenario="tools", options={}, seed=seed, commitment=commitment(seed),
                status="tools", snapshot=TOOLS.encode(initial), counter=setup_rng.counter, creator=user.id,
            )
            opened = [Output("message", _stream_opened(row.commitment), channel=channel)]
        else:
            opened = []
            state = TOOLS.decode(row.snapshot)
            rng = Rng(row.seed, row.counter)
            events = TOOLS.apply(state, seat, TOOLS.parse_order(state, seat, text), rng)
        row = await self.store.save_order(
            row, seat=seat, user_id=user.id, text=text, events=[_event_json(e) for e in events],
            snapshot=TOOLS.encode(state), counter=rng.counter, status="tools",
        )
        # the commitment is shown, not logged: the log holds what replaying the stream re-derives
        return opened + self._route(Loaded(row, TOOLS, state), events, umpire=self._umpire(await self.store.live_game(channel)))

    async def _tools_verify(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """Publish the seed of the channel's table-tools stream, re-derive every roll and card from
        it, and start a new committed stream, so a table can audit its dice as a game can at its end.
        Refused while the seed would give away something still secret."""
        row = await self.store.tools(channel)
        if row is None:
            raise IllegalOrder("This channel has no table-tools stream yet: nothing to verify.",
                               hint="Its first /roll, /deck or /seal starts one and shows its commitment.")
        if row.version == 0:  # each roll or draw bumps the stream's version; nothing else does
            raise IllegalOrder(f"Nothing has been drawn from this channel's stream (commitment `{row.commitment}`) yet.",
                               hint="Verify it after some rolls or draws.")
        state: ToolsState = self._decode(row).state
        secrets = TOOLS.seed_would_reveal(state)
        if secrets:
            raise IllegalOrder("Publishing this channel's seed now would give away " + "; ".join(secrets) + ".",
                               hint="The seed re-derives every roll and card; verify once nothing is secret.")
        carry = TOOLS.carry_over(state)
        seed = self.seed_source()
        rng = Rng(seed)
        fresh = TOOLS.setup(TOOLS.id, carry, rng)
        try:
            new = await self.store.publish_stream(row, seed=seed, commitment=commitment(seed), options=carry,
                                                  snapshot=TOOLS.encode(fresh), counter=rng.counter, creator=user.id)
        except StaleVersion:
            raise WrongPhase("Someone used the table tools here at the same moment.", hint="Run /tools verify again.") from None
        published = dataclasses.replace(row, status="published")
        data = await self._export(published)
        report = await asyncio.to_thread(verify_export, data)  # a replay of the whole stream: off the loop
        piles = [name for name, deck in sorted(fresh.decks.items()) if deck.draw_pile]
        several = len(piles) > 1
        reshuffled = (f"\nThe draw pile{'s' if several else ''} of {', '.join(f'**{n}**' for n in piles)} "
                      f"{'were' if several else 'was'} shuffled again from the new stream (the published seed "
                      f"tells {'their' if several else 'its'} old order)." if piles else "")
        text = (f"<@{user.id}> published this channel's table-tools seed: `{row.seed.hex()}` (its SHA-256 is the "
                f"commitment `{row.commitment}` shown at its first use).\n{report}{reshuffled}\n"
                f"{_stream_opened(new.commitment)}")
        blob = json.dumps(data, indent=1, ensure_ascii=False).encode()
        return [self._format(Output("message", text, channel=channel, file=(f"tools-{row.id}-{channel}.json", blob)))]

    async def _is_umpire(self, channel: str, user: User) -> bool:
        return self._umpire(await self.store.live_game(channel)) == user.id

    async def _roll(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        dice = " ".join(opts.get("dice", "").split())
        if not dice:
            raise InvalidSyntax("Give dice to roll.", hint="e.g. /roll dice:2d6+1")
        read = DiceParser(custom_dice()).read(dice)  # reject bad dice with the user's own text quoted
        if _flag(opts, "secret"):
            purpose = ": ".join(p for p in (sanitise_label(opts.get("purpose", "")), read.label) if p) or "unspecified purpose"
            return await self._tools_apply(channel, user, f"secret {read.text} {purpose}")
        return await self._tools_apply(channel, user, f"roll {read.order_text}")

    async def _reveal(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        ref = opts.get("roll", "")
        umpire = await self._is_umpire(channel, user)
        row = await self.store.tools(channel)
        if umpire and row:
            state: ToolsState = TOOLS.decode(row.snapshot)
            number = small_number(ref.lstrip("#")) or 0
            if 1 <= number <= len(state.rolls) and state.rolls[number - 1].roller == user.id:
                umpire = False
        return await self._tools_apply(channel, user, f"reveal {ref}", as_umpire=umpire)

    async def _deck(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        name = opts.get("name", "").strip()
        if not name or " " in name:
            raise InvalidSyntax(f"Deck name {quote(name)} must be one word.", hint="e.g. /deck new name:mines from:mines")
        verb = opts["_verb"]
        if verb == "new":
            if not opts.get("from"):
                raise InvalidSyntax("Say which deck to copy.", hint="e.g. /deck new name:cards from:standard54")
            return await self._tools_apply(channel, user, f"deck new {name} {opts['from']}")
        if verb == "deal":
            holders = list(dict.fromkeys(mentioned_users(opts.get("to", ""))))  # each person once
            if not holders:
                raise InvalidSyntax("Name who to deal to.", hint="e.g. /deck deal name:cards count:3 to:@alice @bob")
            return await self._tools_apply(channel, user, f"deck deal {name} {opts.get('count', '1')} {' '.join(holders)}")
        place = opts.get("to", "").lower()
        if verb == "draw" and place not in ("", "hand", "table"):
            raise InvalidSyntax(f"to:{quote(opts['to'])} is not a place to draw to.", hint="Use to:hand, or leave it out to draw face up.")
        suffix = " hand" if verb == "draw" and place == "hand" else ""
        return await self._tools_apply(channel, user, f"deck {verb} {name}{suffix}")

    async def _hand(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        row = await self.store.tools(channel)
        state: ToolsState = TOOLS.decode(row.snapshot) if row else ToolsState()
        return [Output("ephemeral", TOOLS.hand_text(state, user.id), to=user.id)]

    async def _play(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        card = opts.get("card", "").replace(" ", "")
        if not card:
            raise InvalidSyntax("Name the card to play.", hint="e.g. /play card:A♥ (see /hand)")
        deck = opts.get("deck", "")
        return await self._tools_apply(channel, user, f"play {card} {deck}".strip())

    async def _seal(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        verb = opts.get("action", "").lower() or opts["_verb"]
        if verb not in ("seal", "open", "reveal"):
            raise InvalidSyntax(f"action:{quote(verb)} is not a sealed-order action.", hint="Use action:open or action:reveal.")
        if verb == "reveal":
            return await self._tools_apply(channel, user, "seal reveal", as_umpire=await self._is_umpire(channel, user))
        if verb == "open" or "who" in opts:
            who = mentioned_users(opts.get("who", ""))
            return await self._tools_apply(channel, user, "seal open " + " ".join(who))
        text = " ".join(opts.get("text", "").split())
        if not text:
            raise InvalidSyntax("Give the text to seal.", hint="e.g. /seal text:Huascar fires at Esmeralda")
        tools_row = await self.store.tools(channel)
        tools_state: ToolsState | None = TOOLS.decode(tools_row.snapshot) if tools_row else None
        outputs: list[Output] = []
        if tools_state is None or tools_state.seal_round is None:
            live = await self.store.live_game(channel)
            players = [w["user"] for s, w in (live.seats.items() if live else []) if s != UMPIRE]
            players = list(dict.fromkeys(players))
            if len(players) < 2:
                raise WrongPhase("No sealed round is open here.", hint="Open one with /seal open who:@a @b.")
            # dry run first: if this seal is refused, the round must not be left open either
            scratch = tools_state or ToolsState()
            dry_rng = Rng(bytes(32))
            for step in ("seal open " + " ".join(players), f"seal text {text}"):
                TOOLS.apply(scratch, user.id, TOOLS.parse_order(scratch, user.id, step), dry_rng)
            outputs += await self._tools_apply(channel, user, "seal open " + " ".join(players))
        return outputs + await self._tools_apply(channel, user, f"seal text {text}")


TRUE, FALSE = ("true", "yes", "y", "on", "1"), ("false", "no", "n", "off", "0", "")


def _flag(opts: dict[str, str], key: str) -> bool:
    """A true/false option (Discord sends true or false; the console takes what is typed): anything
    else is refused rather than read as false, so a mistyped preview:ture never gives the order."""
    value = opts.get(key, "").lower()
    if value not in TRUE + FALSE:
        raise InvalidSyntax(f"{key}:{quote(value)} is neither true nor false.", hint=f"Write {key}:true or leave it out.")
    return value in TRUE


def _plain(name: str) -> str:
    """A display name shown as text: nothing in it formats, mentions or links."""
    return re.sub(r"([\\*_~`|>#<@\[\]()])", r"\\\1", name)


def _new_game_spec(opts: dict[str, str]) -> tuple[Ruleset[Any], str, str, dict[str, str]]:
    """/game new's options checked: (rules, system id, scenario id, every option with defaults)."""
    system = opts.get("system", "")
    if not system:
        raise InvalidSyntax("Name a system.", hint=f"Systems: {', '.join(system_ids())}.")
    system = system.lower()  # ids are lower case; "Table" means table
    rules = get_ruleset(system)
    scenarios = rules.scenarios()
    wanted = opts.get("scenario") or scenarios[0].id
    scenario = next((s.id for s in scenarios if s.id.lower() == wanted.lower()), wanted)
    if scenario not in {s.id for s in scenarios}:
        raise UnknownName(f"{rules.name} has no scenario {quote(scenario)}.",
                          hint="Scenarios: " + ", ".join(f"{s.id} ({s.name})" for s in scenarios) + ".")
    specs = rules.options()
    options = check_options(specs, parse_options(opts.get("options", "")), system=rules.name)
    full = {o.key: o.default for o in specs if o.default != ""} | options  # "" = unset
    return rules, system, scenario, full


def _usage(command: Command) -> str:
    """``/order text:<text> [seat:<seat>] [preview:<true/false>]: Give an order ...``, for /help."""
    shown = {"bool": "true/false", "int": "number", "user": "member"}
    parts = [f"{p.name}:<{shown.get(p.kind, p.name)}>" if p.required else f"[{p.name}:<{shown.get(p.kind, p.name)}>]"
             for p in command.params if p.front_end]
    return f"`/{' '.join([command.name, *parts])}`: {command.description}"


def _picture(view: View) -> View:
    """What a posted board shows that the message does not already say: the map, the counters, the
    lines drawn on it and its title. The status strip under the picture only repeats news the
    message text and the pinned status message carry, so a change there alone posts no board."""
    return dataclasses.replace(view, status=(), private_text=())


def _words(text: str) -> str:
    return " ".join(text.replace("*", "").split()).casefold()


def _announces_end(line: str, reason: str, details: set[str]) -> bool:
    """Whether a line of the last order's public text is the rules' own announcement of the end
    (it states the outcome's reason, e.g. "The battle is over: <reason>", or leads with a bold
    phrase and then the reason's first part, "**The battle ends.** <why>") or repeats a detail."""
    words = _words(line)
    if not words:
        return False
    if words in details or (reason and reason in words):
        return True
    rest = _words(re.sub(r"^\s*\*\*[^*]+\*\*", "", line))
    return len(rest) >= 20 and rest != words and rest in reason


def _without_end_notice(events: list[Event], outcome: Outcome) -> list[Event]:
    """The last order's events as posted: every system announces its own end, and the table adds
    the game-over block (the seed must be published), so the rules' announcement is left out of
    the channel message rather than said twice. The log keeps the events as they were."""
    reason, details = _words(outcome.reason), {_words(d) for d in outcome.details}
    kept: list[Event] = []
    for e in events:
        lines = e.text.split("\n") if e.public else [e.text]
        if e.public:
            lines = [line for line in lines if not _announces_end(line, reason, details)]
        if lines:
            kept.append(Event("\n".join(lines), e.to, e.reveals))
    return kept


def _stream_opened(digest: str) -> str:
    return (f"Table tools here draw from a new random stream. Seed commitment: `{digest}` (SHA-256 of its secret "
            "seed; /tools verify publishes the seed and re-checks every roll and card).")


def verify_export(data: dict[str, Any]) -> str:
    """Re-derive every roll and draw of an export from its seed and report any mismatch."""
    problems: list[str] = []
    if not isinstance(data, dict):
        return "**Verification FAILED**: this is not a game export (expected a JSON object from /game export)."
    seed_hex = data.get("seed")
    if not seed_hex:
        return "This export has no seed yet: it is published when the game ends. Nothing to verify."
    try:
        seed = bytes.fromhex(seed_hex)
    except (TypeError, ValueError):
        return f"**Verification FAILED**: the seed {quote(str(seed_hex))} is not hexadecimal."
    if hashlib.sha256(seed).hexdigest() != data.get("commitment"):
        problems.append("the seed does not match the commitment shown at the start")
    at = "set-up"
    try:
        rules = ruleset_for(data["system"])
        full = data.get("status") in FINISHED  # finished exports carry private events too
        live = [o for o in data["orders"] if not o["undone"]]
        checked = len(live)
        steps = fold(rules, seed, data["scenario"], data["options"], ((o["seat"], o["text"]) for o in live))
        next(steps)  # the set-up
        for o in live:
            at = "an order" if data.get("_private") else f"order {o['seq']}"
            _, _, events = next(steps)
            got = [e.text for e in events if full or e.public]
            if got != [e["text"] for e in o["events"]]:
                # the bot's own check of a running game replays hidden orders: it names none, nor
                # numbers them (a number counts the hidden orders before it)
                named = "an order" if data.get("_private") else f"order {o['seq']} ({o['text']})"
                problems.append(f"{named} gives different results on replay")
    except Exception as exc:  # an edited export can drive a ruleset anywhere: any failure is a failed check
        # the bot's own check may not quote the error: it can repeat a hidden order's text
        problems.append(f"replay failed at {at}" + ("" if data.get("_private") else f": {exc}"))
        checked = 0
    if problems:
        return "**Verification FAILED**: " + "; ".join(problems[:10])
    if data.get("_private"):  # a running game: how many orders were replayed would count the hidden ones
        return (f"**Verified** (checked by the bot with the still-secret seed): seed matches commitment "
                f"`{data['commitment'][:16]}…`; every order so far replayed, every roll and card identical.")
    return (f"**Verified**: seed matches commitment `{data['commitment'][:16]}…`; "
            f"{checked} order{'' if checked == 1 else 's'} replayed, every roll and card identical.")
