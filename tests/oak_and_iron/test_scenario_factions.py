"""Issue 15 item 2: faction, upgrade and captain cards (ch. 6) in every scenario the book allows.
The reef (a house scenario, ``cards = true``) takes them on its own ships within a Patrol game's
points; the quick start refuses them, citing ch. 3 ("before using more advanced options, such as
faction, upgrade, or event cards")."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from games.oak_and_iron.data import initiative_cards
from games.oak_and_iron.rules.squadron_6 import validate_hand
from tests.oak_and_iron.helpers import order, rng, ruleset
from tests.oak_and_iron.test_playouts import random_game, replay

REEF_CARDS = {
    "faction_a": "brethren",
    "fleet_a": "petite-fregate+skill1/sloop+carronades+steady-captain",
    "admiral_b": "capable",
    "faction_b": "royal-navy",
}


def test_the_reef_takes_faction_upgrade_and_captain_cards_and_an_admiral() -> None:
    """FACTIONS & SHIPS (6): the faction's rule on every ship of the Squadron (house Brethren: +1
    Fortune Point and Sweeps; Royal Navy: Skill 1), a ship's upgrade option and upgrade card, a
    captain on a ship other than the Flagship; INITIATIVE HAND: 5 + admiral value cards."""
    plain = ruleset().setup("reef", {}, rng())
    state = ruleset().setup("reef", REEF_CARDS, rng())
    a, b = state.side("a"), state.side("b")
    assert (a.fortune, b.fortune) == (plain.side("a").fortune + 1, plain.side("b").fortune)
    assert all("sweeps" in s.special for s in state.ships if s.side == "a")
    assert all(s.skill >= 1 for s in state.ships if s.side == "b")
    frigate, sloop = state.ship("petite-fregate"), state.ship("sloop")
    assert frigate.upgrades == ["skill1"] and frigate.skill == 1 and frigate.flagship
    assert sloop.upgrades == ["carronades"] and sloop.captain == "steady-captain" and sloop.skill == 1
    assert sloop.broadside != plain.ship("sloop").broadside or sloop.special != plain.ship("sloop").special
    assert b.admiral_name == "Capable" and len(b.hand) == 6
    assert b.hand[:5] == plain.side("b").hand  # the scenario's hand first, then a legal sixth card
    validate_hand(b.hand, 1, "B", "royal-navy")
    assert [s.x for s in state.ships] == [s.x for s in plain.ships]  # the same ships where the scenario puts them


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"fleet_a": "sloop/petite-fregate"}, "petite-fregate/sloop (Flagship first)"),
        ({"fleet_a": "petite-fregate/sloop/sloop"}, "not change them"),
        ({"fleet_a": "petite-fregate+steady-captain/sloop"}, "takes no captain"),
        ({"admiral_a": "renowned", "fleet_a": "petite-fregate+skill2+reinforced-hull+marines/sloop+skill2+marines+master-and-commander"},
         "allows 50"),
        ({"faction_a": "spain"}, "No faction called `spain`"),
        ({"hand_a": "Careful Aim"}, "must have 5"),
    ],
)
def test_bad_cards_for_the_reef_are_refused_with_the_reason(options: dict[str, str], fragment: str) -> None:
    with pytest.raises(GameError) as err:
        ruleset().setup("reef", options, rng())
    assert fragment in str(err.value)


@pytest.mark.parametrize("option", ["faction_a=armada", "fleet_b=fluyt+skill1/corvette", "hand_a=down", "admiral_b=veteran"])
def test_the_quick_start_refuses_the_card_game_citing_chapter_3(option: str) -> None:
    key, value = option.split("=")
    with pytest.raises(GameError) as err:
        ruleset().setup("quickstart", {key: value}, rng())
    text = str(err.value)
    assert "book ch. 3" in text and "such as faction, upgrade, or event cards" in text and f"`{option}`" in text
    assert "reef" in text  # where the cards can be played


def test_the_quick_start_still_reads_the_admiral_it_names() -> None:
    """Games stored when admiral_a defaulted to untested still set up."""
    state = ruleset().setup("quickstart", {"admiral_a": "untested", "admiral_b": "untested"}, rng())
    assert state.side("a").admiral_name == "Untested"


def test_the_faction_stays_on_the_ships_when_the_flag_moves() -> None:
    """Values are recomputed when the Admiral moves (a captain turns face down): the faction stays."""
    state = ruleset().setup("reef", REEF_CARDS, rng())
    stream = rng(2)
    for card in ("Careful Aim", "Fleet Manuever", "Down!", "Fire as She Bears"):
        seat = ruleset().to_act(state)[0]
        own = [initiative_cards()[k].name for k in state.side(seat).hand]
        order(state, seat, f"initiative {card if card in own else own[0]}", stream)
    frigate, sloop = state.ship("petite-fregate"), state.ship("sloop")
    sloop.x, sloop.y = frigate.x, frigate.y - 3.0
    while ruleset().to_act(state)[0] != "a":
        seat = ruleset().to_act(state)[0]
        mover = next(s for s in state.ships if s.controller == seat and not s.moved)
        order(state, seat, f"{mover.name} done", stream) if state.activation.ship else order(state, seat, f"{mover.name} move", stream)
    order(state, "a", "Petite Fregate move", stream)
    order(state, "a", "Petite Fregate crew flag Sloop", stream)
    assert sloop.flagship and "sweeps" in sloop.special and "sweeps" in frigate.special


@pytest.mark.slow
def test_a_reef_with_cards_plays_to_the_end_and_replays() -> None:
    state, log = random_game("reef", 3, 4, REEF_CARDS)
    assert ruleset().outcome(state) is not None
    assert replay("reef", 3, log, REEF_CARDS) == state
