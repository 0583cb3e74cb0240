"""The Discord front end: slash commands in, ``TableService`` outputs out.

Everything about the game lives in the table service; this module only translates. A command
becomes ``service.handle(channel, user, "game new", {...})``; each returned ``Output`` becomes a
Discord message: the public activation message (text, board image, a ping for whoever acts next)
is the interaction's reply, private things go by DM (with an ephemeral fallback when DMs are
closed), errors are ephemeral. Work that may outlast a second is answered with a deferral first,
so the 3-second rule holds however slow the board drawing is.

Besides commands the bot keeps one status message per game channel (pinned when it may pin),
posts reminders the service says are due, and offers buttons for short choices (joining a seat,
orders when only a few are legal).

Sharding (``WARGAME_SHARDS``, ``WARGAME_SHARD_COUNT``; see ``ShardPlan``): a process connects only
some of Discord's shards, and Discord delivers a guild's events to one shard only, so each game is
served by the one process holding its guild's shard. Its background work follows: status messages
are refreshed only after commands it answered, and it claims reminders only for channels of its
own guilds. Discord sends a shard's events to every session on that shard, so a process serves
only shards it holds the lease of, and acts only on interactions it claimed (bot/leases.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import hashlib
import io
import json
import logging
import multiprocessing
import os
import re
import secrets
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

import aiohttp
import discord
from discord import app_commands

from bot.commands import COMMAND_LIST
from bot.discord_choices import (
    NOT_YOUR_OFFER,
    OUT_OF_DATE,
    Expect,
    JoinButton,
    Offer,
    OrderButton,
    PickMenu,
    disabled_copy,
    make_offer,
    offer_view,
    public_orders,
    update_clicked,
)
from bot.leases import LEASE_SECONDS, LeaseLost, ShardLeases, lease_seconds, process_owner
from bot.slash import build_commands
from bot.text import clip, split_text
from bot.workers import freeze_start_up

if TYPE_CHECKING:
    from bot.service import Output, TableService, User

log = logging.getLogger("bot.discord")
T = TypeVar("T")

EMBED_DESCRIPTION_LIMIT = 4096
DEFAULT_FILE_LIMIT = 10 * 1024 * 1024
THREAD_NAME_LIMIT = 100
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week without messages; a message in an archived thread reopens it
SEAT_COMMANDS = frozenset({"game join", "game leave", "game assign"})  # seat offers stay open across these
RESPONSE_BUDGET_SECONDS = 1.0  # answer directly if ready this fast, else defer first
DRAW_THREADS = 1  # see TableBot.__init__: more drawing threads fight the event loop for the GIL
STATUS_DELAY_SECONDS = 3.0  # a burst of activations in a channel becomes one edit of its status message
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)  # Ctrl-C, systemctl stop, docker stop
# A stop ends the process within this many seconds (WARGAME_STOP_SECONDS), whatever is stuck: past
# it, every thread's stack goes to stderr and the exit status is 1. Two thirds of it are for closing
# (pending status edits, Discord, the store), the rest for the event loop and threads to wind down.
STOP_SECONDS = 15.0
# Status refreshes are background work: at most this many at a time, so a burst of them (many games
# started together) never queues dozens of reads ahead of players' commands on the store's one lock.
STATUS_CONCURRENCY = 2
# An unanswered identical command (same user, channel, command and options) claimed this recently
# by a process that is gone: the new one is the user's retry after a crash (Discord's interactions
# live 15 minutes), answered with RETRY_NOTE instead of being applied again.
RETRY_SECONDS = 15 * 60.0
OUTCOME_BATCH_SECONDS = 0.5  # interactions' outcomes are written together, this long after the first
STATUS_CLAIM_SECONDS = 60.0  # a status post claimed this long ago and never stored: its process died
DMS_CLOSED = 50007
# A user whose DMs were refused (closed) is not DMed again for this long: every refused DM counts
# toward Discord's invalid-request ban, and people rarely change the setting within hours. They do
# change it, though, so the mark is a pause, not a verdict: after it the next DM is tried again
# (at most four refusals a day per such user), /game private tries at once, and any DM that goes
# through clears the mark.
DM_RETRY_SECONDS = 6 * 3600.0
SPECTATOR_ID = "0"

# Commands that never change a game (no status refresh and no buttons after them), and those whose
# reply is usually private (a deferral for them is ephemeral): both declared in bot/commands.py.
READ_ONLY = frozenset(c.name for c in COMMAND_LIST if c.read_only)
PRIVATE_HINT = frozenset(c.name for c in COMMAND_LIST if c.private)
# Commands whose whole answer may be private because the rules keep it secret (a hidden order, its
# undo): a slow one is deferred ephemerally, so even its "thinking..." placeholder shows nobody that
# it was given; its public post, if any, follows as a public follow-up (README, "Table manners").
SECRET_CAPABLE = frozenset({"order", "game undo"})
NAME_PLACES_CHANNELS = 256  # channels whose latest name places are kept (a few kB each)
DEFERRED_NOTE = "Done: posted in the channel."  # the private deferral's text when all the answer is public

RETRY_NOTE = (
    "The bot restarted while it was handling the same `/{command}` you sent here a moment ago, and its answer "
    "was lost, so I did **not** apply this one: the first may already be in the game. Look at the channel and "
    "`/game status`; if it is not there, send it again."
)

DMS_WORK_AGAIN = (
    "Your DMs work again: I sent your private information there, and private things will come by direct "
    "message from now on."
)
NOT_A_TEXT_CHANNEL = (
    "thread:true starts a thread of a text channel, and this is not one (a thread cannot hold "
    "threads). Run /game new here without thread:, or in a text channel."
)
NO_THREAD = (
    "I could not start a thread here: the bot needs the Create Public Threads and Send Messages "
    "in Threads permissions in this channel. Ask an admin, or run /game new without thread:."
)
PRIVATE_HELP = (
    "I could not send you a direct message (your DMs from this server are closed). "
    "Use `/game private` here: it shows your private information only to you."
)


class Renderer(Protocol):
    """``render.render_png``: ``names`` is the channel's game's ``render.NamePlaces`` (see there)."""

    def __call__(self, view: Any, /, *, zoom: tuple[str, float] | None = None, names: Any = None) -> bytes: ...


def _load_renderer() -> Renderer | None:
    """``render.render_png`` if the render package is installed, else None (messages go without images)."""
    try:
        from render import render_png
    except ImportError:
        log.warning("render.render_png is not available: board images are left out")
        return None
    return render_png


# --------------------------------------------------------------------------------------------
# Pure helpers (tested without Discord)
# --------------------------------------------------------------------------------------------
NEXT_LINE = re.compile(r"^(?:Next|To act): (.+)$", re.MULTILINE)
MENTION = re.compile(r"<@!?(\d+)>")


def next_actors(outputs: Sequence[Output]) -> list[str]:
    """User ids pinged as acting next in the public messages (the service's "Next:" line, which
    mentions only those whose turn it newly is: a player still busy with their turn is not offered
    buttons again, and nobody is offered choices during a secret phase they are already in)."""
    found: list[str] = []
    for output in outputs:
        if output.kind == "message":
            for line in NEXT_LINE.findall(output.text):
                found += MENTION.findall(line)
    return list(dict.fromkeys(found))


def interaction_fingerprint(interaction: discord.Interaction[Any]) -> str:
    """Who sent what where: equal for the same user's same command with the same options (or the
    same click) in the same channel, whatever the interaction id."""
    sent = [str(interaction.user.id), str(interaction.channel_id), interaction.data]
    return hashlib.sha256(json.dumps(sent, sort_keys=True, default=str).encode()).hexdigest()


def commands_hash(definitions: list[dict[str, Any]]) -> str:
    """A stable digest of slash command definitions: equal exactly when Discord would get the same."""
    return hashlib.sha256(json.dumps(definitions, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def options_text(options: dict[str, Any]) -> dict[str, str]:
    """Slash option values as the service wants them: strings exactly as typed, booleans as true/false."""
    result: dict[str, str] = {}
    for key, value in options.items():
        if value is None:
            continue
        result[key] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return result


# --------------------------------------------------------------------------------------------
# Delivery plan: which output goes where
# --------------------------------------------------------------------------------------------
@dataclass
class Prepared:
    """A command's outputs with their images already drawn (drawing happens off the event loop)."""

    outputs: list[Output]
    images: dict[int, bytes] = field(default_factory=dict)  # index in outputs -> PNG
    offer: Offer | None = None  # seats or orders offered under the public reply (buttons or a menu)
    offer_message: int | None = None  # the message the offer went out on, once sent

    def files_for(self, index: int) -> list[tuple[str, bytes]]:
        output = self.outputs[index]
        files: list[tuple[str, bytes]] = []
        if index in self.images:
            files.append(("board.png", self.images[index]))
        if output.file is not None:
            files.append(output.file)
        return files


@dataclass
class Send:
    content: str
    files: list[discord.File]
    ephemeral: bool
    view: discord.ui.View | None = None


