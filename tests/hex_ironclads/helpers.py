"""Helpers for hex ironclads tests: games, scripted dice, placing ships, applying orders."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from games.core.hexgrid import Hex
from games.core.maps import load_map
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import Event, get_ruleset
from games.hex_ironclads.ruleset import HexIronclads
from games.hex_ironclads.state import Ship, State
from tests.scripted import ScriptedDice


def ruleset() -> HexIronclads:
    rs = get_ruleset("hex-ironclads")
    assert isinstance(rs, HexIronclads)
    return rs



def new_game(scenario: str = "duel", options: dict[str, str] | None = None) -> State:
    return ruleset().setup(scenario, options or {}, Rng(seed_from_number(1)))


def ship(state: State, name: str) -> Ship:
    return next(s for s in state.ships if s.name == name)


def place(state: State, name: str, label: str, facing: int) -> Ship:
    """Put a ship on a printed hex with a facing (direction number)."""
    s = ship(state, name)
    h = load_map(state.map_id).layout.parse(label)
    s.q, s.r, s.facing = h.q, h.r, facing
    return s


def place_hex(state: State, name: str, h: Hex, facing: int) -> Ship:
    s = ship(state, name)
    s.q, s.r, s.facing = h.q, h.r, facing
    return s


def keep_only(state: State, *names: str) -> None:
    """Drop every other ship from the game (rule tests want a clear board)."""
    state.ships = [s for s in state.ships if s.name in names]


def label(state: State, s: Ship) -> str:
    return load_map(state.map_id).layout.label(Hex(s.q, s.r))


def order(state: State, seat: str, text: str, rng: Rng | None = None) -> list[Event]:
    rs = ruleset()
    return rs.apply(state, seat, rs.parse_order(state, seat, text), rng or ScriptedDice())


def orders(state: State, seat: str, texts: Iterable[str], rng: Rng) -> list[Event]:
    out: list[Event] = []
    for text in texts:
        out += order(state, seat, text, rng)
    return out


def snapshot(state: State) -> Any:
    return json.loads(json.dumps(ruleset().encode(state)))


def texts(events: Iterable[Event]) -> str:
    return "\n".join(e.text for e in events)


def to_move_phase(state: State, first: str, rng_dice: list[int] | None = None) -> list[Event]:
    """Both sides hold fire and seal; the initiative dice make ``first`` move first."""
    a, b = (s.id for s in state.sides)
    dice = rng_dice if rng_dice is not None else ([1, 2] if first == a else [2, 1])
    rng = ScriptedDice(dice)
    events = order(state, a, "seal", rng) + order(state, b, "seal", rng)
    assert state.phase == "move" and state.mover() == first
    return events
