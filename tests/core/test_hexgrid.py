"""Hex grid: offset labels, directions and facings, distance, and lines checked against geometry."""

from __future__ import annotations

import contextlib
import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.errors import InvalidSyntax
from games.core.hexgrid import Hex, HexLayout, distance, facing_delta, line, turn

FAST = settings(max_examples=80, deadline=None)

hexes = st.builds(Hex, st.integers(-30, 30), st.integers(-30, 30))
small_hexes = st.builds(Hex, st.integers(-6, 6), st.integers(-6, 6))
layouts = st.builds(
    HexLayout,
    orientation=st.sampled_from(["flat", "pointy"]),
    first_col=st.integers(0, 30),
    first_row=st.integers(0, 30),
    cols=st.integers(1, 25),
    rows=st.integers(1, 25),
    shifted=st.sampled_from(["odd", "even"]),
)
ALL_LAYOUTS = [
    HexLayout(orientation=o, first_col=fc, first_row=fr, shifted=sh)
    for o in ("flat", "pointy")
    for sh in ("odd", "even")
    for fc in (0, 1, 11)
    for fr in (0, 1, 2)
]


def layout_id(layout: HexLayout) -> str:
    return f"{layout.orientation}-{layout.shifted}-c{layout.first_col}-r{layout.first_row}"


# --- offset <-> axial ----------------------------------------------------------------------
@pytest.mark.slow
@FAST
@given(layout=layouts, col=st.integers(-40, 140), row=st.integers(-40, 140))
def test_offset_to_axial_round_trip(layout: HexLayout, col: int, row: int) -> None:
    assert layout.to_offset(layout.from_offset(col, row)) == (col, row)


@pytest.mark.slow
@FAST
@given(layout=layouts, h=hexes)
def test_axial_to_offset_round_trip(layout: HexLayout, h: Hex) -> None:
    col, row = layout.to_offset(h)
    assert layout.from_offset(col, row) == h


@pytest.mark.parametrize("layout", ALL_LAYOUTS, ids=layout_id)
def test_shifted_columns_or_rows_sit_half_a_hex_down_or_right(layout: HexLayout) -> None:
    """Checks the meaning of ``shifted`` and ``first_*`` on real pixel positions, not on the formula."""
    half = math.sqrt(3) / 2
    for col in range(layout.first_col, layout.first_col + 6):
        for row in range(layout.first_row, layout.first_row + 6):
            x, y = layout.centre(layout.from_offset(col, row))
            if layout.orientation == "flat":
                x2, y2 = layout.centre(layout.from_offset(col + 1, row))
                shifted = (col % 2 == 1) == (layout.shifted == "odd")
                assert x2 - x == pytest.approx(1.5)
                assert y - y2 == pytest.approx(half if shifted else -half)  # y grows downward
                below = layout.centre(layout.from_offset(col, row + 1))
                assert below == pytest.approx((x, y + math.sqrt(3)))
            else:
                x2, y2 = layout.centre(layout.from_offset(col, row + 1))
                shifted = (row % 2 == 1) == (layout.shifted == "odd")
                assert y2 - y == pytest.approx(1.5)
                assert x - x2 == pytest.approx(half if shifted else -half)
                right = layout.centre(layout.from_offset(col + 1, row))
                assert right == pytest.approx((x + math.sqrt(3), y))


