"""Oak & Iron measurements on the continuous table: point of sail (4.2), bands (2), sight and broadside
paths (4.3), raking (5.6), formation (5.5), Close Combat contact (4.3).

Each function takes plain geometry (``Base`` rectangles and convex terrain polygons) so the rules
engine and the tests measure exactly the same way, and every reply can quote the numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from games.core.geometry import (
    TOUCH,
    Base,
    Point,
    Polygon,
    add,
    clip_half_plane,
    dot,
    point_in_polygon,
    point_segment_distance,
    polygon_distance,
    ray_segment,
    scale,
    segment_crosses_polygon,
    sub,
)

WEATHER_EDGES = ("north", "east", "south", "west")
WIND_BEARING = {"north": 180.0, "east": 270.0, "south": 0.0, "west": 90.0}  # the way the wind blows
ROUNDING = 1e-6  # measurements are compared after rounding away float noise


def weather_distance(p: Point, edge: str, width: float, height: float) -> float:
    """Distance of a point from the WEATHER EDGE (section 4.2: the table edge the wind blows from)."""
    if edge == "north":
        return p[1]
    if edge == "south":
        return height - p[1]
    if edge == "west":
        return p[0]
    return width - p[0]


@dataclass(frozen=True)
class PointOfSail:
    """Which POINTS OF SAIL (section 4.2) the ship may use (two when it lies exactly between them)."""

    options: tuple[str, ...]  # "large", "windward", "wind's eye"
    bow: float  # distance of the bow mid-point from the weather edge
    stern: float
    windward_mid: float
    farthest_bow: float

    def describe(self) -> str:
        names = {"large": "Large", "windward": "Windward", "wind's eye": "In the Wind's Eye"}
        label = " or ".join(names[o] for o in self.options)
        return f"{label} (bow {self.bow:.2f}\", stern {self.stern:.2f}\" from the weather edge)"


def point_of_sail(base: Base, edge: str, width: float, height: float) -> PointOfSail:
    """POINT OF SAIL (section 4.2): the book's definitions, measured from the weather edge.

    Large: stern closer than bow. Windward: bow closer than stern. In the Wind's Eye: the windward
    side's mid-point is farther from the weather edge than every point of the bow.
    """

    def wd(p: Point) -> float:
        return round(weather_distance(p, edge, width, height) / ROUNDING) * ROUNDING

    bow = wd(base.edge_midpoint("bow"))
    stern = wd(base.edge_midpoint("stern"))
    port, starboard = wd(base.edge_midpoint("port")), wd(base.edge_midpoint("starboard"))
    windward_mid = min(port, starboard)
    bow_a, bow_b = base.edge("bow")
    farthest_bow = max(wd(bow_a), wd(bow_b))
    if windward_mid > farthest_bow:
        options: tuple[str, ...] = ("wind's eye",)
    elif math.isclose(bow, stern, abs_tol=1e-6):
        options = ("large", "windward")
    elif stern < bow:
        options = ("large",)
    else:
        options = ("windward",)
    return PointOfSail(options, bow, stern, windward_mid, farthest_bow)


BANDS = ("yard_arm", "pistol_shot", "musket_shot", "cannon_shot")
BAND_NAMES = {
    "yard_arm": "Yard Arm",
    "pistol_shot": "Pistol Shot",
    "musket_shot": "Musket Shot",
    "cannon_shot": "Cannon Shot",
    "beyond": "beyond Cannon Shot",
}


def band_of(dist: float, distances: dict[str, float]) -> str:
    """The range ruler's band (section 2): the closest band whose distance is at least ``dist``
    (band edges belong to the band)."""
    d = round(dist / ROUNDING) * ROUNDING
    for band in BANDS:
        if d <= distances[band] + ROUNDING / 2:
            return band
    return "beyond"


def base_distance(a: Base, b: Base) -> float:
    """Distances are measured between the nearest points of two bases (section 2, RANGE RULER)."""
    return polygon_distance(a.polygon(), b.polygon())


def _points_of(base: Base) -> tuple[list[Point], list[Point]]:
    mids = [base.edge_midpoint(e) for e in ("bow", "starboard", "stern", "port")]
    return mids, list(base.corners())


def line_clear(p: Point, q: Point, blockers: Sequence[Polygon]) -> bool:
    """Nothing that blocks sight lies across the line from ``p`` to ``q`` (section 4.3)."""
    return not any(segment_crosses_polygon(p, q, poly) for poly in blockers)


def line_of_sight(
    firer: Base,
    target: Base,
    blockers: Sequence[Polygon],
    edges: Sequence[str] = ("bow", "starboard", "stern", "port"),
) -> tuple[Point, Point] | None:
    """LINE OF SIGHT (section 4.3): a clear line from the mid-point of a firing edge to the mid-point of any target edge
    and a clear line (from the same point) to at least one target corner. Returns the mid-point to
    mid-point line that proves sight, or None. Own and target bases never block."""
    own = [firer.polygon(), target.polygon()]
    others = [b for b in blockers if b not in own]
    mids, corners = _points_of(target)
    for edge in edges:
        start = firer.edge_midpoint(edge)
        to_mid = [m for m in mids if line_clear(start, m, others)]
        if to_mid and any(line_clear(start, c, others) for c in corners):
            return (start, to_mid[0])
    return None


def broadside_strip(firer: Base, side: str, reach: float) -> Polygon:
    """The BROADSIDE PATH (section 4.3) of one side out to ``reach`` inches, as a polygon (for drawing)."""
    a, b = firer.edge(side)
    n = scale(firer.normal(side), reach)
    return (a, b, add(b, n), add(a, n))


def in_broadside_path(firer: Base, side: str, target: Base) -> bool:
    """BROADSIDE PATH (section 4.3): any part of the target lies between the two lines square to
    the firing edge, outward."""
    a, b = firer.edge(side)
    along = sub(b, a)
    poly: Polygon = target.polygon()
    poly = clip_half_plane(poly, a, along)
    poly = clip_half_plane(poly, b, scale(along, -1))
    poly = clip_half_plane(poly, a, firer.normal(side))
    return len(poly) > 0


def raking(firer: Base, side: str, target: Base) -> str:
    """RAKING SHOTS (section 5.6): '' if not raking, else 'bow' or 'stern': the line square to the firing edge from its centre
    passes through both the target's bow and stern edges; the named edge is where it enters."""
    origin = firer.edge_midpoint(side)
    direction = firer.normal(side)
    bow = ray_segment(origin, direction, *target.edge("bow"))
    stern = ray_segment(origin, direction, *target.edge("stern"))
    if bow is None or stern is None:
        return ""
    return "stern" if stern < bow else "bow"


