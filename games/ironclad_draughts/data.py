"""Ship record sheets, gun arcs and scenarios, read from ``data/ironclad_draughts`` (house data)."""

from __future__ import annotations

from dataclasses import dataclass

from games.core.data import is_house, load
from games.core.errors import DataError

SHIPS_FILE = "ironclad_draughts/ships.toml"
SCENARIOS_FILE = "ironclad_draughts/scenarios.toml"
ARC_NAMES = ("all", "fore", "aft", "port", "starboard")


@dataclass(frozen=True)
class GunSpec:
    name: str
    calibre: float  # inches
    arc: str
    count: int


@dataclass(frozen=True)
class ShipClass:
    id: str
    name: str
    nation: str
    year: int
    type: str
    flotation: int
    guns: tuple[GunSpec, ...]


@dataclass(frozen=True)
class ShipEntry:
    name: str
    class_id: str
    short: str = ""


@dataclass(frozen=True)
class SideSpec:
    id: str
    name: str
    colour: str
    ships: tuple[ShipEntry, ...]


@dataclass(frozen=True)
class ScenarioSpec:
    id: str
    name: str
    description: str
    width: int
    height: int
    sides: tuple[SideSpec, SideSpec]


def ship_classes() -> dict[str, ShipClass]:
    """All record sheets by class id."""
    doc = load(SHIPS_FILE)
    out: dict[str, ShipClass] = {}
    for class_id, rec in doc.table("classes").items():
        guns = tuple(
            GunSpec(g.str("name"), g.float("calibre"), g.str("arc", ARC_NAMES), g.int("count", 1, 20))
            for g in rec.tables("guns")
        )
        out[class_id] = ShipClass(
            id=class_id,
            name=rec.str("name"),
            nation=rec.str("nation"),
            year=rec.int("year", 1850, 1905),
            type=rec.str("type"),
            flotation=rec.int("flotation", 1, 99),
            guns=guns,
        )
    return out


def arcs() -> dict[str, tuple[float, float]]:
    """Arc name -> (from, to) degrees clockwise from the bow, inclusive."""
    table = load(SHIPS_FILE).table("arcs")
    out: dict[str, tuple[float, float]] = {}
    for name in ARC_NAMES:
        pair = table.list(name)
        if len(pair) != 2 or not all(isinstance(v, (int, float)) for v in pair):
            raise DataError(f"{table.file}: key 'arcs.{name}': expected [from, to] in degrees, got {pair!r}")
        out[name] = (float(pair[0]), float(pair[1]))
    return out


def house_values() -> list[str]:
    """Which data in use are house values (a data pack with the printed values tags them otherwise)."""
    ships = load(SHIPS_FILE)
    found = [
        what
        for what, record in (
            ("ship record sheets", ships),
            ("gun arcs", ships.table("arcs")),
            ("scenario set-ups", load(SCENARIOS_FILE)),
        )
        if is_house(record)
    ]
    return found


def scenarios() -> dict[str, ScenarioSpec]:
    doc = load(SCENARIOS_FILE)
    classes = ship_classes()
    out: dict[str, ScenarioSpec] = {}
    for scen_id, rec in doc.table("scenarios").items():
        sides: list[SideSpec] = []
        for side in rec.tables("sides"):
            ships = []
            for ship in side.tables("ships"):
                class_id = ship.str("class", tuple(classes))
                ships.append(
                    ShipEntry(ship.opt_str("name", classes[class_id].name), class_id, ship.opt_str("short", ""))
                )
            sides.append(SideSpec(side.str("id"), side.str("name"), side.str("colour"), tuple(ships)))
        if len(sides) != 2:
            raise DataError(f"{doc.file}: scenario {scen_id!r} needs exactly two sides, has {len(sides)}")
        out[scen_id] = ScenarioSpec(
            id=scen_id,
            name=rec.str("name"),
            description=rec.opt_str("description", ""),
            width=rec.int("width", 3, 26),
            height=rec.int("height", 3, 26),
            sides=(sides[0], sides[1]),
        )
    return out
