"""Close Combat by contact edge (book, Attack Phase, "Close Combat"): "If the attacking ship has a Bow
or Stern edge in contact with the opposing ship, the target ship takes 1 point of Fatigue for each
Skull result rolled. If the attacking ship has a side edge in contact ..., a Fatigue for each Skull,
Crossed Swords and Cannonball."

A bow laid flush against a side also touches that side with the two corners it shares with its own
side edges; those corner points must not make the contact a side contact (issue 11, item 9)."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.core.errors import InvalidSyntax
from games.core.geometry import (
    TOUCH,
    Base,
    Point,
    Polygon,
    angle_diff,
    bearing_vector,
    dot,
    overlap_depth,
    point_in_polygon,
    point_segment_distance,
    polygon_distance,
    scale,
    segment_distance,
    slide_contact,
    sub,
)
from games.core.rng import Rng
from games.oak_and_iron.measure import edge_in_contact
from games.oak_and_iron.rules import crew_actions_4_2 as crew
from games.oak_and_iron.rules import ship_status_4_2 as status
from games.oak_and_iron.state import ShipState, State
from tests.oak_and_iron.helpers import order, place, rng, ruleset, texts
from tests.oak_and_iron.test_attack import predict, to_attack

SIDE_HITS = ("Skull", "Crossed Swords", "Cannonball")


# --- through the rules: boarding, then Close Combat ----------------------------------------------


def boarded(seed: int, corvette_heading: float, sloop_heading: float, sloop_bearing: float) -> tuple[State, Rng, ShipState, ShipState]:
    """The Corvette (B) boards the Sloop (A), which lies 0.6" off on ``sloop_bearing``; the Corvette
    ends where the boarding order puts it (``boarding_pose``) and the two are Entangled."""
    state, stream = to_attack(seed)
    place(state, "corvette", 15.0, 18.0, corvette_heading)
    corvette, sloop = state.ship("corvette"), state.ship("sloop")
    far = half_extent(corvette, corvette_heading, sloop_bearing) + 0.6 + half_extent(sloop, sloop_heading, sloop_bearing)
    out = bearing_vector(sloop_bearing)
    x, y = 15.0 + far * out[0], 18.0 + far * out[1]
    place(state, "sloop", x, y, sloop_heading)
    assert polygon_distance(corvette.base.polygon(), sloop.base.polygon()) <= 1.0  # Yard Arm
    pose, what = crew.boarding_pose(state, corvette, sloop)
    assert pose is not None, what
    corvette.place(pose)
    status.entangle(state, corvette, sloop, [])
    corvette.skill = 0  # no re-rolls: the dice rolled are the dice counted
    sloop.fatigue_shield = False
    return state, stream, corvette, sloop


def half_extent(ship: ShipState, heading: float, bearing: float) -> float:
    """How far a square-on base reaches from its centre towards ``bearing``."""
    return ship.length / 2 if angle_diff(heading, bearing) % 180.0 == 0.0 else ship.beam / 2


def close_combat(state: State, stream: Rng, corvette: ShipState) -> tuple[list[str], str]:
    faces = predict(stream, 5 + corvette.crew - corvette.fatigue)
    return faces, texts(order(state, "b", "Corvette close Sloop", stream))


def test_bow_boarding_against_a_side_counts_skulls_only() -> None:
    """Bow flush on the Sloop's side: Fatigue = Skulls (was every Skull, Swords and Cannonball)."""
    zero_where_side_would_score = False
    for seed in range(1, 16):
        state, stream, corvette, sloop = boarded(seed, 0.0, 90.0, 0.0)
        assert crew.nearest_edge(corvette.base, sloop.base.polygon()) == "bow"
        faces, events = close_combat(state, stream, corvette)
        assert "(bow edge in contact)" in events
        skulls = faces.count("Skull")
        assert sloop.fatigue == min(7, skulls), (seed, faces)
        if skulls == 0 and any(f in SIDE_HITS for f in faces):
            assert sloop.fatigue == 0
            zero_where_side_would_score = True
    assert zero_where_side_would_score  # some roll tells the two counts apart


