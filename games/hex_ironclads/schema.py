"""Schemas of ``data/hex_ironclads`` (rules, ship types, scenarios) as ``data.py`` reads them.

Checked at start-up by ``games.core.schema``: unknown keys and out-of-range numbers are refused
before play; cross checks (ships on passable hexes of the map) run through ``data.py`` itself.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from games.core.schema import Sourced, Strict

Dice = Annotated[int, msgspec.Meta(ge=0, le=20)]


class RammingSchema(Strict, kw_only=True):
    with_ram: Dice
    without_ram: Dice


class TerrainSchema(Sourced, kw_only=True):
    impassable: list[str]
    blocks_sight: list[str]


class RulesFile(Sourced, kw_only=True):
    faces: Annotated[list[str], msgspec.Meta(min_length=6, max_length=6)]
    hits: dict[str, Dice]
    ramming: RammingSchema
    terrain: TerrainSchema


class ShipTypeSchema(Strict, kw_only=True):
    name: str
    dice: Annotated[int, msgspec.Meta(ge=1, le=20)]
    move: Annotated[int, msgspec.Meta(ge=1, le=10)]
    flotation: Annotated[int, msgspec.Meta(ge=1, le=99)]
    critical: Annotated[int, msgspec.Meta(ge=0)]  # below flotation: checked by data.py
    ram: bool
    all_round: bool


class ShipsFile(Sourced, kw_only=True):
    types: dict[str, ShipTypeSchema]


class SideSchema(Strict, kw_only=True):
    id: str
    name: str
    colour: str
    home_edge: Literal["north", "south", "east", "west"]


class ShipSchema(Strict, kw_only=True):
    name: str
    type: str
    side: str
    hex: str
    facing: str


class ScenarioFile(Sourced, kw_only=True):
    name: str
    description: str = ""
    map: str
    turn_limit: Annotated[int, msgspec.Meta(ge=1, le=99)]
    order: int = 99
    sides: list[SideSchema]
    ships: list[ShipSchema]


def _load_all() -> None:
    from games.hex_ironclads import data

    data.tables()
    data.ship_types()
    for scenario_id in data.scenario_ids():
        data.load_scenario(scenario_id)


SCHEMAS = {
    "hex_ironclads/rules.toml": RulesFile,
    "hex_ironclads/ships.toml": ShipsFile,
    "hex_ironclads/scenarios/*.toml": ScenarioFile,
}
CHECKS = [_load_all]
