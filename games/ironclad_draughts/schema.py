"""Ship record sheets, gun arcs and scenarios of ``data/ironclad_draughts``: the one description of
each file. ``data.py`` decodes the files straight into these Structs and the rules read them;
``games.core.schema`` checks every file against them at start-up, so an unknown key or a bad value
is refused before play.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from games.core.schema import Sourced, Strict

Arc = tuple[float, float]  # [from, to] degrees clockwise from the bow


class ArcsSchema(Sourced, kw_only=True):
    all: Arc
    fore: Arc
    aft: Arc
    port: Arc
    starboard: Arc


class GunSpec(Strict, kw_only=True):
    name: str
    calibre: float  # inches
    arc: Literal["all", "fore", "aft", "port", "starboard"]
    count: Annotated[int, msgspec.Meta(ge=1, le=20)]


class ShipClass(Strict, kw_only=True):
    id: str = ""  # the table's key, set by data.py
    name: str
    nation: str
    year: Annotated[int, msgspec.Meta(ge=1850, le=1905)]
    type: str
    flotation: Annotated[int, msgspec.Meta(ge=1, le=99)]
    guns: tuple[GunSpec, ...]


class ShipsFile(Sourced, kw_only=True):
    arcs: ArcsSchema
    classes: dict[str, ShipClass]


class ShipEntry(Strict, kw_only=True):
    name: str = ""  # default: the class's name (data.py)
    class_id: str = msgspec.field(name="class")  # a class of ships.toml: data.py
    short: str = ""


class SideSpec(Strict):
    id: str
    name: str
    colour: str
    ships: tuple[ShipEntry, ...]


class ScenarioSpec(Strict, kw_only=True):
    id: str = ""  # the table's key, set by data.py
    name: str
    description: str = ""
    width: Annotated[int, msgspec.Meta(ge=3, le=26)]
    height: Annotated[int, msgspec.Meta(ge=3, le=26)]
    sides: tuple[SideSpec, SideSpec]


class ScenariosFile(Sourced, kw_only=True):
    scenarios: dict[str, ScenarioSpec]


SCHEMAS = {"ironclad_draughts/ships.toml": ShipsFile, "ironclad_draughts/scenarios.toml": ScenariosFile}
