"""House data is tagged and replaceable by a data pack without touching code."""

from __future__ import annotations

from pathlib import Path

import games.core.data as core_data
from games.core.data import load, resolve, set_data_packs
from games.core.maps import load_map
from games.iron_and_fire.data import mine_mix, scenarios, ships
from tests.iron_and_fire.helpers import new_game, unit


def test_house_values_are_tagged() -> None:
    assert load("iron_and_fire/ships.toml").doc["source"] == "house"
    assert load("iron_and_fire/mines.toml").doc["source"] == "house"
    for map_id in ("iaf-open-sea", "iaf-iquique", "iaf-antofagasta"):
        assert load_map(map_id).source == "house"
    assert sorted(mine_mix()) == sorted(["None"] * 6 + ["0"] * 3 + ["1"] * 2 + ["2"])
    assert ships()["huascar"].pf == 7 and ships()["huascar"].type == "TIC"
    assert {s.id for s in scenarios().values()} == {"s1", "s2", "s3", "s4", "s5"}


def test_maps_follow_the_ruling() -> None:
    m = load_map("iaf-open-sea")
    assert m.compass == ("6", "5", "4", "3", "2", "1")
    layout = m.layout
    assert layout.on_map(layout.parse("1101")) and layout.on_map(layout.parse("2913"))
    assert set(load_map("iaf-antofagasta").terrain.values()) >= {"land", "town", "shallow"}
    assert set(load_map("iaf-iquique").terrain.values()) >= {"land", "shoal", "shallow"}


def test_a_data_pack_replaces_ship_values(tmp_path: Path) -> None:
    original = core_data._packs
    source = resolve("iron_and_fire/ships.toml").read_text(encoding="utf-8").replace("pf = 7", "pf = 9", 1)
    (tmp_path / "iron_and_fire").mkdir()
    (tmp_path / "iron_and_fire" / "ships.toml").write_text(source, encoding="utf-8")
    try:
        set_data_packs([tmp_path])
        assert unit(new_game("s1"), "huascar").pf == 9
    finally:
        core_data._packs = original
        load.cache_clear()
    assert unit(new_game("s1"), "huascar").pf == 7


def test_the_book_names_loa_and_covadonga_steam_screw_corvettes() -> None:
    """15.3 "the fleeing Chilean Steam Screw Corvette Covadonga", 15.4.1 "the Steam Screw
    Corvette Loa": both are SSCs, so raking fire (6.1.2) applies to them."""
    from games.iron_and_fire.data import ships

    assert ships()["loa"].type == "SSC" and ships()["covadonga"].type == "SSC"


def test_raking_fire_into_the_loa() -> None:
    from tests.iron_and_fire.helpers import in_play, new_game, order, place, text

    st = new_game("s5")
    place(st, "huascar", "1610", 6)
    place(st, "loa", "1608", 3)  # the Huáscar lies on the Loa's bow hexrow, range 2
    in_play(st, "peru")
    log = text(order(st, "peru", "Huascar fire Loa", [1]))
    assert "d10 **1** +3 CF −1 range 2 +1 raking fire = 4 vs PF 3: 1 hit" in log
