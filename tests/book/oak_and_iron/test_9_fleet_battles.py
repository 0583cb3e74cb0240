"""Book ch. 9, Fleet Battles (9.1 fleet building, 9.2 initiative, 9.3 movement, 9.4 attack, 9.5 end
phase), through ``setup`` options and order text."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from tests.book.oak_and_iron.book import (
    abreast,
    anchor_others,
    begin,
    entangle,
    fails,
    order,
    play_out,
    rng,
    ruleset,
    texts,
)


def test_fleets_of_two_to_four_squadrons_each_with_its_own_hand() -> None:
    """9.1 FLEET BUILDING: "Both sides should construct fleets of equal point values made up of 2-4
    Squadrons each" ... "Each Squadron will have its own initiative card hand as usual and may only use
    cards from its own initiative hand."""
    state = ruleset().setup("fleet", {}, rng())
    assert [q.id for q in state.squadrons] == ["a1", "a2", "b1", "b2"]
    assert all(len(q.hand) == 5 for q in state.squadrons)
    with pytest.raises(GameError):
        ruleset().setup("fleet", {"fleet_a": "sloop|sloop|sloop|sloop|sloop"}, rng())


def test_fleet_totals_decide_the_initiative() -> None:
    """9.2 INITIATIVE PHASE: "each fleet adds up the total initiative values from all of the initiative
    cards played by the Squadrons in that fleet. The fleet with the higher total will go first that
    turn." (A: 3 + 4 = 7 against B: 5 + 1 = 6, though B shows the single highest card.)"""
    rs, stream = ruleset(), rng(1)
    state = rs.setup("fleet", {}, stream)
    for a, b in (("Rolling Broadside", "Adjust Position"), ("Effective Fire", "Down!")):
        order(state, "a", f"initiative {a}", stream)
        order(state, "b", f"initiative {b}", stream)
    for _ in range(2):
        order(state, "a", "initiative Careful Aim", stream)
        order(state, "b", "initiative Careful Aim", stream)
    assert state.initiative == "a"


def test_a_squadron_wholly_out_of_action_plays_no_card() -> None:
    """9.2: "If an entire Squadron is Captured or Out of Action, that Squadron may not play an initiative
    card this round."""
    rs, stream = ruleset(), rng(1)
    state = rs.setup("fleet", {}, stream)
    for ship in state.ships:
        if ship.squadron == "a2":
            ship.crippled, ship.fatigue = True, 7
    order(state, "a", "initiative Down!", stream)
    assert "a" not in rs.to_act(state)


def test_a_fleet_moves_a_whole_squadron_then_the_other_fleet() -> None:
    """9.3 MOVEMENT PHASE: "each side will activate all the ships in a single Squadron together ... each
    individual ship in the Squadron must complete its full activation before another ship is activated.
    Both fleets alternate activating Squadrons"."""
    state, stream = begin("fleet", 1)
    anchor_others(state)
    rs = ruleset()
    first = rs.to_act(state)[0]
    other = "b" if first == "a" else "a"
    ship = next(s for s in state.ships if s.side == first)
    order(state, first, f"{ship.name} done", stream)
    mate = next(s for s in state.ships if s.squadron == ship.squadron and s.id != ship.id)
    other_sq = next(s for s in state.ships if s.side == first and s.squadron != ship.squadron)
    assert rs.to_act(state) == [first]
    assert fails(state, first, f"{other_sq.name} done", stream).text
    order(state, first, f"{mate.name} done", stream)
    assert rs.to_act(state) == [other]


def test_attack_phase_alternates_ships_regardless_of_squadron() -> None:
    """9.4 ATTACK PHASE: "The Attack Phase works identically to a standard game of Oak & Iron. Players
    alternate activating ships regardless of Squadron."""
    state, stream = begin("fleet", 1)
    anchor_others(state)
    play_out(state, stream, until="attack")
    rs = ruleset()
    first = rs.to_act(state)[0]
    other = "b" if first == "a" else "a"
    ships = [s for s in state.ships if s.side == first]
    order(state, first, f"{ships[0].name} hold", stream)
    assert rs.to_act(state) == [other]
    theirs = next(s for s in state.ships if s.side == other)
    order(state, other, f"{theirs.name} hold", stream)
    other_squadron = next(s for s in ships if s.squadron != ships[0].squadron)
    order(state, first, f"{other_squadron.name} hold", stream)  # another Squadron's ship, straight away
    assert other_squadron.attacked


@pytest.mark.slow
def test_withdrawal_against_the_fleets_ship_count() -> None:
    """9.5 END PHASE: "When checking for withdrawal in a fleet battle, the total Strike Points earned are
    checked against the total ship count of the fleet." (A loses a Squadron's two ships Out of Action,
    Flagship 3 + 2 = 5 against its two ships left: A withdraws.)"""
    state, stream = begin("fleet", 1)
    anchor_others(state)
    for ship in state.ships:
        if ship.squadron == "a2":
            ship.crippled, ship.fatigue = True, 7
    events = "\n".join(play_out(state, stream, until="select"))
    assert "Player A" in events and "5 Strike Points against 2 ships" in events
    assert state.phase == "over" and state.winner == "b"


@pytest.mark.slow
def test_a_crippled_prize_counts_for_the_capturing_fleet() -> None:
    """9.5 END PHASE with 4.4 step 1: "If the ship is Captured, it now counts toward the ship total of the
    Squadron that Captured it" - in a fleet battle, toward the capturing fleet's count; 4.4 CAPTURED:
    "do not count as an Out of Action ship"."""
    state, stream = begin("fleet", 1)
    anchor_others(state, "a1-2-sloop", "b1-2-corvette")
    sloop, corvette = abreast(state, "a1-2-sloop", "b1-2-corvette")
    entangle(sloop, corvette)
    sloop.crippled, sloop.damage, sloop.fatigue = True, 7, 7
    play_out(state, stream)
    events = texts(order(state, "b", "capture Sloop", stream))
    assert "0 Strike Points against 5 ships" in events
    assert "sinking roll" not in events
