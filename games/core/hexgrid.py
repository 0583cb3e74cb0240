"""Hex grid: axial coordinates inside, printed CCRR labels only at the edges (Red Blob Games).

Directions are numbered 0-5 clockwise. Flat-topped: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW.
Pointy-topped: 0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW. A facing is a direction number; its compass
bearing in degrees (clockwise from the top of the map) is ``bearing(facing)``.
A map decides which printed columns (flat) or rows (pointy) are shifted half a hex and where
numbering starts; the printed hexside compass (e.g. Iron and Fire's 1-6) is a relabelling of
these directions kept in the map data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from games.core.errors import InvalidSyntax, quote

Orientation = Literal["flat", "pointy"]

_AXIAL_DIRS: dict[Orientation, tuple[tuple[int, int], ...]] = {
    # flat: N, NE, SE, S, SW, NW
    "flat": ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)),
    # pointy: NE, E, SE, SW, W, NW
    "pointy": ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)),
}


@dataclass(frozen=True, order=True)
class Hex:
    """Axial hex coordinate."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)


def distance(a: Hex, b: Hex) -> int:
    d = a - b
    return (abs(d.q) + abs(d.r) + abs(d.s)) // 2


def turn(facing: int, steps: int) -> int:
    """Turn a facing by ``steps`` hexsides (positive clockwise)."""
    return (facing + steps) % 6


def facing_delta(a: int, b: int) -> int:
    """Smallest signed number of hexside turns from facing a to facing b (-3..3, +3 for opposite)."""
    d = (b - a) % 6
    return d - 6 if d > 3 else d


@dataclass(frozen=True)
class HexLayout:
    """How a particular map prints and draws its hexes.

    ``shifted`` is the parity ("odd" or "even") of the printed column (flat) or row (pointy)
    number that sits half a hex lower (flat) or further right (pointy).
    """

    orientation: Orientation = "flat"
    first_col: int = 1
    first_row: int = 1
    cols: int = 19
    rows: int = 13
    shifted: Literal["odd", "even"] = "even"

    # --- directions and geometry -------------------------------------------------------------
    def neighbour(self, h: Hex, direction: int) -> Hex:
        dq, dr = _AXIAL_DIRS[self.orientation][direction % 6]
        return Hex(h.q + dq, h.r + dr)

    def neighbours(self, h: Hex) -> list[Hex]:
        return [self.neighbour(h, d) for d in range(6)]

    def direction_to(self, a: Hex, b: Hex) -> int | None:
        """The direction from a to an adjacent hex b, or None if not adjacent."""
        for d in range(6):
            if self.neighbour(a, d) == b:
                return d
        return None

    def bearing(self, facing: int) -> float:
        """Compass bearing in degrees of a direction (0 = top of the map, clockwise)."""
        return (60.0 * facing + (0.0 if self.orientation == "flat" else 30.0)) % 360.0

    def centre(self, h: Hex, size: float = 1.0) -> tuple[float, float]:
        """Pixel centre of a hex with the given circumradius; y grows downward."""
        if self.orientation == "flat":
            x = size * 1.5 * h.q
            y = size * math.sqrt(3) * (h.r + h.q / 2)
        else:
            x = size * math.sqrt(3) * (h.q + h.r / 2)
            y = size * 1.5 * h.r
        return (x, y)

    def corners(self, h: Hex, size: float = 1.0) -> list[tuple[float, float]]:
        cx, cy = self.centre(h, size)
        start = 0.0 if self.orientation == "flat" else 30.0
        return [
            (cx + size * math.cos(math.radians(start + 60 * i)), cy + size * math.sin(math.radians(start + 60 * i)))
            for i in range(6)
        ]

    # --- offset labels -----------------------------------------------------------------------
    def _first_shifted(self) -> bool:
        """Whether the first printed column (flat) or row (pointy) is a shifted one."""
        first = self.first_col if self.orientation == "flat" else self.first_row
        return (first % 2 == 1) == (self.shifted == "odd")

    def from_offset(self, col: int, row: int) -> Hex:
        """Printed column and row numbers to axial."""
        x, y = col - self.first_col, row - self.first_row
        if self.orientation == "flat":
            return Hex(x, y - _zigzag(x, self._first_shifted()))
        return Hex(x - _zigzag(y, self._first_shifted()), y)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        if self.orientation == "flat":
            return (h.q + self.first_col, h.r + _zigzag(h.q, self._first_shifted()) + self.first_row)
        return (h.q + _zigzag(h.r, self._first_shifted()) + self.first_col, h.r + self.first_row)

    def label(self, h: Hex) -> str:
        col, row = self.to_offset(h)
        return f"{col:02d}{row:02d}"

    def parse(self, text: str) -> Hex:
        """A printed CCRR label (e.g. ``1205``) to axial; must lie on the map."""
        t = text.strip()
        if not (t.isascii() and t.isdigit() and len(t) in (3, 4)):
            raise InvalidSyntax(f"{quote(text)} is not a hex number.", hint="Write it as CCRR, e.g. 1205.")
        t = t.zfill(4)
        h = self.from_offset(int(t[:2]), int(t[2:]))
        if not self.on_map(h):
            raise InvalidSyntax(f"Hex {quote(text)} is not on this map.")
        return h

    def on_map(self, h: Hex) -> bool:
        col, row = self.to_offset(h)
        return (
            self.first_col <= col < self.first_col + self.cols
            and self.first_row <= row < self.first_row + self.rows
        )

    def all_hexes(self) -> list[Hex]:
        return [
            self.from_offset(c, r)
            for c in range(self.first_col, self.first_col + self.cols)
            for r in range(self.first_row, self.first_row + self.rows)
        ]


