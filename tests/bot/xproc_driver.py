"""One bot process for the cross-process tests (tests/bot/test_cross_process.py): it opens its own
store on the database it is given and drives a TableService, talking JSON lines on stdin/stdout so a
test can start several of them, line them up and kill them.

``serve`` mode runs batches of commands on request (``{"op": "run", "jobs": [...]}``, each job's
result printed as it returns) and can hold chosen store calls at a gate until ``{"op": "release"}``,
so two processes are made to read the same version before either writes: the race is forced, not
hoped for. ``write`` mode is the crash victim: it gives orders and rolls without pause and prints an
acknowledgement (flushed) only after ``handle`` returned success, so anything acknowledged must be in
the store however the process dies.

Run as ``python -m tests.bot.xproc_driver serve|write --db URL ...``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import tests.bot.duel  # noqa: F401  (registers test-duel)
from bot.database import open_store
from bot.service import Output, TableService, User
from tests.bot.helpers import seeds

USERS = {"alice": User("alice", "Alice"), "bob": User("bob", "Bob"), "carol": User("carol", "Carol")}


def emit(record: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def summary(outputs: list[Output]) -> dict[str, Any]:
    errors = [o.text for o in outputs if o.kind == "error"]
    return {"ok": not errors, "errors": errors, "texts": [o.text for o in outputs if o.kind == "message"]}


async def stdin_lines() -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    return reader


class Gates:
    """Store methods held until the test releases them (every call waiting at that moment goes on).
    Each armed method holds its next ``times`` calls only, so a retry after a lost race runs free."""

    def __init__(self) -> None:
        self.left: dict[str, int] = {}
        self.event = asyncio.Event()

    def arm(self, methods: list[str], times: int) -> None:
        self.left = dict.fromkeys(methods, times)

    def wrap(self, name: str, real: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.left.get(name, 0) > 0:
                self.left[name] -= 1
                event = self.event
                emit({"gate": name})
                await event.wait()
            return await real(*args, **kwargs)

        return call

    def release(self) -> None:
        self.event.set()
        self.event = asyncio.Event()


async def serve(service: TableService, gates: Gates) -> None:
    reader = await stdin_lines()
    batches: set[asyncio.Task[None]] = set()

    async def job(batch: int, index: int, channel: str, user: str, command: str, options: dict[str, str]) -> None:
        outputs = await service.handle(channel, USERS[user], command, options)  # a raise here crashes the process
        emit({"batch": batch, "job": index, "channel": channel, "user": user, "command": command, **summary(outputs)})

    async def run(batch: int, jobs: list[list[Any]]) -> None:
        await asyncio.gather(*(job(batch, i, *spec) for i, spec in enumerate(jobs)))
        emit({"done": batch})

    while line := await reader.readline():
        request = json.loads(line)
        if request["op"] == "run":
            task = asyncio.create_task(run(request["batch"], request["jobs"]))
            batches.add(task)
            task.add_done_callback(batches.discard)
        elif request["op"] == "gate":
            gates.arm(request["methods"], request.get("times", 1))
        elif request["op"] == "release":
            gates.release()
        elif request["op"] == "quit":
            break
    for task in list(batches):
        await task  # re-raises a job's exception: the process exits with a traceback


async def write(service: TableService, name: str, game_channel: str, dice_channel: str, max_steps: int) -> None:
    """Alternate an order in this process's own game (whoever is to act, ``pass``/``hide``) and a
    labelled roll in the shared dice channel; acknowledge each only once handle() returned."""
    reader = await stdin_lines()
    stop = asyncio.Event()

    async def watch() -> None:
        await reader.readline()  # "stop" or EOF
        stop.set()

    watcher = asyncio.create_task(watch())
    game = await service.store.live_game(game_channel)
    assert game is not None, game_channel
    seq = len(await service.store.orders(game.id))  # this process is the game's only writer
    emit({"ready": name, "seq": seq})
    for step in range(max_steps):
        if stop.is_set():
            break
        _, to_act = await service.channel_state(game_channel)
        user = to_act[0]
        text = "hide" if step % 3 == 1 else "pass"
        outputs = await service.handle(game_channel, USERS[user], "order", {"text": text})
        if summary(outputs)["ok"]:
            seq += 1
            emit({"ack": "order", "seq": seq, "user": user, "text": text})
        else:
            emit({"refused": "order", **summary(outputs)})  # nobody else writes this game: the test fails
        label = f"{name}k{step}"
        outputs = await service.handle(dice_channel, USERS["carol"], "roll", {"dice": f"1d6 # {label}"})
        if summary(outputs)["ok"]:
            emit({"ack": "roll", "label": label})
        else:  # the other writer won this roll's retries: told politely, not applied
            emit({"refused": "roll", "label": label, **summary(outputs)})
    emit({"stopped": name})
    watcher.cancel()


async def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["serve", "write"])
    parser.add_argument("--db", required=True)
    parser.add_argument("--seed-start", type=int, default=0)
    parser.add_argument("--name", default="w")
    parser.add_argument("--game", default="game")
    parser.add_argument("--dice", default="dice")
    parser.add_argument("--max-steps", type=int, default=10_000)
    args = parser.parse_args(argv)
    store = await open_store(args.db)
    gates = Gates()
    for method in ("create_game", "save_order", "mark_undone", "update_game", "publish_stream"):
        setattr(store, method, gates.wrap(method, getattr(store, method)))
    it = seeds(args.seed_start)
    service = TableService(store, mention=lambda uid: f"@{uid}", seed_source=lambda: next(it))
    try:
        if args.mode == "serve":
            emit({"ready": args.name})
            await serve(service, gates)
        else:
            await write(service, args.name, args.game, args.dice, args.max_steps)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