@dataclass
class Plan:
    public: list[int] = field(default_factory=list)  # public messages in the interaction's channel
    elsewhere: list[int] = field(default_factory=list)  # public messages in other channels
    to_invoker: list[int] = field(default_factory=list)  # ephemeral replies and errors
    dms: list[int] = field(default_factory=list)  # DMs (to anyone) and ephemerals meant for others


def plan_outputs(outputs: Sequence[Output], channel: str, invoker: str) -> Plan:
    plan = Plan()
    for index, output in enumerate(outputs):
        if output.kind == "message":
            (plan.public if output.channel in (None, channel) else plan.elsewhere).append(index)
        elif output.kind in ("ephemeral", "error"):
            (plan.to_invoker if output.to in (None, invoker) else plan.dms).append(index)
        else:
            plan.dms.append(index)
    return plan


# --------------------------------------------------------------------------------------------
# Buttons (persistent across restarts: the custom id carries everything)
# --------------------------------------------------------------------------------------------
# JoinButton, OrderButton and PickMenu live in bot/discord_choices.py (imported above); the bot
# registers them as dynamic items, so a click on any message since they were sent reaches them.


# --------------------------------------------------------------------------------------------
# Shards
# --------------------------------------------------------------------------------------------
class ShardConfigError(ValueError):
    """WARGAME_SHARDS / WARGAME_SHARD_COUNT cannot be used; the message is one line for the log."""


@dataclass(frozen=True)
class ShardPlan:
    """The shards ``ids`` (out of ``count`` over all processes) that this process connects.

    Discord sends a guild's events only to shard ``(guild_id >> 22) % count``, so every process must
    be given the same ``count`` and the processes' ``ids`` must cover 0..count-1 between them.
    """

    ids: tuple[int, ...]
    count: int

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.count in self.ids


def parse_shards(shards: str | None, count: str | None) -> ShardPlan | None:
    """WARGAME_SHARDS (``0,1`` or ``0-3,8``; empty: all) and WARGAME_SHARD_COUNT as a ShardPlan;
    None when neither is set (one unsharded connection). Raises ShardConfigError on anything a
    process could misroute with: the count is what places guilds on shards, so it is never guessed."""
    shards, count = (shards or "").strip(), (count or "").strip()
    if not shards and not count:
        return None
    if not count:
        raise ShardConfigError(
            f"WARGAME_SHARDS={shards} needs WARGAME_SHARD_COUNT, the total number of shards over all processes"
        )
    try:
        total = int(count)
    except ValueError:
        raise ShardConfigError(f"WARGAME_SHARD_COUNT={count!r} is not a whole number") from None
    if total < 1:
        raise ShardConfigError(f"WARGAME_SHARD_COUNT={total} must be at least 1")
    if not shards:
        return ShardPlan(tuple(range(total)), total)
    ids: list[int] = []
    for item in shards.split(","):
        first, dash, last = item.strip().partition("-")
        try:
            span = range(int(first), int(last) + 1) if dash else [int(first)]
        except ValueError:
            raise ShardConfigError(f"WARGAME_SHARDS={shards!r}: {item.strip()!r} is not a shard id or a range a-b") from None
        if not span:
            raise ShardConfigError(f"WARGAME_SHARDS={shards!r}: the range {item.strip()!r} is empty")
        for shard in span:
            if not 0 <= shard < total:
                raise ShardConfigError(
                    f"WARGAME_SHARDS={shards!r}: shard {shard} is outside 0..{total - 1} (WARGAME_SHARD_COUNT={total})"
                )
            if shard in ids:
                raise ShardConfigError(f"WARGAME_SHARDS={shards!r}: shard {shard} is listed twice")
            ids.append(shard)
    return ShardPlan(tuple(ids), total)


def shards_from_env(environ: Mapping[str, str] | None = None) -> ShardPlan | None:
    env = os.environ if environ is None else environ
    return parse_shards(env.get("WARGAME_SHARDS"), env.get("WARGAME_SHARD_COUNT"))


# --------------------------------------------------------------------------------------------
# The bot
# --------------------------------------------------------------------------------------------
ServiceFactory = Callable[[str], Awaitable[tuple["TableService", Callable[[], Awaitable[None]]]]]


async def open_service(db_path: str) -> tuple[TableService, Callable[[], Awaitable[None]]]:
    """The real table service on WARGAME_DB (a SQLite file or PostgreSQL), and how to close it."""
    from bot.database import open_store
    from bot.service import TableService

    store = await open_store(db_path)
    service = TableService(store, mention=lambda uid: f"<@{uid}>")
    return service, store.close



def _files(files: Sequence[tuple[str, bytes]], limit: int) -> tuple[list[discord.File], list[str]]:
    attached: list[discord.File] = []
    notes: list[str] = []
    for name, data in files:
        if len(data) > limit:
            notes.append(
                f"({name} is {len(data) / 1_048_576:.1f} MiB, over Discord's {limit // 1_048_576} MiB limit.)"
            )
        else:
            attached.append(discord.File(io.BytesIO(data), filename=name))
    return attached, notes

POST_ATTEMPTS = 3  # a request Discord did not confirm is sent at most this often in all
POST_RETRY_SECONDS = 0.5
CALLBACK_RETRY_SECONDS = 0.1  # an initial response must reach Discord within 3 s of the interaction
# What leaves a request unconfirmed: the connection dropped (or timed out) before Discord's answer,
# or Discord answered 5xx. It may have been carried out all the same.
UNCONFIRMED = (aiohttp.ClientConnectionError, asyncio.TimeoutError, discord.DiscordServerError)
REPLY = discord.InteractionResponseType.channel_message
DEFER = discord.InteractionResponseType.deferred_channel_message
UPDATE = discord.InteractionResponseType.message_update
ALREADY_ACKNOWLEDGED = 40060  # Discord's answer to a second initial response to one interaction
HISTORY_LOOKUP_LIMIT = 200  # channel messages read to find a follow-up that landed unconfirmed


async def confirmed(call: Callable[[], Awaitable[T]], what: str, files: Sequence[discord.File] = (), *,
                    pause: float = POST_RETRY_SECONDS) -> T:
    """``call()``, made again while Discord does not confirm it: only for requests that do the
    same however often they land (an edit, a delete, a pin, a read, a create with an enforced
    nonce), or that say so when repeated (an initial response, see ``respond_once``)."""
    for attempt in range(1, POST_ATTEMPTS + 1):
        for file in files:
            file.reset()  # a failed try has read the attachment: send it from its start again
        try:
            return await call()
        except UNCONFIRMED:
            if attempt == POST_ATTEMPTS:
                raise
            log.warning("%s was not confirmed (try %d of %d); sending it again", what, attempt, POST_ATTEMPTS)
            await asyncio.sleep(pause * attempt)
    raise AssertionError("unreachable")


async def post_once(
    target: discord.abc.Messageable, content: str | None = None, files: Sequence[discord.File] = (), **options: Any
) -> discord.Message:
    """Create a message in a channel or DM, sent again while Discord did not confirm it. Every try
    carries the same nonce with ``enforce_nonce`` (discord.py sets it whenever a nonce is given), so
    if an unconfirmed try did land, Discord answers the retry with that message instead of posting
    it twice. ``options``: ``embed``, ``view``, ``allowed_mentions`` as ``send`` takes them."""
    nonce = secrets.randbits(63)
    return await confirmed(lambda: target.send(content, files=list(files), nonce=nonce, **options), "a post", files)


async def respond_once(
    interaction: discord.Interaction[Any], call: Callable[[], Awaitable[T]], kind: discord.InteractionResponseType,
    files: Sequence[discord.File] = (),
) -> T | None:
    """The interaction's initial response (a reply, a deferral, an update of the clicked message),
    sent again while Discord did not confirm it. Discord takes one initial response per interaction
    and answers any other with 40060 "Interaction has already been acknowledged": a retry answered
    so means the unconfirmed try landed, and the response is done (None is returned; the reply's
    message, if needed, is ``interaction.original_response()``)."""
    unconfirmed = False

    async def attempt() -> T | None:
        nonlocal unconfirmed
        try:
            return await call()
        except UNCONFIRMED:
            unconfirmed = True
            raise
        except discord.HTTPException as error:
            if not (unconfirmed and error.code == ALREADY_ACKNOWLEDGED):
                raise
            interaction.response._response_type = kind  # landed: discord.py did not see it done
            return None

    return await confirmed(attempt, "an interaction response", files, pause=CALLBACK_RETRY_SECONDS)


async def edit_reply(interaction: discord.Interaction[Any], content: str) -> None:
    """Replace the text of the interaction's reply (its deferral's placeholder): an edit, sent again
    while unconfirmed."""
    await confirmed(lambda: interaction.edit_original_response(content=content), "the reply's edit")


async def response_message_id(interaction: discord.Interaction[Any], sent: Any) -> int:
    """The id of the interaction's reply: from the callback's answer, or, when that answer was lost
    (``respond_once`` returned None), read back from Discord."""
    if sent is not None and sent.message_id is not None:
        return int(sent.message_id)
    return (await confirmed(interaction.original_response, "reading the reply")).id


