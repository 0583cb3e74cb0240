"""Book ch. 4, The Attack Phase (4.3): its new terms, Broadside (qualifications and steps 1-6),
Partial Fire and Close Combat, through order text."""

from __future__ import annotations

import pytest

from games.core.rng import Rng
from games.oak_and_iron.state import ShipState, State
from tests.book.oak_and_iron.book import (
    abreast,
    anchor_others,
    dice_ahead,
    entangle,
    fails,
    order,
    place,
    play_out,
    started,
    texts,
)

HITS = {"Cannon": ("Skull", "Cannonball"), "Musket": ("Skull", "Cannonball", "Crossed Swords")}


def duel(seed: int = 1, gap: float = 5.0, sloop_heading: float = 0.0) -> tuple[State, Rng, ShipState, ShipState]:
    """Attack Phase of turn 1 (B first): the Corvette heading north, the Sloop abeam to starboard
    ``gap`` inches from it (base to base)."""
    state, stream = started(seed)
    anchor_others(state)
    play_out(state, stream, until="attack")
    anchor_others(state, "corvette", "sloop")
    corvette, sloop = state.ship("corvette"), state.ship("sloop")
    place(state, "corvette", 15.0, 18.0, 0.0)
    place(state, "sloop", 15.0 + corvette.beam / 2 + gap + sloop.beam / 2, 18.0, sloop_heading)
    return state, stream, corvette, sloop


def test_broadside_needs_cannon_shot_path_and_no_reload_marker() -> None:
    """4.3 BROADSIDE QUALIFICATIONS: "The target ship is within Cannon Shot or less of the firing ship"; "The target
    ship must be at least partially within the Broadside Path of the firing edge"; "The side firing has
    no reload marker."""
    state, stream, corvette, _ = duel(gap=12.5)
    assert "Cannon Shot" in fails(state, "b", "Corvette broadside starboard Sloop", stream).text
    state, stream, corvette, _ = duel(gap=5.0)
    assert "path" in fails(state, "b", "Corvette broadside port Sloop", stream).text.lower()
    corvette.reload_starboard = True
    assert "reload" in fails(state, "b", "Corvette broadside starboard Sloop", stream).text.lower()


def test_broadside_path_is_the_strip_square_to_the_firing_edge() -> None:
    """4.3 BROADSIDE PATH: "draw two parallel lines perpendicular to the width the firing ship's base
    going toward the target ship. If any part of the target ship's base falls within those two lines,
    the ship is within the Broadside Path". (A Sloop 4" abeam but 2.5" ahead of the strip's end is out.)"""
    state, stream, corvette, sloop = duel(gap=4.0)
    place(state, "sloop", sloop.x, 18.0 - corvette.length / 2 - sloop.beam / 2 - 0.5, 90.0)
    assert "path" in fails(state, "b", "Corvette broadside starboard Sloop", stream).text.lower()
    place(state, "sloop", sloop.x, 18.0 - corvette.length / 2 - sloop.beam / 2 + 0.2, 90.0)
    order(state, "b", "Corvette broadside starboard Sloop", stream)
    assert corvette.reload_starboard


def test_line_of_sight_blocked_by_an_island() -> None:
    """4.3 LINE OF SIGHT: "There is Line of Sight if a line can be drawn from the mid-point of any of the
    ship's edges to the mid-point of any edge and at least one corner of the target ship's base";
    5.9 ISLANDS: "they block Line of Sight"."""
    from tests.oak_and_iron.helpers import add_terrain

    state, stream, _corvette, _sloop = duel(gap=6.0)
    add_terrain(state, "island", [(17.0, 10.0), (19.0, 10.0), (19.0, 26.0), (17.0, 26.0)], "Isle")
    assert "sight" in fails(state, "b", "Corvette broadside starboard Sloop", stream).text.lower()


@pytest.mark.slow
def test_broadside_dice_hits_fatigue_damage_and_reload_marker() -> None:
    """4.3 step 1 ROLL BROADSIDE DICE: "Roll a number of dice equal to the ship's Broadside value";
    "At Musket Shot, [Skull], [Cannonball], and [Crossed Swords] results score hits" (house faces).
    4.3 step 3 APPLY FATIGUE: "If at least 1 hit was scored, the target ship takes a point of Fatigue."
    4.3 step 4 INFLICT DAMAGE: "For every number of hits that equal the target ship's Fortitude, it
    takes 1 point of damage." 4.3 step 6 ASSIGN RELOAD MARKERS: "The ship now takes a reload marker on
    any side that it fired from."""
    checked = 0
    for seed in range(1, 25):
        state, stream, corvette, sloop = duel(seed, gap=5.0)
        state.ship("petite-fregate").fortitude = 2
        faces = dice_ahead(stream, corvette.broadside)
        if "Skull" in faces:
            continue  # a critical check would add to the damage
        order(state, "b", "Corvette broadside starboard Sloop", stream)
        hits = sum(f in HITS["Musket"] for f in faces)
        assert sloop.fatigue == (1 if hits else 0)
        assert sloop.damage == hits // sloop.fortitude
        assert corvette.reload_starboard and not corvette.reload_port
        checked += 1
    assert checked >= 3