def test_stern_boarding_against_a_side_counts_skulls_only() -> None:
    for seed in range(1, 9):
        state, stream, corvette, sloop = boarded(seed, 180.0, 90.0, 0.0)
        faces, events = close_combat(state, stream, corvette)
        assert "(stern edge in contact)" in events
        assert sloop.fatigue == min(7, faces.count("Skull")), (seed, faces)


def test_bow_boarding_against_a_bow_or_stern_counts_skulls_only() -> None:
    for sloop_heading in (0.0, 180.0):  # the Sloop's stern, then its bow, faces the Corvette's bow
        state, stream, corvette, sloop = boarded(3, 0.0, sloop_heading, 0.0)
        faces, events = close_combat(state, stream, corvette)
        assert "(bow edge in contact)" in events
        assert sloop.fatigue == min(7, faces.count("Skull"))


def test_boarding_square_on_lays_the_stern_not_the_side() -> None:
    """Square on, the stern and the side edges ending at its corners are equally near; the book's
    leading edge is the stern (the boarder does not pivot a quarter turn to lay its side)."""
    state, _, corvette, sloop = boarded(1, 180.0, 90.0, 0.0)
    assert corvette.heading == 180.0
    assert crew.nearest_edge(corvette.base, sloop.base.polygon()) == "stern"
    # and the boarded ship's stern, square on to the boarder's bow, is the edge boarded
    place(state, "sloop", 15.0, 18.0 - 1.3 - 0.5 - 1.0, 0.0)
    place(state, "corvette", 15.0, 18.0, 0.0)
    assert crew.nearest_edge(sloop.base, corvette.base.polygon()) == "stern"
    pose, what = crew.boarding_pose(state, corvette, sloop)
    assert pose is not None and what == "Corvette's bow edge against Sloop's stern edge"
    assert pose.heading == 0.0


def test_side_to_side_boarding_is_still_side_contact() -> None:
    for seed in range(1, 9):
        state, stream, corvette, sloop = boarded(seed, 0.0, 0.0, 90.0)  # abeam to starboard, parallel
        faces, events = close_combat(state, stream, corvette)
        assert "(starboard edge in contact)" in events
        assert sloop.fatigue == min(7, sum(f in SIDE_HITS for f in faces)), (seed, faces)


def test_side_laid_against_the_enemy_bow_is_side_contact() -> None:
    """The Sloop's bow faces the Corvette's port side: its bow corners touch the side's interior."""
    state, stream, corvette, sloop = boarded(2, 0.0, 90.0, 270.0)
    faces, events = close_combat(state, stream, corvette)
    assert "(port edge in contact)" in events
    assert sloop.fatigue == min(7, sum(f in SIDE_HITS for f in faces))


# --- corners (the ruling in data/oak_and_iron/RULINGS.md) ----------------------------------------


def corner_on(base: Base, corner: int, point: Point) -> Base:
    """``base`` moved so that its corner number ``corner`` (see ``Base.corners``) lies on ``point``."""
    return base.translated(sub(point, base.corners()[corner]))


def topmost(base: Base) -> int:
    ys = [c[1] for c in base.corners()]
    return ys.index(min(ys))


def sloop_and_angled_corvette(heading: float) -> tuple[Base, Base]:
    """The Sloop broadside-on (heading 90); the Corvette below it at ``heading`` with its topmost
    corner on the mid-point of the Sloop's starboard (south) side."""
    sloop = Base((15.0, 10.0), 90.0, 2.0, 0.9)
    corvette = Base((0.0, 0.0), heading, 2.6, 1.1)
    corvette = corner_on(corvette, topmost(corvette), sloop.edge_midpoint("starboard"))
    assert overlap_depth(corvette.polygon(), sloop.polygon()) <= 1e-9
    assert polygon_distance(corvette.polygon(), sloop.polygon()) == 0.0
    return sloop, corvette


