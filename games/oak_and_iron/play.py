"""Applying Oak & Iron orders and running the turn cycle (Initiative, Movement, Attack, End).

Every check runs before anything changes, so an illegal order raises with the measured numbers
and leaves the state as it was (the table service also applies orders to a copy).
"""

from __future__ import annotations

import math

from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase, quote
from games.core.geometry import bearing_of, sub
from games.core.rng import Rng, seal
from games.core.ruleset import UMPIRE, Event, Order, private, public
from games.oak_and_iron import engine as E
from games.oak_and_iron.cards import event_cards, initiative_cards, rules
from games.oak_and_iron.measure import (
    BAND_NAMES,
    band_of,
    base_distance,
    in_broadside_path,
    line_of_sight,
    point_of_sail,
    raking,
)
from games.oak_and_iron.state import SAIL_NAMES, SAIL_SETTINGS, Activation, Mark, OakState, Pending, ShipState

# --- whose turn ----------------------------------------------------------------------------------


def to_act(state: OakState) -> list[str]:
    if state.phase == "over":
        return []
    if state.phase == "select":
        return [s.id for s in state.sides if not s.sealed and s.hand]
    if state.phase == "end":
        return [state.pending[0].side] if state.pending else []
    return [state.active_side] if state.active_side else []


def acting_side(state: OakState, seat: str) -> str:
    """The side a seat speaks for now; the umpire speaks for whoever must act."""
    if seat == UMPIRE:
        acting = to_act(state)
        if not acting:
            raise WrongPhase("Nobody needs to act now.")
        return acting[0]
    if seat not in ("a", "b"):
        raise NotYourTurn(f"The seat {quote(seat)} does not command a squadron.")
    return seat


def hand_text(state: OakState, side_id: str) -> str:
    side = state.side(side_id)
    cards = initiative_cards()
    lines = [f"{cards[k].name} ({cards[k].value}{', discarded after play' if cards[k].discard else ''}): {cards[k].text}" for k in side.hand]
    return f"{side.name}'s initiative hand: " + (" | ".join(lines) if lines else "empty")


# --- initiative ----------------------------------------------------------------------------------


def order_initiative(state: OakState, seat: str, card: str, rng: Rng) -> list[Event]:
    if state.phase != "select":
        raise WrongPhase(f"Initiative cards are chosen in the Initiative Phase; it is now the {state.phase} phase.")
    if seat == UMPIRE:
        raise NotYourTurn("The umpire does not choose initiative cards; each player seals their own.")
    side = state.side(acting_side(state, seat))
    if side.sealed:
        raise IllegalOrder(f"{side.name} has already sealed an initiative card this phase.")
    if card not in side.hand:
        names = ", ".join(initiative_cards()[k].name for k in side.hand) or "none"
        raise IllegalOrder(f"{initiative_cards()[card].name} is not in {side.name}'s hand.", hint=f"In hand: {names}.")
    events: list[Event] = []
    nonce = rng.nonce(card)
    side.sealed = card
    side.sealed_nonce = nonce
    side.sealed_digest = seal(card, nonce)
    side.hand.remove(card)
    events.append(public(f"{side.name} seals an initiative card face down (commitment {side.sealed_digest})."))
    events.append(private(f"You sealed {initiative_cards()[card].name}. Nonce {nonce}.", side.id))
    if not to_act(state):
        events += after_selection(state, rng)
    return events


def after_selection(state: OakState, rng: Rng) -> list[Event]:
    if state.turn == 0:
        return start_turn(state, 1, rng)
    return begin_movement(state, rng)


def start_turn(state: OakState, turn: int, rng: Rng) -> list[Event]:
    state.turn = turn
    cards = initiative_cards()
    a, b = state.sides
    lines = [f"Turn {turn}: Initiative Phase."]
    for side in state.sides:
        side.face_up = side.sealed
        if side.sealed:
            lines.append(
                f"{side.name} reveals {cards[side.sealed].name} (initiative {cards[side.sealed].value}); "
                f"check: sha256(nonce:card) with nonce {side.sealed_nonce} and card {side.sealed!r} = {side.sealed_digest}."
            )
        else:
            lines.append(f"{side.name} has no initiative card to reveal (initiative 0).")
        side.sealed = side.sealed_nonce = side.sealed_digest = ""
    va = cards[a.face_up].value if a.face_up else 0
    vb = cards[b.face_up].value if b.face_up else 0
    if va != vb:
        state.initiative = a.id if va > vb else b.id
        lines.append(f"{state.side(state.initiative).name} has the initiative ({max(va, vb)} against {min(va, vb)}).")
    else:
        lines.append(f"Both cards have initiative {va}: an event card is drawn.")
        lines += draw_event(state)
        if a.admiral_value != b.admiral_value:
            state.initiative = a.id if a.admiral_value > b.admiral_value else b.id
            lines.append(
                f"{state.side(state.initiative).name} has the initiative (admiral value {max(a.admiral_value, b.admiral_value)})."
            )
        else:
            lines += challenge_test(state, rng)
    for side in state.sides:
        lines += immediate_card_effect(state, side.id)
    for ship in state.ships:
        ship.fatigue_shield = bool(E.card_amount(state, ship.controller, "ignore_first_fatigue"))
    events = E.public_lines(lines)
    if turn < rules().turn_limit and any(s.hand for s in state.sides):
        state.phase = "select"
        events.append(public("Each player now seals an initiative card for the next turn: `initiative <card>`."))
        events += [private(hand_text(state, s.id), s.id) for s in state.sides]
        if not to_act(state):
            events += begin_movement(state, rng)
    else:
        events += begin_movement(state, rng)
    return events


