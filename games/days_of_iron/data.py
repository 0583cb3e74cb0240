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
from functools import lru_cache

import msgspec

from games.core.data import Record, listing, load, on_reload
from games.core.dice import DiceParser
from games.core.errors import DataError
from games.core.schema import convert, decode
from games.days_of_iron.schema import (
    BrigadeSpec,
    CommanderSpec,
    EntrySpec,
    ForceSpec,
    ObjectiveSpec,
    ScenarioSpec,
    SideSpec,
    TerrainFile,
    TerrainSpec,
    TerrainType,
    UnitSpec,
    VictorySheet,
)

__all__ = ["BrigadeSpec", "Chart", "Check", "CommanderSpec", "DiceTable", "EntrySpec", "ForceSpec", "House",
           "MoraleSheet", "MoraleTest", "Movement", "ObjectiveSpec", "Reference", "Rules", "ScenarioSpec", "SideSpec",
           "TerrainSpec", "TerrainType", "UnitSpec", "VictorySheet", "force", "force_ids", "house", "morale_sheet",
           "reference", "rules", "scenario", "scenario_ids", "victory_sheet"]
RULES_FILE = "days_of_iron/rules.toml"
FORCES_DIR = "days_of_iron/forces"
SCENARIOS_DIR = "days_of_iron/scenarios"
REFERENCE_DIR = "days_of_iron/reference"
KINDS = ("morale", "table")
SHEETS_DIR = "days_of_iron/reference/sheets"  # the measured table's sheets (house values ship)
SHEET_KINDS = ("movement", "terrain", "chart", "victory", "morale-tests")
ARMS = ("infantry", "cavalry", "artillery", "engineer", "general")
FORMATIONS = ("column", "line", "skirmish")
QUALITIES = ("inept", "capable", "exceptional")


@dataclass(frozen=True)
class Check:
    id: str
    name: str
    results: tuple[tuple[tuple[int, ...], str], ...]  # (faces, text)

    def result(self, die: int) -> str:
        return next(text for faces, text in self.results if die in faces)


@dataclass(frozen=True)
class Rules:
    staff_points: dict[str, int]
    engineer_points: int
    gun_points: dict[str, int]
    class_points: dict[str, tuple[int, int, int, int]]  # infantry/cavalry -> per class
    modifiers: dict[str, int]
    staff_tables: dict[str, dict[str, tuple[int, ...]]]  # "standard", "promotion", nations
    dispute_a: tuple[int, ...]
    figure_points: tuple[int, int, int, int]
    figures_per_stand: int
    outscout_margin: int
    rear_edge_inches: int
    offboard_fraction: tuple[int, int]
    deployment_depth: int
    shattered: dict[str, int]
    victory_points: int
    victory_bands: tuple[tuple[int, str], ...]  # (upto or -1, result)
    checks: dict[str, Check]

    def staff_table(self, name: str) -> dict[str, tuple[int, ...]]:
        return self.staff_tables[name]


def _faces(rec: Record, key: str) -> tuple[int, ...]:
    values = rec.list(key)
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise DataError(f"{rec.file}: key '{rec.prefix}{key}[{i}]': expected a die face 1-6, got {v!r}")
    return tuple(values)


def _quality_table(rec: Record) -> dict[str, tuple[int, ...]]:
    table = {q: _faces(rec, q) for q in QUALITIES}
    faces = sorted(f for fs in table.values() for f in fs)
    if faces != [1, 2, 3, 4, 5, 6]:
        raise DataError(f"{rec.file}: key '{rec.prefix}' must give each face 1-6 exactly once, got {faces}")
    return table


def _four(rec: Record, key: str) -> tuple[int, int, int, int]:
    values = rec.list(key)
    if len(values) != 4 or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise DataError(f"{rec.file}: key '{rec.prefix}{key}': expected four integers (Class 1-4), got {values!r}")
    return (values[0], values[1], values[2], values[3])


def _int_map(rec: Record) -> dict[str, int]:
    return {k: rec.int(k) for k in rec}


