"""Book section 4 (Playing the Game): who acts. Both players seal initiative cards; in the Movement
and Attack Phases they alternate, one ship at a time; in the End Phase the side that may capture.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase, quote
from games.core.ruleset import UMPIRE
from games.oak_and_iron.rules.fleet_battles_9 import in_moving_squadron, to_seal
from games.oak_and_iron.state import ShipState, State


def to_act(state: State) -> list[str]:
    """The sides that must act now (drives the pings)."""
    if state.phase == "over":
        return []
    if state.phase == "setup":
        return [state.setup.turn] if state.setup is not None and state.setup.turn else []
    if state.phase == "select":  # each side (each squadron of a fleet, ch. 9) seals a card from its hand
        return [s.id for s in state.sides if to_seal(state, s.id) is not None]
    if state.phase == "end":
        return [state.pending[0].side] if state.pending else []
    return [state.active_side] if state.active_side else []


def acting_side(state: State, seat: str) -> str:
    """The side a seat speaks for now; the umpire speaks for whoever must act."""
    if seat == UMPIRE:
        acting = to_act(state)
        if not acting:
            raise WrongPhase("Nobody needs to act now.")
        return acting[0]
    if seat not in ("a", "b"):
        raise NotYourTurn(f"The seat {quote(seat)} does not command a squadron.")
    return seat


def movers(state: State, side_id: str) -> list[ShipState]:
    """Ships of the side still to activate in the Movement Phase (no Wake marker yet)."""
    return [s for s in state.ships if s.controller == side_id and s.can_act and not s.moved and in_moving_squadron(state, s)]


def attackers(state: State, side_id: str) -> list[ShipState]:
    """Ships of the side still to attack in the Attack Phase."""
    return [s for s in state.ships if s.controller == side_id and s.can_act and not s.attacked]


def own_ship(state: State, seat: str, ship_id: str) -> ShipState:
    """The ship an order names, if the seat's side is the one activating and the ship can act."""
    side_id = acting_side(state, seat)
    ship = state.ship(ship_id)
    if state.active_side != side_id:
        raise NotYourTurn(f"It is {state.side(state.active_side).name}'s turn to act, not {state.side(side_id).name}'s.")
    if ship.controller != side_id:
        raise IllegalOrder(f"{ship.name} is not one of {state.side(side_id).name}'s ships.")
    if not ship.on_table:
        raise IllegalOrder(f"{ship.name} is no longer on the table ({ship.status}).")
    if ship.out_of_action:
        raise IllegalOrder(f"{ship.name} is Out of Action (Crippled and Shaken) and cannot act.")
    return ship
