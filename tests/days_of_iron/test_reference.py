"""The reference-table slot: empty in the shipped game, used when an owner loads a data pack."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from games.core import data
from games.core.errors import DataError, IllegalOrder, UnknownName
from games.core.schema import validate_all
from games.days_of_iron.data import HOUSE_CHARTS, house, reference
from tests.days_of_iron.helpers import MORALE, RS, SMALL_ARMS, new_game, order, ready_both, start_turn
from tests.scripted import DiceThenStream


@pytest.fixture
def pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temporary data pack with a morale table and a dice table; the packs are reset after."""
    monkeypatch.delenv("WARGAME_DATA_PACKS", raising=False)
    monkeypatch.setattr(data, "_packs", None)  # restored by monkeypatch after the test
    folder = tmp_path / "days_of_iron" / "reference"
    folder.mkdir(parents=True)
    (folder / "morale.toml").write_text(MORALE, encoding="utf-8")
    (folder / "small-arms.toml").write_text(SMALL_ARMS, encoding="utf-8")
    data.set_data_packs([tmp_path])
    yield folder
    data.set_data_packs([])  # runs the reload hooks so no cached table outlives the pack


def test_shipped_game_has_no_reference_tables_and_says_so() -> None:
    assert reference().empty
    assert "the measured table uses HOUSE sheets" in RS.help()
    assert "Reference tables loaded: none" in RS.help()
    assert "movement.toml (house)" in RS.help()
    state, rng = new_game(board="tape")
    ready_both(state, rng)
    start_turn(state)
    with pytest.raises(IllegalOrder, match="no morale table is loaded"):
        RS.parse_order(state, "french", "morale 2e de Ligne charge")
    assert "No reference tables loaded (shipped game)." in RS.view(state, None).status
    measured, _ = new_game()
    assert ("Measured table: reference sheets in use - house values (data/days_of_iron/reference/README.md)."
            in RS.view(measured, None).status)


def test_morale_lookup_from_a_data_pack(pack: Path) -> None:
    assert "morale.toml" in RS.help() and "small-arms.toml" in RS.help()
    state, _ = new_game()
    ready_both(state, DiceThenStream([6, 1, 2, 2, 2, 2, 2, 2, 6, 1]))  # Laveaucoupet 6, Doëns 1
    start_turn(state)
    # 2e de Ligne: base 1 + Class 2 (2) + inept Doëns (1) + disordered (1) = 5; a 6 passes
    events = order(state, "french", "morale 2e de Ligne charge disordered", DiceThenStream([6]))
    text = events[0].text
    assert "base +1, Class 2 +2, inept General +1, disordered +1 = 5; 1d6 = 6: PASSED - Charges." in text
    events = order(state, "french", "morale 2e de Ligne charge disordered", DiceThenStream([5]))
    assert "= 5; 1d6 = 5: FAILED - May not close." in events[0].text  # the die must be HIGHER
    # the divisional artillery has no brigade General: the senior General (Laveaucoupet, exceptional 6)
    events = order(state, "french", "morale 7e Batterie charge", DiceThenStream([1]))
    assert "base +1, exceptional General -1 = 0; 1d6 = 1: PASSED" in events[0].text
    with pytest.raises(UnknownName, match="no factor `muddy`"):
        RS.parse_order(state, "french", "morale 2e de Ligne charge muddy")


def test_dice_table_lookup_from_a_data_pack(pack: Path) -> None:
    state, rng = new_game()
    ready_both(state, rng)
    start_turn(state)
    assert "HH" in order(state, "prussian", "table small-arms dense", DiceThenStream([5]))[0].text
    events = order(state, "prussian", "table small line -1", DiceThenStream([4]))
    assert "1d6 [4] = **4** -1 = 3: -" in events[0].text
    assert RS.parse_order(state, "prussian", "table small dense +2").text == "table small-arms dense +2"


def test_bad_reference_files_name_the_problem(pack: Path) -> None:
    (pack / "small-arms.toml").write_text(SMALL_ARMS.replace("roll = [4, 6]", "roll = [5, 6]"), encoding="utf-8")
    data.set_data_packs([pack.parents[1]])  # reloading the packs drops the cached tables
    with pytest.raises(DataError, match="without gaps"):
        reference()
    (pack / "small-arms.toml").write_text('kind = "chart"\n', encoding="utf-8")
    data.set_data_packs([pack.parents[1]])
    with pytest.raises(DataError, match="expected one of morale, table"):
        reference()


def test_a_bad_force_in_a_pack_names_file_and_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(data, "_packs", None)
    forces = tmp_path / "days_of_iron" / "forces"
    forces.mkdir(parents=True)
    (forces / "french-division.toml").write_text(
        'source = "owner"\nname = "Broken"\nnation = "french"\ngeneral = "G"\n'
        '[[brigades]]\nid = "b"\nname = "B"\nunits = [{ id = "u", name = "U", type = "infantry", class = 5, stands = 4 }]\n',
        encoding="utf-8")
    data.set_data_packs([tmp_path])
    try:
        with pytest.raises(DataError, match=r"french-division.toml: key 'brigades\[0\].units\[0\].class'"):
            new_game("meeting")
    finally:
        data.set_data_packs([])


