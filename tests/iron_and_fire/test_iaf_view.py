"""Views: counters with facings and markers, overlays of the last activation, status lines,
private text for the entitled seat and the umpire only; the umpire can act for the side to act."""

from __future__ import annotations

import pytest

from games.core.rng import Rng, seed_from_number
from games.iron_and_fire import scene
from tests.iron_and_fire.helpers import in_play, new_game, order, place, round_trips, ruleset, unit


def test_counters_overlays_and_status() -> None:
    st = new_game("s1", {"boilers": "fixed"})
    place(st, "huascar", "1610", 6)
    place(st, "esmeralda", "1608", 5)
    in_play(st)
    order(st, "peru", "Huascar fire Esmeralda", [2])
    view = ruleset().view(st, None)
    layout = scene.layout(st)
    h = next(c for c in view.counters if c.id == "huascar")
    assert h.facing == layout.bearing(0) == 0.0 and h.side == "peru"
    e = next(c for c in view.counters if c.id == "esmeralda")
    assert e.damage == 1 and e.damage_text == "1H"
    assert view.overlays and view.overlays[0].kind == "fire" and view.overlays[0].text == "1 hit"
    assert any(line.startswith("Turn 1 of 12") for line in view.status)
    assert any("House values in use" in line for line in view.status)
    assert view.board.hexside_compass == ("6", "5", "4", "3", "2", "1")
    assert round_trips(st)


def test_markers() -> None:
    st = new_game("s1")
    place(st, "huascar", "1610", 6)
    e = place(st, "esmeralda", "1608", 5)
    e.grounded, e.hits, e.criticals = True, 3, ["fire", "bridge"]
    e.controller = "peru"
    in_play(st)
    c = next(c for c in ruleset().view(st, None).counters if c.id == "esmeralda")
    assert {"grounded", "fire", "critical", "captured", "crippled"} <= set(c.markers)


def test_private_text_and_umpire() -> None:
    rs = ruleset()
    st = new_game("s2")
    rs.apply(st, "umpire", rs.parse_order(st, "umpire", "roll steam"), Rng(seed_from_number(3)))
    assert st.secrets and st.secrets[0].side == "chile"
    assert rs.view(st, "umpire").private_text and rs.view(st, "chile").private_text
    assert not rs.view(st, "peru").private_text and not rs.view(st, None).private_text


def test_setup_zones_are_shown() -> None:
    view = ruleset().view(new_game("s1"), None)
    assert view.zones and view.zones[0].name == "Esmeralda" and len(view.zones[0].cells) == 19


def test_covadonga_mp_hidden_from_peru_while_steam_is_secret() -> None:
    rs = ruleset()
    st = new_game("s2")
    rs.apply(st, "chile", rs.parse_order(st, "chile", "roll steam"), Rng(seed_from_number(3)))
    place(st, "covadonga", "1502", 3)
    place(st, "independencia", "1113", 6)
    in_play(st)
    cov = next(line for line in rs.view(st, "peru").status if line.startswith("Covadonga"))
    assert "MP" not in cov
    cov = next(line for line in rs.view(st, "chile").status if line.startswith("Covadonga"))
    assert "MP 1" in cov
    assert unit(st, "covadonga").afloat


def test_a_refused_order_leaves_the_reroll_record_to_the_service_copy() -> None:
    """The table service applies each order to a deep copy and drops it on a GameError (bot/service.py),
    so Iron and Fire keeps no restore-on-error of its own: refused orders between an activation and
    its ``fow reroll`` leave the stored game, and the re-roll, as they were."""
    import copy
    import json

    from games.core.errors import GameError
    from tests.iron_and_fire.helpers import in_play, order, place
    from tests.scripted import ScriptedDice

    rs = ruleset()
    st = new_game("s1", {"fow": "on", "boilers": "fixed"})
    place(st, "huascar", "1610", 6)
    place(st, "esmeralda", "1606", 3)
    in_play(st, "chile", "KS")
    st.fow_holder = "peru"
    order(st, "chile", "Esmeralda fire Huascar", [3])
    assert st.snapshot and st.card_side == "peru"
    before = json.dumps(rs.encode(st), sort_keys=True)
    for seat, text in (("chile", "Esmeralda move F F F F"), ("chile", "Esmeralda unground"), ("peru", "Huascar move F F F F"), ("peru", "fow reroll 9")):
        working = copy.deepcopy(st)
        with pytest.raises(GameError):
            rs.apply(working, seat, rs.parse_order(working, seat, text), ScriptedDice([]))
    assert json.dumps(rs.encode(st), sort_keys=True) == before
    assert "re-roll die 1" in "\n".join(e.text for e in order(st, "peru", "fow reroll 1", [9]))


def test_ships_sharing_a_setup_zone_share_one_outline() -> None:
    st = new_game("s5")
    st.phase, st.turn, st.setup_side = "arrive", 2, "chile"
    for uid in ("blanco_encalada", "matias_cousino", "covadonga"):
        unit(st, uid).arrive_turn = 2
    zones = ruleset().view(st, "chile").zones
    assert len(zones) == 1 and zones[0].name == "3 ships"


def test_game_over_status_reason_starts_a_sentence() -> None:
    """The rules write the reason to follow "Peru wins: "; after "Peru." it must start with a capital."""
    st = new_game("s1")
    st.phase, st.result_winner, st.result_reason = "over", "peru", "the Esmeralda was sunk."
    assert f"Game over after turn {st.turn}: Peru. The Esmeralda was sunk." in ruleset().view(st, None).status