@pytest.mark.parametrize(
    ("layout", "centre", "expected"),
    [
        # flat, even columns sit lower: 0202 is a low column, 0303 a high one (N, NE, SE, S, SW, NW)
        (HexLayout("flat", shifted="even"), "0202", ["0201", "0302", "0303", "0203", "0103", "0102"]),
        (HexLayout("flat", shifted="even"), "0303", ["0302", "0402", "0403", "0304", "0203", "0202"]),
        (HexLayout("flat", shifted="odd"), "0303", ["0302", "0403", "0404", "0304", "0204", "0203"]),
        # pointy, even rows sit further right (NE, E, SE, SW, W, NW)
        (HexLayout("pointy", shifted="even"), "0202", ["0301", "0302", "0303", "0203", "0102", "0201"]),
        (HexLayout("pointy", shifted="odd"), "0303", ["0402", "0403", "0404", "0304", "0203", "0302"]),
        # Iron and Fire style numbering: columns from 11, odd columns lower
        (HexLayout("flat", first_col=11, shifted="odd"), "1102", ["1101", "1202", "1203", "1103", "1003", "1002"]),
    ],
)
def test_neighbour_labels_worked_by_hand(layout: HexLayout, centre: str, expected: list[str]) -> None:
    h = HexLayout.from_offset(layout, int(centre[:2]), int(centre[2:]))
    assert [layout.label(n) for n in layout.neighbours(h)] == expected


def test_first_column_and_row_map_to_the_origin() -> None:
    for layout in ALL_LAYOUTS:
        assert layout.from_offset(layout.first_col, layout.first_row) == Hex(0, 0)
        assert layout.label(Hex(0, 0)) == f"{layout.first_col:02d}{layout.first_row:02d}"


# --- directions, facings -------------------------------------------------------------------
@FAST
@given(layout=layouts, h=hexes)
def test_neighbours_are_six_distinct_hexes_at_distance_one(layout: HexLayout, h: Hex) -> None:
    around = layout.neighbours(h)
    assert len(set(around)) == 6
    for d, n in enumerate(around):
        assert distance(h, n) == 1
        assert layout.direction_to(h, n) == d
        assert layout.neighbour(n, turn(d, 3)) == h  # the opposite direction leads back
    assert layout.direction_to(h, h) is None
    assert layout.direction_to(h, layout.neighbour(layout.neighbour(h, 0), 0)) is None


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_bearing_matches_the_drawn_neighbour(orientation: str) -> None:
    layout = HexLayout(orientation)  # type: ignore[arg-type]
    h = Hex(2, -1)
    cx, cy = layout.centre(h)
    for d in range(6):
        nx, ny = layout.centre(layout.neighbour(h, d))
        drawn = math.degrees(math.atan2(nx - cx, -(ny - cy))) % 360
        assert drawn == pytest.approx(layout.bearing(d))
    start = 0.0 if orientation == "flat" else 30.0
    assert [layout.bearing(d) for d in range(6)] == [start + 60 * d for d in range(6)]


def test_direction_numbers_wrap() -> None:
    layout = HexLayout()
    h = Hex(0, 0)
    assert layout.neighbour(h, 6) == layout.neighbour(h, 0)
    assert layout.neighbour(h, -1) == layout.neighbour(h, 5)


@FAST
@given(facing=st.integers(0, 5), steps=st.integers(-20, 20))
def test_turning(facing: int, steps: int) -> None:
    turned = turn(facing, steps)
    assert 0 <= turned < 6
    assert turn(turned, -steps) == facing
    assert turn(facing, steps + 6) == turned


def test_six_facings_and_turning_examples() -> None:
    assert [turn(0, k) for k in range(7)] == [0, 1, 2, 3, 4, 5, 0]
    assert turn(0, -1) == 5
    assert turn(5, 1) == 0


@FAST
@given(a=st.integers(0, 5), b=st.integers(0, 5))
def test_facing_delta_is_the_smallest_turn(a: int, b: int) -> None:
    d = facing_delta(a, b)
    assert -2 <= d <= 3
    assert turn(a, d) == b
    smallest = min(abs(k) for k in range(-5, 6) if turn(a, k) == b)
    assert abs(d) == smallest


def test_facing_delta_examples() -> None:
    assert facing_delta(0, 1) == 1
    assert facing_delta(1, 0) == -1
    assert facing_delta(0, 5) == -1
    assert facing_delta(5, 0) == 1
    assert facing_delta(0, 3) == 3 and facing_delta(4, 1) == 3
    assert facing_delta(2, 2) == 0


