"""Book section 7, Sinking: "A ship sinks when its Flotation Points are reduced to 0."

A sunk ship's Damage Cards go back to the damage pack's discards (they are no longer in force).
"""

from __future__ import annotations

from games.ironclad_draughts.state import SUNK, Ship, State, in_play


def sink(state: State, ship: Ship, lines: list[str], how: str = "sinks") -> None:
    """The ship goes down (Sinking; also a fire reaching the magazine, Damage Control 2b)."""
    ship.flotation = 0
    ship.status = SUNK
    for dmg in ship.damage:
        state.damage_deck.discard(dmg.card)
    ship.damage = []
    lines.append(f"**{ship.name} {how}!**")


def lose_flotation(state: State, ship: Ship, points: int, lines: list[str]) -> None:
    """Flotation points lost to a hit or a ram; at 0 the ship sinks (Sinking)."""
    if points <= 0 or not in_play(ship):
        return
    ship.flotation = max(0, ship.flotation - points)
    lines.append(f"{ship.name} loses {points} flotation ({ship.flotation}/{ship.flotation_max} left).")
    if ship.flotation == 0:
        sink(state, ship, lines)
