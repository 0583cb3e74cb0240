"""Schemas of ``data/ironclad_draughts`` (record sheets, arcs, scenarios) as ``data.py`` reads them.

Checked at start-up by ``games.core.schema`` so an unknown key or a bad value is refused before play.
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


class GunSchema(Strict, kw_only=True):
    name: str
    calibre: float
    arc: Literal["all", "fore", "aft", "port", "starboard"]
    count: Annotated[int, msgspec.Meta(ge=1, le=20)]


class ClassSchema(Strict, kw_only=True):
    name: str
    nation: str
    year: Annotated[int, msgspec.Meta(ge=1850, le=1905)]
    type: str
    flotation: Annotated[int, msgspec.Meta(ge=1, le=99)]
    guns: list[GunSchema]


class ShipsFile(Sourced, kw_only=True):
    arcs: ArcsSchema
    classes: dict[str, ClassSchema]


class EntrySchema(Strict, kw_only=True):
    ship_class: str = msgspec.field(name="class")
    name: str = ""  # default: the class's name
    short: str = ""


class SideSchema(Strict, kw_only=True):
    id: str
    name: str
    colour: str
    ships: list[EntrySchema]


class ScenarioSchema(Strict, kw_only=True):
    name: str
    description: str = ""
    width: Annotated[int, msgspec.Meta(ge=3, le=26)]
    height: Annotated[int, msgspec.Meta(ge=3, le=26)]
    sides: Annotated[list[SideSchema], msgspec.Meta(min_length=2, max_length=2)]


class ScenariosFile(Sourced, kw_only=True):
    scenarios: dict[str, ScenarioSchema]


def _load_all() -> None:
    """Read every file the way play reads it, so a value the schema cannot see is refused at start-up."""
    from games.ironclad_draughts import data

    data.arcs()
    data.house_values()
    data.scenarios()


SCHEMAS = {"ironclad_draughts/ships.toml": ShipsFile, "ironclad_draughts/scenarios.toml": ScenariosFile}
CHECKS = [_load_all]