# --- distance ------------------------------------------------------------------------------
@FAST
@given(a=hexes, b=hexes, c=hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


def test_distance_equals_fewest_steps() -> None:
    layout = HexLayout()
    origin = Hex(0, 0)
    steps = {origin: 0}
    frontier = [origin]
    for k in range(1, 6):
        frontier = [n for h in frontier for n in layout.neighbours(h) if n not in steps]
        for n in frontier:
            steps.setdefault(n, k)
        frontier = list(dict.fromkeys(frontier))
    for h, k in steps.items():
        assert distance(origin, h) == k
    assert sum(1 for k in steps.values() if k == 5) == 30  # ring of radius 5


# --- lines, against an exact geometric oracle ---------------------------------------------------
def _touch_interval(a: Hex, b: Hex, h: Hex) -> tuple[Fraction, Fraction] | None:
    """The part t in [0, 1] of the segment a->b inside hex h (closed), exactly.

    In cube coordinates the hex around centre h is |dq - dr| <= 1, |dr - ds| <= 1, |ds - dq| <= 1
    with d = p - h: the Voronoi cell of h in the triangular lattice of centres.
    """
    lo, hi = Fraction(0), Fraction(1)
    da = (a.q - h.q, a.r - h.r, a.s - h.s)
    step = (b.q - a.q, b.r - a.r, b.s - a.s)
    for i, j in ((0, 1), (1, 2), (2, 0)):
        c0 = Fraction(da[i] - da[j])
        c1 = Fraction(step[i] - step[j])
        if c1 == 0:
            if abs(c0) > 1:
                return None
            continue
        t1, t2 = (-1 - c0) / c1, (1 - c0) / c1
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    return (lo, hi) if lo <= hi else None


def crossed(a: Hex, b: Hex) -> dict[Hex, Fraction]:
    """Hexes the segment runs through for a positive length, with the t where it enters them."""
    n = distance(a, b)
    out = {}
    for dq in range(-n - 1, n + 2):
        for dr in range(-n - 1, n + 2):
            h = Hex(a.q + dq, a.r + dr)
            span = _touch_interval(a, b, h)
            if span is not None and span[0] < span[1]:
                out[h] = span[0]
    return out


@pytest.mark.slow
@FAST
@given(a=small_hexes, b=small_hexes, t=st.fractions(0, 1, max_denominator=97))
def test_oracle_agrees_with_the_nearest_drawn_centre(a: Hex, b: Hex, t: Fraction) -> None:
    """Validates the test's own oracle on pixels: the point at t lies in the hex of the nearest centre."""
    layout = HexLayout()
    ax, ay = layout.centre(a)
    bx, by = layout.centre(b)
    px, py = ax + float(t) * (bx - ax), ay + float(t) * (by - ay)
    n = distance(a, b)
    candidates = [Hex(a.q + dq, a.r + dr) for dq in range(-n - 1, n + 2) for dr in range(-n - 1, n + 2)]
    nearest = min(candidates, key=lambda h: math.dist(layout.centre(h), (px, py)))
    span = _touch_interval(a, b, nearest)
    assert span is not None and span[0] <= t <= span[1]


@pytest.mark.slow
@FAST
@given(a=small_hexes, b=small_hexes)
def test_line_returns_exactly_the_hexes_it_runs_through_in_order(a: Hex, b: Hex) -> None:
    got = line(a, b)
    assert len(got) == len(set(got))
    oracle = crossed(a, b)
    assert set(got) == set(oracle)
    entries = [oracle[h] for h in got]
    assert entries == sorted(entries)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (Hex(0, 0), Hex(4, 0)),
        (Hex(0, 0), Hex(4, -2)),
        (Hex(0, 0), Hex(3, 1)),
        (Hex(0, 0), Hex(1, 4)),
        (Hex(2, 0), Hex(-1, 5)),
    ],
)
def test_line_returns_every_hex_it_runs_through_examples(a: Hex, b: Hex) -> None:
    assert set(line(a, b)) == set(crossed(a, b))


