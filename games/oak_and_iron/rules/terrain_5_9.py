"""Book section 5.9 (Additional Rules: Terrain and Weather): shoals,
fog banks, rocks, islands and land masses; and what blocks Line of Sight (4.3)."""

from __future__ import annotations

from collections.abc import Sequence

from games.core.geometry import (
    Base,
    Point,
    Polygon,
    overlaps,
    pivot_contact,
    point_in_polygon,
    segment_crosses_polygon,
    slide_contact,
)
from games.oak_and_iron.state import State

SOLID = ("rock", "island", "land")  # ROCKS, ISLANDS AND LAND MASSES: no ship moves through
SIGHT_BLOCKING = ("island", "land")  # ISLANDS AND LAND MASSES block Line of Sight


def terrain_polys(state: State, kinds: Sequence[str]) -> list[Polygon]:
    """The outlines of the terrain pieces of these kinds."""
    return [tuple(t.points) for t in state.terrain if t.kind in kinds]


def sight_blockers(state: State, *exclude: str) -> list[Polygon]:
    """LINE OF SIGHT (4.3): islands and land block it; so do other ships' bases (house option
    ``ships_block_sight``)."""
    blockers = terrain_polys(state, SIGHT_BLOCKING)
    if state.options.get("ships_block_sight", "yes") == "yes":
        blockers += [s.base.polygon() for s in state.ships if s.on_table and s.id not in exclude]
    return blockers


def crossed_shoals(state: State, before: Base, after: Base, *, slide: Point | None, pivot: tuple[Point, float] | None) -> list[str]:
    """SHOALS (5.9): the shoals any part of the base moved over (checked after the move)."""
    found = []
    for t in state.terrain:
        if t.kind != "shoal":
            continue
        poly = tuple(t.points)
        crossed = overlaps(before.polygon(), poly) or overlaps(after.polygon(), poly)
        if not crossed and slide is not None:
            crossed = slide_contact(before.polygon(), slide, poly) is not None
        if not crossed and pivot is not None:
            crossed = pivot_contact(before.polygon(), pivot[0], pivot[1], poly) is not None
        if crossed:
            found.append(t.label or "shoal")
    return found


def fog_between(state: State, a: Point, b: Point, target: Base) -> bool:
    """FOG BANK (5.9): shooting into, out of or through fog."""
    for t in state.terrain:
        if t.kind != "fog":
            continue
        poly = tuple(t.points)
        if segment_crosses_polygon(a, b, poly) or overlaps(target.polygon(), poly) or point_in_polygon(a, poly):
            return True
    return False
