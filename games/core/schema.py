"""Start-up validation of every data file, shipped and in packs, against msgspec schemas.

Why: loaders read a file only when a game needs it and skip keys they do not know, so a typo
(``heigth = 12``) or a broken pack went unnoticed until someone played. Each rule system declares
one schema per kind of file beside its loader (``SCHEMAS = {glob: type}`` in
``games/<system>/schema.py``; core maps in ``games/core/maps.py``, table tools in
``games/tools/schema.py``); ``registry()`` gathers them here and ``validate_all()`` checks every
``*.toml`` under ``data/`` and under each pack. Unknown keys are refused (``forbid_unknown_fields``),
a file no schema covers is refused (a new kind of file cannot slip through unchecked), and a pack
folder that does not exist is refused. Messages name the file relative to its root (the pack by its
folder name), the key and what was expected, never a server path.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import pkgutil
import re
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

from games.core.data import (
    DATA_DIR,
    HOUSE_SOURCES,
    check_changes_with,
    data_packs,
    describe,
    listing,
    load,
    pack_name,
    read_toml,
)
from games.core.errors import DataError, GameError

T = TypeVar("T")

#: Modules outside ``games/<system>/schema.py`` that declare ``SCHEMAS`` (and optionally ``CHECKS``).
CORE_MODULES = ("games.core.maps", "games.tools.schema")
#: Files in data folders that are not data (documentation, fonts) and are not validated.
NOT_DATA = ("*.md", "*.txt", "*.ttf", "LICENSE", "LICENSE.*")


class Strict(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Base of every data schema: an unknown key is an error, not silently ignored."""


class Sourced(Strict, kw_only=True):
    """A file (or table) that may say where its numbers come from (``house`` reads it)."""

    source: str = "house"

    @property
    def house(self) -> bool:
        """True for values the book does not give: ``house`` and ``historical`` (scaled from history) alike."""
        return self.source in HOUSE_SOURCES


@dataclass(frozen=True)
class Keyed(Generic[T]):
    """A table whose fixed keys follow ``fixed`` and whose every other key is an ``item`` table:
    ``source = "book"`` beside ``[s1]``, ``[s2]``... (msgspec has no type for that mix)."""

    fixed: type[msgspec.Struct]
    item: type[T]


Schema = Any  # a msgspec-convertible type (usually a Strict subclass) or a Keyed


def _schema_modules() -> Iterator[str]:
    """The core modules and every ``games.<package>.schema`` that exists."""
    import games

    yield from CORE_MODULES
    for module in pkgutil.iter_modules(games.__path__):
        if module.ispkg and module.name not in ("core", "tools"):
            name = f"games.{module.name}.schema"
            if importlib.util.find_spec(name) is not None:
                yield name


def _modules() -> list[types.ModuleType]:
    out = []
    for name in _schema_modules():
        try:
            out.append(importlib.import_module(name))
        except Exception as exc:  # reported as a start-up problem, not a crash with a traceback
            raise DataError(f"schema module {name} failed to import: {type(exc).__name__}: {exc}") from exc
    return out


def registry() -> dict[str, Schema]:
    """Relative path or glob (``maps/*.toml``) -> schema, from every schema module."""
    out: dict[str, Schema] = {}
    for module in _modules():
        for pattern, schema in getattr(module, "SCHEMAS", {}).items():
            if pattern in out:
                raise DataError(f"two schemas govern {pattern} (one in {module.__name__})")
            out[pattern] = schema
    return out


def checks() -> list[Callable[[], object]]:
    """Whole-data checks each system runs at start-up through its own loaders (cross references,
    hexes on the map, faces 1-6 once each): what a schema cannot say about one file. A system keeps
    them in ``games.<system>.checks`` (above its loaders, which import its schema)."""
    import games

    modules = _modules()
    for package in pkgutil.iter_modules(games.__path__):
        name = f"games.{package.name}.checks"
        if package.ispkg and importlib.util.find_spec(name) is not None:
            modules.append(importlib.import_module(name))
    return [check for module in modules for check in getattr(module, "CHECKS", ())]


def _matches(pattern: str, relpath: str) -> bool:
    """Glob match part by part, so ``maps/*.toml`` does not match ``maps/old/x.toml``."""
    want, have = pattern.split("/"), relpath.split("/")
    return len(want) == len(have) and all(fnmatchcase(h, w) for h, w in zip(have, want, strict=True))


