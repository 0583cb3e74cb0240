"""Issue 15 item 2: the full initiative card pool and the faction, upgrade and captain cards
(house contents, ``data/oak_and_iron``), with the hand and Squadron limits of ch. 6 (Creating a
Squadron) and the captain rules of 4.2 (Transfer Flag) and 4.3 (a struck helm)."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path

import pytest

from games.core.data import load
from games.core.errors import GameError
from games.oak_and_iron.data import captain_cards, factions, initiative_cards, ship_cards, upgrade_cards
from games.oak_and_iron.rules import attack_4_3 as attack
from games.oak_and_iron.rules import dice_2 as dice
from games.oak_and_iron.rules.squadron_6 import default_hand, squadron_points, validate_hand
from tests.oak_and_iron.helpers import order, rng, ruleset


def test_every_card_file_is_house_data() -> None:
    """The book prints no card contents beyond the quick-start names: each file says so."""
    for path in ("initiative.toml", "cards/factions.toml", "cards/upgrades.toml", "cards/captains.toml"):
        assert load(f"oak_and_iron/{path}").doc["source"] == "house", path


def test_the_pool_lets_every_admiral_build_a_hand_with_choices() -> None:
    """INITIATIVE HAND (6): 5 + admiral value cards (up to 8 for admiral value 3); the pool has more
    titles than any hand needs, at every value from 1 to 5, so choosing is real."""
    cards = initiative_cards()
    plain = [k for k, c in cards.items() if not c.faction]
    assert len(plain) > 5 + 3
    for value in range(1, 6):
        assert sum(1 for k in plain if cards[k].value == value) >= 3, value
    for admiral_value, faction in itertools.product(range(4), ["", *factions()]):
        hand = default_hand(admiral_value, [], faction)
        validate_hand(hand, admiral_value, "A", faction)


def test_three_cards_of_one_value_are_refused() -> None:
    """INITIATIVE HAND (6): "may not have more than 2 cards with the same initiative value"."""
    cards = initiative_cards()
    threes = [k for k, c in cards.items() if c.value == 3 and not c.faction][:3]
    rest = ["down", "careful-aim", "effective-fire"]
    assert len(threes) == 3
    with pytest.raises(GameError, match="3 cards of initiative value 3"):
        validate_hand([*threes, *rest], 1, "A")
    with pytest.raises(GameError, match="3 cards of initiative value 3"):
        ruleset().setup("patrol", {"admiral_a": "capable", "hand_a": "/".join([*threes, *rest])}, rng())


def test_a_card_with_another_nations_symbol_is_refused() -> None:
    """FACTIONS & SHIPS and INITIATIVE HAND (6): every card must carry the faction's symbol or none."""
    hand = ["down", "careful-aim", "effective-fire", "reload", "hearts-of-oak"]
    validate_hand(hand, 0, "A", "royal-navy")
    with pytest.raises(GameError, match="symbol of the Royal Navy; the Squadron has Armada"):
        validate_hand(hand, 0, "A", "armada")
    with pytest.raises(GameError, match="no faction card"):
        ruleset().setup("patrol", {"hand_a": "/".join(hand)}, rng())
    state = ruleset().setup("patrol", {"faction_a": "royal-navy", "hand_a": "/".join(hand)}, rng())
    assert "hearts-of-oak" in state.side("a").hand


def test_a_faction_changes_every_ship_and_the_fortune_points() -> None:
    """FACTIONS & SHIPS (6): the faction card's special rules apply to all of the Squadron's ships."""
    plain = ruleset().setup("patrol", {}, rng())
    state = ruleset().setup("patrol", {"faction_a": "marine-royale", "faction_b": "brethren"}, rng())
    for before, after in zip(plain.ships, state.ships, strict=True):
        if after.side == "a":
            assert after.crew == before.crew + 1
        else:
            assert "sweeps" in after.special and after.crew == before.crew
    assert state.side("b").fortune == plain.side("b").fortune + 1
    with pytest.raises(GameError, match="`vikings`"):
        ruleset().setup("patrol", {"faction_a": "vikings"}, rng())


def test_upgrade_and_captain_cards_cost_points_and_change_the_ship() -> None:
    """FACTIONS & SHIPS (6): upgrade and commander cards add their cost; each changes its ship."""
    state = ruleset().setup("patrol", {"fleet_a": "petite-fregate/sloop+carronades+marines+steady-captain"}, rng())
    sloop = next(s for s in state.ships if s.card == "sloop" and s.side == "a")
    card = ship_cards()["sloop"]
    assert sloop.broadside == card.broadside + 1 and sloop.crew == card.crew + 1 and sloop.skill == 1
    assert sloop.captain == "steady-captain" and sloop.upgrades == ["carronades", "marines"]
    assert "Carronades, Marines, captain Steady Captain" in "\n".join(ruleset().view(state, None).status)
    cost = squadron_points([("petite-fregate", []), ("sloop", ["carronades", "marines", "steady-captain"])], 0)
    extra = upgrade_cards()["carronades"].points + upgrade_cards()["marines"].points + captain_cards()["steady-captain"].points
    assert cost == ship_cards()["petite-fregate"].points + card.points + extra


