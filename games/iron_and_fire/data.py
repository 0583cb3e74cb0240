"""Iron and Fire data: ship values, scenarios, mine mix and random events from ``data/iron_and_fire``.

Everything the book does not print (ship stats, mine mix, maps) is a house value in TOML so a data
pack can replace it without touching code. The files decode straight into the Structs of
``schema.py``; what a schema cannot say (a scenario deploys ships that exist) is checked here.
"""

from __future__ import annotations

from functools import lru_cache

import msgspec

from games.core.data import Record, load
from games.core.errors import DataError
from games.core.schema import convert, convert_keyed
from games.iron_and_fire.schema import (
    IRONCLAD_TYPES,
    BatterySpec,
    CableSpec,
    DeploySpec,
    EventsFile,
    MinesFile,
    PlacementSpec,
    RandomEvent,
    RollSpec,
    Scenario,
    ScenariosFile,
    ShipsFile,
    ShipSpec,
    Zone,
)

SIDES = ("peru", "chile")
SIDE_NAMES = {"peru": "Peru", "chile": "Chile"}
__all__ = ["IRONCLAD_TYPES", "SIDES", "SIDE_NAMES", "BatterySpec", "CableSpec", "DeploySpec", "PlacementSpec", "RandomEvent",
           "RollSpec", "Scenario", "ShipSpec", "Zone", "battery", "mine_mix", "other", "random_events", "scenarios", "ships"]


def other(side: str) -> str:
    """The opposing side."""
    return "chile" if side == "peru" else "peru"


def ships() -> dict[str, ShipSpec]:
    """Cached per loaded file, so a data pack switched on later is picked up."""
    return _ships(load("iron_and_fire/ships.toml"))


@lru_cache(maxsize=8)
def _ships(rec: Record) -> dict[str, ShipSpec]:
    return {sid: msgspec.structs.replace(s, id=sid) for sid, s in convert(rec.doc, ShipsFile, rec.file).ships.items()}


def battery() -> BatterySpec:
    """Cached per loaded file, so a data pack switched on later is picked up."""
    return _battery(load("iron_and_fire/ships.toml"))


@lru_cache(maxsize=8)
def _battery(rec: Record) -> BatterySpec:
    return convert(rec.doc, ShipsFile, rec.file).battery


def mine_mix() -> tuple[str, ...]:
    """Cached per loaded file, so a data pack switched on later is picked up."""
    return _mine_mix(load("iron_and_fire/mines.toml"))


@lru_cache(maxsize=8)
def _mine_mix(rec: Record) -> tuple[str, ...]:
    mix = convert(rec.doc, MinesFile, rec.file).mix
    return tuple(value for value, count in mix.items() for _ in range(count))


def random_events() -> tuple[RandomEvent, ...]:
    """Cached per loaded file, so a data pack switched on later is picked up."""
    return _random_events(load("iron_and_fire/events.toml"))


@lru_cache(maxsize=8)
def _random_events(rec: Record) -> tuple[RandomEvent, ...]:
    return convert(rec.doc, EventsFile, rec.file).event


def scenarios() -> dict[str, Scenario]:
    """Cached per loaded file, so a data pack switched on later is picked up."""
    return _scenarios(load("iron_and_fire/scenarios.toml"))


@lru_cache(maxsize=8)
def _scenarios(rec: Record) -> dict[str, Scenario]:
    known = ships()
    out: dict[str, Scenario] = {}
    for sid, scenario in convert_keyed(rec.doc, ScenariosFile, rec.file).items():
        for i, d in enumerate(scenario.deploy):
            if d.ship not in known:
                raise DataError(f"{rec.file}: key '{sid}.deploy[{i}].ship': unknown ship {d.ship!r}")
        out[sid] = msgspec.structs.replace(scenario, id=sid)
    return out
