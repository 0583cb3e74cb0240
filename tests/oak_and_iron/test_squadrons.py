"""Squadron building by points for Patrol, Skirmish and Engagement games, and initiative hands."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from games.oak_and_iron.data import initiative_cards, rules, ship_cards, upgrade_cost
from games.oak_and_iron.rules.squadron_6 import squadron_points, validate_hand
from tests.oak_and_iron.helpers import rng, ruleset


def test_default_squadrons_fit_every_game_size() -> None:
    for size in ("patrol", "skirmish", "engagement"):
        state = ruleset().setup(size, {}, rng())
        limits = rules().size(size)
        for side in ("a", "b"):
            ships = [s for s in state.ships if s.side == side]
            assert limits.min_ships <= len(ships) <= limits.max_ships
            assert sum(1 for s in ships if s.flagship) == 1
            assert all(s.x - s.length / 2 >= 0 and s.x + s.length / 2 <= state.table_width for s in ships)
        assert state.table_width == limits.table_width


def test_upgrades_cost_points_and_change_the_ship() -> None:
    state = ruleset().setup("patrol", {"fleet_a": "petite-fregate+skill1+stout/sloop+crew"}, rng())
    frigate = next(s for s in state.ships if s.card == "petite-fregate")
    sloop = next(s for s in state.ships if s.card == "sloop")
    assert frigate.skill == 1 and frigate.fortitude == ship_cards()["petite-fregate"].fortitude + 1
    assert sloop.crew == ship_cards()["sloop"].crew + 1
    assert frigate.flagship
    cost = squadron_points([("petite-fregate", ["skill1", "stout"]), ("sloop", ["crew"])], 0)
    card_f, card_s = ship_cards()["petite-fregate"], ship_cards()["sloop"]
    assert cost == card_f.points + upgrade_cost(card_f, "skill1") + upgrade_cost(card_f, "stout") + card_s.points + upgrade_cost(card_s, "crew")


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"fleet_a": "galleon/galleon/galleon"}, "points"),
        ({"fleet_a": "sloop"}, "2 to 4"),
        ({"fleet_a": "fourth-rate/sloop"}, "Ships of the Line are not allowed"),
        ({"fleet_a": "sloop+wings/sloop"}, "`wings`"),
        ({"fleet_a": "dreadnought/sloop"}, "`dreadnought`"),
        ({"admiral_a": "nelson"}, "`nelson`"),
        ({"hand_a": "down/careful-aim"}, "must have 5"),
        ({"weather": "up"}, "`up`"),
    ],
)
def test_bad_squadrons_are_refused_with_the_reason(options: dict[str, str], fragment: str) -> None:
    with pytest.raises(GameError) as err:
        ruleset().setup("patrol", options, rng())
    assert fragment in err.value.text


def test_admirals_cost_points_and_enlarge_the_hand() -> None:
    state = ruleset().setup("skirmish", {"admiral_a": "veteran"}, rng())
    assert state.side("a").admiral_value == 2 and len(state.side("a").hand) == 7


def test_hand_rules() -> None:
    cards = initiative_cards()
    validate_hand(["down", "careful-aim", "rolling-broadside", "effective-fire", "adjust-position"], 0, "A")
    with pytest.raises(GameError, match="repeats a card title"):
        validate_hand(["down", "down", "careful-aim", "effective-fire", "reload"], 0, "A")
    with pytest.raises(GameError, match="not discarded"):
        discards = [k for k, c in cards.items() if c.discard]
        keep = [k for k, c in cards.items() if not c.discard][:2]
        validate_hand([*discards[:3], *keep], 0, "A")
    # the full pool prints some values on three or more cards, so the limit of 2 is a real one
    values = [c.value for c in cards.values()]
    assert any(values.count(v) > 2 for v in values)
