"""Book ch. 5, Additional Rules (5.1-5.9): collisions, the table edge, Fortune Points, events,
Formation, raking, rigging and crew targeting, terrain and weather, through order text."""

from __future__ import annotations

import math

from games.oak_and_iron.measure import base_distance
from tests.book.oak_and_iron.book import (
    anchor_others,
    begin,
    dice_ahead,
    fails,
    order,
    place,
    rng,
    ruleset,
    started,
    texts,
)
from tests.book.oak_and_iron.test_4_3_attack import duel
from tests.oak_and_iron.helpers import add_terrain


def test_ship_collision_stops_rolls_speed_dice_damages_entangles_or_pushes() -> None:
    """5.1 COLLISIONS: "the ship being moved ends its movement immediately when its base touches the
    object"; "the ship that caused the collision rolls a number of dice equal to its current speed
    rating. If one or more [Cannonball] result is rolled, the ship that caused the collision takes a
    point of damage. If at least one [Sail] is rolled ... They are now Entangled" ... "If the ships did
    not become Entangled, the ship that was struck is then moved Yard Arm distance Directly Away"."""
    for seed in range(1, 10):
        state, stream = started(seed)
        anchor_others(state, "corvette", "sloop")
        place(state, "corvette", 20.0, 8.0, 180.0)
        place(state, "sloop", 20.0, 12.0, 90.0)
        faces = dice_ahead(stream, 4)
        events = texts(order(state, "b", "Corvette move", stream))
        corvette, sloop = state.ship("corvette"), state.ship("sloop")
        assert "4 dice" in events
        assert corvette.damage == (1 if "Cannonball" in faces else 0)
        if "Sail" in faces:
            assert corvette.entangled == ["sloop"]
        else:
            assert math.isclose(base_distance(corvette.base, sloop.base), 1.0, abs_tol=1e-6)


