"""Book chapter 9 (Fleet Battles): fleets of 2-4 Squadrons, each with its own admiral and initiative
hand; the fleets' card totals decide the initiative; a Squadron wholly out of the fight plays no
card; a fleet activates a whole Squadron before the other fleet goes; withdrawal counts the whole
fleet; each Squadron's card helps its own ships; hands stay private."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.errors import GameError
from games.core.rng import Rng
from games.core.ruleset import legal_texts
from games.oak_and_iron.data import initiative_cards
from games.oak_and_iron.rules import end_phase_4_4 as end
from games.oak_and_iron.rules.initiative_4_1 import card_amount
from games.oak_and_iron.state import State
from tests.oak_and_iron.helpers import fails, order, rng, ruleset


def fleet(seed: int = 1, **options: str) -> tuple[State, Rng]:
    stream = rng(seed)
    return ruleset().setup("fleet", dict(options), stream), stream


def test_fleets_are_built_of_squadrons_with_their_own_admirals_and_hands() -> None:
    """FLEET BUILDING: "fleets ... made up of 2-4 Squadrons each ... Each Squadron will have its own
    initiative card hand"; here each Squadron also has its own admiral and Flagship."""
    state, _ = fleet(admiral_a="capable|untested")
    assert [q.id for q in state.squadrons] == ["a1", "a2", "b1", "b2"]
    a1, a2 = state.squadrons[0], state.squadrons[1]
    assert (len(a1.hand), len(a2.hand)) == (6, 5) and a1.admiral_name == "Capable"
    for q in state.squadrons:
        own = [s for s in state.ships if s.squadron == q.id]
        assert own and sum(s.flagship for s in own) == 1 and all(s.side == q.fleet for s in own)
    assert all(0 < s.x < state.table_width and 0 < s.y < state.table_height for s in state.ships)
    assert any(i.id == "fleet" for i in ruleset().scenarios())


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"fleet_a": "sloop/sloop"}, "2 to 4"),
        ({"fleet_a": "sloop|sloop|sloop|sloop|sloop"}, "2 to 4"),
        ({"fleet_a": "fourth-rate/fourth-rate|fourth-rate/fourth-rate|fourth-rate/fourth-rate|fourth-rate/fourth-rate"}, "points"),
        ({"admiral_a": "untested|nelson"}, "`nelson`"),
    ],
)
def test_bad_fleets_are_refused_with_the_reason(options: dict[str, str], fragment: str) -> None:
    with pytest.raises(GameError) as err:
        ruleset().setup("fleet", options, rng())
    assert fragment in err.value.text


def _seal(state: State, stream: Rng, cards: dict[str, str]) -> None:
    """Seal the named card for each squadron (one round), in the order the fleets are asked."""
    turn = state.turn
    while state.phase == "select" and state.turn == turn:
        seat = ruleset().to_act(state)[0]
        holder = next(q for q in state.squadrons if q.fleet == seat and not q.sealed and q.hand)
        order(state, seat, f"initiative {cards[holder.id]}", stream)


TURN_1 = {"a1": "Rolling Broadside", "a2": "Effective Fire", "b1": "Adjust Position", "b2": "Down!"}
TURN_2 = {"a1": "Careful Aim", "a2": "Careful Aim", "b1": "Careful Aim", "b2": "Careful Aim"}


def test_each_squadron_seals_a_card_and_the_fleet_totals_decide() -> None:
    """INITIATIVE PHASE: "each fleet adds up the total initiative values from all of the initiative
    cards played by the Squadrons in that fleet. The fleet with the higher total will go first"."""
    state, stream = fleet()
    assert ruleset().to_act(state) == ["a", "b"]
    # A: 3 + 4 = 7 against B: 5 + 1 = 6, though B shows the highest single card
    _seal(state, stream, TURN_1)
    _seal(state, stream, TURN_2)
    values = {q.id: initiative_cards()[q.face_up].value for q in state.squadrons}
    assert values == {"a1": 3, "a2": 4, "b1": 5, "b2": 1}
    assert state.initiative == "a" and state.phase == "movement"


def test_a_squadron_wholly_out_of_the_fight_plays_no_card() -> None:
    """INITIATIVE PHASE: "If an entire Squadron is Captured or Out of Action, that Squadron may not
    play an initiative card this round"."""
    state, stream = fleet()
    for ship in state.ships:
        if ship.squadron == "a2":
            ship.crippled, ship.fatigue = True, 7
    order(state, "a", "initiative Down!", stream)
    assert state.squadrons[0].sealed == "down" and not state.squadrons[1].sealed
    assert "a" not in ruleset().to_act(state)
    assert fails(state, "a", "initiative Careful Aim", stream).kind == "illegal order"


