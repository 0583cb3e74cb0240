"""Hex maps from TOML: the shipped open sea, terrain, packs, and bad files naming the key."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from games.core.data import set_data_packs
from games.core.errors import DataError
from games.core.hexgrid import Hex
from games.core.maps import load_map, map_ids
from games.core.view import Arrow

pytestmark = pytest.mark.usefixtures("clean_data")
WritePack = Callable[[str, str, str], Path]

COAST = """
source = "house"
name = "Coast"
orientation = "flat"
first_col = 11
first_row = 1
cols = 19
rows = 13
shifted = "odd"
default_terrain = "deep"
hexside_compass = ["6", "5", "4", "3", "2", "1"]
[terrain]
land = ["1101", "1201"]
shoal = ["1305", " 1105 "]
[[arrows]]
kind = "current"
bearing = 90
strength = "1"
"""


def test_open_sea_loads() -> None:
    sea = load_map("open-sea")
    assert sea.id == "open-sea" and sea.name == "Open sea"
    layout = sea.layout
    assert (layout.orientation, layout.first_col, layout.first_row, layout.cols, layout.rows, layout.shifted) == (
        "flat",
        1,
        1,
        19,
        13,
        "even",
    )
    assert sea.default_terrain == "deep" and sea.terrain == {}
    assert sea.compass == ("1", "2", "3", "4", "5", "6")
    assert sea.arrows == (Arrow(kind="north", bearing=0.0, label="N"),)
    assert sea.source == "house"
    assert all(sea.terrain_at(h) == "deep" for h in layout.all_hexes())
    assert sea.terrain_at(layout.from_offset(20, 1)) == "off"
    assert sea.terrain_at(layout.from_offset(1, 0)) == "off"
    assert "open-sea" in map_ids()


def test_open_sea_board() -> None:
    sea = load_map("open-sea")
    board = sea.board()
    assert board.kind == "hex" and board.key == "hex:open-sea" and board.name == "Open sea"
    assert board.hex_layout == sea.layout
    assert board.terrain == {"*": "deep"}
    assert board.hexside_compass == sea.compass and board.arrows == sea.arrows


def test_map_from_a_pack_with_terrain(write_pack: WritePack) -> None:
    set_data_packs([write_pack("pack", "maps/coast.toml", COAST)])
    coast = load_map("coast")
    layout = coast.layout
    assert coast.terrain_at(layout.parse("1101")) == "land"
    assert coast.terrain_at(layout.parse("1201")) == "land"
    assert coast.terrain_at(layout.parse("1305")) == "shoal"
    assert coast.terrain_at(layout.parse("1105")) == "shoal"  # labels are trimmed
    assert coast.terrain_at(layout.parse("2913")) == "deep"
    assert coast.terrain_at(layout.from_offset(10, 1)) == "off"
    assert coast.compass == ("6", "5", "4", "3", "2", "1")
    assert coast.arrows == (Arrow(kind="current", bearing=90.0, strength="1"),)
    assert coast.board().terrain == {"1101": "land", "1201": "land", "1305": "shoal", "1105": "shoal", "*": "deep"}
    assert {"coast", "open-sea"} <= set(map_ids())


def test_three_digit_labels_on_a_map_starting_at_column_one(write_pack: WritePack) -> None:
    text = (
        COAST.replace("first_col = 11", "first_col = 1")
        .replace('["1101", "1201"]', '["101", "0201"]')
        .replace('["1305", " 1105 "]', "[]")
    )
    set_data_packs([write_pack("pack", "maps/small.toml", text)])
    small = load_map("small")
    assert small.terrain_at(small.layout.parse("0101")) == "land"
    assert small.terrain_at(small.layout.parse("0201")) == "land"


def test_map_without_optional_keys_takes_defaults(write_pack: WritePack) -> None:
    minimal = """
