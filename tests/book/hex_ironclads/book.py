"""Set-ups for the hex ironclads book tests: a game from the ruleset's own ``setup``, the ships a
section needs stood on open water of the Hampton Roads map, then nothing but order text through
``parse_order``/``apply`` and ``view``. Dice are scripted (strictly: a rule that rolls one die more
or fewer than scripted fails the test), so a test also checks how many firing dice a rule throws."""

from __future__ import annotations

from games.core.hexgrid import Hex
from games.core.maps import load_map
from games.hex_ironclads.state import Ship, State
from tests.hex_ironclads.helpers import keep_only, new_game, order, ruleset, ship, texts
from tests.scripted import ScriptedDice

__all__ = [
    "NE",
    "NW",
    "SE",
    "SW",
    "E",
    "ScriptedDice",
    "W",
    "along",
    "damage",
    "fails",
    "fire_turn",
    "fv",
    "game",
    "order",
    "path",
    "ruleset",
    "ship",
    "stand",
    "texts",
]

# Direction numbers of the pointy-topped map: 0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW.
NE, E, SE, SW, W, NW = range(6)


def game(*names: str, scenario: str = "hampton-roads", options: dict[str, str] | None = None) -> State:
    """A game in its first fire phase with only the named ships on the board."""
    state = new_game(scenario, options)
    keep_only(state, *names)
    return state


def along(state: State, start: str, direction: int, steps: int) -> Hex:
    """The hex ``steps`` hexes from printed hex ``start`` straight along ``direction``."""
    return path(state, start, *[direction] * steps)


def path(state: State, start: str, *steps: int) -> Hex:
    """The hex reached from printed hex ``start`` by one hex in each direction of ``steps``."""
    layout = load_map(state.map_id).layout
    h = layout.parse(start)
    for direction in steps:
        h = layout.neighbour(h, direction)
    return h


def stand(state: State, name: str, where: str | Hex, facing: int) -> Ship:
    """Stand a ship on a hex (printed label or Hex) facing a direction."""
    h = load_map(state.map_id).layout.parse(where) if isinstance(where, str) else where
    s = ship(state, name)
    s.q, s.r, s.facing = h.q, h.r, facing
    return s


def fails(state: State, seat: str, text: str) -> str:
    """The refusal an order gets; the test fails if it is accepted."""
    try:
        order(state, seat, text, ScriptedDice())
    except ValueError as exc:
        return str(exc)
    raise AssertionError(f"{text!r} was accepted")


def fire_turn(state: State, union: list[str], confederate: list[str], dice: list[int]) -> str:
    """Both sides give these fire orders and seal; ``dice`` are every die the turn's fire and the
    initiative throw use (all must be used). Returns the events' text."""
    stream = ScriptedDice(dice)
    events = []
    for text in union:
        events += order(state, "union", text, stream)
    for text in confederate:
        events += order(state, "confederate", text, stream)
    events += order(state, "union", "seal", stream) + order(state, "confederate", "seal", stream)
    assert not stream.dice, f"dice left unthrown: {stream.dice}"
    return texts(events)


def fv(state: State, name: str) -> int:
    """A ship's Flotation Value as it stands now (its full value less the points lost)."""
    s = ship(state, name)
    return s.flotation - s.lost


def damage(state: State, name: str, points: int) -> None:
    """Mark ``points`` of damage already taken, as a player marks a ship's record."""
    ship(state, name).lost = points
