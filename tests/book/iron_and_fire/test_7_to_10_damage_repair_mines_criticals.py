"""Iron and Fire, modules 7.0 (Damage Effects), 8.0 (Repairing Damage), 9.0 (Mines) and 10.0
(Critical Hits)."""

from __future__ import annotations

import re

import pytest

from games.iron_and_fire.state import State
from tests.book.iron_and_fire.book import RS, end_turn, fails, game, hits, in_play, lay_mine, line, place, play, unit
from tests.iron_and_fire.helpers import add_battery


def duel(side: str = "peru", card: str = "KH") -> State:
    """Scenario 1 (boilers fixed): Huáscar (MF 3, CF 3, PF 7) on 1610 facing 6 and Esmeralda (MF 2,
    CF 1, PF 3) on 1606 facing 3."""
    state = game("s1")
    place(state, "huascar", "1610", 6)
    place(state, "esmeralda", "1606", 3)
    return in_play(state, side, card)


def mp_cf(state: State, name: str) -> tuple[int, int]:
    status = line(state, name)
    return int(status.split("MP ")[1].split(",")[0]), int(status.split("CF ")[1].split(",")[0])


# --- 7.0 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ship_hits", "mp", "cf"),
    [(0, 3, 3), (1, 3, 3), (2, 3, 1), (3, 3, 1), (4, 1, 0), (6, 1, 0), (7, 0, 0)],
)
def test_ship_damage_effects(ship_hits: int, mp: int, cf: int) -> None:
    """7.0: "Add or subtract Hit markers to record the number of hits on units." 7.1: "When a ship
    takes a total of 2 Hits, its CF drops by 2." "When a ship takes a total of 4 Hits, its CF drops
    by another 1." "When a ship takes a number of Hits equal to or greater than half its PF (round
    up), the ship's MPs are reduced to 1 MP." "When a ship takes a number of Hits equal to its PF,
    the ship's MPs are reduced to 0 MP." Huáscar: MF 3, CF 3, PF 7 (half, rounded up, is 4)."""
    state = duel()
    unit(state, "huascar").hits = ship_hits
    assert mp_cf(state, "Huáscar") == (mp, cf)


def test_a_ship_with_more_hits_than_its_pf_is_sunk() -> None:
    """7.1: "When the number of hits is greater than the PF, the ship is sunk and eliminated from
    the game." Esmeralda (PF 3) with 3 hits is afloat; a fourth sinks it."""
    state = duel()
    place(state, "esmeralda", "1608", 5)
    unit(state, "esmeralda").hits = 3
    assert not line(state, "Esmeralda").endswith(": sunk")
    play(state, "peru", "Huascar fire Esmeralda", [1])
    assert line(state, "Esmeralda").endswith(": sunk")


def test_a_land_battery_surrenders_at_three_hits() -> None:
    """7.2: "A land battery surrenders (remove it from the game) when it accumulates 3 hits." """
    state = game("s3")
    place(state, "huascar", "1506", 2)
    place(state, "blanco_encalada", "2010", 3)
    add_battery(state, "1306")
    in_play(state, "peru", "KH")
    unit(state, "battery1").hits = 2
    out = play(state, "peru", "Huascar fire Battery 1", [3])  # 3 + 3 - 1 = 5: one hit
    assert "surrenders (3 hits)" in out
    assert line(state, "Battery 1").endswith(": surrendered")
    assert "Battery 1" not in {c.label for c in RS.view(state, None).counters}


# --- 8.0 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "left"), [(7, 1), (8, 2)])
def test_repair_removes_a_hit_on_a_d10_at_or_under_pf(roll: int, left: int) -> None:
    """8.0: "A ship may use an activation to remove hits from a ship. Roll 1d10. If the roll is
    equal to or less than the PF, remove one hit. If the roll is greater than the PF, no effect
    (i.e. wasted activation)." """
    state = duel()
    unit(state, "huascar").hits = 2
    play(state, "peru", "Huascar repair", [roll])
    assert hits(state, "huascar") == left


def test_a_repair_activation_never_removes_a_critical_hit() -> None:
    """8.0: "Critical Hit repair die rolls only occur in the End Phase." A repair activation with a
    critical hit in force and no hits does not touch the critical."""
    state = duel()
    u = unit(state, "huascar")
    u.hits, u.criticals = 1, ["steering"]
    play(state, "peru", "Huascar repair", [1])
    assert u.hits == 0 and u.criticals == ["steering"]


