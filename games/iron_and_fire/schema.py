"""Ship values, mines, random events and scenarios of ``data/iron_and_fire``: the one description of
each file. ``data.py`` decodes the files straight into these Structs and the rules read them;
``games.core.schema`` checks every file against them at start-up, so a typo in a data pack is
refused before play.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from games.core.schema import Keyed, Sourced, Strict

Side = Literal["peru", "chile"]
Fire = Annotated[int, msgspec.Meta(ge=-5, le=9)]
Protection = Annotated[int, msgspec.Meta(ge=1, le=12)]
TwoDice = Annotated[int, msgspec.Meta(ge=2, le=12)]
IRONCLAD_TYPES = ("TIC", "BIC", "CBIC")


class ShipSpec(Strict, kw_only=True):
    id: str = ""  # the table's key, set by data.py
    name: str
    side: Side
    type: Literal["TIC", "BIC", "CBIC", "SSC", "ship", "collier"]
    mf: Annotated[int, msgspec.Meta(ge=0, le=9)]
    cf: Fire
    pf: Protection
    bow: str = "brown"

    @property
    def broadside(self) -> bool:
        """Every ship except a turret ship fires from broadsides (bow/stern penalty)."""
        return self.type != "TIC"


class BatterySpec(Strict, kw_only=True):
    name: str
    cf: Fire
    pf: Protection
    surrender_hits: Annotated[int, msgspec.Meta(ge=1, le=12)]


class ShipsFile(Sourced, kw_only=True):
    ships: dict[str, ShipSpec]
    battery: BatterySpec


class MinesFile(Sourced, kw_only=True):
    """Mine value (``None`` or a number) -> counters in the bag."""

    mix: dict[Annotated[str, msgspec.Meta(pattern=r"^(None|[0-9]+)$")], Annotated[int, msgspec.Meta(ge=0, le=50)]]


class RandomEvent(Strict, kw_only=True):
    low: TwoDice
    high: TwoDice
    key: str
    text: str


class EventsFile(Sourced, kw_only=True):
    event: tuple[RandomEvent, ...]


class Zone(Strict, kw_only=True):
    """Where a unit, mine or battery may be placed (all given conditions must hold); every key optional."""

    rows: tuple[int, ...] = ()
    cols: tuple[int, int] | None = None
    near: tuple[str, ...] = ()
    within: int = 0
    exactly: int = 0  # "N hexes from" a ``near`` hex, said without "up to" or "within": that distance
    near_terrain: str = ""
    far_terrain: str = ""
    far: int = 0
    terrain: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()
    near_ships: tuple[str, ...] = ()

    @property
    def zone(self) -> Zone:
        """A deployment, placement or cable spec is its own zone (its zone keys sit beside its others)."""
        return self

    def describe(self) -> str:
        parts: list[str] = []
        if self.hexes:
            parts.append("one of " + ", ".join(self.hexes))
        if self.rows:
            parts.append("in row " + " or ".join(f"{r:02d}" for r in self.rows))
        if self.cols:
            parts.append(f"in columns {self.cols[0]}-{self.cols[1]}")
        if self.near:
            how_far = f"exactly {self.exactly} hexes from " if self.exactly else f"within {self.within} hexes of "
            parts.append(how_far + " or ".join(self.near))
        if self.near_terrain:
            parts.append(f"within {self.within} hexes of a {self.near_terrain} hex")
        if self.near_ships:
            parts.append(f"within {self.within} hexes of each of " + ", ".join(self.near_ships))
        if self.far_terrain:
            parts.append(f"at least {self.far} hexes from any {self.far_terrain} hex")
        if self.terrain:
            parts.append("on " + " or ".join(self.terrain))
        return "; ".join(parts) or "anywhere on the map"


class DeploySpec(Zone, kw_only=True):
    ship: str  # a ship of ships.toml: data.py
    facings: tuple[int, ...] = ()  # printed compass labels; empty = any
    group: str = ""
    group_within: int = 0
    variant: str = ""  # "option=value" that must hold for this ship to take part
    arrive_turn: int = 0  # 0 = sets up before play
    arrive_roll: str = ""  # key of a (secret) roll deciding the arrival turn


class RollSpec(Strict):
    key: str
    side: Side
    dice: str
    purpose: str
    secret: bool = False
    variant: str = ""


class PlacementSpec(Zone, kw_only=True):
    """Mines or batteries a side places during set-up."""

    side: Side
    dice: str = ""
    option: str = ""


class CableSpec(Zone, kw_only=True):
    rule: Literal["turns", "activations"]  # "turns" (scenario 3) or "activations" (scenario 4)
    side: Side
    on_ship: bool = False


class Scenario(Strict, kw_only=True):
    id: str = ""  # the table's key, set by data.py
    name: str
    description: str = ""
    map: str
    current: Annotated[int, msgspec.Meta(ge=1, le=6)]  # printed compass label
    turns: Annotated[int, msgspec.Meta(ge=0, le=99)]  # 0: no turn limit (scenario 5, 15.6.5)
    turns_source: str = "book"
    victory: str
    deploy: tuple[DeploySpec, ...]
    rolls: tuple[RollSpec, ...] = msgspec.field(default=(), name="roll")
    mines: PlacementSpec | None = None
    batteries: PlacementSpec | None = None
    cable: CableSpec | None = None
    shoal_table: bool = False
    bombard_target: int = 0
    north: int = 6  # printed compass label of the edge the scenario calls north


ScenariosFile = Keyed(Sourced, Scenario)  # source = "book" beside [s1], [s2]...


SCHEMAS = {
    "iron_and_fire/ships.toml": ShipsFile,
    "iron_and_fire/mines.toml": MinesFile,
    "iron_and_fire/events.toml": EventsFile,
    "iron_and_fire/scenarios.toml": ScenariosFile,
}