@lru_cache(maxsize=1)
def rules() -> Rules:
    """The book's values, validated once (the cache is dropped when the data packs change)."""
    doc = load(RULES_FILE)
    pts = doc.table("points")
    staff = doc.table("staff")
    tables = {"standard": _quality_table(staff.table("standard")), "promotion": {}}
    promo = staff.table("promotion")
    tables["promotion"] = {q: _faces(promo, q) for q in QUALITIES}
    for nation, rec in staff.table("national").items():
        tables[nation] = _quality_table(rec)
    scouting = doc.table("scouting")
    offboard = doc.table("offboard")
    victory = doc.table("victory")
    bands = tuple((b.int("upto"), b.str("result")) for b in victory.tables("bands"))
    if not bands or bands[-1][0] != -1:
        raise DataError(f"{doc.file}: key 'victory.bands': the last band must have upto = -1 (no limit)")
    checks: dict[str, Check] = {}
    for cid, rec in doc.table("checks").items():
        results = tuple((_faces(r, "faces"), r.str("text")) for r in rec.tables("results"))
        faces = sorted(f for fs, _ in results for f in fs)
        if faces != [1, 2, 3, 4, 5, 6]:
            raise DataError(f"{rec.file}: key 'checks.{cid}.results' must give each face 1-6 exactly once")
        checks[cid] = Check(cid, rec.str("name"), results)
    return Rules(
        staff_points=_int_map(pts.table("staff")),
        engineer_points=pts.int("engineer", 0),
        gun_points=_int_map(pts.table("guns")),
        class_points={"infantry": _four(pts, "infantry"), "cavalry": _four(pts, "cavalry")},
        modifiers=_int_map(pts.table("modifiers")),
        staff_tables=tables,
        dispute_a=_faces(doc.table("dispute"), "player_a"),
        figure_points=_four(scouting, "figure_points"),
        figures_per_stand=scouting.int("figures_per_stand", 1),
        outscout_margin=scouting.int("outscout_margin", 0),
        rear_edge_inches=scouting.int("rear_edge_inches", 0),
        offboard_fraction=(offboard.int("numerator", 0), offboard.int("denominator", 1)),
        deployment_depth=doc.table("deployment").int("depth_inches", 0),
        shattered=_int_map(doc.table("shattered")),
        victory_points=victory.int("standard_points", 1),
        victory_bands=bands,
        checks=checks,
    )


# --- forces --------------------------------------------------------------------------------------
def _unit(file: str, where: str, unit: UnitSpec, rules_: Rules) -> UnitSpec:
    """A unit of a force checked against the book's numbers (what its schema cannot see)."""
    for mod in unit.modifiers:
        if mod not in rules_.modifiers:
            raise DataError(f"{file}: unit '{unit.id}': unknown modifier {mod!r} (known: {', '.join(rules_.modifiers)})")
    if unit.type == "artillery" and unit.gun not in rules_.gun_points:
        raise DataError(f"{file}: key '{where}.gun': expected one of {', '.join(rules_.gun_points)}, got {unit.gun!r}")
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
    spec, file, rules_ = decode(relpath, ForceSpec), load(relpath).file, rules()
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


def scenario(scenario_id: str) -> ScenarioSpec:
    relpath = f"{SCENARIOS_DIR}/{scenario_id}.toml"
    spec, file = decode(relpath, ScenarioSpec), load(relpath).file
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


on_reload(rules.cache_clear)


# --- reference sheets (owners' data packs; none ship) -------------------------------------------

@dataclass(frozen=True)
class MoraleTest:
    id: str
    name: str
    base: int
    by_class: tuple[int, ...]  # Class 1-4, empty when class does not count
    by_staff: dict[str, int]  # inept/capable/exceptional/none -> factor
    factors: dict[str, int]
    on_pass: str
    on_fail: str


@dataclass(frozen=True)
class DiceTable:
    id: str
    name: str
    dice: str
    columns: tuple[str, ...]
    rows: tuple[tuple[int, int, tuple[str, ...]], ...]  # (low, high, one result per column)

    def lookup(self, total: int, column: int) -> str:
        if total < self.rows[0][0]:
            return self.rows[0][2][column]
        for low, high, results in self.rows:
            if low <= total <= high:
                return results[column]
        return self.rows[-1][2][column]


@dataclass(frozen=True)
class Reference:
    """Everything loaded from the reference folder (empty in the shipped game)."""

    morale: dict[str, MoraleTest]
    tables: dict[str, DiceTable]
    sources: tuple[str, ...]  # file names, for help and the status

    @property
    def empty(self) -> bool:
        return not self.morale and not self.tables


def _morale(rec: Record, test_id: str) -> MoraleTest:
    by_class: tuple[int, ...] = ()
    if rec.has("class"):
        values = rec.list("class")
        if len(values) != 4 or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise DataError(f"{rec.file}: key '{rec.prefix}class': expected four integers (Class 1-4), got {values!r}")
        by_class = tuple(values)
    by_staff: dict[str, int] = {}
    if rec.has("staff"):
        staff = rec.table("staff")
        for key in staff:
            if key not in ("inept", "capable", "exceptional", "none"):
                raise DataError(f"{rec.file}: key '{rec.prefix}staff.{key}': expected inept, capable, exceptional or none")
            by_staff[key] = staff.int(key)
    factors: dict[str, int] = {}
    if rec.has("factors"):
        table = rec.table("factors")
        factors = {key.casefold(): table.int(key) for key in table}
    return MoraleTest(
        id=test_id,
        name=rec.opt_str("name", test_id),
        base=rec.opt_int("base", 0),
        by_class=by_class,
        by_staff=by_staff,
        factors=factors,
        on_pass=rec.opt_str("pass", "passed"),
        on_fail=rec.opt_str("fail", "failed"),
    )


