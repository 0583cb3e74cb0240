"""Book ch. 3, Quickstart Setup (3): the hands, ships, admirals and positions it names."""

from __future__ import annotations

from tests.book.oak_and_iron.book import order, rng, ruleset, texts


def test_quickstart_hands_ships_flagships_and_positions() -> None:
    """3 QUICKSTART: "Player A: Down!, Careful Aim, Rolling Broadside, Effective Fire, Adjust Position";
    "Player A: 1 Sloop, 1 Petite Fregate / Player B: 1 Corvette, 1 Fluyt"; "Assign an "Untested"
    Admiral card to the Petite Fregate and Fluyt"; "Each player's Flagship must be Pistol Shot
    distance directly downwind of the player's other ship"; "Each Squadron must be just out of Cannon
    Shot of the other Squadron"; "the table edge to each ship's stern is the Windward Edge". 4.2 DOWNWIND:
    "A turn or move described as being Downwind indicates that it will cause the ship's Bow to move
    farther away from the Weather Edge" (the Flagships lie farther from the weather edge)."""
    stream = rng(1)
    state = ruleset().setup("quickstart", {}, stream)
    a, b = state.side("a"), state.side("b")
    assert a.hand == ["down", "careful-aim", "rolling-broadside", "effective-fire", "adjust-position"]
    assert b.hand == ["fire-as-she-bears", "take-courage", "fleet-manuever", "reload", "favorable-wind"]
    assert a.admiral == b.admiral == "untested" and a.admiral_value == b.admiral_value == 0
    assert {(s.id, s.side, s.flagship) for s in state.ships} == {
        ("sloop", "a", False),
        ("petite-fregate", "a", True),
        ("corvette", "b", False),
        ("fluyt", "b", True),
    }
    state.phase = "movement"  # measuring is allowed at any time; the ruler asks nothing of the phase
    assert '3.00" (Pistol Shot)' in texts(order(state, "a", "measure Sloop Petite Fregate", stream))
    assert '3.00" (Pistol Shot)' in texts(order(state, "b", "measure Corvette Fluyt", stream))
    gap = texts(order(state, "a", "measure Sloop Corvette", stream))
    assert "beyond Cannon Shot" in gap and '12.35"' in gap
    assert state.weather_edge == "north"
    for ship in state.ships:
        assert ship.heading == 180.0  # sterns to the north (weather) edge, flagships downwind (south)
    assert state.ship("petite-fregate").y > state.ship("sloop").y and state.ship("fluyt").y > state.ship("corvette").y


def test_quickstart_plays_without_advanced_cards() -> None:
    """3 QUICKSTART: "The quickstart game is designed to let players become comfortable with basic
    concepts before using more advanced options, such as faction, upgrade, or event cards." (A
    faction option is refused; see RULINGS.md for the event card kept on a tie.)"""
    from games.core.errors import GameError

    try:
        ruleset().setup("quickstart", {"faction_a": "royal-navy"}, rng(1))
    except GameError as exc:
        assert "ch. 3" in str(exc) or "quick" in str(exc).lower()
    else:
        raise AssertionError("a faction card was accepted in the quick start")
