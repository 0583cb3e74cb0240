"""Schemas of ``data/iron_and_fire/*.toml`` as ``games/iron_and_fire/data.py`` reads them.

Checked at start-up by ``games.core.schema`` so a typo in a data pack is refused before play
instead of being skipped (the loaders ignore keys they do not know).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from games.core.schema import Keyed, Sourced, Strict

Side = Literal["peru", "chile"]
Fire = Annotated[int, msgspec.Meta(ge=-5, le=9)]
Protection = Annotated[int, msgspec.Meta(ge=1, le=12)]
TwoDice = Annotated[int, msgspec.Meta(ge=2, le=12)]


class ShipSchema(Strict, kw_only=True):
    name: str
    side: Side
    type: Literal["TIC", "BIC", "CBIC", "SSC", "ship", "collier"]
    mf: Annotated[int, msgspec.Meta(ge=0, le=9)]
    cf: Fire
    pf: Protection
    bow: str = "brown"


class BatterySchema(Strict, kw_only=True):
    name: str
    cf: Fire
    pf: Protection
    surrender_hits: Annotated[int, msgspec.Meta(ge=1, le=12)]


class ShipsFile(Sourced, kw_only=True):
    ships: dict[str, ShipSchema]
    battery: BatterySchema


class MinesFile(Sourced, kw_only=True):
    """Mine value (``None`` or a number) -> counters in the bag."""

    mix: dict[Annotated[str, msgspec.Meta(pattern=r"^(None|[0-9]+)$")], Annotated[int, msgspec.Meta(ge=0, le=50)]]


class EventSchema(Strict, kw_only=True):
    low: TwoDice
    high: TwoDice
    key: str
    text: str


class EventsFile(Sourced, kw_only=True):
    event: list[EventSchema]


class ZoneSchema(Strict, kw_only=True):
    """Where something may be placed; every key optional (``_zone`` in data.py)."""

    rows: list[int] = msgspec.field(default_factory=list)
    cols: tuple[int, int] | None = None
    near: list[str] = msgspec.field(default_factory=list)
    within: int = 0
    near_terrain: str = ""
    far_terrain: str = ""
    far: int = 0
    terrain: list[str] = msgspec.field(default_factory=list)
    hexes: list[str] = msgspec.field(default_factory=list)
    near_ships: list[str] = msgspec.field(default_factory=list)


class DeploySchema(ZoneSchema, kw_only=True):
    ship: str
    facings: list[int] = msgspec.field(default_factory=list)
    group: str = ""
    group_within: int = 0
    variant: str = ""
    arrive_turn: int = 0
    arrive_roll: str = ""


class RollSchema(Strict, kw_only=True):
    key: str
    side: Side
    dice: str
    purpose: str
    secret: bool = False
    variant: str = ""


class PlacementSchema(ZoneSchema, kw_only=True):
    side: Side
    dice: str = ""
    option: str = ""


class CableSchema(ZoneSchema, kw_only=True):
    rule: Literal["turns", "activations"]
    side: Side
    on_ship: bool = False


class ScenarioSchema(Strict, kw_only=True):
    name: str
    description: str = ""
    map: str
    current: Annotated[int, msgspec.Meta(ge=1, le=6)]
    turns: Annotated[int, msgspec.Meta(ge=1, le=99)]
    turns_source: str = "book"
    victory: str
    deploy: list[DeploySchema]
    roll: list[RollSchema] = msgspec.field(default_factory=list)
    mines: PlacementSchema | None = None
    batteries: PlacementSchema | None = None
    cable: CableSchema | None = None
    shoal_table: bool = False
    bombard_target: int = 0
    north: int = 6


def _load_all() -> None:
    from games.iron_and_fire import data

    data.ships()
    data.battery()
    data.mine_mix()
    data.random_events()
    data.scenarios()


SCHEMAS = {
    "iron_and_fire/ships.toml": ShipsFile,
    "iron_and_fire/mines.toml": MinesFile,
    "iron_and_fire/events.toml": EventsFile,
    "iron_and_fire/scenarios.toml": Keyed(Sourced, ScenarioSchema),
}
CHECKS = [_load_all]