def _zigzag(x: int, even_shifted: bool) -> int:
    """Half-steps between offset and axial rows for column x (Red Blob even-q / odd-q)."""
    return (x + (x & 1)) // 2 if even_shifted else (x - (x & 1)) // 2


def _span_inside(a: Hex, b: Hex, h: Hex) -> tuple[Fraction, Fraction] | None:
    """The part ``t`` in [0, 1] of segment a->b that lies in the closed hex around h, exactly.

    In cube coordinates the hex around h is ``|dq - dr| <= 1``, ``|dr - ds| <= 1``, ``|ds - dq| <= 1``
    with ``d = p - h`` (the hex is the Voronoi cell of its centre in the lattice of centres).
    """
    lo, hi = Fraction(0), Fraction(1)
    da = (a.q - h.q, a.r - h.r, a.s - h.s)
    step = (b.q - a.q, b.r - a.r, b.s - a.s)
    for i, j in ((0, 1), (1, 2), (2, 0)):
        c0, c1 = da[i] - da[j], step[i] - step[j]
        if c1 == 0:
            if abs(c0) > 1:
                return None
            continue
        t1, t2 = Fraction(-1 - c0, c1), Fraction(1 - c0, c1)
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
        if lo > hi:
            return None
    return (lo, hi)


def line(a: Hex, b: Hex) -> list[Hex]:
    """Every hex a centre-to-centre line from a to b passes through, in order from a.

    Exact (rational arithmetic, no sampling): a hex counts when the segment runs through it for a
    positive length, so a line running exactly along a hexside returns the hexes on both sides,
    and a line clipping the corner of a hex returns that hex. Hexes touched at a single point
    (the line passing exactly through a vertex) are not included.
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    candidates: set[Hex] = set()
    for i in range(n + 1):
        fq = a.q + (b.q - a.q) * i / n
        fr = a.r + (b.r - a.r) * i / n
        centre = _cube_round(fq, fr)
        candidates.add(centre)
        candidates.update(centre + Hex(dq, dr) for dq, dr in _AXIAL_DIRS["flat"])
    spans: list[tuple[Fraction, Fraction, Hex]] = []
    for h in candidates:
        span = _span_inside(a, b, h)
        if span is not None and span[0] < span[1]:
            spans.append((span[0], span[1], h))
    spans.sort()
    return [h for _, _, h in spans]


def _cube_round(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))