def test_line_includes_hexes_whose_corner_the_segment_clips() -> None:
    # Worked example: the segment (0,0)->(1,6) runs through (1,2) for t in [3/8, 2/5] and through
    # (0,4) for t in [3/5, 5/8] (at t = 0.39 the nearest hex centre is (1,2)); line() omits both.
    a, b = Hex(0, 0), Hex(1, 6)
    assert crossed(a, b)[Hex(1, 2)] == Fraction(3, 8)
    got = line(a, b)
    assert Hex(1, 2) in got and Hex(0, 4) in got


@pytest.mark.parametrize(("a", "b"), [(Hex(0, 0), Hex(3, 1)), (Hex(0, 0), Hex(2, 2)), (Hex(2, 0), Hex(-1, 5))])
def test_line_order_follows_the_segment(a: Hex, b: Hex) -> None:
    oracle = crossed(a, b)
    entries = [oracle[h] for h in line(a, b)]
    assert entries == sorted(entries)


def test_line_order_when_crossing_a_hexside_midpoint() -> None:
    # (0,0)->(-1,4) crosses the side between (-1,2) and (0,2) at its midpoint (t = 1/2): the segment
    # is in (-1,2) for t in [2/5, 1/2] and in (0,2) for t in [1/2, 3/5].
    a, b = Hex(0, 0), Hex(-1, 4)
    assert line(a, b) == [Hex(0, 0), Hex(0, 1), Hex(-1, 2), Hex(0, 2), Hex(-1, 3), Hex(-1, 4)]


@pytest.mark.slow
@FAST
@given(a=hexes, b=hexes)
def test_line_endpoints_contiguity_and_length(a: Hex, b: Hex) -> None:
    got = line(a, b)
    assert got[0] == a and got[-1] == b
    for x, y in itertools.pairwise(got):
        assert distance(x, y) == 1  # each next hex shares a side with the one before
    assert len(got) >= distance(a, b) + 1
    assert set(got) == set(line(b, a))


@pytest.mark.parametrize("direction", range(6))
@pytest.mark.parametrize("length", [1, 2, 5])
def test_line_along_a_hex_row(direction: int, length: int) -> None:
    layout = HexLayout()
    start = Hex(3, -2)
    expected = [start]
    for _ in range(length):
        expected.append(layout.neighbour(expected[-1], direction))
    assert line(start, expected[-1]) == expected


@pytest.mark.parametrize("diagonal", [(2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2)])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_line_exactly_along_hexsides_returns_both_hexes(diagonal: tuple[int, int], k: int) -> None:
    a = Hex(1, 1)
    b = Hex(a.q + k * diagonal[0], a.r + k * diagonal[1])
    got = line(a, b)
    assert len(got) == 3 * k + 1  # k+1 centres passed plus a pair either side of each of k hexsides
    assert got[0] == a and got[-1] == b
    for x, y in itertools.pairwise(got):
        assert distance(x, y) == 1


def test_line_along_a_hexside_example() -> None:
    got = line(Hex(0, 0), Hex(2, -1))
    assert got[0] == Hex(0, 0) and got[-1] == Hex(2, -1)
    assert set(got[1:3]) == {Hex(1, 0), Hex(1, -1)}


def test_line_to_itself() -> None:
    assert line(Hex(4, 4), Hex(4, 4)) == [Hex(4, 4)]


def test_line_grazing_a_corner_leaves_out_the_hex_touched_at_one_point() -> None:
    # The segment (0,0)->(1,4) passes exactly through the corner shared by (0,1), (1,1) and (0,2);
    # (1,1) is touched at that single point only and is not part of the line.
    a, b = Hex(0, 0), Hex(1, 4)
    span = _touch_interval(a, b, Hex(1, 1))
    assert span is not None and span[0] == span[1] == Fraction(1, 3)
    assert Hex(1, 1) not in line(a, b)
    assert line(a, b) == [Hex(0, 0), Hex(0, 1), Hex(0, 2), Hex(1, 2), Hex(1, 3), Hex(1, 4)]


