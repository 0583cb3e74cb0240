"""Firing dice by type, arc and range: the countdown table, arcs on both hex orientations, and
real fire resolution rolling exactly that many dice at every range in every arc."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder, InvalidSyntax
from games.core.hexgrid import Hex
from games.core.maps import load_map
from games.core.ruleset import legal_texts
from games.hex_ironclads.data import ship_types
from games.hex_ironclads.rules.firing_dice_2 import arc_of, dice_for, max_range
from tests.hex_ironclads.helpers import (
    keep_only,
    new_game,
    order,
    place,
    place_hex,
    ruleset,
    ship,
    snapshot,
)
from tests.scripted import ScriptedDice


@pytest.mark.parametrize(
    ("dice", "arc", "countdown"),
    [
        (6, "all round", [6, 5, 4, 3, 2, 1, 0]),  # the turret countdown 6-5-4-3-2-1 (not the book's 2 at 4)
        (4, "abeam", [4, 3, 2, 1, 0]),  # the book's casemate abeam example 4-3-2-1
        (4, "ahead", [2, 2, 1, 1, 0]),  # the book's casemate ahead example 2-2-1-1
        (4, "astern", [2, 2, 1, 1, 0]),
        (2, "abeam", [2, 1, 0]),
        (2, "ahead", [1, 1, 0]),  # half of 2 dice is 1, at least one while any remain
    ],
)
def test_countdown(dice: int, arc: str, countdown: list[int]) -> None:
    assert [dice_for(dice, arc, r) for r in range(1, len(countdown) + 1)] == countdown
    assert max_range(dice, arc) == countdown.index(0)


def test_house_types_match_the_ruling() -> None:
    types = ship_types()
    got = {t: (v.dice, v.move, v.flotation, v.critical, v.ram, v.all_round) for t, v in types.items()}
    assert got == {
        "turret": (6, 2, 8, 3, True, True),
        "casemate": (4, 2, 8, 3, True, False),
        "frigate": (4, 3, 6, 2, False, False),
        "gunboat": (2, 3, 3, 1, False, False),
    }


def walk(state_map: str, start: Hex, direction: int, n: int) -> Hex:
    layout = load_map(state_map).layout
    h = start
    for _ in range(n):
        h = layout.neighbour(h, direction)
    return h


@pytest.mark.parametrize("scenario", ["angamos", "duel"])  # flat and pointy maps
def test_arcs_strictly_within_30_degrees(scenario: str) -> None:
    state = new_game(scenario)
    layout = load_map(state.map_id).layout
    firer = state.ships[2] if scenario == "angamos" else state.ships[1]  # a casemate
    assert not firer.all_round
    centre = layout.from_offset(layout.first_col + 6, layout.first_row + 5)
    for facing in range(6):
        place_hex(state, firer.name, centre, facing)
        for r in range(1, 4):
            assert arc_of(layout, firer, walk(state.map_id, centre, facing, r)) == "ahead"
            assert arc_of(layout, firer, walk(state.map_id, centre, (facing + 3) % 6, r)) == "astern"
            for side in (1, 2, 4, 5):  # the other hex rows out of the hexsides lie on 60/120 degrees
                assert arc_of(layout, firer, walk(state.map_id, centre, (facing + side) % 6, r)) == "abeam"
        # two ahead and one to the side: exactly on the 30-degree line, so abeam (the ruling)
        boundary = layout.neighbour(layout.neighbour(centre, facing), (facing + 1) % 6)
        assert arc_of(layout, firer, boundary) == "abeam"
        # three ahead and one to the side: about 19 degrees off the bow, so ahead
        inside = layout.neighbour(walk(state.map_id, centre, facing, 2), (facing + 1) % 6)
        assert arc_of(layout, firer, inside) == "ahead"


ARC_DIRECTION = {"ahead": 0, "abeam": 1, "astern": 3}


@pytest.mark.parametrize("arc", ["ahead", "abeam", "astern"])
@pytest.mark.parametrize("rng_hexes", [1, 2, 3, 4, 5])
def test_fire_rolls_the_countdown(arc: str, rng_hexes: int) -> None:
    """Cochrane (casemate, 4 dice) fires at Huascar in each arc at each range: the resolution
    rolls exactly the countdown's dice, or the order is refused when the countdown reaches 0."""
    state = new_game("angamos")
    keep_only(state, "Almirante Cochrane", "Huascar")
    cochrane = place(state, "Almirante Cochrane", "0706", 0)
    layout = load_map(state.map_id).layout
    target = walk(state.map_id, Hex(cochrane.q, cochrane.r), ARC_DIRECTION[arc], rng_hexes)
    place_hex(state, "Huascar", target, 3)
    expected = dice_for(4, arc, rng_hexes)
    assert arc_of(layout, cochrane, target) == arc
    if expected == 0:
        before = snapshot(state)
        with pytest.raises(IllegalOrder, match="away"):
            order(state, "chile", "Cochrane fire Huascar")
        assert snapshot(state) == before
        return
    rng = ScriptedDice([1] * expected + [1, 2])  # all misses, then initiative
    order(state, "chile", "Cochrane fire Huascar", rng)
    order(state, "chile", "seal", rng)
    events = order(state, "peru", "seal", rng)
    assert rng.rolled[:expected] == [1] * expected and not rng.dice
    shot_line = next(e.text for e in events if e.text.startswith("Almirante Cochrane fires"))
    assert f"range {rng_hexes}, {arc}, {expected} di" in shot_line
    assert shot_line.count("Miss") == expected


