"""The orders of Iron and Fire as typed values: ``Huáscar move F F P F``, ``Huáscar fire Esmeralda``,
``Huáscar ram``, ``Esmeralda at 1606 3``, ``mine 2305``, ``fow reroll 2``, ``done``...

Each class is a frozen dataclass whose ``PATTERN`` is its notation (``games.core.notation``);
``parse`` reads text into one of them and ``order.text`` prints it back exactly as the logs of
stored games hold it (``tests/iron_and_fire/fixtures/order_texts.json`` pins every spelling).
Names match without accents or apostrophes and by unique prefix (``Huascar``, ``ohiggins``,
``blanco``); steps are F (forward), P (port), S (starboard), L and R reading as P and S.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass
from typing import Annotated, ClassVar, cast

from games.core.errors import InvalidSyntax
from games.core.hexgrid import HexLayout
from games.core.notation import Grammar, Name, Number, Ref, Steps, Token, Typed
from games.iron_and_fire.state import State, Unit

STEP_HINT = "Steps: F (forward), P (port), S (starboard)."
SYNTAX_HINT = ("Write `<ship> move F F P F`, `<ship> fire <target>`, `<ship> ram`, `<ship> board <target>`, "
               "`<ship> repair`, `<ship> unground`, or `done`.")

# the hint for an unreadable order that starts with one of these words (else SYNTAX_HINT)
HINTS = {
    "fow": "Fortunes of War: `fow extra`, `fow again <unit>`, `fow redraw`, `fow reroll`, `fow end`, or add `fow` to a move/ram/fire order.",
    "roll": "Write `roll <what>`, e.g. `roll mines`.",
    "mine": "Write `mine <hex>`, e.g. `mine 2305`.",
    "battery": "Write `battery <hex>`, e.g. `battery 1306`.",
    "cable": "Write `cable <hex>` or `cable <ship>`.",
    "break": "Write `break off` (or `continue`).",
}

UnitName = Annotated[Ref, Name("unit")]
ShipName = Annotated[Ref, Name("ship")]
TargetName = Annotated[Ref, Name("target")]
HexNumber = Annotated[str, Token(r"\d+", "hex number CCRR", "2305")]
StepLetters = Annotated[str, Steps("FPS", {"L": "P", "R": "S"}, "movement step", STEP_HINT)]
Facing = Annotated[int, Number(1, 6, what="compass facing 1-6")]


def plain(text: str) -> str:
    """Without accents or apostrophes, so `Huascar` finds Huáscar and `OHiggins` O'Higgins."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("'", "").replace("’", "")


def fold(text: str) -> str:
    """Lower case without accents or apostrophes: how names are matched."""
    return plain(text).casefold()


# --- activations (section 4.2: one per activated unit) ---------------------------------------


@dataclass(frozen=True)
class Move(Typed):
    """Movement (section 5); ``ram`` rams the ship ahead at the end (6.2), ``fow`` plays the
    Fortunes of War (13.1)."""

    PATTERN: ClassVar[str] = "{unit} move {steps} [{ram}] [{fow}]"
    unit: UnitName
    steps: StepLetters
    ram: bool = False
    fow: bool = False


@dataclass(frozen=True)
class MoveRam(Typed):
    """Movement ending in a ram on a named ship (sections 5 and 6.2)."""

    PATTERN: ClassVar[str] = "{unit} move {steps} ram {target} [{fow}]"
    unit: UnitName
    steps: StepLetters
    target: ShipName
    fow: bool = False


@dataclass(frozen=True)
class Ram(Typed):
    """A ram without moving first (section 6.2): the ship ahead of the bow."""

    PATTERN: ClassVar[str] = "{unit} ram [{target}] [{fow}]"
    ALIASES: ClassVar[tuple[str, ...]] = ("{unit} move ram [{target}] [{fow}]",)
    unit: UnitName
    target: ShipName | None = None
    fow: bool = False


@dataclass(frozen=True)
class Fire(Typed):
    """Fire at an enemy ship or battery (section 6.1)."""

    PATTERN: ClassVar[str] = "{unit} fire {target} [{fow}]"
    unit: UnitName
    target: TargetName
    fow: bool = False


