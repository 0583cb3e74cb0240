"""How a game's end names the winner: by the side's name as the board shows it, not its id."""

from __future__ import annotations

from typing import Any

from games.core.ruleset import Ruleset


def side_name(rules: Ruleset[Any, Any], state: Any, side: str) -> str:
    """``Peru`` for the side id ``peru``: the view's side name, else the seat's label, else the id
    (a ruleset that names neither still says who won)."""
    for info in rules.view(state, None).sides:
        if info.id == side:
            return info.name
    for seat in rules.seats(state):
        if seat.id == side:
            return seat.label
    return side


def winner_text(rules: Ruleset[Any, Any], state: Any, winner: str | None) -> str:
    return side_name(rules, state, winner) if winner else "nobody (a draw)"