def draw_event(state: OakState) -> list[str]:
    if not state.event_deck:
        return ["The event deck is empty: no event."]
    key = state.event_deck.pop(0)
    card = event_cards()[key]
    state.events_active.append(key)
    lines = [f"Event: {card.name}: {card.text}"]
    notes: list[str] = []
    if card.effect == "rally_all":
        for ship in state.ships:
            if ship.can_act and ship.fatigue:
                ship.fatigue = max(0, ship.fatigue - card.amount)
                notes.append(f"{ship.name} Fatigue -> {ship.fatigue}")
    elif card.effect == "fatigue_all":
        for ship in state.ships:
            if ship.can_act:
                E.add_fatigue(ship, card.amount, notes)
    return lines + notes


def challenge_test(state: OakState, rng: Rng) -> list[str]:
    """Both Flagships make a Skill Test; most successes wins, then higher skill, else roll again."""
    lines = ["Admiral values tie: Challenge Test between the Flagships."]
    for _ in range(100):
        results = {}
        for side in state.sides:
            flag = flagship(state, side.id)
            if flag is None:
                results[side.id] = (0, 0)
                lines.append(f"{side.name} has no Flagship: 0 successes.")
                continue
            res = E.skill_test(state, flag, rng)
            results[side.id] = (res.successes, flag.skill)
            lines.append(f"{side.name} ({flag.name}): {res.text} ({res.successes} successes).")
        a, b = (s.id for s in state.sides)
        if results[a] != results[b]:
            state.initiative = a if results[a] > results[b] else b
            lines.append(f"{state.side(state.initiative).name} wins the Challenge Test and has the initiative.")
            return lines
        lines.append("Still tied: roll again.")
    state.initiative = state.sides[0].id
    return lines


def immediate_card_effect(state: OakState, side_id: str) -> list[str]:
    side = state.side(side_id)
    if not side.face_up:
        return []
    card = initiative_cards()[side.face_up]
    lines: list[str] = []
    if card.effect == "rally_all":
        for ship in state.ships:
            if ship.controller == side_id and ship.can_act and ship.fatigue:
                ship.fatigue = max(0, ship.fatigue - (card.amount or 1))
                lines.append(f"{card.name}: {ship.name} Fatigue -> {ship.fatigue}")
    elif card.effect == "reload_all":
        for ship in state.ships:
            if ship.controller == side_id and ship.can_act and (ship.reload_port or ship.reload_starboard):
                ship.reload_port = ship.reload_starboard = False
                lines.append(f"{card.name}: {ship.name} removes its reload markers")
    elif card.effect != "none":
        lines.append(f"{side.name}'s {card.name} is in force this turn: {card.text}")
    return lines


def flagship(state: OakState, side_id: str) -> ShipState | None:
    return next((s for s in state.ships if s.side == side_id and s.flagship and s.on_table and not s.captured_by), None)


# --- movement ------------------------------------------------------------------------------------


def movers(state: OakState, side_id: str) -> list[ShipState]:
    return [s for s in state.ships if s.controller == side_id and s.can_act and not s.moved]


def attackers(state: OakState, side_id: str) -> list[ShipState]:
    return [s for s in state.ships if s.controller == side_id and s.can_act and not s.attacked]


def begin_movement(state: OakState, rng: Rng) -> list[Event]:
    state.phase = "movement"
    for s in state.ships:
        s.moved = False
    state.activation = Activation()
    state.active_side = state.initiative
    events = [public(f"Turn {state.turn}: Movement Phase; {state.side(state.initiative).name} activates first.")]
    return events + next_activation(state, rng, first=True)


def next_activation(state: OakState, rng: Rng, first: bool = False) -> list[Event]:
    pick = movers if state.phase == "movement" else attackers
    current = state.active_side
    other = state.other(current)
    order = [current, other] if first else [other, current]
    for side_id in order:
        if pick(state, side_id):
            state.active_side = side_id
            names = ", ".join(s.name for s in pick(state, side_id))
            verb = "activate a ship" if state.phase == "movement" else "attack with a ship"
            return [public(f"{state.side(side_id).name} to {verb} ({names}).")]
    if state.phase == "movement":
        return begin_attack(state, rng)
    return end_phase(state, rng)


