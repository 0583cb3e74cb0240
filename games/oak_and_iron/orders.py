"""The Oak & Iron orders, as typed values (``games.core.notation``)::

    initiative Careful Aim
    Fluyt seamanship adjust +1 [fortune]        Fluyt seamanship heading port 30 [fortune]
    Fluyt seamanship cutfree [fortune]
    Fluyt move                                  Fluyt move turn-end port 30 (turn-start, starboard)
    Fluyt crew reload starboard | rally | repair [hull|aground] [fortune] | sail up|down
    Fluyt crew board Corvette [fortune] | row | flag Sloop | landing [x y]
    Fluyt done
    Fluyt broadside starboard Corvette [rigging|crew] [and port Sloop [rigging|crew]] [fortune] [helm-port]
    Fluyt partial Corvette [rigging|crew] [fortune] [helm-starboard]
    Fluyt close Corvette                        Fluyt landing-attack Corvette
    Fluyt hold
    capture Corvette | destroy Corvette | spare Corvette
    measure Fluyt Corvette
    role attacker | role defender               draft Open Sea
    terrain add rock | terrain done | terrain place rock 12 18 | terrain discard rock
    terrain move Rock 1 14 4 | terrain keep
    deploy Fluyt at 10 4 [180]

Names are matched case-insensitively: a whole name (or its id, or the name with hyphens for
spaces) of up to four words, else a unique prefix of one word; the canonical text spells them out
in full. Games stored before the typed orders replay from their logged text, so every spelling the
old parser read still reads the same (``tests/oak_and_iron/test_baseline.py``): flag words
(``fortune``, ``helm-port``, ``helm-starboard``) and repeated aims may stand anywhere after the
verb and are put in their place by ``_normalise`` before the grammar reads the words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from games.core.errors import InvalidSyntax, UnknownName, quote, resolve_name
from games.core.notation import Flag, Grammar, Name, Ref, Slot, Typed
from games.oak_and_iron.data import initiative_cards, scenario_cards
from games.oak_and_iron.state import ShipState, State

SIDES = ("port", "starboard")
AIMS = ("hull", "rigging", "crew")
FLAGS = ("fortune", "helm-port", "helm-starboard")
HELP = (
    "Orders: `initiative <card>`, `<ship> seamanship adjust +1`, `<ship> move turn-end port 30`, "
    "`<ship> crew reload starboard`, `<ship> done`, `<ship> broadside starboard <target>`, "
    "`<ship> partial <target>`, `<ship> close <target>`, `<ship> hold`, `capture <ship>`, `measure <ship> <target>`; "
    "set-up with the scenario decks (option start=book): `role attacker`, `draft <card>`, `terrain add <kind>`, "
    "`terrain done`, `terrain place <kind> <x> <y>`, `terrain discard <kind>`, `terrain move <piece> <x> <y>`, "
    "`terrain keep`, `deploy <ship> at <x> <y> [heading]`."
)


# --- slots of this notation -----------------------------------------------------------------------


@dataclass(frozen=True)
class Vessel(Slot):
    """A ship: up to four words naming it exactly (name, id, or name with hyphens), else one word
    that ``resolve_name`` matches (a unique prefix), as players have always written them."""

    max_words: ClassVar[int | None] = 4
    what: str = "ship"
    # followed by numbers (``deploy Corvette 2 4 30``): a name that begins a longer ship name
    # ("Corvette" of "Corvette 2") is read only when the longer one does not fit
    longest: bool = False

    def read(self, words: Sequence[str], ctx: Any) -> Ref:
        names: dict[str, str] = dict(ctx.names["ship"])
        text = " ".join(words).casefold()
        for sid, name in names.items():
            if text in (name.casefold(), sid.casefold(), name.casefold().replace(" ", "-")):
                if self.longest and any(n.casefold().startswith(text + " ") for n in names.values()):
                    ctx.inexact += 1
                return Ref(sid, name)
        if len(words) > 1:
            raise UnknownName(f"No ship called {quote(' '.join(words))}.", hint=f"Known: {', '.join(sorted(names.values()))}.")
        ctx.inexact += 1
        sid = resolve_name(words[0], names, "ship")
        return Ref(sid, names[sid])

    def show(self, value: Any) -> str:
        return str(value.name)


@dataclass(frozen=True)
class Degrees(Slot):
    """A turn in degrees, 0 to 360 (``30``, ``30deg``, ``30°``), kept as printed (six significant digits)."""

    what: str = "number of degrees"

    def read(self, words: Sequence[str], ctx: Any) -> float:
        token = words[0].casefold()
        try:
            value = float(token.rstrip("°").removesuffix("deg"))
        except ValueError:
            raise InvalidSyntax(f"{quote(token)} in {quote(ctx.text)} is not a number of degrees.",
                                hint="Write e.g. `turn-end port 30`.") from None
        if not 0 <= value <= 360 or value != value:
            raise InvalidSyntax(f"{quote(token)} in {quote(ctx.text)}: degrees must be between 0 and 360.")
        return float(f"{value:g}")

    def show(self, value: Any) -> str:
        return f"{value:g}"


@dataclass(frozen=True)
class Inches(Slot):
    """A table coordinate in inches from the top-left corner, kept as printed."""

    what: str = "number of inches"

    def read(self, words: Sequence[str], ctx: Any) -> float:
        try:
            value = float(f"{float(words[0].casefold()):g}")
        except ValueError:
            raise InvalidSyntax(f"{quote(ctx.text)}: a point on the table is two numbers, inches from the top-left corner.") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise InvalidSyntax(f"{quote(ctx.text)}: {quote(words[0])} is not a distance on the table.")
        return value

    def show(self, value: Any) -> str:
        return f"{value:g}"


Ship = Annotated[Ref, Vessel()]
Card = Annotated[Ref, Name("initiative card")]
Side = Literal["port", "starboard"]
Aim = Literal["hull", "rigging", "crew"]
Turn = Annotated[float, Degrees()]
Fortune = Annotated[bool, Flag("fortune")]
HelmPort = Annotated[bool, Flag("helm-port")]
HelmStarboard = Annotated[bool, Flag("helm-starboard")]


# --- Initiative and End Phase, and the measuring tool ---------------------------------------------


@dataclass(frozen=True)
class Initiative(Typed):
    """Seal an initiative card for next turn (book 4.1 step 2)."""

    PATTERN: ClassVar[str] = "initiative {card}"
    card: Card


@dataclass(frozen=True)
class EndChoice(Typed):
    """Capture, destroy or spare a Shaken enemy Entangled with your ship (book 4.4 step 1); one
    class a verb, so that a refusal names what is missing rather than a verb that is not there."""

    CHOICE: ClassVar[str] = ""
    ship: Ship


@dataclass(frozen=True)
class Capture(EndChoice):
    """The Shaken ship is Captured: it counts for its captor."""

    PATTERN: ClassVar[str] = "capture {ship}"
    CHOICE: ClassVar[str] = "capture"


@dataclass(frozen=True)
class Destroy(EndChoice):
    """The Shaken ship is Destroyed."""

    PATTERN: ClassVar[str] = "destroy {ship}"
    CHOICE: ClassVar[str] = "destroy"


@dataclass(frozen=True)
class Spare(EndChoice):
    """The Shaken ship is left as it is."""

    PATTERN: ClassVar[str] = "spare {ship}"
    CHOICE: ClassVar[str] = "spare"


@dataclass(frozen=True)
class Measure(Typed):
    """Ask the range ruler about two ships (book ch. 2); changes nothing."""

    PATTERN: ClassVar[str] = "measure {ship} {target}"
    ship: Ship
    target: Ship


# --- Starting a Game with the scenario decks (ch. 7) ----------------------------------------------


TerrainKind = Literal["rock", "island", "shoal", "fog"]


@dataclass(frozen=True)
class Role(Typed):
    """The side with the higher admiral value chooses to attack or defend (ch. 7)."""

    PATTERN: ClassVar[str] = "role {role}"
    role: Literal["attacker", "defender"]


@dataclass(frozen=True)
class Draft(Typed):
    """Take one scenario card on offer, one of each category (ch. 7)."""

    PATTERN: ClassVar[str] = "draft {card}"
    card: Annotated[Ref, Name("scenario card")]


@dataclass(frozen=True)
class TerrainAdd(Typed):
    """SELECT TERRAIN: add a piece the setting card allows to the pool (ch. 7 step 2)."""

    PATTERN: ClassVar[str] = "terrain add {kind}"
    kind: TerrainKind


@dataclass(frozen=True)
class TerrainDone(Typed):
    """Add no more terrain (ch. 7 step 2)."""

    PATTERN: ClassVar[str] = "terrain done"


@dataclass(frozen=True)
class TerrainPlace(Typed):
    """PLACE TERRAIN: a piece from the pool centred at x y, inches from the top-left (ch. 7 step 3)."""

    PATTERN: ClassVar[str] = "terrain place {kind} {x} {y}"
    kind: TerrainKind
    x: Annotated[float, Inches()]
    y: Annotated[float, Inches()]


@dataclass(frozen=True)
class TerrainDiscard(Typed):
    """A piece that fits nowhere is removed from the game (ch. 7 step 3)."""

    PATTERN: ClassVar[str] = "terrain discard {kind}"
    kind: TerrainKind


@dataclass(frozen=True)
class TerrainMove(Typed):
    """ADJUST TERRAIN: move a piece lying wholly in your deployment zone up to Musket Shot, its centre
    to x y (ch. 7 step 4)."""

    PATTERN: ClassVar[str] = "terrain move {piece} {x} {y}"
    piece: Annotated[Ref, Name("terrain piece")]
    x: Annotated[float, Inches()]
    y: Annotated[float, Inches()]


@dataclass(frozen=True)
class TerrainKeep(Typed):
    """Move no more terrain (ch. 7 step 4)."""

    PATTERN: ClassVar[str] = "terrain keep"


@dataclass(frozen=True)
class Deploy(Typed):
    """DEPLOY SQUADRONS: a ship at x y in its zone, heading towards the enemy unless given (ch. 7 step 5)."""

    PATTERN: ClassVar[str] = "deploy {ship} at {x} {y} [{heading}]"
    ALIASES: ClassVar[tuple[str, ...]] = ("deploy {ship} {x} {y} [{heading}]",)  # as first written (logs, players)
    ship: Annotated[Ref, Vessel(longest=True)]
    x: Annotated[float, Inches()]
    y: Annotated[float, Inches()]
    heading: Turn | None = None


SetupOrder = Role | Draft | TerrainAdd | TerrainDone | TerrainPlace | TerrainDiscard | TerrainMove | TerrainKeep | Deploy


# --- the Movement Phase ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Move(Typed):
    """Move the full speed, with one turn at the start or the end (book 4.2 step 3); 45 degrees
    when the turn gives no number."""

    PATTERN: ClassVar[str] = "{ship} move [{when} {direction} {degrees}]"
    ALIASES: ClassVar[tuple[str, ...]] = ("{ship} move {when} {direction}",)
    ship: Ship
    when: Literal["turn-start", "turn-end"] | None = None
    direction: Side | None = None
    degrees: Turn = 45.0


@dataclass(frozen=True)
class Done(Typed):
    """End the ship's activation without a Crew Action."""

    PATTERN: ClassVar[str] = "{ship} done"
    ship: Ship