def test_rock_collision_damages_grounds_and_anchors() -> None:
    """5.1 COLLISIONS: "If colliding with Islands, Rocks, or Landmasses, the ship receives a point of
    damage, an Aground token, and has its Sail Setting reduced to Anchored." 5.9 ROCKS: "A ship may not
    move through this type of Terrain"."""
    state, stream = started()
    anchor_others(state, "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    add_terrain(state, "rock", [(19.0, 11.0), (21.0, 11.0), (21.0, 12.0), (19.0, 12.0)], "Rocks")
    order(state, "b", "Corvette move", stream)
    corvette = state.ship("corvette")
    assert corvette.damage == 1 and corvette.aground and corvette.sail == "anchored"
    assert corvette.y + corvette.length / 2 <= 11.0 + 1e-6


def test_a_ship_ending_partly_off_the_table_is_removed() -> None:
    """5.2 MOVING OFF THE TABLE: "If a ship ends its move with part of its base off the table, it has
    drifted too far from the engagement and is removed from the game."""
    state, stream = started()
    anchor_others(state, "corvette")
    place(state, "corvette", 20.0, state.table_height - 3.0, 180.0)
    order(state, "b", "Corvette move", stream)
    assert state.ship("corvette").status == "off" and not state.ship("corvette").on_table


def test_three_fortune_points_that_reroll_every_die_once() -> None:
    """5.3 FORTUNE POINTS: "At the start of any game, each player will receive 3 fortune points. Fortune
    Points can be used to re-roll any Skill Test or Attack roll" ... "all dice must be re-rolled"."""
    state = ruleset().setup("quickstart", {}, rng(1))
    assert [s.fortune for s in state.sides] == [3, 3]
    for seed in range(1, 40):
        state, stream = started(seed)
        corvette = state.ship("corvette")
        corvette.fatigue = 3  # two dice (and one from B's Fleet Manuever card)
        events = texts(order(state, "b", "Corvette seamanship adjust +1 fortune", stream))
        if "Fortune Point re-roll" in events:
            assert state.side("b").fortune == 2
            line = next(x for x in events.splitlines() if "Fortune Point re-roll" in x)
            first = line.split("dice):", 1)[1].split(";")[0]
            again = line.split("Fortune Point re-roll", 1)[1].split(":", 1)[1].split(";")[0]
            assert len(again.split(",")) == len(first.split(",")) >= 2  # every die again
            return
    raise AssertionError("no failed test to re-roll in 40 seeds")


def test_an_event_is_drawn_on_a_tie_and_not_returned_to_the_deck() -> None:
    """5.4 EVENTS: "If both players play an Initiative Card with the same Initiative value, immediately
    draw a card from the Event Card deck" ... "Once the effect of the card has run its course, it is
    discarded and not returned to the deck of event cards."""
    stream = rng(3)
    state = ruleset().setup("skirmish", {}, stream)
    deck = list(state.event_deck)
    order(state, "a", "initiative Careful Aim", stream)
    events = texts(order(state, "b", "initiative Careful Aim", stream))
    assert "an event card is drawn" in events
    drawn = [e for e in deck if e not in state.event_deck]
    assert len(drawn) == 1 and len(state.event_deck) == len(deck) - 1


def test_formation_adds_a_die_with_the_flagship_in_line_ahead() -> None:
    """5.5 FORMATION: "There must be two or more ships in formation and must include the Squadron's
    Flagship"; "Must be within Musket Shot of at least one other ship in this squadron and must be able
    to draw an unobstructed perpendicular line from anywhere on its Bow or Stern edge that enters the
    opposite edge of the ship immediately ahead or behind it"; "Every ship that is in Formation may add
    one dice to Broadside and Partial Fire Attacks."""
    state, stream, corvette, _ = duel(gap=5.0)
    place(state, "fluyt", 15.0, 18.0 + 2.6 + 1.5, 0.0)  # the Flagship 1.5" astern, in line ahead
    events = texts(order(state, "b", "Corvette broadside starboard Sloop", stream))
    assert f"{corvette.broadside + 1} dice:" in events
    state, stream, corvette, _ = duel(gap=5.0)
    place(state, "fluyt", 18.5, 18.0 + 2.6 + 1.5, 0.0)  # astern but out of line
    events = texts(order(state, "b", "Corvette broadside starboard Sloop", stream))
    assert f"{corvette.broadside} dice:" in events


def test_raking_through_the_stern_treats_fortitude_as_one_and_adds_fatigue() -> None:
    """5.6 RAKING SHOTS: "If the Attack causes any Fatigue, the target ship takes an additional point of
    Fatigue"; "If the Raking Shot is entering the target ship through the Stern, treat the target
    ship's Fortitude as 1 for this Attack." (The Petite Fregate, Fortitude 2, stern to the Corvette.)"""
    for seed in range(1, 30):
        state, stream, corvette, _ = duel(seed, gap=5.0)
        pf = state.ship("petite-fregate")
        place(state, "sloop", 2.0, 2.0, 0.0)
        place(state, "petite-fregate", 15.0 + corvette.beam / 2 + 5.0 + pf.length / 2, 18.0, 90.0)
        faces = dice_ahead(stream, corvette.broadside)
        hits = sum(f in ("Skull", "Cannonball", "Crossed Swords") for f in faces)
        if "Skull" in faces or not hits:
            continue
        events = texts(order(state, "b", "Corvette broadside starboard Petite Fregate", stream))
        assert "rak" in events.lower()
        assert pf.damage == hits and pf.fatigue == 2
        return
    raise AssertionError("no clean hit in 30 seeds")


def test_rigging_attack_halves_the_dice_and_never_fatigues_or_damages() -> None:
    """5.7 TARGETING RIGGING: "reduce the number of dice rolled during the Attack by half (round down, to
    a minimum of 1)"; "An Attack made against the rigging can never Fatigue or Damage a ship."""
    for seed in range(1, 8):
        state, stream, corvette, sloop = duel(seed, gap=5.0)
        events = texts(order(state, "b", "Corvette broadside starboard Sloop rigging", stream))
        assert f"{corvette.broadside // 2} dice:" in events
        assert sloop.damage == 0 and sloop.fatigue == 0


def test_crew_attack_only_within_pistol_shot_and_never_damages() -> None:
    """5.8 TARGETING CREW: "the ship's crew may be targeted by a Broadside or Partial Fire Attack with a
    maximum range of Pistol Shot"; "An Attack made against the crew can never Damage the ship."""
    state, stream, _, _ = duel(gap=4.0)
    assert "Pistol" in fails(state, "b", "Corvette broadside starboard Sloop crew", stream).text
    for seed in range(1, 8):
        state, stream, _, sloop = duel(seed, gap=2.0)
        order(state, "b", "Corvette broadside starboard Sloop crew", stream)
        assert sloop.damage == 0


def test_shoal_strikes_bottom_on_a_skull() -> None:
    """5.9 SHOALS: "Complete the move, then roll a number of dice equal to its printed Fortitude value. If
    any [Skull] results are rolled, the ship has struck the bottom and takes an Aground token." (The
    book's glyph here is the Skull alone; a Cannonball without a Skull does not ground the ship.)"""
    seen = set()
    for seed in range(1, 40):
        state, stream = started(seed)
        anchor_others(state, "corvette")
        place(state, "corvette", 20.0, 8.0, 180.0)
        add_terrain(state, "shoal", [(18.0, 10.0), (22.0, 10.0), (22.0, 10.5), (18.0, 10.5)], "Sandbar")
        events = texts(order(state, "b", "Corvette move", stream))
        line = next(x for x in events.splitlines() if "Crossed Sandbar" in x)
        faces = line.split("dice:", 1)[1]
        assert "2 dice" in line and state.ship("corvette").y == 12.0
        assert state.ship("corvette").aground == ("Skull" in faces), line
        seen.add(("Skull" in faces, "Cannonball" in faces))
    assert (False, True) in seen  # a Cannonball without a Skull was rolled and did not ground her


def test_fog_counts_one_band_farther() -> None:
    """5.9 FOG BANK: "Ships shooting into or through a fog bank treat the distance to their target as one
    range farther (e.g., two ships at Pistol Shot from each other are treated as if they were at Musket
    Shot instead)."""
    state, stream, _, _ = duel(gap=2.0)
    add_terrain(state, "fog", [(16.0, 15.0), (17.0, 15.0), (17.0, 21.0), (16.0, 21.0)], "Fog bank")
    events = texts(order(state, "b", "Corvette broadside starboard Sloop", stream))
    assert "Musket Shot" in events and "Sail" not in events.split("hits on", 1)[1].split(")")[0]


def test_islands_block_movement_like_rocks() -> None:
    """5.9 ISLANDS AND LAND MASSES: "A ship may not move through this type of Terrain. Areas of land are
    treated the same as Rocks except that they block Line of Sight"."""
    state, stream = started()
    anchor_others(state, "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    add_terrain(state, "island", [(18.0, 11.0), (22.0, 11.0), (22.0, 14.0), (18.0, 14.0)], "Isle")
    order(state, "b", "Corvette move", stream)
    corvette = state.ship("corvette")
    assert corvette.aground and corvette.damage == 1 and corvette.y + corvette.length / 2 <= 11.0 + 1e-6


def test_patrol_game_with_cards_seals_from_a_built_hand() -> None:
    """5.3 FORTUNE POINTS (with a faction): each player "will receive 3 fortune points" before any card
    adds to them; a Patrol game starts with them."""
    state, _ = begin("patrol", 1)
    assert all(s.fortune >= 3 for s in state.sides)
