"""Book ch. 5, Additional Rules: the designer's note on a SCROLLING SEA (an optional alternative to
5.2 Moving off the Table). Off by default (the edge rule of 5.2), on with the option
`scrolling_sea=yes`; the bot's readings of what the note leaves open are in RULINGS.md."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from games.core.rng import Rng
from games.oak_and_iron.data import rules as ruleset_rules
from games.oak_and_iron.state import State
from tests.book.oak_and_iron.book import anchor_others, order, place, rng, ruleset, started
from tests.oak_and_iron.helpers import add_terrain


def test_without_the_option_the_bot_keeps_the_edge_rule() -> None:
    """5.2 SCROLLING SEA: "Alternatively, players with limited space may choose to play with an endless
    sea and "scroll" everything on the table to make more virtual room. If a ship's move would cause it
    to move off of the table, return the ship to its starting position and move all ships and Terrain
    elements on the table an equal distance away from the board edge the ship would have sailed off
    of." Without the option the ship leaves the game by 5.2 MOVING OFF THE TABLE and nothing else moves."""
    state, stream = started()
    anchor_others(state, "corvette", "fluyt")
    place(state, "corvette", 20.0, state.table_height - 3.0, 180.0)
    place(state, "fluyt", 8.0, 10.0, 90.0)
    add_terrain(state, "rock", [(28.0, 6.0), (30.0, 6.0), (30.0, 8.0), (28.0, 8.0)], "Rocks")
    others = {s.id: (s.x, s.y) for s in state.ships if s.id != "corvette"}
    rock = list(state.terrain[-1].points)
    order(state, "b", "Corvette move", stream)
    assert state.ship("corvette").status == "off" and not state.ship("corvette").on_table
    assert {s.id: (s.x, s.y) for s in state.ships if s.id != "corvette"} == others
    assert list(state.terrain[-1].points) == rock


def _sailing_off(scroll: bool = True) -> tuple[State, Rng, dict[str, tuple[float, float]], list[tuple[float, float]]]:
    """The Corvette 3" from the south edge sailing south (off the table on its move), the others
    anchored along it, a rock near the middle; returns where the others and the rock stood."""
    state, stream = started()
    if scroll:
        state.options["scrolling_sea"] = "yes"
    anchor_others(state, "corvette", "fluyt")
    place(state, "corvette", 20.0, state.table_height - 3.0, 180.0)
    place(state, "fluyt", 8.0, 10.0, 90.0)
    add_terrain(state, "rock", [(28.0, 16.0), (30.0, 16.0), (30.0, 18.0), (28.0, 18.0)], "Rocks")
    return state, stream, {s.id: (s.x, s.y) for s in state.ships if s.id != "corvette"}, list(state.terrain[-1].points)


def test_with_a_scrolling_sea_the_ship_stays_and_everything_moves_away_from_the_edge() -> None:
    """5.2 SCROLLING SEA: "If a ship's move would cause it to move off of the table, return the ship
    to its starting position and move all ships and Terrain elements on the table an equal distance
    away from the board edge the ship would have sailed off of. A distance of at least Musket Shot
    should be used for this." With `scrolling_sea=yes` the Corvette sailing off the south edge stays
    afloat; every other ship and the rock move the same distance north, at least Musket Shot."""
    state, stream, others, rock = _sailing_off()
    corvette = state.ship("corvette")
    said = " ".join(e.text for e in order(state, "b", "Corvette move", stream))
    assert corvette.on_table and corvette.status == "afloat", said
    assert "The sea scrolls (5.2 Scrolling Sea)" in said and "north" in said, said
    shift = state.terrain[-1].points[0][1] - rock[0][1]
    assert shift <= -ruleset_rules().distance("musket_shot") + 1e-9
    for sid, (x, y) in others.items():
        ship = state.ship(sid)
        assert (ship.x, ship.y) == pytest.approx((x, y + shift)), sid
    assert [c for x, y in state.terrain[-1].points for c in (x, y - shift)] == pytest.approx([c for p in rock for c in p])
    assert all(0 <= y <= state.table_height for _, y in corvette.base.corners())