def begin_attack(state: OakState, rng: Rng) -> list[Event]:
    state.phase = "attack"
    for s in state.ships:
        s.attacked = False
    state.activation = Activation()
    state.active_side = state.initiative
    return [public(f"Turn {state.turn}: Attack Phase; {state.side(state.initiative).name} attacks first."), *next_activation(state, rng, first=True)]


def own_ship(state: OakState, seat: str, ship_id: str) -> ShipState:
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


def activate(state: OakState, seat: str, ship_id: str) -> tuple[ShipState, list[Event]]:
    if state.phase != "movement":
        raise WrongPhase(f"That is a Movement Phase order; it is now the {state.phase} phase.")
    ship = own_ship(state, seat, ship_id)
    act = state.activation
    if act.ship and act.ship != ship.id:
        cur = state.ship(act.ship)
        raise IllegalOrder(f"{cur.name} is still activating: finish it first (a Crew Action or `{cur.name} done`).")
    if not act.ship:
        if ship.moved:
            raise IllegalOrder(f"{ship.name} has already activated this turn (its wake is on the table).")
        speed, pos, text = E.speed_rating(state, ship)
        state.activation = Activation(ship.id, "start", speed, pos, text)
        state.focus = ship.id
        return ship, [public(f"{ship.name} activates. {text}.")]
    state.focus = ship.id
    return ship, []


def cannot_move_reason(state: OakState, ship: ShipState) -> str:
    if ship.entangled:
        return f"{ship.name} is Entangled (with {', '.join(state.ship(e).name for e in ship.entangled)}) and will not move"
    if ship.aground:
        return f"{ship.name} is Aground and may not move until the token is removed"
    if ship.sail == "anchored":
        return f"{ship.name} is Anchored and cannot move"
    return ""


def must_still_move(state: OakState, ship: ShipState) -> bool:
    act = state.activation
    return act.step != "moved" and not cannot_move_reason(state, ship) and act.point_of_sail != "wind's eye" and act.speed > 0


def finish_activation(state: OakState, ship: ShipState, lines: list[str], rng: Rng) -> list[Event]:
    ship.moved = True
    state.activation = Activation()
    lines.append(f"{ship.name}'s activation ends: {E.describe_ship(ship)}." if ship.on_table else f"{ship.name}'s activation ends.")
    return E.public_lines(lines) + next_activation(state, rng)


def order_seamanship(state: OakState, seat: str, order: Order, rng: Rng) -> list[Event]:
    _, sid, action, param, fortune = order.args[:5]
    ship, events = activate(state, seat, sid)
    act = state.activation
    r = rules()
    if act.step != "start":
        raise IllegalOrder(f"{ship.name} has already {'moved' if act.step == 'moved' else 'tried a Seamanship Action'}; a Seamanship Action comes before the move.")
    if ship.shaken:
        raise IllegalOrder(f"{ship.name} is Shaken (Fatigue {ship.fatigue}) and may not take Seamanship Actions.")
    auto = bool(E.card_amount(state, ship.controller, "seamanship_auto"))
    if action in ("adjust", "heading"):
        reason = cannot_move_reason(state, ship)
        if act.point_of_sail == "wind's eye":
            reason = f"{ship.name} is In the Wind's Eye"
        if reason:
            raise IllegalOrder(f"{reason}: no {'Adjust Speed' if action == 'adjust' else 'Change Heading'}.")
    if action == "heading":
        deg = float(order.args[5])
        if deg > r.turn_angle + 1e-9:
            raise IllegalOrder(f"A turn of {deg:g} degrees is beyond the speed 1 tool's turning edge ({r.turn_angle:g} degrees).")
    away = None
    if action == "cutfree":
        if not ship.entangled:
            raise IllegalOrder(f"{ship.name} is not Entangled; there is nothing to cut free from.")
        centres = [state.ship(e).base.centre for e in ship.entangled]
        mean = (sum(c[0] for c in centres) / len(centres), sum(c[1] for c in centres) / len(centres))
        yard = r.distance("yard_arm")
        vec, frac = _cut_free_direction(state, ship, mean, yard)
        if frac < 1 - 1e-9:
            raise IllegalOrder(
                f"{ship.name} can move only {yard * frac:.2f}\" directly away, less than Yard Arm ({yard:g}\"): it cannot Cut Free."
            )
        away = vec
    test = E.skill_test(state, ship, rng, fortune=bool(fortune), auto=auto)
    act.step = "seamanship"
    lines = [f"{ship.name} attempts {action}: {test.text}."]
    if test.passed:
        if action == "adjust":
            delta = 1 if param == "+1" else -1
            cap = min(r.max_speed, r.crippled_max_speed) if ship.crippled else r.max_speed
            act.speed = max(0, min(cap, act.speed + delta))
            lines.append(f"{ship.name}'s speed for this move is {act.speed}.")
        elif action == "heading":
            lines += E.execute_move(
                state, ship, rng, forward=0.0, turn_when="start", direction=param, degrees=float(order.args[5]), speed_for_collision=act.speed
            )
        elif away is not None:
            for other_id in list(ship.entangled):
                other = state.ship(other_id)
                other.entangled.remove(ship.id)
            ship.entangled = []
            start = ship.base.centre
            ship.place(ship.base.translated(away))
            act.speed = min(act.speed, 1)
            state.marks = [m for m in state.marks if m.kind != "path"] + [Mark("path", [start, ship.base.centre], ship.controller, ship.name)]
            lines.append(f"{ship.name} cuts free, moving {r.distance('yard_arm'):g}\" on bearing {bearing_of(away):.0f}; speed at most 1 this turn.")
            E.check_off_table(state, ship, lines)
    return events + E.public_lines(lines) + (finish_activation(state, ship, [], rng) if not ship.on_table else [])


