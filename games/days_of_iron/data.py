"""Everything Days of Iron reads from ``data/days_of_iron``: the book's numbers, the sample forces
and scenarios, and the slot for the owners' reference sheets.

``rules.toml`` holds only what the book prints (sections 3.4, 5, 14.1, 14.3, 16.5, 17.5.8, 18.2,
19.2-19.4 as ruled); forces and scenarios are house data. Everything is validated on load so a
broken data pack names its file and key instead of failing mid-game.

The book's reference sheets are not in its text. Owners of the printed sheets drop TOML files into
``days_of_iron/reference/`` of a data pack (none ship). Two kinds are understood:

* ``kind = "morale"``: the morale tests of 17.2. Each test adds its factors (the unit's class,
  its commanding General's quality, and the factors the player names) and rolls 1d6; the unit
  passes when the die is HIGHER than the total.
* ``kind = "table"``: a dice table with columns (e.g. a shooting chart): roll the table's dice,
  add a modifier, read the row whose range holds the total in the named column.

The format is documented in ``data/days_of_iron/reference/README.md``.

The measured table (option board=measured) reads its own sheets from ``reference/sheets/``:
movement rates and stand sizes, terrain effects and dice charts (small arms, artillery, morale,
close assault, damage to artillery, casualties to staff). HOUSE values ship there, each file
tagged ``source = "house"``; an owner's pack replaces them file by file (``house()``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TypeVar

import msgspec

from games.core.data import listing, load, on_reload
from games.core.dice import DiceParser
from games.core.errors import DataError
from games.core.schema import convert, decode, fail
from games.days_of_iron.schema import (
    BrigadeSpec,
    ChartFile,
    CheckSchema,
    CommanderSpec,
    EntrySpec,
    ForceSpec,
    MoraleFile,
    MoraleTestSchema,
    MoraleTestsFile,
    MoraleTestSheetSchema,
    MovementFile,
    ObjectiveSpec,
    QualitySchema,
    RowSchema,
    RulesFile,
    ScenarioSpec,
    SideSpec,
    TableFile,
    TerrainFile,
    TerrainSpec,
    TerrainType,
    UnitSpec,
    VictorySheet,
)

__all__ = ["BrigadeSpec", "ChartFile", "CheckSchema", "CommanderSpec", "EntrySpec", "ForceSpec", "House",
           "MoraleTestSchema", "MoraleTestSheetSchema", "MoraleTestsFile", "MovementFile", "ObjectiveSpec",
           "Reference", "RulesFile", "ScenarioSpec", "SideSpec", "TableFile", "TerrainSpec", "TerrainType", "UnitSpec",
           "VictorySheet", "force", "force_ids", "house", "morale_sheet", "reference", "rules", "scenario",
           "scenario_ids", "victory_sheet"]
RULES_FILE = "days_of_iron/rules.toml"
FORCES_DIR = "days_of_iron/forces"
SCENARIOS_DIR = "days_of_iron/scenarios"
REFERENCE_DIR = "days_of_iron/reference"
SHEETS_DIR = "days_of_iron/reference/sheets"  # the measured table's sheets (house values ship)
ARMS = ("infantry", "cavalry", "artillery", "engineer", "general")
S = TypeVar("S")


def _decoded(relpath: str, schema: type[S]) -> tuple[S, str]:
    """A file decoded into its schema, with its name for the messages of the checks across keys."""
    record = load(relpath)
    return convert(record.doc, schema, record.file), record.file


def _once_each(file: str, where: str, faces: list[int]) -> None:
    """The faces of a die roll's results must share out 1-6, each exactly once."""
    if sorted(faces) != [1, 2, 3, 4, 5, 6]:
        raise fail(file, where, f"expected each face 1-6 exactly once, got {sorted(faces)}")


def _quality_table(file: str, where: str, table: QualitySchema) -> None:
    _once_each(file, where, [f for faces in table.by_quality().values() for f in faces])


