"""The orders, as typed values: ``Monitor fire Virginia``, ``Monitor hold``, ``Monitor move F F S``,
``Monitor stay``, ``seal``, ``done`` and the umpire's ``reveal``.

Each class is a frozen dataclass whose ``PATTERN`` is its notation (``games.core.notation``);
``parse`` reads text into one of them and ``order.text`` prints it back in canonical form. Steps
are F (forward one hex), P (turn 60 degrees to port) and S (to starboard); L and R read as P and S.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from games.core.errors import NotAllowed, quote
from games.core.notation import Grammar, Name, Ref, Steps, Typed
from games.core.ruleset import UMPIRE, Order
from games.hex_ironclads.state import Ship, Side, State

STEP_HINT = "Steps are F (forward one hex), P (turn to port), S (turn to starboard), e.g. `move F F S F`."
SYNTAX_HINT = "Write e.g. `Monitor fire Virginia`, `Monitor hold`, `Monitor move F F S`, `Monitor stay`, `seal` or `done`."

ShipName = Annotated[Ref, Name("ship")]
StepLetters = Annotated[str, Steps("FPS", {"L": "P", "R": "S"}, "movement step", STEP_HINT)]


@dataclass(frozen=True)
class Fire(Typed):
    """The ship's fire order this turn: one target (section 2)."""

    PATTERN: ClassVar[str] = "{ship} fire {target}"
    ship: ShipName
    target: ShipName


@dataclass(frozen=True)
class Hold(Typed):
    """The ship does not fire this turn (or takes back its fire order before sealing)."""

    PATTERN: ClassVar[str] = "{ship} hold"
    ship: ShipName


@dataclass(frozen=True)
class Seal(Typed):
    """The side's fire orders are complete: seal them (section 1, simultaneous fire)."""

    PATTERN: ClassVar[str] = "seal"


@dataclass(frozen=True)
class Reveal(Typed):
    """The umpire seals every side's orders as they stand and resolves fire now."""

    PATTERN: ClassVar[str] = "reveal"


@dataclass(frozen=True)
class Move(Typed):
    """The ship's move: F/P/S steps, one movement point each (section 4)."""

    PATTERN: ClassVar[str] = "{ship} move {steps}"
    ship: ShipName
    steps: StepLetters


@dataclass(frozen=True)
class Stay(Typed):
    """The ship spends no movement this turn (``Monitor move`` with no steps reads the same)."""

    PATTERN: ClassVar[str] = "{ship} stay"
    ALIASES: ClassVar[tuple[str, ...]] = ("{ship} move",)
    ship: ShipName


@dataclass(frozen=True)
class Done(Typed):
    """The moving side ends its movement; its ships not yet moved stay."""

    PATTERN: ClassVar[str] = "done"


HexOrder = Fire | Hold | Seal | Reveal | Move | Stay | Done
GRAMMAR = Grammar(Fire, Hold, Move, Stay, Seal, Done, Reveal, hint=SYNTAX_HINT)


def ship_names(state: State) -> dict[str, str]:
    return {s.id: s.name for s in state.ships}


def ref(ship: Ship) -> Ref:
    return Ref(ship.id, ship.name)


def parse(state: State, text: str) -> HexOrder:
    """Read an order; ship names are matched as ``resolve_name`` does (prefixes, any word on)."""
    order = GRAMMAR.parse(text, {"ship": ship_names(state)})
    assert isinstance(order, HexOrder)
    return order


def fire_order(state: State, ship: Ship, target_id: str) -> Fire | Hold:
    """The order a recorded fire choice stands for (``HOLD``, "", fires at nothing)."""
    return Fire(ref(ship), ref(state.ship(target_id))) if target_id else Hold(ref(ship))


def own_side(state: State, seat: str, ship: Ship, order: Order) -> Side:
    """The side of the ship an order names: a side orders only its own ships (the umpire any)."""
    if seat != UMPIRE and ship.side != seat:
        owner = state.side(ship.side).name
        raise NotAllowed(
            f"{quote(order.text)}: {ship.name} belongs to {owner}; you sit as {state.side(seat).name}.",
            hint="Give orders only to your own ships.",
        )
    return state.side(ship.side)