def test_a_fleet_activates_a_whole_squadron_before_the_other_fleet() -> None:
    """MOVEMENT PHASE: "each side will activate all the ships in a single Squadron together ... Both
    fleets alternate activating Squadrons"."""
    state, stream = fleet()
    _seal(state, stream, TURN_1)
    _seal(state, stream, TURN_2)
    rs = ruleset()
    assert rs.to_act(state) == ["a"]
    a2 = [s for s in state.ships if s.squadron == "a2"]
    order(state, "a", f"{a2[0].name} move", stream)
    order(state, "a", f"{a2[0].name} done", stream)
    assert rs.to_act(state) == ["a"] and state.moving_squadron == "a2"  # the rest of a2 first
    order(state, "a", f"{a2[1].name} move", stream)
    order(state, "a", f"{a2[1].name} done", stream)
    assert rs.to_act(state) == ["b"] and state.moving_squadron == ""  # now B activates a squadron


def test_only_the_moving_squadron_may_activate() -> None:
    from games.oak_and_iron.rules.activation_4 import movers

    state, stream = fleet()
    _seal(state, stream, TURN_1)
    _seal(state, stream, TURN_2)
    a2 = [s for s in state.ships if s.squadron == "a2"]
    order(state, "a", f"{a2[0].name} move", stream)
    order(state, "a", f"{a2[0].name} done", stream)
    assert [s.squadron for s in movers(state, "a")] == ["a2"]
    a1 = next(s for s in state.ships if s.squadron == "a1")
    assert fails(state, "a", f"{a1.name} move", stream).kind in ("illegal order", "not your turn")


def test_each_squadrons_card_helps_its_own_ships() -> None:
    """House reading of ch. 9 ("may only use cards from its own initiative hand"): a squadron's
    face-up card applies to its own ships, not to the rest of its fleet."""
    state, _ = fleet()
    state.squadrons[0].face_up = "favorable-wind"  # speed +1
    a1 = next(s for s in state.ships if s.squadron == "a1")
    a2 = next(s for s in state.ships if s.squadron == "a2")
    assert card_amount(state, "a", "speed", a1) == 1 and card_amount(state, "a", "speed", a2) == 0


def test_withdrawal_counts_the_whole_fleet() -> None:
    """END PHASE: "the total Strike Points earned are checked against the total ship count of the
    fleet"; each Squadron's Flagship is worth the Flagship's 3."""
    state, _ = fleet()
    flags = [s for s in state.ships if s.side == "a" and s.flagship]
    assert len(flags) == 2
    for f in flags:
        f.status = "sunk"
    assert end.strike_points(state, "a") == 6
    assert end.ship_total(state, "a") == sum(1 for s in state.ships if s.side == "a") - 2


def test_lost_admiral_is_replaced_within_its_own_squadron() -> None:
    state, _stream = fleet()
    flag = next(s for s in state.ships if s.squadron == "a2" and s.flagship)
    flag.status = "sunk"
    lines = end.lost_admiral(state, state.squadrons[1])
    new = next(s for s in state.ships if s.flagship and s.squadron == "a2")
    assert new.id != flag.id and state.squadrons[1].admiral_name == "none" and state.squadrons[0].admiral_name == "Untested"
    assert "squadron 2's Admiral is lost" in "\n".join(lines)


def test_hands_are_private_to_the_fleets_seat() -> None:
    rs = ruleset()
    state, stream = fleet()
    for text in rs.view(state, None).private_text:
        raise AssertionError(text)
    mine = "\n".join(rs.view(state, "a").private_text)
    assert "Player A squadron 1's initiative hand" in mine and "Player A squadron 2's initiative hand" in mine
    assert "Player B squadron" not in mine
    events = order(state, "a", "initiative Down!", stream)
    assert all(e.to is not None for e in events if "Down!" in e.text)


def test_the_sealing_note_reaches_the_fleets_own_seat() -> None:
    """The private "You sealed ... Nonce" went to the squadron's id (a1), which no seat holds, so
    the fleet's player never got the nonce; it goes to the fleet's seat."""
    state, stream = fleet()
    events = order(state, "a", "initiative Down!", stream)
    note = next(e for e in events if e.text.startswith("You sealed"))
    assert note.to == frozenset({"a"})


# --- a player for each Squadron (command=squadron): "players can split up into 2 teams and each
# player controls 1 or 2 Squadrons" (ch. 9) ---------------------------------------------------------

