"""Attack Phase rules with fixed streams: broadside qualifications, dice, hits by band, damage,
Fatigue, critical damage, raking, rigging and crew targeting, partial fire, close combat."""

from __future__ import annotations

import copy

from games.core.rng import Rng
from games.oak_and_iron.rules import attack_4_3 as attack
from games.oak_and_iron.rules import dice_2 as dice
from games.oak_and_iron.rules import ship_status_4_2 as status
from games.oak_and_iron.state import ShipState, State
from tests.oak_and_iron.helpers import fails, order, park_others, place, started, texts


def to_attack(seed: int = 1) -> tuple[State, Rng]:
    """Attack Phase of turn 1 (B has the initiative), ships parked apart and unharmed."""
    state, stream = started(seed)
    for ship in state.ships:
        ship.moved = True
    state.activation.ship = ""
    from games.oak_and_iron.rules.turn_4 import begin_attack

    begin_attack(state, stream)
    park_others(state)
    return state, stream


def duel(seed: int = 1, gap: float = 5.0, target_heading: float = 0.0) -> tuple[State, Rng, ShipState, ShipState]:
    """The Corvette (B) facing north with the Sloop (A) abeam to starboard, ``gap`` inches apart."""
    state, stream = to_attack(seed)
    place(state, "corvette", 15.0, 18.0, 0.0)
    corvette = state.ship("corvette")
    place(state, "sloop", 15.0 + corvette.beam / 2 + gap + 0.45, 18.0, target_heading)
    return state, stream, corvette, state.ship("sloop")


def ahead(stream: Rng, draws: int) -> Rng:
    later = copy.copy(stream)
    later.counter += draws
    return later


def predict(stream: Rng, n: int) -> list[str]:
    return dice.roll(copy.copy(stream), n)


def test_broadside_hits_by_band_damage_fatigue_and_reload_marker() -> None:
    for seed in range(1, 12):
        state, stream, corvette, sloop = duel(seed, gap=5.0, target_heading=0.0)  # Musket Shot, broadside-on
        faces = predict(stream, 4)
        events = texts(order(state, "b", "Corvette broadside starboard Sloop", stream))
        hits = sum(f in ("Skull", "Cannonball", "Crossed Swords") for f in faces)
        assert 'distance 5.00" (Musket Shot)' in events
        assert f"4 dice: {', '.join(faces)}" in events
        assert f"{hits} hit(s) against Fortitude 1" in events
        skulls = faces.count("Skull")
        if not skulls:
            assert sloop.damage == hits
            assert sloop.fatigue == (1 if hits else 0)
        assert corvette.reload_starboard and not corvette.reload_port
        assert corvette.attacked


def test_critical_damage_rolls_one_die_per_skull() -> None:
    seen = 0
    for seed in range(1, 40):
        state, stream, _corvette, sloop = duel(seed, gap=5.0)
        faces = predict(stream, 4)
        skulls = faces.count("Skull")
        if not skulls:
            continue
        crit = dice.roll(ahead(stream, 4), skulls)
        events = texts(order(state, "b", "Corvette broadside starboard Sloop", stream))
        assert f"critical check, {skulls} dice: {', '.join(crit)}" in events
        hits = sum(f in ("Skull", "Cannonball", "Crossed Swords") for f in faces)
        hull = crit.count("Skull")
        if hull == 0:
            assert sloop.damage == min(hits, 7)
        if crit.count("Sail") == 1:
            assert sloop.sail == "minimal"
        if crit.count("Sail") >= 2:
            assert sloop.aground
        seen += 1
    assert seen


def test_a_side_with_a_reload_marker_cannot_fire() -> None:
    state, stream, corvette, _ = duel()
    corvette.reload_starboard = True
    err = fails(state, "b", "Corvette broadside starboard Sloop", stream)
    assert "reload marker" in err.text


def test_target_outside_the_broadside_path_is_refused_with_the_distance() -> None:
    state, stream, _, _ = duel()
    err = fails(state, "b", "Corvette broadside port Sloop", stream)
    assert "not in the port broadside path" in err.text and '5.00"' in err.text


def test_target_beyond_cannon_shot_is_refused() -> None:
    state, stream, _, _ = duel(gap=12.5)
    err = fails(state, "b", "Corvette broadside starboard Sloop", stream)
    assert "beyond Cannon Shot" in err.text and '12.50"' in err.text


def test_partial_fire_is_limited_to_musket_shot_and_leaves_no_reload_marker() -> None:
    state, stream, corvette, _ = duel(gap=7.0)
    assert "beyond Musket Shot" in fails(state, "b", "Corvette partial Sloop", stream).text
    state, stream, corvette, _ = duel(gap=4.0)
    corvette.reload_starboard = corvette.reload_port = True
    events = texts(order(state, "b", "Corvette partial Sloop", stream))
    assert "Partial Fire: 2 dice (Crew 2 - Fatigue 0)" in events
    assert corvette.reload_port and corvette.reload_starboard


def test_fatigue_reduces_broadside_dice_but_never_below_crew() -> None:
    state, _, corvette, _ = duel()
    corvette.fatigue = 1
    assert attack.attack_dice(state, corvette, partial=False)[0] == 3
    corvette.fatigue = 5
    assert attack.attack_dice(state, corvette, partial=False)[0] == 2  # Crew 2
    assert attack.attack_dice(state, corvette, partial=True)[0] == 1  # at least one die