@dataclass(frozen=True)
class Adjust(Typed):
    """Seamanship Action ADJUST SPEED by one (book 4.2 step 2); ``adjust 1`` reads as ``+1``."""

    PATTERN: ClassVar[str] = "{ship} seamanship adjust {delta} {fortune}"
    ALIASES: ClassVar[tuple[str, ...]] = ("{ship} seamanship adjust 1 {fortune}",)
    ship: Ship
    delta: Literal["+1", "-1"] = "+1"
    fortune: Fortune = False


@dataclass(frozen=True)
class Heading(Typed):
    """Seamanship Action CHANGE HEADING: a turn before the move with the speed 1 tool (4.2 step 2)."""

    PATTERN: ClassVar[str] = "{ship} seamanship heading {direction} {degrees} {fortune}"
    ALIASES: ClassVar[tuple[str, ...]] = ("{ship} seamanship heading {direction} {fortune}",)
    ship: Ship
    direction: Side
    degrees: Turn = 45.0
    fortune: Fortune = False


@dataclass(frozen=True)
class CutFree(Typed):
    """Seamanship Action CUT FREE from the ships it is Entangled with (4.2 step 2)."""

    PATTERN: ClassVar[str] = "{ship} seamanship cutfree {fortune}"
    ALIASES: ClassVar[tuple[str, ...]] = ("{ship} seamanship cut-free {fortune}", "{ship} seamanship cut free {fortune}")
    ship: Ship
    fortune: Fortune = False


