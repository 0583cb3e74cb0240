"""Start-up validation of every data file and pack against its schema (issue 11, item 4).

Every shipped file validates; an unknown key in any kind of file is refused naming the pack, the
file, the key and why; a file no schema covers and a pack folder that does not exist are refused;
no message carries a server path.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from pathlib import Path

import pytest

from games.core import schema
from games.core.data import DATA_DIR, load, set_data_packs
from games.core.errors import DataError

pytestmark = pytest.mark.usefixtures("clean_data")
WritePack = Callable[[str, str, str], Path]

SHIPPED = sorted(p.relative_to(DATA_DIR).as_posix() for p in DATA_DIR.rglob("*.toml"))


def problems_with(*packs: Path) -> list[str]:
    set_data_packs(list(packs))
    return schema.problems()


def test_every_shipped_file_validates() -> None:
    assert len(SHIPPED) >= 37
    assert schema.problems() == []
    schema.validate_all()  # no exception


def test_every_shipped_file_has_exactly_one_schema() -> None:
    schemas = schema.registry()
    for relpath in SHIPPED:
        assert schema.schema_for(relpath, schemas) is not None, relpath


def test_every_schema_governs_a_shipped_file_or_the_reference_slot() -> None:
    for pattern in schema.registry():
        assert pattern == "days_of_iron/reference/*.toml" or any(schema._matches(pattern, p) for p in SHIPPED), pattern


@pytest.mark.slow
@pytest.mark.parametrize("relpath", SHIPPED)
def test_unknown_top_level_key_is_refused_in_every_file(relpath: str, write_pack: WritePack) -> None:
    text = (DATA_DIR / relpath).read_text(encoding="utf-8")
    root = write_pack("mypack", relpath, "heigth = 12\n" + text)
    found = problems_with(root)
    assert found == [f"data pack 'mypack': {relpath}: key 'heigth' is not allowed (unknown field)"]


# Files whose last table is keyed by names the owner chooses: there a new key is a new entry.
NAMED_ENTRIES = {
    "decks/mines.toml": "",  # a card called heigth, 12 copies: a legal deck
    "iron_and_fire/mines.toml": "key 'mix.heigth' is not allowed as a key here: expected str matching regex",
    "oak_and_iron/dice.toml": "key 'faces_for.heigth': expected array, got int",
}


@pytest.mark.slow
@pytest.mark.parametrize("relpath", SHIPPED)
def test_unknown_key_in_the_last_table_is_refused_in_every_file(relpath: str, write_pack: WritePack) -> None:
    text = (DATA_DIR / relpath).read_text(encoding="utf-8")
    root = write_pack("mypack", relpath, text.rstrip("\n") + "\nheigth = 12\n")
    found = problems_with(root)
    if relpath in NAMED_ENTRIES:
        expected = NAMED_ENTRIES[relpath]
        assert (found == []) if not expected else (len(found) == 1 and expected in found[0]), found
        return
    assert len(found) == 1
    assert found[0].startswith(f"data pack 'mypack': {relpath}: key '")
    assert "heigth' is not allowed (unknown field)" in found[0]


def test_the_issue_example_names_pack_file_key_and_expectation(write_pack: WritePack) -> None:
    text = (DATA_DIR / "iron_and_fire/ships.toml").read_text(encoding="utf-8")
    nested = text.replace('[ships.huascar]\n', '[ships.huascar]\nheigth = 12\n', 1)
    root = write_pack("mypack", "iron_and_fire/ships.toml", nested)
    assert problems_with(root) == [
        "data pack 'mypack': iron_and_fire/ships.toml: key 'ships.huascar.heigth' is not allowed (unknown field)"
    ]
    wrong_type = text.replace("mf = 3\n", 'mf = "three"\n', 1)
    write_pack("mypack", "iron_and_fire/ships.toml", wrong_type)
    assert problems_with(root) == [
        "data pack 'mypack': iron_and_fire/ships.toml: key 'ships.huascar.mf': expected int, got str ('three')"
    ]


@pytest.mark.parametrize(
    ("relpath", "old", "new", "expected"),
    [
        ("maps/open-sea.toml", 'orientation = "flat"', 'orientation = "round"',
         "key 'orientation': expected one of flat, pointy, got 'round'"),
        ("maps/open-sea.toml", "cols = 19", "cols = 100", "key 'cols': expected int <= 99"),
        ("iron_and_fire/ships.toml", "pf = 7", "pf = 0", "key 'ships.huascar.pf': expected int >= 1"),
        ("iron_and_fire/mines.toml", '"0" = 3', "ten = 3", "key 'mix.ten' is not allowed as a key here"),
        ("iron_and_fire/scenarios.toml", "current = 2", "current = true", "key 's1.current': expected int, got bool"),
        ("decks/mines.toml", '"No mine" = 6', '"No mine" = 0', "key 'cards.No mine': expected int >= 1"),
        ("days_of_iron/rules.toml", "exceptional = [6] }", "exceptional = [7] }",
         "key 'staff.standard.exceptional[0]': expected int <= 6"),
        ("oak_and_iron/initiative.toml", 'effect = "band_closer"', 'effect = "magic"',
         "key 'cards.effective-fire.effect': expected one of none, reroll_attack"),
        ("ironclad_draughts/scenarios.toml", 'class = "kaiser_max"', 'klass = "kaiser_max"',
         "key 'scenarios.standard.sides[0].ships[2].klass' is not allowed (unknown field)"),
    ],
)
def test_bad_values_name_key_and_expectation(relpath: str, old: str, new: str, expected: str,
                                             write_pack: WritePack) -> None:
    text = (DATA_DIR / relpath).read_text(encoding="utf-8")
    assert old in text
    root = write_pack("pack", relpath, text.replace(old, new, 1))
    found = problems_with(root)
    assert len(found) == 1 and found[0].startswith(f"data pack 'pack': {relpath}: ")
    assert expected in found[0]


def test_missing_required_key_is_named(write_pack: WritePack) -> None:
    root = write_pack("pack", "dice/d3.toml", 'faces = ["1", "2", "3"]\n')
    assert problems_with(root) == ["data pack 'pack': dice/d3.toml: key 'name' is missing (required)"]


def test_a_file_no_schema_covers_is_refused(write_pack: WritePack) -> None:
    root = write_pack("pack", "iron_and_fire/shipz.toml", 'source = "house"\n')
    write_pack("pack", "maps/old/x.toml", 'name = "x"\n')
    write_pack("pack", "README.md", "notes for the pack owner are fine\n")
    found = problems_with(root)
    assert [line.split(": no schema covers this path")[0] for line in found] == [
        "data pack 'pack': iron_and_fire/shipz.toml",
        "data pack 'pack': maps/old/x.toml",
    ]


def test_a_new_file_in_a_known_folder_is_checked_by_its_folder_schema(write_pack: WritePack) -> None:
    text = (DATA_DIR / "maps/open-sea.toml").read_text(encoding="utf-8")
    root = write_pack("pack", "maps/coast.toml", text)
    assert problems_with(root) == []
    write_pack("pack", "maps/coast.toml", text + '\n[[arrows]]\nkind = "wind"\nbering = 90.0\n')
    [problem] = problems_with(root)
    assert problem.startswith("data pack 'pack': maps/coast.toml: key 'arrows[")
    assert problem.endswith("].bering' is not allowed (unknown field)")


def test_a_missing_pack_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert problems_with(tmp_path / "no-such-pack") == [
        "data pack 'no-such-pack': the folder does not exist (check WARGAME_DATA_PACKS or the data-pack setting)"
    ]
    set_data_packs([])
    monkeypatch.setenv("WARGAME_DATA_PACKS", str(tmp_path / "gone"))
    monkeypatch.setattr("games.core.data._packs", None)
    with pytest.raises(DataError, match="data pack 'gone': the folder does not exist"):
        schema.validate_all()


def test_invalid_toml_and_every_problem_are_listed_without_server_paths(write_pack: WritePack, tmp_path: Path) -> None:
    root = write_pack("pack", "maps/broken.toml", "name = \n[[")
    write_pack("pack", "dice/d2.toml", 'name = "d2"\nfaces = ["a", "b"]\nsides = 2\n')
    with pytest.raises(DataError) as info:
        set_data_packs([root, tmp_path / "missing"])
        schema.validate_all()
    text = str(info.value)
    assert "data pack 'pack': maps/broken.toml: not valid TOML" in text
    assert "data pack 'pack': dice/d2.toml: key 'sides' is not allowed (unknown field)" in text
    assert "data pack 'missing': the folder does not exist" in text
    assert str(tmp_path) not in text and str(DATA_DIR) not in text


def test_loader_errors_carry_no_server_path(write_pack: WritePack, tmp_path: Path) -> None:
    root = write_pack("pack", "maps/broken.toml", "name = \n[[")
    set_data_packs([root])
    with pytest.raises(DataError) as info:
        load("maps/broken.toml")
    assert str(info.value).startswith("data pack 'pack': maps/broken.toml: not valid TOML")
    with pytest.raises(DataError) as missing:
        load("maps/atlantis.toml")
    assert str(tmp_path) not in str(missing.value) and str(DATA_DIR) not in str(missing.value)
    assert "maps/atlantis.toml not found (looked in data pack 'pack', data)" in str(missing.value)


def test_cross_file_checks_run_at_start_up(write_pack: WritePack) -> None:
    """A hex that is not on the map passes the schema (a string) but the map loader refuses it."""
    text = (DATA_DIR / "maps/open-sea.toml").read_text(encoding="utf-8")
    root = write_pack("pack", "maps/coast.toml", text + '\n[terrain]\nland = ["9999"]\n')
    found = problems_with(root)
    assert found == ["data pack 'pack': maps/coast.toml: key 'terrain.land': '9999' is not a hex on this map"]


MORALE = """
kind = "morale"
source = "owner"
[tests.charge]
name = "To Charge test"
base = 0
class = [3, 2, 1, 0]
staff = { inept = 1, capable = 0, exceptional = -1, none = 2 }
pass = "The unit charges."
fail = "The unit may not move closer."
[tests.charge.factors]
disordered = 1
"""

TABLE = """
kind = "table"
id = "small-arms"
name = "Small arms (4 stands)"
dice = "1d6"
columns = ["dispersed", "line", "dense"]
[[rows]]
roll = [1, 3]
results = ["-", "-", "H"]
[[rows]]
roll = [4, 6]
results = ["-", "H", "HH"]
"""


@pytest.mark.slow
def test_reference_sheets_of_both_kinds(write_pack: WritePack) -> None:
    root = write_pack("sheets", "days_of_iron/reference/morale.toml", MORALE)
    write_pack("sheets", "days_of_iron/reference/small-arms.toml", TABLE)
    assert problems_with(root) == []
    write_pack("sheets", "days_of_iron/reference/small-arms.toml", TABLE.replace('kind = "table"', 'kind = "chart"'))
    assert problems_with(root) == [
        "data pack 'sheets': days_of_iron/reference/small-arms.toml: key 'kind': expected one of morale, table, got 'chart'"
    ]
    write_pack("sheets", "days_of_iron/reference/small-arms.toml", TABLE)
    write_pack("sheets", "days_of_iron/reference/morale.toml", MORALE.replace("base = 0", "bass = 0"))
    assert problems_with(root) == [
        "data pack 'sheets': days_of_iron/reference/morale.toml: key 'tests.charge.bass' is not allowed (unknown field)"
    ]


def test_a_pack_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pack.toml").write_text("", encoding="utf-8")
    assert problems_with(tmp_path / "pack.toml") == [
        "data pack 'pack.toml': is not a folder (check WARGAME_DATA_PACKS or the data-pack setting)"
    ]


def test_an_upgrade_price_no_ship_card_can_hold_is_refused(write_pack: WritePack) -> None:
    text = (DATA_DIR / "oak_and_iron/rules.toml").read_text(encoding="utf-8")
    root = write_pack("pack", "oak_and_iron/rules.toml", text.replace('cost_key = "stout_cost"', 'cost_key = "stoot_cost"'))
    [problem] = problems_with(root)
    assert problem.startswith("data pack 'pack': oak_and_iron/rules.toml: key 'upgrades.stout.cost_key': expected one of")
    assert problem.endswith("got 'stoot_cost'")


def test_oak_and_iron_choices_match_the_loaders() -> None:
    from games.oak_and_iron import data as cards
    from games.oak_and_iron import measure
    from games.oak_and_iron import schema as oak

    assert typing.get_args(oak.InitiativeEffect) == cards.INITIATIVE_EFFECTS
    assert typing.get_args(oak.EventEffect) == cards.EVENT_EFFECTS
    assert set(typing.get_args(oak.WeatherEdge)) == set(measure.WEATHER_EDGES)


def test_a_loader_refuses_what_the_start_up_check_refuses(write_pack: WritePack) -> None:
    """The loaders decode into the same schemas, so a loader called without the start-up check (a
    pack switched on later) refuses an unknown key with the start-up message (it once skipped it)."""
    from games.ironclad_draughts import data as draughts

    text = (DATA_DIR / "ironclad_draughts/ships.toml").read_text(encoding="utf-8")
    root = write_pack("pack", "ironclad_draughts/ships.toml", text.replace("year = 1865", "year = 1865\nyaer = 1", 1))
    [problem] = problems_with(root)
    with pytest.raises(DataError) as info:
        draughts.ship_classes()
    assert str(info.value) == problem == (
        "data pack 'pack': ironclad_draughts/ships.toml: key 'classes.ferdinand_max.yaer' is not allowed (unknown field)"
    )


def test_a_number_out_of_range_gives_the_value_and_the_whole_range(write_pack: WritePack) -> None:
    text = (DATA_DIR / "ironclad_draughts/scenarios.toml").read_text(encoding="utf-8")
    root = write_pack("pack", "ironclad_draughts/scenarios.toml", text.replace("width = 8", "width = 2", 1))
    assert problems_with(root) == [
        "data pack 'pack': ironclad_draughts/scenarios.toml: key 'scenarios.standard.width': "
        "expected int >= 3, got 2 (allowed: 3 to 26)"
    ]


def test_the_free_tables_loader_names_the_key_and_what_was_expected(write_pack: WritePack) -> None:
    """The model that docs/adding-a-system.md tells a new system to copy decoded its file by hand
    and passed msgspec's own words on (``Expected `int` >= 2 - at `$.max_sides```); it now decodes
    through the one loader, which says it as the start-up check does."""
    from games.table import data as table_data

    shipped = (DATA_DIR / "table" / "table.toml").read_text(encoding="utf-8")
    root = write_pack("pack", "table/table.toml", shipped.replace("max_sides = 6", "max_sides = 1"))
    set_data_packs([root])  # clears the loader's cache too
    try:
        with pytest.raises(DataError) as info:
            table_data.settings()
        assert str(info.value) == "data pack 'pack': table/table.toml: key 'max_sides': expected int >= 2, got 1 (allowed: 2 to 12)"
    finally:
        set_data_packs([])
