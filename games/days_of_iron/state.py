"""The game state: a plain dataclass tree that round-trips through ``games.core.codec``.

With option board=tape the bot does not know where anything stands on the physical table; with
board=measured (the default) each unit has a position, facing and formation. It keeps the orders of
battle, the rolls, the sealed records of hidden and off-board units, losses and objectives.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Unit fates (what the table has done to a unit) and how they score at the end (18.2).
ON_TABLE = "on table"
HIDDEN = "hidden"  # recorded on the hidden deployment map (16.4)
OFF_BOARD = "off board"  # held in reserve off the table (16.5)
ROUTING = "routing"
DESTROYED = "destroyed"
SHATTERED = "shattered"  # removed at 2 infantry / 1 cavalry stands (17.5.8)
ROUTED_OFF = "routed off"
SURRENDERED = "surrendered"
CAPTURED = "captured"  # a General (14.5)
KILLED = "killed"  # a General removed as a casualty
EVADED_OFF = "evaded off"  # evaded off the table; may come back three turns later (17.4.16)
REJOINED = "rejoined"  # a squadron back in its unit (17.2.6): its record waits for the next squadron charge
GONE = (DESTROYED, SHATTERED, ROUTED_OFF, SURRENDERED, CAPTURED, KILLED)
STAFF = ("general", "engineer")  # stands that attach to a unit and share its risks (14.4; 17.3.5, 17.5.7)

# A unit's order (17.2.8): Unit.order.
GOOD = "good"
DISORDERED = "disordered"
SHAKEN = "shaken"

# Phases of the bot's game.
SETUP = "setup"
INITIATIVE = "initiative"
TURN = "turn"
OVER = "over"
STEPS = ("Morale", "Shooting", "Movement", "Close Assault")  # 17 after the Initiative Phase


@dataclass
class Sighting:
    """17.3: an enemy ``shooter`` saw this unit pass through its arcs within range in a Movement
    Phase of ``turn`` (rules/seen_fire_17_3.py): where this unit stood when it came nearest (its
    centre, facing and formation) and where the shooter stood then (it may fire at that place next
    turn only if it has not moved or changed formation since)."""

    shooter: str
    turn: int
    at: list[float]  # x, y, facing of this unit
    formation: str
    shooter_at: list[float]  # x, y, facing of the shooter
    shooter_formation: str


@dataclass
class Unit:
    """A unit, a General or an engineer detachment of one side's order of battle."""

    id: str
    name: str
    side: str
    brigade: str  # brigade id ("" for the army's own Generals)
    type: str  # infantry, cavalry, artillery, engineer, general
    cls: int = 0  # class rating 1-4 (0 where the book gives none)
    stands: int = 1  # stands, or gun models for artillery
    start_stands: int = 1
    points: int = 0  # its cost at the start (sections 5-6)
    modifiers: list[str] = field(default_factory=list)
    light: bool = False  # light cavalry may scout (19.1)
    rank: str = ""  # Generals: army, corps, division, brigade
    quality: str = ""  # Generals: inept, capable, exceptional ("" until rolled)
    roll: int = 0  # the staff-quality die (0: not diced)
    status: str = ON_TABLE
    lost_turn: int = 0  # the turn a General was lost (field promotion waits a turn, 14.3)
    # A wounded General (14.3, the Casualties to Staff chart): the phase count (turn x 4 + step,
    # rules/staff_14.py ``phase_clock``) from which he commands again; 0: not wounded.
    wounded_until: int = 0
    # Successors: the id of the book General whose command this one holds (14.3). A command has one
    # successor record, promoted again in place each time its holder is lost, so the units list
    # does not grow with the number of promotions (issue 11); the log keeps every promotion.
    replaces: str = ""
    # The measured table (option board=measured): the centre of the unit's footprint in inches from
    # the table's top-left corner, its facing (compass bearing, 0 = up the table), its formation
    # (section 12; "" until it is set out on the table) and the inches it has used this Movement Phase.
    x: float = 0.0
    y: float = 0.0
    facing: float = 0.0
    formation: str = ""
    moved: float = 0.0
    moved_turn: int = 0  # the turn ``moved`` counts for (a new turn starts from nothing)
    start_formation: str = ""  # the formation it started this turn's Movement Phase in (17.4)
    fired_turn: int = 0  # the last turn it fired (once a turn, 17.3)
    pending_hits: int = 0  # hits taken this Shooting Phase, applied when it ends (17.3)
    pending_small_arms: int = 0  # of those on a battery, the small arms' (crew and horses only, 17.3.5)
    # Damage to a battery (17.3.5, the house Damage to Artillery chart; rules/shooting_17_3.py): how
    # many of its guns had their crews hit (they fire at half effect until the next Shooting phase
    # ends) and whether its limber team is lost (it cannot limber again); a horse battery counts its
    # limber casualties instead (10.3: at two it moves only as limbered foot artillery).
    crew_hit: int = 0
    team_lost: bool = False
    limber_casualties: int = 0
    # 17.3: the enemies whose arcs it moved through within range, this turn's and last (at most one
    # each: the state does not grow with the game; rules/seen_fire_17_3.py).
    seen: list[Sighting] = field(default_factory=list)
    charge_turn: int = 0  # the last turn it declared a charge (17.2)
    charging: str = ""  # the target of a charge that passed its To Charge test this turn (17.2)
    home_turn: int = 0  # the last turn it made its 2nd Impulse (17.4)
    # Order and status (17.2.8-17.2.10; rules/morale_17_2.py). ``order`` is GOOD, DISORDERED or
    # SHAKEN; ``halted`` (failed a reaction to shooting: no move closer to the enemy) and ``ground``
    # (gone to ground: a dispersed target that must rally) are flags beside it. Routing stays a fate
    # (``status == ROUTING``). A unit not in good order, halted or gone to ground must try to rally.
    order: str = "good"
    order_turn: int = 0  # the turn it became disordered (auto-recovery after a turn with no action)
    halted: bool = False
    ground: bool = False
    fortify_turn: int = 0  # the turn it began building defensive cover (17.5.6; done the next turn)
    # Routing (17.4.14; rules/routing_17_4_14.py): the bearing it routs along and the inches of rout
    # it has made in ``rout_turn`` (one full rout distance a turn at most).
    rout_bearing: float = 0.0
    rout_done: float = 0.0
    rout_turn: int = 0
    rally_turn: int = 0  # the last turn it took a rally test (17.2.11: once a Morale Phase)
    forced_turn: int = 0  # the last turn it made a forced march (two in successive turns disorder, 17.2.8)
    # A General attached to (touching) a unit (14.4): that unit's id, "" when free.
    attached: str = ""
    # An off-board unit whose arrival was declared in this turn's Morale Phase (17.2.1): the entry
    # point it comes on at when its side's part of the Movement Phase begins ("" otherwise).
    entry: str = ""
    # Guns (5.2): the battery's gun type from its order of battle ("mitrailleuse" fires in a
    # 22.5-degree arc, 17.3; "howitzer" lobs shell over friends and onto hills, 17.3.3).
    gun: str = ""
    # A Break-Through Attack (17.5.4; rules/close_assault_17_5.py): the enemy this unit's
    # compulsory advance contacted and the turn whose Close Assault it fights it in, as charging.
    # That enemy takes a Being Charged test in that turn's Morale Phase.
    breakthrough: str = ""
    breakthrough_turn: int = 0
    # What was left of that compulsory advance and its bearing: if the new enemy fails its Being
    # Charged test and routs, the victor advances the balance (17.5.4).
    breakthrough_left: float = 0.0
    breakthrough_bearing: float = 0.0
    # The last turn it passed through a friendly line (17.4.9): it may not charge that turn.
    passage_turn: int = 0
    # The last turn it changed formation or turned 90 or 180 degrees (17.4.7: one such change a turn).
    changed_turn: int = 0
    # 12.1: an infantry column in march order, 1-2 stands wide (the movement sheet's ``march_width``):
    # its formation stays "column" (a column for every rule: dense target, fords, roads); it may force march.
    march: bool = False
    dismounted: bool = False  # 9.1: cavalry on foot, as skirmishing infantry (rules/dismounting_9_1.py)
    # Being charged and its reactions (17.2.2-17.2.5, 17.3.1, 17.4.11-17.4.16;
    # rules/charges_17_2.py, rules/evading_17_4_16.py): the turn it took (or was spared, caught)
    # its Being Charged test, the turn it was caught (no test, no evade, no formation change), the
    # turn a declared charge of its passed its To Charge test (it may not shoot), the turn its fire
    # is reserved for defensive fire, and for a unit that evaded off the table the turn it may return.
    # A charge declared this Morale Phase and not yet tested (17.2.2: the To Charge tests wait until
    # every charge is declared): its target and the order it was declared in.
    declared: str = ""
    declared_seq: int = 0
    tested_turn: int = 0
    caught_turn: int = 0
    declared_turn: int = 0
    # The last turn it failed a To Charge test: "it cannot move closer towards enemy units" that turn
    # (17.2.2), but it may turn, change formation or move away, as a halted unit may (17.2.10).
    refused_turn: int = 0
    reserve_turn: int = 0
    reserve_stands: int = 0  # of a reserved fire, the stands holding it (0: the whole unit, 17.3.1)
    return_turn: int = 0
    # 17.4.16: the friendly infantry square this unit evaded inside ("" if none; rules/evading_17_4_16.py):
    # its stands huddle at the square's centre until it leaves with a move.
    shelter: str = ""