@dataclass(frozen=True)
class Reload(Typed):
    """Crew Action RELOAD one side (4.2 step 4)."""

    PATTERN: ClassVar[str] = "{ship} crew reload {side}"
    ship: Ship
    side: Side


@dataclass(frozen=True)
class Rally(Typed):
    """Crew Action RALLY: remove a point of Fatigue (4.2 step 4)."""

    PATTERN: ClassVar[str] = "{ship} crew rally"
    ship: Ship


@dataclass(frozen=True)
class Repair(Typed):
    """Crew Action REPAIR a point of damage, or try to get off (``aground``) (4.2 step 4)."""

    PATTERN: ClassVar[str] = "{ship} crew repair [{what}] {fortune}"
    ship: Ship
    what: Literal["hull", "aground"] | None = None
    fortune: Fortune = False


@dataclass(frozen=True)
class ChangeSail(Typed):
    """Crew Action CHANGE SAIL SETTING one level (4.2 step 4)."""

    PATTERN: ClassVar[str] = "{ship} crew sail {way}"
    ship: Ship
    way: Literal["up", "down"]


@dataclass(frozen=True)
class Board(Typed):
    """Crew Action BOARDING an enemy within Yard Arm (4.2 step 4)."""

    PATTERN: ClassVar[str] = "{ship} crew board {target} {fortune}"
    ship: Ship
    target: Ship
    fortune: Fortune = False