def _table(rec: Record, table_id: str) -> DiceTable:
    dice = rec.str("dice")
    try:
        DiceParser().parse(dice)
    except ValueError as exc:
        raise DataError(f"{rec.file}: key '{rec.prefix}dice': {exc}") from exc
    columns = tuple(rec.str_list("columns"))
    if not columns:
        raise DataError(f"{rec.file}: key '{rec.prefix}columns': expected at least one column")
    rows = []
    for row in rec.tables("rows"):
        span = row.list("roll")
        if len(span) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in span) or span[0] > span[1]:
            raise DataError(f"{row.file}: key '{row.prefix}roll': expected [low, high], got {span!r}")
        results = tuple(row.str_list("results"))
        if len(results) != len(columns):
            raise DataError(f"{row.file}: key '{row.prefix}results': expected {len(columns)} results (one per column)")
        rows.append((span[0], span[1], results))
    if not rows:
        raise DataError(f"{rec.file}: key '{rec.prefix}rows': expected at least one row")
    rows.sort()
    for (_, high, _), (low, _, _) in itertools.pairwise(rows):
        if low != high + 1:
            raise DataError(f"{rec.file}: key '{rec.prefix}rows': roll ranges must follow on without gaps or overlaps")
    return DiceTable(table_id, rec.opt_str("name", table_id), dice, columns, tuple(rows))


@lru_cache(maxsize=1)
def reference() -> Reference:
    """Every reference file of the active data packs (none ship with the game), read once per packs."""
    morale: dict[str, MoraleTest] = {}
    tables: dict[str, DiceTable] = {}
    sources: list[str] = []
    for path in listing(REFERENCE_DIR):
        doc = load(path)
        kind = doc.str("kind", KINDS)
        sources.append(path.rsplit("/", 1)[1])
        if kind == "morale":
            for test_id, rec in doc.table("tests").items():
                morale[test_id.casefold()] = _morale(rec, test_id.casefold())
        else:
            table_id = doc.opt_str("id", path.rsplit("/", 1)[1].removesuffix(".toml")).casefold()
            tables[table_id] = _table(doc, table_id)
    return Reference(morale, tables, tuple(sources))


on_reload(reference.cache_clear)


# --- the measured table's sheets (house values ship; an owner's sheets replace them) ------------


@dataclass(frozen=True)
class Movement:
    """The movement sheet (17.4): rates by arm and starting formation, costs, stand sizes (4.1)."""

    rates: dict[str, dict[str, float]]  # arm -> formation -> inches
    wheel_factor: float
    formation_change: float
    forced_march_bonus: float
    enemy_clearance: float
    stands: dict[str, tuple[float, float]]  # arm -> (width, depth) inches
    column_width: dict[str, int]
    skirmish_gap: float
    source: str
    passage_of_lines: float = 1.0  # 17.4.9: a move through a friendly line costs as ground of this multiplier


@dataclass(frozen=True)
class Chart:
    """A house (or owner's) dice chart the measured-table rules roll on, e.g. small arms by range."""

    table: DiceTable
    ranges: tuple[float, ...]  # farthest inches per column, empty when not read by range
    source: str
    targets: dict[str, int]  # 13: modifier on each die by target definition (dispersed, line, dense, fast)

    def column_for(self, inches: float) -> int | None:
        """The range band's column for a distance (None: out of range)."""
        return next((i for i, r in enumerate(self.ranges) if inches <= r + 1e-9), None)


@dataclass(frozen=True)
class House:
    movement: Movement
    terrain: dict[str, TerrainType]
    charts: dict[str, Chart]
    sources: dict[str, str]  # file name -> source ("house", "owner"...)


HOUSE_CHARTS = ("small-arms", "artillery", "morale", "close-assault", "artillery-damage", "staff-casualties")