@lru_cache(maxsize=1)
def rules() -> RulesFile:
    """The book's values, validated once (the cache is dropped when the data packs change)."""
    book, file = _decoded(RULES_FILE, RulesFile)
    _quality_table(file, "staff.standard", book.staff.standard)
    for nation, table in book.staff.national.items():
        _quality_table(file, f"staff.national.{nation}", table)
    if book.victory.bands[-1].upto != -1:
        raise fail(file, "victory.bands", "expected upto = -1 (no limit) in the last band")
    for cid, check in book.checks.items():
        _once_each(file, f"checks.{cid}.results", [f for r in check.results for f in r.faces])
    return book


# --- forces --------------------------------------------------------------------------------------
def _unit(file: str, where: str, unit: UnitSpec, rules_: RulesFile) -> UnitSpec:
    """A unit of a force checked against the book's numbers (what its schema cannot see)."""
    points = rules_.points
    for mod in unit.modifiers:
        if mod not in points.modifiers:
            raise DataError(f"{file}: unit '{unit.id}': unknown modifier {mod!r} (known: {', '.join(points.modifiers)})")
    if unit.type == "artillery" and unit.gun not in points.guns:
        raise DataError(f"{file}: key '{where}.gun': expected one of {', '.join(points.guns)}, got {unit.gun!r}")
    if unit.type in ("infantry", "cavalry") and not 1 <= unit.cls <= 4:
        raise DataError(f"{file}: key '{where}.class': expected an integer from 1 to 4, got {unit.cls or 'nothing'}")
    if unit.type == "engineer":
        return msgspec.structs.replace(unit, stands=1, gun="")
    if not unit.stands:
        raise DataError(f"{file}: key '{where}.stands' is missing: expected an integer from 1 to 60")
    return unit if unit.type == "artillery" else msgspec.structs.replace(unit, gun="")


def force(force_id: str) -> ForceSpec:
    """One order of battle from ``forces/<id>.toml``."""
    relpath = f"{FORCES_DIR}/{force_id}.toml"
    (spec, file), rules_ = _decoded(relpath, ForceSpec), rules()
    brigades = tuple(
        msgspec.structs.replace(b, units=tuple(_unit(file, f"brigades[{i}].units[{j}]", u, rules_) for j, u in enumerate(b.units)))
        for i, b in enumerate(spec.brigades)
    )
    return msgspec.structs.replace(spec, id=force_id, brigades=brigades)


def force_ids() -> list[str]:
    return [path.rsplit("/", 1)[1].removesuffix(".toml") for path in listing(FORCES_DIR)]


# --- scenarios ----------------------------------------------------------------------------------
def _point(file: str, where: str, value: tuple[float, float], table: tuple[int, int]) -> None:
    """A point ``[x, y]`` in inches must lie on the table."""
    if not (0 <= value[0] <= table[0] and 0 <= value[1] <= table[1]):
        raise DataError(f"{file}: key '{where}': expected [x, y] inches on the {table[0]}x{table[1]} table, "
                        f"got [{value[0]:g}, {value[1]:g}]")


def _entries(file: str, spec: ScenarioSpec, sides: list[str]) -> None:
    """The scenario's arrival points (16.5): each on a table edge, for one of its sides."""
    table = spec.table
    for i, entry in enumerate(spec.entries):
        _point(file, f"entries[{i}].at", entry.at, table)
        x, y = entry.at
        if not (x in (0.0, float(table[0])) or y in (0.0, float(table[1]))):
            raise DataError(f"{file}: key 'entries[{i}].at': an entry point must lie on a table edge, got [{x:g}, {y:g}]")
        if entry.side not in sides:
            raise DataError(f"{file}: key 'entries[{i}].side': expected one of {', '.join(sides)}, got {entry.side!r}")


def _terrain(file: str, spec: ScenarioSpec) -> tuple[TerrainSpec, ...]:
    """The scenario's terrain pieces (15): a type of the terrain sheet and a convex outline on the table."""
    from games.core.geometry import is_convex

    out = []
    types = house().terrain
    width, height = spec.table
    for i, piece in enumerate(spec.terrain):
        if piece.type not in types:
            raise DataError(f"{file}: key 'terrain[{i}].type': expected one of {', '.join(types)}, got {piece.type!r}")
        if not is_convex(piece.points) or not all(0 <= x <= width and 0 <= y <= height for x, y in piece.points):
            raise DataError(f"{file}: key 'terrain[{i}].points': expected a convex outline of 3 or more points on the table")
        out.append(msgspec.structs.replace(piece, name=piece.name or types[piece.type].name))
    return tuple(out)