# --- 9.0 -------------------------------------------------------------------------------------


def test_a_none_mine_lets_the_ship_move_on() -> None:
    """9.0: "If a ship enters a hex with a Mine counter, flip over the Mine counter. If the counter
    says, "None," no mines exist in the hex. If the ship has an MP remaining, continue the
    movement." """
    state = duel()
    lay_mine(state, "1609", "None")
    out = play(state, "peru", "Huascar move F F")
    assert "None" in out and line(state, "Huáscar").startswith("Huáscar (Peru): 1608")


@pytest.mark.parametrize(
    ("value", "dice", "ship_hits", "afloat"),
    [("0", [1, 2], 0, True), ("2", [1, 2], 0, True), ("1", [3, 3], 3, True), ("2", [6, 6], 0, False)],
)
def test_a_mine_attack(value: str, dice: list[int], ship_hits: int, afloat: bool) -> None:
    """9.0: "If the counter has a number (including "zero"), resolve a mine attack. Roll 2d6 and add
    the result to the number on the Mine counter. If the total is less than the PF, no effect. ...
    If the total is equal to the PF and an odd number, the ship receives 3 hits. If the total is
    greater than the PF, the ship immediately sinks." Huáscar, PF 7."""
    state = duel()
    lay_mine(state, "1609", value)
    out = play(state, "peru", "Huascar move F", dice)
    if afloat:
        assert hits(state, "huascar") == ship_hits
    else:
        assert "sinks" in out and line(state, "Huáscar").endswith(": sunk")


def test_a_mine_total_equal_to_an_even_pf_gives_two_hits() -> None:
    """9.0: "If the total is equal to the PF and an even number, the ship receives 2 hits."
    Independencia (PF 6): 3 + 2 + 1 = 6."""
    state = game("s5", independencia="survives")
    place(state, "independencia", "1610", 6)
    place(state, "loa", "1606", 3)
    in_play(state, "peru", "KH")
    unit(state, "independencia").hits = 0
    lay_mine(state, "1609", "1")
    play(state, "peru", "Independencia move F", [3, 2])
    assert hits(state, "independencia") == 2


def test_a_mine_that_hits_is_removed_and_the_ship_may_move_on() -> None:
    """9.0: "If the Mine attack inflicts any hits, remove the Mine counter from the map. If the ship
    has any MPs left, it may continue moving." """
    state = duel()
    lay_mine(state, "1609", "1")
    play(state, "peru", "Huascar move F F", [3, 3])
    assert hits(state, "huascar") == 3 and state.mines == []
    assert line(state, "Huáscar").startswith("Huáscar (Peru): 1608")


def test_a_ship_drifting_onto_a_mine_suffers_a_mine_attack() -> None:
    """5.4: "Any ship that drifts onto a Mine suffers a Mine attack." Esmeralda at 0 MP drifts with
    the current (direction 2) onto a mine."""
    state = duel()
    unit(state, "esmeralda").hits = 3
    probe = duel()
    unit(probe, "esmeralda").hits = 3
    end_turn(probe)
    downstream = line(probe, "Esmeralda").split(": ")[1].split(";")[0]
    lay_mine(state, downstream, "0")
    out = end_turn(state)
    assert f"Esmeralda drifts to {downstream}." in out
    assert f"Esmeralda enters {downstream}: mine counter **0**. Mine attack: 2d6" in out


# --- 10.0 ------------------------------------------------------------------------------------

KIND = {1: None, 2: "bridge", 3: "fire", 4: "fire", 5: "propulsion", 6: "steering"}


@pytest.mark.parametrize("kind_die", [1, 2, 3, 4, 5, 6])
def test_the_critical_hit_table(kind_die: int) -> None:
    """10.0: "When ships suffer a Critical Hit, roll 1d6, place the appropriate Critical Hit marker
    (if any) on the ship" 1: False Alarm, 2: Bridge Hit, 3 or 4: Fire, 5: Propulsion Hit, 6:
    Steering Hit. A hit of twice PF from Huáscar on Esmeralda and a 6 on the critical check."""
    state = duel()
    place(state, "esmeralda", "1608", 5)
    play(state, "peru", "Huascar fire Esmeralda", [4, 6, kind_die])
    want = KIND[kind_die]
    assert unit(state, "esmeralda").criticals == ([want] if want else [])


