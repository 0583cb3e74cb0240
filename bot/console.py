"""The console table: the same service as Discord, driven from a terminal or a script file.

Script lines are written exactly like slash commands with ``name:value`` options (a value runs
until the next `` name:``): ``/roll dice:2d6+1``, ``/order text:Huascar fire Esmeralda``.
``as @alice`` switches the acting user (``as @admin manage`` gives Manage Server), ``in #harbour``
switches channel, ``#`` starts a comment, a leading ``!`` marks a line expected to fail, and
``exit`` or ``quit`` ends the session (as does the end of the input).
This is also the stable interface for acceptance tests: keep it stable.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from bot.database import open_store
from bot.service import Output, TableService, User
from bot.storage import StoreUnavailable
from games.core.rng import new_seed, seed_from_number

OPTION = re.compile(r"(?:^|\s)([a-z_]+):")
QUIT_WORDS = ("exit", "quit", "/exit", "/quit")


class LineError(ValueError):
    """A script line that is not a command at all."""


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """``/game new system:x scenario:y`` -> ("game new", {"system": "x", "scenario": "y"})."""
    body = line.strip()
    if not body.startswith("/"):
        raise LineError(f"Not a command: {line.strip()!r} (commands start with /)")
    body = body[1:]
    matches = list(OPTION.finditer(body))
    head = body[: matches[0].start()] if matches else body
    options: dict[str, str] = {}
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(body)
        options[m.group(1)] = body[m.end(): end].strip()
    command = " ".join(head.split()).lower()
    if not command:
        raise LineError(f"No command name in {line.strip()!r}")
    return command, options


class Console:
    def __init__(self, service: TableService, *, out: TextIO, as_json: bool, images: Path | None) -> None:
        self.service = service
        self.out = out
        self.as_json = as_json
        self.images = images
        self.user = User("@you", "you")
        self.channel = "#table"
        self.image_count = 0
        self._render_warned = False
        self.quit = False  # set by an ``exit`` or ``quit`` line
        self.line_number = 0  # of the input as a whole, also when it comes one line at a time

    def emit(self, record: dict[str, Any]) -> None:
        if self.as_json:
            self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
            return
        kind = record["kind"]
        if kind == "done":
            return
        label = {
            "message": f"{record.get('channel')} |",
            "dm": f"DM to {record.get('to')} |",
            "ephemeral": f"(only {record.get('to')}) |",
            "error": f"ERROR for {record.get('to')} |",
            "note": "--",
        }.get(kind, kind)
        pad = " " * len(label)
        lines = str(record.get("text", "")).split("\n")
        self.out.write(f"{label} {lines[0]}\n" + "".join(f"{pad} {ln}\n" for ln in lines[1:]))
        for key in ("image", "file"):
            if record.get(key):
                self.out.write(f"{pad} [{key}: {record[key]}]\n")

    def _write_image(self, output: Output) -> str | None:
        if output.view is None or self.images is None:
            return None
        try:
            from render import render_png
        except ImportError:
            if not self._render_warned:
                self.emit({"kind": "note", "text": "render package not available: no images written"})
                self._render_warned = True
            return None
        self.image_count += 1
        path = self.images / f"{self.image_count:04d}.png"
        path.write_bytes(render_png(output.view, zoom=output.zoom))
        return str(path)

    def _write_file(self, output: Output) -> str | None:
        if output.file is None:
            return None
        name, blob = output.file
        if self.images is None:
            return f"{name} ({len(blob)} bytes; use --images DIR to save files)"
        path = self.images / name
        path.write_bytes(blob)
        return str(path)

    async def run_line(self, raw: str) -> bool | None:
        """Run one line; True/False for success, None for lines that are not commands."""
        line = raw.strip()
        if not line or line.startswith("#"):
            return None
        if line.lower() in QUIT_WORDS:
            self.quit = True
            return None
        if line.startswith("as "):
            parts = line[3:].split()
            if not parts:
                raise LineError("`as` needs a user, e.g. `as @alice`")
            name = parts[0] if parts[0].startswith("@") else "@" + parts[0]
            self.user = User(name, name.lstrip("@"), manage_server="manage" in parts[1:])
            return None
        if line.startswith("in "):
            channel = line[3:].strip()
            self.channel = channel if channel.startswith("#") else "#" + channel
            return None
        command, options = parse_line(line)
        if "file" in options and command == "game verify":
            try:
                options = {"export": Path(options.pop("file")).read_text()}
            except OSError as exc:
                self.emit({"kind": "error", "to": self.user.id, "text": f"Cannot read the export file: {exc}"})
                return False
        outputs = await self.service.handle(self.channel, self.user, command, options)
        ok = not any(o.kind == "error" for o in outputs)
        for o in outputs:
            record: dict[str, Any] = {"kind": o.kind, "text": o.text}
            if o.kind == "message":
                record["channel"] = o.channel
            else:
                record["to"] = o.to
            image = self._write_image(o)
            if image:
                record["image"] = image
            written = self._write_file(o)
            if written:
                record["file"] = written
            self.emit(record)
        state, to_act = await self.service.channel_state(self.channel)
        done: dict[str, Any] = {"kind": "done", "ok": ok, "state": state, "to_act": to_act}
        wanted = options.get("text" if command == "order" else "seat")
        if command in ("order", "game join") and wanted in ("?", ""):
            option = "text" if command == "order" else "seat"
            done["choices"] = await self.service.choices(self.channel, self.user, command, option, "")
        self.emit(done)
        self.out.flush()
        return ok

    async def run_script(self, lines: Iterable[str]) -> int:
        """Run lines until the end or an ``exit``; 1 if any line did not go as marked (reported on
        stderr with its line number in the whole input, counted across calls)."""
        failures = 0
        for raw in lines:
            if self.quit:
                break
            self.line_number += 1
            number = self.line_number
            stripped = raw.strip()
            expect_fail = stripped.startswith("!")
            if expect_fail:
                stripped = stripped[1:].strip()
            try:
                ok = await self.run_line(stripped)
            except LineError as exc:
                self.emit({"kind": "error", "to": self.user.id, "text": str(exc)})
                ok = False
            except Exception as exc:  # a bug in one command must not end the session or the script
                self.emit({"kind": "error", "to": self.user.id, "text": f"Internal error (a bug): {type(exc).__name__}: {exc}"})
                state, to_act = await self.service.channel_state(self.channel)
                self.emit({"kind": "done", "ok": False, "state": state, "to_act": to_act})
                expect_fail = False  # a crash is never the refusal a ! line expects
                ok = False
            if ok is None:
                continue
            if ok == expect_fail:
                failures += 1
                what = "succeeded but was marked ! (expected to fail)" if expect_fail else "failed"
                print(f"line {number}: {stripped!r} {what}", file=sys.stderr)
        return 1 if failures else 0


async def _main(args: argparse.Namespace) -> int:
    db_path: str | Path
    if args.db:
        db_path = args.db
    elif args.script:
        db_path = Path(tempfile.mkdtemp(prefix="wargame-console-")) / "console.db"
    else:
        db_path = Path("var/console.db")
    images = Path(args.images) if args.images else None
    if images:
        images.mkdir(parents=True, exist_ok=True)
    counter = iter(range(1_000_000))
    seed_source = (lambda: seed_from_number(args.seed * 1_000_000 + next(counter))) if args.seed is not None else new_seed
    try:
        store = await open_store(db_path)
    except StoreUnavailable as exc:
        print(f"Not starting: --db: {exc}", file=sys.stderr)
        return 2
    service = TableService(store, mention=lambda uid: uid, seed_source=seed_source)
    console = Console(service, out=sys.stdout, as_json=args.json, images=images)
    try:
        if args.script:
            return await console.run_script(Path(args.script).read_text().splitlines())
        if not args.json and sys.stdin.isatty():
            print(f"Console table (database {db_path}). Type /help, `as @name`, `in #channel`; exit or Ctrl-D to quit.")
        state, _ = await service.channel_state(console.channel)
        if state in ("setup", "running"):
            # The default database keeps games between runs: say so before a /game new is refused.
            print(f"Note: {console.channel} has a game in {state} from an earlier run (database {db_path}). "
                  "/game end ends it (or /game status shows it); --db FILE starts with a fresh table.", file=sys.stderr)
        failures = 0
        loop = asyncio.get_running_loop()
        while True:
            if not args.json and sys.stdin.isatty():
                print(f"{console.user.id} in {console.channel}> ", end="", flush=True)
            raw = await loop.run_in_executor(None, sys.stdin.readline)
            if not raw:
                break
            failures += (await console.run_script([raw])) != 0
            if console.quit:
                break
        return 1 if failures else 0
    finally:
        await store.close()


def data_ok(cache_dir: Path | None = None) -> bool:
    """Check every data file and pack before serving; on problems print them (no traceback) and
    return False, so a typo in a pack stops the start instead of surfacing mid-game to players.

    A clean result is remembered in ``cache_dir`` (WARGAME_CACHE_DIR, default var/cache) under the
    fingerprint of the data, the packs and the checking code, so an unchanged start skips the full
    check; any changed byte gives a new fingerprint and the full check runs. Problems are never kept.
    """
    from games.core.errors import DataError
    from games.core.schema import fingerprint, validate_all

    folder = cache_dir or Path(os.environ.get("WARGAME_CACHE_DIR", "").strip() or "var/cache")
    marker = folder / f"data-ok-{fingerprint()}"
    if marker.is_file():
        return True
    try:
        validate_all()
    except DataError as exc:
        print(f"Not starting: {exc}", file=sys.stderr)
        return False
    with contextlib.suppress(OSError):  # a read-only folder only costs the next start the full check
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("data-ok-*"):
            old.unlink()
        marker.write_text("every data file and pack passed the start-up check\n")
    return True


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot console", description=__doc__.split("\n")[0] if __doc__ else "")
    parser.add_argument("--script", help="run the commands in FILE instead of reading stdin")
    parser.add_argument("--json", action="store_true", help="one JSON object per output, and a done line per command")
    parser.add_argument("--seed", type=int, help="reproducible game seeds (testing and demos only)")
    parser.add_argument("--images", help="write every posted image (and exports) to this folder, numbered")
    parser.add_argument("--db", help="SQLite database file or postgresql:// URL (default: a fresh temporary file "
                                     "for --script, else var/console.db)")
    args = parser.parse_args(argv)
    if not data_ok():
        return 3
    return asyncio.run(_main(args))
