"""Schemas of ``data/days_of_iron`` (book numbers, forces, scenarios, owners' reference sheets).

They say what ``data.py`` reads, so ``games.core.schema`` can refuse an
unknown key or a bad value at start-up instead of when a game reaches it, and the loaders decode
each file straight into them (these structs are what the rules read). Checks across keys (each die
face once, modifiers and guns that exist, roll ranges that follow on) stay in the loaders, run at
start-up too.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from games.core.schema import Sourced, Strict

Face = Annotated[int, msgspec.Meta(ge=1, le=6)]
Natural = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
PerClass = tuple[int, int, int, int]  # Class 1-4
Faces = tuple[Face, ...]


# --- rules.toml ----------------------------------------------------------------------------------
class PointsSchema(Strict, kw_only=True):
    staff: dict[str, int]
    engineer: Natural
    guns: dict[str, int]
    infantry: PerClass
    cavalry: PerClass
    modifiers: dict[str, int]
    pontoon_per_2in: int = 0  # printed in 6.1; not used by the engine
    earthworks_per_4in: int = 0

    def class_points(self, arm: str) -> PerClass:
        """Points per stand of foot or horse by Class (5)."""
        return self.cavalry if arm == "cavalry" else self.infantry


class QualitySchema(Strict, kw_only=True):
    inept: Faces
    capable: Faces
    exceptional: Faces

    def by_quality(self) -> dict[str, tuple[int, ...]]:
        """Quality -> the faces that give it (14.1, 14.3, 19.4)."""
        return {"inept": self.inept, "capable": self.capable, "exceptional": self.exceptional}


class StaffSchema(Strict, kw_only=True):
    standard: QualitySchema
    promotion: QualitySchema
    national: dict[str, QualitySchema]


class DisputeSchema(Strict, kw_only=True):
    player_a: Faces
    player_b: Faces = ()  # the rest of the die


class ScoutingSchema(Strict, kw_only=True):
    figure_points: PerClass
    figures_per_stand: Positive
    outscout_margin: Natural
    rear_edge_inches: Natural


class DeploymentSchema(Strict, kw_only=True):
    depth_inches: Natural


class OffboardSchema(Strict, kw_only=True):
    numerator: Natural
    denominator: Positive


class BandSchema(Strict, kw_only=True):
    upto: int  # -1: no limit (the last band)
    result: str


class VictorySchema(Strict, kw_only=True):
    standard_points: Positive
    bands: Annotated[tuple[BandSchema, ...], msgspec.Meta(min_length=1)]  # the last has upto = -1: data.py


class ResultSchema(Strict, kw_only=True):
    faces: Faces
    text: str


class CheckSchema(Strict, kw_only=True):
    name: str
    results: tuple[ResultSchema, ...]  # each face 1-6 exactly once: data.py

    def result(self, die: int) -> str:
        return next(r.text for r in self.results if die in r.faces)


class FiresSchema(Strict, kw_only=True):
    spread: float  # 15.9: inches a fire spreads downwind in each Movement Phase
    stands: int  # 15.9: stands within the area that may set it alight
    turns: int  # 15.9: turns troops have to leave a burning area
    seat: float  # house: the side of the square that first burns
    burns: tuple[str, ...]  # terrain types that burn (15.9: urban areas and woods)
    wooden: tuple[str, ...]  # 15.10: words in an obstacle's name that make it wooden


class SquaresSchema(Strict, kw_only=True):
    """House (the book names squares but gives them no factor): what a square gains against cavalry."""

    against_cavalry: int  # added to a square's Being Charged die and close assault total when cavalry charge or fight it


class EngineersSchema(Strict, kw_only=True):
    """11, 15.5: how long engineers take to demolish a bridge, clear an obstacle or lay a pontoon."""

    wooden_phases: Positive
    stone_phases: Positive
    span_inches: Annotated[float, msgspec.Meta(gt=0)]
    obstacle_inches: Annotated[float, msgspec.Meta(gt=0)]
    pontoon_phases: Positive
    pontoon_foot_stands: Natural
    pontoon_width: Annotated[float, msgspec.Meta(gt=0)]
    pontoon_length: Annotated[float, msgspec.Meta(gt=0)]


class RulesFile(Sourced, kw_only=True):
    points: PointsSchema
    staff: StaffSchema
    dispute: DisputeSchema
    scouting: ScoutingSchema
    deployment: DeploymentSchema
    offboard: OffboardSchema
    shattered: dict[str, int]
    victory: VictorySchema
    engineers: EngineersSchema
    checks: dict[str, CheckSchema]
    fires: FiresSchema
    squares: SquaresSchema

    def staff_table(self, name: str) -> dict[str, tuple[int, ...]]:
        """The quality table ``standard``, ``promotion`` or a nation's (19.4): quality -> faces."""
        staff = self.staff
        table = {"standard": staff.standard, "promotion": staff.promotion}.get(name) or staff.national[name]
        return table.by_quality()