@dataclass
class Brigade:
    id: str
    name: str
    side: str


@dataclass
class Sealed:
    """A secret record: the text is shown only to its side (and the umpire) until revealed."""

    number: int
    side: str
    kind: str  # hidden, off-board, scout
    units: list[str]  # unit ids it concerns
    text: str
    nonce: str
    digest: str
    revealed: bool = False
    cancelled: bool = False  # only in snapshots from before issue 11: a cancel now drops the record


@dataclass
class Objective:
    name: str
    wanted_by: str  # side id that must take it
    held_by: str  # side id, or "" for nobody


@dataclass
class TerrainPiece:
    """A piece of terrain on the measured table (section 15): its type in the terrain sheet and
    its outline, a convex polygon in inches."""

    type: str
    name: str
    points: list[list[float]]


@dataclass
class Blaze:
    """A fire on the measured table (15.9): the piece first set alight, where it started (inches),
    the turn it started and how far it has spread downwind since (15.12; rules/fires_15_9.py)."""

    piece: str
    x: float
    y: float
    turn: int
    spread: float = 0.0


@dataclass
class Works:
    """An engineer's work on the measured table (11, 15.5; rules/engineers_11.py): what he works
    at (``demolish`` a bridge, ``pontoon`` over a river, ``clear`` an obstacle), the terrain piece's
    name, the foot unit laying a pontoon with him, the quiet Movement phases done and the last turn
    worked; a pontoon's place (x, y and its bearing across the river)."""

    kind: str
    engineer: str
    target: str
    helper: str = ""
    phases: int = 0
    turn: int = 0
    at: list[float] = field(default_factory=list)


