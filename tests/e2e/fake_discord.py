"""A small fake Discord (REST + gateway) on 127.0.0.1 for end-to-end tests of the real discord.py client.

It answers what discord.py 2.7 asks for (the REST routes and gateway events it uses), records every request,
and enforces the platform limits production would: the 3-second first response, one initial response
per interaction, 25 autocomplete choices, 2,000 characters per message, the embed limits, attachment
size and count (10), the component limits (5 rows, 5 buttons or one menu a row, custom ids of 100
characters unique in the message, labels of 80, 25 menu options), and closed DMs (403 / 50007).
Every request body is checked against Discord's API spec (``tests/e2e/discord_spec``) and refused
with 400 / 50035 when it does not fit, and every answer of the fake against the spec's response
schema. Every breach is kept in ``violations`` so a test can assert none happened even when the bot
swallowed the HTTP error (``serving()`` in conftest does, for every e2e test).

``rate_limit`` makes it answer chosen requests with 429 as Discord does (per route, or global).

Tests act as Discord users with ``slash``, ``autocomplete`` and ``click``, then wait (always with a
timeout) on what the bot sent back.

Sharding as Discord does it: IDENTIFY may carry ``shard: [id, count]``; a connection is sent READY
and GUILD_CREATE for the guilds it owns (``(guild_id >> 22) % count == id``) and only those guilds'
events. Every session identified for a shard gets that shard's events (Discord does not pick one):
two processes on the same shard, e.g. both unsharded during a deploy overlap, both receive every
interaction, and only the bot itself can make sure one of them answers. A shard id
outside 0..count-1 is closed with 4010 (Invalid shard), a shard holding more guilds than
``guilds_per_shard`` with 4011 (Sharding required). ``GET /gateway/bot`` recommends ``shard_count``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yarl
from aiohttp import WSMsgType, web

from bot.discord_app import DEFERRED_NOTE
from tests.e2e.discord_spec.validate import discord_spec

API = "/api/v10"
NONCE_SECONDS = 300.0  # "the past few minutes" in which Discord checks an enforced nonce for uniqueness
EPHEMERAL = 64
LOADING = 128
DEFAULT_FILE_LIMIT = 10 * 1024 * 1024
FIRST_RESPONSE_SECONDS = 3.0
TOKEN_LIFETIME_SECONDS = 15 * 60
MANAGE_GUILD = 1 << 5
MAX_ROWS = 5  # action rows in a message (without the components-v2 flag)
MAX_ROW_ITEMS = 5  # buttons in one action row; a select menu fills a row by itself
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_ATTACHMENTS = 10
COMPONENTS_V2 = 1 << 15
INTERACTION_ROUTES = ("/interactions/", "/webhooks/")
MEMBER_PERMISSIONS = (
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
)  # view, send, embed, attach, history, use app cmds
_ids = itertools.count(1_300_000_000_000_000_000)


def snowflake() -> str:
    return str(next(_ids))


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00", time.gmtime())


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py compares the content type for equality: no charset suffix. Discord's answers come
    # through Google's front end with "Via: 1.1 google"; discord.py treats a 429 without it as a
    # Cloudflare ban and gives up instead of waiting.
    return web.Response(
        status=status,
        body=json.dumps(data).encode(),
        headers={"Content-Type": "application/json", "Via": "1.1 google", **(headers or {})},
    )


def no_content() -> web.Response:
    return web.Response(status=204, headers={"Via": "1.1 google"})


def discord_error(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> web.Response:
    data: dict[str, Any] = {"code": code, "message": message}
    if errors:
        data["errors"] = errors
    return json_response(data, status)


def form_errors(problems: list[str]) -> dict[str, Any]:
    """Discord's ``errors`` object for a 50035 Invalid Form Body, one list for the whole form (the
    spec's InnerErrors; it types each code as an integer)."""
    return {"_errors": [{"code": 50035, "message": p} for p in problems]}