def test_shipped_house_sheets_are_complete_and_marked_house() -> None:
    sheets = house()
    assert set(sheets.sources.values()) == {"house"}
    assert set(HOUSE_CHARTS) <= set(sheets.charts)
    assert sheets.charts["small-arms"].column_for(6) == 1 and sheets.charts["small-arms"].column_for(13) is None
    readme = (Path(__file__).parents[2] / "data/days_of_iron/reference/README.md").read_text(encoding="utf-8")
    for name in sheets.sources:
        assert f"`sheets/{name}`" in readme, name
    assert {"open", "hill", "road", "river", "urban", "light-wood", "heavy-wood"} <= set(sheets.terrain)


def test_an_owners_movement_sheet_replaces_the_house_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(data, "_packs", None)
    folder = tmp_path / "days_of_iron" / "reference" / "sheets"
    folder.mkdir(parents=True)
    shipped = (Path(__file__).parents[2] / "data/days_of_iron/reference/sheets/movement.toml").read_text(encoding="utf-8")
    (folder / "movement.toml").write_text(shipped.replace('source = "house"', 'source = "owner"').replace(
        "column = 8\n", "column = 10\n", 1), encoding="utf-8")
    data.set_data_packs([tmp_path])
    try:
        assert house().movement.rates["infantry"].column == 10
        assert house().sources["movement.toml"] == "owner" and house().sources["terrain.toml"] == "house"
        assert "movement.toml (owner)" in RS.help()
        (folder / "movement.toml").write_text(shipped.replace("wheel_factor = 2", "wheel_factor = 0.5"), encoding="utf-8")
        data.set_data_packs([tmp_path])
        with pytest.raises(DataError, match="wheel_factor"):
            validate_all()
    finally:
        data.set_data_packs([])


SHIPPED = Path(__file__).parents[2] / "data"


@pytest.mark.parametrize(
    ("relpath", "old", "new", "loader", "message"),
    [
        ("days_of_iron/rules.toml", "standard = { inept = [1], capable = [2, 3, 4, 5]",
         "standard = { inept = [1], capable = [2, 3, 4]", "rules",
         "days_of_iron/rules.toml: key 'staff.standard': expected each face 1-6 exactly once, got [1, 2, 3, 4, 6]"),
        ("days_of_iron/reference/sheets/morale-tests.toml", "roll = [1, 1]", "roll = [1, 0]", "morale_sheet",
         "days_of_iron/reference/sheets/morale-tests.toml: key 'tests.casualties.rows[1].roll': "
         "expected [low, high], got [1, 0]"),
        ("days_of_iron/reference/sheets/small-arms-chart.toml", 'results = ["H", "-", "-"]', 'results = ["H", "-"]',
         "house", "days_of_iron/reference/sheets/small-arms-chart.toml: key 'rows[1].results': "
         "expected 3 results (one per column), got 2"),
        ("days_of_iron/reference/sheets/small-arms-chart.toml", "roll = [4, 4]", "roll = [5, 5]", "house",
         "days_of_iron/reference/sheets/small-arms-chart.toml: key 'rows': expected roll ranges that follow on "
         "without gaps or overlaps, got 1-3 then 5-5"),
        ("days_of_iron/reference/sheets/small-arms-chart.toml", 'dice = "1d6"', 'dice = "1q6"', "house",
         "days_of_iron/reference/sheets/small-arms-chart.toml: key 'dice': "),
    ],
)
def test_checks_across_keys_name_file_key_and_expectation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, relpath: str, old: str, new: str, loader: str, message: str
) -> None:
    """What the schema cannot say (faces once each, rows that follow on, one result per column, the
    dice notation) is checked after decoding, in the schema's words: the file, the key, the expectation."""
    from games.days_of_iron import data as doi

    monkeypatch.setattr(data, "_packs", None)
    shipped = (SHIPPED / relpath).read_text(encoding="utf-8")
    assert old in shipped
    (tmp_path / relpath).parent.mkdir(parents=True)
    (tmp_path / relpath).write_text(shipped.replace(old, new, 1), encoding="utf-8")
    data.set_data_packs([tmp_path])
    try:
        with pytest.raises(DataError) as info:
            getattr(doi, loader)()
        assert str(info.value).startswith(f"data pack '{tmp_path.name}': {message}")
    finally:
        data.set_data_packs([])


def test_an_owners_morale_test_names_the_qualities_a_staff_factor_may_have(pack: Path) -> None:
    (pack / "morale.toml").write_text(MORALE.replace("none = 2", "nobody = 2"), encoding="utf-8")
    data.set_data_packs([pack.parents[1]])
    with pytest.raises(DataError) as info:
        reference()
    assert str(info.value).endswith("days_of_iron/reference/morale.toml: key 'tests.charge.staff.nobody' is not "
                                    "allowed as a key here: expected one of inept, capable, exceptional, none")