def test_terrain_forced_off_is_placed_against_the_opposite_edge() -> None:
    """5.2 SCROLLING SEA: "If any Terrain would be moved off the table as a result, the player who
    wasn't moving the ship ... places the Terrain anywhere within Musket Shot of the opposite table
    edge it was forced off of." RULING (RULINGS.md): the bot places it, at the same place along the
    edge, against the opposite edge. A rock 1" from the north edge is forced off it and comes back
    against the south edge, the one the Corvette sails towards."""
    state, stream, _, _ = _sailing_off()
    add_terrain(state, "rock", [(10.0, 1.0), (12.0, 1.0), (12.0, 3.0), (10.0, 3.0)], "North Rocks")
    said = " ".join(e.text for e in order(state, "b", "Corvette move", stream))
    north = next(t for t in state.terrain if t.label == "North Rocks")
    assert "North Rocks is forced off the table and placed against the opposite edge" in said, said
    assert max(y for _, y in north.points) == pytest.approx(state.table_height)
    assert sorted({x for x, _ in north.points}) == [10.0, 12.0]


def test_the_sea_scrolls_less_than_musket_shot_rather_than_carry_a_ship_off() -> None:
    """RULING (RULINGS.md, Scrolling Sea): the note says Musket Shot "should be used" and not what
    becomes of a ship carried off the far edge, so the scroll is shortened to keep every ship on the
    table, down to what the move overshot. The Fluyt's base 2.5" from the north edge: the table
    scrolls 2.5", less than Musket Shot, and the Corvette's move still ends on the table."""
    state, stream, _, _ = _sailing_off()
    place(state, "fluyt", 8.0, 2.5 + state.ship("fluyt").beam / 2, 90.0)
    said = " ".join(e.text for e in order(state, "b", "Corvette move", stream))
    assert "every ship and piece of terrain moves 2.50\" north (less than Musket Shot, so that no ship is carried off" in said, said
    assert state.ship("corvette").on_table and min(y for _, y in state.ship("fluyt").base.corners()) == pytest.approx(0.0)


def test_the_sea_does_not_scroll_another_ship_off_the_table() -> None:
    """RULING (RULINGS.md, Scrolling Sea): when even the least scroll that keeps the moving ship on
    the table would carry another ship off, the sea does not scroll; the move is made and 5.2
    removes the ship as usual, and the post says why. The Fluyt 2" from the north edge would be
    carried off."""
    state, stream, _, rock = _sailing_off()
    place(state, "fluyt", 8.0, 2.0, 90.0)
    said = " ".join(e.text for e in order(state, "b", "Corvette move", stream))
    assert "The sea cannot scroll (5.2 Scrolling Sea): it would carry Fluyt off the table" in said, said
    assert state.ship("corvette").status == "off"
    assert (state.ship("fluyt").x, state.ship("fluyt").y) == (8.0, 2.0)
    assert list(state.terrain[-1].points) == rock


def test_the_scrolling_sea_is_an_option_the_players_choose() -> None:
    """5.2 SCROLLING SEA: "players with limited space may choose to play with an endless sea": the
    option `scrolling_sea` is no (the edge rule) unless set; a value other than yes or no is refused
    with the choices."""
    assert ruleset().setup("quickstart", {"scrolling_sea": "yes"}, rng()).options["scrolling_sea"] == "yes"
    with pytest.raises(GameError) as err:
        ruleset().setup("quickstart", {"scrolling_sea": "maybe"}, rng())
    assert "yes" in (err.value.text + err.value.hint)
    with pytest.raises(GameError) as unknown:
        ruleset().setup("quickstart", {"endless_sea": "yes"}, rng())
    assert "Options:" in unknown.value.hint and "scrolling_sea" in unknown.value.hint