def test_raking_through_the_stern_counts_fortitude_one_and_extra_fatigue() -> None:
    for seed in range(1, 15):
        state, stream, _corvette, sloop = duel(seed, gap=5.0, target_heading=90.0)  # stern towards the Corvette
        faces = predict(stream, 4)
        events = texts(order(state, "b", "Corvette broadside starboard Sloop", stream))
        assert "raking through the stern" in events
        hits = sum(f in ("Skull", "Cannonball", "Crossed Swords") for f in faces)
        assert f"{hits} hit(s) against Fortitude 1" in events
        if hits and "Skull" not in faces and "Cannonball" not in faces:
            assert sloop.fatigue == 2  # one for the hit, one for the rake


def test_targeting_rigging_halves_the_dice_and_only_counts_sails() -> None:
    for seed in range(1, 10):
        state, stream, _corvette, sloop = duel(seed, gap=5.0)
        faces = predict(stream, 2)
        order(state, "b", "Corvette broadside starboard Sloop rigging", stream)
        sails = faces.count("Sail")
        assert sloop.damage == 0 and sloop.fatigue == 0
        assert sloop.sail == ("battle" if not sails else "minimal")
        assert sloop.aground == (sails >= 2)


def test_targeting_crew_needs_pistol_shot() -> None:
    state, stream, _, _ = duel(gap=5.0)
    assert "Pistol Shot" in fails(state, "b", "Corvette broadside starboard Sloop crew", stream).text
    state, stream, _, sloop = duel(gap=2.0)
    faces = predict(stream, 2)
    order(state, "b", "Corvette broadside starboard Sloop crew", stream)
    assert sloop.damage == 0
    assert sloop.fatigue >= (1 if "Helm" in faces else 0)


def test_close_combat_needs_entangled_ships_and_counts_by_contact_edge() -> None:
    state, stream, corvette, sloop = duel(gap=0.0)
    assert "Entangled" in fails(state, "b", "Corvette close Sloop", stream).text
    corvette.entangled, sloop.entangled = ["sloop"], ["corvette"]
    faces = predict(stream, 7)  # 5 + Crew 2
    events = texts(order(state, "b", "Corvette close Sloop", stream))
    assert "starboard edge in contact" in events
    assert sloop.fatigue == min(7, sum(f in ("Skull", "Crossed Swords", "Cannonball") for f in faces))


def test_damage_and_fatigue_tracks() -> None:
    _state, _, _, sloop = duel()
    notes: list[str] = []
    status.add_damage(sloop, 6, notes)
    assert not sloop.crippled
    status.add_damage(sloop, 1, notes)
    assert sloop.crippled and "Sloop is Crippled" in notes
    status.add_damage(sloop, 2, notes)  # a Crippled ship takes Fatigue instead
    assert sloop.damage == 7 and sloop.fatigue == 2
    status.add_fatigue(sloop, 10, notes)
    assert sloop.fatigue == 7 and sloop.shaken and sloop.out_of_action
    assert not sloop.can_act


def test_an_attack_is_one_per_ship_and_alternates() -> None:
    state, stream, _, _ = duel()
    order(state, "b", "Corvette hold", stream)
    assert state.active_side == "a"
    assert fails(state, "b", "Fluyt hold", stream).kind == "not your turn"


def test_ships_in_formation_with_the_flagship_roll_one_more_die() -> None:
    state, _, corvette, _ = duel()
    place(state, "fluyt", 15.0, 18.0 + 2.6 + 1.5, 0.0)  # 1.5" astern of the Corvette, in line ahead
    dice, how = attack.attack_dice(state, corvette, partial=False)
    assert dice == 5 and "Formation +1" in how
    place(state, "fluyt", 18.0, 18.0 + 2.6 + 1.5, 0.0)  # out of line: no bonus
    assert attack.attack_dice(state, corvette, partial=False)[0] == 4


def test_a_struck_helm_turns_the_ship_and_may_hit_the_admiral() -> None:
    state, stream, _, sloop = duel()
    state.ship("petite-fregate").flagship = False
    sloop.flagship = True
    notes: list[str] = []
    before = sloop.heading
    officer = dice.roll(ahead(stream, 0), 1)
    attack.apply_crew(state, stream, sloop, 2, "starboard", notes)
    assert sloop.heading == (before + 45.0) % 360 and sloop.fatigue == 1
    assert "helm is struck" in "\n".join(notes)
    lost = officer[0] in ("Skull", "Helm")
    assert (state.side("a").admiral_name == "none") == lost


def test_shooting_through_fog_counts_one_band_farther() -> None:
    state, stream, _, _sloop = duel(gap=2.0)
    from tests.oak_and_iron.helpers import add_terrain

    add_terrain(state, "fog", [(16.0, 15.0), (17.0, 15.0), (17.0, 21.0), (16.0, 21.0)], "Fog bank")
    events = texts(order(state, "b", "Corvette broadside starboard Sloop", stream))
    assert "through fog" in events and "fog: scored at Musket Shot" in events
    assert "hits on Skull, Cannonball, Crossed Swords (" in events