def test_a_propulsion_hit_takes_one_mf() -> None:
    """10.0: "5: Propulsion Hit: Reduce ship's MF by 1." """
    state = duel()
    unit(state, "huascar").criticals = ["propulsion"]
    assert mp_cf(state, "Huáscar")[0] == 2
    assert "needs 3" in fails(state, "peru", "Huascar move F F F")


@pytest.mark.parametrize(("die", "moves"), [(2, True), (1, False)])
def test_a_bridge_hit_rolls_on_every_movement_activation(die: int, moves: bool) -> None:
    """10.0: "2: Bridge Hit: On all activations for a movement action, roll 1d6: Even result:
    Remove Critical Hit. Ship moves normally Odd result: Ship cannot move. Activation is spent
    without effect." """
    state = duel()
    unit(state, "huascar").criticals = ["bridge"]
    play(state, "peru", "Huascar move F", [die])
    assert line(state, "Huáscar").startswith("Huáscar (Peru): 1609") is moves
    assert (unit(state, "huascar").criticals == []) is moves


@pytest.mark.parametrize(("die", "turned"), [(4, True), (3, False)])
def test_a_steering_hit_rolls_when_turning(die: int, turned: bool) -> None:
    """10.0: "6: Steering Hit: If turning during movement, roll 1d6: Even result: Makes turn. Odd
    result: Fails to make turn. MP is used without effect and ship remains facing in same
    direction. The activation is spent without effect." (ruled: the whole activation is spent, so
    the hex after the failed turn is not entered either)."""
    state = duel()
    unit(state, "huascar").criticals = ["steering"]
    play(state, "peru", "Huascar move P F", [die])
    status = line(state, "Huáscar")
    assert ("facing 6" not in status) is turned
    assert status.startswith("Huáscar (Peru): 1610") is not turned


def end_phase_repairs(kind: str, seeds: range) -> list[tuple[int, str, int, bool]]:
    """(die, repair line, hits after, still afloat) of Esmeralda's End Phase repair of ``kind``
    over several games."""
    out = []
    for seed in seeds:
        state = duel()
        unit(state, "esmeralda").criticals = [kind]
        log = end_turn(state, seed)
        found = re.search(rf"Esmeralda: {kind.capitalize()} repair d6 \*\*(\d)\*\*: ([^\n]*)", log)
        assert found, log
        afloat = not line(state, "Esmeralda").endswith(": sunk")
        out.append((int(found.group(1)), found.group(2), unit(state, "esmeralda").hits, afloat))
    return out


def test_fire_repair_in_the_end_phase() -> None:
    """10.0: "Fire: ... Repair: In End Phase, roll 1d6. 1,2,3: Fire extinguished. Remove marker. 4:
    Fire remains. Ship suffers 1 Hit. 5: Fire remains. Ship suffers 2 Hits. 6: Fire reaches powder
    magazine! Ship blows up. Remove from game." and "In the End Phase, rolling for possible repair of
    all Critical Hits is mandatory." Over twenty games every result is what the table says."""
    seen = set()
    for die, _, ship_hits, afloat in end_phase_repairs("fire", range(1, 21)):
        seen.add(die)
        if die <= 3:
            assert ship_hits == 0 and afloat
        elif die == 4:
            assert ship_hits == 1 and afloat
        elif die == 5:
            assert ship_hits == 2 and afloat
        else:
            assert not afloat
    assert len(seen) >= 4


@pytest.mark.parametrize("kind", ["bridge", "propulsion", "steering"])
def test_bridge_propulsion_and_steering_repair_on_an_even_die(kind: str) -> None:
    """10.0: "Repair: In End Phase, roll 1d6. Even result: Bridge hit repaired. Odd result: Bridge
    hit not repaired." and the same for "Propulsion Hit" ("Even result: Fixed.") and "Steering Hit"
    ("Even result: Fixed. Remove Steering hit. Odd result: Still damaged.")."""
    for seed in range(1, 9):
        state = duel()
        unit(state, "esmeralda").criticals = [kind]
        log = end_turn(state, seed)
        found = re.search(rf"Esmeralda: {kind.capitalize()} repair d6 \*\*(\d)\*\*", log)
        assert found, log
        assert (unit(state, "esmeralda").criticals == []) is (int(found.group(1)) % 2 == 0)
