"""The game state: a plain dataclass tree that round-trips through ``games.core.codec``."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.decks import Deck

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
class GameState:
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
    phase: str = "deal"  # "deal" (waiting for the umpire), "activate", "over"
    active: str = ""  # ship id whose activation is under way
    marks: list[Mark] = field(default_factory=list)
    report: list[str] = field(default_factory=list)  # what happened at the active ship's start
    winner: str = ""
    end_reason: str = ""