async def follow_up(
    interaction: discord.Interaction[Any], content: str, files: Sequence[discord.File] = (), *,
    ephemeral: bool = False, view: discord.ui.View | None = None,
) -> discord.Message:
    """A follow-up message, sent again while Discord did not confirm it, but never posted twice
    when public. A webhook execution takes no nonce, so after an unconfirmed try the channel's
    messages since this interaction's last known one are read back (each carries
    ``interaction_metadata``: the interaction's id, and on follow-ups the original response's id):
    a follow-up of this interaction not yet known is the one that landed. An ephemeral follow-up
    is in nobody's channel history, so Discord offers no way to tell: it is sent again (its one
    reader may see it twice rather than not at all)."""
    known: set[int] = interaction.extras.setdefault("followups", set())
    for attempt in range(1, POST_ATTEMPTS + 1):
        for file in files:
            file.reset()
        try:
            message: discord.Message = await interaction.followup.send(
                content, files=list(files), ephemeral=ephemeral, view=view or discord.utils.MISSING, wait=True
            )
        except UNCONFIRMED:
            landed = None if ephemeral else await _landed_follow_up(interaction, known)
            if landed is not None:
                message = landed
            elif attempt == POST_ATTEMPTS:
                raise
            else:
                log.warning("a follow-up was not confirmed (try %d of %d); sending it again", attempt, POST_ATTEMPTS)
                await asyncio.sleep(POST_RETRY_SECONDS * attempt)
                continue
        known.add(message.id)
        return message
    raise AssertionError("unreachable")


async def _landed_follow_up(interaction: discord.Interaction[Any], known: set[int]) -> discord.Message | None:
    """This interaction's public follow-up that landed without its answer, if any (see follow_up;
    they are sent one at a time, so at most one is unknown). None also when the channel cannot be
    read (no Read Message History): then the follow-up is sent again, a doubled post being the
    lesser harm than a lost one."""
    channel = interaction.client.get_partial_messageable(interaction.channel_id or 0)
    after = discord.Object(max(known, default=interaction.id))

    async def read() -> list[discord.Message]:
        return [m async for m in channel.history(limit=HISTORY_LOOKUP_LIMIT, after=after)]

    try:
        messages = await confirmed(read, "reading the channel")
    except (discord.HTTPException, *UNCONFIRMED) as error:
        log.warning("could not read channel %s to see whether a follow-up landed: %s", interaction.channel_id, error)
        return None
    for message in messages:
        meta = message.interaction_metadata
        if (meta is not None and meta.id == interaction.id and meta.original_response_message_id is not None
                and message.id not in known):
            log.info("an unconfirmed follow-up had landed (message %s): not sending it again", message.id)
            return message
    return None


def _pieces(prepared: Prepared, index: int, limit: int) -> list[tuple[str, list[discord.File]]]:
    """One output as message-sized pieces; attachments ride on the last piece."""
    files, notes = _files(prepared.files_for(index), limit)
    text = prepared.outputs[index].text
    if notes:
        text = f"{text}\n" + "\n".join(notes)
    chunks = split_text(text) if text else [""]
    if not chunks[-1] and not files:
        chunks[-1] = "\u200b"
    return [(chunk, files if i == len(chunks) - 1 else []) for i, chunk in enumerate(chunks)]



class CommandSync:
    """The bot's slash commands sent to Discord: only when their definitions changed since this
    application last synced the scope (the hash is kept in the store)."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    def _scope_key(self, guild_id: int | None) -> str:
        return f"commands:{self.bot.application_id}:" + (f"guild:{guild_id}" if guild_id is not None else "global")

    async def sync(self, *, force: bool = False) -> bool:
        """Send the slash commands to Discord only when their definitions changed since this
        application last synced this scope (their hash is kept in the store), so restarts cost no
        sync and no rate limit. Run globally (no DISCORD_GUILD_ID), it also clears the commands of
        any development guild this database synced before: they would show twice there."""
        store = self.bot.service.store
        guild = discord.Object(self.bot.guild_id) if self.bot.guild_id is not None else None
        if guild is not None:
            self.bot.tree.copy_global_to(guild=guild)
        digest = commands_hash([c.to_dict(self.bot.tree) for c in self.bot.tree.get_commands(guild=guild)])
        key = self._scope_key(self.bot.guild_id)
        changed = force or await store.setting(key) != digest
        if changed:
            await self.bot.tree.sync(guild=guild)
            await store.set_setting(key, digest)
            log.info("slash commands synced (%s)", key)
        else:
            log.info("slash commands unchanged since the last sync (%s): not syncing", key)
        if guild is None:
            for old in await store.settings_like(f"commands:{self.bot.application_id}:guild:"):
                await self.clear_guild(int(old.rpartition(":")[2]))
        return changed

    async def clear_guild(self, guild_id: int) -> None:
        """Remove this application's commands from one guild (left over from guild-scoped testing)."""
        guild = discord.Object(guild_id)
        await self.bot.http.bulk_upsert_guild_commands(self.bot.application_id or 0, guild.id, [])
        await self.bot.service.store.set_setting(self._scope_key(guild_id), None)
        log.info("cleared the slash commands of guild %s", guild_id)


class OfferBoard:
    """The newest buttons or menu offered in each channel, greyed out when the game moves on."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._offers: dict[str, tuple[int, Offer]] = {}  # channel -> (message id, offer) of its newest choices

    async def refuse_out_of_date(self, interaction: discord.Interaction[Any], *, grey_out: bool) -> None:
        """``grey_out``: disable the clicked message's components too (seat offers). An order offer
        is only answered: the game may have moved by a hidden order, and greying the message out
        in everyone's sight would show that it had; offers are greyed when the channel hears news."""
        view = disabled_copy(interaction.message) if grey_out else None
        with contextlib.suppress(discord.HTTPException):
            if view is None:
                await respond_once(interaction, lambda: interaction.response.send_message(OUT_OF_DATE, ephemeral=True),
                                   REPLY)
                return
            await respond_once(interaction, lambda: update_clicked(interaction, view), UPDATE)  # the clicked message greys out
            await follow_up(interaction, OUT_OF_DATE, ephemeral=True)

    def moved_on(self, channel: str, command: str, prepared: Prepared) -> None:
        """The game in ``channel`` changed: grey out the channel's previous offer, and remember the
        new one. Seats stay on offer while players sit down (join, leave, assign); orders are good
        for one state only. Kept in memory: after a restart the stamps in the ids still refuse
        out-of-date clicks, they just are not greyed out until clicked."""
        old = self._offers.pop(channel, None)
        if old is not None and old[1].kind == "join" and command in SEAT_COMMANDS:
            self._offers[channel] = old
            return
        if prepared.offer is not None and prepared.offer_message is not None:
            self._offers[channel] = (prepared.offer_message, prepared.offer)
        if old is not None and old[0] != prepared.offer_message:
            self.bot._spawn(self._disable(channel, *old), f"offer-{channel}")

    async def _disable(self, channel: str, message_id: int, offer: Offer) -> None:
        message = self.bot.get_partial_messageable(int(channel)).get_partial_message(message_id)
        try:
            await confirmed(lambda: message.edit(view=offer_view(offer, disabled=True)), "greying out choices")
        except discord.HTTPException as exc:  # deleted meanwhile, or no longer ours to edit
            log.info("could not grey out the old choices in %s: %s", channel, exc)


