"""Book ch. 5, Additional Rules: the designer's note on a SCROLLING SEA (an optional alternative to
5.2 Moving off the Table). The bot does not offer it (RULINGS.md): these tests show what it does
instead, so a change either way is seen."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from tests.book.oak_and_iron.book import anchor_others, order, place, rng, ruleset, started
from tests.oak_and_iron.helpers import add_terrain


def test_the_bot_keeps_the_edge_rule_and_never_scrolls_the_table() -> None:
    """5.2 SCROLLING SEA: "Alternatively, players with limited space may choose to play with an endless
    sea and "scroll" everything on the table to make more virtual room. If a ship's move would cause it
    to move off of the table, return the ship to its starting position and move all ships and Terrain
    elements on the table an equal distance away from the board edge the ship would have sailed off
    of." Not offered: the ship leaves the game by 5.2 MOVING OFF THE TABLE and nothing else moves."""
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


def test_there_is_no_scrolling_sea_option() -> None:
    """5.2 SCROLLING SEA: "players with limited space may choose to play with an endless sea" (the bot's
    tables are drawn to the game size's own dimensions, so no such choice is given; asking for one is
    refused with the list of options that exist)."""
    with pytest.raises(GameError) as err:
        ruleset().setup("quickstart", {"scrolling_sea": "yes"}, rng())
    assert "no option `scrolling_sea`" in err.value.text and "Options:" in err.value.text