def _cut_free_direction(state: OakState, ship: ShipState, away_from: tuple[float, float], inches: float) -> tuple[tuple[float, float], float]:
    """Directly away from the ships it was Entangled with, ignoring them as obstacles."""
    saved = {e: state.ship(e).status for e in ship.entangled}
    for e in saved:
        state.ship(e).status = "cutting"
    try:
        return E.directly_away(state, ship, away_from, inches)
    finally:
        for e, status in saved.items():
            state.ship(e).status = status


def order_move(state: OakState, seat: str, order: Order, rng: Rng) -> list[Event]:
    _, sid, when, direction, deg_text = order.args
    ship, events = activate(state, seat, sid)
    act = state.activation
    r = rules()
    if act.step == "moved":
        raise IllegalOrder(f"{ship.name} has already moved this activation.")
    reason = cannot_move_reason(state, ship)
    if reason:
        raise IllegalOrder(f"{reason}: take a Crew Action or `{ship.name} done`.")
    deg = float(deg_text)
    if act.point_of_sail == "wind's eye":
        if not when:
            pos = point_of_sail(ship.base, state.weather_edge, state.table_width, state.table_height)
            raise IllegalOrder(
                f"{ship.name} is {pos.describe()}: it cannot move forward.",
                hint=f"It may turn with the speed 1 tool: `{ship.name} move turn-start port 45`, or take a Crew Action.",
            )
        if deg > r.turn_angle + 1e-9:
            raise IllegalOrder(f"A turn of {deg:g} degrees is beyond the speed 1 tool's turning edge ({r.turn_angle:g} degrees).")
        forward = 0.0
    else:
        if act.speed <= 0:
            raise IllegalOrder(f"{ship.name}'s speed rating is 0 ({act.pos_text}): take a Crew Action or `{ship.name} done`.")
        if when and deg > r.turn_angle + 1e-9:
            raise IllegalOrder(
                f"A turn of {deg:g} degrees is beyond the speed {act.speed} tool's turning edge ({r.turn_angle:g} degrees)."
            )
        forward = act.speed * r.inches_per_speed
    lines = E.execute_move(
        state, ship, rng, forward=forward, turn_when=when, direction=direction, degrees=deg, speed_for_collision=max(act.speed, 1)
    )
    act.step = "moved"
    if ship.on_table:
        pos = point_of_sail(ship.base, state.weather_edge, state.table_width, state.table_height)
        lines.append(f"{ship.name} now lies {pos.describe()}.")
        events += E.public_lines(lines)
        return events
    return events + finish_activation(state, ship, lines, rng)


def order_done(state: OakState, seat: str, ship_id: str, rng: Rng) -> list[Event]:
    ship, events = activate(state, seat, ship_id)
    if must_still_move(state, ship):
        raise IllegalOrder(
            f"{ship.name} must move first (speed {state.activation.speed}): every ship moves the full distance forward.",
            hint=f"Write `{ship.name} move` or `{ship.name} move turn-end port 45`.",
        )
    return events + finish_activation(state, ship, [], rng)


