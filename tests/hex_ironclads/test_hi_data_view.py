"""Scenarios, maps and house values from data (and data packs); what the views show."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.core.data import set_data_packs
from games.core.errors import GameError
from games.core.maps import load_map
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import UMPIRE
from games.hex_ironclads.data import load_scenario, ship_types, tables
from tests.hex_ironclads.helpers import (
    new_game,
    order,
    place,
    ruleset,
    ship,
    to_move_phase,
)
from tests.scripted import ScriptedDice


def test_scenarios_include_a_river_action_and_the_war_of_the_pacific() -> None:
    rs = ruleset()
    ids = [s.id for s in rs.scenarios()]
    assert len(ids) >= 3
    assert ids[:3] == ["trents-reach", "angamos", "hampton-roads"]
    river = load_scenario("trents-reach")
    assert load_map(river.map_id).terrain_at(load_map(river.map_id).layout.parse("0101")) == "land"
    types = {(sp.side, sp.type) for sp in river.ships}
    assert ("union", "turret") in types and ("confederate", "casemate") in types
    pacific = load_scenario("angamos")
    assert {s.id for s in pacific.sides} == {"peru", "chile"}
    for sc in ids:
        state = rs.setup(sc, {}, Rng(seed_from_number(0)))
        assert state.map_id.startswith("hi-")
        assert rs.decode(json.loads(json.dumps(rs.encode(state)))) == state
        assert {s.id for s in rs.seats(state)} == {s.id for s in state.sides} | {UMPIRE}


def test_firing_die_and_ram_dice_come_from_data() -> None:
    r = tables()
    assert r.faces == ("Miss", "Miss", "Miss", "Minor", "Minor", "Major")
    assert r.hits == {"Major": 2, "Minor": 1, "Miss": 0}
    assert (r.ram_dice, r.no_ram_dice) == (4, 2)
    assert "land" in r.blocks_sight and "shoal" not in r.blocks_sight


def test_a_data_pack_replaces_house_values(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    (pack / "hex_ironclads").mkdir(parents=True)
    shipped = (Path(__file__).resolve().parents[2] / "data" / "hex_ironclads" / "ships.toml").read_text()
    (pack / "hex_ironclads" / "ships.toml").write_text(shipped.replace("dice = 6", "dice = 5").replace('source = "house"', 'source = "book"'))
    try:
        set_data_packs([pack])
        assert ship_types()["turret"].dice == 5
        state = new_game("duel")
        assert ship(state, "Monitor").dice == 5
    finally:
        set_data_packs([])
    assert ship_types()["turret"].dice == 6


def test_bad_options_and_scenarios_are_refused() -> None:
    rs = ruleset()
    for scenario, options in (("atlantis", {}), ("duel", {"fog": "yes"}), ("duel", {"turns": "0"}), ("duel", {"ships-block-sight": "maybe"})):
        with pytest.raises(GameError):
            rs.setup(scenario, options, Rng(seed_from_number(0)))
    assert rs.setup("duel", {"turns": "3"}, Rng(seed_from_number(0))).turn_limit == 3


def test_view_counters_pips_markers_and_overlays() -> None:
    rs = ruleset()
    state = new_game("hampton-roads")
    place(state, "Monitor", "0705", 1)
    place(state, "Virginia", "0806", 0)
    ship(state, "Teaser").status, ship(state, "Teaser").lost = "sunk", 3
    ship(state, "Patrick Henry").status = "saved"
    ship(state, "Jamestown").status, ship(state, "Jamestown").lost = "broken-off", 2
    rng = ScriptedDice([6, 6, 1, 1, 1, 1, 2, 1])
    order(state, "union", "Monitor fire Virginia", rng)
    order(state, "union", "seal", rng)
    order(state, "confederate", "seal", rng)
    view = rs.view(state, None)
    assert view.board.kind == "hex" and view.board.key == "hex:hi-roads"
    counters = {c.label: c for c in view.counters}
    assert "Patrick Henry" not in counters  # saved: gone from the board
    assert counters["Teaser"].markers == ("sunk",)
    assert counters["Jamestown"].markers == ("broken-off",)
    virginia = counters["Virginia"]
    assert (virginia.damage, virginia.damage_max, virginia.damage_text) == (4, 8, "FV 4/8")
    layout = load_map("hi-roads").layout
    assert counters["Monitor"].facing == layout.bearing(1) == 90.0
    fire = [o for o in view.overlays if o.kind == "fire"]
    assert len(fire) == 1 and fire[0].text == "4" and fire[0].side == "union"
    assert any("House values in use" in line for line in view.status)
    assert view.private_text == ()
    to_move = state.mover()
    assert any(c.highlight for c in rs.view(state, to_move).counters)
    order(state, to_move, "done")
    assert state.mover() != to_move


def test_move_and_ram_overlays() -> None:
    rs = ruleset()
    state = new_game("duel")
    place(state, "Monitor", "0705", 1)
    place(state, "Virginia", "0905", 0)
    to_move_phase(state, "union")
    rng = ScriptedDice([1, 1, 1, 1])
    order(state, "union", "Monitor move F F", rng)
    order(state, "confederate", "done", rng)  # rams are adjudicated once both sides have moved
    kinds = [o.kind for o in rs.view(state, None).overlays]
    assert kinds == ["path", "ram"]