@dataclass(frozen=True)
class Row(Typed):
    """Crew Action ROW with Sweeps: a move with the speed 1 tool (4.2 step 4)."""

    PATTERN: ClassVar[str] = "{ship} crew row"
    ship: Ship


@dataclass(frozen=True)
class TransferFlag(Typed):
    """Crew Action TRANSFER FLAG to a friendly ship within Pistol Shot (4.2 step 4)."""

    PATTERN: ClassVar[str] = "{ship} crew flag {target}"
    ship: Ship
    target: Ship


@dataclass(frozen=True)
class LandingParty(Typed):
    """Crew Action LANDING PARTY ashore, at a point or the nearest island point (4.2 step 4)."""

    PATTERN: ClassVar[str] = "{ship} crew landing [{x} {y}]"
    ship: Ship
    x: Annotated[float, Inches()] | None = None
    y: Annotated[float, Inches()] | None = None


# --- the Attack Phase -----------------------------------------------------------------------------


class _Helm:
    """Which way a target's struck helm turns it: to port unless the order says ``helm-starboard``."""

    helm_starboard: bool

    @property
    def helm(self) -> str:
        return "starboard" if self.helm_starboard else "port"


@dataclass(frozen=True)
class Broadside(_Helm, Typed):
    """One or two Broadside attacks, one from each side (book 4.3); aim at rigging or crew
    (5.7, 5.8); a helm struck turns the target to port unless ``helm-starboard``."""

    PATTERN: ClassVar[str] = (
        "{ship} broadside {side} {target} [{aim}] [and {side2} {target2} [{aim2}]] {fortune} {helm_port} {helm_starboard}"
    )
    ship: Ship
    side: Side
    target: Ship
    aim: Aim = "hull"
    side2: Side | None = None
    target2: Ship | None = None
    aim2: Aim = "hull"
    fortune: Fortune = False
    helm_port: HelmPort = False
    helm_starboard: HelmStarboard = False

    def shots(self) -> list[tuple[str, Ref, str]]:
        """(side, target, aim) of each broadside, in the order given."""
        first = [(str(self.side), self.target, str(self.aim))]
        return first + ([(str(self.side2), self.target2, str(self.aim2))] if self.side2 and self.target2 else [])


@dataclass(frozen=True)
class Partial(_Helm, Typed):
    """Partial Fire with part of the guns and small arms (book 4.3)."""

    PATTERN: ClassVar[str] = "{ship} partial {target} [{aim}] {fortune} {helm_port} {helm_starboard}"
    ship: Ship
    target: Ship
    aim: Aim = "hull"
    fortune: Fortune = False
    helm_port: HelmPort = False
    helm_starboard: HelmStarboard = False


@dataclass(frozen=True)
class Close(Typed):
    """Close Combat against an Entangled enemy (book 4.3)."""

    PATTERN: ClassVar[str] = "{ship} close {target}"
    ship: Ship
    target: Ship


@dataclass(frozen=True)
class LandingAttack(Typed):
    """Close Combat between two Landing Parties (book 4.3)."""

    PATTERN: ClassVar[str] = "{ship} landing-attack {target}"
    ship: Ship
    target: Ship