SQ = {"command": "squadron"}


def test_each_squadron_is_a_seat_of_its_fleet() -> None:
    rs = ruleset()
    state, _ = fleet(**SQ)
    seats = [(s.id, s.label, s.side) for s in rs.seats(state) if s.id != "umpire"]
    assert seats == [("a1", "Player A squadron 1", "a"), ("a2", "Player A squadron 2", "a"),
                     ("b1", "Player B squadron 1", "b"), ("b2", "Player B squadron 2", "b")]
    assert rs.to_act(state) == ["a1", "a2", "b1", "b2"]  # each seals a card from its own hand
    assert [s.id for s in rs.seats(fleet()[0])][:2] == ["a", "b"]  # the default: a seat a fleet


def test_a_squadrons_player_seals_only_from_its_own_hand_and_sees_only_it() -> None:
    rs = ruleset()
    state, stream = fleet(**SQ, hand_a="down/careful-aim/rolling-broadside/effective-fire/adjust-position|"
                                       "fire-as-she-bears/take-courage/fleet-manuever/reload/favorable-wind")
    own = "\n".join(rs.view(state, "a2").private_text)
    assert "squadron 2's initiative hand" in own and "squadron 1's" not in own
    assert all(o.startswith("initiative ") for o in legal_texts(rs, state, "a2"))
    assert "initiative Take Courage" in legal_texts(rs, state, "a2") and "initiative Down!" not in legal_texts(rs, state, "a2")
    assert "is not in Player A squadron 2's hand" in fails(state, "a2", "initiative Down!", stream).text
    events = order(state, "a2", "initiative Take Courage", stream)
    assert next(e for e in events if e.text.startswith("You sealed")).to == frozenset({"a2"})
    assert state.squadrons[1].sealed == "take-courage" and not state.squadrons[0].sealed  # a1 chooses its own
    assert "already sealed" in fails(state, "a2", "initiative Reload", stream).text
    assert rs.to_act(state) == ["a1", "b1", "b2"]
    assert fails(state, "a", "initiative Down!", stream).kind == "not your turn"  # no seat "a" now


def _sealed_squadrons(seed: int = 1) -> tuple[State, Rng]:
    state, stream = fleet(seed, **SQ)
    for cards in (TURN_1, TURN_2):
        for _ in state.squadrons:
            seat = ruleset().to_act(state)[0]
            order(state, seat, f"initiative {cards[seat]}", stream)
    assert state.phase == "movement" and state.initiative == "a"
    return state, stream


def test_a_player_orders_only_their_own_squadrons_ships() -> None:
    """Movement: any Squadron of the fleet to act may start (both are pinged); once one has, only
    its player acts until its ships are done; a team-mate's ship is refused."""
    rs = ruleset()
    state, stream = _sealed_squadrons()
    assert rs.to_act(state) == ["a1", "a2"]
    a1 = [s for s in state.ships if s.squadron == "a1"]
    a2 = [s for s in state.ships if s.squadron == "a2"]
    err = fails(state, "a1", f"{a2[0].name} move", stream)
    assert "each player orders only their own Squadron's" in err.text and "add seat:a2" in str(err)
    assert all(o.startswith(tuple(s.name for s in a1)) for o in legal_texts(rs, state, "a1"))
    order(state, "a2", f"{a2[0].name} move", stream)
    assert rs.to_act(state) == ["a2"] and legal_texts(rs, state, "a1") == []
    order(state, "a2", f"{a2[0].name} done", stream)
    assert rs.to_act(state) == ["a2"]  # the rest of its squadron first (ch. 9)
    order(state, "a2", f"{a2[1].name} move", stream)
    order(state, "a2", f"{a2[1].name} done", stream)
    assert rs.to_act(state) == ["b1", "b2"]
    assert fails(state, "a1", f"{a1[0].name} move", stream).kind == "not your turn"


def test_command_squadron_is_only_for_fleet_battles() -> None:
    with pytest.raises(GameError) as err:
        ruleset().setup("patrol", dict(SQ), rng())
    assert "Fleet Battles (ch. 9)" in err.value.text


@pytest.mark.slow
def test_a_fleet_battle_with_a_seat_a_squadron_plays_out_and_replays() -> None:
    from tests.oak_and_iron.test_playouts import random_game, replay

    state, log = random_game("fleet", 11, 12, dict(SQ))
    assert ruleset().outcome(state) is not None
    assert {seat for seat, _ in log} <= {"a1", "a2", "b1", "b2"} and len({seat for seat, _ in log}) == 4
    assert replay("fleet", 11, log, dict(SQ)) == state


