"""Dataclass states to plain JSON and back, driven by type hints.

Rule systems keep their state as (nested) dataclasses; snapshots and exports store the JSON.
Supported: bool, int, float, str, None, Enum, Literal, Optional/Union of these, list, tuple,
set/frozenset, dict (non-string keys are stored as a list of pairs), and nested dataclasses.
"""

from __future__ import annotations

import dataclasses
import enum
import pickle
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

JSON = Any
T = TypeVar("T")


def clone(state: T) -> T:
    """A deep copy of a state to apply an order to: a pickle round trip makes the same copy as
    ``copy.deepcopy`` (shared parts stay shared) several times quicker."""
    copied: T = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return copied


_PLAIN = frozenset({str, int, float, bool, type(None)})


@cache
def _field_names(cls: Any) -> tuple[str, ...] | None:
    """The fields of a dataclass type in order, None for any other type (asked once per type)."""
    return tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) else None


def to_json(value: Any) -> JSON:
    """``value`` as plain JSON. The common types are told apart by their exact type first (a state
    has thousands of values, and every order's snapshot encodes them all); anything else takes the
    general path below, so the result is the same as if every value took it."""
    kind: Any = type(value)
    if kind in _PLAIN:
        return value
    if kind is list or kind is tuple:
        return [to_json(v) for v in value]
    names = _field_names(kind)
    if names is not None:
        return {name: to_json(getattr(value, name)) for name in names}
    return _to_json(value)


def _to_json(value: Any) -> JSON:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: to_json(v) for k, v in value.items()}
        return [[to_json(k), to_json(v)] for k, v in value.items()]
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((to_json(v) for v in value), key=repr)
    if isinstance(value, bytes):
        return value.hex()
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(tp: Any, data: JSON) -> Any:
    """``data`` (as ``to_json`` wrote it) read back as type ``tp``; a mismatch is a TypeError or ValueError."""
    origin = get_origin(tp)
    if tp is Any:
        return data
    if origin in (Union, types.UnionType):
        return _from_union(tp, data)
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise ValueError(f"{data!r} is not one of {get_args(tp)}")
        return data
    if origin in (list, tuple, set, frozenset, dict):
        return _from_container(tp, origin, data)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise TypeError(f"{tp.__name__} expects an object, got {data!r}")
        hints = _hints(tp)
        kwargs = {f.name: from_json(hints[f.name], data[f.name]) for f in dataclasses.fields(tp) if f.name in data}
        return tp(**kwargs)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(data)
    return _from_scalar(tp, data)


def _from_union(tp: Any, data: JSON) -> Any:
    """The first member of the union that accepts ``data`` (None for an Optional's null)."""
    args = get_args(tp)
    if data is None and type(None) in args:
        return None
    last: Exception | None = None
    for arg in args:
        if arg is type(None):
            continue
        try:
            return from_json(arg, data)
        except (TypeError, ValueError, KeyError) as exc:
            last = exc
    raise TypeError(f"no member of {tp} accepts {data!r}") from last


def _from_container(tp: Any, origin: Any, data: JSON) -> Any:
    """Lists, tuples, sets and dicts (a dict with non-string keys was stored as a list of pairs)."""
    args = get_args(tp)
    if origin is dict:
        kt, vt = args
        pairs = data.items() if isinstance(data, dict) else data
        return {from_json(kt, k): from_json(vt, v) for k, v in pairs}
    if not isinstance(data, list):
        raise TypeError(f"expected a list, got {data!r}")
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], v) for v in data)
        return tuple(from_json(a, v) for a, v in zip(args, data, strict=True))
    (arg,) = args or (Any,)
    items = [from_json(arg, v) for v in data]
    return items if origin is list else origin(items)


def _from_scalar(tp: Any, data: JSON) -> Any:
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise TypeError(f"expected a number, got {data!r}")
        return float(data)
    if tp is bytes:
        return bytes.fromhex(data)
    if tp in (int, str, bool):
        if type(data) is not tp:
            raise TypeError(f"expected {tp.__name__}, got {data!r}")
        return data
    if tp is type(None):
        if data is not None:
            raise TypeError(f"expected null, got {data!r}")
        return None
    raise TypeError(f"cannot decode type {tp!r}")