def schema_for(relpath: str, schemas: dict[str, Schema]) -> Schema | None:
    found = [schema for pattern, schema in schemas.items() if _matches(pattern, relpath)]
    return found[0] if len(found) == 1 else None


# --- messages ------------------------------------------------------------------------------------
_AT = re.compile(r"^(?P<text>.*?)(?: - at (?P<key>`key` in )?`\$(?P<at>.*)`)?$", re.S)
_SEGMENT = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _strip(tp: Any) -> Any:
    """``Annotated[X, Meta]`` -> X."""
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _describe(text: str, where: str, tp: Any, value: Any = None) -> str:
    """One msgspec message as "key 'a.b': expected ..." with the key path written out (and the value
    given, when msgspec names only the bound it broke)."""
    unknown = re.match(r"Object contains unknown field `(.*)`", text)
    if unknown:
        return f"key '{_join(where, unknown.group(1))}' is not allowed (unknown field)"
    missing = re.match(r"Object missing required field `(.*)`", text)
    if missing:
        return f"key '{_join(where, missing.group(1))}' is missing (required)"
    bad = re.match(r"Invalid enum value (.*)", text)
    if bad:
        choices = [str(c) for c in typing.get_args(_strip(tp))] if typing.get_origin(_strip(tp)) is typing.Literal else []
        expected = f"one of {', '.join(choices)}" if choices else "a known value"
        return f"key '{where}': expected {expected}, got {bad.group(1)}"
    text = text.replace("`", "")
    text = text[:1].lower() + text[1:]
    if re.match(r"expected (int|float) [<>]", text) and isinstance(value, int | float):
        text += f", got {value!r}{_allowed(tp)}"
    elif re.match(r"expected \w+ of length", text) and isinstance(value, str | list | dict):
        text += f", got {len(value)}"
    elif re.match(r"expected \w+, got \w+$", text) and isinstance(value, str | int | float):
        text += f" ({value!r})"
    return f"key '{where}': {text}" if where else text


def _allowed(tp: Any) -> str:
    """`` (allowed: 1 to 20)`` for a number with both ends inclusive, so one message gives the whole range."""
    metas = [m for m in typing.get_args(tp)[1:] if isinstance(m, msgspec.Meta)] if typing.get_origin(tp) is typing.Annotated else []
    low = next((m.ge for m in metas if m.ge is not None), None)
    high = next((m.le for m in metas if m.le is not None), None)
    return f" (allowed: {low} to {high})" if low is not None and high is not None else ""


def _fields(tp: Any) -> dict[str, Any]:
    """A Struct's encoded field names -> their types."""
    hints = typing.get_type_hints(tp, include_extras=True)
    return {f.encode_name: hints[f.name] for f in msgspec.structs.fields(tp)}


def _union_member(tp: Any, value: Any) -> Any:
    """The member of a union (``X | None``, tagged Structs) that a value is meant to be."""
    members = [m for m in typing.get_args(tp) if m is not type(None)]
    for member in members:
        config = getattr(member, "__struct_config__", None)
        if config is not None and config.tag_field and isinstance(value, dict) and value.get(config.tag_field) == config.tag:
            return member
    return members[0] if len(members) == 1 else None


def _problem(value: Any, tp: Any, where: str) -> str | None:
    """The first problem with ``value`` as ``tp``, with its full key path; None when it fits.

    msgspec writes a path through a table of named tables as ``$.ships[...]``; this walks down
    that path itself so the message can name ``ships.huascar.heigth``."""
    if isinstance(tp, Keyed):
        return _keyed_problem(value, tp, where)
    try:
        msgspec.convert(value, tp)
        return None
    except msgspec.ValidationError as exc:
        match = _AT.match(str(exc))
        assert match is not None  # the pattern matches any text
        text, at = match["text"], match["at"] or ""
    segment = _SEGMENT.match(at)
    base = _strip(tp)
    origin = typing.get_origin(base)
    if segment is None:  # the problem is here
        if match["key"] and origin is dict and isinstance(value, dict):
            key_type = typing.get_args(base)[0]
            return next(filter(None, (_key_problem(k, key_type, where) for k in value)), _describe(text, where, tp))
        return _describe(text, where, tp, value)
    if origin in (typing.Union, types.UnionType):
        return _union_problem(value, tp, base, where, text, at)
    deeper = _problem_below(value, base, origin, where, segment.group(1), segment.group(2))
    return deeper or _describe(text, f"{where}{at}", tp)


