"""The game state: plain dataclasses that round-trip through ``games.core.codec``.

Sealed fire orders (and their nonces) live here in the clear, like everything else the bot keeps;
only ``HexIronclads.view`` and the events decide who may read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
class HexIroncladsState:
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
