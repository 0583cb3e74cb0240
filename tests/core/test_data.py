"""TOML data loading: files named relative to their root in every message; data packs."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from games.core import data
from games.core.data import DATA_DIR, data_packs, listing, load, resolve, set_data_packs
from games.core.errors import DataError
from games.core.schema import Sourced

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


def test_a_record_is_the_parsed_file_and_its_name(record: data.Record) -> None:
    """Loaders decode ``doc`` into their schemas and name ``file`` in messages (relative to the pack)."""
    assert record.doc["name"] == "Ironclads" and record.doc["ships"]["huascar"]["guns"] == 2
    assert record.file == "data pack 'pack': tests/ships.toml"


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


def test_house_sources() -> None:
    assert Sourced().house and Sourced(source="historical").house and not Sourced(source="book").house


def test_load_is_cached() -> None:
    assert load("maps/open-sea.toml") is load("maps/open-sea.toml")


# --- packs ---------------------------------------------------------------------------------
def test_shipped_data_without_packs() -> None:
    assert data_packs() == ()
    assert resolve("maps/open-sea.toml") == DATA_DIR / "maps" / "open-sea.toml"
    assert load("maps/open-sea.toml").doc["name"] == "Open sea"


def test_pack_overrides_shipped_file_and_restores(write_pack: WritePack) -> None:
    shipped = (DATA_DIR / "maps" / "open-sea.toml").read_text(encoding="utf-8")  # a valid map, renamed
    root = write_pack("owner", "maps/open-sea.toml", shipped.replace('name = "Open sea"', 'name = "Owner sea"'))
    set_data_packs([root])
    assert data_packs() == (root,)
    assert resolve("maps/open-sea.toml") == root / "maps" / "open-sea.toml"
    assert load("maps/open-sea.toml").doc["name"] == "Owner sea"
    set_data_packs([])
    assert load("maps/open-sea.toml").doc["name"] == "Open sea"


def test_later_packs_win_and_new_files_add(write_pack: WritePack) -> None:
    first = write_pack("first", "tests/x.toml", 'who = "first"\n')
    write_pack("first", "tests/only-first.toml", 'who = "first"\n')
    second = write_pack("second", "tests/x.toml", 'who = "second"\n')
    set_data_packs([first, second])
    assert load("tests/x.toml").doc["who"] == "second"
    assert load("tests/only-first.toml").doc["who"] == "first"
    assert listing("tests") == ["tests/only-first.toml", "tests/x.toml"]
    set_data_packs([second, first])
    assert load("tests/x.toml").doc["who"] == "first"


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
    assert load("tests/x.toml").doc["who"] == "env2"


def test_set_data_packs_wins_over_the_environment(write_pack: WritePack, monkeypatch: pytest.MonkeyPatch) -> None:
    env = write_pack("env", "tests/x.toml", 'who = "env"\n')
    config = write_pack("config", "tests/x.toml", 'who = "config"\n')
    monkeypatch.setenv("WARGAME_DATA_PACKS", str(env))
    set_data_packs([config])
    assert load("tests/x.toml").doc["who"] == "config"
    set_data_packs([])
    assert data_packs() == ()
    with pytest.raises(DataError):  # only the packs had the file; the environment is overridden too
        load("tests/x.toml")