def test_each_squadron_of_a_fleet_may_choose_its_own_faction() -> None:
    """FACTIONS & SHIPS (6) for every Squadron of a fleet (ch. 9 builds fleets of Squadrons):
    ``faction_a=royal-navy|armada``; the cards' symbols are checked per Squadron; the shared Fortune
    Points take each faction's bonus once (house)."""
    state, _ = fleet(faction_a="royal-navy|armada")
    plain, _ = fleet()
    a1 = [s for s in state.ships if s.squadron == "a1"]
    a2 = [s for s in state.ships if s.squadron == "a2"]
    assert all(s.skill >= 1 for s in a1) and [s.fortitude for s in a2] == [plain.ship(s.id).fortitude + 1 for s in a2]
    assert [q.faction for q in state.squadrons] == ["royal-navy", "armada", "", ""]
    assert fleet(faction_a="brethren|brethren")[0].side("a").fortune == fleet(faction_a="brethren|royal-navy")[0].side("a").fortune == 4
    assert fleet(faction_a="brethren")[0].side("a").fortune == 4  # one faction for the whole fleet, as before
    with pytest.raises(GameError, match="A1: the upgrade card Boarding Pikes carries the symbol of the Brethren"):
        ruleset().setup("fleet", {"faction_a": "royal-navy|brethren", "fleet_a": "petite-fregate/sloop+boarding-pikes|light-frigate/brigantine"}, rng())
    ruleset().setup("fleet", {"faction_a": "royal-navy|brethren", "fleet_a": "petite-fregate/sloop|light-frigate/brigantine+boarding-pikes"}, rng())
    with pytest.raises(GameError, match="names 3 factions for 2 Squadrons"):
        ruleset().setup("fleet", {"faction_a": "armada|armada|armada"}, rng())


def test_a_squadrons_faction_stays_when_its_values_are_recomputed() -> None:
    """A captain turning face down recomputes the ship from its cards: its own Squadron's faction."""
    from games.oak_and_iron.rules.captains_6 import flag_moved

    state, _ = fleet(faction_a="royal-navy|armada", fleet_a="petite-fregate/sloop+steady-captain|light-frigate/brigantine+fighting-captain")
    brig = next(s for s in state.ships if s.squadron == "a2" and s.captain)
    before = brig.fortitude
    brig.flagship = True
    flag_moved(state, brig)
    assert brig.fortitude == before  # Armada's +1 kept (the option holds two factions)


@pytest.mark.slow
def test_one_player_may_hold_two_squadrons_through_the_table(tmp_path: Path) -> None:
    """Ch. 9 "each player controls 1 or 2 Squadrons": one user takes both seats of a fleet; an
    order goes to the first of their seats that is to act, or to the one named with seat:."""
    from tests.console import run_script

    script = tmp_path / "two.txt"
    script.write_text("\n".join([
        "as @alice", "/game new system:oak-and-iron scenario:fleet options:command=squadron",
        "/game join seat:a1", "/game join seat:a2", "as @bob", "/game join seat:b1", "/game join seat:b2",
        "as @alice", "/game start",
        "/order text:initiative Careful Aim", "/order text:initiative Down! seat:a2",
        "! /order text:initiative Reload seat:a2",
    ]) + "\n")
    done = run_script(script)
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    out = done.stdout
    assert "Player A squadron 1 seals an initiative card" in out and "Player A squadron 2 seals an initiative card" in out
    assert "Player A squadron 2 has already sealed" in out


@pytest.mark.slow
def test_a_squadrons_player_concedes_for_the_whole_fleet_by_its_name(tmp_path: Path) -> None:
    """With a seat a Squadron no seat is the fleet itself: a concession names the fleet as the game
    does ("Player B's fleet concedes."), not its bare id, and the other fleet wins."""
    from tests.console import run_script

    script = tmp_path / "concede.txt"
    script.write_text("\n".join([
        "as @alice", "/game new system:oak-and-iron scenario:fleet options:command=squadron",
        "/game join seat:a1", "/game join seat:a2", "as @bob", "/game join seat:b1", "/game join seat:b2",
        "/game start", "/game concede seat:b2 confirm:true",
    ]) + "\n")
    done = run_script(script)
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    assert "Player B's fleet concedes." in done.stdout and "**Game over.** Winner: " in done.stdout


