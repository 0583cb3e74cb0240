"""Book section 4.4 (ch. 4, phase IV: The End Phase): capture or destroy Shaken ships, check for withdrawal (Strike
Points), check for sinking ships, lost admirals, return initiative cards."""

from __future__ import annotations

from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.core.geometry import bearing_of
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, public
from games.oak_and_iron.data import initiative_cards, rules, scenario_cards
from games.oak_and_iron.measure import base_distance
from games.oak_and_iron.rules import public_lines
from games.oak_and_iron.rules.activation_4 import acting_side
from games.oak_and_iron.rules.captains_6 import flag_moved
from games.oak_and_iron.rules.dice_2 import count, roll, show
from games.oak_and_iron.rules.fleet_battles_9 import fleet_of, holder_of, holders, seat_of_ship, ships_of
from games.oak_and_iron.rules.seamanship_4_2 import cut_free_direction
from games.oak_and_iron.rules.ship_status_4_2 import describe_ship, knock_out, release
from games.oak_and_iron.state import Pending, SideState, State


def begin(state: State) -> list[Event]:
    """CAPTURE OR DESTROY SHAKEN SHIPS (4.4 step 1): each Shaken ship Entangled with an able enemy
    waits for that side's choice, one at a time."""
    state.phase = "end"
    state.active_side = ""
    state.pending = []
    for ship in state.ships:
        if not (ship.on_table and ship.shaken and not ship.captured_by):
            continue
        for other_id in ship.entangled:
            other = state.ship(other_id)
            if other.controller != ship.controller and other.can_act and not other.shaken:
                state.pending.append(Pending(other.controller, ship.id, other.id))
                break
    events = [public(f"Turn {state.turn}: End Phase.")]
    if state.pending:
        events.append(_ask(state))
    return events


def _ask(state: State) -> Event:
    p = state.pending[0]
    return public(f"{state.side(p.side).name} may `capture`, `destroy` or `spare` the Shaken {state.ship(p.ship).name}.")


def capture(state: State, seat: str, choice: str, ship_id: str) -> list[Event]:
    """The side's choice (4.4 step 1): a Captured ship counts for its captor; a Destroyed one is
    Out of Action, and its captor cuts free (a free action) or the wreck is removed."""
    if state.phase != "end" or not state.pending:
        raise WrongPhase("Capturing and destroying Shaken ships happens in the End Phase, when one is Entangled with your ship.")
    side_id = acting_side(state, seat)
    p = state.pending[0]
    if side_id != p.side:
        raise NotYourTurn(f"It is {state.side(p.side).name}'s choice.")
    if seat != UMPIRE and seat_of_ship(state, state.ship(p.by)) != seat:
        raise NotYourTurn(f"It is the choice of {holder_of(state, state.ship(p.by)).name}, whose {state.ship(p.by).name} holds her.")
    if ship_id != p.ship:
        raise IllegalOrder(f"The choice now is about {state.ship(p.ship).name}, not {state.ship(ship_id).name}.")
    ship, by = state.ship(p.ship), state.ship(p.by)
    state.pending.pop(0)
    lines: list[str] = []
    if choice == "capture":
        ship.captured_by = p.side
        lines.append(f"{by.name} captures {ship.name}.")
    elif choice == "destroy":
        knock_out(ship, lines)
        lines.append(f"{by.name} destroys {ship.name}.")
        others = [e for e in by.entangled if e != ship.id]
        vec, frac = cut_free_direction(state, by, ship.base.centre, rules().distance("yard_arm"))
        if frac >= 1 - 1e-9 and not others:
            by.entangled.remove(ship.id)
            ship.entangled.remove(by.id)
            by.place(by.base.translated(vec))
            lines.append(f"{by.name} cuts free (free action), {rules().distance('yard_arm'):g}\" on bearing {bearing_of(vec):.0f}.")
        else:
            ship.status = "removed"
            release(state, ship)
            lines.append(f"{by.name} cannot cut free: {ship.name} is removed from the table.")
    else:
        lines.append(f"{state.side(p.side).name} spares {ship.name}.")
    events = public_lines(lines)
    return [*events, _ask(state)] if state.pending else events


def ship_total(state: State, side_id: str) -> int:
    """Ships that count for withdrawal: controlled, on the table, neither Aground nor Out of Action."""
    return sum(1 for s in state.ships if s.controller == side_id and s.on_table and not s.aground and not s.out_of_action)


def flagship_lost_extra(state: State) -> int:
    """Objective cards "may cause players to earn extra Strike Points" (ch. 7 decks, house cards)."""
    if state.setup is None:
        return 0
    return scenario_cards().cards[state.setup.objective].flagship_lost_extra


def strike_points(state: State, side_id: str) -> int:
    """STRIKE POINTS (4.4): 1 a Crippled ship; 2 one sunk, captured or Out of Action; 3 the Flagship
    (and an objective card's extra)."""
    r = rules()
    total = 0
    for s in state.ships:
        if s.side != side_id:
            continue
        lost = s.status in ("sunk", "removed") or (s.status == "off" and r.off_table_counts_as_lost)
        lost = lost or bool(s.captured_by and s.captured_by != side_id) or (s.on_table and s.out_of_action)
        if lost:
            total += r.strike_flagship_lost + flagship_lost_extra(state) if s.flagship else r.strike_lost
        elif s.on_table and s.crippled:
            total += r.strike_crippled
    return total


