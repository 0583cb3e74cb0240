"""Oak & Iron measurements: points of sail, range bands at their edges, sight, paths, raking, formation."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.geometry import Base
from games.oak_and_iron.data import rules
from games.oak_and_iron.measure import (
    band_of,
    base_distance,
    formation_members,
    in_broadside_path,
    line_of_sight,
    point_of_sail,
    raking,
)

W = H = 36.0


def pos(heading: float, edge: str = "north") -> tuple[str, ...]:
    return point_of_sail(Base((18.0, 18.0), heading, 2.6, 1.1), edge, W, H).options


def test_points_of_sail_with_wind_from_the_north() -> None:
    assert pos(180) == ("large",)  # running before the wind: stern to the weather edge
    assert pos(135) == ("large",)
    assert pos(90) == ("large", "windward")  # exactly between: the player may choose
    assert pos(60) == ("windward",)
    assert pos(0) == ("wind's eye",)  # bow straight at the weather edge
    assert pos(20) == ("wind's eye",)


def test_wind_eye_boundary_follows_the_book_definition() -> None:
    """In the Wind's Eye exactly when the windward side mid-point is farther from the weather
    edge than every point of the bow: (L/2) cos h > B sin h, so for a 2.6 x 1.1 base the boundary
    lies at atan(1.3 / 1.1), about 49.8 degrees off the wind (the book's "closer than 45 degrees")."""
    threshold = math.degrees(math.atan2(1.3, 1.1))
    assert pos(threshold - 0.5) == ("wind's eye",)
    assert pos(threshold + 0.5) == ("windward",)
    assert pos(360 - threshold + 0.5) == ("wind's eye",)  # the same on the other tack
    assert pos(360 - threshold - 0.5) == ("windward",)


def test_points_of_sail_rotate_with_the_weather_edge() -> None:
    for edge, offset in (("north", 0), ("east", 90), ("south", 180), ("west", 270)):
        assert pos((180 + offset) % 360, edge) == ("large",)
        assert pos((0 + offset) % 360, edge) == ("wind's eye",)


def test_band_edges_belong_to_the_closer_band() -> None:
    d = rules().distance_map
    assert band_of(1.0, d) == "yard_arm"
    assert band_of(1.0 + 1e-4, d) == "pistol_shot"
    assert band_of(3.0, d) == "pistol_shot"
    assert band_of(3.0 + 1e-4, d) == "musket_shot"
    assert band_of(6.0, d) == "musket_shot"
    assert band_of(12.0, d) == "cannon_shot"
    assert band_of(12.0 + 1e-4, d) == "beyond"
    assert band_of(12.0 + 1e-9, d) == "cannon_shot"  # float noise does not change a band


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([1.0, 3.0, 6.0, 12.0]), st.floats(min_value=0, max_value=359))
def test_bearing_does_not_move_band_edges(edge: float, heading: float) -> None:
    """Two ships exactly ``edge`` inches apart along any bearing are in that edge's band."""
    a = Base((18.0, 18.0), heading, 2.6, 1.1)
    # b sits beyond a's starboard side, parallel, ``edge`` inches from it
    offset = 1.1 / 2 + edge + 0.9 / 2
    sx, sy = a.starboard
    b = Base((18.0 + sx * offset, 18.0 + sy * offset), heading, 2.0, 0.9)
    d = base_distance(a, b)
    assert math.isclose(d, edge, abs_tol=1e-9)
    expected = {1.0: "yard_arm", 3.0: "pistol_shot", 6.0: "musket_shot", 12.0: "cannon_shot"}[edge]
    assert band_of(d, rules().distance_map) == expected


def test_broadside_path_is_the_strip_square_to_the_side() -> None:
    firer = Base((10.0, 10.0), 0.0, 3.0, 1.0)  # bow up; starboard faces east
    abeam = Base((15.0, 10.0), 0.0, 2.0, 1.0)
    ahead_right = Base((15.0, 6.0), 0.0, 2.0, 1.0)  # stern at y=7: beyond the bow line (8.5)
    partly = Base((15.0, 7.8), 0.0, 2.0, 1.0)  # spans y 6.8..8.8: overlaps the strip edge
    assert in_broadside_path(firer, "starboard", abeam)
    assert not in_broadside_path(firer, "port", abeam)
    assert not in_broadside_path(firer, "starboard", ahead_right)
    assert in_broadside_path(firer, "starboard", partly)


def test_raking_needs_the_centre_line_through_bow_and_stern() -> None:
    firer = Base((10.0, 10.0), 0.0, 3.0, 1.0)
    stern_on = Base((16.0, 10.0), 270.0, 2.0, 1.0)  # pointing west at us? heading 270: bow to the west
    bow_first = stern_on
    assert raking(firer, "starboard", bow_first) == "bow"
    stern_first = Base((16.0, 10.0), 90.0, 2.0, 1.0)
    assert raking(firer, "starboard", stern_first) == "stern"
    broadside_on = Base((16.0, 10.0), 0.0, 2.0, 1.0)
    assert raking(firer, "starboard", broadside_on) == ""


def test_line_of_sight_blocked_by_an_island_but_not_by_a_grazed_corner() -> None:
    firer = Base((5.0, 10.0), 0.0, 2.0, 1.0)
    target = Base((15.0, 10.0), 0.0, 2.0, 1.0)
    island = ((9.0, 5.0), (11.0, 5.0), (11.0, 15.0), (9.0, 15.0))
    assert line_of_sight(firer, target, [island], ("starboard",)) is None
    small = ((9.0, 5.0), (11.0, 5.0), (11.0, 8.0), (9.0, 8.0))
    assert line_of_sight(firer, target, [small], ("starboard",)) is not None


def test_line_of_sight_is_symmetric_for_facing_ships() -> None:
    a = Base((5.0, 10.0), 0.0, 2.0, 1.0)
    b = Base((15.0, 11.0), 180.0, 2.0, 1.0)
    rock = ((9.0, 9.0), (10.0, 9.0), (10.0, 10.2), (9.0, 10.2))
    ab = line_of_sight(a, b, [rock], ("starboard",)) is not None
    ba = line_of_sight(b, a, [rock], ("starboard",)) is not None
    assert ab == ba


def test_formation_line_ahead_with_the_flagship() -> None:
    musket = rules().distance("musket_shot")
    lead = Base((10.0, 10.0), 90.0, 2.6, 1.1)  # sailing east
    flag = Base((6.0, 10.0), 90.0, 2.6, 1.1)  # 1.4" astern, in line
    third = Base((2.0, 10.0), 90.0, 2.0, 0.9)
    abeam = Base((6.0, 14.0), 90.0, 2.0, 0.9)
    members = formation_members({"lead": lead, "flag": flag, "third": third, "abeam": abeam}, "flag", musket, [])
    assert members == {"lead", "flag", "third"}
    assert formation_members({"flag": flag, "abeam": abeam}, "flag", musket, []) == set()
    far = Base((20.0, 10.0), 90.0, 2.6, 1.1)
    assert formation_members({"flag": flag, "far": far}, "flag", musket, []) == set()