def test_a_bow_corner_driven_into_a_side_is_bow_contact() -> None:
    for heading in (10.0, 30.0, 60.0, 80.0, 350.0, 300.0):
        sloop, corvette = sloop_and_angled_corvette(heading)
        assert topmost(corvette) in (0, 1)  # a bow corner
        assert edge_in_contact(corvette, sloop) == "bow", heading
        # and from the Sloop's side: a corner is in the middle of its starboard edge
        assert edge_in_contact(sloop, corvette) == "starboard", heading


def test_a_stern_corner_against_a_side_is_stern_contact() -> None:
    for heading in (170.0, 200.0, 135.0):
        sloop, corvette = sloop_and_angled_corvette(heading)
        assert topmost(corvette) in (2, 3)
        assert edge_in_contact(corvette, sloop) == "stern", heading


def test_corner_to_corner_is_bow_or_stern_contact() -> None:
    sloop = Base((15.0, 10.0), 90.0, 2.0, 0.9)
    stern_starboard = sloop.corners()[2]  # the Sloop's south-west corner
    corvette = Base((0.0, 0.0), 45.0, 2.6, 1.1)
    corvette = corner_on(corvette, topmost(corvette), stern_starboard)
    assert topmost(corvette) == 0  # bow-port
    assert overlap_depth(corvette.polygon(), sloop.polygon()) <= 1e-9
    assert edge_in_contact(corvette, sloop) == "bow"
    assert edge_in_contact(sloop, corvette) == "stern"


def test_corner_contact_option_can_count_a_corner_as_side_contact() -> None:
    sloop, corvette = sloop_and_angled_corvette(30.0)
    assert edge_in_contact(corvette, sloop, corner="side") == "port"
    state, stream, corv, slp = boarded(4, 0.0, 90.0, 0.0)
    corv.place(corvette)
    slp.place(sloop)
    state.options["corner_contact"] = "side"
    faces, events = close_combat(state, stream, corv)
    assert "bow-port corner in contact, counted as the port edge" in events
    assert slp.fatigue == min(7, sum(f in SIDE_HITS for f in faces))
    assert ruleset().setup("quickstart", {"corner_contact": "side"}, rng(1)).options["corner_contact"] == "side"
    with pytest.raises(InvalidSyntax, match="corner_contact"):
        ruleset().setup("quickstart", {"corner_contact": "diagonal"}, rng(1))


def test_float_noise_does_not_change_the_edge() -> None:
    """A hair's gap or overlap (well inside the geometry's touching tolerance) changes nothing."""
    target = Base((15.0, 10.0), 90.0, 2.0, 0.9)
    for noise in (-TOUCH / 4, 0.0, TOUCH / 4):
        bow_on = Base((15.3, 10.45 + 1.3 + noise), 0.0, 2.6, 1.1)
        assert edge_in_contact(bow_on, target) == "bow"
        abeam = Base((15.3, 10.45 + 0.55 + noise), 90.0, 2.6, 1.1)
        assert edge_in_contact(abeam, target) == "port"
    apart = Base((15.3, 10.45 + 1.3 + 10 * TOUCH), 0.0, 2.6, 1.1)
    assert edge_in_contact(apart, target) == ""


# --- property: a 'side' contact always has a side edge really touching ---------------------------