@cache
def scenario(scenario_id: str) -> ScenarioSpec:
    """The scenario, checked once per id (the rules ask for it on every order: objectives, entry
    points); callers must not change it. A data reload clears it, as the other sheets."""
    relpath = f"{SCENARIOS_DIR}/{scenario_id}.toml"
    spec, file = _decoded(relpath, ScenarioSpec)
    sides = [s.id for s in spec.sides]
    for i, objective in enumerate(spec.objectives):
        if objective.wanted_by not in sides:
            raise DataError(f"{file}: key 'objectives[{i}].wanted_by': expected one of {', '.join(sides)}, "
                            f"got {objective.wanted_by!r}")
        if objective.at is not None:
            _point(file, f"objectives[{i}].at", objective.at, spec.table)
    _entries(file, spec, sides)
    return msgspec.structs.replace(spec, id=scenario_id, terrain=_terrain(file, spec))


def scenario_ids() -> list[str]:
    return [path.rsplit("/", 1)[1].removesuffix(".toml") for path in listing(SCENARIOS_DIR)]


on_reload(scenario.cache_clear)


on_reload(rules.cache_clear)


# --- reference sheets (owners' data packs; none ship) -------------------------------------------
def _dice(file: str, where: str, dice: str) -> None:
    try:
        DiceParser().parse(dice)
    except ValueError as exc:
        raise fail(file, where, str(exc)) from exc


def _rows(file: str, where: str, columns: tuple[str, ...], rows: tuple[RowSchema, ...]) -> tuple[RowSchema, ...]:
    """A table's rows sorted by roll, each [low, high] with one result per column, the ranges
    following on without gaps or overlaps (checks across keys that a schema cannot make)."""
    for i, row in enumerate(rows):
        if row.roll[0] > row.roll[1]:
            raise fail(file, f"{where}[{i}].roll", f"expected [low, high], got {list(row.roll)}")
        if len(row.results) != len(columns):
            raise fail(file, f"{where}[{i}].results",
                       f"expected {len(columns)} results (one per column), got {len(row.results)}")
    ordered = tuple(sorted(rows, key=lambda row: row.roll))
    for before, after in itertools.pairwise(ordered):
        if after.roll[0] != before.roll[1] + 1:
            raise fail(file, where, f"expected roll ranges that follow on without gaps or overlaps, "
                                    f"got {before.roll[0]}-{before.roll[1]} then {after.roll[0]}-{after.roll[1]}")
    return ordered


TableT = TypeVar("TableT", TableFile, ChartFile)


def _table(file: str, table: TableT, table_id: str) -> TableT:
    """A dice table checked, its rows sorted, its id and name (the id when none) filled in."""
    _dice(file, "dice", table.dice)
    rows = _rows(file, "rows", table.columns, table.rows)
    return msgspec.structs.replace(table, id=table_id, name=table.name or table_id, rows=rows)


@dataclass(frozen=True)
class Reference:
    """Everything loaded from the reference folder (empty in the shipped game)."""

    morale: dict[str, MoraleTestSchema]  # by casefolded id
    tables: dict[str, TableFile]  # by casefolded id
    sources: tuple[str, ...]  # file names, for help and the status

    @property
    def empty(self) -> bool:
        return not self.morale and not self.tables


@lru_cache(maxsize=1)
def reference() -> Reference:
    """Every reference file of the active data packs (none ship with the game), read once per packs."""
    morale: dict[str, MoraleTestSchema] = {}
    tables: dict[str, TableFile] = {}
    sources: list[str] = []
    for path in listing(REFERENCE_DIR):
        record = load(path)
        name = path.rsplit("/", 1)[1]
        sources.append(name)
        sheet: MoraleFile | TableFile = convert(record.doc, MoraleFile | TableFile, record.file)
        if isinstance(sheet, MoraleFile):
            for test_id, test in sheet.tests.items():
                tid = test_id.casefold()
                morale[tid] = msgspec.structs.replace(test, name=test.name or tid,
                                                      factors={k.casefold(): v for k, v in test.factors.items()})
        else:
            table_id = (sheet.id or name.removesuffix(".toml")).casefold()
            tables[table_id] = _table(record.file, sheet, table_id)
    return Reference(morale, tables, tuple(sources))