@pytest.mark.parametrize("rng_hexes", [1, 2, 3, 4, 5, 6, 7])
def test_turret_fires_full_dice_all_round(rng_hexes: int) -> None:
    state = new_game("angamos")
    keep_only(state, "Almirante Cochrane", "Huascar")
    huascar = place(state, "Huascar", "0706", 0)
    for direction in range(6):
        target = walk(state.map_id, Hex(huascar.q, huascar.r), direction, rng_hexes)
        if not load_map(state.map_id).layout.on_map(target):
            continue
        place_hex(state, "Almirante Cochrane", target, 0)
        expected = 6 - (rng_hexes - 1)
        legal = legal_texts(ruleset(), state, "peru")
        if expected <= 0:
            assert "Huascar fire Almirante Cochrane" not in legal
            continue
        assert "Huascar fire Almirante Cochrane" in legal
        assert arc_of(load_map(state.map_id).layout, ship(state, "Huascar"), target) == "all round"
        assert dice_for(6, "all round", rng_hexes) == expected



def test_option_arc_boundary_counts_the_30_degree_hexes_as_ahead_or_astern() -> None:
    """The ruling puts hexes exactly on the 30-degree line abeam; option arc-boundary=ahead-astern
    reads the book's "wholly within" the other way, and the fire order uses that arc's dice."""
    state = new_game("angamos", {"arc-boundary": "ahead-astern"})
    keep_only(state, "Almirante Cochrane", "Huascar")
    cochrane = place(state, "Almirante Cochrane", "0706", 0)
    layout = load_map(state.map_id).layout
    centre = Hex(cochrane.q, cochrane.r)
    ahead_edge = layout.neighbour(layout.neighbour(centre, 0), 1)
    astern_edge = layout.neighbour(layout.neighbour(centre, 3), 4)
    assert arc_of(layout, cochrane, ahead_edge, boundary_abeam=False) == "ahead"
    assert arc_of(layout, cochrane, astern_edge, boundary_abeam=False) == "astern"
    assert arc_of(layout, cochrane, ahead_edge) == "abeam"
    place_hex(state, "Huascar", ahead_edge, 3)
    events = order(state, "chile", "Cochrane fire Huascar")
    assert "(range 2, ahead, 2 dice)" in events[0].text
    default = new_game("angamos")
    keep_only(default, "Almirante Cochrane", "Huascar")
    place(default, "Almirante Cochrane", "0706", 0)
    place_hex(default, "Huascar", ahead_edge, 3)
    assert "(range 2, abeam, 3 dice)" in order(default, "chile", "Cochrane fire Huascar")[0].text


def test_option_ahead_arc_60_reads_sixty_degrees_either_side_of_the_keel_line() -> None:
    """Book: "wholly within a sixty degree arc either side of the hex ahead or astern". The ruling
    reads one 60-degree arc (30 either side); option ahead-arc=60 reads 60 either side."""
    state = new_game("angamos", {"ahead-arc": "60"})
    keep_only(state, "Almirante Cochrane", "Huascar")
    cochrane = place(state, "Almirante Cochrane", "0706", 0)
    layout = load_map(state.map_id).layout
    centre = Hex(cochrane.q, cochrane.r)
    on_30 = layout.neighbour(layout.neighbour(centre, 0), 1)  # 30 degrees off the bow
    on_60 = layout.neighbour(centre, 1)  # 60 degrees: still the boundary, so abeam
    assert arc_of(layout, cochrane, on_30, half_width=60.0) == "ahead"
    assert arc_of(layout, cochrane, on_60, half_width=60.0) == "abeam"
    assert arc_of(layout, cochrane, layout.neighbour(layout.neighbour(centre, 3), 4), half_width=60.0) == "astern"
    place_hex(state, "Huascar", on_30, 3)
    assert "(range 2, ahead, 2 dice)" in order(state, "chile", "Cochrane fire Huascar")[0].text
    with pytest.raises(InvalidSyntax, match=r"Option ahead-arc=`45` is not allowed\. Choose one of 30, 60\."):
        new_game("angamos", {"ahead-arc": "45"})
