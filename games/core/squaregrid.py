"""Square grid: files a-h left to right, ranks 1-8 from the bottom (chess style).

Headings are 0-7 clockwise in 45-degree steps: 0 N (towards higher ranks), 1 NE, 2 E, 3 SE,
4 S, 5 SW, 6 W, 7 NW. A heading's compass bearing is ``45 * heading``.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from games.core.errors import InvalidSyntax, quote

HEADING_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


@dataclass(frozen=True, order=True)
class Square:
    """Zero-based file (x, left to right) and rank (y, bottom to top)."""

    x: int
    y: int


def step(sq: Square, heading: int, n: int = 1) -> Square:
    dx, dy = _STEPS[heading % 8]
    return Square(sq.x + dx * n, sq.y + dy * n)


def is_diagonal(heading: int) -> bool:
    return heading % 2 == 1


def turn(heading: int, steps: int) -> int:
    """Turn by 45-degree steps (positive clockwise)."""
    return (heading + steps) % 8


def orthogonal_distance(a: Square, b: Square) -> int:
    """Squares counted orthogonally (Manhattan)."""
    return abs(a.x - b.x) + abs(a.y - b.y)


def diagonal_distance(a: Square, b: Square) -> int:
    """King moves (Chebyshev)."""
    return max(abs(a.x - b.x), abs(a.y - b.y))


def bearing_of(a: Square, b: Square) -> float:
    """Compass bearing in degrees from a to b (0 = N = up the board)."""
    import math

    return math.degrees(math.atan2(b.x - a.x, b.y - a.y)) % 360.0


def line(a: Square, b: Square) -> list[Square]:
    """The squares a centre-to-centre line passes through (supercover), in order from a.

    Where the line passes exactly through a corner, both squares beside the corner are included.
    """
    dx, dy = b.x - a.x, b.y - a.y
    nx, ny = abs(dx), abs(dy)
    sx, sy = (1 if dx > 0 else -1), (1 if dy > 0 else -1)
    x, y = a.x, a.y
    out = [Square(x, y)]
    ix = iy = 0
    while ix < nx or iy < ny:
        # compare (0.5 + ix) / nx with (0.5 + iy) / ny without division
        decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
        if decision == 0:
            out.append(Square(x + sx, y))
            out.append(Square(x, y + sy))
            x += sx
            y += sy
            ix += 1
            iy += 1
        elif decision < 0:
            x += sx
            ix += 1
        else:
            y += sy
            iy += 1
        out.append(Square(x, y))
    return out


@dataclass(frozen=True)
class SquareBoard:
    """A board of ``width`` files by ``height`` ranks."""

    width: int = 8
    height: int = 8

    def on_board(self, sq: Square) -> bool:
        return 0 <= sq.x < self.width and 0 <= sq.y < self.height

    def label(self, sq: Square) -> str:
        return f"{string.ascii_lowercase[sq.x]}{sq.y + 1}"

    def parse(self, text: str) -> Square:
        t = text.strip().lower()
        if len(t) < 2 or t[0] not in string.ascii_lowercase or not (t[1:].isascii() and t[1:].isdigit()):
            raise InvalidSyntax(f"{quote(text)} is not a square.", hint="Write it like c4.")
        sq = Square(string.ascii_lowercase.index(t[0]), int(t[1:]) - 1)
        if not self.on_board(sq):
            last = f"{string.ascii_lowercase[self.width - 1]}{self.height}"
            raise InvalidSyntax(f"Square {quote(text)} is off the board.", hint=f"Squares run a1 to {last}.")
        return sq


def parse_heading(text: str) -> int:
    t = text.strip().upper()
    if t in HEADING_NAMES:
        return HEADING_NAMES.index(t)
    raise InvalidSyntax(f"{quote(text)} is not a heading.", hint=f"Use one of {', '.join(HEADING_NAMES)}.")
