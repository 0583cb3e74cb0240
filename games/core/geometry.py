"""Continuous-table geometry in inches: points, rectangular bases, convex polygons, exact sweeps.

Coordinates follow ``games.core.view``: ``(x, y)`` from the table's top-left corner, y growing
downward; headings are compass bearings in degrees, clockwise, 0 = up the table.

Everything a rule system measures on a table lives here so that every system measures the same
way: distances between bases, whether a line is blocked, and where a moving or pivoting base first
touches an obstacle. Sweeps are exact (Minkowski difference for a slide, vertex arcs against edges
for a pivot), so a long move can never tunnel through a thin base. Obstacles must be convex; a
non-convex island is several convex pieces.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Point = tuple[float, float]
Polygon = tuple[Point, ...]

EPS = 1e-9
TOUCH = 1e-7  # inches: closer than this is touching, deeper than this is overlapping


# --- vectors -------------------------------------------------------------------------------------


def add(a: Point, b: Point) -> Point:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def scale(a: Point, k: float) -> Point:
    return (a[0] * k, a[1] * k)


def dot(a: Point, b: Point) -> float:
    return a[0] * b[0] + a[1] * b[1]


def cross(a: Point, b: Point) -> float:
    return a[0] * b[1] - a[1] * b[0]


def length(a: Point) -> float:
    return math.hypot(a[0], a[1])


def distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def normalise(a: Point) -> Point:
    n = length(a)
    if n < EPS:
        raise ValueError("cannot normalise a zero vector")
    return (a[0] / n, a[1] / n)


def midpoint(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def bearing_vector(bearing: float) -> Point:
    """Unit vector pointing along a compass bearing (0 = up the table, y down)."""
    rad = math.radians(bearing)
    return (math.sin(rad), -math.cos(rad))


def bearing_of(v: Point) -> float:
    """Compass bearing of a vector, in [0, 360)."""
    return math.degrees(math.atan2(v[0], -v[1])) % 360.0


def angle_diff(a: float, b: float) -> float:
    """Signed smallest difference ``b - a`` in degrees, in (-180, 180]."""
    d = (b - a) % 360.0
    return d - 360.0 if d > 180.0 else d


def rotate(p: Point, centre: Point, degrees: float) -> Point:
    """Rotate ``p`` about ``centre`` clockwise on the table by ``degrees`` (like a heading change)."""
    rad = math.radians(degrees)
    c, s = math.cos(rad), math.sin(rad)
    x, y = p[0] - centre[0], p[1] - centre[1]
    return (centre[0] + x * c - y * s, centre[1] + x * s + y * c)


# --- bases ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Base:
    """A ship's rectangular base: centre, heading (bearing of the bow), length and beam."""

    centre: Point
    heading: float
    length: float
    beam: float

    @property
    def forward(self) -> Point:
        return bearing_vector(self.heading)

    @property
    def starboard(self) -> Point:
        return bearing_vector(self.heading + 90.0)

    def corners(self) -> Polygon:
        """Bow-port, bow-starboard, stern-starboard, stern-port."""
        f = scale(self.forward, self.length / 2)
        s = scale(self.starboard, self.beam / 2)
        c = self.centre
        return (
            sub(add(c, f), s),
            add(add(c, f), s),
            add(sub(c, f), s),
            sub(sub(c, f), s),
        )

    def polygon(self) -> Polygon:
        return self.corners()

    def edge(self, name: str) -> tuple[Point, Point]:
        """An edge's two end points (its outward direction is ``normal(name)``)."""
        bp, bs, ss, sp = self.corners()
        edges = {"bow": (bp, bs), "starboard": (bs, ss), "stern": (ss, sp), "port": (sp, bp)}
        return edges[name]

    def edge_midpoint(self, name: str) -> Point:
        a, b = self.edge(name)
        return midpoint(a, b)

    def normal(self, name: str) -> Point:
        """Outward unit normal of an edge."""
        return {
            "bow": self.forward,
            "stern": scale(self.forward, -1),
            "starboard": self.starboard,
            "port": scale(self.starboard, -1),
        }[name]

    def moved(self, forward: float) -> Base:
        return Base(add(self.centre, scale(self.forward, forward)), self.heading, self.length, self.beam)

    def translated(self, d: Point) -> Base:
        return Base(add(self.centre, d), self.heading, self.length, self.beam)

    def pivoted(self, pivot: Point, degrees: float) -> Base:
        return Base(rotate(self.centre, pivot, degrees), (self.heading + degrees) % 360.0, self.length, self.beam)


# --- polygons ------------------------------------------------------------------------------------


