"""Iron and Fire game state: plain dataclasses that round-trip through ``games.core.codec``."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Unit:
    """A ship or a land battery. Positions are axial (q, r); facing is a core direction 0-5."""

    id: str
    name: str
    side: str  # the side the unit belongs to ("peru" / "chile")
    type: str  # TIC, BIC, CBIC, SSC, ship, collier, battery
    mf: int
    cf: int
    pf: int
    bow: str = "brown"
    q: int = 0
    r: int = 0
    facing: int = 0
    status: str = "waiting"  # waiting (not yet set up / arrived), afloat, sunk, exited, surrendered
    hits: int = 0
    grounded: bool = False
    criticals: list[str] = field(default_factory=list)  # bridge, fire, propulsion, steering
    bad_boilers: bool = False  # a propulsion critical that can never be repaired
    controller: str = ""  # the side commanding it (the captor once captured)
    boarding_with: str = ""  # unit id of the ship it is locked in Boarding Combat with
    mp_penalty: int = 0  # Order Confusion / Confusing Signal: less MP on its next activation
    sunk_by: str = ""  # unit id credited with sinking it
    fire_by: str = ""  # unit id whose hit set the Fire critical burning on it (sinking credit)
    exit_hex: str = ""  # printed hex it left the map from
    exit_edge: str = ""  # north / south / east / west (printed map edges)
    honor_done: bool = False  # Chilean Honor: this ship has made its ram attack
    arrive_turn: int = 0  # 0 = deployed in set-up

    @property
    def afloat(self) -> bool:
        return self.status == "afloat"

    @property
    def captured(self) -> bool:
        return self.controller != self.side

    @property
    def battery(self) -> bool:
        return self.type == "battery"


@dataclass
class Mine:
    q: int
    r: int
    value: str = ""  # "" = face down (value not drawn yet); "None" or a number once revealed


@dataclass
class Secret:
    """A secret roll: value known to ``side`` (and the umpire); sealed publicly until revealed."""

    key: str
    side: str
    purpose: str
    value: int
    text: str
    nonce: str
    digest: str
    revealed: bool = False


@dataclass
class LastAction:
    """What the last activation drew on the board (overlays)."""

    kind: str = ""  # path, fire, ram
    side: str = ""
    points: list[tuple[int, int]] = field(default_factory=list)
    text: str = ""


@dataclass
class State:
    scenario: str
    options: dict[str, str]
    turn: int = 0
    turns: int = 12
    phase: str = "setup"  # setup, arrive, activations, joker, boarding, over
    setup_side: str = "chile"
    rolls_done: dict[str, int] = field(default_factory=dict)  # roll key -> value (public and secret)
    units: list[Unit] = field(default_factory=list)
    mines: list[Mine] = field(default_factory=list)
    mines_to_place: int = 0
    batteries_to_place: int = 0
    mine_bag: list[str] = field(default_factory=list)
    cable: tuple[int, int] | None = None
    cable_cut: bool = False
    cable_ship: str = ""  # the ship working on the cable (scenario 3: the ship placed on the buoy)
    cable_progress: int = 0  # scenario 3: consecutive turns atop the buoy; scenario 4: activations spent
    cable_clean: bool = True  # scenario 3: the ship has not moved/fired/rammed/boarded this turn
    cable_slow: bool = False  # scenario 4: first movement after cutting is limited to 1 MP
    steam_turns: int = 0  # Covadonga: turns of 1 MP movement (scenario 2)
    bombard_hits: int = 0
    fired_on_huascar: list[str] = field(default_factory=list)  # units that fired at Huáscar this turn
    secrets: list[Secret] = field(default_factory=list)
    # cards
    deck: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    jokers_drawn: int = 0
    extra_draws: int = -1  # -1: none pending; else card draws left before the End Phase (4.1)
    card: str = ""
    card_side: str = ""
    acts_left: int = 0
    used: list[str] = field(default_factory=list)  # units activated on this card
    turn_used: list[str] = field(default_factory=list)  # units activated this turn (option once_per=turn)
    bonus_unit: str = ""  # Fortunes of War: the unit entitled to a second activation
    acted_sides: list[str] = field(default_factory=list)  # sides that activated this turn
    last_friendly: dict[str, str] = field(default_factory=dict)  # side -> last unit it activated
    prize_ready: dict[str, str] = field(default_factory=dict)  # side -> captured ship prepared to move
    # decisions
    decider: str = ""  # side choosing at a Joker or after a Boarding Combat round
    boarding_pair: list[str] = field(default_factory=list)
    # advanced rules
    fow_holder: str = ""
    fow_used_turn: list[str] = field(default_factory=list)
    fow_used_ever: list[str] = field(default_factory=list)
    lucky_shot: list[str] = field(default_factory=list)
    save_captain: bool = False
    save_admiral: bool = False
    snapshot: str = ""  # the state before the last activation (Fortunes of War re-roll)
    snapshot_order: str = ""
    snapshot_side: str = ""
    snapshot_dice: list[tuple[int, int]] = field(default_factory=list)  # (faces, value) rolled by it
    snapshot_mines: list[tuple[int, int, str]] = field(default_factory=list)  # (q, r, counter) turned over by it
    last: LastAction = field(default_factory=LastAction)
    result_winner: str = ""
    result_reason: str = ""
    result_details: list[str] = field(default_factory=list)
    log_tail: list[str] = field(default_factory=list)  # the last activation's report (public)