name = "Bare"
orientation = "pointy"
first_col = 0
first_row = 0
cols = 3
rows = 2
shifted = "even"
"""
    set_data_packs([write_pack("pack", "maps/bare.toml", minimal)])
    bare = load_map("bare")
    assert bare.layout.orientation == "pointy" and bare.layout.shifted == "even"
    assert bare.default_terrain == "deep" and bare.terrain == {} and bare.arrows == ()
    assert bare.compass == ("1", "2", "3", "4", "5", "6") and bare.source == "house"
    assert len(bare.layout.all_hexes()) == 6


GOOD_KEYS = {
    "name": '"Bad"',
    "orientation": '"flat"',
    "first_col": "1",
    "first_row": "1",
    "cols": "5",
    "rows": "5",
    "shifted": '"odd"',
}


def bad_map(**changes: str | None) -> str:
    """A small valid map with some keys replaced (None removes one; "[table]" keys add a table)."""
    lines = []
    keys = {**GOOD_KEYS, **changes}
    for key, value in keys.items():
        if value is not None and not key.startswith("["):
            lines.append(f"{key} = {value}")
    for key, value in keys.items():
        if key.startswith("[") and value is not None:
            lines.append(f"{key}\n{value}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("changes", "key", "expected"),
    [
        ({"name": None}, "'name' is missing", "(required)"),
        ({"orientation": '"square"'}, "'orientation'", "expected one of flat, pointy, got 'square'"),
        ({"orientation": None}, "'orientation' is missing", "(required)"),
        ({"shifted": '"both"'}, "'shifted'", "expected one of odd, even, got 'both'"),
        ({"cols": "0"}, "'cols'", "expected int >= 1, got 0 (allowed: 1 to 99)"),
        ({"rows": '"13"'}, "'rows'", "expected int, got str ('13')"),
        ({"first_col": "100"}, "'first_col'", "expected int <= 99, got 100 (allowed: 0 to 99)"),
        ({"first_row": "-1"}, "'first_row'", "expected int >= 0, got -1 (allowed: 0 to 99)"),
        ({"default_terrain": "3"}, "'default_terrain'", "expected str, got int (3)"),
        ({"source": "true"}, "'source'", "expected str, got bool (True)"),
        ({"hexside_compass": '["1", "2", "3", "4", "5"]'}, "'hexside_compass'", "expected array of length >= 6, got 5"),
        ({"hexside_compass": "[1, 2, 3, 4, 5, 6]"}, "'hexside_compass[0]'", "expected str, got int (1)"),
        ({"[terrain]": 'land = ["0901"]'}, "'terrain.land'", "'0901' is not a hex on this map"),
        ({"[terrain]": 'land = ["north"]'}, "'terrain.land'", "'north' is not a hex on this map"),
        ({"[terrain]": 'land = "0101"'}, "'terrain.land'", "expected array, got str ('0101')"),
        ({"[terrain]": "land = [101]"}, "'terrain.land[0]'", "expected str, got int (101)"),
        ({"[[arrows]]": "bearing = 0.0"}, "'arrows[0].kind' is missing", "(required)"),
        ({"[[arrows]]": 'kind = "wind"\nbearing = "N"'}, "'arrows[0].bearing'", "expected float, got str ('N')"),
    ],
)
def test_bad_map_files_raise_data_error_naming_the_key(
    write_pack: WritePack, changes: dict[str, str | None], key: str, expected: str
) -> None:
    root = write_pack("pack", "maps/bad.toml", bad_map(**changes))
    set_data_packs([root])
    with pytest.raises(DataError) as info:
        load_map("bad")
    text = str(info.value)
    assert text.startswith("data pack 'pack': maps/bad.toml:")  # relative to the pack: no server path
    assert str(root) not in text
    assert f"key {key}" in text
    assert expected in text


def test_good_variant_of_the_bad_map_loads(write_pack: WritePack) -> None:
    set_data_packs([write_pack("pack", "maps/fine.toml", bad_map(**{"[terrain]": 'land = ["0101"]'}))])
    fine = load_map("fine")
    assert fine.name == "Bad" and fine.terrain_at(Hex(0, 0)) == "land"


def test_unknown_map_is_a_data_error() -> None:
    with pytest.raises(DataError, match=re.escape("maps/atlantis.toml not found")):
        load_map("atlantis")


def test_pack_can_override_the_shipped_map(write_pack: WritePack) -> None:
    text = bad_map(name='"Owner sea"')
    set_data_packs([write_pack("owner", "maps/open-sea.toml", text)])
    assert load_map("open-sea").name == "Owner sea"


def test_set_data_packs_reloads_maps_loaded_earlier(write_pack: WritePack) -> None:
    assert load_map("open-sea").name == "Open sea"
    set_data_packs([write_pack("owner", "maps/open-sea.toml", bad_map(name='"Owner sea"'))])
    assert load_map("open-sea").name == "Owner sea"