SIZES = [(2.0, 0.9), (2.6, 1.1), (3.2, 1.3), (4.0, 1.6)]
SQUARE = st.sampled_from([0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0])
ANY_HEADING = st.one_of(SQUARE, st.floats(min_value=0.0, max_value=360.0, exclude_max=True, allow_nan=False))
TENTH_HEADING = st.one_of(SQUARE, st.integers(0, 3599).map(lambda k: k / 10))
def poly_distance(p: Point, q: Point, poly: Polygon) -> float:
    if point_in_polygon(p, poly):
        return 0.0
    return min(segment_distance(p, q, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


def interior_touches(edge: tuple[Point, Point], poly: Polygon, inset: float) -> bool:
    """Some point of the edge at least ``inset`` from both its ends is within TOUCH of ``poly``."""
    p, q = edge
    n = math.dist(p, q)
    u = ((q[0] - p[0]) / n, (q[1] - p[1]) / n)
    p2, q2 = (p[0] + u[0] * inset, p[1] + u[1] * inset), (q[0] - u[0] * inset, q[1] - u[1] * inset)
    return poly_distance(p2, q2, poly) <= TOUCH * (1 + 1e-6)


def shares_a_segment(edge: tuple[Point, Point], poly: Polygon) -> bool:
    """The edge and an edge of ``poly`` lie along each other (within TOUCH) for more than TOUCH."""
    p, q = edge
    n = math.dist(p, q)
    u = ((q[0] - p[0]) / n, (q[1] - p[1]) / n)
    for r, t in zip(poly, poly[1:] + poly[:1], strict=True):
        sr, st_ = dot(sub(r, p), u), dot(sub(t, p), u)
        lo, hi = max(0.0, min(sr, st_)), min(n, max(sr, st_))
        ends = [(p[0] + u[0] * k, p[1] + u[1] * k) for k in (lo, hi)]
        if hi - lo > TOUCH and all(point_segment_distance(x, r, t) <= TOUCH for x in ends):
            return True
    return False


def touched_inside(edge: tuple[Point, Point], poly: Polygon) -> bool:
    """A corner of ``poly`` touches the edge more than TOUCH from both of its end corners."""
    p, q = edge
    n = math.dist(p, q)
    u = ((q[0] - p[0]) / n, (q[1] - p[1]) / n)
    return any(TOUCH < dot(sub(v, p), u) < n - TOUCH and point_segment_distance(v, p, q) <= TOUCH for v in poly)


@st.composite
def touching(draw: st.DrawFn, headings: st.SearchStrategy[float]) -> tuple[Base, Base]:
    """Two bases touching: B starts 12" off on a random bearing and slides straight at A until the
    exact sweep says it touches (how the engine stops a colliding ship)."""
    la, ba = draw(st.sampled_from(SIZES))
    lb, bb = draw(st.sampled_from(SIZES))
    a = Base((18.0, 18.0), draw(headings), la, ba)
    approach = draw(headings)
    half = [(la + lb) / 2, (ba + bb) / 2, (la + bb) / 2, (ba + lb) / 2]
    offset = draw(st.one_of(st.floats(-4.0, 4.0), st.sampled_from(half + [-h for h in half])))
    out, across = bearing_vector(approach), bearing_vector(approach + 90.0)
    start = (18.0 + 12 * out[0] + offset * across[0], 18.0 + 12 * out[1] + offset * across[1])
    b0 = Base(start, draw(headings), lb, bb)
    delta = scale(out, -24.0)
    t = slide_contact(b0.polygon(), delta, a.polygon())
    assume(t is not None)
    assert t is not None
    return a, b0.translated(scale(delta, t))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(touching(ANY_HEADING))
def test_side_contact_always_has_a_side_edge_really_touching(pair: tuple[Base, Base]) -> None:
    for a, b in (pair, pair[::-1]):
        edge = edge_in_contact(a, b)
        assert edge, "touching bases always have an edge in contact"
        if edge in ("port", "starboard"):
            assert shares_a_segment(a.edge(edge), b.polygon()) or touched_inside(a.edge(edge), b.polygon())
        else:
            assert poly_distance(*a.edge(edge), b.polygon()) <= TOUCH


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(touching(TENTH_HEADING))
def test_a_side_edge_clearly_touching_is_side_contact(pair: tuple[Base, Base]) -> None:
    """The converse, on headings in tenths of a degree (no near-parallel slivers): a side edge whose
    middle part touches is side contact, and a bow/stern contact has no side edge doing so."""
    for a, b in (pair, pair[::-1]):
        edge = edge_in_contact(a, b)
        for side in ("port", "starboard"):
            if interior_touches(a.edge(side), b.polygon(), inset=0.01):
                assert edge == side