# --- forces/*.toml -------------------------------------------------------------------------------
class CommanderSpec(Strict, kw_only=True):
    id: str
    name: str
    rank: Literal["corps", "division"]


class UnitSpec(Strict, kw_only=True):
    id: str
    name: str
    type: Literal["infantry", "cavalry", "artillery", "engineer"]
    cls: int = msgspec.field(default=0, name="class")  # 1-4 for foot and horse: data.py
    stands: Annotated[int, msgspec.Meta(ge=1, le=60)] = 0  # needed but for engineers (1): data.py
    modifiers: tuple[str, ...] = ()  # modifiers of rules.toml: data.py
    gun: str = ""  # artillery: a gun of rules.toml (data.py)
    light: bool = False


class BrigadeSpec(Strict, kw_only=True):
    id: str
    name: str
    general: str = ""  # "" when the brigade has no general of its own
    units: tuple[UnitSpec, ...]


class ForceSpec(Sourced, kw_only=True):
    id: str = ""  # the file's name, set by data.py
    name: str
    nation: str
    general: str
    commanders: tuple[CommanderSpec, ...] = ()
    brigades: tuple[BrigadeSpec, ...]


# --- scenarios/*.toml ----------------------------------------------------------------------------
class SideSpec(Strict, kw_only=True):
    id: str
    name: str
    colour: str
    force: str


class ObjectiveSpec(Strict, kw_only=True):
    name: str
    wanted_by: str  # a side: data.py
    held_by: str = ""
    at: tuple[float, float] | None = None  # the measured table: the point to hold (18.2) on the table (data.py)


class EntrySpec(Strict):
    """An off-board arrival point on a table edge (16.5, 17.2.1): data.py checks it is on an edge."""

    side: str
    name: str
    at: tuple[float, float]
    source: Literal["scenario", "house"]  # "scenario" when the scenario's text gives it


Inches = Annotated[int, msgspec.Meta(ge=12, le=240)]


class TerrainSpec(Strict, kw_only=True):
    type: str  # a type of reference/sheets/terrain.toml: data.py
    name: str = ""  # default: the type's name (data.py)
    points: Annotated[tuple[tuple[float, float], ...], msgspec.Meta(min_length=3)]  # convex, on the table: data.py


class ScenarioSpec(Sourced, kw_only=True):
    id: str = ""  # the file's name, set by data.py
    name: str
    description: str = ""
    points: Positive
    table: tuple[Inches, Inches]
    victory: Literal["points", "objectives"]
    scouting: bool = False
    staff: str = "standard"
    margin: str = "book"
    sides: tuple[SideSpec, SideSpec]
    objectives: tuple[ObjectiveSpec, ...] = ()
    terrain: tuple[TerrainSpec, ...] = ()  # the measured table (15)
    entries: tuple[EntrySpec, ...] = ()  # off-board arrival points (16.5)