def _keyed_problem(value: Any, tp: Keyed[Any], where: str) -> str | None:
    """A table of fixed keys (``tp.fixed``) beside named tables (each a ``tp.item``)."""
    fixed = set(_fields(tp.fixed))
    problem = _problem({k: v for k, v in value.items() if k in fixed}, tp.fixed, where)
    if problem:
        return problem
    for key, item in value.items():
        if key in fixed:
            continue
        if not isinstance(item, dict):  # a stray value beside the named tables: a typo
            return f"key '{_join(where, key)}' is not allowed (unknown field)"
        problem = _problem(item, tp.item, _join(where, key))
        if problem:
            return problem
    return None


def _union_problem(value: Any, tp: Any, base: Any, where: str, text: str, at: str) -> str:
    """A problem inside a union: in the member the value is meant to be, else the tags it may take."""
    member = _union_member(base, value)
    if member is not None:
        return _problem(value, member, where) or _describe(text, f"{where}{at}".lstrip("."), tp)
    tags = [str(m.__struct_config__.tag) for m in typing.get_args(base) if getattr(m, "__struct_config__", None)]
    if text.startswith("Invalid value") and all(tags):
        return f"key '{_join(where, at.lstrip('.'))}': expected one of {', '.join(tags)}, got {text.split(' ', 2)[2]}"
    return _describe(text, f"{where}{at}".lstrip("."), tp)


def _problem_below(value: Any, base: Any, origin: Any, where: str, name: str | None, index: str | None) -> str | None:
    """The problem one step down msgspec's path (a Struct field, a dict value, a list item), if found."""
    if name is not None and isinstance(base, type) and issubclass(base, msgspec.Struct) and isinstance(value, dict):
        fields = _fields(base)
        if name in fields and name in value:
            return _problem(value[name], fields[name], _join(where, name))
    if index == "..." and origin is dict and isinstance(value, dict):
        key_type, item_type = typing.get_args(base)
        for key, item in value.items():
            problem = _problem(item, item_type, _join(where, key)) or _key_problem(key, key_type, where)
            if problem:
                return problem
    if index is not None and index != "..." and origin in (list, tuple) and isinstance(value, list):
        args = typing.get_args(base)
        i = int(index)
        item_type = args[0] if origin is list or (len(args) == 2 and args[1] is Ellipsis) else args[i]
        return _problem(value[i], item_type, f"{where}[{i}]")
    return None


def _key_problem(key: str, key_type: Any, where: str) -> str | None:
    """A table key that its schema refuses (``mix.ten`` where keys are ``None`` or digits)."""
    try:
        msgspec.convert(key, key_type)
        return None
    except msgspec.ValidationError as exc:
        text = str(exc).replace("`", "")
        if typing.get_origin(_strip(key_type)) is typing.Literal:
            text = f"expected one of {', '.join(map(str, typing.get_args(_strip(key_type))))}"
        return f"key '{_join(where, key)}' is not allowed as a key here: {text[:1].lower()}{text[1:]}"


def check_document(doc: dict[str, Any], schema: Schema) -> str | None:
    """The first problem of one parsed file against its schema (``key '...': ...``), or None."""
    return _problem(doc, schema, "")


@typing.overload
def convert(doc: dict[str, Any], schema: type[T], file: str) -> T: ...
@typing.overload
def convert(doc: dict[str, Any], schema: Any, file: str) -> Any: ...  # a union of tagged structs
def convert(doc: dict[str, Any], schema: Any, file: str) -> Any:
    """A parsed file decoded straight into its schema; a problem names the file, key and expectation
    as the start-up check does (the loaders and the check share one description of each file)."""
    try:
        return msgspec.convert(doc, schema)
    except msgspec.ValidationError:
        raise DataError(f"{file}: {check_document(doc, schema)}") from None


def convert_keyed(doc: dict[str, Any], schema: Keyed[T], file: str) -> dict[str, T]:
    """A ``Keyed`` file decoded: its named tables by key (its fixed keys checked, not returned)."""
    fixed = set(_fields(schema.fixed))
    try:
        msgspec.convert({k: v for k, v in doc.items() if k in fixed}, schema.fixed)
        return {k: msgspec.convert(v, schema.item) for k, v in doc.items() if k not in fixed}
    except msgspec.ValidationError:
        raise DataError(f"{file}: {check_document(doc, schema)}") from None


