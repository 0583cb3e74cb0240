"""The bounded worker pool for heavy, pure work (a replay's fold and drawing, a verify's
re-derivation of every roll): it runs in worker processes, off the event loop and away from its
interpreter lock, so one channel's replay never stalls another channel's roll. One pool per
process, shared by every table service, started at first use; at most POOL_SIZE jobs run at once
and the rest queue in the pool, not on the event loop.

Workers are started by forkserver (never a fork of this process's threads, such as SQLite's) and
are told the data packs in use, so they read the same rules data as the bot.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import importlib
import logging
import multiprocessing
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Protocol, TypeVar

from games.core.data import data_packs, set_data_packs
from games.core.ruleset import system_modules

T = TypeVar("T")
POOL_SIZE = 2
log = logging.getLogger(__name__)
_pool: ProcessPoolExecutor | None = None
_frozen = False


class Runner(Protocol):
    """How heavy work is run: ``in_worker`` (the bot) or ``in_thread`` (tests)."""

    def __call__(self, fn: Callable[..., T], *args: object) -> Awaitable[T]: ...


def _prepared(packs: tuple[Path, ...], systems: list[str], fn: Callable[..., T], *args: object) -> T:
    """In a worker: use the bot's data packs (set at run time, not inherited) and know the same
    game systems (a system registered outside ``games/`` is not loaded by itself), then work."""
    if data_packs() != packs:
        set_data_packs(list(packs))
    for module in systems:
        importlib.import_module(module)  # once: already imported modules are not run again
    return fn(*args)


def pool() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(POOL_SIZE, mp_context=multiprocessing.get_context("forkserver"))
    return _pool


async def in_worker(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)`` in the worker pool (``fn`` and its arguments must pickle); in a thread if the
    pool broke (a worker died), after which the next call starts a new pool."""
    global _pool
    job = functools.partial(_prepared, data_packs(), system_modules(), fn, *args)
    try:
        return await asyncio.get_running_loop().run_in_executor(pool(), job)
    except BrokenProcessPool:
        log.exception("a worker process died; this job runs in a thread")
        shutdown()
        return await asyncio.to_thread(fn, *args)


async def in_thread(fn: Callable[..., T], *args: object) -> T:
    """The same contract in a thread of this process (tests, and single-process tools)."""
    return await asyncio.to_thread(fn, *args)


def shutdown() -> None:
    """Stop the pool's workers (at exit; the next call starts a new pool)."""
    global _pool
    old, _pool = _pool, None
    if old is not None:
        old.shutdown(wait=False, cancel_futures=True)


def freeze_start_up() -> None:
    """Once per process, after start-up: collect, then freeze what is left (modules, data packs),
    which lives as long as the bot, so a full collection set off by a replay's or verify's
    allocations never scans it again (benchmarks/spectators.py --gc-freeze: longest event-loop
    stall 156 -> 46 ms, longest full collection 149 -> 48 ms, one run each). Once only: a process that starts several clients (tests)
    would otherwise make each one's garbage of the moment permanent."""
    global _frozen
    if not _frozen:
        gc.collect()
        gc.freeze()
        _frozen = True
