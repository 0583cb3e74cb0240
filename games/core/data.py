"""TOML data under ``data/``, validated on load, with optional data packs that override it.

A data pack is a directory laid out like ``data/``; a file there with the same relative path
replaces the shipped one (so owners of a printed game can drop in its real values), and new files
add to it. Packs come from ``set_data_packs`` (the bot's config) or the ``WARGAME_DATA_PACKS``
environment variable (paths separated by the OS path separator); later packs win.

Reading files is the one kind of I/O ``games`` does: read-only, cached, and never at import time.
A file is read again only when it changed on disk (size or time, then its content hash), and a
changed or new file is used only if it is at most MAX_FILE_BYTES and valid TOML that passes its
schema (a first read: at start-up, or by ``usable``): otherwise the last good version stays in
use (a new file with none is left out of ``usable``), so an owner's broken edit to a running bot never breaks its commands.
Errors name the file, the key and what was expected. A file is named relative to its root, with the
pack's folder name (``data pack 'mine': maps/x.toml``), never by its server path: these messages can
reach players. Every file is also checked against its schema at start-up (``games.core.schema``).
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.core.errors import DataError

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
MAX_FILE_BYTES = 1_000_000  # one data file; the largest shipped TOML file is under 14 KB
CHECK_EVERY = 1.0  # seconds: a file is looked at on disk at most this often (loaders call load often)
log = logging.getLogger(__name__)
_packs: tuple[Path, ...] | None = None
_reload_hooks: list[Callable[[], None]] = []



def set_data_packs(paths: list[str | Path]) -> None:
    """Use these pack directories (in increasing priority) from now on."""
    global _packs
    _packs = tuple(Path(p) for p in paths)
    clear_cache()
    for hook in _reload_hooks:
        hook()


def on_reload(hook: Callable[[], None]) -> None:
    """Call ``hook`` whenever the data packs change (for caches built from data files)."""
    _reload_hooks.append(hook)


def data_packs() -> tuple[Path, ...]:
    if _packs is not None:
        return _packs
    env = os.environ.get("WARGAME_DATA_PACKS", "")
    return tuple(Path(p) for p in env.split(os.pathsep) if p)


def _roots() -> list[Path]:
    return [*reversed(data_packs()), DATA_DIR]


def describe(root: Path, relpath: str) -> str:
    """How messages name a data file: relative to its root, with the pack's folder name, never the
    server path (an error can reach a player through the table service)."""
    if root == DATA_DIR:
        return f"data/{relpath}"
    return f"data pack {pack_name(root)!r}: {relpath}"


def pack_name(root: Path) -> str:
    """A pack's folder name: enough for its owner to recognise it, and no server path."""
    return root.name or "(root)"


def _locate(relpath: str) -> tuple[Path, Path]:
    """(root, file) that wins for a relative path: the last pack that has it, else the shipped one."""
    for root in _roots():
        candidate = root / relpath
        if candidate.is_file():
            return root, candidate
    places = ", ".join(f"data pack {pack_name(r)!r}" if r != DATA_DIR else "data" for r in _roots())
    raise DataError(f"data file {relpath} not found (looked in {places})")


def resolve(relpath: str) -> Path:
    """The file that wins for a relative path: the last pack that has it, else the shipped one."""
    return _locate(relpath)[1]


def listing(folder: str, suffix: str = ".toml") -> list[str]:
    """Relative paths of all files in a data folder across the shipped data and packs."""
    names: set[str] = set()
    for root in _roots():
        d = root / folder
        if d.is_dir():
            names.update(f"{folder}/{p.name}" for p in d.iterdir() if p.suffix == suffix)
    return sorted(names)


@dataclass
class _Loaded:
    seen: tuple[Path, int, int]  # the file, its size and modification time when last read
    checked: float  # when the disk was last looked at (time.monotonic)
    digest: str  # the content hash last read (good or not)
    good: Record | None  # the last version that passed, in use
    problem: str = ""  # why the content with ``digest`` is not used


_loaded: dict[str, _Loaded] = {}


