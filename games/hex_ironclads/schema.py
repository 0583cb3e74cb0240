"""Rules, ship types and scenarios of ``data/hex_ironclads``: the one description of each file.

``data.py`` decodes the files straight into these Structs and the rules read them;
``games.core.schema`` checks every file against them at start-up, so unknown keys and out-of-range
numbers are refused before play. Cross checks (ships on passable hexes of the map, known types)
are ``data.py``'s, run at start-up too.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from games.core.data import HOUSE_SOURCES
from games.core.schema import Sourced, Strict

Dice = Annotated[int, msgspec.Meta(ge=0, le=20)]


class RammingSchema(Strict, kw_only=True):
    with_ram: Dice
    without_ram: Dice


class TerrainSchema(Sourced, kw_only=True):
    impassable: frozenset[str]
    blocks_sight: frozenset[str]


class Tables(Sourced, kw_only=True):
    """``rules.toml``: the firing die (face name per rolled value), hits per face, ram dice, terrain rulings."""

    faces: Annotated[tuple[str, ...], msgspec.Meta(min_length=6, max_length=6)]
    hits: dict[str, Dice]  # every face: data.py
    ramming: RammingSchema
    terrain: TerrainSchema

    @property
    def ram_dice(self) -> int:
        return self.ramming.with_ram

    @property
    def no_ram_dice(self) -> int:
        return self.ramming.without_ram

    @property
    def impassable(self) -> frozenset[str]:
        return self.terrain.impassable

    @property
    def blocks_sight(self) -> frozenset[str]:
        return self.terrain.blocks_sight

    @property
    def house(self) -> bool:
        """The rules file's numbers or its terrain rulings are house values."""
        return self.source in HOUSE_SOURCES or self.terrain.house


class ShipType(Strict, kw_only=True):
    id: str = ""  # the table's key, set by data.py
    name: str
    dice: Annotated[int, msgspec.Meta(ge=1, le=20)]
    move: Annotated[int, msgspec.Meta(ge=1, le=10)]
    flotation: Annotated[int, msgspec.Meta(ge=1, le=99)]
    critical: Annotated[int, msgspec.Meta(ge=0)]  # below flotation: data.py
    ram: bool
    all_round: bool


class ShipsFile(Sourced, kw_only=True):
    types: dict[str, ShipType]


class SideSpec(Strict, kw_only=True):
    id: str
    name: str
    colour: str
    home_edge: Literal["north", "south", "east", "west"]


class ShipSpec(Strict, kw_only=True):
    name: str
    type: str  # a ship type: data.py
    side: str  # a side's id: data.py
    hex: str  # a passable hex of the map: data.py
    facing: str  # a printed facing of the map's orientation (data.FACING_NAMES): data.py


class Scenario(Sourced, kw_only=True):
    id: str = ""  # the file's name, set by data.py
    name: str
    description: str = ""
    map_id: str = msgspec.field(name="map")
    turn_limit: Annotated[int, msgspec.Meta(ge=1, le=99)]
    order: int = 99
    sides: tuple[SideSpec, ...]
    ships: tuple[ShipSpec, ...]


SCHEMAS = {
    "hex_ironclads/rules.toml": Tables,
    "hex_ironclads/ships.toml": ShipsFile,
    "hex_ironclads/scenarios/*.toml": Scenario,
}
