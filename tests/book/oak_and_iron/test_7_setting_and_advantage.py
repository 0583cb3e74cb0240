"""Book ch. 7, Starting a Game: the SETTING card's terrain allowance (with step 2, Select Terrain)
and the ADVANTAGE & CONDITIONS cards (with the choice of attacker), through ``setup`` with
``start=book`` and the set-up orders. The cards are house cards (data/oak_and_iron/cards/scenario.toml):
the book names the decks but prints none, so the allowance is read from that file."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from games.core.rng import Rng
from games.oak_and_iron.state import State
from tests.book.oak_and_iron.book import fails, order, rng, ruleset

CARDS = tomllib.loads((Path(__file__).parents[3] / "data/oak_and_iron/cards/scenario.toml").read_text())
KINDS = ("rock", "island", "shoal", "fog")


def drafted(seed: int, wanted: dict[str, list[str]], options: dict[str, str] | None = None) -> tuple[State, Rng]:
    """A Patrol game set up by the book to the end of the draft: the first legal order each time,
    but each seat drafts the cards ``wanted`` names when they are on offer (which they must be)."""
    rs, stream = ruleset(), rng(seed)
    state = rs.setup("patrol", {"start": "book", **(options or {})}, stream)
    for _ in range(40):
        assert state.setup is not None
        if state.setup.step not in ("role", "draft"):
            return state, stream
        seat = rs.to_act(state)[0]
        legal = [rs.format_order(o) for o in rs.legal_orders(state, seat)]
        text = next((f"draft {c}" for c in wanted.get(seat, []) if f"draft {c}" in legal), legal[0])
        order(state, seat, text, stream)
    raise AssertionError("the draft never ended")


def finish(state: State, stream: Rng) -> None:
    """The rest of the set-up with the first legal order each time."""
    rs = ruleset()
    for _ in range(120):
        if state.phase != "setup":
            return
        seat = rs.to_act(state)[0]
        rs.apply(state, seat, rs.legal_orders(state, seat)[0], stream)
    raise AssertionError("the set-up never ended")


def setting_of(state: State, seat: str) -> dict[str, int]:
    assert state.setup is not None
    card = next(c for c in state.setup.picks[seat] if c in CARDS["settings"])
    return {k: int(CARDS["settings"][card].get(k, 0)) for k in KINDS}


WANTED = {"a": ["Coastal Waters", "Luck of the Sea"], "b": ["Open Sea", "Extra Powder"]}


@pytest.mark.slow
def test_each_players_setting_card_decides_the_terrain_they_may_add() -> None:
    """7 SETTING: "The setting cards decide how many Terrain pieces are added to the pool." 7 step 2
    SELECT TERRAIN: "Starting with the defender, players then take turns adding Terrain pieces to the
    pool from those available. The amount and type of Terrain each player may choose is determined by
    their Setting card." (A holds Coastal Waters: 1 island, 1 shoal, 1 fog; B Open Sea: 1 fog, 1 rock.)"""
    state, stream = drafted(1, WANTED)
    assert state.setup is not None and state.setup.step == "select"
    allowed = {seat: setting_of(state, seat) for seat in ("a", "b")}
    assert allowed["a"] == {"rock": 0, "island": 1, "shoal": 1, "fog": 1}
    assert allowed["b"] == {"rock": 1, "island": 0, "shoal": 0, "fog": 1}
    rs = ruleset()
    added: dict[str, list[str]] = {"a": [], "b": []}
    for _ in range(20):
        if state.setup.step != "select":
            break
        seat = rs.to_act(state)[0]
        for kind in KINDS:  # a kind the card does not give, or one already used up, is refused
            if allowed[seat][kind] == added[seat].count(kind):
                assert "setting card allows no more" in fails(state, seat, f"terrain add {kind}", stream).text
        kind = next(k for k in KINDS if allowed[seat][k] > added[seat].count(k))
        order(state, seat, f"terrain add {kind}", stream)
        added[seat].append(kind)
    assert state.setup.step == "place"
    for seat in ("a", "b"):
        assert sorted(added[seat]) == sorted(k for k, n in allowed[seat].items() for _ in range(n))
    assert sorted(state.setup.pool) == sorted(added["a"] + added["b"])


def test_equal_admirals_roll_a_challenge_test_whose_winner_chooses() -> None:
    """7 ADVANTAGE & CONDITIONS: "After the cards are drawn, the player whose Flagship has the highest
    admiral value may choose to be the attacker or defender. If both Flagships have the same admiral
    value, the two Flagships will roll a Challenge Test. The winner may then choose to be the attacker
    or defender." (Both Patrol admirals are Untested by default.)"""
    rs = ruleset()
    winners = set()
    for seed in range(1, 7):
        state = rs.setup("patrol", {"start": "book"}, rng(seed))
        assert state.setup is not None and state.setup.step == "role"
        opening = "\n".join(state.setup.opening)
        assert "Challenge Test" in opening
        winner = "a" if "Player A wins" in opening else "b"
        assert f"Player {winner.upper()} wins" in opening
        assert rs.to_act(state) == [winner]
        winners.add(winner)
    state = rs.setup("patrol", {"start": "book", "admiral_b": "capable"}, rng(1))
    assert state.setup is not None and "Challenge Test" not in "\n".join(state.setup.opening)
    assert rs.to_act(state) == ["b"]  # the higher admiral value chooses without a roll
    assert winners == {"a", "b"}


@pytest.mark.slow
def test_advantage_cards_help_their_holder_and_the_rest_are_discarded() -> None:
    """7 ADVANTAGE & CONDITIONS: "These cards give players unique advantages that can assist with their
    strategic planning." 7 STARTING A GAME: "Once each player has a card from each category, the
    remaining cards are discarded." (House cards: A's Luck of the Sea gives 1 more Fortune Point, B's
    Extra Powder every ship Broadside +1; RULINGS.md: applied once both Squadrons are deployed.)"""
    state, stream = drafted(1, WANTED)
    assert state.setup is not None and state.setup.offers == []
    assert "luck-of-the-sea" in state.setup.picks["a"] and "extra-powder" in state.setup.picks["b"]
    broadside = {s.id: s.broadside for s in state.ships}
    fortune = {s.id: s.fortune for s in state.sides}
    finish(state, stream)
    assert state.side("a").fortune == fortune["a"] + CARDS["advantages"]["luck-of-the-sea"]["fortune"]
    assert state.side("b").fortune == fortune["b"]
    for ship in state.ships:
        assert ship.broadside == broadside[ship.id] + (1 if ship.side == "b" else 0), ship.id
