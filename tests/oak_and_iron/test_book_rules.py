"""Issue 15 item 2, the listed rules one by one, each test naming the book section it checks:
Landing Party, Transfer Flag and Row (4.2 step 4, Crew Actions), Landing Party combat (4.3 Close
Combat), Targeting Rigging (5.7) and Crew (5.8), Fog Bank and Shoals (5.9), Capture and Destroy
(4.4 step 1, CAPTURED) and the sinking roll (4.4 step 3)."""

from __future__ import annotations

import copy
import math

from games.core.rng import Rng
from games.oak_and_iron.rules import attack_4_3 as attack
from games.oak_and_iron.rules import dice_2 as dice
from games.oak_and_iron.rules import end_phase_4_4 as end
from games.oak_and_iron.rules import ship_status_4_2 as status
from games.oak_and_iron.rules import turn_4 as turn
from games.oak_and_iron.state import State
from tests.oak_and_iron.helpers import add_terrain, fails, order, park_others, place, started, texts
from tests.oak_and_iron.test_attack import duel, predict


def test_landing_party_is_withdrawn_when_its_ship_moves() -> None:
    """4.2 LANDING PARTY: "If a ship with a Landing Party token ashore ever ... moves, the Landing
    Party token is immediately removed"."""
    state, stream = started(scenario="reef")
    park_others(state, "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    corvette = state.ship("corvette")
    corvette.landing = (25.0, 8.0)
    order(state, "b", "Corvette move", stream)
    assert corvette.landing is None


def test_landing_party_is_withdrawn_when_its_ship_becomes_shaken() -> None:
    """4.2 LANDING PARTY: "... ever becomes Shaken ... the token is immediately removed"."""
    state, _ = started()
    corvette = state.ship("corvette")
    corvette.landing = (25.0, 8.0)
    notes: list[str] = []
    status.add_fatigue(corvette, 7, notes)
    assert corvette.landing is None and "Corvette's Landing Party is withdrawn" in notes


def test_a_shaken_ship_sends_no_landing_party() -> None:
    """4.2 LANDING PARTY: "A ship that is not Shaken, has its Sail Setting set to Anchored ..."."""
    state, stream = started(scenario="reef")
    park_others(state, "corvette")
    place(state, "corvette", 29.0, 15.0, 90.0)
    corvette = state.ship("corvette")
    corvette.sail, corvette.fatigue = "anchored", 7
    assert "Shaken" in fails(state, "b", "Corvette crew landing", stream).text


def test_landing_parties_fight_within_musket_shot_and_the_defender_takes_fatigue() -> None:
    """4.3 Close Combat: between 2 Landing Party tokens within Musket Shot, the defending party's ship
    takes a Fatigue for each Skull, Crossed Swords and Cannonball (crew value of the attacker's ship)."""
    for seed in range(1, 6):
        state, stream, corvette, sloop = duel(seed, gap=10.0)
        corvette.landing, sloop.landing = (2.0, 2.0), (2.0 + 5.9, 2.0)
        faces = predict(stream, 5 + corvette.crew)
        order(state, "b", "Corvette landing-attack Sloop", stream)
        hits = sum(f in ("Skull", "Crossed Swords", "Cannonball") for f in faces)
        assert sloop.fatigue == min(7, hits) and corvette.attacked
    state, stream, corvette, sloop = duel(gap=10.0)
    corvette.landing, sloop.landing = (2.0, 2.0), (2.0 + 6.5, 2.0)
    assert "Musket Shot" in fails(state, "b", "Corvette landing-attack Sloop", stream).text


def test_transfer_flag_refuses_an_entangled_ship() -> None:
    """4.2 TRANSFER FLAG: "... a target friendly ship that is within Pistol Shot of the Flagship and
    not Entangled"."""
    state, stream = started()
    park_others(state, "corvette", "fluyt")
    place(state, "fluyt", 20.0, 8.0, 180.0)
    place(state, "corvette", 23.0, 8.0, 180.0)
    state.ship("corvette").entangled = ["sloop"]
    state.ship("sloop").entangled = ["corvette"]
    order(state, "b", "Fluyt move", stream)
    assert "Entangled" in fails(state, "b", "Fluyt crew flag Corvette", stream).text
    assert state.ship("fluyt").flagship


def test_row_moves_an_anchored_ship_straight_ahead_with_the_speed_1_tool() -> None:
    """4.2 ROW: "... an additional move using the speed 1 tool. This move can be made even if the ship
    is at Anchor ... This move may not include a turn"."""
    state, stream = started()
    park_others(state, "sloop", "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    order(state, "b", "Corvette move", stream)  # B has the initiative; then A activates
    order(state, "b", "Corvette done", stream)
    place(state, "sloop", 10.0, 10.0, 90.0)
    sloop = state.ship("sloop")
    sloop.sail = "anchored"
    order(state, "a", "Sloop crew row", stream)
    assert math.isclose(sloop.x, 11.0) and math.isclose(sloop.y, 10.0) and sloop.heading == 90.0
    assert fails(state, "a", "Sloop crew row turn-end port 30", stream).kind in ("invalid syntax", "unknown name")


def test_targeting_rigging_rolls_at_least_one_die_and_ignores_raking() -> None:
    """5.7 TARGETING RIGGING: half the dice "round down, to a minimum of 1"; "An Attack made against the
    rigging can never Fatigue or Damage a ship. Raking shots are ignored"."""
    state, stream, corvette, sloop = duel(gap=5.0, target_heading=90.0)  # stern towards the Corvette
    check = attack.check_fire(state, corvette, "starboard", sloop, partial=False)
    assert check.raking == "stern"
    shot = attack.Shot(corvette, sloop, check, "rigging", False, "port")
    faces = predict(stream, 1)
    notes = attack.resolve_attack(state, stream, shot, 1, "Broadside")
    assert f"1 dice: {faces[0]}" in notes[0]
    assert sloop.fatigue == 0 and sloop.damage == 0


def test_targeting_crew_while_raking_adds_one_fatigue_and_no_damage() -> None:
    """5.8 TARGETING CREW: "An Attack made against the crew can never Damage the ship. When targeting
    crew during a raking shot, the target ship takes the additional point of Fatigue"."""
    seen_helm = False
    for seed in range(1, 12):
        state, stream, _corvette, sloop = duel(seed, gap=2.0, target_heading=90.0)
        faces = predict(stream, 2)
        order(state, "b", "Corvette broadside starboard Sloop crew", stream)
        helms = faces.count("Helm")
        seen_helm = seen_helm or helms > 0
        assert sloop.damage == 0
        if helms == 1:
            assert sloop.fatigue == 2  # the Helm's point and the raking point
        if helms == 0:
            assert sloop.fatigue == 0
    assert seen_helm


def test_fog_beyond_cannon_shot_scores_only_skulls() -> None:
    """5.9 FOG BANK: "If this would cause the distance to be greater than Cannon Shot, the distance is
    still treated as Cannon Shot, but only Skull results count as successful hits"."""
    state, stream, _, _sloop = duel(gap=10.0)
    add_terrain(state, "fog", [(20.0, 15.0), (21.0, 15.0), (21.0, 21.0), (20.0, 21.0)], "Fog bank")
    faces = predict(stream, 4)
    events = texts(order(state, "b", "Corvette broadside starboard Sloop", stream))
    assert "fog beyond Cannon Shot: only Skulls" in events and "hits on Skull (" in events
    assert f"{faces.count('Skull')} hit(s) against Fortitude" in events


def test_shoal_crossed_by_part_of_the_base_still_rolls() -> None:
    """5.9 SHOALS: "If at any point of a ship's move a part of the ship's base moves over an area of
    shoal Terrain ... roll a number of dice equal to its printed Fortitude"; a shoal clear of the
    path rolls nothing."""
    state, stream = started()
    park_others(state, "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    add_terrain(state, "shoal", [(20.4, 10.0), (23.0, 10.0), (23.0, 10.5), (20.4, 10.5)], "Spit")
    assert "Crossed Spit: 2 dice" in texts(order(state, "b", "Corvette move", stream))
    state, stream = started()
    park_others(state, "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    add_terrain(state, "shoal", [(21.0, 10.0), (23.0, 10.0), (23.0, 10.5), (21.0, 10.5)], "Spit")
    assert "Crossed" not in texts(order(state, "b", "Corvette move", stream))


def _entangled_shaken_sloop(seed: int = 1) -> tuple[State, Rng]:
    state, stream = started(seed)
    sloop, corvette = state.ship("sloop"), state.ship("corvette")
    park_others(state, "sloop", "corvette")
    place(state, "sloop", 20.0, 20.0, 180.0)
    place(state, "corvette", 20.0 + sloop.beam / 2 + corvette.beam / 2, 20.0, 180.0)
    sloop.entangled, corvette.entangled = ["corvette"], ["sloop"]
    sloop.fatigue = 7
    for ship in state.ships:
        ship.moved = ship.attacked = True
    turn.end_phase(state, stream)
    assert state.pending and state.pending[0].ship == "sloop"
    return state, stream


def test_a_destroyed_ship_is_out_of_action_and_its_captor_cuts_free() -> None:
    """4.4 step 1: "If the ship is Destroyed, immediately take a Free Cut Free Action. If this is not
    possible, remove the Destroyed ship from the table. The Destroyed ship is Out of Action"."""
    state, stream = _entangled_shaken_sloop()
    events = texts(order(state, "b", "destroy Sloop", stream))
    sloop, corvette = state.ship("sloop"), state.ship("corvette")
    assert sloop.out_of_action and "cuts free (free action)" in events
    assert not corvette.entangled and not sloop.entangled


def test_a_captured_ship_is_recaptured_when_its_own_squadron_entangles_it() -> None:
    """4.4 CAPTURED: "A ship may be re-captured by having a ship from its original squadron become
    Entangled with it ... Re-captured ships remain Shaken"."""
    state, stream = _entangled_shaken_sloop()
    order(state, "b", "capture Sloop", stream)
    sloop = state.ship("sloop")
    assert sloop.captured_by == "b" and not sloop.can_act
    notes: list[str] = []
    status.entangle(state, state.ship("petite-fregate"), sloop, notes)
    assert sloop.captured_by == "" and sloop.shaken and "re-captured" in "\n".join(notes)


def test_sinking_roll_counts_skull_or_cannonball_and_spares_able_ships() -> None:
    """4.4 step 3 CHECK FOR SINKING SHIPS: a die for each Out of Action ship (Skull or Cannonball,
    a house reading of the custom die); a ship merely Crippled rolls nothing."""
    for seed in range(1, 10):
        state, stream = started(seed)
        corvette = state.ship("corvette")
        corvette.crippled, corvette.fatigue = True, 7
        state.ship("sloop").crippled = True
        predicted = dice.roll(copy.copy(stream), 1)
        events = texts(end.end_rolls(state, stream))
        assert (corvette.status == "sunk") == (predicted[0] in ("Skull", "Cannonball"))
        assert "Sloop is Out of Action" not in events and state.ship("sloop").status == "afloat"
