"""Book section 9 (Fleet Battles): two fleets of 2-4 Squadrons each. Each Squadron has its own
admiral, Flagship and initiative hand and seals a card from it; the fleet with the higher total of
revealed initiative values goes first; a Squadron wholly Captured or Out of Action plays no card.
In the Movement Phase a fleet activates all the ships of one Squadron, one ship after another,
before the other fleet activates one of its Squadrons; the Attack Phase alternates ships as usual;
withdrawal counts the whole fleet's Strike Points against its ships.

A squadron's record is a ``SideState`` in ``State.squadrons`` (``fleet`` names its side); in a
one-squadron game the sides themselves hold the hands, so every rule asks ``holders`` and
``holder_of`` and plays the same either way. Each Squadron's initiative card applies to its own
ships (house reading of "may only use cards from its own initiative hand").

Seats: "players can split up into 2 teams and each player controls 1 or 2 Squadrons". By default
one seat commands each fleet (``command=fleet``); with ``command=squadron`` each Squadron is a seat
(a player may hold two), which seals from its own hand only, sees only its own hand and orders only
its own ships; its fleet's turns are still the fleet's (a seat of the fleet to act may go).
"""

from __future__ import annotations

from games.oak_and_iron.state import ShipState, SideState, State

COMMAND = ("fleet", "squadron")  # the option ``command``: one seat a fleet, or one a Squadron


def holders(state: State, side_id: str | None = None) -> list[SideState]:
    """The records holding initiative hands (the squadrons, else the sides), of one side if given."""
    if not state.squadrons:
        return [s for s in state.sides if side_id is None or s.id == side_id]
    return [q for q in state.squadrons if side_id is None or q.fleet == side_id]


def fleet_of(holder: SideState) -> str:
    """The side a hand holder plays for."""
    return holder.fleet or holder.id


def holder_of(state: State, ship: ShipState) -> SideState:
    """The record holding the ship's admiral and cards: its squadron, else its side."""
    if ship.squadron:
        return next(q for q in state.squadrons if q.id == ship.squadron)
    return state.side(ship.side)


def ships_of(state: State, holder: SideState) -> list[ShipState]:
    """The ships that started in this squadron (or side)."""
    if holder.fleet:
        return [s for s in state.ships if s.squadron == holder.id]
    return [s for s in state.ships if s.side == holder.id]


def may_play(state: State, holder: SideState) -> bool:
    """FLEET BATTLES, Initiative Phase: "If an entire Squadron is Captured or Out of Action, that
    Squadron may not play an initiative card" (a side always may)."""
    if not holder.fleet:
        return True
    return any(s.on_table and not s.out_of_action and not s.captured_by for s in ships_of(state, holder))


def to_seal(state: State, side_id: str) -> SideState | None:
    """The side's next hand holder still to seal a card this Initiative Phase, if any."""
    return next((h for h in holders(state, side_id) if not h.sealed and h.hand and may_play(state, h)), None)


def in_moving_squadron(state: State, ship: ShipState) -> bool:
    """Movement Phase: once a fleet has started a squadron, only that squadron's ships activate."""
    if not state.squadrons or not state.moving_squadron:
        return True
    moving = next(q for q in state.squadrons if q.id == state.moving_squadron)
    return ship.controller != moving.fleet or ship.squadron == state.moving_squadron


def squadron_continues(state: State, side_id: str, movers: list[ShipState]) -> bool:
    """After an activation: the same fleet goes on while its squadron has ships to activate."""
    if not state.squadrons or not state.moving_squadron:
        return False
    if any(s.squadron == state.moving_squadron for s in movers):
        return True
    state.moving_squadron = ""
    return False


def squadron_seats(state: State) -> bool:
    """Each Squadron of a Fleet Battle is a seat of its own (option ``command=squadron``)."""
    return bool(state.squadrons) and state.options.get("command", "fleet") == "squadron"


def seat_holders(state: State) -> list[SideState]:
    """What the seats command: the squadrons (``command=squadron``), else the sides."""
    return list(state.squadrons) if squadron_seats(state) else list(state.sides)


def seat_of(state: State, holder: SideState) -> str:
    """The seat whose player holds this hand: the squadron's own, else its fleet's (or the side)."""
    return holder.id if squadron_seats(state) else fleet_of(holder)


def seat_of_ship(state: State, ship: ShipState) -> str:
    """The seat that orders the ship: its squadron's (``command=squadron``), else its side's."""
    return ship.squadron if squadron_seats(state) else ship.controller


def holder_of_seat(state: State, seat: str) -> SideState | None:
    """The squadron (or side) a seat commands, None for another seat."""
    return next((h for h in seat_holders(state) if h.id == seat), None)