@dataclass(frozen=True)
class Hold(Typed):
    """The ship does not attack this phase."""

    PATTERN: ClassVar[str] = "{ship} hold"
    ship: Ship


Seamanship = Adjust | Heading | CutFree
CrewAction = Reload | Rally | Repair | ChangeSail | Board | Row | TransferFlag | LandingParty
MovementOrder = Move | Done | Seamanship | CrewAction
AttackOrder = Broadside | Partial | Close | LandingAttack | Hold
OakOrder = SetupOrder | MovementOrder | AttackOrder | Initiative | Capture | Destroy | Spare | Measure
GRAMMAR = Grammar(  # orders that start with a ship first, so an unknown ship is what a refusal names
    Move, Done, Adjust, Heading, CutFree, Reload, Rally, Repair, ChangeSail, Board, Row, TransferFlag, LandingParty,
    Broadside, Partial, Close, LandingAttack, Hold, Initiative, Capture, Destroy, Spare, Measure,
    Role, Draft, TerrainAdd, TerrainDone, TerrainPlace, TerrainDiscard, TerrainMove, TerrainKeep, Deploy, hint=HELP,
)
SETUP_VERBS = ("role", "draft", "terrain", "deploy")


def order_help() -> list[tuple[str, str]]:
    """(usage, what it does) of every order, from the order classes' docstrings."""
    out = []
    for shape in GRAMMAR.shapes:
        doc = " ".join((shape.cls.__doc__ or "").split())
        out.append((shape.usage(), doc))
    return out


def ship_names(state: State) -> dict[str, str]:
    return {s.id: s.name for s in state.ships}


def ref(ship: ShipState) -> Ref:
    return Ref(ship.id, ship.name)


def movement_candidates(ship: Ref, enemies: Sequence[Ref]) -> list[MovementOrder]:
    """The Movement Phase orders ``legal_orders`` tries for one ship, in the order it offers them."""
    return [
        Move(ship), Move(ship, "turn-end", "port", 45.0), Move(ship, "turn-end", "starboard", 45.0),
        Move(ship, "turn-start", "port", 20.0), Move(ship, "turn-start", "starboard", 20.0),
        Done(ship), Reload(ship, "port"), Reload(ship, "starboard"), Rally(ship),
        Repair(ship), ChangeSail(ship, "up"), ChangeSail(ship, "down"), Adjust(ship, "+1"),
        Heading(ship, "port", 30.0), CutFree(ship), Row(ship),
        *(Board(ship, target) for target in enemies),
    ]


def attack_candidates(ship: Ref, enemies: Sequence[Ref]) -> list[AttackOrder]:
    """The Attack Phase orders ``legal_orders`` tries for one ship, in the order it offers them."""
    out: list[AttackOrder] = []
    for target in enemies:
        out += [Broadside(ship, "port", target), Broadside(ship, "starboard", target), Partial(ship, target), Close(ship, target)]
    return [*out, Hold(ship)]


def setup_candidates(state: State, side_id: str) -> list[SetupOrder]:
    """The set-up orders ``legal_orders`` tries: every choice of a step, terrain and ships on a
    coarse grid of points (any point may be written)."""
    setup = state.setup
    if setup is None:
        return []
    cards = scenario_cards().cards
    if setup.step == "role":
        return [Role("attacker"), Role("defender")]
    if setup.step == "draft":
        return [Draft(Ref(k, cards[k].name)) for k in setup.offers]
    if setup.step == "select":
        kinds = [k for k, n in setup.allowance.get(side_id, {}).items() if n]
        return [*(TerrainAdd(k) for k in kinds), TerrainDone()]  # type: ignore[arg-type]
    if setup.step == "place":
        out: list[SetupOrder] = []
        for kind in dict.fromkeys(setup.pool):
            out += [TerrainPlace(kind, float(x), float(y))  # type: ignore[arg-type]
                    for y in range(4, int(state.table_height) - 3, 4) for x in range(4, int(state.table_width) - 3, 4)]
            out.append(TerrainDiscard(kind))  # type: ignore[arg-type]
        return out
    if setup.step == "adjust":
        from games.oak_and_iron.rules.scenario_cards_7 import movable

        moves: list[SetupOrder] = []
        for t in movable(state, side_id):
            cx = sum(p[0] for p in t.points) / len(t.points)
            cy = sum(p[1] for p in t.points) / len(t.points)
            key = t.label.replace(" ", "-").casefold()
            moves += [TerrainMove(Ref(key, t.label), cx + dx, cy + dy) for dx, dy in ((3.0, 0.0), (-3.0, 0.0), (0.0, 3.0), (0.0, -3.0))]
        return [*moves, TerrainKeep()]
    if setup.step == "deploy":
        from games.oak_and_iron.rules.scenario_cards_7 import to_deploy, zone

        x0, y0, x1, y1 = zone(state, side_id)
        points = [(x0 + 1.5 + 2.5 * i, (y0 + y1) / 2) for i in range(int((x1 - x0 - 3) / 2.5) + 1)]
        return [Deploy(ref(ship), x, y) for ship in to_deploy(state, side_id)[:1] for x, y in points]
    return []


