"""games/core/geometry.py: the distance between two convex polygons, including the case a review
found wrong: bases lined up along one axis (their projections only touch there) read as 0" apart."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core.geometry import Base, _edges, overlap_depth, overlaps, polygon_distance, segment_distance

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast

Rect = tuple[tuple[float, float], ...]


def rect(x0: float, y0: float, x1: float, y1: float) -> Rect:
    return ((x1, y1), (x0, y1), (x0, y0), (x1, y0))


def test_bases_level_along_one_axis_are_still_apart() -> None:
    a = ((50.0, 27.0), (46.0, 27.0), (46.0, 24.0), (50.0, 24.0))
    b = ((29.0, 21.0), (33.0, 21.0), (33.0, 24.0), (29.0, 24.0))
    assert polygon_distance(a, b) == 13.0
    assert overlap_depth(a, b) < 0
    assert not overlaps(a, b)


def test_touching_and_overlapping_read_zero() -> None:
    assert polygon_distance(rect(0, 0, 2, 1), rect(2, 0, 4, 1)) == 0.0  # edge to edge
    assert polygon_distance(rect(0, 0, 2, 1), rect(2, 1, 4, 2)) == 0.0  # corner to corner
    assert polygon_distance(rect(0, 0, 4, 4), rect(1, 1, 2, 2)) == 0.0  # one inside the other
    assert overlaps(rect(0, 0, 2, 2), rect(1, 1, 3, 3))


coord = st.integers(-20, 20)


@given(coord, coord, st.integers(1, 5), st.integers(1, 5), coord, coord, st.integers(1, 5), st.integers(1, 5))
def test_axis_aligned_rectangles_match_the_closed_form(ax: int, ay: int, aw: int, ah: int,
                                                        bx: int, by: int, bw: int, bh: int) -> None:
    """Whole-inch rectangles, as units set out in rows and moved whole inches: the gap is the
    hypotenuse of the gaps along x and y (each 0 where the projections meet or overlap)."""
    a, b = rect(ax, ay, ax + aw, ay + ah), rect(bx, by, bx + bw, by + bh)
    gx = max(0, bx - (ax + aw), ax - (bx + bw))
    gy = max(0, by - (ay + ah), ay - (by + bh))
    assert math.isclose(polygon_distance(a, b), math.hypot(gx, gy), abs_tol=1e-9)


angle = st.floats(0, 360, allow_nan=False)
place = st.floats(-30, 30, allow_nan=False)


@given(place, place, angle, place, place, angle)
def test_rotated_bases_agree_with_the_edge_by_edge_distance(ax: float, ay: float, ah: float,
                                                             bx: float, by: float, bh: float) -> None:
    """Any two rotated bases: the distance is the least over every pair of edges (0 if they cross),
    the slow definition the fast vertex-to-edge search must match."""
    a = Base((ax, ay), ah, 4.0, 1.5).polygon()
    b = Base((bx, by), bh, 2.0, 3.0).polygon()
    slow = min(segment_distance(p, q, r, s) for p, q in _edges(a) for r, s in _edges(b))
    if overlap_depth(a, b) > 1e-9:
        assert polygon_distance(a, b) == 0.0
    else:
        assert math.isclose(polygon_distance(a, b), slow, abs_tol=1e-9)