def load(relpath: str) -> Record:
    """One TOML file as a ``Record``: read again only when it changed on disk, and a
    new version used only if it passes (see the module docstring); else the last good one."""
    now = time.monotonic()
    kept = _loaded.get(relpath)
    if kept is not None and now - kept.checked < CHECK_EVERY:
        return _in_use(kept)
    root, path = _locate(relpath)
    name = describe(root, relpath)
    try:
        stat = path.stat()
    except OSError as exc:
        raise DataError(f"{name}: cannot be read ({type(exc).__name__})") from exc
    seen = (path, stat.st_size, stat.st_mtime_ns)
    if kept is not None and kept.seen == seen:
        kept.checked = now
        return _in_use(kept)
    problem, digest, doc = "", "", None
    if stat.st_size > MAX_FILE_BYTES:
        problem = f"{name}: is {stat.st_size:,} bytes; a data file may be at most {MAX_FILE_BYTES:,}"
    else:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise DataError(f"{name}: cannot be read ({type(exc).__name__})") from exc
        digest = hashlib.sha256(raw).hexdigest()
        if kept is not None and kept.digest == digest:  # touched, not changed
            kept.seen, kept.checked = seen, now
            return _in_use(kept)
        try:
            doc = parse_toml(raw, name)
            # a change to a file in use is checked against its schema here; a first read is checked
            # by the start-up check (or ``usable``) and by its loader, whose messages say more
            problem = _schema_problem(relpath, doc, name) if kept is not None and kept.good is not None else ""
        except DataError as exc:
            problem = str(exc)
    if problem or doc is None:
        good = kept.good if kept is not None else None
        _loaded[relpath] = _Loaded(seen, now, digest, good, problem)
        if good is not None:
            log.warning("data file changed but refused, the last good version stays in use: %s", problem)
        return _in_use(_loaded[relpath])
    _loaded[relpath] = _Loaded(seen, now, digest, Record(doc, name))
    return _in_use(_loaded[relpath])


def clear_cache() -> None:
    """Forget every file read (tests that rewrite files; set_data_packs does it too)."""
    _loaded.clear()


load.cache_clear = clear_cache  # type: ignore[attr-defined]  # its name from when load was an lru_cache


def _in_use(kept: _Loaded) -> Record:
    if kept.good is None:
        raise DataError(kept.problem)
    return kept.good


SchemaCheck = Callable[[str, dict[str, Any], str], str]
_schema_checks: list[SchemaCheck] = []  # games.core.schema puts its check here when it is imported


def check_changes_with(check: SchemaCheck) -> None:
    """Called by games.core.schema (which imports this module, so this one may not import it): how
    a changed file in use is checked against its schema. Every system's loader and the table tools
    import the schema module, so the check is in place before any of them reads a file."""
    _schema_checks[:] = [check]


def _schema_problem(relpath: str, doc: dict[str, Any], name: str) -> str:
    """The file's first problem against its schema, if one governs it ("" if none or it passes)."""
    return _schema_checks[0](relpath, doc, name) if _schema_checks else ""


def parse_toml(raw: bytes, name: str) -> dict[str, Any]:
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{name}: not valid TOML: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise DataError(f"{name}: cannot be read ({type(exc).__name__})") from exc


def read_toml(path: Path, name: str) -> dict[str, Any]:
    """Parse one TOML file; errors use ``name`` (see ``describe``), never the server path."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{name}: not valid TOML: {exc}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{name}: cannot be read ({type(exc).__name__})") from exc


#: ``source`` values of numbers the book does not give: house rulings and values scaled from history.
HOUSE_SOURCES = ("house", "historical")


@dataclass(frozen=True, eq=False)
class Record:
    """One data file as read: its parsed TOML and its name for messages (relative to its root, see
    ``describe``). Loaders decode ``doc`` into their schemas (``games.core.schema.convert``). Equal
    and hashed by identity: loaders cache what they decode from one version of a file by its Record."""

    doc: dict[str, Any]
    file: str