# --- reference/*.toml (owners' sheets; none ship) ------------------------------------------------
class MoraleTestSchema(Strict, kw_only=True):
    """A morale test of 17.2: base + Class + General's quality + named factors; pass when 1d6 is higher."""

    name: str = ""  # default: the test id (data.py)
    base: int = 0
    by_class: PerClass | None = msgspec.field(default=None, name="class")
    # the commanding General's quality ("none": no General) -> factor; a quality not given adds nothing
    by_staff: dict[Literal["inept", "capable", "exceptional", "none"], int] = msgspec.field(
        default_factory=dict, name="staff")
    on_pass: str = msgspec.field(default="passed", name="pass")
    on_fail: str = msgspec.field(default="failed", name="fail")
    factors: dict[str, int] = msgspec.field(default_factory=dict)  # keys casefolded by data.py


class MoraleFile(Sourced, tag_field="kind", tag="morale", kw_only=True):
    tests: dict[str, MoraleTestSchema]


class RowSchema(Strict, kw_only=True):
    roll: tuple[int, int]  # inclusive; low <= high, rows follow on without gaps: data.py
    results: tuple[str, ...]  # one per column: data.py


Rows = Annotated[tuple[RowSchema, ...], msgspec.Meta(min_length=1)]  # sorted by roll (data.py)
Columns = Annotated[tuple[str, ...], msgspec.Meta(min_length=1)]


class Rolled:
    """Reading a table of rows by roll (mixed into the structs that have ``rows``)."""

    __slots__ = ()
    rows: tuple[RowSchema, ...]

    def lookup(self, total: int, column: int) -> str:
        """The result in ``column`` of the row whose range holds ``total`` (below the first row:
        the first; above the last: the last)."""
        if total < self.rows[0].roll[0]:
            return self.rows[0].results[column]
        row = next((r for r in self.rows if r.roll[0] <= total <= r.roll[1]), self.rows[-1])
        return row.results[column]


class TableFile(Sourced, Rolled, tag_field="kind", tag="table", kw_only=True):
    """An owner's dice table with columns: roll ``dice``, add a modifier, read the row in a column."""

    id: str = ""  # default: the file name (data.py)
    name: str = ""  # default: the id (data.py)
    dice: str  # dice notation: data.py
    columns: Columns
    rows: Rows


# --- reference/*.toml: the measured table's house sheets (movement, terrain, charts) -------------
Arms = Literal["infantry", "cavalry", "artillery", "engineer", "general"]
Target = Literal["dispersed", "line", "dense", "fast"]  # 13: the target definitions
Inch = Annotated[float, msgspec.Meta(ge=0)]


class RatesSchema(Strict, kw_only=True):
    column: Inch
    line: Inch
    skirmish: Inch
    square: Inch = 0.0  # house: an infantry square does not move (RULINGS.md, Squares)

    def of(self, formation: str) -> float:
        """The rate of a formation (column, line, skirmish or square; a march column moves at the
        column rate, house: the book's sheet is missing)."""
        return {"column": self.column, "march": self.column, "line": self.line, "skirmish": self.skirmish,
                "square": self.square}[formation]


class CostsSchema(Strict, kw_only=True):
    wheel_factor: Annotated[float, msgspec.Meta(ge=1)]
    formation_change: Annotated[float, msgspec.Meta(ge=0, le=1)]
    forced_march_bonus: Annotated[float, msgspec.Meta(ge=0)]
    enemy_clearance: Inch
    passage_of_lines: Annotated[float, msgspec.Meta(gt=0, le=1)] = 1.0  # 17.4.9 movement multiplier


class FormationsSchema(Strict, kw_only=True):
    column_width: dict[Arms, Annotated[int, msgspec.Meta(ge=1, le=12)]]
    march_width: Annotated[int, msgspec.Meta(ge=1, le=2)] = 2  # 12.1: a march column is 1-2 stands wide
    skirmish_gap: Inch


class EngineerReachSchema(Strict, kw_only=True):
    """House (11, 15.5): how near the engineer stands to his work, and his pontoon crew to him."""

    reach: Inch = 1.0
    crew_reach: Inch = 2.0