def order_crew(state: OakState, seat: str, order: Order, rng: Rng) -> list[Event]:
    _, sid, action, p1, p2, fortune = order.args
    ship, events = activate(state, seat, sid)
    r = rules()
    if must_still_move(state, ship):
        raise IllegalOrder(f"{ship.name} must move before its Crew Action (speed {state.activation.speed}).", hint=f"Write `{ship.name} move` first.")
    if ship.entangled:
        raise IllegalOrder(f"{ship.name} is Entangled and may not take Crew Actions.")
    if ship.shaken and action != "rally":
        raise IllegalOrder(f"{ship.name} is Shaken (Fatigue {ship.fatigue}): Rally is its only Crew Action.")
    lines: list[str] = []
    if action == "reload":
        if ship.sail == "full":
            raise IllegalOrder(f"{ship.name} is at Full Sail and may not Reload.")
        marked = ship.reload_port if p1 == "port" else ship.reload_starboard
        if not marked:
            raise IllegalOrder(f"{ship.name}'s {p1} side has no reload marker.")
        if p1 == "port":
            ship.reload_port = False
        else:
            ship.reload_starboard = False
        lines.append(f"{ship.name} reloads its {p1} side.")
    elif action == "rally":
        if not ship.fatigue:
            raise IllegalOrder(f"{ship.name} has no Fatigue to rally.")
        ship.fatigue -= 1
        lines.append(f"{ship.name} rallies: Fatigue {ship.fatigue + 1} -> {ship.fatigue}.")
    elif action == "repair":
        what = p1 or ("aground" if ship.aground else "hull")
        if what == "aground":
            if not ship.aground:
                raise IllegalOrder(f"{ship.name} is not Aground.")
            test = E.skill_test(state, ship, rng, fortune=bool(fortune))
            lines.append(f"{ship.name} works to get off: {test.text}.")
            if test.passed:
                ship.aground = False
                lines.append(f"{ship.name}'s Aground token is removed.")
        else:
            if ship.crippled:
                raise IllegalOrder(f"{ship.name} is Crippled: its damage cannot be repaired.")
            if not ship.damage:
                raise IllegalOrder(f"{ship.name} has no damage to repair.")
            ship.damage -= 1
            lines.append(f"{ship.name} repairs: Damage {ship.damage + 1} -> {ship.damage}.")
    elif action == "sail":
        idx = SAIL_SETTINGS.index(ship.sail) + (1 if p1 == "up" else -1)
        if not 0 <= idx < len(SAIL_SETTINGS):
            raise IllegalOrder(f"{ship.name} is already at {SAIL_NAMES[ship.sail]}.")
        before = ship.sail
        ship.sail = SAIL_SETTINGS[idx]
        lines.append(f"{ship.name} changes sail: {SAIL_NAMES[before]} -> {SAIL_NAMES[ship.sail]}.")
    elif action == "board":
        lines += crew_board(state, ship, state.ship(p1), rng, bool(fortune))
    elif action == "row":
        if "sweeps" not in ship.special:
            raise IllegalOrder(f"{ship.name} has no Sweeps and cannot Row.")
        if ship.aground:
            raise IllegalOrder(f"{ship.name} is Aground and cannot Row.")
        lines += E.execute_move(state, ship, rng, forward=r.inches_per_speed, speed_for_collision=1)
        lines[0] = lines[0].replace("moves:", "rows:", 1)
    elif action == "flag":
        target = state.ship(p1)
        if not ship.flagship:
            raise IllegalOrder(f"{ship.name} is not the Flagship.")
        if target.controller != ship.controller or target.id == ship.id or not target.can_act:
            raise IllegalOrder(f"{target.name} cannot take the flag.")
        if target.entangled:
            raise IllegalOrder(f"{target.name} is Entangled and cannot take the flag.")
        d = base_distance(ship.base, target.base)
        if d > r.distance("pistol_shot") + 1e-6:
            raise IllegalOrder(f"{target.name} is {E.band_text(d)} away; Transfer Flag needs Pistol Shot ({r.distance('pistol_shot'):g}\").")
        ship.flagship = False
        target.flagship = True
        lines.append(f"The Admiral moves from {ship.name} to {target.name} ({d:.2f}\").")
    elif action == "landing":
        if ship.sail != "anchored":
            raise IllegalOrder(f"{ship.name} must be Anchored to send a Landing Party (it is at {SAIL_NAMES[ship.sail]}).")
        coords = (float(p1), float(p2)) if p1 else None
        point, where = E.landing_point(state, ship, coords)
        ship.landing = (point[0], point[1])
        lines.append(f"{ship.name} sends a Landing Party ashore on {where} at ({point[0]:.2f}, {point[1]:.2f}).")
    return events + finish_activation(state, ship, lines, rng)


