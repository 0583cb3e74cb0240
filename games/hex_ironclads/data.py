"""Loading the ship types, the firing die, terrain rulings and scenarios from ``data/hex_ironclads``.

Every number the book does not give lives in TOML (tagged ``source = "house"``) so owners of the
printed game can drop in their own values as a data pack.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from games.core.data import data_packs, is_house, listing, load
from games.core.errors import DataError, UnknownName, quote
from games.core.maps import HexMap, load_map

FOLDER = "hex_ironclads"
EDGES = ("north", "south", "east", "west")
FACING_NAMES = {
    "flat": ("N", "NE", "SE", "S", "SW", "NW"),
    "pointy": ("NE", "E", "SE", "SW", "W", "NW"),
}


@dataclass(frozen=True)
class ShipType:
    id: str
    name: str
    dice: int
    move: int
    flotation: int
    critical: int
    ram: bool
    all_round: bool


@dataclass(frozen=True)
class Tables:
    """The firing die (face name per rolled value), hits per face, ram dice, terrain rulings."""

    faces: tuple[str, ...]
    hits: dict[str, int]
    ram_dice: int
    no_ram_dice: int
    impassable: frozenset[str]
    blocks_sight: frozenset[str]
    house: bool


@dataclass(frozen=True)
class SideSpec:
    id: str
    name: str
    colour: str
    home_edge: str


@dataclass(frozen=True)
class ShipSpec:
    name: str
    type: str
    side: str
    hex: str
    facing: int


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    description: str
    map_id: str
    turn_limit: int
    order: int
    sides: tuple[SideSpec, ...]
    ships: tuple[ShipSpec, ...]
    house: bool


def tables() -> Tables:
    """The firing die and fixed numbers from ``rules.toml`` (cached per set of data packs)."""
    return _tables(data_packs())


@lru_cache(maxsize=4)
def _tables(packs: tuple[Path, ...]) -> Tables:
    rec = load(f"{FOLDER}/rules.toml")
    faces = tuple(rec.str_list("faces"))
    if len(faces) != 6:
        raise DataError(f"{rec.file}: key 'faces': expected 6 face names (a d6), got {len(faces)}")
    hits_rec = rec.table("hits")
    hits = {face: hits_rec.int(face, 0, 20) for face in sorted(set(faces))}
    ramming = rec.table("ramming")
    terrain = rec.table("terrain")
    return Tables(
        faces=faces,
        hits=hits,
        ram_dice=ramming.int("with_ram", 0, 20),
        no_ram_dice=ramming.int("without_ram", 0, 20),
        impassable=frozenset(terrain.str_list("impassable")),
        blocks_sight=frozenset(terrain.str_list("blocks_sight")),
        house=is_house(rec) or is_house(terrain),
    )


def ship_types() -> dict[str, ShipType]:
    """Ship types by id (cached per set of data packs, so a pack's values take effect)."""
    return _ship_types(data_packs())


@lru_cache(maxsize=4)
def _ship_types(packs: tuple[Path, ...]) -> dict[str, ShipType]:
    rec = load(f"{FOLDER}/ships.toml")
    out: dict[str, ShipType] = {}
    for type_id, t in rec.table("types").items():
        flotation = t.int("flotation", 1, 99)
        out[type_id] = ShipType(
            id=type_id,
            name=t.str("name"),
            dice=t.int("dice", 1, 20),
            move=t.int("move", 1, 10),
            flotation=flotation,
            critical=t.int("critical", 0, flotation - 1),
            ram=t.bool("ram"),
            all_round=t.bool("all_round"),
        )
    if not out:
        raise DataError(f"{rec.file}: key 'types': no ship types defined")
    return out


def ship_types_are_house() -> bool:
    return is_house(load(f"{FOLDER}/ships.toml"))


def scenario_ids() -> list[str]:
    return [p.rsplit("/", 1)[1].removesuffix(".toml") for p in listing(f"{FOLDER}/scenarios")]


def load_scenario(scenario_id: str) -> Scenario:
    """Load and validate one scenario: sides, ships on passable hexes of its map, known types."""
    return _load_scenario(scenario_id, data_packs())


@lru_cache(maxsize=32)
def _load_scenario(scenario_id: str, packs: tuple[Path, ...]) -> Scenario:
    known = scenario_ids()
    if scenario_id not in known:
        raise UnknownName(f"No hex ironclads scenario called {quote(scenario_id)}.", hint=f"Scenarios: {', '.join(known)}.")
    rec = load(f"{FOLDER}/scenarios/{scenario_id}.toml")
    hex_map = load_map(rec.str("map"))
    names = FACING_NAMES[hex_map.layout.orientation]
    sides = tuple(
        SideSpec(s.str("id"), s.str("name"), s.str("colour"), s.str("home_edge", EDGES)) for s in rec.tables("sides")
    )
    if len(sides) != 2 or sides[0].id == sides[1].id:
        raise DataError(f"{rec.file}: key 'sides': expected two sides with different ids")
    side_ids = {s.id for s in sides}
    types = ship_types()
    impassable = tables().impassable
    ships: list[ShipSpec] = []
    for s in rec.tables("ships"):
        ship_type = s.str("type", tuple(types))
        side = s.str("side", tuple(side_ids))
        facing_name = s.str("facing", names)
        label = s.str("hex")
        try:
            h = hex_map.layout.parse(label)
        except ValueError as exc:
            raise DataError(f"{rec.file}: ship {s.str('name')!r}: hex {label!r} is not on map {hex_map.id}") from exc
        if hex_map.terrain_at(h) in impassable:
            raise DataError(f"{rec.file}: ship {s.str('name')!r}: hex {label} is {hex_map.terrain_at(h)}")
        ships.append(ShipSpec(s.str("name"), ship_type, side, label, names.index(facing_name)))
    if len({sp.hex for sp in ships}) != len(ships):
        raise DataError(f"{rec.file}: two ships share a hex")
    if len({sp.name.casefold() for sp in ships}) != len(ships):
        raise DataError(f"{rec.file}: two ships share a name")
    for side_spec in sides:
        if not any(sp.side == side_spec.id for sp in ships):
            raise DataError(f"{rec.file}: side {side_spec.id!r} has no ships")
    return Scenario(
        id=scenario_id,
        name=rec.str("name"),
        description=rec.opt_str("description", ""),
        map_id=hex_map.id,
        turn_limit=rec.int("turn_limit", 1, 99),
        order=rec.opt_int("order", 99),
        sides=sides,
        ships=tuple(ships),
        house=is_house(rec),
    )


def scenario_map(scenario: Scenario) -> HexMap:
    return load_map(scenario.map_id)