class DirectMessages:
    """DMs with a fallback: a user whose DMs are closed is paused (``TableBot.dms_closed``) and
    pointed once per channel to /game private."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._pointed: set[tuple[str, str]] = set()  # (user, channel) told publicly where their private info is
        self._dm_channels: dict[str, discord.DMChannel] = {}

    async def send_dm(
        self, user_id: str, content: str, files: Sequence[discord.File] = (), *, retry: bool = False
    ) -> bool:
        """Send a DM; False when the user's DMs are closed. Once refused, a user is not tried again
        for DM_RETRY_SECONDS unless ``retry`` (they asked, with /game private); a DM that goes
        through clears the mark."""
        closed_at = self.bot.dms_closed.get(user_id)
        if closed_at is not None and not retry and self.bot.clock() - closed_at < DM_RETRY_SECONDS:
            return False
        try:
            channel = self._dm_channels.get(user_id)
            if channel is None:
                channel = await self.bot.create_dm(discord.Object(int(user_id)))
                self._dm_channels[user_id] = channel
            await post_once(channel, content, files)
        except discord.Forbidden as error:
            if error.code == DMS_CLOSED:
                self.bot.dms_closed[user_id] = self.bot.clock()  # the pause starts again from this refusal
                try:
                    await self.bot.service.dms_closed(user_id)
                except Exception:
                    log.exception("could not record that %s has DMs closed", user_id)
            else:
                log.warning("DM to %s refused: %s", user_id, error)
            return False
        except (discord.HTTPException, *UNCONFIRMED):
            log.exception("DM to %s failed", user_id)
            return False
        if self.bot.dms_closed.pop(user_id, None) is not None:
            self._pointed = {(who, where) for who, where in self._pointed if who != user_id}
            try:
                await self.bot.service.dms_reopened(user_id)
            except Exception:
                log.exception("could not clear the closed-DM mark of %s", user_id)
        return True

    async def send_all(self, prepared: Prepared, indexes: Sequence[int], invoker: str, channel: str) -> list[str]:
        """Send the DMs; returns what the invoker should be told ephemerally (their fallbacks)."""
        notices: list[str] = []
        for index in indexes:
            output = prepared.outputs[index]
            target = output.to or invoker
            delivered = True
            for content, files in _pieces(prepared, index, DEFAULT_FILE_LIMIT):
                if not await self.send_dm(target, content, files):
                    delivered = False
                    break
            if delivered:
                continue
            if target == invoker:
                # The invoker is here: show it to them privately right now, and say how to see it later.
                notices.append(output.text)
            elif (target, channel) not in self._pointed:
                self._pointed.add((target, channel))  # once per channel: a pointer, not a stream of pings
                self.bot._spawn(
                    post_once(
                        self.bot.get_partial_messageable(int(channel)),
                        f"<@{target}>: I could not send you a direct message (your DMs are closed). "
                        "Use `/game private` in this channel to see your private information.",
                    ),
                    "dm-fallback",
                )
        if notices:
            notices = split_text("\n\n".join([*notices, PRIVATE_HELP]))
        return notices

    async def private_by_dm(self, prepared: Prepared, user_id: str) -> Prepared:
        """/game private from someone whose DMs were found closed: they may have opened them since,
        so try their private information by DM now. If it goes through the mark is gone and the
        reply says so; if not, the reply stays the ephemeral fallback it was."""
        from bot.service import Output

        for index in range(len(prepared.outputs)):
            for content, files in _pieces(prepared, index, DEFAULT_FILE_LIMIT):
                if not await self.send_dm(user_id, content, files, retry=True):
                    return prepared
        return Prepared([Output("ephemeral", DMS_WORK_AGAIN, to=user_id)])


def warm_up() -> None:
    """Import every rule system and data schema before the bot connects. Otherwise the first
    command that needs them (the first /game new or /deck new after a start) imports them on the
    event loop: seconds on a busy machine, so its deferral missed Discord's 3-second limit."""
    from games.core.ruleset import system_ids
    from games.core.schema import registry

    try:
        system_ids()
        registry()
    except Exception:  # the command that needs it reports the problem; the start-up check did too
        log.exception("loading the game systems ahead of the first command failed")


def draw_board(renderer: Renderer, view: Any, zoom: Any, names: Any = None) -> tuple[bytes, Any]:
    """One board, in the drawing thread or a drawing process (module level, so a pool can send it
    there); also returns ``names`` (render.NamePlaces), which a process updated on its own copy."""
    png = renderer(view, names=names) if zoom is None else renderer(view, zoom=zoom, names=names)
    return png, names


class BoardDrawer:
    """Draws boards off the event loop: in ONE thread, or with ``workers`` (WARGAME_DRAW_WORKERS, e.g.
    one per core) in that many worker processes, which leave this process's GIL to the event loop.

    One thread, not several: most of a drawing holds the GIL, so two drawing threads draw no faster,
    and together they starve the event loop and the SQLite thread of the GIL: every database round
    trip then waits a switch interval (5 ms) several times over while holding the store's lock, and
    the queue behind that lock was the p99 (benchmarks/e2e.py, 100 games on 2 CPUs while other
    programs kept them busy: p99 450-480 ms with two threads, 64-142 ms with one; on an otherwise
    idle machine the two are alike, 52-56 ms). The thread is also the fallback if a worker dies.
    """

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self.thread = ThreadPoolExecutor(max_workers=DRAW_THREADS, thread_name_prefix="draw")
        self.processes: ProcessPoolExecutor | None = None
        self.name_places: OrderedDict[str, Any] = OrderedDict()  # channel -> render.NamePlaces, newest last

    async def draw(self, renderer: Renderer, view: Any, zoom: Any, names: Any = None) -> bytes:
        """The PNG; ``names`` (the channel's render.NamePlaces) holds where the names went after it."""
        loop = asyncio.get_running_loop()
        if self.workers > 0:
            if self.processes is None:  # forkserver: never a fork of this process's threads (SQLite's)
                self.processes = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("forkserver"))
            try:
                png, placed = await loop.run_in_executor(self.processes, draw_board, renderer, view, zoom, names)
                if names is not None:
                    names.take(placed)  # the process placed the names on its own copy
                return bytes(png)
            except BrokenProcessPool:  # a worker died (killed, out of memory): draw here, start anew next time
                log.exception("a board-drawing process died; drawing this board in the bot's thread")
                self.stop_processes()
        png, _ = await loop.run_in_executor(self.thread, draw_board, renderer, view, zoom, names)
        return bytes(png)

    def names_for(self, channel: str) -> Any:
        """The channel's ``render.NamePlaces`` (made on first use), so a name whose counter did not
        move keeps its place from one of the channel's pictures to the next."""
        places = self.name_places.pop(channel, None)
        if places is None:
            from render import NamePlaces

            places = NamePlaces()
        self.name_places[channel] = places
        while len(self.name_places) > NAME_PLACES_CHANNELS:
            self.name_places.popitem(last=False)
        return places

    def stop_processes(self) -> None:
        processes, self.processes = self.processes, None
        if processes is not None:
            processes.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self.thread.shutdown(wait=False, cancel_futures=True)
        self.stop_processes()


