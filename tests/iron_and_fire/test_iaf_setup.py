"""Set-up (15.0): Chile first, zones and facings, mines, batteries, the cable buoy, public and
secret rolls with commitments, arrivals and their reveals."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder, InvalidSyntax, NotYourTurn, UnknownName
from games.core.rng import Rng, check_seal, seed_from_number
from games.core.ruleset import Event, legal_texts
from games.iron_and_fire import scene
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.orders import Place
from games.iron_and_fire.rules import damage_7, sequence_3
from games.iron_and_fire.state import State
from tests.iron_and_fire.helpers import new_game, ruleset, unit


def say(st: State, seat: str, text: str, seed: int = 5):  # type: ignore[no-untyped-def]
    rs = ruleset()
    return rs.apply(st, seat, rs.parse_order(st, seat, text), Rng(seed_from_number(seed)))


def test_scenario_one_setup_chile_first_zones_and_facings() -> None:
    st = new_game("s1")
    rs = ruleset()
    assert rs.to_act(st) == ["chile"]
    with pytest.raises(NotYourTurn):
        say(st, "peru", "Huascar at 1610 6")
    with pytest.raises(IllegalOrder, match="not in row 06"):
        say(st, "chile", "Esmeralda at 1607 3")
    with pytest.raises(IllegalOrder, match="must face 3"):
        say(st, "chile", "Esmeralda at 1606 4")
    with pytest.raises(IllegalOrder, match="Still to do: place Esmeralda"):
        say(st, "chile", "done")
    say(st, "chile", "Esmeralda at 1606 3")
    say(st, "chile", "done")
    assert rs.to_act(st) == ["peru"]
    say(st, "peru", "Huáscar at 1610 facing 6")
    events = say(st, "peru", "done")
    assert st.phase == "activations" and st.turn == 1 and st.card
    assert any("Turn 1" in e.text for e in events)


@pytest.mark.slow
def test_setup_legal_orders_are_all_valid() -> None:
    rs = ruleset()
    for scn in ("s1", "s2", "s3", "s4", "s5"):
        st = new_game(scn, {"mines": "on", "independencia": "survives"})
        for _ in range(60):
            if st.phase not in ("setup", "arrive"):
                break
            seat = rs.to_act(st)[0]
            legal = legal_texts(rs, st, seat)
            assert legal, (scn, st.phase)
            pick = next((o for o in legal if o.startswith("roll")), None) or next((o for o in legal if o != "done"), "done")
            say(st, seat, pick)
        assert st.phase not in ("setup",), scn


def test_secret_steam_roll_is_private_with_a_public_commitment() -> None:
    st = new_game("s2")
    events = say(st, "chile", "roll steam")
    public = [e for e in events if e.public]
    private = [e for e in events if not e.public]
    assert private and private[0].to == frozenset({"chile"})
    sec = st.secrets[0]
    assert sec.digest in public[0].text and sec.text not in public[0].text and sec.nonce not in public[0].text
    assert check_seal(sec.text, sec.nonce, sec.digest)
    assert sec.text not in "\n".join(ruleset().view(st, None).private_text + ruleset().view(st, "peru").private_text)
    assert any(sec.text in line for line in ruleset().view(st, "chile").private_text)
    with pytest.raises(IllegalOrder, match="already made"):
        say(st, "chile", "roll steam")


def test_steam_is_revealed_when_raised() -> None:
    st = new_game("s2")
    say(st, "chile", "roll steam")
    say(st, "chile", "Covadonga at 1103 3")
    say(st, "chile", "done")
    say(st, "peru", "Independencia at 1312 6")
    say(st, "peru", "done")
    dice = Dice(Rng(seed_from_number(9)))
    events: list[Event] = []
    sequence_3.begin_turn(st, dice, events, st.steam_turns + 1)
    assert st.secrets[0].revealed
    assert any("Secret roll revealed" in e.text and st.secrets[0].nonce in e.text for e in events)


def test_covadonga_one_mp_while_raising_steam_and_damage_makes_it_drift() -> None:
    st = new_game("s2")
    st.steam_turns, st.turn = 2, 1
    c = unit(st, "covadonga")
    assert damage_7.eff_mp(st, c) == 1
    c.hits = 1  # half PF 2 rounded up: "drops MP by one"
    assert damage_7.eff_mp(st, c) == 0
    st.turn = 3
    c.hits = 0
    assert damage_7.eff_mp(st, c) == 2


def test_scenario_three_batteries_mines_and_cable_on_a_ship() -> None:
    st = new_game("s3")
    with pytest.raises(IllegalOrder, match="Roll for the number of mines first"):
        say(st, "chile", "mine 1605")
    say(st, "chile", "roll batteries", seed=1)
    say(st, "chile", "roll mines", seed=1)
    n_bat, n_mine = st.batteries_to_place, st.mines_to_place
    assert 0 <= n_bat <= 5 and 3 <= n_mine <= 8
    with pytest.raises(IllegalOrder, match="more than 6 hexes"):
        say(st, "chile", "mine 2605")
    with pytest.raises(IllegalOrder, match="land"):
        say(st, "chile", "mine 1206")
    say(st, "chile", "mine 1605")
    with pytest.raises(IllegalOrder, match="taken"):
        say(st, "chile", "mine 1605")
    if n_bat:
        with pytest.raises(IllegalOrder, match="land or town"):
            say(st, "chile", "battery 1605")
        with pytest.raises(IllegalOrder, match="more than 4 hexes"):
            say(st, "chile", "battery 1101")
        say(st, "chile", "battery 1306")
        assert any(u.battery for u in st.units)


def test_cable_buoy_goes_with_a_peruvian_ship_in_scenario_three() -> None:
    st = new_game("s3")
    st.setup_side = "peru"
    with pytest.raises(IllegalOrder, match="Set up"):
        say(st, "peru", "cable Huascar")
    say(st, "peru", "Huascar at 2004 3")
    say(st, "peru", "cable Huascar")
    assert st.cable == (unit(st, "huascar").q, unit(st, "huascar").r) and st.cable_ship == "huascar"


def test_cable_buoy_far_from_town_in_scenario_four() -> None:
    st = new_game("s4")
    st.setup_side = "peru"
    with pytest.raises(IllegalOrder, match="closer than 7"):
        say(st, "peru", "cable 1605")
    say(st, "peru", "cable 2507")


def test_union_arrives_on_its_secret_turn_and_is_revealed() -> None:
    st = new_game("s4")
    say(st, "chile", "roll batteries")
    say(st, "chile", "roll mines")
    for lab in ("1605", "1604", "1606", "1607", "1603", "1602", "1703", "1704")[: st.mines_to_place]:
        say(st, "chile", f"mine {lab}")
    for lab in ("1305", "1306", "1307")[: st.batteries_to_place]:
        say(st, "chile", f"battery {lab}")
    say(st, "chile", "Abtao at 1504 3")
    say(st, "chile", "Magallanes at 1509 3")
    say(st, "chile", "done")
    say(st, "peru", "roll arrival")
    say(st, "peru", "roll cable")
    arrival = scene.secret_value(st, "arrival")
    assert unit(st, "union").arrive_turn == arrival
    say(st, "peru", "Huascar at 2803 1")
    say(st, "peru", "cable 2507")
    events = say(st, "peru", "done")
    if arrival == 1:
        assert st.phase == "arrive" and any("Secret roll revealed" in e.text for e in events)
        with pytest.raises(IllegalOrder, match="not one of the listed hexes"):
            say(st, "peru", "Union at 2808 1")
        say(st, "peru", "Union at 2906 4")
        say(st, "peru", "done")
        assert st.phase in ("activations", "joker", "over")
    else:
        assert not next(s for s in st.secrets if s.key == "arrival").revealed


def test_scenario_five_group_rule() -> None:
    st = new_game("s5")
    say(st, "chile", "Cochrane at 1712 2")
    with pytest.raises(IllegalOrder, match="within 2 hexes of Almirante Cochrane"):
        say(st, "chile", "Loa at 2112 2")
    say(st, "chile", "Loa at 1812 3")


def test_independencia_variant_damage_roll() -> None:
    st = new_game("s5", {"independencia": "survives"})
    st.setup_side = "peru"
    say(st, "peru", "roll damage")
    assert unit(st, "independencia").hits in (2, 3)
    assert new_game("s5").units and not any(u.id == "independencia" for u in new_game("s5").units)


def test_bad_options_and_names() -> None:
    rs = ruleset()
    with pytest.raises(InvalidSyntax):
        rs.setup("s1", {"fow": "maybe"}, Rng(seed_from_number(1)))
    with pytest.raises(UnknownName, match="no option `colour`"):
        rs.setup("s1", {"colour": "red"}, Rng(seed_from_number(1)))
    with pytest.raises(InvalidSyntax, match="from 1 to 99"):
        rs.setup("s1", {"turns": "0"}, Rng(seed_from_number(1)))
    assert rs.setup("s1", {"FOW": "On"}, Rng(seed_from_number(1))).options == {"fow": "on"}
    st = new_game("s5")
    with pytest.raises(UnknownName):
        rs.parse_order(st, "chile", "Bismarck move F")
    assert rs.parse_order(st, "chile", "ohig at 1712 2").text == "O'Higgins at 1712 2"
    placed = rs.parse_order(st, "chile", "Matias Cousino at 2801 3")
    assert isinstance(placed, Place) and placed.unit.id == "matias_cousino" and placed.facing == 3


def test_orders_that_roll_or_draw_are_marked_as_revealing() -> None:
    st = new_game("s2")
    events = say(st, "chile", "roll steam")
    assert all(e.reveals for e in events)
    events = say(st, "chile", "Covadonga at 1103 3")
    assert not any(e.reveals for e in events)


def test_draw_is_explained() -> None:
    with pytest.raises(InvalidSyntax, match="draws the activation cards itself"):
        ruleset().parse_order(new_game("s1"), "peru", "draw")