@dataclass
class SideState:
    id: str
    name: str
    colour: str
    nation: str
    force: str  # force name for the status
    staff_rolled: bool = False
    ready: bool = False
    wants_end: bool = False


@dataclass
class State:
    """Everything the rules read, and nothing that grows with the length of the game: the store
    keeps the order log and `/game log` shows the history, while the snapshot is decoded, applied
    to, re-encoded and drawn for every order (issue 11; tests/days_of_iron/test_state_size.py)."""

    scenario: str
    scenario_name: str
    options: dict[str, str]
    points_limit: int
    table_width: int
    table_height: int
    sides: list[SideState]
    brigades: list[Brigade]
    units: list[Unit]
    objectives: list[Objective]
    phase: str = SETUP
    turn: int = 0
    step: int = 0  # index into STEPS while phase == TURN
    step_side: int = 0  # 0: the initiative player's part of the step, 1: the other's (2: the
    # initiative player answers charges at the end of the Morale Phase, 3: the other player does, 17.2.2)
    initiative: str = ""  # side id holding the initiative this turn
    deploys_first: str = ""
    # Live records only: a cancelled one is dropped (its commitment and the cancel stay in the
    # channel's log), so hiding and cancelling again and again does not grow the state (issue 11).
    sealed: list[Sealed] = field(default_factory=list)
    records_made: int = 0  # records ever sealed: the next is numbered one more, numbers never reused
    winner: str = ""
    end_reason: str = ""
    terrain: list[TerrainPiece] = field(default_factory=list)  # the measured table's terrain (15)
    wind: str = ""  # the compass point the wind blows from (15.12), "" for no wind
    fires: list[Blaze] = field(default_factory=list)  # 15.9 (rules/fires_15_9.py)
    in_fire: dict[str, int] = field(default_factory=dict)  # unit id -> Movement phases ended inside a fire (15.9)
    fires_tried: list[str] = field(default_factory=list)  # "turn:side:piece" this turn's `check fire` tries
    works: list[Works] = field(default_factory=list)  # engineers' work under way (11, 15.5): one per engineer
    bridges_tried: list[str] = field(default_factory=list)  # 11: "Only one attempt may be made to destroy a bridge"
    spans_down: list[str] = field(default_factory=list)  # of those, the bridges whose span was destroyed (11)

    def unit(self, unit_id: str) -> Unit:
        return next(u for u in self.units if u.id == unit_id)

    def brigade(self, brigade_id: str) -> Brigade:
        return next(b for b in self.brigades if b.id == brigade_id)

    def side(self, side_id: str) -> SideState:
        return next(s for s in self.sides if s.id == side_id)

    def other(self, side_id: str) -> str:
        """The enemy of a side."""
        return next(s.id for s in self.sides if s.id != side_id)

    def side_name(self, side_id: str) -> str:
        """A side's name for messages; "nobody" for no side (an objective no one holds)."""
        return self.side(side_id).name if side_id else "nobody"

    def acting_side(self) -> str:
        """The side acting in the current step of a turn: the initiative side's part comes first (17)."""
        return self.initiative if self.step_side in (0, 2) else self.other(self.initiative)  # 3: the other answers
