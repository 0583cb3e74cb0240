"""Continuous geometry: exact sweeps, distances, clipping (games.core.geometry)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.geometry import (
    Base,
    bearing_of,
    bearing_vector,
    clip_half_plane,
    overlaps,
    pivot_contact,
    polygon_distance,
    segment_crosses_polygon,
    slide_contact,
)

coords = st.floats(min_value=0.0, max_value=36.0, allow_nan=False)
headings = st.floats(min_value=0.0, max_value=359.9, allow_nan=False)


def test_bearing_vector_points_up_the_table_at_zero() -> None:
    assert bearing_vector(0) == (0.0, -1.0)
    x, y = bearing_vector(90)
    assert math.isclose(x, 1.0) and abs(y) < 1e-12
    assert math.isclose(bearing_of((0.0, 1.0)), 180.0)


def test_base_corners_and_edges() -> None:
    base = Base((10.0, 10.0), 0.0, 3.0, 1.0)
    assert base.edge_midpoint("bow") == (10.0, 8.5)
    assert base.edge_midpoint("stern") == (10.0, 11.5)
    assert base.edge_midpoint("starboard") == (10.5, 10.0)
    assert base.edge_midpoint("port") == (9.5, 10.0)


def test_slide_stops_exactly_at_contact() -> None:
    mover = Base((10.0, 10.0), 0.0, 3.0, 1.0)
    wall = Base((10.0, 0.0), 90.0, 3.0, 1.0)
    t = slide_contact(mover.polygon(), (0.0, -20.0), wall.polygon())
    assert t is not None and math.isclose(t * 20.0, 8.0)


def test_sliding_away_from_a_touching_ship_is_no_contact() -> None:
    a = Base((10.0, 10.0), 0.0, 3.0, 1.0)
    b = Base((11.0, 10.0), 0.0, 3.0, 1.0)  # touching side to side
    assert slide_contact(a.polygon(), (0.0, -5.0), b.polygon()) is None  # slides along
    assert slide_contact(a.polygon(), (-3.0, 0.0), b.polygon()) is None  # moves away
    assert slide_contact(a.polygon(), (1.0, 0.0), b.polygon()) == 0.0  # presses in


def test_pivot_contact_finds_first_touch_and_is_mirror_symmetric() -> None:
    ship = Base((10.0, 10.0), 0.0, 3.0, 1.0)
    rock = Base((11.5, 8.0), 0.0, 1.0, 1.0).polygon()
    mirrored = Base((8.5, 8.0), 0.0, 1.0, 1.0).polygon()
    angle = pivot_contact(ship.polygon(), ship.edge_midpoint("starboard"), 45.0, rock)
    mirror = pivot_contact(ship.polygon(), ship.edge_midpoint("port"), -45.0, mirrored)
    assert angle is not None and mirror is not None
    assert math.isclose(angle, mirror, abs_tol=1e-9)
    assert 0 < angle < 45
    turned = ship.pivoted(ship.edge_midpoint("starboard"), angle)
    assert not overlaps(turned.polygon(), rock)
    assert polygon_distance(turned.polygon(), rock) < 1e-6


def test_pivot_short_of_the_obstacle_is_free() -> None:
    ship = Base((10.0, 10.0), 0.0, 3.0, 1.0)
    rock = Base((12.0, 8.0), 0.0, 1.0, 1.0).polygon()
    assert pivot_contact(ship.polygon(), ship.edge_midpoint("starboard"), 45.0, rock) is None


def test_line_grazing_a_corner_is_not_blocked_but_crossing_is() -> None:
    square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    assert not segment_crosses_polygon((-1.0, 1.0), (1.0, -1.0), square)
    assert segment_crosses_polygon((-1.0, 0.5), (2.0, 0.5), square)
    assert not segment_crosses_polygon((-1.0, 0.0), (2.0, 0.0), square)  # along an edge


def test_clip_half_plane() -> None:
    square = ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0))
    clipped = clip_half_plane(square, (1.0, 0.0), (1.0, 0.0))
    assert sorted(clipped) == [(1.0, 0.0), (1.0, 2.0), (2.0, 0.0), (2.0, 2.0)]
    assert clip_half_plane(square, (3.0, 0.0), (1.0, 0.0)) == ()


@settings(max_examples=60, deadline=None)
@given(coords, coords, headings, coords, coords, headings)
def test_distance_is_symmetric(x1: float, y1: float, h1: float, x2: float, y2: float, h2: float) -> None:
    a = Base((x1, y1), h1, 2.6, 1.1).polygon()
    b = Base((x2, y2), h2, 2.0, 0.9).polygon()
    assert math.isclose(polygon_distance(a, b), polygon_distance(b, a), abs_tol=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    st.floats(min_value=2.0, max_value=34.0),
    st.floats(min_value=0.0, max_value=359.0),
    st.floats(min_value=0.3, max_value=0.8),
    st.floats(min_value=-0.8, max_value=0.8),
)
def test_no_tunnelling_through_a_thin_ship(x: float, heading: float, beam: float, offset: float) -> None:
    """A long fast move always stops at a ship lying across its path, however thin."""
    mover = Base((x, 30.0), 0.0, 2.6, 1.1)
    blocker = Base((x + offset, 10.0), 90.0 + (heading % 60.0) - 30.0, 3.0, beam)
    t = slide_contact(mover.polygon(), (0.0, -28.0), blocker.polygon())
    assert t is not None
    stopped = mover.translated((0.0, -28.0 * t))
    assert not overlaps(stopped.polygon(), blocker.polygon())
    assert polygon_distance(stopped.polygon(), blocker.polygon()) < 1e-6
    # and every point of the way up to the stop is clear
    for k in range(1, 20):
        partial = mover.translated((0.0, -28.0 * t * k / 20))
        assert not overlaps(partial.polygon(), blocker.polygon())


@settings(max_examples=40, deadline=None)
@given(coords, coords, headings, st.floats(min_value=-45.0, max_value=45.0))
def test_pivot_never_ends_inside_an_obstacle(x: float, y: float, heading: float, turn: float) -> None:
    ship = Base((x, y), heading, 2.6, 1.1)
    rock = Base((x + 1.6, y - 0.8), heading + 20.0, 1.0, 1.0).polygon()
    if overlaps(ship.polygon(), rock):
        return
    side = "starboard" if turn >= 0 else "port"
    pivot = ship.edge_midpoint(side)
    angle = pivot_contact(ship.polygon(), pivot, turn, rock)
    final = abs(turn) if angle is None else angle
    turned = ship.pivoted(pivot, math.copysign(final, turn))
    assert not overlaps(turned.polygon(), rock, tolerance=1e-6)
    for k in range(1, 10):
        step = ship.pivoted(pivot, math.copysign(final * k / 10, turn))
        assert not overlaps(step.polygon(), rock, tolerance=1e-6)