def _strip_hits(source: Base, edge: str, target: Base, target_edge: str) -> bool:
    """A line square to ``edge`` from somewhere on it, going outward, meets ``target_edge``."""
    a, b = source.edge(edge)
    along = sub(b, a)
    seg: Polygon = target.edge(target_edge)
    for origin, normal in ((a, along), (b, scale(along, -1)), (a, source.normal(edge))):
        seg = _clip_segment(seg, origin, normal)
        if not seg:
            return False
    return True


def _clip_segment(seg: Sequence[Point], origin: Point, normal: Point) -> Polygon:
    if len(seg) < 2:
        return tuple(p for p in seg if dot(sub(p, origin), normal) >= -1e-9)
    p, q = seg[0], seg[1]
    dp, dq = dot(sub(p, origin), normal), dot(sub(q, origin), normal)
    if dp < -1e-9 and dq < -1e-9:
        return ()
    if dp >= -1e-9 and dq >= -1e-9:
        return (p, q)
    t = dp / (dp - dq)
    cut = add(p, scale(sub(q, p), t))
    return (p, cut) if dp >= 0 else (cut, q)


def formation_link(ahead: Base, behind: Base, musket: float, blockers: Sequence[Polygon]) -> bool:
    """FORMATION (section 5.5): two ships in line ahead: within Musket Shot, the follower's bow sees the leader's stern edge
    square on and the leader's stern sees the follower's bow edge square on, with nothing between."""
    if base_distance(ahead, behind) > musket + ROUNDING:
        return False
    if not (_strip_hits(behind, "bow", ahead, "stern") and _strip_hits(ahead, "stern", behind, "bow")):
        return False
    own = [ahead.polygon(), behind.polygon()]
    others = [p for p in blockers if p not in own]
    return line_clear(behind.edge_midpoint("bow"), ahead.edge_midpoint("stern"), others) or line_clear(
        ahead.edge_midpoint("stern"), behind.edge_midpoint("bow"), others
    )


