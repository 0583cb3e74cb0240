"""The game state: a plain dataclass tree that round-trips through ``games.core.codec``.

Also the small questions every section asks of it (which ship is where, is it still in play),
so that the rules in ``rules/`` share one answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.decks import Deck
from games.core.ruleset import UMPIRE, Seat
from games.core.squaregrid import Square

AFLOAT = "afloat"
SUNK = "sunk"
OFF = "off"

# Damage card kinds in damage-control priority order (the book's Damage Control 1).
CONNING = "conning tower"
FIRE = "fire"
STEERING = "steering"
ENGINE = "engine"
PRIORITY = (CONNING, FIRE, STEERING, ENGINE)
KIND_OF_RANK = {"A": CONNING, "K": ENGINE, "Q": STEERING, "J": FIRE}

# Phases: waiting for the umpire's deal, a ship's activation under way, the game over.
DEAL = "deal"
ACTIVATE = "activate"
OVER = "over"


@dataclass
class Gun:
    name: str
    calibre: float
    arc: str


@dataclass
class DamageCard:
    """A face-up Damage Card in force on a record sheet."""

    card: str
    kind: str
    spent: bool = False  # engine hit: its one square straight ahead has been made


@dataclass
class Ship:
    id: str
    name: str
    class_id: str
    class_name: str
    side: str
    x: int
    y: int
    heading: int
    flotation: int
    flotation_max: int
    guns: list[Gun]
    damage: list[DamageCard] = field(default_factory=list)
    short: str = ""  # a short label for the board counter ("" = the name)
    status: str = AFLOAT
    home_rank: int = 0
    far_rank: int = 0
    reached_far: bool = False
    returned: bool = False
    card: str = ""  # this turn's activation card ("" before the deal)
    activated: bool = False

    @property
    def square(self) -> Square:
        return Square(self.x, self.y)


@dataclass
class Mark:
    """An overlay of the last activation: path, fire line or ram."""

    kind: str
    points: list[tuple[float, float]]
    side: str = ""
    text: str = ""


@dataclass
class SideState:
    id: str
    name: str
    colour: str


@dataclass
class State:
    scenario: str
    scenario_name: str
    width: int
    height: int
    sides: list[SideState]
    ships: list[Ship]
    options: dict[str, str]
    activation_deck: Deck
    damage_deck: Deck
    turn: int = 0
    phase: str = DEAL  # DEAL (waiting for the umpire), ACTIVATE, OVER
    active: str = ""  # ship id whose activation is under way
    marks: list[Mark] = field(default_factory=list)
    report: list[str] = field(default_factory=list)  # what happened at the active ship's start
    winner: str = ""
    end_reason: str = ""


def ship_by_id(state: State, ship_id: str) -> Ship:
    for ship in state.ships:
        if ship.id == ship_id:
            return ship
    raise KeyError(ship_id)


def in_play(ship: Ship) -> bool:
    return ship.status == AFLOAT


def ship_at(state: State, sq: Square) -> Ship | None:
    for ship in state.ships:
        if in_play(ship) and ship.x == sq.x and ship.y == sq.y:
            return ship
    return None


def on_board(state: State, sq: Square) -> bool:
    return 0 <= sq.x < state.width and 0 <= sq.y < state.height


def label(sq: Square) -> str:
    return f"{chr(ord('a') + sq.x)}{sq.y + 1}"


def exit_text(state: State, sq: Square) -> str:
    """Which edge an off-board square lies beyond, e.g. ``the west edge``."""
    edges = []
    if sq.y >= state.height:
        edges.append("north")
    if sq.y < 0:
        edges.append("south")
    if sq.x >= state.width:
        edges.append("east")
    if sq.x < 0:
        edges.append("west")
    return f"the {'-'.join(edges) or 'near'} edge"


def side_name(state: State, side_id: str) -> str:
    for side in state.sides:
        if side.id == side_id:
            return side.name
    return side_id


def has(ship: Ship, kind: str) -> bool:
    return any(d.kind == kind for d in ship.damage)


def owner(state: State, ship: Ship) -> str:
    """The seat that orders ``ship``: the ship's own (option seats=ship) or its squadron's."""
    return ship.id if state.options.get("seats") == "ship" else ship.side


def seats(state: State) -> list[Seat]:
    """One seat per squadron, or one per ship (option seats=ship); the umpire's is optional."""
    if state.options.get("seats") == "ship":
        out = [Seat(s.id, f"{s.name} ({side_name(state, s.side)})", s.side, "ship") for s in state.ships]
    else:
        out = [Seat(s.id, s.name, s.id, "side") for s in state.sides]
    out.append(Seat(UMPIRE, "Umpire", "", "umpire", optional=True))
    return out


def seat_side(state: State, seat_id: str) -> str:
    return next((s.side for s in seats(state) if s.id == seat_id), "")


def seat_label(state: State, seat_id: str) -> str:
    return next((s.label for s in seats(state) if s.id == seat_id), seat_id)


class InvariantBroken(AssertionError):
    """A bug, not a user's mistake: the state broke an invariant."""


def check_rules(state: State) -> None:
    """Invariants a test can call: cards are conserved and no two ships share a square (Set-Up)."""
    seen: dict[tuple[int, int], str] = {}
    for ship in state.ships:
        if in_play(ship):
            key = (ship.x, ship.y)
            if key in seen:
                raise InvariantBroken(f"{ship.name} and {seen[key]} share a square")
            seen[key] = ship.name
    in_force = [d.card for s in state.ships for d in s.damage]
    pack = state.damage_deck.draw_pile + state.damage_deck.discards + in_force
    if sorted(pack) != sorted(set(pack)) or len(pack) != 54:
        raise InvariantBroken(f"damage pack has {len(pack)} cards ({len(set(pack))} distinct)")