def with_ids(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Components as Discord stores them: each numbered (``id``, 1 up, in order) unless the sender set one."""
    numbers = itertools.count(1)

    def number(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for item in items:
            copy = {**item, "id": item.get("id") or next(numbers)}
            if "components" in item:
                copy["components"] = number(item["components"])
            out.append(copy)
        return out

    return number(components)


def component_problems(rows: list[dict[str, Any]], flags: int = 0) -> list[str]:
    """Discord's limits on a message's buttons and menus (``components``): at most 5 action rows
    (without the components-v2 flag), 5 buttons or one select menu a row, custom ids of at most 100
    characters and unique in the message, button labels of at most 80, 25 options a menu."""
    problems: list[str] = []
    if not flags & COMPONENTS_V2 and len(rows) > MAX_ROWS:
        problems.append(f"{len(rows)} action rows (limit {MAX_ROWS})")
    seen: set[str] = set()

    def check(item: dict[str, Any], where: str) -> None:
        custom_id = item.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
                problems.append(f"{where}: custom_id of {len(custom_id)} characters (1-{MAX_CUSTOM_ID})")
            if custom_id in seen:
                problems.append(f"{where}: custom_id {custom_id!r} used twice in one message")
            seen.add(custom_id)
        if item.get("type") == 2 and len(item.get("label") or "") > MAX_BUTTON_LABEL:
            problems.append(f"{where}: button label of {len(item['label'])} characters (limit {MAX_BUTTON_LABEL})")
        if item.get("type") == 3 and len(item.get("options") or []) > MAX_SELECT_OPTIONS:
            problems.append(f"{where}: select menu with {len(item['options'])} options (limit {MAX_SELECT_OPTIONS})")

    for r, row in enumerate(rows):
        items = row.get("components") or [] if row.get("type") == 1 else [row]
        if row.get("type") == 1:
            menus = sum(1 for i in items if i.get("type") in (3, 5, 6, 7, 8))
            if len(items) > MAX_ROW_ITEMS or (menus and len(items) > 1):
                problems.append(f"row {r + 1}: {len(items)} components (5 buttons, or one select menu, a row)")
        for i, item in enumerate(items):
            check(item, f"row {r + 1} item {i + 1}")
    return problems


@dataclass
class RateLimit:
    """Answer matching requests with 429 ``times`` times (see ``FakeDiscord.rate_limit``)."""

    route: re.Pattern[str]
    method: str | None
    times: int
    retry_after: float
    is_global: bool

    def matches(self, method: str, path: str) -> bool:
        if self.times <= 0 or (self.method is not None and self.method != method):
            return False
        if self.is_global and path.startswith(INTERACTION_ROUTES):
            return False  # interaction endpoints are not bound to the global rate limit
        return bool(self.route.search(path))


@dataclass
class Drop:
    """Hang up on matching requests ``times`` times (see ``FakeDiscord.drop_answers``); ``only``:
    only requests whose body it accepts."""

    route: re.Pattern[str]
    method: str
    times: int
    only: Callable[[Any], bool] | None = None

    def matches(self, method: str, path: str, body: Any) -> bool:
        return (self.times > 0 and self.method == method and bool(self.route.search(path))
                and (self.only is None or self.only(body)))


@dataclass
class FakeUser:
    id: str
    name: str
    dms_open: bool = True
    manage_guild: bool = False
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "bot": self.bot,
            "primary_guild": None,
        }

    def own_payload(self) -> dict[str, Any]:
        """What ``GET /users/@me`` shows the user themself (Discord's UserPIIResponse)."""
        return {**self.payload(), "mfa_enabled": False, "locale": "en-US"}

    def member_payload(self, *, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.payload(),
            "nick": None,
            "avatar": None,
            "roles": [],
            "joined_at": now_iso(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(MEMBER_PERMISSIONS | (MANAGE_GUILD if self.manage_guild else 0))
        return data

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Attachment:
    filename: str
    data: bytes
    content_type: str = "application/octet-stream"


@dataclass
class FakeMessage:
    id: str
    channel_id: str
    content: str
    author_id: str
    flags: int = 0
    embeds: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    interaction_id: str | None = None  # set when posted as an interaction response or follow-up
    pinned: bool = False
    deleted: bool = False
    edits: int = 0
    created: float = field(default_factory=time.monotonic)
    nonce: str | None = None  # as the creator sent it (Create Message)
    interaction_metadata: dict[str, Any] | None = None  # a message posted for an interaction

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def has_image(self) -> bool:
        return any(a.filename.endswith((".png", ".gif")) for a in self.attachments)

    def text(self) -> str:
        """Content plus embed titles/descriptions/fields: everything a reader sees as text."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
        return "\n".join(p for p in parts if p)

    def custom_ids(self) -> list[str]:
        found: list[str] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                if "custom_id" in item:
                    found.append(item["custom_id"])
                walk(item.get("components", []))

        walk(self.components)
        return found

    def payload(self, author: dict[str, Any], guild_id: str | None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "channel_id": self.channel_id,
            "author": author,
            "content": self.content,
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(i + int(self.id) % 1000),
                    "filename": a.filename,
                    "size": len(a.data),
                    "url": f"https://cdn.invalid/{self.id}/{a.filename}",
                    "proxy_url": f"https://cdn.invalid/{self.id}/{a.filename}",
                    "content_type": a.content_type,
                }
                for i, a in enumerate(self.attachments)
            ],
            "embeds": self.embeds,
            "pinned": self.pinned,
            "type": 0,
            "flags": self.flags,
            "components": self.components,
        }
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if guild_id is not None:
            data["guild_id"] = guild_id
        return data


def component(message: FakeMessage, custom_id: str) -> dict[str, Any] | None:
    """The button or select menu with ``custom_id`` on ``message``, as the message stores it."""

    def walk(items: list[dict[str, Any]]) -> dict[str, Any] | None:
        for item in items:
            if item.get("custom_id") == custom_id:
                return item
            found = walk(item.get("components", []))
            if found is not None:
                return found
        return None

    return walk(message.components)


@dataclass
class FakeInteraction:
    id: str
    token: str
    type: int
    user: FakeUser
    channel_id: str
    data: dict[str, Any]
    created: float
    file_limit: int = DEFAULT_FILE_LIMIT
    response_type: int | None = None
    responded_at: float | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    image_at: float | None = None  # when a board image first arrived for this interaction (body read)
    image_request_at: float | None = None  # when the request carrying that image reached the fake

    @property
    def image_latency(self) -> float | None:
        """From INTERACTION_CREATE to the reply carrying an image (what the benchmark measures)."""
        return None if self.image_at is None else self.image_at - self.created

    @property
    def latency(self) -> float | None:
        return None if self.responded_at is None else self.responded_at - self.created

    def messages(self) -> list[FakeMessage]:
        found = [self.original] if self.original is not None else []
        return [m for m in found + self.followups if not m.deleted]

    def settled(self) -> bool:
        """Answered with content: a reply, or a deferral whose original was since edited or deleted."""
        if self.response_type is None:
            return False
        if self.response_type in (4, 7, 8):
            return True
        if self.original is None or self.original.deleted or self.followups:
            return True
        if self.original.loading:
            return False
        # The bot turns a private placeholder into this note *before* it posts the public answer
        # (Discord would give the first follow-up the placeholder's visibility): not settled until
        # that answer arrives, or a test reading ``public()`` in between sees nothing.
        return self.original.content != DEFERRED_NOTE

    def text(self) -> str:
        return "\n".join(m.text() for m in self.messages())

    def public(self) -> list[FakeMessage]:
        return [m for m in self.messages() if not m.ephemeral and not m.loading]

    def ephemeral(self) -> list[FakeMessage]:
        return [m for m in self.messages() if m.ephemeral and not m.loading]


@dataclass
class Recorded:
    method: str
    path: str
    status: int
    at: float
    body: Any = None
    files: list[str] = field(default_factory=list)


class FakeDiscord:
    """REST + gateway; one guild; users, channels and DMs as plain objects tests can inspect."""

    def __init__(
        self,
        *,
        bot_can_pin: bool = True,
        first_response_seconds: float = FIRST_RESPONSE_SECONDS,
        attachment_limit: int = DEFAULT_FILE_LIMIT,
        shard_count: int = 1,
        guilds_per_shard: int | None = None,
    ) -> None:
        self.shard_count = shard_count  # what GET /gateway/bot recommends
        self.guilds_per_shard = guilds_per_shard  # more on one connection: close 4011
        self.first_response_seconds = first_response_seconds
        self.attachment_limit = attachment_limit
        self.app_id = snowflake()
        self.token = "fake-token"  # the bot token it accepts: any other is refused with 401, as Discord does
        self.bot_user = FakeUser(snowflake(), "Wargame Table", bot=True)
        self.guild_id = snowflake()
        self.guilds: dict[str, str] = {self.guild_id: "Wargames"}  # id -> name; the first is the default guild
        self.owner = FakeUser(snowflake(), "owner", manage_guild=True)
        self.users: dict[str, FakeUser] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.channels: dict[str, dict[str, Any]] = {}
        self.dm_channels: dict[str, str] = {}  # channel id -> recipient id
        self.messages: dict[str, FakeMessage] = {}
        self.interactions: dict[str, FakeInteraction] = {}
        self.by_token: dict[str, FakeInteraction] = {}
        self.commands: dict[str | None, list[dict[str, Any]]] = {}  # guild id (None = global) -> definitions
        self.requests: list[Recorded] = []
        self.violations: list[str] = []
        self.violations_expected = False  # set by tests that break limits on purpose (serving() checks)
        self.spec = discord_spec()
        self.validated: list[tuple[str, str, int]] = []  # (method, spec path, status) checked against the spec
        self.rate_limits: list[RateLimit] = []
        self.bot_can_pin = bot_can_pin
        self.bot_can_start_threads = True  # Create Public Threads in the guild's channels
        self.sessions: set[str] = set()
        self.resumed = 0
        self.sockets: list[web.WebSocketResponse] = []
        self.identified = asyncio.Event()
        self.changed = asyncio.Condition()
        self.on_request: Callable[[Recorded], None] | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._socket_seqs: dict[int, itertools.count[int]] = {}
        self._socket_shards: dict[int, tuple[int, int]] = {}  # id(ws) -> (shard id, count) once identified
        self._session_shards: dict[str, tuple[int, int]] = {}  # a resumed session keeps its shard
        self.identifies: list[list[int] | None] = []  # the shard array of every IDENTIFY
        self.closed_with: list[int] = []  # close codes the gateway sent
        self.undelivered: list[tuple[str, str]] = []  # (event, guild) no connected shard owned
        self.deliveries: list[tuple[str, int]] = []  # (event, how many sessions it went to)
        self.drops: list[Drop] = []  # requests carried out whose answer is lost: the connection drops
        self.dropped: list[Recorded] = []
        self.losses: list[Drop] = []  # requests lost on the way: the connection drops before Discord has them
        self.lost: list[Recorded] = []
        self.add_channel("general")

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self.gateway)
        app.router.add_route("*", API + "/{tail:.*}", self.rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        for ws in list(self.sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> yarl.URL:
        return yarl.URL(f"ws://127.0.0.1:{self.port}/")

    # ------------------------------------------------------------------ test-side setup
    def add_user(self, name: str, *, dms_open: bool = True, manage_guild: bool = False) -> FakeUser:
        user = FakeUser(snowflake(), name, dms_open=dms_open, manage_guild=manage_guild)
        self.users[user.id] = user
        return user

    def set_dms(self, user: FakeUser, *, open: bool) -> None:
        """The user opens or closes their DMs from the server (their privacy setting changes)."""
        self.users[user.id].dms_open = open

    def add_guild(self, name: str, *, shard: int | None = None, of: int | None = None) -> str:
        """A new guild (before the bot connects: it is announced at IDENTIFY); with ``shard``, its id
        is chosen so that Discord's formula puts it on that shard of ``of`` (default shard_count)."""
        count = of or self.shard_count
        stamp = (int(snowflake()) >> 22) + 1
        while shard is not None and stamp % count != shard:
            stamp += 1
        guild_id = str((stamp << 22) | (len(self.guilds) & 0x3FFFFF))
        while guild_id in self.guilds:  # two guilds in one millisecond
            stamp += count
            guild_id = str((stamp << 22) | (len(self.guilds) & 0x3FFFFF))
        self.guilds[guild_id] = name
        return guild_id

    @staticmethod
    def shard_of(guild_id: str, count: int) -> int:
        return (int(guild_id) >> 22) % count

    def add_channel(self, name: str, *, guild: str | None = None) -> str:
        channel_id = snowflake()
        self.channels[channel_id] = {
            "id": channel_id,
            "type": 0,
            "guild_id": guild or self.guild_id,
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        return channel_id

    @property
    def general(self) -> str:
        return next(iter(self.channels))

    # ------------------------------------------------------------------ gateway
    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets.append(ws)
        seq = itertools.count(1)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == 2:
                    shard = data["d"].get("shard")
                    self.identifies.append(shard)
                    shard_id, count = (0, 1) if shard is None else (shard[0], shard[1])
                    if not (isinstance(shard_id, int) and isinstance(count, int) and 0 <= shard_id < count):
                        self.closed_with.append(4010)
                        await ws.close(code=4010, message=b"Invalid shard.")
                        break
                    owned = [g for g in self.guilds if self.shard_of(g, count) == shard_id]
                    if self.guilds_per_shard is not None and len(owned) > self.guilds_per_shard:
                        self.closed_with.append(4011)
                        await ws.close(code=4011, message=b"Sharding required.")
                        break
                    self._socket_shards[id(ws)] = (shard_id, count)
                    session = snowflake()
                    self.sessions.add(session)
                    self._session_shards[session] = (shard_id, count)
                    ready = {
                        "v": 10,
                        "user": self.bot_user.payload(),
                        "guilds": [{"id": g, "unavailable": True} for g in owned],
                        "session_id": session,
                        "resume_gateway_url": str(self.gateway_url),
                        "application": {"id": self.app_id, "flags": 0},
                        "private_channels": [],
                        "relationships": [],
                    }
                    if shard is not None:
                        ready["shard"] = [shard_id, count]
                    await self._dispatch(ws, seq, "READY", ready)
                    for guild in owned:
                        await self._dispatch(ws, seq, "GUILD_CREATE", self.guild_payload(guild))
                    self.identified.set()
                    async with self.changed:
                        self.changed.notify_all()
                elif op == 6:
                    if data["d"].get("session_id") in self.sessions:
                        self._socket_shards[id(ws)] = self._session_shards[data["d"]["session_id"]]
                        self.resumed += 1
                        await self._dispatch(ws, seq, "RESUMED", {})
                        async with self.changed:
                            self.changed.notify_all()
                    else:
                        await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
        finally:
            if ws in self.sockets:
                self.sockets.remove(ws)
            self._socket_seqs.pop(id(ws), None)
            self._socket_shards.pop(id(ws), None)
        return ws

    async def _dispatch(self, ws: web.WebSocketResponse, seq: itertools.count[int], event: str, data: Any) -> None:
        self._socket_seqs[id(ws)] = seq
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": next(seq), "d": data}))

    def sockets_for(self, guild_id: str | None) -> list[web.WebSocketResponse]:
        """Every identified, open connection whose shard owns the guild (shard 0 without a guild, as
        Discord sends DMs), in connection order. Discord delivers a shard's events to every session
        identified for that shard: two processes both on "shard 0 of 1" both get every event."""
        found = []
        for ws in self.sockets:
            shard = self._socket_shards.get(id(ws))
            if shard is None or ws.closed:
                continue
            if (self.shard_of(guild_id, shard[1]) if guild_id is not None else 0) == shard[0]:
                found.append(ws)
        return found

    def connected_shards(self) -> list[tuple[int, int]]:
        return [s for ws in self.sockets if (s := self._socket_shards.get(id(ws))) is not None]

    async def dispatch(self, event: str, data: Any, *, guild: str | None = None) -> None:
        """Send an event to every session of the shard holding ``guild`` (shard 0 without a guild);
        when no connected shard owns it, it is not delivered, as on Discord, and noted in
        ``undelivered``. ``deliveries`` counts the sessions each event went to."""
        if not self.sockets:
            raise RuntimeError("no bot is connected to the fake gateway")
        owners = self.sockets_for(guild)
        self.deliveries.append((event, len(owners)))
        if not owners:
            self.undelivered.append((event, guild or ""))
            return
        for ws in owners:
            seq = self._socket_seqs.setdefault(id(ws), itertools.count(1))
            try:
                await ws.send_str(json.dumps({"op": 0, "t": event, "s": next(seq), "d": data}))
            except (ConnectionError, RuntimeError):  # closing as we sent: that session is gone, as on Discord
                continue

    async def ask_to_reconnect(self) -> None:
        """Op 7 RECONNECT, as Discord sends now and then: the client must resume its session."""
        if not self.sockets:
            raise RuntimeError("no bot is connected to the fake gateway")
        await self.sockets[-1].send_str(json.dumps({"op": 7, "d": None, "s": None, "t": None}))

    def guild_payload(self, guild_id: str | None = None) -> dict[str, Any]:
        everyone = MEMBER_PERMISSIONS | ((1 << 13) if self.bot_can_pin else 0)  # manage messages lets it pin
        guild_id = guild_id or self.guild_id
        return {
            "id": guild_id,
            "name": self.guilds[guild_id],
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": self.owner.id,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": guild_id,
                    "name": "@everyone",
                    "permissions": str(everyone),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "joined_at": now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.users),
            "members": [self.bot_user.member_payload()],
            "channels": [c for c in self.channels.values() if c["guild_id"] == guild_id],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ------------------------------------------------------------------ REST
    def rate_limit(
        self,
        route: str = "",
        *,
        method: str | None = None,
        times: int = 1,
        retry_after: float = 0.25,
        is_global: bool = False,
    ) -> RateLimit:
        """Answer the next ``times`` requests whose path (under /api/v10) matches the regex ``route``
        (and ``method``, if given) with 429 and ``retry_after``, as Discord does. ``is_global``: the
        bot's global limit, which interaction callbacks and webhook follow-ups are not bound by."""
        limit = RateLimit(re.compile(route), method, times, retry_after, is_global)
        self.rate_limits.append(limit)
        return limit

    def drop_answers(
        self, method: str, route: str, times: int = 1, only: Callable[[Any], bool] | None = None
    ) -> None:
        """The next ``times`` matching requests (whose body ``only`` accepts, if given) are carried
        out (a message is created) but the connection closes before the answer, as a connection
        lost under load does: the client cannot tell whether its request landed."""
        self.drops.append(Drop(re.compile(route), method, times, only))

    def lose_requests(
        self, method: str, route: str, times: int = 1, only: Callable[[Any], bool] | None = None
    ) -> None:
        """As ``drop_answers``, but the requests are not carried out: the connection closes once
        the request was sent, before Discord has it. The client cannot tell the two apart."""
        self.losses.append(Drop(re.compile(route), method, times, only))

    @staticmethod
    def _hang_up(request: web.Request) -> None:
        assert request.transport is not None
        request.transport.close()
        raise ConnectionResetError("fake Discord dropped the connection before answering")

    def _rate_limited(self, method: str, path: str) -> web.Response | None:
        limit = next((r for r in self.rate_limits if r.matches(method, path)), None)
        if limit is None:
            return None
        limit.times -= 1
        headers = {
            "Retry-After": str(math.ceil(limit.retry_after)),
            "X-RateLimit-Scope": "global" if limit.is_global else "user",
        }
        if limit.is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers |= {
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + limit.retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{limit.retry_after:.3f}",
                "X-RateLimit-Bucket": f"fake-{limit.route.pattern or 'all'}",
            }
        body = {
            "message": "You are being rate limited.",
            "retry_after": limit.retry_after,
            "global": limit.is_global,
            "code": 0,
        }
        return json_response(body, 429, headers)

    async def rest(self, request: web.Request) -> web.StreamResponse:
        arrived = time.monotonic()
        path = "/" + request.match_info["tail"]
        body, files, fields = await self._read_body(request)
        loss = next((d for d in self.losses if d.matches(request.method, path, body)), None)
        if loss is not None:
            loss.times -= 1
            self.lost.append(Recorded(request.method, path, 0, time.monotonic(), body, [a.filename for a in files]))
            self._hang_up(request)
        if any(a.filename.endswith(".png") for a in files):
            self._note_image(path, arrived)
        response = self._rate_limited(request.method, path)
        authorization = request.headers.get("Authorization")
        if response is None and authorization is not None and authorization != f"Bot {self.token}":
            response = json_response({"message": "401: Unauthorized", "code": 0}, 401)
        elif response is None:
            problems = self.spec.check_request(request.method, path, request.content_type, body, fields)
            if problems:
                self.violations += [f"spec: {p}" for p in problems]
                response = discord_error(400, 50035, "Invalid Form Body", form_errors(problems))
            else:
                response = await self._route(request.method, path, request.query, body, files)
        self._check_response(request.method, path, response)
        record = Recorded(request.method, path, response.status, time.monotonic(), body, [a.filename for a in files])
        self.requests.append(record)
        if self.on_request is not None:
            self.on_request(record)
        async with self.changed:
            self.changed.notify_all()
        drop = next((d for d in self.drops if d.matches(request.method, path, body)), None)
        if drop is not None:
            drop.times -= 1
            self.dropped.append(record)
            self._hang_up(request)  # done, but the answer never reaches the client
        return response

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Attachment], list[str]]:
        """The JSON body (or a multipart form's ``payload_json``), the files, and the files' form field names."""
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            payload: Any = None
            files: list[Attachment] = []
            fields: list[str] = []
            while (part := await reader.next()) is not None:
                if part.name == "payload_json":  # type: ignore[union-attr]
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    data = await part.read()  # type: ignore[union-attr]
                    fields.append(part.name or "")  # type: ignore[union-attr]
                    files.append(
                        Attachment(part.filename or "file", bytes(data), part.headers.get("Content-Type", ""))  # type: ignore[union-attr]
                    )
            return payload, files, fields
        raw = await request.read()
        return (json.loads(raw) if raw else None), [], []

    def _check_response(self, method: str, path: str, response: web.Response) -> None:
        """Hold the fake's own answer to Discord's spec: a fake that answers differently from Discord
        would let the bot pass tests against answers it never gets."""
        raw = response.body
        body = json.loads(raw) if isinstance(raw, bytes) and raw else None
        headers = {k.lower(): v for k, v in response.headers.items()}
        problems = self.spec.check_response(method, path, response.status, body, headers)
        self.violations += [f"fake answered off-spec: {p}" for p in problems]
        op = self.spec.operation(method, path)
        if op is not None:
            self.validated.append((method, op.template, response.status))

    async def _route(self, method: str, path: str, query: Any, body: Any, files: list[Attachment]) -> web.Response:
        parts = path.strip("/").split("/")
        match (method, parts):
            case ("GET", ["users", "@me"]):
                return json_response(self.bot_user.own_payload())
            case ("GET", ["oauth2", "applications", "@me"]):
                return json_response(self.application_payload())
            case ("GET", ["gateway"]) | ("GET", ["gateway", "bot"]):
                return json_response(
                    {
                        "url": str(self.gateway_url),
                        "shards": self.shard_count,
                        "session_start_limit": {
                            "total": 1000,
                            "remaining": 999,
                            "reset_after": 0,
                            "max_concurrency": 1,
                        },
                    }
                )
            case ("PUT", ["applications", _, "commands"]):
                return self._sync_commands(None, body)
            case ("PUT", ["applications", _, "guilds", guild, "commands"]):
                return self._sync_commands(guild, body)
            case ("GET", ["applications", _, "commands"]):
                return json_response(self.commands.get(None, []))
            case ("GET", ["applications", _, "guilds", guild, "commands"]):
                return json_response(self.commands.get(guild, []))
            case ("POST", ["interactions", ix_id, token, "callback"]):
                return self._callback(ix_id, token, body, files)
            case ("POST", ["webhooks", _, token]):
                return self._followup(token, body, files)
            case ("PATCH", ["webhooks", _, token, "messages", message_id]):
                return self._edit_webhook_message(token, message_id, body, files)
            case ("GET", ["webhooks", _, token, "messages", message_id]):
                found = self._webhook_message(token, message_id)
                if found is None:
                    return discord_error(404, 10008, "Unknown Message")
                return json_response(self.message_payload(found))
            case ("DELETE", ["webhooks", _, token, "messages", message_id]):
                found = self._webhook_message(token, message_id)
                if found is None:
                    return discord_error(404, 10008, "Unknown Message")
                found.deleted = True
                return no_content()
            case ("POST", ["users", "@me", "channels"]):
                return self._open_dm(str(body["recipient_id"]))
            case ("POST", ["channels", channel_id, "messages"]):
                return self._channel_message(channel_id, body, files)
            case ("GET", ["channels", channel_id, "messages"]):
                return self._read_channel(channel_id, query)
            case ("PATCH", ["channels", channel_id, "messages", message_id]):
                message = self.messages.get(message_id)
                if message is None or message.channel_id != channel_id or message.deleted:
                    return discord_error(404, 10008, "Unknown Message")
                error = self._apply_edit(message, body, files, self.attachment_limit)
                return error or json_response(self.message_payload(message))
            case ("PUT", ["channels", channel_id, "messages", "pins", message_id]) | (
                "PUT",
                ["channels", channel_id, "pins", message_id],
            ):
                if not self.bot_can_pin:
                    return discord_error(403, 50013, "Missing Permissions")
                message = self.messages.get(message_id)
                if message is None or message.channel_id != channel_id:
                    return discord_error(404, 10008, "Unknown Message")
                message.pinned = True
                return no_content()
            case ("POST", ["channels", channel_id, "threads"]):
                return self._start_thread(channel_id, body)
            case ("GET", ["channels", channel_id]):
                if channel_id in self.channels:
                    return json_response(self.channels[channel_id])
                return discord_error(404, 10003, "Unknown Channel")
        self.violations.append(f"unhandled route {method} {path}")
        return discord_error(404, 0, f"fake Discord has no route {method} {path}")

    def _note_image(self, path: str, arrived: float) -> None:
        parts = path.strip("/").split("/")
        ix = None
        if parts[:1] == ["interactions"] and len(parts) > 2:
            ix = self._interaction_for(parts[1], parts[2])
        elif parts[:1] == ["webhooks"] and len(parts) > 2:
            ix = self.by_token.get(parts[2])
        if ix is not None and ix.image_at is None:
            ix.image_at = time.monotonic()
            ix.image_request_at = arrived

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": self.app_id,
            "name": "Wargame Table",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "flags_new": "0",
            "type": None,
            "bot": self.bot_user.payload(),
            "rpc_origins": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(self.guilds),
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": [],
            "team": None,
        }

    # ----- commands
    def _sync_commands(self, guild: str | None, body: Any) -> web.Response:
        problems: list[str] = []
        if not isinstance(body, list) or len(body) > 100:
            problems.append("at most 100 commands")
        stored = []
        for command in body or []:
            self._check_command(command, problems, depth=0)
            stored.append(self._command_response(command, guild))
        if problems:
            self.violations += [f"command definition: {p}" for p in problems]
            return discord_error(400, 50035, "Invalid Form Body: " + "; ".join(problems))
        self.commands[guild] = stored
        return json_response(stored)

    def _command_response(self, command: dict[str, Any], guild: str | None) -> dict[str, Any]:
        """The definition as Discord echoes it: with id, version and its defaults filled in."""
        stored = {
            **command,
            "id": snowflake(),
            "application_id": self.app_id,
            "version": snowflake(),
            "type": command.get("type") or 1,
            "default_member_permissions": command.get("default_member_permissions"),
            "integration_types": command.get("integration_types") or [0],
            "nsfw": bool(command.get("nsfw")),
        }
        if guild is not None:
            stored["guild_id"] = guild
        return stored

    def _check_command(self, command: dict[str, Any], problems: list[str], depth: int) -> None:
        import re

        name = command.get("name", "")
        if command.get("type", 1) == 1 and (not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower()):
            problems.append(f"bad name {name!r}")
        description = command.get("description", "")
        if command.get("type", 1) in (1, None) and not 1 <= len(description) <= 100:
            problems.append(f"{name}: description must be 1-100 characters")
        options = command.get("options", []) or []
        if len(options) > 25:
            problems.append(f"{name}: more than 25 options")
        for option in options:
            if len(option.get("choices", []) or []) > 25:
                problems.append(f"{name}.{option.get('name')}: more than 25 choices")
            if option.get("type") in (1, 2):
                if depth >= 2:
                    problems.append(f"{name}: nested too deep")
                self._check_command(option, problems, depth + 1)
            else:
                if not re.fullmatch(r"[-_\w]{1,32}", option.get("name", "")):
                    problems.append(f"bad option name {option.get('name')!r}")
                if not 1 <= len(option.get("description", "")) <= 100:
                    problems.append(f"{name}.{option.get('name')}: description must be 1-100 characters")

    def command_definition(self, name: str) -> dict[str, Any]:
        for guild in (self.guild_id, None):
            for command in self.commands.get(guild, []):
                if command["name"] == name:
                    return command
        raise KeyError(f"no synced command /{name}")

    # ----- interactions
    def _update_fields(self) -> set[str]:
        """The fields the spec declares for an update-message callback's data: the schema leaves
        ``additionalProperties`` open, so the fake holds the bot to the declared ones."""
        schemas = self.spec.document["components"]["schemas"]
        return set(schemas["IncomingWebhookUpdateForInteractionCallbackRequestPartial"]["properties"])

    def _interaction_for(self, ix_id: str, token: str) -> FakeInteraction | None:
        ix = self.interactions.get(ix_id)
        return ix if ix is not None and ix.token == token else None

    def _callback(self, ix_id: str, token: str, body: Any, files: list[Attachment]) -> web.Response:
        ix = self._interaction_for(ix_id, token)
        if ix is None:
            return discord_error(404, 10062, "Unknown interaction")
        now = time.monotonic()
        if ix.response_type is not None:
            # A client whose first response's answer was lost may ask again (and learn it landed)
            answer_lost = any(r.path == f"/interactions/{ix_id}/{token}/callback" for r in self.dropped)
            if not answer_lost:
                self.violations.append(f"second initial response to interaction {ix.data.get('name')}")
            return discord_error(400, 40060, "Interaction has already been acknowledged.")
        if now - ix.created > self.first_response_seconds:
            self.violations.append(f"first response after {now - ix.created:.2f}s to {ix.data.get('name')}")
            return discord_error(404, 10062, "Unknown interaction")
        kind = int(body["type"])
        data = body.get("data") or {}
        if kind == 8:
            choices = data.get("choices", [])
            bad = len(choices) > 25 or any(
                not 1 <= len(c.get("name", "")) <= 100 or len(str(c.get("value", ""))) > 100 for c in choices
            )
            if bad:
                self.violations.append(f"autocomplete answered with {len(choices)} choices (or a name/value too long)")
                return discord_error(400, 50035, "Invalid Form Body: choices")
            ix.choices = choices
        elif kind in (4, 5):
            if kind == 4:
                problem = self._check_message(data, files, ix.file_limit)
                if problem is not None:
                    return problem
            message = self._new_message(ix.channel_id, data, files if kind == 4 else [])
            message.interaction_id = ix.id
            message.interaction_metadata = self._interaction_metadata(ix)
            if kind == 5:
                message.flags |= LOADING
            ix.original = message
        elif kind in (6, 7):
            undeclared = sorted(set(data) - self._update_fields())
            if undeclared:  # Discord's spec declares no other field for an update (tts is a new message's)
                self.violations.append(f"update-message callback with undeclared fields {undeclared}")
                return discord_error(400, 50035, f"Invalid Form Body: data.{undeclared[0]} is not declared")
            if kind == 7:
                source = self.messages.get(str(ix.data.get("message_id", "")))
                if source is not None:
                    error = self._apply_edit(source, data, files, ix.file_limit)
                    if error is not None:
                        return error
        else:
            return discord_error(400, 50035, f"unsupported callback type {kind}")
        ix.response_type = kind
        ix.responded_at = now
        interaction: dict[str, Any] = {"id": ix.id, "type": ix.type}
        if ix.original is not None:
            interaction["response_message_id"] = ix.original.id
            interaction["response_message_loading"] = kind == 5
            interaction["response_message_ephemeral"] = ix.original.ephemeral
        result: dict[str, Any] = {"interaction": interaction}
        # The spec's resource is a message sent (4) or updated (7); a deferral has none yet.
        if kind == 4 and ix.original is not None:
            result["resource"] = {"type": kind, "message": self.message_payload(ix.original)}
        elif kind == 7 and (source := self.messages.get(str(ix.data.get("message_id", "")))) is not None:
            result["resource"] = {"type": kind, "message": self.message_payload(source)}
        return json_response(result)

    def _interaction_metadata(self, ix: FakeInteraction, *, follow_up: bool = False) -> dict[str, Any]:
        """What a message posted for an interaction says of it (the spec's ``interaction_metadata``):
        the interaction's id, and on a follow-up only, the original response's id."""
        guild_id = self.channels.get(ix.channel_id, {}).get("guild_id", self.guild_id)
        meta: dict[str, Any] = {"id": ix.id, "type": ix.type, "user": ix.user.payload(),
                                "authorizing_integration_owners": {"0": guild_id}}
        if ix.type == 3:
            meta["interacted_message_id"] = ix.data["message_id"]
        if follow_up and ix.original is not None:
            meta["original_response_message_id"] = ix.original.id
        return meta

    def _token_check(self, token: str) -> tuple[FakeInteraction | None, web.Response | None]:
        ix = self.by_token.get(token)
        if ix is None:
            return None, discord_error(404, 10015, "Unknown Webhook")
        if time.monotonic() - ix.created > TOKEN_LIFETIME_SECONDS:
            self.violations.append("follow-up after the 15-minute token lifetime")
            return None, discord_error(401, 50027, "Invalid Webhook Token")
        if ix.response_type is None:
            self.violations.append("follow-up before the interaction was acknowledged")
            return None, discord_error(404, 10015, "Unknown Webhook")
        return ix, None

    def _followup(self, token: str, body: Any, files: list[Attachment]) -> web.Response:
        ix, error = self._token_check(token)
        if ix is None:
            assert error is not None
            return error
        data = body or {}
        problem = self._check_message(data, files, ix.file_limit)
        if problem is not None:
            return problem
        message = self._new_message(ix.channel_id, data, files)
        message.interaction_id = ix.id
        message.interaction_metadata = self._interaction_metadata(ix, follow_up=True)
        ix.followups.append(message)
        return json_response(self.message_payload(message))

    def _webhook_message(self, token: str, message_id: str) -> FakeMessage | None:
        ix = self.by_token.get(token)
        if ix is None:
            return None
        if message_id == "@original":
            return ix.original
        return next((m for m in ix.followups if m.id == message_id), None)

    def _edit_webhook_message(self, token: str, message_id: str, body: Any, files: list[Attachment]) -> web.Response:
        ix, error = self._token_check(token)
        if ix is None:
            assert error is not None
            return error
        message = self._webhook_message(token, message_id)
        if message is None or message.deleted:
            return discord_error(404, 10008, "Unknown Message")
        error = self._apply_edit(message, body or {}, files, ix.file_limit)
        return error or json_response(self.message_payload(message))

    # ----- messages
    def _check_message(self, data: dict[str, Any], files: list[Attachment], file_limit: int) -> web.Response | None:
        content = data.get("content") or ""
        problems: list[str] = []
        if len(content) > 2000:
            problems.append(f"content has {len(content)} characters (limit 2000)")
        embeds = data.get("embeds") or []
        if len(embeds) > 10:
            problems.append("more than 10 embeds")
        total = 0
        for embed in embeds:
            title, description = embed.get("title") or "", embed.get("description") or ""
            fields = embed.get("fields") or []
            footer = (embed.get("footer") or {}).get("text") or ""
            author = (embed.get("author") or {}).get("name") or ""
            if len(title) > 256:
                problems.append("embed title over 256")
            if len(description) > 4096:
                problems.append("embed description over 4096")
            if len(fields) > 25:
                problems.append("more than 25 embed fields")
            if len(footer) > 2048:
                problems.append("embed footer over 2048")
            for f in fields:
                if len(f.get("name", "")) > 256 or len(f.get("value", "")) > 1024:
                    problems.append("embed field name over 256 or value over 1024")
            total += len(title) + len(description) + len(footer) + len(author)
            total += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in fields)
        if total > 6000:
            problems.append(f"embeds total {total} characters (limit 6000)")
        if not content and not embeds and not files and not data.get("components") and not data.get("attachments"):
            problems.append("empty message")
        if len(files) > MAX_ATTACHMENTS or len(data.get("attachments") or []) > MAX_ATTACHMENTS:
            problems.append(
                f"{max(len(files), len(data.get('attachments') or []))} attachments (limit {MAX_ATTACHMENTS})"
            )
        problems += component_problems(data.get("components") or [], int(data.get("flags") or 0))
        if problems:
            self.violations += problems
            return discord_error(400, 50035, "Invalid Form Body: " + "; ".join(problems))
        for f in files:
            if len(f.data) > file_limit:
                self.violations.append(f"file {f.filename} is {len(f.data)} bytes (limit {file_limit})")
                return discord_error(413, 40005, "Request entity too large")
        return None

    def _new_message(self, channel_id: str, data: dict[str, Any], files: list[Attachment]) -> FakeMessage:
        message = FakeMessage(
            id=snowflake(),
            channel_id=channel_id,
            content=data.get("content") or "",
            author_id=self.bot_user.id,
            flags=int(data.get("flags") or 0),
            embeds=list(data.get("embeds") or []),
            attachments=list(files),
            components=with_ids(data.get("components") or []),
        )
        self.messages[message.id] = message
        return message

    def _apply_edit(
        self, message: FakeMessage, data: dict[str, Any], files: list[Attachment], file_limit: int
    ) -> web.Response | None:
        merged = {
            "content": data.get("content", message.content),
            "embeds": data.get("embeds", message.embeds),
            "components": data.get("components", message.components),
            "attachments": data.get("attachments"),
        }
        kept = message.attachments if "attachments" not in data else []
        problem = self._check_message(merged, files + kept, file_limit)
        if problem is not None:
            return problem
        if "content" in data:
            message.content = data["content"] or ""
        if "embeds" in data:
            message.embeds = list(data["embeds"] or [])
        if "components" in data:
            message.components = with_ids(data["components"] or [])
        if "attachments" in data or files:
            message.attachments = kept + files
        message.flags &= ~LOADING
        message.edits += 1
        return None

    def message_payload(self, message: FakeMessage) -> dict[str, Any]:
        guild = (
            None
            if message.channel_id in self.dm_channels
            else self.channels.get(message.channel_id, {}).get("guild_id", self.guild_id)
        )
        return message.payload(self.bot_user.payload(), guild)

    def _read_channel(self, channel_id: str, query: Any) -> web.Response:
        """List Messages as Discord answers it: at most ``limit`` (default 50) messages before or
        after an id (those nearest it), else the newest, always newest first; ephemeral messages,
        which only their one reader sees, are in nobody's history."""
        if channel_id not in self.channels and channel_id not in self.dm_channels:
            return discord_error(404, 10003, "Unknown Channel")
        limit = int(query.get("limit", 50))
        found = sorted((m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted
                        and not m.ephemeral), key=lambda m: int(m.id))
        if "after" in query:
            found = [m for m in found if int(m.id) > int(query["after"])][:limit]
        elif "before" in query:
            found = [m for m in found if int(m.id) < int(query["before"])][-limit:]
        else:
            found = found[-limit:]
        return json_response([self.message_payload(m) for m in reversed(found)])

    def _open_dm(self, recipient_id: str) -> web.Response:
        user = self.users.get(recipient_id)
        if user is None:
            return discord_error(404, 10013, "Unknown User")
        channel_id = next((c for c, r in self.dm_channels.items() if r == recipient_id), None)
        if channel_id is None:
            channel_id = snowflake()
            self.dm_channels[channel_id] = recipient_id
        return json_response(
            {"id": channel_id, "type": 1, "flags": 0, "recipients": [user.payload()], "last_message_id": None}
        )

    def _channel_message(self, channel_id: str, body: Any, files: list[Attachment]) -> web.Response:
        recipient = self.dm_channels.get(channel_id)
        if recipient is not None and not self.users[recipient].dms_open:
            return discord_error(403, 50007, "Cannot send messages to this user")
        if recipient is None and channel_id not in self.channels:
            return discord_error(404, 10003, "Unknown Channel")
        data = body or {}
        problem = self._check_message(data, files, self.attachment_limit)
        if problem is not None:
            return problem
        nonce = None if data.get("nonce") is None else str(data["nonce"])
        if nonce is not None and data.get("enforce_nonce"):
            # Discord: a nonce enforced and already used by this author lately returns that message, no new one
            earlier = next((m for m in self.messages.values() if m.nonce == nonce and m.channel_id == channel_id
                            and m.author_id == self.bot_user.id and time.monotonic() - m.created < NONCE_SECONDS), None)
            if earlier is not None:
                return json_response(self.message_payload(earlier))
        message = self._new_message(channel_id, data, files)
        message.nonce = nonce
        return json_response(self.message_payload(message))

    # ------------------------------------------------------------------ acting as users
    def _options(
        self, definition: dict[str, Any], values: dict[str, Any], focused: str | None, resolved: dict[str, Any]
    ) -> list[dict[str, Any]]:
        declared = {o["name"]: o for o in definition.get("options", []) or []}
        options = []
        for name, value in values.items():
            if name not in declared:
                raise KeyError(f"/{definition['name']} has no option {name!r} (has {sorted(declared)})")
            kind = declared[name]["type"]
            if kind == 6:  # a user: the id as the value, the user in ``resolved``
                user = value if isinstance(value, FakeUser) else self.users[str(value)]
                resolved.setdefault("users", {})[user.id] = user.payload()
                member = user.member_payload()
                del member["user"]
                resolved.setdefault("members", {})[user.id] = member
                value = user.id
            elif kind == 5:
                value = value if isinstance(value, bool) else str(value).lower() == "true"
            elif kind == 4:
                value = int(value)
            elif kind == 10:
                value = float(value)
            else:
                value = str(value)
            option: dict[str, Any] = {"name": name, "type": kind, "value": value}
            if name == focused:
                option["focused"] = True
            options.append(option)
        missing = [o["name"] for o in declared.values() if o.get("required") and o["name"] not in values]
        if missing and focused is None:
            raise KeyError(f"/{definition['name']} needs {missing}")
        return options

    def _command_data(self, path: str, values: dict[str, Any], focused: str | None) -> dict[str, Any]:
        names = path.split()
        top = self.command_definition(names[0])
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1, "resolved": {}}
        if len(names) == 1:
            data["options"] = self._options(top, values, focused, data["resolved"])
            return data
        node = top
        holder = data
        for name in names[1:]:
            sub = next((o for o in node.get("options", []) if o["name"] == name and o["type"] in (1, 2)), None)
            if sub is None:
                raise KeyError(f"/{path}: no subcommand {name!r}")
            entry: dict[str, Any] = {"name": name, "type": sub["type"], "options": []}
            holder["options"] = [entry]
            holder, node = entry, sub
        holder["options"] = self._options(node, values, focused, data["resolved"])
        return data

    async def _send_interaction(
        self, kind: int, user: FakeUser, channel_id: str, data: dict[str, Any], *, message: FakeMessage | None = None
    ) -> FakeInteraction:
        ix = FakeInteraction(
            id=snowflake(),
            token=f"tok-{snowflake()}",
            type=kind,
            user=user,
            channel_id=channel_id,
            data=data,
            created=time.monotonic(),
            file_limit=self.attachment_limit,
        )
        self.interactions[ix.id] = ix
        self.by_token[ix.token] = ix
        guild_id = self.channels.get(channel_id, {}).get("guild_id", self.guild_id)
        payload: dict[str, Any] = {
            "id": ix.id,
            "application_id": self.app_id,
            "type": kind,
            "token": ix.token,
            "version": 1,
            "attachment_size_limit": ix.file_limit,
            "data": data,
            "guild_id": guild_id,
            "channel_id": channel_id,
            "channel": self.channels.get(channel_id, {"id": channel_id, "type": 0, "guild_id": guild_id}),
            "member": user.member_payload(with_permissions=True),
            "app_permissions": str(MEMBER_PERMISSIONS | ((1 << 13) if self.bot_can_pin else 0)),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": guild_id},
            "context": 0,
        }
        if message is not None:
            payload["message"] = self.message_payload(message)
            data["message_id"] = message.id
        await self.dispatch("INTERACTION_CREATE", payload, guild=guild_id)
        return ix

    async def slash(
        self, user: FakeUser, path: str, options: dict[str, Any] | None = None, *, channel: str | None = None
    ) -> FakeInteraction:
        """Send ``/path`` (e.g. ``"game new"``) as ``user``; returns at once (wait with ``settled``)."""
        data = self._command_data(path, options or {}, None)
        return await self._send_interaction(2, user, channel or self.general, data)

    async def autocomplete(
        self,
        user: FakeUser,
        path: str,
        options: dict[str, Any],
        focused: str,
        *,
        channel: str | None = None,
        timeout: float = 5.0,
    ) -> list[dict[str, Any]]:
        data = self._command_data(path, options, focused)
        ix = await self._send_interaction(4, user, channel or self.general, data)
        await self.wait_for(lambda: ix.choices is not None, timeout, f"autocomplete for /{path} {focused}")
        assert ix.choices is not None
        return ix.choices

    async def click(self, user: FakeUser, message: FakeMessage, custom_id: str) -> FakeInteraction:
        """Press a button that is on ``message`` (as in Discord, only buttons that exist can be pressed)."""
        if custom_id not in message.custom_ids():
            raise KeyError(f"message {message.id} has no button {custom_id!r} (has {message.custom_ids()})")
        if (component(message, custom_id) or {}).get("disabled"):
            raise KeyError(
                f"the button {custom_id!r} on message {message.id} is disabled: Discord lets nobody press it"
            )
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send_interaction(3, user, message.channel_id, data, message=message)

    async def choose(self, user: FakeUser, message: FakeMessage, custom_id: str, value: str) -> FakeInteraction:
        """Pick ``value`` in a select menu on ``message`` (as in Discord, only an offered option of an
        enabled menu)."""
        menu = component(message, custom_id)
        if menu is None or menu.get("type") != 3:
            raise KeyError(f"message {message.id} has no select menu {custom_id!r} (has {message.custom_ids()})")
        if menu.get("disabled"):
            raise KeyError(f"the menu {custom_id!r} on message {message.id} is disabled")
        offered = [o["value"] for o in menu.get("options", [])]
        if value not in offered:
            raise KeyError(f"menu {custom_id!r} offers no {value!r} (offers {offered})")
        data = {"custom_id": custom_id, "component_type": 3, "values": [value]}
        return await self._send_interaction(3, user, message.channel_id, data, message=message)

    # ----- threads: POST /channels/{id}/threads starts one without a message (a thread is a channel)
    def _start_thread(self, parent_id: str, body: Any) -> web.Response:
        parent = self.channels.get(parent_id)
        if parent is None:
            return discord_error(404, 10003, "Unknown Channel")
        if parent["type"] not in (0, 5):  # threads start from text and announcement channels only
            return discord_error(400, 50024, "Cannot execute action on this channel type")
        if not self.bot_can_start_threads:
            return discord_error(403, 50013, "Missing Permissions")
        data = body or {}
        thread_id = snowflake()
        self.channels[thread_id] = {
            "id": thread_id,
            "type": data.get("type") or 12,  # Discord's default without a message: a private thread
            "guild_id": parent["guild_id"],
            "name": data["name"],
            "parent_id": parent_id,
            "owner_id": self.bot_user.id,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "thread_metadata": {
                "archived": False,
                "archive_timestamp": now_iso(),
                "auto_archive_duration": data.get("auto_archive_duration") or 4320,
                "locked": False,
                "create_timestamp": now_iso(),
            },
        }
        return json_response(self.channels[thread_id], 201)

    def threads(self, parent_id: str | None = None) -> list[dict[str, Any]]:
        """The threads started (in ``parent_id``, or anywhere)."""
        return [c for c in self.channels.values() if c["type"] in (10, 11, 12) and parent_id in (None, c["parent_id"])]

    # ------------------------------------------------------------------ waiting and inspecting
    async def wait_for(self, predicate: Callable[[], Any], timeout: float, what: str = "condition") -> Any:
        """Wait until ``predicate()`` is truthy; fail the test with ``what`` after ``timeout`` seconds."""
        # One timeout around the whole wait: a second, inner wait_for on the Condition could be cancelled
        # after the outer one gave up and release a lock it no longer held ("Lock is not acquired").
        try:
            async with asyncio.timeout(timeout), self.changed:
                return await self.changed.wait_for(predicate)
        except TimeoutError:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}") from None

    async def settled(self, ix: FakeInteraction, timeout: float = 5.0) -> FakeInteraction:
        await self.wait_for(
            ix.settled, timeout, f"a reply to interaction {ix.data.get('name')} {ix.data.get('options')}"
        )
        return ix

    async def run(
        self,
        user: FakeUser,
        path: str,
        options: dict[str, Any] | None = None,
        *,
        channel: str | None = None,
        timeout: float = 5.0,
    ) -> FakeInteraction:
        """Send a slash command and wait until it is answered."""
        return await self.settled(await self.slash(user, path, options, channel=channel), timeout)

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        channels = {c for c, r in self.dm_channels.items() if r == user.id}
        return [m for m in self.messages.values() if m.channel_id in channels and not m.deleted]

    def channel_messages(self, channel_id: str | None = None) -> list[FakeMessage]:
        """What everyone in the channel sees (no ephemeral, no still-loading deferrals)."""
        channel_id = channel_id or self.general
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.deleted and not m.ephemeral and not m.loading
        ]

    def ephemeral_to(self, user: FakeUser) -> list[FakeMessage]:
        return [m for ix in self.interactions.values() if ix.user.id == user.id for m in ix.ephemeral()]
