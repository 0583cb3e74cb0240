"""Dataclass state <-> JSON: round trips through real JSON text, and bad data raising."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import codec
from games.core.codec import clone, from_json, to_json
from games.core.hexgrid import Hex
from games.core.squaregrid import Square

FAST = settings(max_examples=60, deadline=None)


class Side(enum.Enum):
    PERU = "peru"
    CHILE = "chile"


@dataclass(frozen=True)
class Gun:
    name: str
    dice: int
    arc: Literal["bow", "stern", "broadside", "turret"] = "broadside"


@dataclass
class Ship:
    name: str
    at: Hex
    facing: int
    side: Side
    guns: tuple[Gun, ...] = ()
    hits: list[int] = field(default_factory=list)
    damaged: frozenset[str] = frozenset()
    target: str | None = None
    sunk_by: Ship | None = None
    speed: float = 0.0


@dataclass
class State:
    turn: int
    ships: dict[str, Ship]
    mines: dict[Hex, str] = field(default_factory=dict)
    seen: set[Square] = field(default_factory=set)
    score: tuple[int, int] = (0, 0)
    by_turn: dict[int, list[str]] = field(default_factory=dict)
    pairs: dict[tuple[int, int], bool] = field(default_factory=dict)
    phase: Literal["setup", "play", "over"] = "setup"
    note: int | str = 0
    secret: bytes = b""
    anything: Any = None
    winner: Side | None = None


def round_trip(tp: Any, value: Any) -> Any:
    return from_json(tp, json.loads(json.dumps(to_json(value))))


hexes = st.builds(Hex, st.integers(-50, 50), st.integers(-50, 50))
names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz -'", min_size=1, max_size=12)
guns = st.builds(Gun, names, st.integers(0, 9), st.sampled_from(["bow", "stern", "broadside", "turret"]))
simple_ships = st.builds(
    Ship,
    name=names,
    at=hexes,
    facing=st.integers(0, 5),
    side=st.sampled_from(Side),
    guns=st.lists(guns, max_size=3).map(tuple),
    hits=st.lists(st.integers(-5, 20), max_size=4),
    damaged=st.frozensets(st.sampled_from(["rudder", "engine", "guns", "fire"])),
    target=st.none() | names,
    speed=st.floats(allow_nan=False, allow_infinity=False, width=32),
)
ships = st.one_of(
    simple_ships, st.builds(lambda s, killer: Ship(**{**s.__dict__, "sunk_by": killer}), simple_ships, simple_ships)
)
states = st.builds(
    State,
    turn=st.integers(0, 10**6),
    ships=st.dictionaries(names, ships, max_size=3),
    mines=st.dictionaries(hexes, st.sampled_from(["None", "0", "1", "2"]), max_size=4),
    seen=st.sets(st.builds(Square, st.integers(0, 7), st.integers(0, 7)), max_size=5),
    score=st.tuples(st.integers(0, 99), st.integers(0, 99)),
    by_turn=st.dictionaries(st.integers(0, 20), st.lists(names, max_size=2), max_size=3),
    pairs=st.dictionaries(st.tuples(st.integers(0, 9), st.integers(0, 9)), st.booleans(), max_size=3),
    phase=st.sampled_from(["setup", "play", "over"]),
    note=st.integers(-5, 5) | names,
    secret=st.binary(max_size=8),
    anything=st.none() | st.integers() | st.lists(st.integers(), max_size=3),
    winner=st.none() | st.sampled_from(Side),
)


@pytest.mark.slow
@FAST
@given(state=states)
def test_state_round_trips_through_json_text(state: State) -> None:
    assert round_trip(State, state) == state


@pytest.mark.slow
@FAST
@given(state=states)
def test_encoding_is_plain_json_and_stable(state: State) -> None:
    data = to_json(state)
    text = json.dumps(data, sort_keys=True)
    assert json.dumps(to_json(round_trip(State, state)), sort_keys=True) == text


@pytest.mark.slow
@FAST
@given(state=states)
def test_the_quick_path_by_type_encodes_as_the_general_one(state: State) -> None:
    with pytest.MonkeyPatch.context() as patch:  # every value, at every depth, on the general path
        patch.setattr(codec, "to_json", codec._to_json)
        general = codec._to_json(state)
    assert json.dumps(to_json(state)) == json.dumps(general)  # same values, same key order


@FAST
@given(state=states)
def test_clone_is_an_equal_copy_sharing_nothing_with_the_original(state: State) -> None:
    copied = clone(state)
    assert copied == state and copied is not state
    before = to_json(state)
    copied.ships["added"] = Ship("x", Hex(0, 0), 0, Side.PERU)
    for ship in copied.ships.values():
        ship.hits.append(99)
    assert to_json(state) == before  # the original is untouched


def test_nested_example_by_hand() -> None:
    huascar = Ship("Huascar", Hex(3, -1), 2, Side.PERU, guns=(Gun("10in", 2, "turret"),), damaged=frozenset({"rudder"}))
    state = State(
        turn=3,
        ships={"huascar": huascar},
        mines={Hex(1, 2): "0", Hex(-1, 0): "None"},
        seen={Square(0, 0), Square(2, 3)},
        pairs={(1, 2): True},
        by_turn={1: ["huascar"]},
        phase="play",
        note="ram",
        secret=b"\x00\xff",
        winner=Side.CHILE,
    )
    data = to_json(state)
    assert data["ships"]["huascar"]["at"] == {"q": 3, "r": -1}
    assert data["ships"]["huascar"]["side"] == "peru"
    assert data["ships"]["huascar"]["guns"] == [{"name": "10in", "dice": 2, "arc": "turret"}]
    assert data["ships"]["huascar"]["damaged"] == ["rudder"]
    assert data["mines"] == [[{"q": 1, "r": 2}, "0"], [{"q": -1, "r": 0}, "None"]]  # non-string keys: pairs
    assert data["by_turn"] == [[1, ["huascar"]]]
    assert data["pairs"] == [[[1, 2], True]]
    assert data["secret"] == "00ff"
    assert data["winner"] == "chile"
    decoded = round_trip(State, state)
    assert decoded == state
    assert isinstance(decoded.ships["huascar"].guns, tuple)
    assert isinstance(decoded.ships["huascar"].damaged, frozenset)
    assert isinstance(decoded.seen, set) and isinstance(next(iter(decoded.mines)), Hex)
    assert decoded.winner is Side.CHILE


def test_sets_encode_the_same_whatever_the_insertion_order() -> None:
    a = {Square(x, y) for x in range(3) for y in range(3)}
    b = set(sorted(a, reverse=True))
    assert to_json(a) == to_json(b)


def test_missing_field_with_default_takes_the_default() -> None:
    decoded = from_json(Gun, {"name": "6in", "dice": 1})
    assert decoded == Gun("6in", 1, "broadside")


def test_optional_none_and_value() -> None:
    assert from_json(int | None, None) is None
    assert from_json(int | None, 4) == 4
    assert from_json(Hex | None, {"q": 1, "r": 2}) == Hex(1, 2)


def test_union_tries_members_in_turn() -> None:
    assert from_json(int | str, 3) == 3
    assert from_json(int | str, "3") == "3"
    assert from_json(float, 2) == 2.0 and isinstance(from_json(float, 2), float)


# --- bad data ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("tp", "data", "error"),
    [
        (int, "3", TypeError),
        (int, True, TypeError),
        (int, 3.0, TypeError),
        (str, 3, TypeError),
        (bool, 1, TypeError),
        (float, "1.5", TypeError),
        (float, True, TypeError),
        (type(None), 0, TypeError),
        (Literal["a", "b"], "c", ValueError),
        (Side, "bolivia", ValueError),
        (Hex, [1, 2], TypeError),
        (Hex, {"q": 1}, TypeError),
        (Hex, {"q": "1", "r": 2}, TypeError),
        (tuple[int, int], [1, 2, 3], ValueError),
        (tuple[int, int], [1], ValueError),
        (int | None, "x", TypeError),
        (list[int], [1, "2"], TypeError),
        (dict[str, int], {"a": "b"}, TypeError),
        (dict[Hex, int], [[{"q": 1}, 2]], TypeError),
        (frozenset[int], [1, None], TypeError),
        (complex, 1, TypeError),
        (bytes, "xyz", ValueError),
    ],
)
def test_bad_data_raises(tp: Any, data: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        from_json(tp, data)


def test_bad_nested_data_raises() -> None:
    good = to_json(State(turn=1, ships={"a": Ship("a", Hex(0, 0), 0, Side.PERU)}))
    bad = json.loads(json.dumps(good))
    bad["ships"]["a"]["side"] = "atlantis"
    with pytest.raises(ValueError):
        from_json(State, bad)
    bad = json.loads(json.dumps(good))
    bad["ships"]["a"]["at"] = {"q": 0, "r": None}
    with pytest.raises(TypeError):
        from_json(State, bad)
    bad = json.loads(json.dumps(good))
    bad["phase"] = "finished"
    with pytest.raises(ValueError):
        from_json(State, bad)


@pytest.mark.parametrize("tp", [list[str], tuple[str, ...], set[str]])
def test_string_is_not_accepted_as_a_list(tp: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        from_json(tp, "abc")
