"""Book ch. 6, Creating a Squadron (6.1 game sizes, 6.2 factions & ships, 6.3 flagships & admirals,
6.4 initiative hand) and ch. 7, Starting a Game (its drawing of the decks, then steps 1-6), through
``setup`` options and the set-up orders."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from games.core.rng import Rng
from games.oak_and_iron.measure import base_distance
from games.oak_and_iron.state import State
from tests.book.oak_and_iron.book import fails, rng, ruleset


@pytest.mark.parametrize(
    ("size", "options", "fragment"),
    [
        ("patrol", {"fleet_a": "galleon/galleon/galleon"}, "points"),
        ("patrol", {"fleet_a": "sloop"}, "2 to 4"),
        ("patrol", {"fleet_a": "sloop/sloop/sloop/sloop/sloop"}, "2 to 4"),
        ("patrol", {"fleet_a": "fourth-rate/sloop"}, "Ships of the Line"),
        ("skirmish", {"fleet_a": "sloop/sloop/sloop"}, "4 to 8"),
        ("engagement", {"fleet_a": "sloop/sloop/sloop/sloop"}, "5 to 10"),
    ],
)
def test_game_sizes_limit_ships_points_and_ships_of_the_line(size: str, options: dict[str, str], fragment: str) -> None:
    """4.1 SQUADRON: "A Squadron is a group of two or more ships, including a Flagship, belonging to a
    player." 6.1 GAME SIZES: PATROL "Squadrons consist of 2 to 4 ships and each player has a limit of 50 points
    ... Ships of the Line are not allowed"; SKIRMISH "4 to 8 ships ... 100 points"; ENGAGEMENT "5 to 10
    ships ... 200 points ... played on a table of at least 3'x4'"."""
    with pytest.raises(GameError) as err:
        ruleset().setup(size, options, rng())
    assert fragment in err.value.text
    assert ruleset().setup("engagement", {}, rng()).table_width >= 48.0


def test_cards_must_carry_the_factions_symbol_or_none() -> None:
    """6.2 FACTIONS & SHIPS: "All other cards chosen for this force must include the symbol of the chosen
    nationality card or have no symbol"; "Each ship is limited to a 1 commander card and up to 2 upgrade
    cards." (boarding-pikes carries the Brethren symbol, a house card.)"""
    with pytest.raises(GameError):
        ruleset().setup("patrol", {"fleet_a": "petite-fregate/sloop+boarding-pikes", "faction_a": "royal-navy"}, rng())
    ruleset().setup("patrol", {"fleet_a": "petite-fregate/sloop+boarding-pikes", "faction_a": "brethren"}, rng())
    with pytest.raises(GameError):
        ruleset().setup("skirmish", {"fleet_a": "galleon+carronades+marines+sweeps/sloop/sloop/sloop"}, rng())


def test_one_flagship_and_one_admiral_whose_value_sizes_the_hand() -> None:
    """4.1 FLAGSHIP: "Each Squadron must have a Flagship. The Flagship is denoted by having an Admiral card
    assigned to it." 6.3 FLAGSHIPS & ADMIRALS: "Each Squadron must have 1 ship designated as its Flagship" ... "each
    squadron may only ever have 1". 6.4 INITIATIVE HAND: "Each player must choose a number of initiative
    cards equal to 5 plus their squadron's admiral value."""
    state = ruleset().setup("skirmish", {"admiral_a": "veteran"}, rng())
    for side in ("a", "b"):
        assert sum(s.flagship for s in state.ships if s.side == side) == 1
    assert len(state.side("a").hand) == 5 + state.side("a").admiral_value == 7
    assert len(state.side("b").hand) == 5


@pytest.mark.parametrize(
    ("hand", "fragment"),
    [
        ("down/careful-aim", "must have 5"),
        ("down/down/careful-aim/effective-fire/reload", "repeats a card title"),
    ],
)
def test_initiative_hand_limits(hand: str, fragment: str) -> None:
    """6.4 INITIATIVE HAND: "The initiative hand may not have more than 2 cards with the same initiative
    value, more than 1 of a card with the same title, and must have at least 3 cards that are not
    discarded after being played."""
    with pytest.raises(GameError) as err:
        ruleset().setup("patrol", {"hand_a": hand}, rng())
    assert fragment in err.value.text


def test_initiative_hand_needs_three_kept_cards() -> None:
    """6.4 INITIATIVE HAND: "must have at least 3 cards that are not discarded after being played"
    (Rolling Broadside, Adjust Position, Take Courage and Reload are discarded after play)."""
    with pytest.raises(GameError) as err:
        ruleset().setup("patrol", {"hand_a": "rolling-broadside/adjust-position/take-courage/reload/down"}, rng())
    assert "not discarded" in err.value.text