@pytest.mark.parametrize(
    ("fleet", "options", "fragment"),
    [
        ("petite-fregate/sloop+carronades+marines+sweeps", {}, "at most 2"),
        ("petite-fregate/sloop+steady-captain+fighting-captain", {}, "1 commander card"),
        ("petite-fregate+steady-captain/sloop", {}, "takes no captain"),
        ("petite-fregate/sloop+post-captain", {}, "Royal Navy"),
        ("petite-fregate/sloop+boarding-pikes", {"faction_a": "armada"}, "Brethren of the Coast"),
        ("petite-fregate/sloop+carronades+carronades", {}, "twice"),
        ("petite-fregate/sloop+flags", {}, "No upgrade or captain called `flags`"),
    ],
)
def test_card_limits_are_refused_with_the_reason(fleet: str, options: dict[str, str], fragment: str) -> None:
    """FACTIONS & SHIPS (6): "Each ship is limited to a 1 commander card and up to 2 upgrade cards";
    the admiral card is the Flagship's commander; symbols must match the faction."""
    with pytest.raises(GameError) as err:
        ruleset().setup("patrol", {"fleet_a": fleet, **options}, rng())
    assert fragment in err.value.text


def test_a_captain_is_face_down_while_the_admiral_is_aboard() -> None:
    """4.2 TRANSFER FLAG: "If the target ship had a captain card, that card is turned facedown and
    ignored while the Admiral is present on that ship"."""
    rs = ruleset()
    stream = rng()
    state = rs.setup("patrol", {"fleet_b": "fluyt/corvette+master-and-commander"}, stream)
    fluyt = next(s for s in state.ships if s.side == "b" and s.flagship)
    corvette = next(s for s in state.ships if s.side == "b" and not s.flagship)
    assert corvette.skill == 2
    for seat, card in (("a", "Careful Aim"), ("b", "Effective Fire"), ("a", "Down!"), ("b", "Rolling Broadside")):
        order(state, seat, f"initiative {card}", stream)
    for ship in state.ships:
        ship.moved = ship.side == "a"
    fluyt.x, fluyt.y, fluyt.heading = 10.0, 20.0, 90.0
    corvette.x, corvette.y, corvette.heading = 10.0, 23.0, 90.0
    fluyt.sail = corvette.sail = "anchored"
    events = "\n".join(e.text for e in order(state, "b", f"{fluyt.name} crew flag {corvette.name}", stream))
    assert corvette.flagship and corvette.skill == 0 and corvette.captain == "master-and-commander"
    assert "captain (Master and Commander) is face down while the Admiral is aboard" in events


def test_a_struck_helm_may_remove_the_captain() -> None:
    """4.3 Critical Damage (two Helms): "if this ship has an admiral or captain card assigned to it,
    there is a chance they could be hit. Roll a dice" - a hit removes the card from the game."""
    lost = kept = 0
    for seed in range(1, 16):
        stream = rng(seed)
        state = ruleset().setup("patrol", {"fleet_a": "petite-fregate/sloop+steady-captain"}, stream)
        sloop = next(s for s in state.ships if s.captain)
        notes: list[str] = []
        face = dice.roll(copy.copy(stream), 1)[0]  # the Full Turn in open water rolls nothing first
        attack.apply_crew(state, stream, sloop, 2, "port", notes)
        assert f"officer check for Sloop's captain (Steady Captain): {face}" in "\n".join(notes)
        if face in ("Skull", "Helm"):
            lost += 1
            assert sloop.captain == "" and sloop.skill == 0
        else:
            kept += 1
            assert sloop.captain == "steady-captain" and sloop.skill == 1
    assert lost and kept


def test_an_owners_data_pack_replaces_the_house_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15: house values "replaceable by an owner's data pack": a pack's cards/factions.toml is
    read in place of the house file, and the cached cards are dropped when the packs change."""
    from games.core import data as core_data

    monkeypatch.delenv("WARGAME_DATA_PACKS", raising=False)
    monkeypatch.setattr(core_data, "_packs", None)  # restored by monkeypatch after the test
    folder = tmp_path / "oak_and_iron" / "cards"
    folder.mkdir(parents=True)
    (folder / "factions.toml").write_text(
        'source = "owner"\n[factions.royal-navy]\nname = "Royal Navy (printed)"\nsymbol = "Union Flag"\ntext = "Printed."\ncrew = 2\n'
        '[factions.marine-royale]\nname = "MR"\nsymbol = "F"\ntext = "-"\n[factions.armada]\nname = "A"\nsymbol = "C"\ntext = "-"\n'
        '[factions.brethren]\nname = "B"\nsymbol = "J"\ntext = "-"\n'
    )
    assert factions()["royal-navy"].name == "Royal Navy"
    core_data.set_data_packs([tmp_path])
    try:
        assert factions()["royal-navy"].name == "Royal Navy (printed)" and factions()["royal-navy"].crew == 2
        state = ruleset().setup("patrol", {"faction_a": "royal-navy"}, rng())
        plain = ruleset().setup("patrol", {}, rng())
        assert state.ships[0].crew == plain.ships[0].crew + 2
    finally:
        core_data.set_data_packs([])
    assert factions()["royal-navy"].name == "Royal Navy"
