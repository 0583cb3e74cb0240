"""Book ch. 4, The End Phase (4.4): Captured, Strike Points, and the five steps, checked against the
book's sentences through order text."""

from __future__ import annotations

import pytest

from games.core.rng import Rng
from games.oak_and_iron.state import State
from tests.book.oak_and_iron.book import abreast, anchor_others, begin, entangle, order, play_out, texts


def _prize(seed: int, crippled: bool) -> tuple[State, Rng, str]:
    """Skirmish (4 ships a side): A's Sloop, Shaken (and Crippled when asked), Entangled with B's
    Corvette; the turn is played out with quiet orders and B captures it in the End Phase."""
    state, stream = begin("skirmish", seed)
    anchor_others(state, "a3-sloop", "b2-corvette")
    sloop, corvette = abreast(state, "a3-sloop", "b2-corvette")
    entangle(sloop, corvette)
    sloop.fatigue = 7
    if crippled:
        sloop.crippled, sloop.damage = True, 7
    play_out(state, stream)
    assert state.pending and state.pending[0].ship == "a3-sloop"
    return state, stream, texts(order(state, "b", "capture Sloop", stream))


@pytest.mark.slow
def test_a_prize_taken_while_shaken_counts_for_its_captor() -> None:
    """4.4 step 1 CAPTURE OR DESTROY SHAKEN SHIPS: "If the ship is Captured, it now counts toward the
    ship total of the Squadron that Captured it." (B: four ships and the prize.)"""
    _state, _stream, events = _prize(3, crippled=False)
    assert "Player B: 0 Strike Points against 5 ships." in events
    assert "Player A: 2 Strike Points against 3 ships." in events


@pytest.mark.slow
def test_a_prize_taken_while_crippled_counts_for_its_captor() -> None:
    """4.4 CAPTURED: "Captured ships follow all of the same restrictions as Out of Action ships, but
    do not count as an Out of Action ship." With 4.4 step 1 ("it now counts toward the ship total of
    the Squadron that Captured it"), a prize Crippled and Shaken when taken is in B's total."""
    _state, _stream, events = _prize(3, crippled=True)
    assert "Player B: 0 Strike Points against 5 ships." in events
    assert "Player A: 2 Strike Points against 3 ships." in events


@pytest.mark.slow
def test_a_prize_taken_while_crippled_is_not_rolled_for_sinking() -> None:
    """4.4 step 3 CHECK FOR SINKING SHIPS: "Roll a dice for each Out of Action ship on the table";
    a Captured ship does "not count as an Out of Action ship" (4.4 CAPTURED), so it never sinks."""
    for seed in range(1, 9):
        state, _stream, events = _prize(seed, crippled=True)
        assert "sinking roll" not in events
        assert state.ship("a3-sloop").status == "afloat"


def test_strike_points_for_crippled_out_of_action_and_flagship() -> None:
    """4.4 STRIKE POINTS: "1 for each ship that is Crippled (not Out of Action)", "2 for each ship that
    has sunk, is captured, or Out of Action (not Flagship)", "3 for each Flagship that is Out of
    Action"."""
    state, stream = begin("skirmish", 2)
    anchor_others(state)
    state.ship("a2-petite-fregate").crippled = True  # 1
    oa = state.ship("a3-sloop")
    oa.crippled, oa.fatigue = True, 7  # 2
    flag = state.ship("b1-galleon")
    flag.crippled, flag.fatigue = True, 7  # 3 (B's Flagship)
    events = "\n".join(play_out(state, stream, until="select"))
    assert "Player A: 3 Strike Points" in events
    assert "Player B: 3 Strike Points" in events


@pytest.mark.slow
def test_withdrawal_when_strike_points_exceed_ships_out_of_action_and_aground_not_counted() -> None:
    """4.4 step 2 CHECK FOR WITHDRAWAL: "If the number of Strike Points earned this round exceeds the
    total number of ships in that Squadron (Aground or Out of Action ships do not count towards the
    ship total), that Squadron withdraws and the player has lost."""
    state, stream = begin("skirmish", 2)
    anchor_others(state)
    oa = state.ship("a3-sloop")
    oa.crippled, oa.fatigue = True, 7  # 2 Strike Points; A's total 3
    state.ship("a4-brigantine").aground = True  # total 2: 2 does not exceed 2
    events = "\n".join(play_out(state, stream, until="select"))
    assert "Player A: 2 Strike Points against 2 ships." in events and state.phase != "over"
    state, stream = begin("skirmish", 2)
    anchor_others(state)
    oa = state.ship("a3-sloop")
    oa.crippled, oa.fatigue = True, 7
    state.ship("a4-brigantine").aground = True
    state.ship("a2-petite-fregate").crippled = True  # 3 against 2
    play_out(state, stream, until="select")
    assert state.phase == "over" and state.winner == "b"