def crew_board(state: OakState, ship: ShipState, target: ShipState, rng: Rng, fortune: bool) -> list[str]:
    r = rules()
    if target.controller == ship.controller or not target.on_table:
        raise IllegalOrder(f"{target.name} is not an opposing ship on the table.")
    d = base_distance(ship.base, target.base)
    yard = r.distance("yard_arm")
    if d > yard + 1e-6:
        raise IllegalOrder(f"{target.name} is {E.band_text(d)} from {ship.name}; boarding needs Yard Arm ({yard:g}\") or less.")
    pose, what = E.boarding_pose(state, ship, target)
    if pose is None:
        raise IllegalOrder(f"{ship.name} cannot lay flush against {target.name}: {what}.", hint="Try a different Crew Action.")
    test = E.skill_test(state, ship, rng, fortune=fortune)
    lines = [f"{ship.name} attempts to board {target.name} ({d:.2f}\"): {test.text}."]
    if test.passed:
        start = ship.base.centre
        ship.place(pose)
        ship.landing = None
        state.marks = [m for m in state.marks if m.kind != "path"] + [Mark("path", [start, pose.centre], ship.controller, ship.name)]
        lines.append(f"{what}.")
        E.entangle(state, ship, target, lines)
    return lines


# --- attacks -------------------------------------------------------------------------------------


def attacking_ship(state: OakState, seat: str, ship_id: str) -> ShipState:
    if state.phase != "attack":
        raise WrongPhase(f"That is an Attack Phase order; it is now the {state.phase} phase.")
    ship = own_ship(state, seat, ship_id)
    if ship.attacked:
        raise IllegalOrder(f"{ship.name} has already attacked this turn.")
    state.focus = ship.id
    return ship


def finish_attack(state: OakState, ship: ShipState, lines: list[str], rng: Rng) -> list[Event]:
    ship.attacked = True
    return E.public_lines(lines) + next_activation(state, rng)


def order_broadside(state: OakState, seat: str, order: Order, rng: Rng) -> list[Event]:
    sid, fortune, helm = order.args[1], order.args[2], order.args[3]
    ship = attacking_ship(state, seat, sid)
    shots = [order.args[i : i + 3] for i in range(4, len(order.args), 3)]
    checks = []
    for side, tid, aim in shots:
        target = state.ship(tid)
        check = E.check_fire(state, ship, side, target, partial=False)
        if not check.ok:
            raise IllegalOrder(f"{ship.name} cannot fire its {side} broadside at {target.name}: {check.text}.")
        if aim == "crew" and band_of(check.distance, E.distances()) not in ("yard_arm", "pistol_shot"):
            raise IllegalOrder(f"Targeting crew needs Pistol Shot or less; {target.name} is at {E.band_text(check.distance)}.")
        checks.append((side, target, aim, check))
    lines: list[str] = []
    for side, target, aim, check in checks:
        dice, how = E.attack_dice(state, ship, partial=False)
        lines.append(f"{ship.name} fires its {side} broadside: {dice} dice ({how}).")
        lines += E.resolve_attack(state, rng, ship, target, dice, check, aim=aim, fortune=bool(fortune), helm=helm, label=f"{side.title()} broadside")
        if side == "port":
            ship.reload_port = True
        else:
            ship.reload_starboard = True
        state.marks = [m for m in state.marks if m.kind != "fire"] + [Mark("fire", [ship.base.edge_midpoint(side), target.base.centre], ship.controller, f"{check.distance:.2f}\"")]
    return finish_attack(state, ship, lines, rng)


def order_partial(state: OakState, seat: str, order: Order, rng: Rng) -> list[Event]:
    _, sid, tid, aim, fortune, helm = order.args
    ship = attacking_ship(state, seat, sid)
    target = state.ship(tid)
    check = E.check_fire(state, ship, "", target, partial=True)
    if not check.ok:
        raise IllegalOrder(f"{ship.name} cannot make Partial Fire at {target.name}: {check.text}.")
    if aim == "crew" and band_of(check.distance, E.distances()) not in ("yard_arm", "pistol_shot"):
        raise IllegalOrder(f"Targeting crew needs Pistol Shot or less; {target.name} is at {E.band_text(check.distance)}.")
    dice, how = E.attack_dice(state, ship, partial=True)
    lines = [f"{ship.name} makes Partial Fire: {dice} dice ({how})."]
    lines += E.resolve_attack(state, rng, ship, target, dice, check, aim=aim, fortune=bool(fortune), helm=helm, label="Partial Fire")
    state.marks = [m for m in state.marks if m.kind != "fire"] + [Mark("fire", [ship.base.centre, target.base.centre], ship.controller, f"{check.distance:.2f}\"")]
    return finish_attack(state, ship, lines, rng)


def order_close(state: OakState, seat: str, order: Order, rng: Rng) -> list[Event]:
    _, sid, tid = order.args
    ship = attacking_ship(state, seat, sid)
    target = state.ship(tid)
    if tid not in ship.entangled or target.controller == ship.controller:
        raise IllegalOrder(f"{ship.name} is not Entangled with the opposing ship {target.name}; Close Combat needs Entangled ships.")
    lines = E.close_combat(state, rng, ship, target)
    return finish_attack(state, ship, lines, rng)


