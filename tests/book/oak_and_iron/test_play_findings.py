"""Findings from playing an Oak & Iron Fleet Battle with command=squadron through the console as a
new player (issue 21)."""

from __future__ import annotations

from games.oak_and_iron.view import status
from tests.book.oak_and_iron.book import rng, ruleset


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