def signed_area(poly: Sequence[Point]) -> float:
    total = 0.0
    n = len(poly)
    for i, p in enumerate(poly):
        q = poly[(i + 1) % n]
        total += p[0] * q[1] - p[1] * q[0]  # cross(p, q), inlined
    return total / 2


def oriented(poly: Sequence[Point]) -> Polygon:
    """The polygon with positive signed area (x right, y down: clockwise on screen)."""
    return tuple(poly) if signed_area(poly) >= 0 else tuple(reversed(poly))


def convex_hull(points: Sequence[Point]) -> Polygon:
    """Andrew's monotone chain; returns the hull with positive signed area, no collinear points."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return tuple(pts)

    def half(seq: list[Point]) -> list[Point]:
        out: list[Point] = []
        for p in seq:
            while len(out) >= 2 and cross(sub(out[-1], out[-2]), sub(p, out[-2])) <= EPS:
                out.pop()
            out.append(p)
        return out

    lower = half(pts)
    upper = half(list(reversed(pts)))
    return oriented(lower[:-1] + upper[:-1])


def is_convex(poly: Sequence[Point]) -> bool:
    sign = 0
    n = len(poly)
    for i in range(n):
        c = cross(sub(poly[(i + 1) % n], poly[i]), sub(poly[(i + 2) % n], poly[(i + 1) % n]))
        if abs(c) < EPS:
            continue
        s = 1 if c > 0 else -1
        if sign and s != sign:
            return False
        sign = s
    return n >= 3


def _outward_normals(poly: Polygon) -> list[tuple[Point, Point]]:
    """(edge start, outward normal) for a positively oriented convex polygon."""
    out = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        e = sub(b, a)
        if length(e) < EPS:
            continue
        out.append((a, normalise((e[1], -e[0]))))
    return out


def overlap_depth(a: Sequence[Point], b: Sequence[Point]) -> float:
    """Smallest separating-axis overlap of two convex polygons (<= 0: apart or just touching).
    ``_outward_normals`` and the projections on them (``dot``) are inlined, the same arithmetic in
    the same order (a measured Days of Iron game's replay calls it some 10^5 times)."""
    pa, pb = oriented(a), oriented(b)
    depth = math.inf
    for poly in (pa, pb):
        n = len(poly)
        for i in range(n):
            p, q = poly[i], poly[(i + 1) % n]
            ex, ey = q[0] - p[0], q[1] - p[1]
            if math.hypot(ex, ey) < EPS:
                continue
            x, y = normalise((ey, -ex))
            along_a = [v[0] * x + v[1] * y for v in pa]
            along_b = [v[0] * x + v[1] * y for v in pb]
            depth = min(depth, min(max(along_a), max(along_b)) - max(min(along_a), min(along_b)))
            if depth < 0:  # a separating axis: apart (an axis where they only touch may come first)
                return depth
    return depth


def overlaps(a: Sequence[Point], b: Sequence[Point], tolerance: float = TOUCH) -> bool:
    """True when two convex polygons share interior (touching is not overlapping)."""
    return overlap_depth(a, b) > tolerance


def point_in_polygon(p: Point, poly: Sequence[Point], tolerance: float = 1e-9) -> bool:
    """Convex polygon, boundary included."""
    return all(dot(sub(p, a), n) <= tolerance for a, n in _outward_normals(oriented(poly)))


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    """``distance(p, a + t (b - a))`` at the nearest ``t`` in [0, 1]: the same arithmetic in the same
    order as written with ``sub``, ``dot``, ``scale`` and ``add``, inlined (a measured Days of
    Iron game's replay calls it some 10^5 times)."""
    abx, aby = b[0] - a[0], b[1] - a[1]
    denom = abx * abx + aby * aby
    t = 0.0 if denom < EPS else max(0.0, min(1.0, ((p[0] - a[0]) * abx + (p[1] - a[1]) * aby) / denom))
    return math.hypot(p[0] - (a[0] + abx * t), p[1] - (a[1] + aby * t))


def segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Closed segments ab and cd share a point."""
    d1 = cross(sub(b, a), sub(c, a))
    d2 = cross(sub(b, a), sub(d, a))
    d3 = cross(sub(d, c), sub(a, c))
    d4 = cross(sub(d, c), sub(b, c))
    if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and ((d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)):
        return True
    return (
        point_segment_distance(c, a, b) < 1e-9
        or point_segment_distance(d, a, b) < 1e-9
        or point_segment_distance(a, c, d) < 1e-9
        or point_segment_distance(b, c, d) < 1e-9
    )


def segment_distance(a: Point, b: Point, c: Point, d: Point) -> float:
    if segments_intersect(a, b, c, d):
        return 0.0
    return min(
        point_segment_distance(a, c, d),
        point_segment_distance(b, c, d),
        point_segment_distance(c, a, b),
        point_segment_distance(d, a, b),
    )


def _edges(poly: Sequence[Point]) -> list[tuple[Point, Point]]:
    return [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]


def polygon_distance(a: Sequence[Point], b: Sequence[Point]) -> float:
    """Shortest distance between two convex polygons (0 when they touch or overlap)."""
    if overlap_depth(a, b) >= 0:  # no axis separates them: they touch or overlap
        return 0.0
    # apart: the nearest points of two separated convex polygons include a vertex of one of them
    edges_a, edges_b = _edges(a), _edges(b)
    gap = min(min(point_segment_distance(p, r, s) for p in a for r, s in edges_b),
              min(point_segment_distance(p, r, s) for p in b for r, s in edges_a))
    return 0.0 if gap < EPS else gap  # a corner laid on an edge, off by rounding: touching


def closest_points(a: Sequence[Point], b: Sequence[Point]) -> tuple[Point, Point]:
    """A pair of closest points (one on each polygon's boundary) for drawing a measurement."""
    best: tuple[float, Point, Point] = (math.inf, a[0], b[0])
    for p in a:
        for r, s in _edges(b):
            q = _closest_on_segment(p, r, s)
            best = min(best, (distance(p, q), p, q))
    for p in b:
        for r, s in _edges(a):
            q = _closest_on_segment(p, r, s)
            best = min(best, (distance(p, q), q, p))
    return best[1], best[2]


def _closest_on_segment(p: Point, a: Point, b: Point) -> Point:
    ab = sub(b, a)
    denom = dot(ab, ab)
    t = 0.0 if denom < EPS else max(0.0, min(1.0, dot(sub(p, a), ab) / denom))
    return add(a, scale(ab, t))


def clip_half_plane(poly: Sequence[Point], origin: Point, normal: Point) -> Polygon:
    """Keep the part of a polygon where ``(p - origin) . normal >= 0`` (Sutherland-Hodgman)."""
    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        dp, dq = dot(sub(p, origin), normal), dot(sub(q, origin), normal)
        if dp >= -EPS:
            out.append(p)
        if (dp > EPS and dq < -EPS) or (dp < -EPS and dq > EPS):
            t = dp / (dp - dq)
            out.append(add(p, scale(sub(q, p), t)))
    return tuple(out)


def segment_interval_in_polygon(p: Point, q: Point, poly: Sequence[Point]) -> tuple[float, float] | None:
    """Cyrus-Beck: the parameter range of segment pq inside a convex polygon, or None."""
    d = sub(q, p)
    t_in, t_out = 0.0, 1.0
    for a, n in _outward_normals(oriented(poly)):
        num = dot(sub(p, a), n)  # > 0: p is outside this edge
        den = dot(d, n)
        if abs(den) < EPS:
            if num > -EPS:
                return None
            continue
        t = -num / den
        if den < 0:
            t_in = max(t_in, t)
        else:
            t_out = min(t_out, t)
        if t_in > t_out:
            return None
    return (t_in, t_out)


def segment_crosses_polygon(p: Point, q: Point, poly: Sequence[Point], tolerance: float = TOUCH) -> bool:
    """True when segment pq passes through the polygon's interior (grazing an edge or corner is not)."""
    interval = segment_interval_in_polygon(p, q, poly)
    return interval is not None and (interval[1] - interval[0]) * length(sub(q, p)) > tolerance


def ray_segment(origin: Point, direction: Point, a: Point, b: Point) -> float | None:
    """Distance along a ray (unit direction) to segment ab, or None if it misses."""
    e = sub(b, a)
    den = cross(direction, e)
    if abs(den) < EPS:
        return None
    w = sub(a, origin)
    t = cross(w, e) / den
    u = cross(w, direction) / den
    if t < -EPS or u < -EPS or u > 1 + EPS:
        return None
    return max(t, 0.0)


# --- sweeps --------------------------------------------------------------------------------------


def minkowski_difference(obstacle: Sequence[Point], moving: Sequence[Point]) -> Polygon:
    """``{o - m}``: the moving polygon touches the obstacle after a slide ``v`` iff v lies in it."""
    return convex_hull([sub(o, m) for o in obstacle for m in moving])


SWEEP_MARGIN = 1e-3  # inches: discs this far apart cannot hold polygons that touch (a sweep's quick "no")


def _far_apart(centre: Point, radius: float, polygon: Sequence[Point]) -> bool:
    """True when ``polygon`` lies wholly outside the disc (``centre``, ``radius``) with room to
    spare: a sweep inside that disc cannot meet it, so its exact test need not run."""
    cx = sum(p[0] for p in polygon) / len(polygon)
    cy = sum(p[1] for p in polygon) / len(polygon)
    reach = max(math.hypot(p[0] - cx, p[1] - cy) for p in polygon)
    return math.hypot(cx - centre[0], cy - centre[1]) > radius + reach + SWEEP_MARGIN


def slide_contact(moving: Sequence[Point], delta: Point, obstacle: Sequence[Point]) -> float | None:
    """Fraction in [0, 1] of a straight slide at which ``moving`` first presses into ``obstacle``.

    Exact: the slide meets the obstacle iff the segment from the origin to ``delta`` enters the
    Minkowski difference. Starting in contact and sliding along or away is not a contact. An
    obstacle outside the disc that holds the whole slide is answered at once (``_far_apart``).
    """
    if length(delta) < EPS:
        return None
    cx = sum(p[0] for p in moving) / len(moving)
    cy = sum(p[1] for p in moving) / len(moving)
    reach = max(math.hypot(p[0] - cx, p[1] - cy) for p in moving)
    if _far_apart((cx + delta[0] / 2, cy + delta[1] / 2), reach + length(delta) / 2, obstacle):
        return None
    diff = minkowski_difference(obstacle, moving)
    interval = segment_interval_in_polygon((0.0, 0.0), delta, diff)
    if interval is None:
        return None
    t_in, t_out = interval
    if (t_out - t_in) * length(delta) <= TOUCH:
        return None
    return max(0.0, t_in)


def _circle_segment_angles(centre: Point, start: Point, a: Point, b: Point) -> list[float]:
    """Clockwise angles (degrees, in [0, 360)) at which ``start`` rotating about ``centre`` meets ab."""
    r = distance(start, centre)
    if r < EPS:
        return []
    d = sub(b, a)
    f = sub(a, centre)
    qa = dot(d, d)
    if qa < EPS:
        return []
    qb = 2 * dot(f, d)
    qc = dot(f, f) - r * r
    disc = qb * qb - 4 * qa * qc
    if disc < -EPS:
        return []
    root = math.sqrt(max(disc, 0.0))
    found = []
    start_bearing = bearing_of(sub(start, centre))
    for t in ((-qb - root) / (2 * qa), (-qb + root) / (2 * qa)):
        if -EPS <= t <= 1 + EPS:
            hit = add(a, scale(d, t))
            found.append((bearing_of(sub(hit, centre)) - start_bearing) % 360.0)
    return found


def pivot_contact(moving: Sequence[Point], pivot: Point, degrees: float, obstacle: Sequence[Point]) -> float | None:
    """Unsigned angle (degrees) at which ``moving`` pivoting about ``pivot`` first presses into ``obstacle``.

    ``degrees`` is signed (positive clockwise). Exact: candidate angles are where a vertex of one
    polygon, on its arc, meets an edge of the other; each is checked by looking just beyond it.
    """
    total = abs(degrees)
    if total < EPS:
        return None
    # every point of ``moving`` stays within its farthest vertex's distance of the pivot
    if _far_apart(pivot, max(distance(v, pivot) for v in moving), obstacle):
        return None
    sign = 1.0 if degrees > 0 else -1.0

    def turned(angle: float) -> list[Point]:
        return [rotate(p, pivot, sign * angle) for p in moving]

    candidates = {0.0}
    for v in moving:
        for a, b in _edges(obstacle):
            for ang in _circle_segment_angles(pivot, v, a, b) if sign > 0 else _ccw_angles(pivot, v, a, b):
                candidates.add(ang)
    for v in obstacle:
        # the obstacle's vertex seen from the moving polygon turns the other way
        for a, b in _edges(list(moving)):
            for ang in _ccw_angles(pivot, v, a, b) if sign > 0 else _circle_segment_angles(pivot, v, a, b):
                candidates.add(ang)
    ordered = sorted(c for c in candidates if c <= total + 1e-9)
    for i, ang in enumerate(ordered):
        nxt = ordered[i + 1] if i + 1 < len(ordered) else total
        probe = min(ang + 1e-5, (ang + nxt) / 2 if nxt > ang else ang + 1e-5, total)
        if probe <= ang:
            continue
        if overlaps(turned(probe), obstacle, tolerance=1e-10):
            return ang
    return None


def _ccw_angles(centre: Point, start: Point, a: Point, b: Point) -> list[float]:
    return [(360.0 - x) % 360.0 for x in _circle_segment_angles(centre, start, a, b)]
