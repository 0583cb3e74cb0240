"""Book section 4 (Playing the Game): who acts. Both players seal initiative cards; in the Movement
and Attack Phases they alternate, one ship at a time; in the End Phase the side that may capture.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase, quote
from games.core.ruleset import UMPIRE
from games.oak_and_iron.rules.fleet_battles_9 import (
    fleet_of,
    holder_of,
    holder_of_seat,
    holders,
    in_moving_squadron,
    may_play,
    seat_of_ship,
    squadron_seats,
    to_seal,
)
from games.oak_and_iron.state import ShipState, State


def to_act(state: State) -> list[str]:
    """The seats that must act now (drives the pings): sides, or the squadrons of the side to act
    when each Squadron of a Fleet Battle is a seat (``command=squadron``, ch. 9)."""
    sides = _sides_to_act(state)
    if not squadron_seats(state):
        return sides
    return [seat for side_id in sides for seat in _squadrons_to_act(state, side_id)]


def _sides_to_act(state: State) -> list[str]:
    if state.phase == "over":
        return []
    if state.phase == "setup":
        return [state.setup.turn] if state.setup is not None and state.setup.turn else []
    if state.phase == "select":  # each side (each squadron of a fleet, ch. 9) seals a card from its hand
        return [s.id for s in state.sides if to_seal(state, s.id) is not None]
    if state.phase == "end":
        return [state.pending[0].side] if state.pending else []
    return [state.active_side] if state.active_side else []


def _squadrons_to_act(state: State, side_id: str) -> list[str]:
    """Which of the side's Squadron seats may act: each still to seal; the squadron of the ship
    activating or that must finish its activations (ch. 9 Movement); any with a ship to activate."""
    if state.phase == "select":
        return [q.id for q in holders(state, side_id) if not q.sealed and q.hand and may_play(state, q)]
    if state.phase == "end":
        return [state.ship(state.pending[0].by).squadron]
    if state.activation.ship:
        return [state.ship(state.activation.ship).squadron]
    if state.phase == "movement" and state.moving_squadron and state.moving_squadron in (q.id for q in holders(state, side_id)):
        return [state.moving_squadron]
    ships = movers(state, side_id) if state.phase == "movement" else attackers(state, side_id)
    return list(dict.fromkeys(s.squadron for s in ships))


def acting_side(state: State, seat: str) -> str:
    """The side a seat speaks for now (a squadron's seat, its fleet); the umpire speaks for whoever must act."""
    if seat == UMPIRE:
        acting = to_act(state)
        if not acting:
            raise WrongPhase("Nobody needs to act now.")
        seat = acting[0]
    holder = holder_of_seat(state, seat)
    if holder is None:
        raise NotYourTurn(f"The seat {quote(seat)} does not command a squadron.")
    return fleet_of(holder)


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
    if seat != UMPIRE and seat_of_ship(state, ship) != seat:
        raise IllegalOrder(f"{ship.name} is one of {holder_of(state, ship).name}'s ships: each player orders only "
                           "their own Squadron's (command=squadron, ch. 9).",
                           hint=f"If you hold that Squadron's seat as well, add seat:{seat_of_ship(state, ship)} to the order.")
    if not ship.on_table:
        raise IllegalOrder(f"{ship.name} is no longer on the table ({ship.status}).")
    if ship.out_of_action:
        raise IllegalOrder(f"{ship.name} is Out of Action (Crippled and Shaken) and cannot act.")
    if ship.captured_by:
        raise IllegalOrder(f"{ship.name} is Captured: a prize follows the restrictions of an Out of Action ship "
                           "and cannot act (book 4.4).")
    return ship
