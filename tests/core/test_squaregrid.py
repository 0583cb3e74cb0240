"""Square grid: labels, headings, steps, distances and the supercover line against exact geometry."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.errors import InvalidSyntax
from games.core.squaregrid import (
    HEADING_NAMES,
    Square,
    SquareBoard,
    bearing_of,
    diagonal_distance,
    is_diagonal,
    line,
    orthogonal_distance,
    parse_heading,
    step,
    turn,
)

FAST = settings(max_examples=80, deadline=None)
squares = st.builds(Square, st.integers(-12, 12), st.integers(-12, 12))


# --- labels --------------------------------------------------------------------------------
def test_labels_chess_style() -> None:
    board = SquareBoard()
    assert board.label(Square(0, 0)) == "a1"
    assert board.label(Square(7, 7)) == "h8"
    assert board.label(Square(2, 3)) == "c4"


@FAST
@given(width=st.integers(1, 26), height=st.integers(1, 30), data=st.data())
def test_labels_parse_back(width: int, height: int, data: st.DataObject) -> None:
    board = SquareBoard(width, height)
    sq = Square(data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1)))
    assert board.parse(board.label(sq)) == sq
    assert board.parse(" " + board.label(sq).upper() + " ") == sq


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "is not a square"),
        ("c", "is not a square"),
        ("4c", "is not a square"),
        ("cc", "is not a square"),
        ("c-1", "is not a square"),
        ("c4x", "is not a square"),
        ("i1", "off the board"),
        ("a9", "off the board"),
        ("a0", "off the board"),
        ("h10", "off the board"),
    ],
)
def test_parse_errors_quote_the_input(text: str, fragment: str) -> None:
    with pytest.raises(InvalidSyntax) as info:
        SquareBoard().parse(text)
    assert fragment in str(info.value)
    assert f"`{text}`" in str(info.value)


def test_off_board_hint_names_the_last_square() -> None:
    with pytest.raises(InvalidSyntax, match="a1 to j6"):
        SquareBoard(10, 6).parse("k1")


def test_parse_superscript_digit_is_invalid_syntax() -> None:
    with pytest.raises(InvalidSyntax):
        SquareBoard().parse("a²")


# --- headings ------------------------------------------------------------------------------
def test_heading_names_and_parsing() -> None:
    assert [parse_heading(name) for name in HEADING_NAMES] == list(range(8))
    assert parse_heading(" ne ") == 1
    with pytest.raises(InvalidSyntax) as info:
        parse_heading("north")
    assert "`north`" in str(info.value) and "N, NE, E" in str(info.value)


def test_steps_follow_the_compass() -> None:
    origin = Square(4, 4)
    moved = [step(origin, h) for h in range(8)]
    assert moved == [
        Square(4, 5),
        Square(5, 5),
        Square(5, 4),
        Square(5, 3),
        Square(4, 3),
        Square(3, 3),
        Square(3, 4),
        Square(3, 5),
    ]
    assert step(origin, 2, 3) == Square(7, 4)
    assert step(origin, 8) == step(origin, 0)


@FAST
@given(sq=squares, heading=st.integers(0, 7), n=st.integers(0, 10))
def test_step_geometry(sq: Square, heading: int, n: int) -> None:
    there = step(sq, heading, n)
    assert step(there, turn(heading, 4), n) == sq
    assert diagonal_distance(sq, there) == n
    assert orthogonal_distance(sq, there) == (2 * n if is_diagonal(heading) else n)
    if n:
        assert bearing_of(sq, there) == pytest.approx(45.0 * heading)


@FAST
@given(heading=st.integers(0, 7), steps=st.integers(-20, 20))
def test_turning(heading: int, steps: int) -> None:
    turned = turn(heading, steps)
    assert 0 <= turned < 8 and turn(turned, -steps) == heading
    assert is_diagonal(heading) == (HEADING_NAMES[heading] in ("NE", "SE", "SW", "NW"))


# --- distances -----------------------------------------------------------------------------
@FAST
@given(a=squares, b=squares, c=squares)
def test_distances_are_metrics(a: Square, b: Square, c: Square) -> None:
    for dist in (orthogonal_distance, diagonal_distance):
        assert dist(a, b) == dist(b, a) >= 0
        assert (dist(a, b) == 0) == (a == b)
        assert dist(a, c) <= dist(a, b) + dist(b, c)
    assert diagonal_distance(a, b) <= orthogonal_distance(a, b) <= 2 * diagonal_distance(a, b)


def test_distance_examples() -> None:
    assert orthogonal_distance(Square(0, 0), Square(3, 4)) == 7
    assert diagonal_distance(Square(0, 0), Square(3, 4)) == 4
    assert bearing_of(Square(0, 0), Square(1, 1)) == pytest.approx(45.0)
    assert bearing_of(Square(0, 0), Square(-1, 0)) == pytest.approx(270.0)


# --- supercover line -------------------------------------------------------------------------
def touched(a: Square, b: Square) -> set[Square]:
    """Every square whose closed cell the segment between centres meets (exact Liang-Barsky)."""
    out = set()
    for x in range(min(a.x, b.x) - 1, max(a.x, b.x) + 2):
        for y in range(min(a.y, b.y) - 1, max(a.y, b.y) + 2):
            lo, hi = Fraction(0), Fraction(1)
            inside = True
            for start, delta, centre in ((a.x, b.x - a.x, x), (a.y, b.y - a.y, y)):
                low, high = Fraction(2 * centre - 1, 2), Fraction(2 * centre + 1, 2)
                if delta == 0:
                    inside = inside and low <= start <= high
                    continue
                t1, t2 = (low - start) / delta, (high - start) / delta
                lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
            if inside and lo <= hi:
                out.add(Square(x, y))
    return out


@pytest.mark.slow
@FAST
@given(a=squares, b=squares)
def test_line_is_the_supercover(a: Square, b: Square) -> None:
    got = line(a, b)
    assert got[0] == a and got[-1] == b
    assert len(got) == len(set(got))
    assert set(got) == touched(a, b)
    for p, q in itertools.pairwise(got):
        assert orthogonal_distance(p, q) == 1 or diagonal_distance(p, q) == 1  # sides, or the pair beside a corner
    assert set(line(b, a)) == set(got)


@FAST
@given(a=squares, b=squares)
def test_line_length(a: Square, b: Square) -> None:
    dx, dy = abs(b.x - a.x), abs(b.y - a.y)
    # the segment passes exactly through a corner once for each common step of the reduced slope
    corners = math.gcd(dx, dy) if dx and dy and (dx // math.gcd(dx, dy)) % 2 and (dy // math.gcd(dx, dy)) % 2 else 0
    assert len(line(a, b)) == 1 + dx + dy + corners


def test_exact_diagonal_includes_both_squares_beside_each_corner() -> None:
    board = SquareBoard()
    got = [board.label(s) for s in line(board.parse("a1"), board.parse("c3"))]
    assert got[0] == "a1" and got[-1] == "c3"
    assert set(got) == {"a1", "b1", "a2", "b2", "c2", "b3", "c3"}
    assert got.index("b2") > max(got.index("b1"), got.index("a2"))
    assert got.index("c2") > got.index("b2") and got.index("b3") > got.index("b2")


def test_corner_crossing_on_a_knight_like_slope() -> None:
    # a1 -> d2: halfway along, the segment passes exactly through the corner shared by b1, c1, b2 and c2.
    got = line(Square(0, 0), Square(3, 1))
    assert set(got) == {Square(0, 0), Square(1, 0), Square(2, 0), Square(1, 1), Square(2, 1), Square(3, 1)}


def test_straight_lines() -> None:
    assert line(Square(1, 1), Square(4, 1)) == [Square(x, 1) for x in range(1, 5)]
    assert line(Square(2, 5), Square(2, 2)) == [Square(2, y) for y in range(5, 1, -1)]
    assert line(Square(3, 3), Square(3, 3)) == [Square(3, 3)]