def test_both_over_their_totals_the_fewer_strike_points_wins() -> None:
    """4.4 step 2: "If both players have earned more Strike Points than their ship total, the player
    with the least amount of Strike Points is the winner."""
    state, stream = begin("quickstart", 2)
    anchor_others(state)
    for ship_id in ("sloop", "corvette"):
        ship = state.ship(ship_id)
        ship.crippled, ship.fatigue = True, 7  # 2 each, totals 1 each
    state.ship("fluyt").crippled = True  # B 3
    play_out(state, stream, until="select")
    assert state.phase == "over" and state.winner == "a"


def test_turn_ten_fewer_strike_points_wins_and_a_tie_goes_to_the_defender() -> None:
    """4.4 step 2: "During the End Phase of turn 10, whichever player has fewer Strike Points is the
    winner. If there is a tie at the end of turn 10, the defender is declared the winner"."""
    for crippled, winner in (("corvette", "a"), ("", "")):
        state, stream = begin("quickstart", 2)
        anchor_others(state)
        state.turn = 10
        if crippled:
            state.ship(crippled).crippled = True
        play_out(state, stream, until="select")
        assert state.phase == "over"
        assert state.winner == (winner or state.defender)


@pytest.mark.slow
def test_out_of_action_ships_roll_to_sink() -> None:
    """4.4 step 3 CHECK FOR SINKING SHIPS: "Roll a dice for each Out of Action ship on the table. If a
    [Skull] or [Cannonball] is rolled, the ship sinks and is removed from the table." (The faces are the
    house reading of the custom die.)"""
    sank = stayed = 0
    for seed in range(1, 12):
        state, stream = begin("skirmish", seed)
        anchor_others(state)
        ship = state.ship("a3-sloop")
        ship.crippled, ship.fatigue = True, 7
        events = "\n".join(play_out(state, stream, until="select"))
        assert "Sloop is Out of Action: sinking roll" in events
        if "Sloop sinks" in events:
            sank += 1
            assert ship.status == "sunk" and not ship.on_table
        else:
            stayed += 1
            assert ship.status == "afloat"
    assert sank and stayed


@pytest.mark.slow
def test_lost_admiral_is_replaced_and_the_hand_cut_to_five() -> None:
    """4.4 step 4 LOST ADMIRALS: "If a Flagship ever ends a turn Out of Action, the controlling player
    may spend a Fortune Point to take a Free Transfer Flag action" ... "a new ship must immediately be
    assigned as the Flagship with an admiral value of 0. If the player has more than 5 initiative cards
    in their hand, that player must immediately remove cards from their hand until they have 5 cards
    remaining." Ruling (RULINGS.md): the hand is the cards held at step 4, not the face-down card
    nor the face-up one, which returns at step 5."""
    state, stream = begin("skirmish", 4, {"lost_admiral": "new", "admiral_a": "veteran"})
    side = state.side("a")
    side.hand.append("favorable-wind")  # six held (a Veteran's hand of 8), one face down, one face up
    face_up = side.face_up
    anchor_others(state)
    flag = state.ship("a1-light-frigate")
    flag.crippled, flag.fatigue = True, 7
    events = "\n".join(play_out(state, stream, until="select"))
    assert "Player A's Admiral is lost" in events
    assert not flag.flagship and sum(s.flagship for s in state.ships if s.side == "a") == 1
    assert side.admiral_value == 0
    assert face_up in side.hand and len(side.hand) == 6  # five kept at step 4, then the face-up card


def test_face_up_cards_return_to_the_hand() -> None:
    """4.4 step 5 RETURN INITIATIVE CARDS: "Both players now return their face up initiative cards to
    their hands." (A card marked to be discarded after play does not come back.)"""
    state, stream = begin("quickstart", 1)
    face_up = state.side("a").face_up
    assert face_up
    play_out(state, stream, until="select")
    assert face_up in state.side("a").hand or face_up in state.side("a").discarded