# --- labels --------------------------------------------------------------------------------
@pytest.mark.slow
@FAST
@given(
    layout=layouts.filter(lambda lay: lay.first_col + lay.cols <= 100 and lay.first_row + lay.rows <= 100),
    data=st.data(),
)
def test_labels_are_ccrr_and_parse_back(layout: HexLayout, data: st.DataObject) -> None:
    col = data.draw(st.integers(layout.first_col, layout.first_col + layout.cols - 1))
    row = data.draw(st.integers(layout.first_row, layout.first_row + layout.rows - 1))
    h = layout.from_offset(col, row)
    assert layout.on_map(h)
    assert layout.label(h) == f"{col:02d}{row:02d}"
    assert layout.parse(layout.label(h)) == h
    assert layout.parse(f" {col:02d}{row:02d} ") == h


def test_all_hexes_are_the_whole_map_once() -> None:
    layout = HexLayout(first_col=11, cols=19, rows=13, shifted="odd")
    every = layout.all_hexes()
    assert len(every) == 19 * 13 == len(set(every))
    labels = {layout.label(h) for h in every}
    assert labels == {f"{c:02d}{r:02d}" for c in range(11, 30) for r in range(1, 14)}
    assert all(layout.on_map(h) for h in every)
    outside = {n for h in every for n in layout.neighbours(h)} - set(every)
    assert outside and not any(layout.on_map(h) for h in outside)


def test_three_digit_labels_read_as_leading_zero() -> None:
    layout = HexLayout()
    assert layout.parse("105") == layout.parse("0105") == layout.from_offset(1, 5)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "not a hex number"),
        ("12", "not a hex number"),
        ("12345", "not a hex number"),
        ("12a5", "not a hex number"),
        ("-105", "not a hex number"),
        ("hq", "not a hex number"),
        ("2001", "not on this map"),
        ("0101", "not on this map"),  # no column 00... first column is 01
        ("0001", "not on this map"),
        ("0114", "not on this map"),
        ("0100", "not on this map"),
    ],
)
def test_parse_errors_quote_the_input(text: str, fragment: str) -> None:
    layout = HexLayout(first_col=1, first_row=1, cols=19, rows=13)
    if text == "0101":
        layout = HexLayout(first_col=2, first_row=1, cols=19, rows=13)
    with pytest.raises(InvalidSyntax) as info:
        layout.parse(text)
    assert fragment in str(info.value)
    assert f"`{text.strip()}`" in str(info.value)


def test_parse_superscript_digits_is_invalid_syntax() -> None:
    with pytest.raises(InvalidSyntax):
        HexLayout().parse("¹²⁰⁵")


@FAST
@given(text=st.text(max_size=8))
def test_parse_never_raises_anything_but_invalid_syntax_for_ascii(text: str) -> None:
    ascii_text = text.encode("ascii", "ignore").decode()
    with contextlib.suppress(InvalidSyntax):
        HexLayout().parse(ascii_text)


# --- drawing geometry ------------------------------------------------------------------------
@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_corners_lie_on_the_circumcircle_and_are_shared_with_neighbours(orientation: str) -> None:
    layout = HexLayout(orientation)  # type: ignore[arg-type]
    h = Hex(1, 2)
    cx, cy = layout.centre(h, 10.0)
    corners = layout.corners(h, 10.0)
    assert len(corners) == 6
    for x, y in corners:
        assert math.hypot(x - cx, y - cy) == pytest.approx(10.0)
    for n in layout.neighbours(h):
        shared = [c for c in layout.corners(n, 10.0) if any(math.dist(c, k) < 1e-9 for k in corners)]
        assert len(shared) == 2