class OneProcess:
    """One process acts on each interaction, status post and shard (bot/leases.py): Discord gives a
    shard's events to every session on it, so the process claims each interaction id in the store
    before acting, and serves only shards it holds the lease of."""

    def __init__(self, bot: TableBot, lease_seconds: float) -> None:
        self.bot = bot
        self.owner = process_owner()  # this process in the store's claims and shard leases
        self.lease_seconds = lease_seconds
        self.leases: ShardLeases | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self.lost: str | None = None  # why this process stopped serving, if it lost a lease
        self.stopping: asyncio.Task[None] | None = None  # the close a lost lease began
        self._outcomes: list[tuple[str, str, str]] = []  # (claim key, owner, outcome) not yet written
        self._outcomes_due = False  # a write of them is on its way

    async def take_leases(self) -> None:
        """Hold the leases of this process's shards (an unsharded process: shard 0 of 1) before
        connecting, waiting as a standby while another live process holds them; keep them by a
        heartbeat, and stop the bot if one is lost."""
        plan = self.bot.shard_plan or ShardPlan((0,), 1)
        self.leases = ShardLeases(self.bot.service.store, plan.ids, plan.count, self.owner, seconds=self.lease_seconds)
        await self.leases.acquire(self.bot._closing)
        self._heartbeat = asyncio.create_task(self._keep(), name="shard-leases")

    async def _keep(self) -> None:
        assert self.leases is not None
        self.lost = await self.leases.keep()
        log.error("%s; this process stops (another serves its shards now)", self.lost)
        self.stopping = asyncio.create_task(self.bot.close(), name="lease-lost")

    def stop_heartbeat(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()

    async def release(self) -> None:
        """Give the leases back (a clean stop), so a standby takes over at once."""
        leases, self.leases = self.leases, None
        if leases is not None:
            await leases.release()

    async def claim(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether this process handles the interaction: only if it serves its shard now and its
        claim of the interaction id is the one the store kept. Any other process that received it
        does nothing and sends nothing (Discord gives the interaction to every session of the shard)."""
        if self.leases is not None and not self.leases.serving():
            return False
        key, now = f"ix:{interaction.id}", time.time()
        service = self.bot.service
        channel = str(interaction.channel_id or "")
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                claimed, seen = await service.store.claim_seeing(key, self.owner, now, channel)
                lost = None
            else:
                claimed, lost, seen = await service.store.claim_command(
                    key, self.owner, now, interaction_fingerprint(interaction), retry_since=now - RETRY_SECONDS,
                    live_since=now - self.lease_seconds, channel=channel)
        except Exception:
            log.exception("could not claim interaction %s: leaving it alone", interaction.id)
            return False
        if lost is not None:
            interaction.extras["retry_of"] = lost
        if claimed:  # for this interaction's task (and the tasks it starts): its game read with the claim
            service.table.seen(channel, seen)
        return claimed

    async def answered_as_retry(self, interaction: discord.Interaction[Any], command: str) -> bool:
        """A command that repeats one lost in a crash (``claim`` found it) is not applied again: the
        user is told the first may be in the game (once: a third try is applied)."""
        lost = interaction.extras.get("retry_of")
        if lost is None or command in READ_ONLY or not await self.bot.service.store.mark_retried(str(lost)):
            return False
        log.info("/%s in %s repeats %s, lost in a crash: not applied again", command, interaction.channel_id, lost)
        with contextlib.suppress(discord.HTTPException):
            note = RETRY_NOTE.format(command=command)
            await respond_once(interaction, lambda: interaction.response.send_message(note, ephemeral=True), REPLY)
        return True

    async def record_outcome(self, interaction: discord.Interaction[Any]) -> None:
        """Kept with the claim: an interaction left without an outcome was lost in a crash (see
        ``answered_as_retry``). Written in batches, OUTCOME_BATCH_SECONDS apart (at once when
        closing), so an order costs no write of its own for it; a crash loses at most that much of
        them, and a lost outcome only makes a retry of that command be asked to check first, never
        applied twice."""
        self._outcomes.append((f"ix:{interaction.id}", self.owner, str(interaction.extras.get("outcome", "answered"))))
        if not self._outcomes_due:
            self._outcomes_due = True
            self.bot._spawn(self._write_outcomes(), "outcomes")

    async def _write_outcomes(self) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(OUTCOME_BATCH_SECONDS):
                await self.bot._closing.wait()
        batch, self._outcomes, self._outcomes_due = self._outcomes, [], False
        try:
            await self.bot.service.store.set_outcomes(batch)
        except Exception:
            log.exception("could not keep the outcomes of %d interactions", len(batch))

    async def claim_status(self, key: str) -> bool:
        """Whether this process posts a status message: another process refreshing the same channel
        (two on one shard) must not post and pin a second one. A claim whose holder never stored the
        message (it died meanwhile) is taken over after STATUS_CLAIM_SECONDS."""
        now = time.time()
        return await self.bot.service.store.claim(key, self.owner, now, takeover_before=now - STATUS_CLAIM_SECONDS)


class TableBot(discord.Client):

    """discord.py client wired to a ``TableService``; dependencies are opened in ``setup_hook``."""

    def __init__(
        self,
        *,
        db_path: str,
        guild_id: int | None = None,
        reminder_seconds: float = 60.0,
        response_budget: float = RESPONSE_BUDGET_SECONDS,
        status_delay: float = STATUS_DELAY_SECONDS,
        service_factory: ServiceFactory = open_service,
        renderer: Renderer | None = None,
        load_renderer: bool = True,
        shard_plan: ShardPlan | None = None,
        draw_workers: int = 0,
        lease_seconds: float | None = None,
        **client_options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and permissions; no message content or member list needed
        super().__init__(
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False),
            max_messages=None,  # it never reads channel messages: no message cache
            **client_options,
        )
        self.db_path = db_path
        self.guild_id = guild_id
        self.shard_plan = shard_plan  # None: one connection that receives every guild
        self._served_channels: set[str] = set()  # channels whose commands reached this process
        self.once = OneProcess(self, lease_seconds or LEASE_SECONDS)
        self.reminder_seconds = reminder_seconds
        self.response_budget = response_budget
        self.status_delay = status_delay
        self.service_factory = service_factory
        self.renderer = renderer if renderer is not None or not load_renderer else _load_renderer()
        # per channel, where its game's table names went in the latest pictures (render.NamePlaces),
        # so a unit that did not move keeps its name's place; the most recently drawn channels kept
        # Games live in server channels: the commands are not offered in DMs.
        self.tree = app_commands.CommandTree(
            self, allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
        )
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.tree.interaction_check = self.once.claim  # type: ignore[method-assign]
        self._service: TableService | None = None
        self._close_service: Callable[[], Awaitable[None]] | None = None
        self.dms_closed: dict[str, float] = {}  # user id -> when their DMs were found closed
        self.clock: Callable[[], float] = time.time  # for the DM retry pause (tests move it on)
        self.offers = OfferBoard(self)
        self.dms = DirectMessages(self)
        self.command_sync = CommandSync(self)
        self._status_locks: dict[str, asyncio.Lock] = {}
        self._status_pending: set[str] = set()
        self._status_shown: dict[str, tuple[int, str, str]] = {}  # channel -> (game, message id, text) last put there
        self._status_slots = asyncio.Semaphore(STATUS_CONCURRENCY)
        self._background: set[asyncio.Task[Any]] = set()
        self._reminder_task: asyncio.Task[None] | None = None
        self._web: Any = None  # the web companion's runner when WARGAME_WEB_PORT is set
        self._closing = asyncio.Event()
        self._opening: asyncio.Future[tuple[TableService, Callable[[], Awaitable[None]]]] | None = None
        self.synced = asyncio.Event()
        self.drawer = BoardDrawer(draw_workers)

    @property
    def service(self) -> TableService:
        if self._service is None:
            raise RuntimeError("the bot is not set up yet")
        return self._service

    # ----- lifecycle
    async def setup_hook(self) -> None:
        await asyncio.to_thread(warm_up)
        freeze_start_up()  # what start-up made is never scanned by a full collection again
        self._service, self._close_service = await self._open_service()
        await self.once.take_leases()
        self.dms_closed.update(await self.service.closed_dm_times())
        self.install_commands()
        self.add_dynamic_items(JoinButton, OrderButton, PickMenu)
        await self.command_sync.sync()
        self.synced.set()
        self._reminder_task = asyncio.create_task(self._reminder_loop(), name="reminders")
        if os.environ.get("WARGAME_WEB_PORT", "").strip():  # the web companion in this process too
            from bot.web.server import start_from_env

            self._web = await start_from_env(self.service)

    def install_commands(self) -> None:
        for command in build_commands():
            command.guild_only = True
            self.tree.add_command(command)

    async def _open_service(self) -> tuple[TableService, Callable[[], Awaitable[None]]]:
        """The service from ``service_factory``, opened in a task of its own: a stop while it opens
        cancels setup_hook but not the opening, and ``release`` then closes what it opened (an
        open store's SQLite thread would keep the process from exiting)."""
        self._opening = asyncio.ensure_future(self.service_factory(self.db_path))
        return await asyncio.shield(self._opening)

    async def close(self) -> None:
        """Stop the reminders, finish pending status edits (now, without their delay), close the
        connection to Discord, then the store and the drawing thread (those even if closing fails)."""
        self._closing.set()
        try:
            self.once.stop_heartbeat()
            if self._reminder_task is not None:
                self._reminder_task.cancel()
                # wait() rather than suppress(CancelledError): a cancellation of close() itself must not be lost
                await asyncio.wait({self._reminder_task})
            if self._background:
                await asyncio.wait(self._background, timeout=5)
            web, self._web = self._web, None
            if web is not None:
                await web.cleanup()
            await super().close()
        finally:
            await self.release()

    async def release(self) -> None:
        """Close the store and stop the drawing thread; closing again does nothing."""
        close_service, self._close_service = self._close_service, None
        opening, self._opening = self._opening, None
        try:
            if close_service is not None:
                await self.once.release()  # a standby takes over at once
            if close_service is None and opening is not None:  # stopped while the store was opening
                with contextlib.suppress(Exception):
                    _, close_service = await opening
            if close_service is not None:
                await close_service()
        finally:
            self.drawer.close()

    def _spawn(self, coro: Awaitable[Any], name: str) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        task.set_name(name)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ----- the one path every command takes
    def user_of(self, interaction: discord.Interaction[Any]) -> User:
        from bot.service import User

        permissions = interaction.permissions
        return User(
            id=str(interaction.user.id),
            name=interaction.user.display_name,
            manage_server=bool(permissions.manage_guild or permissions.administrator),
        )

    def user_of_id(self, user_id: str) -> User:
        """A user known only by id (buttons for the next player, tests)."""
        from bot.service import User

        return User(id=user_id, name=user_id)

    async def run_command(
        self, interaction: discord.Interaction[Any], command: str, options: dict[str, Any], *,
        offered: Expect | None = None,
    ) -> None:
        """Hand the command to the service, then answer: directly if quick, after a deferral if not.
        ``offered``: it comes from a button or menu offered for that (game, version)."""
        try:
            await self._run_command(interaction, command, options, offered=offered)
        finally:  # what became of the claimed interaction, kept with its claim
            self._spawn(self.once.record_outcome(interaction), "outcome")

    async def _run_command(
        self, interaction: discord.Interaction[Any], command: str, options: dict[str, Any], *,
        offered: Expect | None = None,
    ) -> None:
        if await self.once.answered_as_retry(interaction, command):
            return
        user = self.user_of(interaction)
        channel = str(interaction.channel_id)
        guild = str(interaction.guild_id or "")
        if self.shard_plan is not None and interaction.guild_id is not None:
            self._served_channels.add(channel)  # e.g. a thread not in the guild cache
        texts = options_text(options)
        if command == "game new" and texts.pop("thread", "") == "true":
            await self._new_game_in_thread(interaction, user, texts)
            return
        work = asyncio.create_task(self._prepare(channel, user, command, texts, guild=guild, offered=offered))
        deferred = False
        done, _ = await asyncio.wait({work}, timeout=self.response_budget)
        if not done:
            private = command in PRIVATE_HINT or command in SECRET_CAPABLE
            interaction.extras["deferred_ephemeral"] = private
            await respond_once(interaction, lambda: interaction.response.defer(thinking=True, ephemeral=private), DEFER)
            deferred = True
        try:
            prepared = await work
        except Exception:
            log.exception("command /%s failed in channel %s", command, channel)
            await self._reply_failure(interaction, deferred)
            return
        try:
            await self._deliver(interaction, channel, user.id, prepared, deferred)
        except Exception:
            log.exception("delivering /%s failed in channel %s", command, channel)
            # Part may have been posted already: add a private note rather than overwrite the reply.
            await self._reply_failure(interaction, deferred=False)
            return
        if command not in READ_ONLY and any(o.kind != "error" for o in prepared.outputs):
            self.refresh_status(channel)
            if any(o.kind == "message" for o in prepared.outputs):
                # only news the channel was told of greys an offer out: a hidden order posts
                # nothing (see order_outputs in bot/rooms/delivery.py), so the edit would time it
                self.offers.moved_on(channel, command, prepared)

    async def run_choice(
        self, interaction: discord.Interaction[Any], command: str, options: dict[str, Any], expect: Expect | None
    ) -> None:
        """A click on a button or menu offered for game ``expect`` = (id, version): if the game has
        moved on since, nothing is applied; the click is answered "out of date" and that message's
        components are greyed out. Ids without a stamp (sent before stamps) are run as they are.

        An order offer is for whoever acts now: anyone else is told so first, the same way whatever
        the offer's version, so a click never tells them the game moved (a hidden order moves it)."""
        if not await self.once.claim(interaction):
            return  # another process has it
        if expect is not None:
            try:  # who may use it, then whether it is current, on one read of the game
                verdict = await asyncio.wait_for(
                    self.service.offer_verdict(str(interaction.channel_id), self.user_of(interaction), *expect),
                    self.response_budget,
                )
            except Exception:
                log.exception("could not check a click's offer; leaving it to the service")
                verdict = "ok"
            if verdict == "not yours":
                with contextlib.suppress(discord.HTTPException):
                    await respond_once(
                        interaction, lambda: interaction.response.send_message(NOT_YOUR_OFFER, ephemeral=True), REPLY)
                self._spawn(self.once.record_outcome(interaction), "outcome")
                return
            if verdict == "out of date":
                await self.offers.refuse_out_of_date(interaction, grey_out=expect[1] is None)
                self._spawn(self.once.record_outcome(interaction), "outcome")
                return
        await self.run_command(interaction, command, options, offered=expect)  # checked again under the lock

    async def _new_game_in_thread(self, interaction: discord.Interaction[Any], user: User, options: dict[str, str]) -> None:
        """/game new thread:true: a new public thread of this channel becomes the game's channel (a
        thread is a channel, so the table service needs nothing new); the reply here points to it.
        The options are checked before the thread is made, so a typo leaves no empty thread."""
        from games.core.errors import GameError

        try:
            title = self.service.new_game_title(options)
        except GameError as exc:
            text = exc.text
            await respond_once(interaction, lambda: interaction.response.send_message(text, ephemeral=True), REPLY)
            return
        parent = interaction.channel
        if not isinstance(parent, discord.TextChannel):
            await respond_once(interaction, lambda: interaction.response.send_message(NOT_A_TEXT_CHANNEL, ephemeral=True),
                               REPLY)
            return
        await respond_once(interaction, lambda: interaction.response.defer(thinking=True), DEFER)
        try:
            thread = await parent.create_thread(
                name=clip(title, THREAD_NAME_LIMIT), type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES, reason=f"/game new by {user.name}",
            )
        except discord.HTTPException as exc:
            log.info("could not start a thread in %s: %s", parent.id, exc)
            await edit_reply(interaction, NO_THREAD)
            return
        channel = str(thread.id)
        if self.shard_plan is not None:
            self._served_channels.add(channel)
        try:
            prepared = await self._prepare(channel, user, "game new", options, guild=str(interaction.guild_id or ""))
            await self._deliver_to_thread(interaction, thread, title, user.id, prepared)
        except Exception:
            log.exception("/game new in the new thread %s failed", channel)
            await self._reply_failure(interaction, deferred=True)
            return
        if any(o.kind == "message" for o in prepared.outputs):
            self.refresh_status(channel)
            self.offers.moved_on(channel, "game new", prepared)

    async def _deliver_to_thread(
        self, interaction: discord.Interaction[Any], thread: discord.Thread, title: str, invoker: str,
        prepared: Prepared,
    ) -> None:
        """The new game's messages go to the thread (its seats on offer under the last); the
        command's reply in the channel says where the game is, or what went wrong."""
        channel = str(thread.id)
        plan = plan_outputs(prepared.outputs, channel, invoker)
        pieces = [piece for index in plan.public for piece in _pieces(prepared, index, DEFAULT_FILE_LIMIT)]
        for number, (content, files) in enumerate(pieces):
            view = offer_view(prepared.offer) if number == len(pieces) - 1 else None
            message = await post_once(thread, content, files, view=view or discord.utils.MISSING)
            if view is not None:
                prepared.offer_message = message.id
        private = [c for index in plan.to_invoker for c, _ in _pieces(prepared, index, DEFAULT_FILE_LIMIT)]
        if pieces:
            await edit_reply(interaction, f"<@{invoker}> set up **{title}** in {thread.mention}: take a seat there.")
        else:  # refused after all (e.g. someone else was quicker): say why here
            await edit_reply(interaction, private.pop(0) if private else "Nothing was set up.")
        for text in private:
            await follow_up(interaction, text, ephemeral=True)
        if plan.dms:
            for notice in await self.dms.send_all(prepared, plan.dms, invoker, channel):
                await follow_up(interaction, notice, ephemeral=True)

    async def _prepare(
        self, channel: str, user: User, command: str, options: dict[str, str], *, guild: str = "",
        offered: Expect | None = None,
    ) -> Prepared:
        if guild:
            await self.service.note_guild(channel, guild)
        if offered is None:
            outputs = list(await self.service.handle(channel, user, command, options))
        else:  # a click: the service refuses it if the game moved on since the offer
            outputs = list(await self.service.handle(channel, user, command, options, offered=offered))
        prepared = Prepared(outputs)
        jobs: list[Awaitable[Any]] = [
            self._render_into(prepared, i, o.zoom, channel) for i, o in enumerate(outputs) if o.view is not None
        ]
        if command not in READ_ONLY and any(o.kind == "message" for o in outputs):
            jobs.append(self._buttons_into(prepared, channel, user, command))
        if jobs:
            await asyncio.gather(*jobs)
        if command == "game private" and user.id in self.dms_closed and all(o.kind != "error" for o in outputs):
            prepared = await self.dms.private_by_dm(prepared, user.id)
        return prepared

    async def _render_into(self, prepared: Prepared, index: int, zoom: Any = None, channel: str = "") -> None:
        """Draw one output's board; ``zoom`` is the service's validated (where, radius)."""
        if self.renderer is None:
            return
        view = prepared.outputs[index].view
        names = self.drawer.names_for(channel)
        if zoom is not None:
            try:
                prepared.images[index] = await self._draw(view, zoom, names)
                return
            except Exception:
                log.info("zoom %r could not be drawn; showing the whole board", zoom)
        try:
            prepared.images[index] = await self._draw(view, None, names)
        except Exception:
            log.exception("drawing the board failed; the message goes without it")

    async def _draw(self, view: Any, zoom: Any, names: Any = None) -> bytes:
        assert self.renderer is not None
        return await self.drawer.draw(self.renderer, view, zoom, names)

    async def _buttons_into(self, prepared: Prepared, channel: str, user: User, command: str) -> None:
        """Buttons for short choices: seats after a new game, the next player's orders when few.

        Runs alongside the board drawing; who acts next is read from the reply's own ping line, and
        after an order the game is the one that order left (``TableService.offer_choices``), so this
        reads nothing from the store then.
        """
        from bot.service import User, ruleset_for

        try:
            # the choices come with the game they were read at: if it moves on after, the offer
            # carries the older version and is refused as out of date, never the reverse
            if command == "game new":
                found = await self.service.offer_choices(channel, user, "game join", "seat")
                if found is not None:
                    prepared.offer = make_offer("join", found[1], found[0].id, found[0].version)
                return
            to_act = next_actors(prepared.outputs)
            if len(to_act) != 1:
                return
            actor = User(id=to_act[0], name=to_act[0])
            # public buttons would show a seat's options: only where the rules make them public
            found = await self.service.offer_choices(channel, actor, "order", "text",
                                                     only=lambda row: public_orders(ruleset_for(row.system)))
            if found is None:
                return
            prepared.offer = make_offer("order", found[1], found[0].id, found[0].version)
        except Exception:
            log.exception("working out buttons failed; the message goes without them")

    # ----- turning outputs into Discord messages
    async def _deliver(
        self, interaction: discord.Interaction[Any], channel: str, invoker: str, prepared: Prepared, deferred: bool
    ) -> None:
        """Send everything in order: the reply (or the deferral's edit), follow-ups, other channels, DMs."""
        plan = plan_outputs(prepared.outputs, channel, invoker)
        limit = interaction.filesize_limit or DEFAULT_FILE_LIMIT
        sends: list[Send] = [Send(c, f, False) for i in plan.public for c, f in _pieces(prepared, i, limit)]
        offered: Send | None = None
        if sends and prepared.offer is not None:
            offered = sends[-1]
            offered.view = offer_view(prepared.offer)
        sends += [Send(c, f, True) for i in plan.to_invoker for c, f in _pieces(prepared, i, limit)]
        if not sends:
            # Nothing to say here: send the DMs first so the reply can say how they went.
            notices = await self.dms.send_all(prepared, plan.dms, invoker, channel) if plan.dms else []
            sends = [Send(n, [], True) for n in notices] or [
                Send("Sent you a direct message." if plan.dms else "Done.", [], True)
            ]
            plan.dms = []

        if not deferred:
            first = sends.pop(0)
            sent = await respond_once(interaction, lambda: interaction.response.send_message(
                first.content, files=first.files, ephemeral=first.ephemeral, view=first.view or discord.utils.MISSING
            ), REPLY, first.files)
            if first is offered:
                prepared.offer_message = await response_message_id(interaction, sent)
        else:
            deferred_ephemeral = bool(interaction.extras.get("deferred_ephemeral"))
            match = next((s for s in sends if s.ephemeral == deferred_ephemeral), None)
            if match is not None:
                # The deferral's placeholder becomes the first message of its own visibility.
                sends.remove(match)
                edited = await confirmed(lambda: interaction.edit_original_response(
                    content=match.content, attachments=match.files, view=match.view
                ), "the reply's edit", match.files)
                if match is offered:
                    prepared.offer_message = edited.id
            elif deferred_ephemeral:
                # Resolve the private placeholder before the public follow-ups: Discord gives the
                # first follow-up after a deferral the deferral's visibility, so the public post
                # must not be it (and deleting the placeholder first is not known to avoid that).
                await edit_reply(interaction, DEFERRED_NOTE)
            else:
                with contextlib.suppress(discord.HTTPException):  # e.g. 404: an unconfirmed try deleted it
                    await confirmed(interaction.delete_original_response, "deleting the placeholder")
        for send in sends:
            message = await follow_up(interaction, send.content, send.files, ephemeral=send.ephemeral, view=send.view)
            if send is offered:  # its id is where the offer is greyed out later
                prepared.offer_message = message.id
        for index in plan.elsewhere:
            await self._send_channel(prepared, index, prepared.outputs[index].channel or channel)
        if plan.dms:
            for notice in await self.dms.send_all(prepared, plan.dms, invoker, channel):
                await follow_up(interaction, notice, ephemeral=True)

    async def _reply_failure(self, interaction: discord.Interaction[Any], deferred: bool) -> None:
        interaction.extras["outcome"] = "failed"
        text = "Something went wrong on my side. Please check `/game status` and try again."
        with contextlib.suppress(discord.HTTPException, *UNCONFIRMED):
            if not interaction.response.is_done():
                await respond_once(interaction, lambda: interaction.response.send_message(text, ephemeral=True), REPLY)
            elif deferred:
                await edit_reply(interaction, text)  # replace the "thinking..." placeholder
            else:
                await follow_up(interaction, text, ephemeral=True)

    async def _send_channel(self, prepared: Prepared, index: int, channel: str) -> None:
        target = self.get_partial_messageable(int(channel))
        for content, files in _pieces(prepared, index, DEFAULT_FILE_LIMIT):
            try:
                await post_once(target, content, files)
            except (discord.HTTPException, *UNCONFIRMED):
                log.exception("could not post in channel %s", channel)
                return

    # ----- status message
    def refresh_status(self, channel: str) -> None:
        """Bring the channel's status message up to date soon (coalesced per channel)."""
        if channel in self._status_pending:
            return
        self._status_pending.add(channel)
        self._spawn(self._refresh_status(channel), f"status-{channel}")

    async def _refresh_status(self, channel: str) -> None:
        from bot.service import User

        lock = self._status_locks.setdefault(channel, asyncio.Lock())
        # Let a burst of activations settle into one edit; when the bot is closing, edit at once.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.status_delay):
                await self._closing.wait()
        async with lock, self._status_slots:  # while waiting for a slot, more requests still coalesce
            self._status_pending.discard(channel)
            try:
                found = await self.service.status_text(channel, User(id=SPECTATOR_ID, name="status"))
                if found is None:
                    return
                row, text = found
                description = clip(text or f"Game: {row.status}", EMBED_DESCRIPTION_LIMIT)
                if row.status_message and self._status_shown.get(channel) == (row.id, row.status_message, description):
                    # Unchanged (e.g. after a sealed order): an edit would only tell the channel, by
                    # its timing, that someone did something the rules keep secret.
                    return
                if not row.status_message and not await self.once.claim_status(f"status:{row.id}:"):
                    self.service.forget_recent(channel)  # the other process stores the id: read it then
                    self._spawn(self._refresh_later(channel), f"status-later-{channel}")
                    return  # another process is posting it: edit it once its id is stored
                embed = discord.Embed(title="Game status", description=description)
                message_id = await self._put_status(channel, row.status_message or None, embed)
                self._status_shown[channel] = (row.id, message_id, description)
                if message_id != row.status_message:
                    # The game row keeps its status message id, so a restart edits the same message.
                    await self.service.set_status_message(row, message_id)
            except Exception:
                log.exception("status message for channel %s could not be updated", channel)

    async def _put_status(self, channel: str, message_id: str | None, embed: discord.Embed) -> str:
        """Edit the game's status message, or post (and try to pin) a new one; returns its id."""
        target = self.get_partial_messageable(int(channel))
        none = discord.AllowedMentions.none()
        if message_id is not None:
            try:
                status = target.get_partial_message(int(message_id))
                await confirmed(lambda: status.edit(embed=embed, allowed_mentions=none), "the status edit")
                return message_id
            except discord.NotFound:  # deleted by someone: post a new one (one process does)
                if not await self.once.claim_status(f"status-after:{message_id}"):
                    return message_id
        message = await post_once(target, embed=embed, allowed_mentions=none)
        try:
            await confirmed(lambda: message.pin(reason="Game status"), "pinning the status")
        except discord.HTTPException:
            log.info("no permission to pin the status message in %s; it stays unpinned", channel)
        return str(message.id)

    async def _refresh_later(self, channel: str) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(self.status_delay, 0.5)):
                await self._closing.wait()
        if not self._closing.is_set():
            self.refresh_status(channel)

    # ----- reminders
    async def _reminder_loop(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.send_reminders(time.time())
            except Exception:
                log.exception("sending reminders failed")
            await asyncio.sleep(self.reminder_seconds)

    def served_channels(self) -> set[str] | None:
        """The channels of the guilds on this process's shards (None when unsharded: all of them).

        Reminders are claimed in the store for these only, so each guild is reminded by the process
        that answers its commands and holds its cache: while that process is down its guilds'
        reminders stay due (nobody would answer the pinged players) instead of another process
        claiming them. Work is not duplicated either way: each claim is atomic. Known from the guild cache (GUILD_CREATE lists a guild's channels and active threads) and
        from the commands this process answered."""
        if self.shard_plan is None:
            return None
        served = set(self._served_channels)
        for guild in self.guilds:
            if self.shard_plan.owns(guild.id):
                served.update(str(channel.id) for channel in guild.channels)
                served.update(str(thread.id) for thread in guild.threads)
        return served

    async def send_reminders(self, now: float) -> None:
        channels = self.served_channels()
        if channels is not None and not channels:
            return  # no guild on our shards (yet): claim nothing
        outputs = list(await self.service.due_reminders(now, channels=channels))
        prepared = Prepared(outputs)
        for index, output in enumerate(outputs):
            if output.kind == "message" and output.channel:
                await self._send_channel(prepared, index, output.channel)
            elif output.to:
                await self.dms.send_dm(output.to, output.text)

    # ----- errors nobody caught
    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        log.error("unhandled error in /%s", interaction.command and interaction.command.qualified_name, exc_info=error)
        await self._reply_failure(interaction, interaction.response.is_done())
        self._spawn(self.once.record_outcome(interaction), "outcome")


class ShardedTableBot(TableBot, discord.AutoShardedClient):
    """A TableBot on some of Discord's shards: one gateway connection per shard in ``shard_plan``."""

    def __init__(self, *, shard_plan: ShardPlan, **options: Any) -> None:
        super().__init__(
            shard_plan=shard_plan, shard_ids=list(shard_plan.ids), shard_count=shard_plan.count, **options
        )


def make_bot(*, shard_plan: ShardPlan | None = None, **options: Any) -> TableBot:
    """A plain one-connection TableBot, or a ShardedTableBot when a shard plan is given."""
    if shard_plan is None:
        return TableBot(**options)
    return ShardedTableBot(shard_plan=shard_plan, **options)


COMMANDS_USAGE = """python -m bot commands sync              send the slash commands now (DISCORD_GUILD_ID's guild, else global)
python -m bot commands clear-guild ID    remove this bot's slash commands from guild ID (after guild testing)"""


class CommandsClient(TableBot):
    """A TableBot that only logs in over REST to manage commands: no reminders, no sync at login."""

    async def setup_hook(self) -> None:
        self._service, self._close_service = await self._open_service()
        self.install_commands()


async def manage_commands(token: str, db_path: str, argv: Sequence[str], guild_id: int | None = None) -> int:
    """``python -m bot commands ...``: sync or clear slash commands over REST alone (no gateway), and
    record it in the store so the next start knows what Discord has."""
    action = argv[0] if argv else ""
    if action not in ("sync", "clear-guild") or (action == "clear-guild") != (len(argv) == 2) or len(argv) > 2:
        print(COMMANDS_USAGE, file=sys.stderr)
        return 2
    if action == "clear-guild" and not argv[1].isdigit():
        print(f"clear-guild: {argv[1]!r} is not a guild id (a number; Developer Mode, right-click the server, Copy ID).",
              file=sys.stderr)
        return 2
    bot = CommandsClient(db_path=db_path, guild_id=guild_id, load_renderer=False)
    try:
        await bot.login(token)  # runs CommandsClient.setup_hook
        if action == "sync":
            await bot.command_sync.sync(force=True)
            print(f"Slash commands sent ({'guild ' + str(guild_id) if guild_id is not None else 'global'}).")
        else:
            await bot.command_sync.clear_guild(int(argv[1]))
            print(f"Slash commands of guild {argv[1]} removed.")
    finally:
        await bot.close()
    return 0


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------
class StopSignals:
    """SIGINT and SIGTERM stop the bot in every phase, within a deadline, and say why if they cannot.

    discord.py's ``Client.run`` left stopping to ``asyncio.run``, which on SIGINT cancels the main
    task once. That one attempt was lost (the bot then ran on for good) when SIGINT was inherited
    ignored, as by any background job of a non-interactive shell (``pytest ... &``; asyncio.run then
    installs no handler at all), and when it came as the gateway handshake completed (Python 3.11's
    ``asyncio.wait_for`` in ``Client.connect`` then returns the result and drops the cancellation);
    SIGTERM (``systemctl stop``) was not handled at all. Here ``install()`` makes both signals record
    a stop request from before the event loop starts, ``serve`` then takes them in the loop and
    keeps cancelling the client until it ends, and the first request arms a watchdog: after
    ``deadline`` seconds, or at a second signal, every thread's stack is written to stderr and the
    process exits with status 1 (an open SQLite thread or a drawing in progress would otherwise
    keep it alive).
    """

    def __init__(self, deadline: float | None = None) -> None:
        self.deadline = float(os.environ.get("WARGAME_STOP_SECONDS", STOP_SECONDS)) if deadline is None else deadline
        self.requested = threading.Event()
        self.on_request: Callable[[], None] | None = None  # serve(): wake the event loop
        self._watchdog: threading.Timer | None = None

    def install(self) -> None:
        """From now on SIGINT and SIGTERM ask for a stop (whatever their inherited disposition)."""
        for signum in STOP_SIGNALS:
            signal.signal(signum, self._handle)

    def _handle(self, signum: int, frame: object) -> None:
        self.request(signum)

    def request(self, signum: int) -> None:
        name = signal.Signals(signum).name
        if self.requested.is_set():
            force_exit(f"{name} again while stopping")
        self.requested.set()
        log.info("%s: stopping (at most %g s)", name, self.deadline)
        self.arm()
        if self.on_request is not None:
            self.on_request()

    def arm(self) -> None:
        """Start the deadline (once)."""
        if self._watchdog is None:
            reason = f"still running {self.deadline:g} s after the stop began"
            self._watchdog = threading.Timer(self.deadline, force_exit, args=(reason,))
            self._watchdog.daemon = True
            self._watchdog.start()


def force_exit(reason: str) -> None:
    """End the process now with status 1, after writing every thread's stack to stderr."""
    with contextlib.suppress(OSError):
        os.write(2, f"\n{reason}: exiting with status 1. Every thread's stack:\n".encode())
        faulthandler.dump_traceback(file=2, all_threads=True)
    os._exit(1)


async def serve(bot: TableBot, token: str, stopper: StopSignals) -> None:
    """Run the client until it ends or a stop is requested, then close everything (see StopSignals)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()

    def wake() -> None:
        loop.call_soon_threadsafe(stop.set)

    stopper.on_request = wake
    for signum in STOP_SIGNALS:
        # In the loop: a signal wakes it at once (wakeup fd) and the handler runs between callbacks.
        loop.add_signal_handler(signum, stopper.request, signum)
    client: asyncio.Task[None] | None = None
    try:
        if not stopper.requested.is_set():  # not asked to stop while starting
            client = asyncio.create_task(bot.start(token), name="discord-client")
            stopping = asyncio.create_task(stop.wait(), name="stop-request")
            await asyncio.wait({client, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
        stopper.arm()  # from here on the stop is bounded, whatever ended the client
        await _shut_down(bot, client, grace=stopper.deadline * 2 / 3)
    finally:
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)
        stopper.on_request = None
        stopper.requested.set()  # a signal while the loop and threads wind down: exit at once
        stopper.install()
    error = client.exception() if client is not None and client.done() and not client.cancelled() else None
    if error is not None:
        raise error  # e.g. a refused token: the process exits with the error
    if bot.once.lost is not None:
        raise LeaseLost(bot.once.lost)


async def _shut_down(bot: TableBot, client: asyncio.Task[None] | None, grace: float) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + grace
    # The client may be logging in, in setup_hook, in the gateway handshake or polling: cancel it,
    # and again while it runs on (a cancellation can be dropped, see StopSignals).
    while client is not None and not client.done() and loop.time() < end:
        client.cancel()
        await asyncio.wait({client}, timeout=0.25)
    if client is not None and not client.done():
        log.error("the Discord client did not stop within %g s; closing anyway", grace)
    try:
        async with asyncio.timeout(max(end - loop.time(), 0.5)):
            await bot.close()
    except TimeoutError:
        log.error("closing took longer than %g s; the store is closed anyway", grace)
    if bot.once.stopping is not None:  # the close a lost lease began may still be closing the store
        await asyncio.wait({bot.once.stopping}, timeout=max(end - loop.time(), 0.5))
    await bot.release()  # no-op unless close() was cut short


def draw_workers_from_env(environ: dict[str, str] | None = None) -> int:
    """WARGAME_DRAW_WORKERS: boards are drawn in this many worker processes, by default one per
    core, so the bot's own process spends its core on orders (benchmarks/e2e.py, 100 games on two
    cores: more orders a second and a lower median than one drawing thread); 0 draws in one thread
    of the bot's process (less memory, and less CPU in all on a one-core machine)."""
    raw = (os.environ if environ is None else environ).get("WARGAME_DRAW_WORKERS", "").strip()
    if raw.isdigit():
        return int(raw)
    if raw:
        log.warning("WARGAME_DRAW_WORKERS=%r is not a whole number: drawing in one process per core", raw)
    return os.cpu_count() or 1


def run_discord(
    token: str,
    *,
    db_path: str | Path,
    guild_id: int | str | None = None,
    stop: StopSignals | None = None,
    shards: ShardPlan | str | None = "env",
) -> None:
    """Run the bot until SIGINT or SIGTERM (blocking); see StopSignals for how it stops.

    ``stop``: the StopSignals installed since the start-up began (a stop requested meanwhile means
    the bot does not connect at all). ``DISCORD_GUILD_ID`` syncs commands to one server at once;
    ``WARGAME_STOP_SECONDS`` bounds a stop. ``kill -USR1 <pid>`` writes every thread's stack to
    stderr (the log) without stopping the bot. ``shards``: a ShardPlan, None (unsharded), or
    "env" to read WARGAME_SHARDS / WARGAME_SHARD_COUNT (ShardConfigError if they are unusable).
    """
    plan = shards_from_env() if isinstance(shards, str) else shards
    stopper = stop or StopSignals()
    stopper.install()
    if hasattr(signal, "SIGUSR1"):
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    guild = guild_id if guild_id not in (None, "") else os.environ.get("DISCORD_GUILD_ID") or None
    reminder_seconds = float(os.environ.get("REMINDER_CHECK_SECONDS", "60"))
    discord.utils.setup_logging(level=logging.INFO, root=True)  # our own "bot.*" logs go to discord.py's handler
    bot = make_bot(
        shard_plan=plan,
        db_path=str(db_path),
        guild_id=int(guild) if guild is not None else None,
        reminder_seconds=reminder_seconds,
        draw_workers=draw_workers_from_env(),
        lease_seconds=lease_seconds(),
    )
    if plan is not None:
        log.info("connecting shards %s of %d", ",".join(map(str, plan.ids)), plan.count)
    asyncio.run(serve(bot, token, stopper))
