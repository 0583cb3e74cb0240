"""Findings from playing an Oak & Iron Fleet Battle with command=squadron through the console as a
new player (issue 21): the fleet line (F20), the status after the game (F21) and `measure` (F22)."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.oak_and_iron.rules.activation_4 import to_act
from games.oak_and_iron.view import status
from tests.book.oak_and_iron.book import rng, ruleset, started
from tests.bot.helpers import ALICE, BOB, CAROL, make_service, ok, public_text


def test_9_the_fleet_line_of_a_fleet_battle_shows_no_hand_of_its_own() -> None:
    """Ch. 9 FLEET BUILDING: "Each Squadron will have its own initiative card hand as usual and may
    only use cards from its own initiative hand." The fleet itself seals no card and holds no hand,
    so its status line says only what is the fleet's: fortune and strike points (in play the line
    read "Player A's fleet: admiral fleet (0), fortune 3, strike points 0, face-up -, no card
    sealed, 0 cards in hand" all game long, beside the squadrons' real hands)."""
    for command in ("squadron", "fleet"):
        lines = status(ruleset().setup("fleet", {"command": command}, rng()))
        fleets = [line for line in lines if line.startswith(("Player A's fleet:", "Player B's fleet:"))]
        assert fleets == [
            "Player A's fleet: fortune 3, strike points 0",
            "Player B's fleet: fortune 3, strike points 0",
        ], fleets
        squadrons = [line for line in lines if " squadron " in line and "cards in hand" in line]
        assert len(squadrons) == 4, lines  # each Squadron's own hand is still shown


@pytest.mark.slow  # a table service round (about 1.5 s): left out of `tasks.py test --fast`
async def test_a_game_over_names_nobody_to_act(tmp_path: Path) -> None:
    """4.4 CHECK FOR WITHDRAWAL: "that Squadron withdraws and the player has lost": once a game is
    lost and won nobody acts in it, however it ended (here a concession at the table). In play
    (`/game status` right after "Game over. Winner: Player B's fleet", the fleet scenario with
    command=squadron) the status still said "To act: Player A squadron 2, Player B squadron 1, ...".
    Before the concession the line is there; after it, gone."""
    svc = await make_service(tmp_path / "g.db")
    try:
        await ok(svc, ALICE, "game new", system="oak-and-iron", scenario="quickstart")
        await ok(svc, ALICE, "game join", seat="a")
        await ok(svc, BOB, "game join", seat="b")
        await ok(svc, ALICE, "game start")
        assert "To act:" in (await ok(svc, CAROL, "game status"))[0].text
        said = public_text(await ok(svc, ALICE, "game concede", confirm="true"))
        assert "Game over" in said
        status_now = (await ok(svc, CAROL, "game status"))[0].text
        assert "To act:" not in status_now and ", over." in status_now, status_now
    finally:
        await svc.store.close()

def test_measure_is_answered_to_the_asker_alone() -> None:
    """The book says nothing of measuring aloud; Days of Iron's `measure` answers the asker alone
    and changes nothing. In play (the fleet scenario) Oak & Iron's `measure Petite Fregate
    Corvette` was posted to the whole channel; now it is told to the seat that asked only."""
    rs = ruleset()
    state, stream = started()
    ships = [s for s in state.ships if s.on_table]
    seat = to_act(state)[0]
    text = f"measure {ships[0].name} {ships[1].name}"
    events = rs.apply(state, seat, rs.parse_order(state, seat, text), stream)
    assert events and all(e.to == frozenset({seat}) for e in events), events
    assert f"{ships[0].name} to {ships[1].name}:" in events[0].text
