"""One process per Discord shard, one answer per interaction, whatever the deployment.

Discord delivers a shard's events to every session identified for that shard: during a deploy
overlap, with a forgotten second service, or with two processes both on "shard 0 of 1", every
interaction reaches each of them. Two guards in the store make that harmless:

- **Claims.** Before it acts on an interaction a process claims its id in the store with one
  ``INSERT ... ON CONFLICT`` (``Storage.claim``); only the process whose insert went in handles it,
  any other does nothing and sends nothing. Posting a game's status message is claimed the same way.
- **Shard leases.** A process serves only the shards it holds a lease on (a row per shard: owner,
  count, heartbeat). A second process for a leased, live shard does not connect: it logs one line
  and waits as a standby, and takes over when the lease is released (a clean stop) or expires (the
  holder died: its heartbeat is older than ``WARGAME_LEASE_SECONDS``). A process that cannot renew
  its lease within that time, or finds it taken over, stops serving at once (``serving()`` turns
  false, so it claims nothing more) and exits with status 4 so its supervisor restarts it as a
  standby. A live lease on another ``WARGAME_SHARD_COUNT`` refuses the start (``LeaseRefused``).

An unsharded process holds shard 0 of 1, which is exactly what Discord sends it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Sequence

from bot.storage import Lease, Storage

log = logging.getLogger("bot.leases")

LEASE_SECONDS = 30.0  # WARGAME_LEASE_SECONDS: a lease whose heartbeat is older than this is free
CLAIM_KEEP_SECONDS = 86400.0  # claims are kept a day (an interaction is dead after 15 minutes)
EXIT_LEASE_LOST = 4  # the exit status of a process that lost its lease


class LeaseRefused(Exception):
    """The start is refused (another process serves this database with another shard count);
    the message is one line for the log."""


class LeaseLost(Exception):
    """This process lost a shard's lease and stopped serving; the message is one line for the log."""


def process_owner() -> str:
    """This process's name in claims and leases: host and pid (for the operator), and a random tail
    so a restarted process with a reused pid is never mistaken for the old one."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def lease_seconds(environ: dict[str, str] | None = None) -> float:
    env = os.environ if environ is None else environ
    raw = env.get("WARGAME_LEASE_SECONDS", "").strip()
    try:
        value = float(raw) if raw else LEASE_SECONDS
    except ValueError:
        raise LeaseRefused(f"WARGAME_LEASE_SECONDS={raw!r} is not a number of seconds") from None
    if not value > 0:
        raise LeaseRefused(f"WARGAME_LEASE_SECONDS={raw!r} must be more than 0")
    return value


class ShardLeases:
    """The leases of one process's shards ``ids`` out of ``count``, kept by a heartbeat."""

    def __init__(self, store: Storage, ids: Sequence[int], count: int, owner: str, *,
                 seconds: float = LEASE_SECONDS, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.ids = tuple(sorted(ids))
        self.count = count
        self.owner = owner
        self.seconds = seconds
        self.clock = clock
        self.held = False
        self.renewed = 0.0  # when every lease was last renewed (local clock)
        self.lost: str | None = None  # why this process stopped serving, once it has

    @property
    def heartbeat_seconds(self) -> float:
        return self.seconds / 3

    def serving(self) -> bool:
        """Whether this process may act on its shards' events now: it holds the leases and renewed
        them within the lease time (past it another process may already have taken over)."""
        return self.held and self.lost is None and self.clock() - self.renewed < self.seconds

    def _shards(self, shards: Sequence[int]) -> str:
        return f"shard{'s' if len(shards) > 1 else ''} {','.join(map(str, shards))} of {self.count}"

    async def _check_count(self, leases: list[Lease], now: float) -> None:
        other = next((lease for lease in leases if lease.count != self.count and lease.owner != self.owner
                      and lease.heartbeat >= now - self.seconds), None)
        if other is not None:
            raise LeaseRefused(
                f"WARGAME_SHARD_COUNT={self.count}, but process {other.owner} serves shard {other.shard} of "
                f"{other.count} on this database: every process must be given the same WARGAME_SHARD_COUNT "
                f"(unset counts as 1). Stop the others and restart them all with one count."
            )

    async def try_acquire(self) -> list[Lease]:
        """Take every lease or none (in shard order, so two processes wanting the same shards never
        each hold a part): [] when taken, else the live leases of other processes in the way.
        Raises LeaseRefused on another shard count, checked after taking so that of two processes
        starting together with different counts at least one sees the other."""
        now = self.clock()
        await self._check_count(await self.store.leases(), now)
        taken: list[int] = []
        for shard in self.ids:
            if not await self.store.take_lease(shard, self.count, self.owner, now, expired_before=now - self.seconds):
                for mine in taken:
                    await self.store.release_lease(mine, self.owner)
                return [lease for lease in await self.store.leases()
                        if lease.owner != self.owner and lease.shard in self.ids]
            taken.append(shard)
        try:
            await self._check_count(await self.store.leases(), now)
        except LeaseRefused:
            await self.release()
            raise
        self.held, self.renewed = True, now
        return []

    async def acquire(self, closing: asyncio.Event | None = None) -> None:
        """Take the leases, waiting as a standby (one log line, repeated only when the holder changes)
        while another live process holds any of them."""
        said: set[str] = set()
        while True:
            in_the_way = await self.try_acquire()
            if not in_the_way:
                if said:
                    log.warning("%s: the lease is this process's now; serving", self._shards(self.ids))
                return
            holders = {lease.owner for lease in in_the_way}
            if not holders <= said:
                said |= holders
                lease = in_the_way[0]
                age = self.clock() - lease.heartbeat
                log.warning(
                    "not serving %s: shard %d is served by process %s (heartbeat %.0f s ago). This process waits "
                    "as a standby and takes over when that process stops, or %g s after its last heartbeat.",
                    self._shards(self.ids), lease.shard, lease.owner, max(age, 0.0), self.seconds,
                )
            if closing is None:
                await asyncio.sleep(self.heartbeat_seconds)
            else:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.heartbeat_seconds):
                        await closing.wait()
                if closing.is_set():
                    raise asyncio.CancelledError

    async def renew(self) -> bool:
        """One heartbeat (and the pruning of old claims); False once a lease is lost, with ``lost`` saying why."""
        now = self.clock()
        try:
            for shard in self.ids:
                if not await self.store.renew_lease(shard, self.owner, now):
                    holder = next((lease.owner for lease in await self.store.leases() if lease.shard == shard), "nobody")
                    self.lost = (f"lost the lease of shard {shard} of {self.count} to {holder} (no heartbeat for "
                                 f"{now - self.renewed:.0f} s): stopped serving")
                    return False
            self.renewed = now
            await self.store.prune_claims(now - CLAIM_KEEP_SECONDS)
        except Exception:
            log.exception("the shard lease heartbeat failed")
            if now - self.renewed >= self.seconds:
                self.lost = f"could not renew the lease of {self._shards(self.ids)} for {now - self.renewed:.0f} s: stopped serving"
                return False
        return True

    async def keep(self) -> str:
        """Renew every ``heartbeat_seconds`` until a lease is lost; returns why."""
        while await self.renew():
            await asyncio.sleep(self.heartbeat_seconds)
        assert self.lost is not None
        return self.lost

    async def release(self) -> None:
        """Give the leases back (a clean stop), so a standby takes over at once."""
        self.held = False
        for shard in self.ids:
            with contextlib.suppress(Exception):
                await self.store.release_lease(shard, self.owner)