def decode(relpath: str, schema: type[T]) -> T:
    """One data file (the winning pack's) decoded into its schema: see ``convert``."""
    record = load(relpath)
    return convert(record.doc, schema, record.file)


def fail(file: str, where: str, text: str) -> DataError:
    """A check the schema cannot express, in the schema's words: ``file: key 'where': text``."""
    return DataError(f"{file}: key '{where}': {text}")


# --- the start-up check --------------------------------------------------------------------------
def _data_files(root: Path) -> Iterator[tuple[str, Path]]:
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or any(part.startswith(".") for part in rel.parts):
            continue
        if any(fnmatchcase(path.name, pattern) for pattern in NOT_DATA):
            continue
        yield rel.as_posix(), path


def problems() -> list[str]:
    """Every problem in the shipped data and the configured packs, one line each."""
    found: list[str] = []
    schemas = registry()
    for root in [DATA_DIR, *data_packs()]:
        if not root.is_dir():
            what = "is not a folder" if root.exists() else "the folder does not exist"
            found.append(f"data pack {pack_name(root)!r}: {what} (check WARGAME_DATA_PACKS or the data-pack setting)")
            continue
        for relpath, path in _data_files(root):
            name = describe(root, relpath)
            if not relpath.endswith(".toml"):
                found.append(f"{name}: not a data file the game reads (data files are .toml)")
                continue
            schema = schema_for(relpath, schemas)
            if schema is None:
                found.append(f"{name}: no schema covers this path, so the game would never read it "
                             f"(known: {', '.join(sorted(schemas))})")
                continue
            try:
                problem = check_document(read_toml(path, name), schema)
            except DataError as exc:
                found.append(str(exc))
                continue
            if problem:
                found.append(f"{name}: {problem}")
    if not found:  # cross-file checks read through the loaders, so only when every file has its shape
        for check in checks():
            try:
                check()
            except (DataError, GameError) as exc:
                found.append(str(exc))
            except Exception as exc:  # a loader tripped on data its schema let through: still refuse
                where = getattr(check, "__module__", "?")
                found.append(f"the data check of {where} failed: {type(exc).__name__}: {exc}")
    return found


def changed_file_problem(relpath: str, doc: dict[str, Any], name: str) -> str:
    """The file's first problem against its schema, if one governs it ("" if none or it passes)."""
    governing = schema_for(relpath, registry())
    problem = check_document(doc, governing) if governing is not None else None
    return f"{name}: {problem}" if problem else ""


check_changes_with(changed_file_problem)


def usable(folder: str) -> list[str]:
    """``listing(folder)`` without the files that have no good version (one added broken to a
    running bot): they are left out, logged, rather than failing every command that reads the
    folder. (The start-up check reads ``listing`` and refuses them there.)"""
    kept = []
    for name in listing(folder):
        try:
            record = load(name)
            problem = changed_file_problem(name, record.doc, record.file)
        except DataError as exc:
            problem = str(exc)
        if problem:
            logging.getLogger(__name__).warning("data file left out: %s", problem)
        else:
            kept.append(name)
    return kept



def fingerprint() -> str:
    """A hash of everything ``problems`` reads: every file of the data and the configured packs
    (missing packs included), and the source of the games package whose schemas and checks judge
    them. Equal fingerprints give equal problems, so a clean result can be kept and reused."""
    import hashlib

    import games

    digest = hashlib.sha256()
    code_root = Path(games.__file__).parent
    sources = sorted(code_root.rglob("*.py"))
    for root in [DATA_DIR, *data_packs()]:
        digest.update(f"root {root.resolve()} {root.is_dir()}\n".encode())
        if root.is_dir():
            for relpath, path in _data_files(root):
                digest.update(f"file {relpath} ".encode() + path.read_bytes() + b"\n")
    for path in sources:
        digest.update(f"code {path.relative_to(code_root).as_posix()} ".encode() + path.read_bytes() + b"\n")
    return digest.hexdigest()


def validate_all() -> None:
    """Raise DataError listing every problem in the data and packs (called before serving)."""
    found = problems()
    if found:
        raise DataError("the data files have problems:\n" + "\n".join(f"  {line}" for line in found))