class MovementFile(Sourced, tag_field="kind", tag="movement", kw_only=True):
    """The movement sheet (17.4): rates by arm and starting formation, costs, stand sizes (4.1).
    Rates and stands are needed for every arm: data.py."""

    rates: dict[Arms, RatesSchema]
    costs: CostsSchema
    stands: dict[Arms, tuple[Annotated[float, msgspec.Meta(gt=0, le=6)], Annotated[float, msgspec.Meta(gt=0, le=6)]]]
    formations: FormationsSchema
    engineers: EngineerReachSchema = msgspec.field(default_factory=EngineerReachSchema)


class TerrainType(Strict, kw_only=True):
    id: str = ""  # the table's key, set by data.py
    name: str
    move: Annotated[float, msgspec.Meta(ge=0, le=4)]
    cover: Literal["none", "light", "heavy"]
    blocks_sight: bool = False
    elevation: Literal[0, 1, 2] = 0  # 17.3.3: level, low hill, high hill
    crossing: Literal["", "ford", "bridge"] = ""  # 15.4: carries troops over water where it lies
    water: bool = False  # 15.3: a river (impassable but at a crossing; routers into it drown)
    obstacle: bool = False  # 15.10: walls, hedges, fortifications: a unit crossing one is disordered


class TerrainFile(Sourced, tag_field="kind", tag="terrain", kw_only=True):
    types: dict[str, TerrainType]


class ChartFile(Sourced, Rolled, tag_field="kind", tag="chart", kw_only=True):
    """A house (or owner's) dice chart the measured-table rules roll on, e.g. small arms by range."""

    id: str
    name: str = ""  # default: the id (data.py)
    dice: str  # dice notation: data.py
    columns: Columns
    ranges: tuple[Inch, ...] = ()  # farthest inches per column when the chart is by range (one per column: data.py)
    # 13: the target definitions and the modifier each puts on every die (none given: 0)
    targets: dict[Target, Annotated[int, msgspec.Meta(ge=-6, le=6)]] = msgspec.field(default_factory=dict)
    rows: Rows

    def column_for(self, inches: float) -> int | None:
        """The range band's column for a distance (None: out of range)."""
        return next((i for i, r in enumerate(self.ranges) if inches <= r + 1e-9), None)


class MoraleTestSheetSchema(Strict, Rolled, kw_only=True):
    """One test of the morale sheet: a chart by the sheet's Class columns with its named factors."""

    name: str
    factors: dict[str, int] = msgspec.field(default_factory=dict)
    rows: Rows


class VictorySheet(Sourced, tag_field="kind", tag="victory", kw_only=True):
    """The victory sheet (18, 18.1, 18.2, 16.5): house values until an owner's ruling replaces the file."""

    objective_radius: Inch
    surrender_when: tuple[Literal["routing", "contact", "under-half", "disordered", "shaken"], ...]
    arrival_clearance: Inch
    arrival_gap: Inch
    arrival_step: Annotated[float, msgspec.Meta(gt=0, le=12)]
    set_out_margin: Inch
    set_out_gap: Inch
    set_out_front: Inch
    set_out_slot: Inch


class MoraleTestsFile(Sourced, tag_field="kind", tag="morale-tests", kw_only=True):
    """The measured table's morale tests (17.2, 17.3) and rout distances (17.4.14): data.py ``morale_sheet``."""

    dice: str  # dice notation: data.py
    columns: Columns
    command_radius: Inch
    disordering_terrain: tuple[str, ...] = ()
    rout: dict[Arms, Inch]  # full rout distance, needed for every arm: data.py
    tests: dict[str, MoraleTestSheetSchema]  # casualties and rally needed: data.py


SCHEMAS = {
    "days_of_iron/rules.toml": RulesFile,
    "days_of_iron/forces/*.toml": ForceSpec,
    "days_of_iron/scenarios/*.toml": ScenarioSpec,
    "days_of_iron/reference/*.toml": MoraleFile | TableFile,
    "days_of_iron/reference/sheets/*.toml": MovementFile | TerrainFile | ChartFile | MoraleTestsFile | VictorySheet,
}