@dataclass(frozen=True)
class Bombard(Typed):
    """Fire at the town of Antofagasta (Scenario 4 bombardment, 15.5)."""

    PATTERN: ClassVar[str] = "{unit} fire town"
    ALIASES: ClassVar[tuple[str, ...]] = ("{unit} fire town fow", "{unit} fire antofagasta", "{unit} fire antofagasta fow",
                                          "{unit} bombard", "{unit} bombard fow")
    unit: UnitName


@dataclass(frozen=True)
class Board(Typed):
    """Start or continue a Boarding Combat (section 6.3)."""

    PATTERN: ClassVar[str] = "{unit} board [{target}]"
    ALIASES: ClassVar[tuple[str, ...]] = ("{unit} board [{target}] fow",)
    unit: UnitName
    target: ShipName | None = None


@dataclass(frozen=True)
class Repair(Typed):
    """Attempt to remove a hit (section 8)."""

    PATTERN: ClassVar[str] = "{unit} repair"
    unit: UnitName


@dataclass(frozen=True)
class Unground(Typed):
    """Attempt to unground (section 5.3)."""

    PATTERN: ClassVar[str] = "{unit} unground"
    unit: UnitName


@dataclass(frozen=True)
class Cut(Typed):
    """Work on cutting the cable from atop the buoy (Scenario 4, 15.5)."""

    PATTERN: ClassVar[str] = "{unit} cut"
    unit: UnitName


@dataclass(frozen=True)
class Prepare(Typed):
    """The first of the two consecutive activations a captured ship needs to move (6.3)."""

    PATTERN: ClassVar[str] = "{unit} prepare"
    unit: UnitName


# --- set-up (section 15) ----------------------------------------------------------------------


@dataclass(frozen=True)
class Place(Typed):
    """Set a ship up on a hex with a printed compass facing (the scenario's set-up)."""

    PATTERN: ClassVar[str] = "{unit} at {hex} [{facing}]"
    ALIASES: ClassVar[tuple[str, ...]] = ("{unit} at facing {hex} [{facing}]", "{unit} at {hex} facing {facing}",
                                          "{unit} at {hex} [{facing}] fow")
    unit: UnitName
    hex: HexNumber
    facing: Facing | None = None


@dataclass(frozen=True)
class Roll(Typed):
    """A set-up roll the scenario calls for (steam, arrival, mines, batteries...)."""

    PATTERN: ClassVar[str] = "roll {what}"
    what: Annotated[str, Token(r"\S+", "roll", "roll mines", fold="lower")]


@dataclass(frozen=True)
class PlaceMine(Typed):
    """Place a Mine counter face down (section 9)."""

    PATTERN: ClassVar[str] = "mine {hex}"
    hex: HexNumber


@dataclass(frozen=True)
class PlaceBattery(Typed):
    """Place a land battery (section 7.2; the scenario says where)."""

    PATTERN: ClassVar[str] = "battery {hex}"
    hex: HexNumber


@dataclass(frozen=True)
class CableAt(Typed):
    """Place the cable buoy on a hex (Scenario 4)."""

    PATTERN: ClassVar[str] = "cable {hex}"
    hex: HexNumber


@dataclass(frozen=True)
class CableWith(Typed):
    """Place the cable buoy under a ship already set up (Scenario 3)."""

    PATTERN: ClassVar[str] = "cable {ship}"
    ship: ShipName


# --- turn flow and decisions ------------------------------------------------------------------


@dataclass(frozen=True)
class Done(Typed):
    """End set-up, or the remaining activations of the card in play (4.1: use it or lose it)."""

    PATTERN: ClassVar[str] = "done"


@dataclass(frozen=True)
class Pass(Typed):
    """At the first Joker, keep the Fortunes of War: the Random Event is rolled (13.1, 14)."""

    PATTERN: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Continue(Typed):
    """Fight another Boarding Combat round (6.3)."""

    PATTERN: ClassVar[str] = "continue"


