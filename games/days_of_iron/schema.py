"""Schemas of ``data/days_of_iron`` (book numbers, forces, scenarios, owners' reference sheets).

They say what ``data.py`` reads, so ``games.core.schema`` can refuse an
unknown key or a bad value at start-up instead of when a game reaches it. Checks across keys
(each die face once, modifiers and guns that exist) stay in the loaders, run at start-up too.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from games.core.schema import Sourced, Strict

Face = Annotated[int, msgspec.Meta(ge=1, le=6)]
Natural = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
PerClass = tuple[int, int, int, int]  # Class 1-4


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


class QualitySchema(Strict, kw_only=True):
    inept: list[Face]
    capable: list[Face]
    exceptional: list[Face]


class StaffSchema(Strict, kw_only=True):
    standard: QualitySchema
    promotion: QualitySchema
    national: dict[str, QualitySchema]


class DisputeSchema(Strict, kw_only=True):
    player_a: list[Face]
    player_b: list[Face] = msgspec.field(default_factory=list)  # the rest of the die


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
    bands: list[BandSchema]


class ResultSchema(Strict, kw_only=True):
    faces: list[Face]
    text: str


class CheckSchema(Strict, kw_only=True):
    name: str
    results: list[ResultSchema]


class RulesFile(Sourced, kw_only=True):
    points: PointsSchema
    staff: StaffSchema
    dispute: DisputeSchema
    scouting: ScoutingSchema
    deployment: DeploymentSchema
    offboard: OffboardSchema
    shattered: dict[str, int]
    victory: VictorySchema
    checks: dict[str, CheckSchema]


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
class StaffFactorsSchema(Strict, kw_only=True):
    inept: int = 0
    capable: int = 0
    exceptional: int = 0
    none: int = 0


class MoraleTestSchema(Strict, kw_only=True):
    name: str = ""  # default: the test id
    base: int = 0
    by_class: PerClass | None = msgspec.field(default=None, name="class")
    staff: StaffFactorsSchema | None = None
    on_pass: str = msgspec.field(default="passed", name="pass")
    on_fail: str = msgspec.field(default="failed", name="fail")
    factors: dict[str, int] = msgspec.field(default_factory=dict)


class MoraleFile(Sourced, tag_field="kind", tag="morale", kw_only=True):
    tests: dict[str, MoraleTestSchema]


class RowSchema(Strict, kw_only=True):
    roll: tuple[int, int]  # inclusive; rows follow on without gaps: data.py
    results: list[str]


class TableFile(Sourced, tag_field="kind", tag="table", kw_only=True):
    id: str = ""  # default: the file name
    name: str = ""
    dice: str
    columns: Annotated[list[str], msgspec.Meta(min_length=1)]
    rows: Annotated[list[RowSchema], msgspec.Meta(min_length=1)]


# --- reference/*.toml: the measured table's house sheets (movement, terrain, charts) -------------
Arms = Literal["infantry", "cavalry", "artillery", "engineer", "general"]
Inch = Annotated[float, msgspec.Meta(ge=0)]


class RatesSchema(Strict, kw_only=True):
    column: Inch
    line: Inch
    skirmish: Inch


class CostsSchema(Strict, kw_only=True):
    wheel_factor: Annotated[float, msgspec.Meta(ge=1)]
    formation_change: Annotated[float, msgspec.Meta(ge=0, le=1)]
    forced_march_bonus: Annotated[float, msgspec.Meta(ge=0)]
    enemy_clearance: Inch
    passage_of_lines: Annotated[float, msgspec.Meta(gt=0, le=1)] = 1.0  # 17.4.9 movement multiplier


class FormationsSchema(Strict, kw_only=True):
    column_width: dict[Arms, Annotated[int, msgspec.Meta(ge=1, le=12)]]
    skirmish_gap: Inch


class MovementFile(Sourced, tag_field="kind", tag="movement", kw_only=True):
    rates: dict[Arms, RatesSchema]
    costs: CostsSchema
    stands: dict[Arms, tuple[Annotated[float, msgspec.Meta(gt=0, le=6)], Annotated[float, msgspec.Meta(gt=0, le=6)]]]
    formations: FormationsSchema


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


class ChartFile(Sourced, tag_field="kind", tag="chart", kw_only=True):
    id: str
    name: str = ""
    dice: str
    columns: Annotated[list[str], msgspec.Meta(min_length=1)]
    ranges: list[Inch] = msgspec.field(default_factory=list)  # one per column when the chart is by range
    # 13: the target definitions and the modifier each puts on every die (none given: 0)
    targets: dict[Literal["dispersed", "line", "dense", "fast"], Annotated[int, msgspec.Meta(ge=-6, le=6)]] = \
        msgspec.field(default_factory=dict)
    rows: Annotated[list[RowSchema], msgspec.Meta(min_length=1)]


class MoraleTestSheetSchema(Strict, kw_only=True):
    name: str
    factors: dict[str, int] = msgspec.field(default_factory=dict)
    rows: Annotated[list[RowSchema], msgspec.Meta(min_length=1)]


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

    dice: str
    columns: Annotated[list[str], msgspec.Meta(min_length=1)]
    command_radius: Inch
    disordering_terrain: list[str] = msgspec.field(default_factory=list)
    rout: dict[Arms, Inch]
    tests: dict[str, MoraleTestSheetSchema]


SCHEMAS = {
    "days_of_iron/rules.toml": RulesFile,
    "days_of_iron/forces/*.toml": ForceSpec,
    "days_of_iron/scenarios/*.toml": ScenarioSpec,
    "days_of_iron/reference/*.toml": MoraleFile | TableFile,
    "days_of_iron/reference/sheets/*.toml": MovementFile | TerrainFile | ChartFile | MoraleTestsFile | VictorySheet,
}
