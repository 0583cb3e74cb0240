"""Oak & Iron game state: plain dataclasses that round-trip through ``games.core.codec``."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.geometry import Base
from games.oak_and_iron.data import rules

SAIL_SETTINGS = ("anchored", "minimal", "battle", "full")
SAIL_NAMES = {"anchored": "Anchored", "minimal": "Minimal Sail", "battle": "Battle Sail", "full": "Full Sail"}


@dataclass
class ShipState:
    id: str
    name: str
    card: str
    side: str  # the squadron it started in
    x: float
    y: float
    heading: float
    length: float
    beam: float
    fortitude: int
    broadside: int
    crew: int
    windward: int
    large: int
    skill: int = 0
    special: list[str] = field(default_factory=list)
    upgrades: list[str] = field(default_factory=list)
    damage: int = 0
    fatigue: int = 0
    crippled: bool = False
    sail: str = "battle"
    reload_port: bool = False
    reload_starboard: bool = False
    aground: bool = False
    entangled: list[str] = field(default_factory=list)
    captured_by: str = ""  # side id that captured it
    status: str = "afloat"  # afloat, sunk, off (left the table), removed (destroyed and taken off)
    flagship: bool = False
    moved: bool = False  # wake marker: activated in this Movement Phase
    attacked: bool = False
    fatigue_shield: bool = False  # "Down!": the first attack Fatigue this turn is ignored
    landing: tuple[float, float] | None = None
    captain: str = ""  # the captain card (house, ch. 6); face down while the Admiral is aboard
    squadron: str = ""  # Fleet Battles (ch. 9): the id of its squadron in State.squadrons

    @property
    def base(self) -> Base:
        return Base((self.x, self.y), self.heading, self.length, self.beam)

    def place(self, base: Base) -> None:
        self.x, self.y = base.centre
        self.heading = base.heading % 360.0

    @property
    def on_table(self) -> bool:
        return self.status == "afloat"

    @property
    def shaken(self) -> bool:
        return self.fatigue >= rules().fatigue_max

    @property
    def out_of_action(self) -> bool:
        """Crippled and Shaken (4.3), unless Captured: "Captured ships follow all of the same
        restrictions as Out of Action ships, but do not count as an Out of Action ship" (4.4), so a
        prize counts for its captor and is never rolled for sinking."""
        return self.crippled and self.shaken and not self.captured_by

    @property
    def controller(self) -> str:
        return self.captured_by or self.side

    @property
    def can_act(self) -> bool:
        """Able to activate: on the table, not Out of Action, not captured."""
        return self.on_table and not self.out_of_action and not self.captured_by


@dataclass
class TerrainPiece:
    kind: str  # rock, island, shoal, fog
    label: str
    points: list[tuple[float, float]]


@dataclass
class SideState:
    id: str
    name: str
    colour: str
    admiral: str
    admiral_name: str
    admiral_value: int
    hand: list[str] = field(default_factory=list)
    sealed: str = ""  # the face-down card (hidden from the opponent and spectators)
    sealed_nonce: str = ""
    sealed_digest: str = ""
    face_up: str = ""
    fortune: int = 3
    strike_points: int = 0
    discarded: list[str] = field(default_factory=list)
    fleet: str = ""  # Fleet Battles (ch. 9): a squadron record's side (its fleet); "" for a side
    faction: str = ""  # its faction card (ch. 6), "" none; a fleet's side record has none, its squadrons do


@dataclass
class Activation:
    """The ship being activated in the Movement Phase and how far through its steps it is."""

    ship: str = ""
    step: str = ""  # start, seamanship, moved
    speed: int = 0
    point_of_sail: str = ""
    pos_text: str = ""


@dataclass
class Mark:
    """The last thing drawn: a move path or an attack line."""

    kind: str  # path, fire, ram
    points: list[tuple[float, float]]
    side: str
    text: str = ""


@dataclass
class Pending:
    """An End Phase choice: capture or destroy a Shaken ship Entangled with an enemy."""

    side: str
    ship: str
    by: str


@dataclass
class SetupState:
    """Starting a Game (ch. 7) with the scenario decks, while it runs (phase ``setup``)."""

    step: str = "role"  # role, draft, select, place, deploy
    objective: str = ""
    offers: list[str] = field(default_factory=list)  # the drawn setting, deployment and advantage cards still on offer
    picks: dict[str, list[str]] = field(default_factory=dict)  # side -> its cards, one of each category
    chooser: str = ""  # the side that chooses to attack or defend
    attacker: str = ""
    turn: str = ""  # the side to act in the draft and terrain steps
    pool: list[str] = field(default_factory=list)  # terrain kinds to place
    allowance: dict[str, dict[str, int]] = field(default_factory=dict)  # side -> kind -> pieces it may still add
    passed: list[str] = field(default_factory=list)  # sides done adding terrain
    placed: int = 0  # pieces placed so far
    adjusted: list[str] = field(default_factory=list)  # labels of pieces moved in step 4
    # how the chooser was found (admiral values, or a Challenge Test's dice), drawn at set-up before
    # any order: no order's events carry it, so the status shows it until the role is chosen
    opening: list[str] = field(default_factory=list)


@dataclass
class State:
    """One Oak & Iron game: the table, both squadrons, the turn and phase, and the last marks drawn."""

    scenario: str
    scenario_name: str
    options: dict[str, str]
    table_width: float
    table_height: float
    weather_edge: str
    defender: str
    sides: list[SideState]
    ships: list[ShipState]
    terrain: list[TerrainPiece] = field(default_factory=list)
    turn: int = 0
    phase: str = "select"  # select, movement, attack, end, over
    initiative: str = ""
    active_side: str = ""
    activation: Activation = field(default_factory=Activation)
    event_deck: list[str] = field(default_factory=list)
    events_active: list[str] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    focus: str = ""
    pending: list[Pending] = field(default_factory=list)
    winner: str = ""
    result: str = ""
    details: list[str] = field(default_factory=list)
    setup: SetupState | None = None
    # Fleet Battles (ch. 9): each squadron's admiral, initiative hand and cards, and the squadron
    # activating in the Movement Phase; empty in a one-squadron-a-side game
    squadrons: list[SideState] = field(default_factory=list)
    moving_squadron: str = ""

    def side(self, side_id: str) -> SideState:
        for s in self.sides:
            if s.id == side_id:
                return s
        raise KeyError(side_id)

    def ship(self, ship_id: str) -> ShipState:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)

    def other(self, side_id: str) -> str:
        return next(s.id for s in self.sides if s.id != side_id)