@dataclass(frozen=True)
class BreakOff(Typed):
    """Break off a Boarding Combat (6.3)."""

    PATTERN: ClassVar[str] = "break off"
    ALIASES: ClassVar[tuple[str, ...]] = ("break",)


@dataclass(frozen=True)
class FowExtra(Typed):
    """Fortunes of War: one more activation on this card (13.1)."""

    PATTERN: ClassVar[str] = "fow extra"


@dataclass(frozen=True)
class FowAgain(Typed):
    """Fortunes of War: a unit already activated acts a second time (13.1)."""

    PATTERN: ClassVar[str] = "fow again {unit}"
    unit: UnitName


@dataclass(frozen=True)
class FowRedraw(Typed):
    """Fortunes of War: discard the card in play and draw again (13.1)."""

    PATTERN: ClassVar[str] = "fow redraw"


@dataclass(frozen=True)
class FowReroll(Typed):
    """Fortunes of War: re-roll die ``die`` (the first if not given) of the last activation (13.1)."""

    PATTERN: ClassVar[str] = "fow reroll [{die}]"
    die: Annotated[int, Number(0, None, what="die number")] | None = None


@dataclass(frozen=True)
class FowEnd(Typed):
    """Fortunes of War: end the Activations Phase on the first Joker (13.1)."""

    PATTERN: ClassVar[str] = "fow end"


Activation = Move | MoveRam | Ram | Fire | Bombard | Board | Repair | Unground | Cut | Prepare
Decision = Place | Roll | PlaceMine | PlaceBattery | CableAt | CableWith | Done | Pass | Continue | BreakOff | FowExtra \
    | FowAgain | FowRedraw | FowEnd  # set-up, turn flow and decisions: every order but an activation and a re-roll
IronOrder = Activation | Decision | FowReroll
ACTIVATIONS = (Move, MoveRam, Ram, Fire, Bombard, Board, Repair, Unground, Cut, Prepare)
GRAMMAR = Grammar(Done, Pass, Continue, BreakOff, FowExtra, FowAgain, FowRedraw, FowReroll, FowEnd, Roll, PlaceMine,
                  PlaceBattery, CableAt, CableWith, Place, Move, MoveRam, Ram, Bombard, Fire, Board, Repair, Unground, Cut,
                  Prepare, hint=SYNTAX_HINT)


def ref(u: Unit) -> Ref:
    return Ref(u.id, u.name)


def parse(state: State, layout: HexLayout, text: str) -> IronOrder:
    """Read an order: accents, apostrophes and commas are ignored, names resolve like
    ``resolve_name`` (by unique prefix), and hex numbers print as the map labels them."""
    words = plain(text).replace(",", " ").split()
    if not words:
        raise InvalidSyntax("Empty order.", hint="Try `help` for the notation, e.g. `Huascar move F F P F`.")
    if words[0].casefold() == "draw":
        raise InvalidSyntax("There is no `draw` order: the bot draws the activation cards itself.",
                            hint="Give your units' orders, or `done` to end the card in play.")
    names = {u.id: fold(u.name) for u in state.units}
    try:
        order = cast(IronOrder, GRAMMAR.parse(" ".join(words), {"unit": names, "ship": names, "target": names}))
    except InvalidSyntax as error:
        hint = HINTS.get(words[0].casefold())
        if hint and error.hint == GRAMMAR.hint:  # the grammar's list of every order: say what this one takes
            raise InvalidSyntax(error.message, hint=hint) from None
        raise
    return _spelled(state, layout, order)


def _spelled(state: State, layout: HexLayout, order: IronOrder) -> IronOrder:
    """The parsed order with display names and map hex labels (the reading folded them)."""
    display = {u.id: u.name for u in state.units}
    changes: dict[str, object] = {}
    for f in dataclasses.fields(order):
        value = getattr(order, f.name)
        if isinstance(value, Ref):
            changes[f.name] = Ref(value.id, display[value.id])
        elif f.name == "hex":
            changes[f.name] = layout.label(layout.parse(value))
    return dataclasses.replace(order, **changes) if changes else order  # type: ignore[arg-type]