def formation_members(bases: dict[str, Base], flagship: str, musket: float, blockers: Sequence[Polygon]) -> set[str]:
    """FORMATION (section 5.5): ships in a line-ahead chain that includes the flagship (each ship links one ahead, one behind)."""
    if flagship not in bases:
        return set()
    ahead_of: dict[str, str] = {}  # follower -> leader
    behind_of: dict[str, str] = {}
    ids = sorted(bases)
    for f in ids:
        for lead in ids:
            if f == lead or f in ahead_of or lead in behind_of:
                continue
            if formation_link(bases[lead], bases[f], musket, blockers):
                ahead_of[f] = lead
                behind_of[lead] = f
    chain = {flagship}
    frontier = [flagship]
    while frontier:
        s = frontier.pop()
        for nxt in (ahead_of.get(s), behind_of.get(s)):
            if nxt and nxt not in chain:
                chain.add(nxt)
                frontier.append(nxt)
    return chain if len(chain) >= 2 else set()


CORNER_EDGES = (("bow", "port"), ("bow", "starboard"), ("stern", "starboard"), ("stern", "port"))  # Base.corners order
CORNER_CONTACT = ("end", "side")  # option ``corner_contact``: what a touching corner counts as


@dataclass(frozen=True)
class Contact:
    """Which edge of one ship counts as in contact with another (book section 4.3, Close Combat).

    ``edge`` is bow, starboard, stern or port ('' when the bases do not touch); ``corner`` names the
    corner (e.g. 'bow-port') when only a corner touches and ``edge`` is the ruling's choice for it.
    """

    edge: str
    corner: str = ""

    @property
    def side(self) -> bool:
        """Side contact: the book's Skull, Crossed Swords and Cannonball all count."""
        return self.edge in ("port", "starboard")

    def describe(self) -> str:
        if not self.edge:
            return "no edge in contact"
        if self.corner:
            return f"{self.corner} corner in contact, counted as the {self.edge} edge"
        return f"{self.edge} edge in contact"


def _point_polygon_distance(p: Point, poly: Polygon) -> float:
    if point_in_polygon(p, poly):
        return 0.0
    return min(point_segment_distance(p, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


def _edge_touches(p: Point, q: Point, poly: Polygon, tolerance: float) -> bool:
    """The edge pq touches ``poly`` somewhere other than at its two end corners.

    For a convex ``poly`` that touches without overlapping, that happens only when the edge lies
    along one of its edges (then both ends of pq lie on it, or a corner of ``poly`` lies inside pq)
    or a corner of ``poly`` presses on pq. So: both ends within ``tolerance``, or a corner of
    ``poly`` within ``tolerance`` of pq and more than ``tolerance`` from either end. A side edge
    that touches only at the corner it shares with the bow passes neither test, whatever the angle.
    """
    if _point_polygon_distance(p, poly) <= tolerance and _point_polygon_distance(q, poly) <= tolerance:
        return True
    along = sub(q, p)
    n = math.hypot(*along)
    for v in poly:
        s = dot(sub(v, p), along) / n
        if tolerance < s < n - tolerance and point_segment_distance(v, p, q) <= tolerance:
            return True
    return False


def close_contact(a: Base, b: Base, corner: str = "end", tolerance: float = TOUCH) -> Contact:
    """Which edge of ``a`` is in contact with ``b`` for Close Combat (book section 4.3).

    An edge is in contact when a stretch of it, or a point of it other than its end corners, touches
    ``b``: a bow laid flush on a side is Bow contact, although the bow's corners (which are also the
    ends of the side edges) touch the side too. When only a corner of ``a`` touches (a bow or stern
    corner driven into a side, or corner to corner) the book is silent; the house ruling (RULINGS.md,
    option ``corner_contact``) counts it as the corner's Bow or Stern edge (``corner="end"``, the
    default) or as its side edge (``corner="side"``). ``tolerance`` is the geometry's touching
    distance. Two edges of touching, non-overlapping rectangles cannot both be in contact; if the
    bases overlap, a side edge is named first.
    """
    poly = b.polygon()
    for edge in ("starboard", "port", "bow", "stern"):
        if _edge_touches(*a.edge(edge), poly, tolerance):
            return Contact(edge)
    for point, (end, side) in zip(a.corners(), CORNER_EDGES, strict=True):
        if _point_polygon_distance(point, poly) <= tolerance:
            return Contact(side if corner == "side" else end, f"{end}-{side}")
    return Contact("")


def edge_in_contact(a: Base, b: Base, corner: str = "end", tolerance: float = TOUCH) -> str:
    """The name of the edge of ``a`` that counts as in contact with ``b`` ('' if none); see ``close_contact``."""
    return close_contact(a, b, corner, tolerance).edge
