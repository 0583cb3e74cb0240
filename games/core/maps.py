"""Hex maps from ``data/maps/<id>.toml``: layout, terrain per hex, printed compass, arrows.

Format (every key validated on load)::

    source = "house"                 # or "historical", "book"
    name = "Map 1: open sea"
    orientation = "flat"             # or "pointy"
    first_col = 11                   # printed number of the first column
    first_row = 1
    cols = 19
    rows = 13
    shifted = "odd"                  # printed columns (flat) / rows (pointy) set half a hex down/right
    default_terrain = "deep"
    hexside_compass = ["6", "5", "4", "3", "2", "1"]   # printed labels of directions 0..5
    [terrain]                        # kind -> hex labels (CCRR)
    land = ["1101", "1201"]
    shoal = ["1305"]
    [[arrows]]                       # optional: north, current, wind
    kind = "north"
    bearing = 0.0
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Annotated, Literal

import msgspec

from games.core.data import listing, load, on_reload
from games.core.hexgrid import Hex, HexLayout
from games.core.schema import Sourced, Strict, convert, fail
from games.core.view import Arrow, Board

Coordinate = Annotated[int, msgspec.Meta(ge=0, le=99)]
Count = Annotated[int, msgspec.Meta(ge=1, le=99)]


class ArrowSchema(Strict, kw_only=True):
    kind: str
    bearing: float
    label: str = ""
    strength: str = ""


class MapSchema(Sourced, kw_only=True):
    """``maps/<id>.toml`` as ``load_map`` reads it (checked at start-up by games.core.schema)."""

    name: str
    orientation: Literal["flat", "pointy"]
    first_col: Coordinate
    first_row: Coordinate
    cols: Count
    rows: Count
    shifted: Literal["odd", "even"]
    default_terrain: str = "deep"
    hexside_compass: Annotated[list[str], msgspec.Meta(min_length=6, max_length=6)] = msgspec.field(
        default_factory=lambda: ["1", "2", "3", "4", "5", "6"]
    )
    terrain: dict[str, list[str]] = msgspec.field(default_factory=dict)
    arrows: list[ArrowSchema] = msgspec.field(default_factory=list)


SCHEMAS = {"maps/*.toml": MapSchema}


@dataclass(frozen=True)
class HexMap:
    id: str
    name: str
    layout: HexLayout
    default_terrain: str
    terrain: dict[Hex, str] = field(default_factory=dict)
    compass: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
    arrows: tuple[Arrow, ...] = ()
    source: str = "house"

    def terrain_at(self, h: Hex) -> str:
        """Terrain of a hex; off the map is ``"off"``."""
        if not self.layout.on_map(h):
            return "off"
        return self.terrain.get(h, self.default_terrain)

    def board(self) -> Board:
        """The never-changing part of a View for this map."""
        return Board(
            kind="hex",
            key=f"hex:{self.id}",
            name=self.name,
            hex_layout=self.layout,
            terrain={self.layout.label(h): kind for h, kind in self.terrain.items()}
            | {"*": self.default_terrain},
            hexside_compass=self.compass,
            arrows=self.arrows,
        )


def map_ids() -> list[str]:
    return [p.removeprefix("maps/").removesuffix(".toml") for p in listing("maps")]


@lru_cache(maxsize=32)
def load_map(map_id: str) -> HexMap:
    """A map decoded into ``MapSchema``; its hex labels are then checked against its own layout."""
    record = load(f"maps/{map_id}.toml")
    spec = convert(record.doc, MapSchema, record.file)
    layout = HexLayout(orientation=spec.orientation, first_col=spec.first_col, first_row=spec.first_row,
                       cols=spec.cols, rows=spec.rows, shifted=spec.shifted)
    terrain: dict[Hex, str] = {}
    for kind, labels in spec.terrain.items():
        for label in labels:
            try:
                terrain[layout.parse(label)] = kind
            except ValueError as exc:
                raise fail(record.file, f"terrain.{kind}", f"{label!r} is not a hex on this map") from exc
    return HexMap(
        id=map_id,
        name=spec.name,
        layout=layout,
        default_terrain=spec.default_terrain,
        terrain=terrain,
        compass=tuple(spec.hexside_compass),
        arrows=tuple(Arrow(kind=a.kind, bearing=a.bearing, label=a.label, strength=a.strength) for a in spec.arrows),
        source=spec.source,
    )


def _load_all() -> None:
    """Start-up check: every map loads (hex labels on the map, six compass labels)."""
    for map_id in map_ids():
        load_map(map_id)


CHECKS = [_load_all]
on_reload(load_map.cache_clear)