def check_withdrawal(state: State) -> list[Event]:
    """CHECK FOR WITHDRAWAL (4.4 step 2): a squadron with more Strike Points than ships strikes;
    at the last turn fewer Strike Points win, a tie goes to the defender."""
    r = rules()
    totals = {s.id: ship_total(state, s.id) for s in state.sides}
    points = {s.id: strike_points(state, s.id) for s in state.sides}
    lines = []
    for s in state.sides:
        s.strike_points = points[s.id]
        lines.append(f"{s.name}: {points[s.id]} Strike Points against {totals[s.id]} ships.")
    events = public_lines(lines)
    losing = [s.id for s in state.sides if points[s.id] > totals[s.id]]
    a, b = (s.id for s in state.sides)
    fewer = a if points[a] < points[b] else b
    if len(losing) == 1:
        return events + conclude(state, state.other(losing[0]), f"{state.side(losing[0]).name} strikes and withdraws")
    if len(losing) == 2 and points[a] != points[b]:
        return events + conclude(state, fewer, "both squadrons strike; the one with fewer Strike Points wins")
    if state.turn >= r.turn_limit:
        if points[a] != points[b]:
            return events + conclude(state, fewer, f"turn {r.turn_limit} ends; fewer Strike Points")
        return events + conclude(state, state.defender, f"turn {r.turn_limit} ends level; the defender wins, but just barely")
    return events


def end_rolls(state: State, rng: Rng) -> list[Event]:
    """CHECK FOR SINKING SHIPS, LOST ADMIRALS, RETURN INITIATIVE CARDS (4.4 steps 3-5)."""
    r = rules()
    lines: list[str] = []
    for ship in state.ships:
        if ship.on_table and ship.out_of_action:
            faces = roll(rng, 1)
            sinks = count(faces, r.faces_of("sinking")) > 0
            lines.append(f"{ship.name} is Out of Action: sinking roll {show(faces)}" + (f": {ship.name} sinks." if sinks else "."))
            if sinks:
                ship.status = "sunk"
                release(state, ship)
    for holder in holders(state):
        lines += lost_admiral(state, holder)
    for side in holders(state):
        if side.face_up:
            card = initiative_cards()[side.face_up]
            if card.discard:
                side.discarded.append(side.face_up)
                lines.append(f"{side.name} discards {card.name}.")
            else:
                side.hand.append(side.face_up)
            side.face_up = ""
    state.events_active = []
    for ship in state.ships:
        ship.fatigue_shield = False
    return public_lines(lines)


def lost_admiral(state: State, side: SideState) -> list[str]:
    """LOST ADMIRALS (4.4 step 4): a Flagship Out of Action may pass the Admiral on for a Fortune
    Point (option ``lost_admiral``); else a new Flagship is named with admiral value 0. In a Fleet
    Battle each squadron keeps its own Admiral, within the squadron; the fleet's Fortune pays."""
    side_id = fleet_of(side)
    purse = state.side(side_id)
    own = ships_of(state, side)
    flag = next((s for s in own if s.flagship), None)
    if flag is not None and flag.on_table and not flag.out_of_action and not flag.captured_by:
        return []
    candidates = [s for s in own if s.controller == side_id and s.can_act and s.id != (flag.id if flag else "")]
    if not candidates:
        return []
    pistol = rules().distance("pistol_shot")
    if flag is not None and flag.on_table and purse.fortune > 0 and state.options.get("lost_admiral", "fortune") == "fortune":
        near = sorted(
            (s for s in candidates if not s.entangled and base_distance(flag.base, s.base) <= pistol + 1e-6),
            key=lambda s: (base_distance(flag.base, s.base), s.id),
        )
        if near:
            purse.fortune -= 1
            flag.flagship = False
            near[0].flagship = True
            moved = [f"{side.name} spends a Fortune Point: the Admiral transfers from {flag.name} to {near[0].name}."]
            return moved + flag_moved(state, flag, near[0])
    if flag is not None:
        flag.flagship = False
    new = max(candidates, key=lambda s: (s.broadside, s.id))
    new.flagship = True
    side.admiral_name, side.admiral_value = "none", 0
    lines = [f"{side.name}'s Admiral is lost: {new.name} is the new Flagship (admiral value 0).", *flag_moved(state, new)]
    if len(side.hand) > 5:
        dropped = side.hand[5:]
        side.hand = side.hand[:5]
        lines.append(f"{side.name}'s hand is cut to 5 cards ({len(dropped)} removed).")
    return lines


def conclude(state: State, winner: str, reason: str) -> list[Event]:
    """The game is over: the winner, the reason, and every ship's last state."""
    state.phase = "over"
    state.winner = winner
    state.result = reason
    state.active_side = ""
    state.details = [f"{s.name}: {s.strike_points} Strike Points" for s in state.sides] + [describe_ship(s) + f" ({s.status})" for s in state.ships]
    return [public(f"Game over after turn {state.turn}: {state.side(winner).name} wins ({reason}).", reveals=True)]
