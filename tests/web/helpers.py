"""Shared steps of the web companion's tests: a duel with public moves and secret fire orders."""

from __future__ import annotations

from bot.service import TableService, User
from tests.bot.helpers import ALICE, BOB, UMP, errors, hex_duel, ok

SECRET_ORDER = "Monitor hold"  # a fire order for turn 2: secret until both sides seal


async def link_of(svc: TableService, user: User, command: str = "game web") -> str:
    (out,) = await ok(svc, user, command)
    own = [line for line in out.text.splitlines() if "?t=" in line]
    assert len(own) == 1, out.text
    return own[0].rsplit("?t=", 1)[1]


async def opening(svc: TableService) -> None:
    """A duel through turn 1: both sides' sealed fire orders, then one move each (all public now)."""
    await hex_duel(svc)
    for user, order in ((ALICE, "Monitor fire Virginia"), (ALICE, "seal"), (BOB, "Virginia fire Monitor"),
                        (BOB, "seal"), (ALICE, "Monitor move F"), (BOB, "Virginia move F")):
        await ok(svc, user, "order", text=order)


async def assign(svc: TableService, seat: str, user: str) -> None:
    outputs = await svc.handle("c1", UMP, "game assign", {"seat": seat, "user": f"<@{user}>"})
    assert not errors(outputs), errors(outputs)