def _book(seed: int = 1) -> tuple[State, Rng, list[tuple[str, str, str]]]:
    """A Patrol game set up by the book (ch. 7) with the first legal order each time; returns the
    (step, seat, order) sequence."""
    rs, stream = ruleset(), rng(seed)
    state = rs.setup("patrol", {"start": "book", "admiral_a": "capable"}, stream)
    steps: list[tuple[str, str, str]] = []
    for _ in range(120):
        if state.phase != "setup":
            break
        assert state.setup is not None
        seat = rs.to_act(state)[0]
        o = rs.legal_orders(state, seat)[0]
        text = rs.format_order(o)
        if text.startswith("role"):
            o = rs.parse_order(state, seat, "role attacker")
            text = "role attacker"
        steps.append((state.setup.step, seat, text))
        rs.apply(state, seat, o, stream)
    return state, stream, steps


@pytest.mark.slow
def test_higher_admiral_chooses_and_the_attacker_drafts_first() -> None:
    """7 STARTING A GAME: "Draw an objective card and 3 cards from each of the following decks";
    "the player whose Flagship has the highest admiral value may choose to be the attacker or defender";
    "Starting with the attacker, players take turns selecting 1 card from each category."""
    state, _, steps = _book()
    assert steps[0] == ("role", "a", "role attacker")
    drafts = [seat for step, seat, _ in steps if step == "draft"]
    assert drafts == ["a", "b", "a", "b", "a", "b"]
    assert state.defender == "b"


@pytest.mark.slow
def test_terrain_steps_start_with_the_defender_and_keep_musket_shot_apart() -> None:
    """7 step 2 SELECT TERRAIN: "Starting with the defender, players then take turns adding Terrain pieces
    to the pool". 7 step 3 PLACE TERRAIN: "Starting with the defender ... may not be placed closer than
    Musket Shot to another Terrain piece". 7 step 1 PLACE OBJECTIVE TERRAIN: "The defender chooses the
    appropriate piece of Terrain and places it" (house: the table's centre, RULINGS.md)."""
    state, _, steps = _book()
    first = {}
    for step, seat, _ in steps:
        first.setdefault(step, seat)
    assert first["select"] == "b" and first["place"] == "b"
    from games.core.geometry import polygon_distance

    pieces = [p.points for p in state.terrain]
    for i, p in enumerate(pieces):
        for q in pieces[i + 1 :]:
            assert polygon_distance(p, q) >= 6.0 - 1e-6


@pytest.mark.slow
def test_adjust_terrain_only_in_the_own_zone_up_to_musket_shot() -> None:
    """7 step 4 ADJUST TERRAIN: "players may now take turns moving any Terrain piece placed completely
    within their deployment zone up to Musket Shot away from its current position"."""
    _, _, steps = _book()
    moves = [text for step, _, text in steps if step == "adjust" and text.startswith("terrain move")]
    assert all(len(t.split()) >= 5 for t in moves)


@pytest.mark.slow
def test_deploy_starts_with_the_defender_out_of_cannon_shot() -> None:
    """7 step 5 DEPLOY SQUADRONS: "Starting with the defender, each player must place their entire
    Squadron within their deployment zones. No player may place any of their ships within Cannon Shot of
    an opposing ship." 7 step 6 CHOOSE FIRST INITIATIVE CARD: "Each player selects an initiative card
    from their hand and places it face down."""
    state, _, steps = _book()
    deploys = [seat for step, seat, _ in steps if step == "deploy"]
    assert deploys[0] == "b"
    for a in state.ships:
        for b in state.ships:
            if a.side == "a" and b.side == "b":
                assert base_distance(a.base, b.base) > 12.0
    assert state.phase == "select" and sorted(ruleset().to_act(state)) == ["a", "b"]


@pytest.mark.slow
def test_a_ship_within_cannon_shot_of_an_enemy_is_refused() -> None:
    """7 DEPLOYMENT: "Regardless of deployment zone, no ship may ever be deployed within Cannon Shot of
    an opposing ship."""
    rs, stream = ruleset(), rng(1)
    state = rs.setup("patrol", {"start": "book", "admiral_a": "capable"}, stream)
    for _ in range(120):
        assert state.setup is not None
        if state.setup.step == "deploy" and rs.to_act(state) == ["a"]:
            break  # the defender (B) has deployed; the attacker deploys next
        seat = rs.to_act(state)[0]
        rs.apply(state, seat, rs.legal_orders(state, seat)[0], stream)
    legal = [rs.format_order(o) for o in rs.legal_orders(state, "a")]
    own = next(s for s in state.ships if not s.on_table and s.side == "a")
    x, y = (
        float(v) for v in next(t for t in legal if t.startswith(f"deploy {own.name} at")).split(" at ")[1].split()[:2]
    )
    enemy = next(s for s in state.ships if s.on_table and s.side == "b")
    enemy.x, enemy.y = x, y + 10.0  # a B ship stood 10" from that legal spot (a position set by hand)
    assert "Cannon Shot" in fails(state, "a", f"deploy {own.name} at {x} {y}", stream).text