def parse(state: State, text: str) -> OakOrder:
    """Read an order (names against this game's ships and the initiative cards)."""
    if not text.split():
        raise InvalidSyntax("Empty order.", hint=HELP)
    _check_verb(state, text)
    cards = {k: c.name for k, c in initiative_cards().items()}
    decks = {k: c.name for k, c in scenario_cards().cards.items()}
    pieces = {t.label.replace(" ", "-").casefold(): t.label for t in state.terrain}
    names = {"ship": ship_names(state), "initiative card": cards, "scenario card": decks, "terrain piece": pieces}
    order = GRAMMAR.parse(" ".join(_normalise(text.split())), names)
    if isinstance(order, Broadside) and order.side2 == order.side:
        raise InvalidSyntax(f"{quote(text)}: at most one broadside from each side.")
    assert isinstance(order, OakOrder)
    return order


SHIP_VERBS = ("seamanship", "move", "crew", "done", "broadside", "partial", "close", "landing-attack", "hold")


def _check_verb(state: State, text: str) -> None:
    """An order for a ship names a known ship, then one of its verbs (refused in those words)."""
    tokens = text.split()
    if tokens[0].casefold() in ("initiative", "capture", "destroy", "spare", "measure", *SETUP_VERBS):
        return
    names = ship_names(state)
    exact = [k for k in range(min(4, len(tokens)), 0, -1) if _names_a_ship(" ".join(tokens[:k]), names)]
    if not exact:
        resolve_name(tokens[0], names, "ship")
    rest = tokens[exact[0] if exact else 1 :]
    if not rest:
        raise InvalidSyntax(f"{quote(text)}: what should {' '.join(tokens)} do?", hint=HELP)
    if rest[0].casefold() not in SHIP_VERBS:
        raise InvalidSyntax(f"Unknown order {quote(rest[0])} in {quote(text)}.", hint=HELP)


def _names_a_ship(text: str, names: dict[str, str]) -> bool:
    run = text.casefold()
    return any(run in (n.casefold(), sid.casefold(), n.casefold().replace(" ", "-")) for sid, n in names.items())


def _normalise(words: list[str]) -> list[str]:
    """Put the words the old parser read in any position where the grammar reads them: after the
    verb of an attack, flags go to the end (sorted, once), a run of aims keeps its last, a trailing
    ``and`` goes; ``fortune`` of a Seamanship or Crew Action goes to the end (kept only where it
    means something: seamanship, crew repair and crew board)."""
    folded = [w.casefold() for w in words]
    if folded[0] in ("initiative", "measure", "capture", "destroy", "spare", *SETUP_VERBS):
        return words
    verb = next((i for i, w in enumerate(folded) if i > 0 and w in ("broadside", "partial", "seamanship", "crew")), None)
    if verb is None:
        return words
    head, tail = words[: verb + 1], words[verb + 1 :]
    if folded[verb] in ("seamanship", "crew"):
        plain = [w for w in tail if w.casefold() != "fortune"]
        keep = len(plain) < len(tail) and (folded[verb] == "seamanship" or (plain and plain[0].casefold() in ("repair", "board")))
        return head + plain + (["fortune"] if keep else [])
    flags: set[str] = set()
    rest: list[str] = []
    for i, w in enumerate(tail):
        if w.casefold() in FLAGS and i > 0 and tail[i - 1].casefold() != "and":  # not where a side is due
            flags.add(w.casefold())
        else:
            rest.append(w)
    out: list[str] = []
    for w in rest:
        if out and w.casefold() in AIMS and out[-1].casefold() in AIMS:
            out[-1] = w
        else:
            out.append(w)
    if out and out[-1].casefold() == "and":
        out.pop()
    return head + out + sorted(flags)