on_reload(reference.cache_clear)


# --- the measured table's sheets (house values ship; an owner's sheets replace them) ------------
@dataclass(frozen=True)
class House:
    """The measured table's sheets as the rules read them, one kind of file each (charts by id)."""

    movement: MovementFile
    terrain: dict[str, TerrainType]
    charts: dict[str, ChartFile]
    sources: dict[str, str]  # file name -> source ("house", "owner"...)


HOUSE_CHARTS = ("small-arms", "artillery", "morale", "close-assault", "artillery-damage", "staff-casualties")
Sheet = MovementFile | TerrainFile | ChartFile | MoraleTestsFile | VictorySheet


def _movement(file: str, movement: MovementFile) -> MovementFile:
    """Rates and stand sizes are needed for every arm (the schema says which arms there are)."""
    for key, table in (("rates", movement.rates), ("stands", movement.stands)):
        missing = [a for a in ARMS if a not in table]
        if missing:
            raise fail(file, key, f"expected every arm ({', '.join(ARMS)}), missing {', '.join(missing)}")
    return movement


@lru_cache(maxsize=1)
def house() -> House:
    """The movement, terrain and chart sheets of the measured table: the shipped house values
    (data/days_of_iron/reference/README.md says which), each replaced file by file by a pack's."""
    movement: MovementFile | None = None
    terrain: dict[str, TerrainType] = {}
    charts: dict[str, ChartFile] = {}
    sources: dict[str, str] = {}
    for path in listing(SHEETS_DIR):
        record = load(path)
        sheet: Sheet = convert(record.doc, Sheet, record.file)
        sources[path.rsplit("/", 1)[1]] = sheet.source
        if isinstance(sheet, MovementFile):
            movement = _movement(record.file, sheet)
        elif isinstance(sheet, TerrainFile):
            terrain.update({tid: msgspec.structs.replace(t, id=tid) for tid, t in sheet.types.items()})
        elif isinstance(sheet, ChartFile):
            if sheet.ranges and len(sheet.ranges) != len(sheet.columns):
                raise fail(record.file, "ranges", f"expected one range per column ({len(sheet.columns)})")
            charts[sheet.id] = _table(record.file, sheet, sheet.id)
        # morale-tests and victory: read by ``morale_sheet()`` and ``victory_sheet()``
    if movement is None:
        raise DataError(f"{SHEETS_DIR}: no movement sheet (kind = \"movement\")")
    missing = [c for c in HOUSE_CHARTS if c not in charts]
    if missing:
        raise DataError(f"{SHEETS_DIR}: charts missing: {', '.join(missing)}")
    return House(movement, terrain, charts, sources)


on_reload(house.cache_clear)


@lru_cache(maxsize=1)
def victory_sheet() -> VictorySheet:
    """``reference/sheets/victory.toml``: the objective radius, the units that may surrender and the
    arrival distances of the measured table."""
    return decode(f"{SHEETS_DIR}/victory.toml", VictorySheet)


on_reload(victory_sheet.cache_clear)


MORALE_SHEET_TESTS = ("casualties", "rally")


@lru_cache(maxsize=1)
def morale_sheet() -> MoraleTestsFile:
    """``reference/sheets/morale-tests.toml``: the measured table's morale tests (17.2, 17.3), each a
    chart by the sheet's Class columns with its named factors, and the full rout distance by arm
    (17.4.14); house values until an owner's sheet replaces the file."""
    sheet, file = _decoded(f"{SHEETS_DIR}/morale-tests.toml", MoraleTestsFile)
    _dice(file, "dice", sheet.dice)
    tests = {test_id: msgspec.structs.replace(test, rows=_rows(file, f"tests.{test_id}.rows", sheet.columns, test.rows))
             for test_id, test in sheet.tests.items()}
    missing = [t for t in MORALE_SHEET_TESTS if t not in tests]
    if missing:
        raise DataError(f"{file}: tests missing: {', '.join(missing)}")
    if any(a not in sheet.rout for a in ARMS):
        raise fail(file, "rout", f"expected a distance for every arm ({', '.join(ARMS)})")
    return msgspec.structs.replace(sheet, tests=tests)


on_reload(morale_sheet.cache_clear)
