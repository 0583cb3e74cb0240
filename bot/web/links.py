"""Signed links to a seat's own view of a game (``/game web``).

A link carries (game, seat, holder, generation, expiry), signed with HMAC-SHA256 under a server
secret: ``WARGAME_WEB_SECRET`` from the environment, else one generated on first use and kept in
the store's settings, so every bot and web process on one store signs and checks alike. A link is
refused when its signature is wrong, it has expired, the seat is now held by someone else (a
``/game assign`` invalidates the old holder's link), or ``/game web revoke`` raised the seat's
generation since it was signed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass

from bot.storage import GameRow, Storage

SECRET_SETTING = "web:secret"
LINK_DAYS = 7.0  # how long a link stays good unless revoked
MAX_TOKEN = 600  # characters: a longer token is refused before any work


class LinkRefused(Exception):
    """The link cannot be used; the message says why, in words fit for the person holding it."""


@dataclass(frozen=True)
class Grant:
    """What a valid link lets its holder see: one seat of one game."""

    game: int
    seat: str
    user: str
    generation: int
    expires: float


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


async def server_secret(store: Storage) -> bytes:
    """The signing secret: the environment's, else the store's (made and kept on first use)."""
    env = os.environ.get("WARGAME_WEB_SECRET", "").strip()
    if env:
        return env.encode()
    kept = await store.setting(SECRET_SETTING)
    if not kept:
        await store.set_setting(SECRET_SETTING, secrets.token_hex(32))
        kept = await store.setting(SECRET_SETTING)  # two processes racing both read the one that stayed
    assert kept
    return kept.encode()


def generation_key(game: int, seat: str) -> str:
    return f"web:gen:{game}:{seat}"


async def generation(store: Storage, game: int, seat: str) -> int:
    value = await store.setting(generation_key(game, seat))
    return int(value) if value and value.isdigit() else 0


async def revoke(store: Storage, game: int, seat: str) -> None:
    """Every link to this seat signed before now stops working."""
    await store.set_setting(generation_key(game, seat), str(await generation(store, game, seat) + 1))


def sign(secret: bytes, grant: Grant) -> str:
    payload = json.dumps({"g": grant.game, "s": grant.seat, "u": grant.user, "n": grant.generation,
                          "e": round(grant.expires)}, separators=(",", ":")).encode()
    mac = hmac.new(secret, payload, hashlib.sha256).digest()
    return f"{_b64(payload)}.{_b64(mac)}"


async def issue(store: Storage, row: GameRow, seat: str, *, now: float | None = None, days: float = LINK_DAYS) -> str:
    """A link token for the seat's current holder."""
    now = time.time() if now is None else now
    grant = Grant(row.id, seat, row.seats[seat]["user"], await generation(store, row.id, seat), now + days * 86400)
    return sign(await server_secret(store), grant)


def unsigned(secret: bytes, token: str) -> Grant:
    """The grant a token's signature vouches for (not yet checked against the game)."""
    body, _, mac = token.partition(".")
    if not body or not mac or len(token) > MAX_TOKEN:
        raise LinkRefused("This link is not a valid game link.")
    try:
        payload = _unb64(body)
        given = _unb64(mac)
    except ValueError:
        raise LinkRefused("This link is not a valid game link.") from None
    if not hmac.compare_digest(hmac.new(secret, payload, hashlib.sha256).digest(), given):
        raise LinkRefused("This link is not a valid game link.")
    data = json.loads(payload)
    return Grant(int(data["g"]), str(data["s"]), str(data["u"]), int(data["n"]), float(data["e"]))


async def check(store: Storage, token: str, row: GameRow, *, now: float | None = None) -> Grant:
    """The grant of a token for this game, or ``LinkRefused`` saying why not."""
    grant = unsigned(await server_secret(store), token)
    if grant.game != row.id:
        raise LinkRefused("This link is for another game.")
    if (time.time() if now is None else now) >= grant.expires:
        raise LinkRefused("This link has expired: ask for a new one with /game web.")
    holder = row.seats.get(grant.seat, {}).get("user")
    if holder != grant.user:
        raise LinkRefused("This seat has changed hands since the link was made: ask for a new one with /game web.")
    if grant.generation != await generation(store, row.id, grant.seat):
        raise LinkRefused("This link was revoked: ask for a new one with /game web.")
    return grant