def order_landing_attack(state: OakState, seat: str, order: Order, rng: Rng) -> list[Event]:
    _, sid, tid = order.args
    ship = attacking_ship(state, seat, sid)
    target = state.ship(tid)
    r = rules()
    if ship.landing is None or target.landing is None or target.controller == ship.controller:
        raise IllegalOrder(f"Landing Party combat needs a Landing Party ashore from {ship.name} and one from the opposing {target.name}.")
    d = math.dist(ship.landing, target.landing)
    if d > r.distance("musket_shot") + 1e-6:
        raise IllegalOrder(f"The Landing Parties are {E.band_text(d)} apart; they fight within Musket Shot ({r.distance('musket_shot'):g}\").")
    dice = max(1, r.close_combat_base_dice + ship.crew - ship.fatigue)
    faces = E.roll(rng, dice)
    n = E.count(faces, r.faces_of("close_combat_side_contact"))
    lines = [f"{ship.name}'s Landing Party attacks {target.name}'s ({d:.2f}\"): {dice} dice: {E.show(faces)}; {n} Fatigue."]
    E.add_fatigue(target, n, lines, from_attack=True)
    return finish_attack(state, ship, lines, rng)


def order_hold(state: OakState, seat: str, ship_id: str, rng: Rng) -> list[Event]:
    ship = attacking_ship(state, seat, ship_id)
    return finish_attack(state, ship, [f"{ship.name} holds its fire."], rng)


# --- End Phase -----------------------------------------------------------------------------------


def end_phase(state: OakState, rng: Rng) -> list[Event]:
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
        p = state.pending[0]
        events.append(public(f"{state.side(p.side).name} may `capture`, `destroy` or `spare` the Shaken {state.ship(p.ship).name}."))
        return events
    return events + finish_end(state, rng)


def order_capture(state: OakState, seat: str, order: Order, rng: Rng) -> list[Event]:
    verb, sid = order.args
    if state.phase != "end" or not state.pending:
        raise WrongPhase("Capturing and destroying Shaken ships happens in the End Phase, when one is Entangled with your ship.")
    side_id = acting_side(state, seat)
    p = state.pending[0]
    if side_id != p.side:
        raise NotYourTurn(f"It is {state.side(p.side).name}'s choice.")
    if sid != p.ship:
        raise IllegalOrder(f"The choice now is about {state.ship(p.ship).name}, not {state.ship(sid).name}.")
    ship, by = state.ship(p.ship), state.ship(p.by)
    state.pending.pop(0)
    lines: list[str] = []
    if verb == "capture":
        ship.captured_by = p.side
        lines.append(f"{by.name} captures {ship.name}.")
    elif verb == "destroy":
        E.knock_out(ship, lines)
        lines.append(f"{by.name} destroys {ship.name}.")
        others = [e for e in by.entangled if e != ship.id]
        vec, frac = _cut_free_direction(state, by, ship.base.centre, rules().distance("yard_arm"))
        if frac >= 1 - 1e-9 and not others:
            by.entangled.remove(ship.id)
            ship.entangled.remove(by.id)
            by.place(by.base.translated(vec))
            lines.append(f"{by.name} cuts free (free action), {rules().distance('yard_arm'):g}\" on bearing {bearing_of(vec):.0f}.")
        else:
            ship.status = "removed"
            E.release(state, ship)
            lines.append(f"{by.name} cannot cut free: {ship.name} is removed from the table.")
    else:
        lines.append(f"{state.side(p.side).name} spares {ship.name}.")
    events = E.public_lines(lines)
    if state.pending:
        q = state.pending[0]
        return [*events, public(f"{state.side(q.side).name} may `capture`, `destroy` or `spare` the Shaken {state.ship(q.ship).name}.")]
    return events + finish_end(state, rng)


def finish_end(state: OakState, rng: Rng) -> list[Event]:
    rng_free_lines: list[str] = []
    r = rules()
    totals = {s.id: E.ship_total(state, s.id) for s in state.sides}
    points = {s.id: E.strike_points(state, s.id) for s in state.sides}
    for s in state.sides:
        s.strike_points = points[s.id]
        rng_free_lines.append(f"{s.name}: {points[s.id]} Strike Points against {totals[s.id]} ships.")
    losing = [s.id for s in state.sides if points[s.id] > totals[s.id]]
    a, b = (s.id for s in state.sides)
    if len(losing) == 1:
        winner = state.other(losing[0])
        return E.public_lines(rng_free_lines) + conclude(state, winner, f"{state.side(losing[0]).name} strikes and withdraws")
    if len(losing) == 2 and points[a] != points[b]:
        winner = a if points[a] < points[b] else b
        return E.public_lines(rng_free_lines) + conclude(state, winner, "both squadrons strike; the one with fewer Strike Points wins")
    if state.turn >= r.turn_limit:
        if points[a] != points[b]:
            winner = a if points[a] < points[b] else b
            return E.public_lines(rng_free_lines) + conclude(state, winner, f"turn {r.turn_limit} ends; fewer Strike Points")
        return E.public_lines(rng_free_lines) + conclude(state, state.defender, f"turn {r.turn_limit} ends level; the defender wins, but just barely")
    return E.public_lines(rng_free_lines) + end_rolls(state, rng)


