"""The game state, ``State``: plain dataclasses that round-trip through ``games.core.codec``.

Sealed fire orders (and their nonces) live here in the clear, like everything else the bot keeps;
only ``view.py`` and the events decide who may read them. ``new_state`` sets a scenario out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from games.core.hexgrid import Hex
from games.core.maps import HexMap, load_map
from games.hex_ironclads.data import Scenario, facing_index, ship_types, ship_types_are_house, tables

FIGHTING = "fighting"
BROKEN_OFF = "broken-off"
SUNK = "sunk"
SAVED = "saved"

FIRE = "fire"
MOVE = "move"
OVER = "over"

HOLD = ""  # a fire order that fires at nothing


@dataclass
class Ship:
    """One ship. Type values are copied in at set-up so a game never changes under a data pack."""

    id: str
    name: str
    side: str
    type: str
    q: int
    r: int
    facing: int
    dice: int
    move: int
    flotation: int
    critical: int
    ram: bool
    all_round: bool
    lost: int = 0  # flotation points lost
    status: str = FIGHTING
    moved: bool = False  # has had its move this turn

    @property
    def remaining(self) -> int:
        return max(self.flotation - self.lost, 0)

    @property
    def on_board(self) -> bool:
        """Still on the map (fighting or breaking off): it can be seen, fired at, rammed."""
        return self.status in (FIGHTING, BROKEN_OFF)

    @property
    def hex(self) -> Hex:
        return Hex(self.q, self.r)


@dataclass
class Side:
    id: str
    name: str
    colour: str
    home_edge: str
    orders: dict[str, str] = field(default_factory=dict)  # ship id -> target ship id (HOLD = none)
    sealed: bool = False
    sealed_text: str = ""
    nonce: str = ""
    commitment: str = ""
    initiative: list[int] = field(default_factory=list)  # this turn's rolls (re-rolls on ties)


@dataclass
class Mark:
    """Something from the last turn drawn on the board: a path, a fire line or a ram."""

    kind: str  # path, fire, ram
    cells: list[tuple[int, int]]
    side: str
    text: str = ""


@dataclass
class Ram:
    """A ram made this movement phase, waiting for adjudication once both sides have moved."""

    rammer: str  # ship ids
    target: str
    cells: list[tuple[int, int]]  # rammer's hex, rammed ship's hex at the moment of the ram


@dataclass
class State:
    """One game of hex ironclads: the scenario's ships and sides, the turn, the phase, the marks."""

    scenario: str
    map_id: str
    turn_limit: int
    options: dict[str, str]
    sides: list[Side]
    ships: list[Ship]
    house: bool = True
    turn: int = 1
    phase: str = FIRE
    move_order: list[str] = field(default_factory=list)  # side ids, first mover first
    moving: int = 0  # index into move_order during the move phase
    marks: list[Mark] = field(default_factory=list)
    rams: list[Ram] = field(default_factory=list)  # rams awaiting adjudication (book timing)
    winner: str | None = None
    result: str = ""

    def side(self, side_id: str) -> Side:
        for s in self.sides:
            if s.id == side_id:
                return s
        raise KeyError(side_id)

    def ship(self, ship_id: str) -> Ship:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)

    def enemy_of(self, side_id: str) -> Side:
        return next(s for s in self.sides if s.id != side_id)

    def mover(self) -> str:
        return self.move_order[self.moving] if self.phase == MOVE and self.move_order else ""


def game_map(state: State) -> HexMap:
    return load_map(state.map_id)


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


def new_state(scenario: Scenario, options: dict[str, str]) -> State:
    """The scenario set out: ship type values copied onto each ship, options as checked."""
    layout = load_map(scenario.map_id).layout
    types = ship_types()
    ships = []
    for spec in scenario.ships:
        t = types[spec.type]
        h = layout.parse(spec.hex)
        ships.append(Ship(id=slug(spec.name), name=spec.name, side=spec.side, type=t.id, q=h.q, r=h.r,
                          facing=facing_index(spec, layout.orientation), dice=t.dice, move=t.move, flotation=t.flotation,
                          critical=t.critical, ram=t.ram, all_round=t.all_round))
    return State(
        scenario=scenario.id,
        map_id=scenario.map_id,
        turn_limit=int(options["turns"]) if options.get("turns") else scenario.turn_limit,
        options=options,
        sides=[Side(s.id, s.name, s.colour, s.home_edge) for s in scenario.sides],
        ships=ships,
        house=scenario.house or ship_types_are_house() or tables().house,
    )
