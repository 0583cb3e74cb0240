"""TOML data loading: validating getters whose errors name file, key and expectation; data packs."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from games.core import data
from games.core.data import DATA_DIR, data_packs, is_house, listing, load, resolve, set_data_packs
from games.core.errors import DataError

pytestmark = pytest.mark.usefixtures("clean_data")
WritePack = Callable[[str, str, str], Path]

SHIPS_TOML = """
source = "house"
name = "Ironclads"
year = 1879
speed = 3.5
knots = 12
steam = true
sides = ["peru", "chile"]
mixed = ["a", 2]
nation = "peru"
count = 40
flag = "yes"

[ships.huascar]
name = "Huascar"
speed = "fast"
guns = 2

[ships.esmeralda]
name = "Esmeralda"

[[arrows]]
kind = "north"
bearing = 0.0

[[arrows]]
bearing = 90
"""


@pytest.fixture
def record(write_pack: WritePack) -> data.Record:
    root = write_pack("pack", "tests/ships.toml", SHIPS_TOML)
    set_data_packs([root])
    return load("tests/ships.toml")


def message(exc: pytest.ExceptionInfo[DataError]) -> str:
    return str(exc.value)


# --- getters -------------------------------------------------------------------------------
def test_good_values(record: data.Record) -> None:
    assert record.str("name") == "Ironclads"
    assert record.str("nation", ("peru", "chile")) == "peru"
    assert record.int("year") == 1879
    assert record.int("count", 0, 40) == 40
    assert record.float("speed") == 3.5
    assert record.float("knots") == 12.0 and isinstance(record.float("knots"), float)
    assert record.bool("steam") is True
    assert record.list("sides") == ["peru", "chile"]
    assert record.str_list("sides") == ["peru", "chile"]
    assert record.has("name") and not record.has("nope")
    assert record.keys()[:3] == ["source", "name", "year"]
    assert record.opt_str("nope", "x") == "x" and record.opt_str("name", "x") == "Ironclads"
    assert record.opt_int("nope", 5) == 5 and record.opt_int("year", 5) == 1879
    assert record.opt_float("nope", 1.5) == 1.5 and record.opt_bool("nope", False) is False
    assert record.opt_bool("steam", False) is True
    assert is_house(record)


def test_sub_tables_and_arrays(record: data.Record) -> None:
    ships = record.table("ships")
    assert [key for key, _ in ships.items()] == ["huascar", "esmeralda"]
    huascar = ships.table("huascar")
    assert huascar.str("name") == "Huascar" and huascar.int("guns") == 2
    arrows = record.tables("arrows")
    assert arrows[0].str("kind") == "north" and arrows[1].float("bearing") == 90.0


@pytest.mark.parametrize(
    ("get", "key_text", "expected"),
    [
        (lambda r: r.str("missing"), "key 'missing' is missing", "expected a string"),
        (lambda r: r.str("year"), "key 'year'", "expected a string, got 1879"),
        (lambda r: r.str("flag", ("true", "false")), "key 'flag'", "expected one of true, false, got 'yes'"),
        (lambda r: r.int("name"), "key 'name'", "expected an integer, got 'Ironclads'"),
        (lambda r: r.int("steam"), "key 'steam'", "expected an integer, got True"),
        (lambda r: r.int("speed"), "key 'speed'", "expected an integer, got 3.5"),
        (lambda r: r.int("count", 1, 10), "key 'count'", "expected an integer from 1 to 10, got 40"),
        (lambda r: r.int("missing"), "key 'missing' is missing", "expected an integer"),
        (lambda r: r.float("name"), "key 'name'", "expected a number, got 'Ironclads'"),
        (lambda r: r.float("steam"), "key 'steam'", "expected a number, got True"),
        (lambda r: r.bool("flag"), "key 'flag'", "expected true or false, got 'yes'"),
        (lambda r: r.bool("count"), "key 'count'", "expected true or false, got 40"),
        (lambda r: r.list("name"), "key 'name'", "expected a list"),
        (lambda r: r.str_list("mixed"), "key 'mixed'[1]", "expected a string, got 2"),
        (lambda r: r.table("name"), "key 'name'", "expected a table"),
        (lambda r: r.tables("sides"), "key 'sides'[0]", "expected a table, got 'peru'"),
        (lambda r: r.opt_int("name", 0), "key 'name'", "expected an integer"),
        (
            lambda r: r.table("ships").table("huascar").int("speed"),
            "key 'ships.huascar.speed'",
            "expected an integer, got 'fast'",
        ),
        (
            lambda r: r.table("ships").table("esmeralda").int("guns"),
            "key 'ships.esmeralda.guns' is missing",
            "expected an integer",
        ),
        (lambda r: r.tables("arrows")[1].str("kind"), "key 'arrows[1].kind' is missing", "expected a string"),
        (
            lambda r: dict(r.table("ships").items())["huascar"].int("speed"),
            "key 'ships.huascar.speed'",
            "expected an integer",
        ),
    ],
)
def test_validation_messages_name_file_key_and_expectation(
    record: data.Record, get: Callable[[data.Record], object], key_text: str, expected: str
) -> None:
    with pytest.raises(DataError) as info:
        get(record)
    text = message(info)
    assert text.startswith(record.file + ":")
    assert record.file == "data pack 'pack': tests/ships.toml"  # relative to the pack: no server path
    assert key_text in text
    assert expected in text


def test_int_bounds_may_be_open(record: data.Record) -> None:
    assert record.int("year", low=1800) == 1879
    with pytest.raises(DataError, match="from 1900 to None"):
        record.int("year", low=1900)


def test_invalid_toml_names_the_file(write_pack: WritePack) -> None:
    root = write_pack("pack", "tests/broken.toml", "name = \n[[")
    set_data_packs([root])
    with pytest.raises(DataError) as info:
        load("tests/broken.toml")
    assert str(info.value).startswith("data pack 'pack': tests/broken.toml: not valid TOML")
    assert str(root) not in str(info.value)


def test_missing_file_names_the_path_and_the_places_looked() -> None:
    with pytest.raises(DataError) as info:
        load("tests/does-not-exist.toml")
    assert "tests/does-not-exist.toml not found (looked in data)" in str(info.value)
    assert str(DATA_DIR) not in str(info.value)


def test_is_house() -> None:
    assert is_house(data.Record({}, "f", ""))
    assert is_house(data.Record({"source": "house"}, "f", ""))
    assert not is_house(data.Record({"source": "book"}, "f", ""))


def test_load_is_cached() -> None:
    assert load("maps/open-sea.toml") is load("maps/open-sea.toml")


# --- packs ---------------------------------------------------------------------------------
def test_shipped_data_without_packs() -> None:
    assert data_packs() == ()
    assert resolve("maps/open-sea.toml") == DATA_DIR / "maps" / "open-sea.toml"
    assert load("maps/open-sea.toml").str("name") == "Open sea"


def test_pack_overrides_shipped_file_and_restores(write_pack: WritePack) -> None:
    shipped = (DATA_DIR / "maps" / "open-sea.toml").read_text(encoding="utf-8")  # a valid map, renamed
    root = write_pack("owner", "maps/open-sea.toml", shipped.replace('name = "Open sea"', 'name = "Owner sea"'))
    set_data_packs([root])
    assert data_packs() == (root,)
    assert resolve("maps/open-sea.toml") == root / "maps" / "open-sea.toml"
    assert load("maps/open-sea.toml").str("name") == "Owner sea"
    set_data_packs([])
    assert load("maps/open-sea.toml").str("name") == "Open sea"


def test_later_packs_win_and_new_files_add(write_pack: WritePack) -> None:
    first = write_pack("first", "tests/x.toml", 'who = "first"\n')
    write_pack("first", "tests/only-first.toml", 'who = "first"\n')
    second = write_pack("second", "tests/x.toml", 'who = "second"\n')
    set_data_packs([first, second])
    assert load("tests/x.toml").str("who") == "second"
    assert load("tests/only-first.toml").str("who") == "first"
    assert listing("tests") == ["tests/only-first.toml", "tests/x.toml"]
    set_data_packs([second, first])
    assert load("tests/x.toml").str("who") == "first"


def test_listing_merges_shipped_and_pack_files(write_pack: WritePack) -> None:
    root = write_pack("pack", "maps/coast.toml", 'name = "Coast"\n')
    write_pack("pack", "maps/readme.txt", "not a map")
    set_data_packs([str(root)])
    found = listing("maps")
    assert "maps/coast.toml" in found and "maps/open-sea.toml" in found
    assert "maps/readme.txt" not in found
    assert listing("maps", ".txt") == ["maps/readme.txt"]
    assert listing("no-such-folder") == []


def test_environment_variable_packs(write_pack: WritePack, monkeypatch: pytest.MonkeyPatch) -> None:
    first = write_pack("env1", "tests/x.toml", 'who = "env1"\n')
    second = write_pack("env2", "tests/x.toml", 'who = "env2"\n')
    monkeypatch.setenv("WARGAME_DATA_PACKS", os.pathsep.join([str(first), "", str(second)]))
    assert data_packs() == (first, second)
    assert load("tests/x.toml").str("who") == "env2"


def test_set_data_packs_wins_over_the_environment(write_pack: WritePack, monkeypatch: pytest.MonkeyPatch) -> None:
    env = write_pack("env", "tests/x.toml", 'who = "env"\n')
    config = write_pack("config", "tests/x.toml", 'who = "config"\n')
    monkeypatch.setenv("WARGAME_DATA_PACKS", str(env))
    set_data_packs([config])
    assert load("tests/x.toml").str("who") == "config"
    set_data_packs([])
    assert data_packs() == ()
    with pytest.raises(DataError):  # only the packs had the file; the environment is overridden too
        load("tests/x.toml")