def test_fatigue_never_takes_broadside_dice_below_crew() -> None:
    """4.3 step 1: "reduced by 1 for each point of Fatigue the firing ship has ... Fatigue never reduces a
    ship's Broadside Value to less than the ship's Crew Value." (Corvette: Broadside 4, Crew 2.)"""
    state, stream, corvette, _ = duel(gap=5.0)
    corvette.fatigue = 5
    events = texts(order(state, "b", "Corvette broadside starboard Sloop", stream))
    assert f"{corvette.crew} dice:" in events


def test_skill_rerolls_missed_dice() -> None:
    """4.3 step 2 RE-ROLL: "Players will sometimes be able to re-roll dice by using Skill Value, Fortune
    Points, and special rules. All re-rolls on the attack are taken during this step." 4.1 SKILL VALUE:
    "For each point of Skill a ship has, the ship may re-roll 1 dice during Skill Tests and Attacks."""
    for seed in range(1, 30):
        state, stream, corvette, _ = duel(seed, gap=5.0)
        corvette.skill = 1
        faces = dice_ahead(stream, corvette.broadside)
        if all(f in HITS["Musket"] for f in faces):
            continue
        events = texts(order(state, "b", "Corvette broadside starboard Sloop", stream))
        assert "re-roll" in events.lower()
        return
    raise AssertionError("no miss in 30 seeds")


def test_critical_check_one_die_per_skull() -> None:
    """4.3 step 5 CHECK FOR CRITICAL DAMAGE: "If any of the dice results were a [Skull], the target ship
    may take Critical Damage. To check for Critical Damage, roll an additional die for each [Skull]
    result."""
    for seed in range(1, 40):
        state, stream, corvette, _ = duel(seed, gap=5.0)
        faces = dice_ahead(stream, corvette.broadside)
        skulls = faces.count("Skull")
        if not skulls:
            continue
        events = texts(order(state, "b", "Corvette broadside starboard Sloop", stream))
        assert f"critical check, {skulls} dice" in events
        return
    raise AssertionError("no Skull in 40 seeds")


def test_partial_fire_musket_shot_crew_dice_and_no_reload_marker() -> None:
    """4.3 PARTIAL FIRE: "Target ship may be outside of the Broadside Path"; "Attack's range is limited
    to Musket Shot"; "May be made with one or more reload markers"; "Does not generate a reload marker";
    "Uses the ship's Crew Rating to determine the number of dice rolled."""
    state, stream, corvette, _ = duel(gap=6.5)
    assert "Musket" in fails(state, "b", "Corvette partial Sloop", stream).text
    state, stream, corvette, sloop = duel(gap=4.0)
    place(state, "sloop", 15.0, 18.0 - corvette.length / 2 - 4.0 - sloop.length / 2, 0.0)  # dead ahead
    corvette.reload_port = corvette.reload_starboard = True
    events = texts(order(state, "b", "Corvette partial Sloop", stream))
    assert f"{corvette.crew} dice:" in events
    assert corvette.reload_port and corvette.reload_starboard


def test_close_combat_needs_entangled_ships_and_rolls_five_plus_crew() -> None:
    """4.3 CLOSE COMBAT: "Close combat attacks may be taken between 2 Entagled ships"; "roll a number of
    dice equal to 5 plus the ship's Crew Rating"; "If the attacking ship has a side edge in contact with
    the opposing ship, the target ship takes a Fatigue for each [Skull], [Crossed Swords], and
    [Cannonball] result rolled."""
    state, stream, corvette, sloop = duel(gap=1.0)
    assert "Entangled" in fails(state, "b", "Corvette close Sloop", stream).text
    for seed in range(1, 6):
        state, stream = started(seed)
        anchor_others(state, "corvette", "sloop")
        sloop, corvette = abreast(state, "sloop", "corvette")
        entangle(sloop, corvette)
        play_out(state, stream, until="attack")
        faces = dice_ahead(stream, 5 + corvette.crew)
        events = texts(order(state, "b", "Corvette close Sloop", stream))
        assert f"{5 + corvette.crew} dice" in events
        assert sloop.fatigue == min(7, sum(f in ("Skull", "Crossed Swords", "Cannonball") for f in faces))


def test_entangled_enemy_is_no_broadside_target() -> None:
    """4.2 ENTANGLED: "Enemy ships Entangled with friendly ships may not be the target of Broadside or
    Partial Fire Attacks."""
    state, stream, _corvette, sloop = duel(gap=5.0)
    fluyt = state.ship("fluyt")
    place(state, "fluyt", sloop.x + sloop.beam / 2 + fluyt.beam / 2, sloop.y, 0.0)
    entangle(sloop, fluyt)
    assert "Entangled" in fails(state, "b", "Corvette broadside starboard Sloop", stream).text
    assert "Entangled" in fails(state, "b", "Corvette partial Sloop", stream).text


def test_out_of_action_ship_makes_no_attack() -> None:
    """4.3 OUT OF ACTION: "A ship becomes Out of Action when it is both Crippled and Shaken" ... "a ship
    can no longer move, take Seamanship or Crew Actions, make attacks"."""
    state, stream, corvette, _ = duel(gap=5.0)
    corvette.crippled, corvette.damage, corvette.fatigue = True, 7, 7
    assert fails(state, "b", "Corvette broadside starboard Sloop", stream).text
    assert fails(state, "b", "Corvette partial Sloop", stream).text
