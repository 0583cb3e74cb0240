"""Ship record sheets, gun arcs and scenarios, read from ``data/ironclad_draughts`` (house data).

The files decode straight into the Structs of ``schema.py``; what a schema cannot say (a scenario's
ships are classes that exist) is checked here.
"""

from __future__ import annotations

import msgspec

from games.core.data import load
from games.core.errors import DataError
from games.core.schema import decode
from games.ironclad_draughts.schema import (
    GunSpec,
    ScenariosFile,
    ScenarioSpec,
    ShipClass,
    ShipEntry,
    ShipsFile,
    SideSpec,
)

SHIPS_FILE = "ironclad_draughts/ships.toml"
SCENARIOS_FILE = "ironclad_draughts/scenarios.toml"
ARC_NAMES = ("all", "fore", "aft", "port", "starboard")
__all__ = ["ARC_NAMES", "GunSpec", "ScenarioSpec", "ShipClass", "ShipEntry", "SideSpec", "arcs", "house_values",
           "scenarios", "ship_classes"]


def ship_classes() -> dict[str, ShipClass]:
    """All record sheets by class id."""
    classes = decode(SHIPS_FILE, ShipsFile).classes
    return {class_id: msgspec.structs.replace(c, id=class_id) for class_id, c in classes.items()}


def arcs() -> dict[str, tuple[float, float]]:
    """Arc name -> (from, to) degrees clockwise from the bow, inclusive."""
    table = decode(SHIPS_FILE, ShipsFile).arcs
    return {name: getattr(table, name) for name in ARC_NAMES}


def house_values() -> list[str]:
    """Which data in use are house values (a data pack with the printed values tags them otherwise)."""
    ships = decode(SHIPS_FILE, ShipsFile)
    parts = (("ship record sheets", ships), ("gun arcs", ships.arcs), ("scenario set-ups", decode(SCENARIOS_FILE, ScenariosFile)))
    return [what for what, part in parts if part.house]


def scenarios() -> dict[str, ScenarioSpec]:
    file = load(SCENARIOS_FILE).file
    classes = ship_classes()
    out: dict[str, ScenarioSpec] = {}
    for scen_id, spec in decode(SCENARIOS_FILE, ScenariosFile).scenarios.items():
        sides = []
        for i, side in enumerate(spec.sides):
            for j, ship in enumerate(side.ships):
                if ship.class_id not in classes:
                    raise DataError(f"{file}: key 'scenarios.{scen_id}.sides[{i}].ships[{j}].class': "
                                    f"expected one of {', '.join(classes)}, got {ship.class_id!r}")
            ships = tuple(msgspec.structs.replace(s, name=s.name or classes[s.class_id].name) for s in side.ships)
            sides.append(msgspec.structs.replace(side, ships=ships))
        out[scen_id] = msgspec.structs.replace(spec, id=scen_id, sides=(sides[0], sides[1]))
    return out