@pytest.mark.slow
def test_a_fleet_concedes_only_when_every_squadrons_player_has(tmp_path: Path) -> None:
    """A Squadron's player cannot give up a team-mate's ships: their concession is logged, the game
    goes on, and the fleet concedes (the other fleet wins) once its other Squadron's player concedes
    too. Before, @alice alone ended the game for both players of Player A's fleet."""
    from tests.console import run_script

    script = tmp_path / "concede.txt"
    script.write_text("\n".join([
        "as @alice", "/game new system:oak-and-iron scenario:fleet options:command=squadron",
        "/game join seat:a1", "as @carol", "/game join seat:a2", "as @bob", "/game join seat:b1", "/game join seat:b2",
        "/game start", "as @alice", "/game concede",
        "/game concede confirm:true", "! /game concede confirm:true",
        "/order text:initiative Careful Aim",  # alice's seat still plays
        "/game status",  # the fleet is not out yet: one concession mechanism counts every held seat
        "as @carol", "/game concede confirm:true", "/game status",
    ]) + "\n")
    done = run_script(script)
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    out = done.stdout
    first, rest = out.split("Player A squadron 1 concedes for Player A's fleet.", 1)
    assert "Player A's fleet concedes only once Player A squadron 2 (@carol) concede too" in first  # the preview
    assert "Player A's fleet plays on until Player A squadron 2 (@carol) concede too." in rest
    before_carol, after_carol = rest.split("Player A squadron 2 concedes for Player A's fleet.", 1)
    assert "You have already conceded for Player A's fleet" in before_carol and "Game over" not in before_carol
    assert "Player A squadron 1 seals an initiative card" in before_carol
    assert "Player A's fleet concedes." in after_carol and "**Game over.** Winner: Player B's fleet." in after_carol
    assert "Out:" not in before_carol and "Out: Player A's fleet (conceded)." in after_carol
    assert "/game concede gives up your fleet only once every Squadron's player" in ruleset().help()


def test_a_tie_of_fleets_names_the_cards_played() -> None:
    """Four cards of initiative 2 tie the fleets 4 to 4: the tie line counts the four cards played;
    before, it said "Both cards have initiative 4"."""
    state, stream = fleet()
    events = []
    while state.phase == "select" and state.turn == 0:
        events += order(state, ruleset().to_act(state)[0], "initiative Careful Aim", stream)
    text = "\n".join(e.text for e in events)
    assert "The 4 cards played give each fleet initiative 4: an event card is drawn." in text
    assert "Both cards" not in text


def test_the_sealing_note_names_the_squadron_it_seals_for() -> None:
    """A fleet's seat seals for each Squadron in turn: its note names the Squadron sealed for and the
    one its next card goes to; a Squadron's own seat hears its Squadron's name. Before, the note
    said only "You sealed Down!."."""
    state, stream = fleet()
    notes = [e.text for e in order(state, "a", "initiative Down!", stream) if e.to is not None]
    assert any(n.startswith("You sealed Down! for Player A squadron 1. Nonce ") for n in notes)
    assert any(n.endswith("Your next `initiative <card>` seals for Player A squadron 2.") for n in notes)
    last = [e.text for e in order(state, "a", "initiative Down!", stream) if e.to is not None]
    assert any("You sealed Down! for Player A squadron 2." in n for n in last) and "Your next" not in "\n".join(last)
    state, stream = fleet(**SQ)
    own = [e.text for e in order(state, "a2", "initiative Down!", stream) if e.to is not None]
    assert any(n.startswith("You sealed Down! for Player A squadron 2. Nonce ") for n in own)


@pytest.mark.slow
def test_each_squadrons_hand_is_dmed_once_after_the_reveal(tmp_path: Path) -> None:
    """After the reveal each Squadron's player got their new hand twice: as the rules' private note
    and again in their private view. The view DM carries it; the note is left out."""
    from tests.console import run_script

    script = tmp_path / "reveal.txt"
    lines = ["as @alice", "/game new system:oak-and-iron scenario:fleet options:command=squadron", "/game join seat:a1",
             "as @carol", "/game join seat:a2", "as @bob", "/game join seat:b1", "as @dave", "/game join seat:b2",
             "as @alice", "/game start"]
    for user in ("alice", "carol", "bob", "dave"):
        lines += [f"as @{user}", "/order text:initiative Careful Aim"]
    script.write_text("\n".join(lines) + "\n")
    done = run_script(script)
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    reveal = done.stdout.split("Turn 1: Initiative Phase.", 1)[1]
    for user, squadron in (("alice", "A squadron 1"), ("carol", "A squadron 2"), ("bob", "B squadron 1"), ("dave", "B squadron 2")):
        assert reveal.count(f"DM to @{user} | Player {squadron}'s initiative hand") == 1, user
