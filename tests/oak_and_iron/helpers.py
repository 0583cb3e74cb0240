"""Shared set-ups for the Oak & Iron tests: the ruleset, fixed random streams, placed ships."""

from __future__ import annotations

import json
from typing import Any

from games.core.errors import GameError
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import Event
from games.oak_and_iron.ruleset import OakAndIron
from games.oak_and_iron.state import State, TerrainPiece


def ruleset() -> Any:
    """The Oak & Iron ruleset (straight from its class, so a half-built sibling package in the
    shared checkout cannot break these tests through the registry's import-everything)."""
    return OakAndIron()


def rng(n: int = 1) -> Rng:
    return Rng(seed_from_number(n))


def order(state: State, seat: str, text: str, stream: Rng) -> list[Event]:
    rs = ruleset()
    return list(rs.apply(state, seat, rs.parse_order(state, seat, text), stream))


def fails(state: State, seat: str, text: str, stream: Rng) -> GameError:
    """Apply to a copy (as the table service does) and return the error it raised."""
    rs = ruleset()
    trial = rs.decode(json.loads(json.dumps(rs.encode(state))))
    try:
        rs.apply(trial, seat, rs.parse_order(trial, seat, text), stream)
    except GameError as exc:
        return exc
    raise AssertionError(f"{text!r} was accepted")


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def started(seed: int = 1, scenario: str = "quickstart", cards: tuple[str, str] = ("Careful Aim", "Fleet Manuever")) -> tuple[State, Rng]:
    """A game past the first initiative reveal, in the Movement Phase of turn 1."""
    stream = rng(seed)
    state = ruleset().setup(scenario, {}, stream)
    order(state, "a", f"initiative {cards[0]}", stream)
    order(state, "b", f"initiative {cards[1]}", stream)
    order(state, "a", "initiative Down!", stream)
    order(state, "b", "initiative Fire as She Bears", stream)
    assert state.phase == "movement"
    return state, stream


def place(state: State, ship_id: str, x: float, y: float, heading: float) -> None:
    ship = state.ship(ship_id)
    ship.x, ship.y, ship.heading = x, y, heading


def park_others(state: State, *keep: str) -> None:
    """Move every ship not named far away into a corner row so it cannot interfere."""
    spots = [(3.0, 33.0), (8.0, 33.0), (13.0, 33.0), (18.0, 33.0)]
    for ship in state.ships:
        if ship.id not in keep:
            x, y = spots.pop(0)
            ship.x, ship.y, ship.heading = x, y, 90.0


def add_terrain(state: State, kind: str, points: list[tuple[float, float]], label: str = "") -> None:
    state.terrain.append(TerrainPiece(kind, label or kind, points))
