"""Move reports say where a ship now faces (issue 13): the facing decides its next fire and move,
and a reader of the channel should not need the board image to know it."""

from __future__ import annotations

from games.hex_ironclads.state import game_map
from tests.hex_ironclads.helpers import keep_only, new_game, order, place, texts, to_move_phase


def test_a_move_report_gives_the_new_facing_in_the_maps_compass() -> None:
    state = new_game("hampton-roads")
    keep_only(state, "Monitor", "Minnesota", "Virginia", "Teaser")
    place(state, "Monitor", "0705", 1)
    place(state, "Minnesota", "0703", 1)
    place(state, "Virginia", "0308", 0)
    place(state, "Teaser", "1208", 0)
    to_move_phase(state, "union")
    compass = game_map(state).compass
    events = order(state, "union", "Monitor move F S")
    assert f"Monitor moves F S: 0705 -> 0805. Facing {compass[2]}." in texts(events)
    events = order(state, "union", "Minnesota move")
    assert f"Minnesota stays at 0703. Facing {compass[1]}." in texts(events)
