"""Loading the ship types, the firing die, terrain rulings and scenarios from ``data/hex_ironclads``.

Every number the book does not give lives in TOML (tagged ``source = "house"``) so owners of the
printed game can drop in their own values as a data pack. The files decode straight into the
Structs of ``schema.py``; what a schema cannot say (ships on passable hexes, known types) is
checked here.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import msgspec

from games.core.data import data_packs, listing, load
from games.core.errors import DataError, UnknownName, quote
from games.core.maps import load_map
from games.core.schema import decode
from games.hex_ironclads.schema import Scenario, ShipsFile, ShipSpec, ShipType, SideSpec, Tables

FOLDER = "hex_ironclads"
FACING_NAMES = {
    "flat": ("N", "NE", "SE", "S", "SW", "NW"),
    "pointy": ("NE", "E", "SE", "SW", "W", "NW"),
}
__all__ = ["FACING_NAMES", "Scenario", "ShipSpec", "ShipType", "SideSpec", "Tables", "facing_index",
           "load_scenario", "scenario_ids", "ship_types", "ship_types_are_house", "tables"]


def tables() -> Tables:
    """The firing die and fixed numbers from ``rules.toml`` (cached per set of data packs)."""
    return _tables(data_packs())


@lru_cache(maxsize=4)
def _tables(packs: tuple[Path, ...]) -> Tables:
    relpath = f"{FOLDER}/rules.toml"
    out = decode(relpath, Tables)
    missing = sorted(set(out.faces) - set(out.hits))
    if missing:
        raise DataError(f"{load(relpath).file}: key 'hits.{missing[0]}' is missing: expected the hits of each face")
    return out


def ship_types() -> dict[str, ShipType]:
    """Ship types by id (cached per set of data packs, so a pack's values take effect)."""
    return _ship_types(data_packs())


@lru_cache(maxsize=4)
def _ship_types(packs: tuple[Path, ...]) -> dict[str, ShipType]:
    relpath = f"{FOLDER}/ships.toml"
    file = load(relpath).file
    out: dict[str, ShipType] = {}
    for type_id, t in decode(relpath, ShipsFile).types.items():
        if t.critical >= t.flotation:
            raise DataError(f"{file}: key 'types.{type_id}.critical': expected an integer from 0 to {t.flotation - 1}, "
                            f"got {t.critical}")
        out[type_id] = msgspec.structs.replace(t, id=type_id)
    if not out:
        raise DataError(f"{file}: key 'types': no ship types defined")
    return out


def ship_types_are_house() -> bool:
    return decode(f"{FOLDER}/ships.toml", ShipsFile).house


def scenario_ids() -> list[str]:
    return [p.rsplit("/", 1)[1].removesuffix(".toml") for p in listing(f"{FOLDER}/scenarios")]


def facing_index(spec: ShipSpec, orientation: str) -> int:
    """A ship's printed facing as a direction 0-5 of the map's orientation (``flat``, ``pointy``)."""
    return FACING_NAMES[orientation].index(spec.facing)


def load_scenario(scenario_id: str) -> Scenario:
    """Load and validate one scenario: sides, ships on passable hexes of its map, known types."""
    return _load_scenario(scenario_id, data_packs())


def _choice(file: str, where: str, value: str, choices: tuple[str, ...] | list[str]) -> None:
    if value not in choices:
        raise DataError(f"{file}: key '{where}': expected one of {', '.join(choices)}, got {value!r}")


@lru_cache(maxsize=32)
def _load_scenario(scenario_id: str, packs: tuple[Path, ...]) -> Scenario:
    known = scenario_ids()
    if scenario_id not in known:
        raise UnknownName(f"No hex ironclads scenario called {quote(scenario_id)}.", hint=f"Scenarios: {', '.join(known)}.")
    relpath = f"{FOLDER}/scenarios/{scenario_id}.toml"
    file = load(relpath).file
    scenario = decode(relpath, Scenario)
    hex_map = load_map(scenario.map_id)
    names = FACING_NAMES[hex_map.layout.orientation]
    sides = scenario.sides
    if len(sides) != 2 or sides[0].id == sides[1].id:
        raise DataError(f"{file}: key 'sides': expected two sides with different ids")
    side_ids = [s.id for s in sides]
    types = ship_types()
    impassable = tables().impassable
    for i, ship in enumerate(scenario.ships):
        _choice(file, f"ships[{i}].type", ship.type, list(types))
        _choice(file, f"ships[{i}].side", ship.side, side_ids)
        _choice(file, f"ships[{i}].facing", ship.facing, names)
        try:
            h = hex_map.layout.parse(ship.hex)
        except ValueError as exc:
            raise DataError(f"{file}: ship {ship.name!r}: hex {ship.hex!r} is not on map {hex_map.id}") from exc
        if hex_map.terrain_at(h) in impassable:
            raise DataError(f"{file}: ship {ship.name!r}: hex {ship.hex} is {hex_map.terrain_at(h)}")
    ships = scenario.ships
    if len({sp.hex for sp in ships}) != len(ships):
        raise DataError(f"{file}: two ships share a hex")
    if len({sp.name.casefold() for sp in ships}) != len(ships):
        raise DataError(f"{file}: two ships share a name")
    for side_spec in sides:
        if not any(sp.side == side_spec.id for sp in ships):
            raise DataError(f"{file}: side {side_spec.id!r} has no ships")
    return msgspec.structs.replace(scenario, id=scenario_id)


