"""Book ch. 4, The Attack Phase (4.3): FULL TURN, as a struck helm (two Helm criticals) calls for it,
through order text. Seeds are found by looking ahead in the game's stream (``dice_ahead``): the
broadside's dice, then one critical die for each Skull, then the officer's die."""

from __future__ import annotations

import pytest

from games.core.rng import Rng
from games.oak_and_iron.state import ShipState, State
from tests.book.oak_and_iron.book import dice_ahead, order, place, texts
from tests.book.oak_and_iron.test_4_3_attack import duel

pytestmark = pytest.mark.slow  # each test searches hundreds of seeded duels: left out of tasks.py test --fast
TURN = 45.0  # the movement tool's angled edge (house, rules.toml turn_angle; help: "45 degrees")


def helm_struck(target: str, seeds: range = range(1, 400)) -> list[tuple[State, Rng, ShipState, list[str]]]:
    """Duels where the Corvette's starboard broadside on ``target`` (5" abeam, heading north) rolls
    two or more Helm on its critical dice; each with the dice after the broadside (criticals, then
    the officer's die)."""
    found = []
    for seed in seeds:
        state, stream, corvette, _ = duel(seed, gap=5.0)
        corvette.skill = 0  # no re-roll between the look-ahead and the roll
        ship = state.ship(target)
        if target != "sloop":
            place(state, "sloop", 2.0, 2.0, 0.0)
            place(state, target, 15.0 + corvette.beam / 2 + 5.0 + ship.beam / 2, 18.0, 0.0)
        skulls = dice_ahead(stream, corvette.broadside).count("Skull")
        after = dice_ahead(stream, corvette.broadside + skulls + 1)[corvette.broadside :]
        if after[:skulls].count("Helm") >= 2:
            found.append((state, stream, ship, after[skulls:]))
    assert len(found) >= 2, "fewer than two struck helms in the seeds"
    return found


def test_a_struck_helm_makes_a_full_turn_the_way_the_attacker_names() -> None:
    """4.3 FULL TURN: "If a rule calls for a ship to make a Full Turn, the ship must pivot all the way
    until its edge lays flat against the movement tool's angled edge." 4.3 step 5: "If two or more
    [Helm] results are rolled, the ship's helm has been struck! The target ship must make a Full Turn
    using the speed 2 tool in the direction chosen by the opposing player." and "If any [Helm] results
    are rolled, the ship takes an additional point of Fatigue." (A pivot only: no forward move, RULINGS.md.)"""
    for (state, stream, sloop, _), side, heading in zip(
        helm_struck("sloop")[:2], ("starboard", "port"), (TURN, 360.0 - TURN), strict=True
    ):
        x, y = sloop.x, sloop.y
        events = texts(order(state, "b", f"Corvette broadside starboard Sloop helm-{side}", stream))
        assert f"helm is struck: a Full Turn to {side}" in events
        assert sloop.heading == heading  # all the way round to the tool's edge, not part of it
        assert sloop.fatigue == 2  # one for the hits, one more for the Helm
        assert abs(sloop.x - x) < 0.5 and abs(sloop.y - y) < 0.5  # pivoted in place


def test_a_full_turn_that_collides_is_resolved_at_speed_two() -> None:
    """4.3 step 5: "If this move causes a Collision, it is resolved as if the ship moved at speed 2."
    5.1 COLLISIONS: "the ship that caused the collision rolls a number of dice equal to its current
    speed rating". (The Fluyt stands off the Sloop's starboard bow, inside the pivot's sweep.)"""
    state, stream, sloop, _ = helm_struck("sloop")[0]
    fluyt = state.ship("fluyt")
    place(state, "fluyt", sloop.x + sloop.beam / 2 + fluyt.beam / 2 + 0.3, sloop.y - sloop.length / 2 - 0.5, 0.0)
    events = texts(order(state, "b", "Corvette broadside starboard Sloop helm-starboard", stream))
    assert "Collision with Fluyt: 2 dice" in events
    assert 0.0 < sloop.heading < TURN  # stopped on contact, short of the full turn


def test_a_struck_helm_on_the_flagship_rolls_for_the_admiral() -> None:
    """4.3 step 5: "Additionally, if this ship has an admiral or captain card assigned to it, there is a
    chance they could be hit. Roll a dice. If a [Skull] or [Helm] result is rolled, the captain or
    admiral card assigned to that ship is removed from the game." (The glyphs are lost in the text;
    Skull or Helm is the ruling in RULINGS.md. The Petite Fregate is A's Flagship.)"""
    outcomes = set()
    for state, stream, ship, after in helm_struck("petite-fregate", range(1, 320)):
        assert ship.flagship
        events = texts(order(state, "b", "Corvette broadside starboard Petite Fregate", stream))
        assert f"officer check for the Admiral: {after[0]}" in events
        lost = after[0] in ("Skull", "Helm")
        assert ("admiral (Untested) is lost" in events) == lost
        outcomes.add(lost)
    assert outcomes == {True, False}
