"""Shared helpers for table-service tests: a service on a real database (a SQLite file, or a
PostgreSQL URL from the ``pg_url`` fixture) and a command runner."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

from bot.database import open_store
from bot.service import Output, TableService, User
from games.core.rng import seed_from_number

ALICE = User("alice", "Alice")
BOB = User("bob", "Bob")
CAROL = User("carol", "Carol")
ADMIN = User("admin", "Admin", manage_server=True)
UMP = User("ump", "Ump")


def seeds(start: int = 0) -> Iterator[bytes]:
    return (seed_from_number(n) for n in itertools.count(start))


async def make_service(path: Path | str, seed_start: int = 0) -> TableService:
    it = seeds(seed_start)
    return TableService(await open_store(path), mention=lambda uid: f"@{uid}", seed_source=lambda: next(it))


async def run(svc: TableService, user: User, command: str, channel: str = "c1", **options: str) -> list[Output]:
    return await svc.handle(channel, user, command, options)


def errors(outputs: list[Output]) -> list[str]:
    return [o.text for o in outputs if o.kind == "error"]


def public_text(outputs: list[Output]) -> str:
    return "\n".join(o.text for o in outputs if o.kind == "message")


async def ok(svc: TableService, user: User, command: str, channel: str = "c1", **options: str) -> list[Output]:
    outputs = await run(svc, user, command, channel, **options)
    assert not errors(outputs), errors(outputs)
    return outputs


async def hex_duel(svc: TableService) -> None:
    """A started hex-ironclads duel: Alice the Union, Bob the Confederacy, Ump the umpire."""
    await ok(svc, ALICE, "game new", system="hex-ironclads", scenario="duel")
    await ok(svc, ALICE, "game join", seat="union")
    await ok(svc, BOB, "game join", seat="confederate")
    await ok(svc, UMP, "game join", seat="umpire")
    await ok(svc, ALICE, "game start")