def _movement(doc: Record) -> Movement:
    rates = {arm: {f: doc.table("rates").table(arm).float(f) for f in FORMATIONS} for arm in doc.table("rates")}
    stands: dict[str, tuple[float, float]] = {}
    for arm in doc.table("stands"):
        size = doc.table("stands").list(arm)
        stands[arm] = (float(size[0]), float(size[1]))
    missing = [a for a in ARMS if a not in rates or a not in stands]
    if missing:
        raise DataError(f"{doc.file}: rates and stands are needed for every arm; missing {', '.join(missing)}")
    costs = doc.table("costs")
    forms = doc.table("formations")
    widths = forms.table("column_width")
    return Movement(
        rates=rates,
        wheel_factor=costs.float("wheel_factor"),
        formation_change=costs.float("formation_change"),
        forced_march_bonus=costs.float("forced_march_bonus"),
        enemy_clearance=costs.float("enemy_clearance"),
        stands=stands,
        column_width={a: widths.int(a) for a in widths},
        skirmish_gap=forms.float("skirmish_gap"),
        source=doc.str("source"),
        passage_of_lines=costs.opt_float("passage_of_lines", 1.0),
    )


@lru_cache(maxsize=1)
def house() -> House:
    """The movement, terrain and chart sheets of the measured table: the shipped house values
    (data/days_of_iron/reference/README.md says which), each replaced file by file by a pack's."""
    movement: Movement | None = None
    terrain: dict[str, TerrainType] = {}
    charts: dict[str, Chart] = {}
    sources: dict[str, str] = {}
    for path in listing(SHEETS_DIR):
        doc = load(path)
        kind = doc.str("kind", SHEET_KINDS)
        sources[path.rsplit("/", 1)[1]] = doc.str("source")
        if kind == "movement":
            movement = _movement(doc)
        elif kind == "morale-tests":
            continue  # read by ``morale_sheet()``
        elif kind == "victory":
            continue  # read by ``victory_sheet()``
        elif kind == "terrain":
            types = convert(doc.doc, TerrainFile, doc.file).types
            terrain.update({tid: msgspec.structs.replace(t, id=tid) for tid, t in types.items()})
        else:
            table = _table(doc, doc.str("id"))
            ranges = tuple(float(v) for v in doc.list("ranges")) if doc.has("ranges") else ()
            if ranges and len(ranges) != len(table.columns):
                raise DataError(f"{doc.file}: key 'ranges': expected one range per column ({len(table.columns)})")
            targets = {k: doc.table("targets").int(k) for k in doc.table("targets")} if doc.has("targets") else {}
            charts[table.id] = Chart(table, ranges, doc.str("source"), targets)
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


@dataclass(frozen=True)
class MoraleSheet:
    """The measured table's morale tests (17.2, 17.3: ``reference/sheets/morale-tests.toml``): house
    values until an owner's sheet replaces the file. Each test is a chart by Class column with its
    named factors; ``rout`` is the full rout distance by arm (17.4.14)."""

    tests: dict[str, tuple[DiceTable, dict[str, int]]]
    rout: dict[str, float]
    command_radius: float
    disordering_terrain: tuple[str, ...]
    source: str


MORALE_SHEET_TESTS = ("casualties", "rally")


@lru_cache(maxsize=1)
def morale_sheet() -> MoraleSheet:
    """``reference/sheets/morale-tests.toml``: the Casualties from Shooting and Rally tests, rout distances."""
    doc = load(f"{SHEETS_DIR}/morale-tests.toml")
    dice, columns = doc.str("dice"), doc.str_list("columns")
    tests: dict[str, tuple[DiceTable, dict[str, int]]] = {}
    for test_id, rec in doc.table("tests").items():
        rows = [(r.list("roll"), r.str_list("results")) for r in rec.tables("rows")]
        for span, results in rows:
            if len(span) != 2 or len(results) != len(columns):
                raise DataError(f"{doc.file}: test {test_id}: each row needs roll [low, high] and one result per column")
        spans = sorted((int(s[0]), int(s[1]), tuple(r)) for s, r in rows)
        for (_, high, _), (low, _, _) in itertools.pairwise(spans):
            if low != high + 1:
                raise DataError(f"{doc.file}: test {test_id}: roll ranges must follow on without gaps or overlaps")
        factors = {k: rec.table("factors").int(k) for k in rec.table("factors")} if rec.has("factors") else {}
        tests[test_id] = (DiceTable(test_id, rec.str("name"), dice, tuple(columns), tuple(spans)), factors)
    missing = [t for t in MORALE_SHEET_TESTS if t not in tests]
    if missing:
        raise DataError(f"{doc.file}: tests missing: {', '.join(missing)}")
    rout = {a: doc.table("rout").float(a) for a in doc.table("rout")}
    if any(a not in rout for a in ARMS):
        raise DataError(f"{doc.file}: key 'rout': a distance is needed for every arm ({', '.join(ARMS)})")
    disordering = tuple(doc.str_list("disordering_terrain")) if doc.has("disordering_terrain") else ()
    return MoraleSheet(tests, rout, doc.float("command_radius"), disordering, doc.str("source"))


on_reload(morale_sheet.cache_clear)