@pytest.mark.slow
def test_destroying_a_shaken_ship_is_a_free_cut_free() -> None:
    """4.4 step 1: "If the ship is Destroyed, immediately take a Free Cut Free Action. If this is not
    possible, remove the Destroyed ship from the table. The Destroyed ship is Out of Action." 4.2 FREE
    ACTIONS: "These are actions or attacks that can be taken out of turn and in addition to normal
    actions" (no Skill Test is rolled for it)."""
    state, stream = begin("skirmish", 3)
    anchor_others(state, "a3-sloop", "b2-corvette")
    sloop, corvette = abreast(state, "a3-sloop", "b2-corvette")
    entangle(sloop, corvette)
    sloop.fatigue = 7
    play_out(state, stream)
    events = texts(order(state, "b", "destroy Sloop", stream))
    assert sloop.out_of_action and not corvette.entangled and not sloop.entangled
    assert "Skill Test" not in events.split("Player A:")[0]


@pytest.mark.slow
def test_a_prize_follows_the_restrictions_of_an_out_of_action_ship() -> None:
    """4.4 CAPTURED: "Captured ships follow all of the same restrictions as Out of Action ships" (4.3 OUT
    OF ACTION: "a ship can no longer move, take Seamanship or Crew Actions, make attacks"): its captor
    cannot order it, whether it was taken Shaken or Crippled too."""
    for crippled in (False, True):
        state, stream, _ = _prize(3, crippled=crippled)
        for _ in range(4):  # seal the next cards
            if state.phase == "movement":
                break
            from tests.book.oak_and_iron.book import ruleset

            rs = ruleset()
            for seat in rs.to_act(state):
                rs.apply(state, seat, rs.legal_orders(state, seat)[0], stream)
        assert state.phase == "movement"
        assert all("Sloop" not in str(o) for o in ruleset().legal_orders(state, "b"))
        assert all("Sloop" not in str(o) for o in ruleset().legal_orders(state, "a"))


def test_a_prize_cut_loose_still_cannot_be_ordered_by_its_captor() -> None:
    """4.4 CAPTURED: "Captured ships follow all of the same restrictions as Out of Action ships" - "a ship
    can no longer move, take Seamanship or Crew Actions" (4.3 OUT OF ACTION), so no order activates a
    prize even when it no longer lies Entangled."""
    from tests.book.oak_and_iron.book import fails, ruleset

    state, stream, _ = _prize(3, crippled=False)
    sloop, corvette = state.ship("a3-sloop"), state.ship("b2-corvette")
    sloop.entangled, corvette.entangled = [], []
    corvette.x += 3.0  # the captor has sailed off; the prize lies alone
    rs = ruleset()
    while state.phase != "movement":
        for seat in rs.to_act(state):
            rs.apply(state, seat, rs.legal_orders(state, seat)[0], stream)
    if rs.to_act(state) == ["a"]:
        order(state, "a", "Light Frigate done", stream)
    assert rs.to_act(state) == ["b"]
    for text in ("Sloop move", "Sloop done", "Sloop seamanship adjust +1"):
        assert "Captured" in fails(state, "b", text, stream).text


def test_a_captured_flagship_is_a_lost_flagship_and_never_sinks() -> None:
    """4.4 STRIKE POINTS: "2 for each ship that has sunk, is captured, or Out of Action (not Flagship)";
    "3 for each Flagship that is Out of Action". Ruling (RULINGS.md): a Flagship sunk, captured or Out
    of Action is the Flagship's 3; a captured one is still never rolled for sinking (4.4 CAPTURED)."""
    state, stream = begin("skirmish", 3)
    anchor_others(state, "a1-light-frigate", "b2-corvette")
    flag, corvette = abreast(state, "a1-light-frigate", "b2-corvette")
    entangle(flag, corvette)
    flag.crippled, flag.damage, flag.fatigue = True, 7, 7
    play_out(state, stream)
    events = texts(order(state, "b", "capture Light Frigate", stream))
    assert "Player A: 3 Strike Points against 3 ships." in events
    assert "Player B: 0 Strike Points against 5 ships." in events
    assert "sinking roll" not in events and flag.status == "afloat"
    assert "Player A's Admiral is lost" in events and not flag.flagship