def end_rolls(state: OakState, rng: Rng) -> list[Event]:
    """Sinking, lost admirals, returning cards, then the next turn (all dice from ``rng``)."""
    r = rules()
    lines: list[str] = []
    for ship in state.ships:
        if ship.on_table and ship.out_of_action:
            faces = E.roll(rng, 1)
            sinks = E.count(faces, r.faces_of("sinking")) > 0
            lines.append(f"{ship.name} is Out of Action: sinking roll {E.show(faces)}" + (f": {ship.name} sinks." if sinks else "."))
            if sinks:
                ship.status = "sunk"
                E.release(state, ship)
    for side in state.sides:
        lines += lost_admiral(state, side.id)
    for side in state.sides:
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
    return E.public_lines(lines) + start_turn(state, state.turn + 1, rng)


def lost_admiral(state: OakState, side_id: str) -> list[str]:
    side = state.side(side_id)
    flag = next((s for s in state.ships if s.side == side_id and s.flagship), None)
    if flag is not None and flag.on_table and not flag.out_of_action and not flag.captured_by:
        return []
    candidates = [s for s in state.ships if s.controller == side_id and s.side == side_id and s.can_act and s.id != (flag.id if flag else "")]
    if not candidates:
        return []
    pistol = rules().distance("pistol_shot")
    if flag is not None and flag.on_table and side.fortune > 0 and state.options.get("lost_admiral", "fortune") == "fortune":
        near = sorted(
            (s for s in candidates if not s.entangled and base_distance(flag.base, s.base) <= pistol + 1e-6),
            key=lambda s: (base_distance(flag.base, s.base), s.id),
        )
        if near:
            side.fortune -= 1
            flag.flagship = False
            near[0].flagship = True
            return [f"{side.name} spends a Fortune Point: the Admiral transfers from {flag.name} to {near[0].name}."]
    if flag is not None:
        flag.flagship = False
    new = max(candidates, key=lambda s: (s.broadside, s.id))
    new.flagship = True
    side.admiral_name, side.admiral_value = "none", 0
    lines = [f"{side.name}'s Admiral is lost: {new.name} is the new Flagship (admiral value 0)."]
    if len(side.hand) > 5:
        dropped = side.hand[5:]
        side.hand = side.hand[:5]
        lines.append(f"{side.name}'s hand is cut to 5 cards ({len(dropped)} removed).")
    return lines


def conclude(state: OakState, winner: str, reason: str) -> list[Event]:
    state.phase = "over"
    state.winner = winner
    state.result = reason
    state.active_side = ""
    state.details = [f"{s.name}: {s.strike_points} Strike Points" for s in state.sides] + [E.describe_ship(s) + f" ({s.status})" for s in state.ships]
    return [public(f"Game over after turn {state.turn}: {state.side(winner).name} wins ({reason}).", reveals=True)]


# --- measuring -----------------------------------------------------------------------------------


def order_measure(state: OakState, order: Order) -> list[Event]:
    _, sid, tid = order.args
    ship, target = state.ship(sid), state.ship(tid)
    if not (ship.on_table and target.on_table) or sid == tid:
        raise IllegalOrder(f"Measure between two different ships on the table, not {ship.name} and {target.name}.")
    state.focus = sid
    d = base_distance(ship.base, target.base)
    pos = point_of_sail(ship.base, state.weather_edge, state.table_width, state.table_height)
    bits = [f"{ship.name} to {target.name}: {E.band_text(d)}", f"{ship.name} is {pos.describe()}"]
    bearing = bearing_of(sub(target.base.centre, ship.base.centre))
    bits.append(f"bearing {bearing:.0f} (relative {((bearing - ship.heading) % 360):.0f})")
    blockers = E.sight_blockers(state, ship.id, target.id)
    for side in ("port", "starboard"):
        inside = in_broadside_path(ship.base, side, target.base)
        sight = line_of_sight(ship.base, target.base, blockers, (side,)) is not None
        rake = raking(ship.base, side, target.base) if inside else ""
        bits.append(
            f"{side}: {'in' if inside else 'not in'} broadside path, {'sight' if sight else 'no sight'}"
            + (f", raking through the {rake}" if rake else "")
            + (", reload marker" if (ship.reload_port if side == "port" else ship.reload_starboard) else "")
        )
    bits.append(f"band {BAND_NAMES[band_of(d, E.distances())]}")
    return [public("; ".join(bits) + ".")]
