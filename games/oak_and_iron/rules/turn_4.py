"""Book section 4 (Playing the Game): the turn, the Initiative, Movement, Attack and End Phases in
order, each side activating one ship at a time, the side with the initiative first.

The rule modules carry out one order each; this one then moves the game on: to the next ship to
activate, the next phase, or the next turn.
"""

from __future__ import annotations

from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.oak_and_iron.rules import end_phase_4_4, initiative_4_1
from games.oak_and_iron.rules.activation_4 import attackers, movers, to_act
from games.oak_and_iron.rules.fleet_battles_9 import squadron_continues
from games.oak_and_iron.state import Activation, State


def sealed(state: State, rng: Rng) -> list[Event]:
    """After a card is sealed: once both are (4.1 step 2), the first turn starts, or the Movement
    Phase of this one."""
    if to_act(state):
        return []
    if state.turn == 0:
        return start_turn(state, 1, rng)
    return initiative_4_1.resolve_effects(state) + begin_movement(state, rng)


def start_turn(state: State, turn: int, rng: Rng) -> list[Event]:
    """A new turn: the Initiative Phase (4.1), then, once next turn's cards are sealed (or none
    can be) and the card effects resolved (step 3), the Movement Phase."""
    events, selecting = initiative_4_1.reveal(state, turn, rng)
    if not selecting or not to_act(state):
        events += initiative_4_1.resolve_effects(state) + begin_movement(state, rng)
    return events


def begin_movement(state: State, rng: Rng) -> list[Event]:
    """THE MOVEMENT PHASE (4.2): Wake markers cleared, the initiative side activates first."""
    for s in state.ships:
        s.moved = False
    state.moving_squadron = ""
    return _begin(state, rng, "movement", "Movement Phase", "activates first")


def begin_attack(state: State, rng: Rng) -> list[Event]:
    """THE ATTACK PHASE (4.3): the initiative side attacks first."""
    for s in state.ships:
        s.attacked = False
    return _begin(state, rng, "attack", "Attack Phase", "attacks first")


def _begin(state: State, rng: Rng, phase: str, title: str, first: str) -> list[Event]:
    state.phase = phase
    state.activation = Activation()
    state.active_side = state.initiative
    events = [public(f"Turn {state.turn}: {title}; {state.side(state.initiative).name} {first}.")]
    return events + next_activation(state, rng, first=True)


def next_activation(state: State, rng: Rng, first: bool = False) -> list[Event]:
    """Players alternate; a side with no ship left to activate passes; when neither has one the
    phase ends."""
    pick = movers if state.phase == "movement" else attackers
    current = state.active_side
    other = state.other(current)
    order = [current, other] if first else [other, current]
    if state.phase == "movement" and not first and squadron_continues(state, current, movers(state, current)):
        order = [current]  # a fleet activates all of one squadron before the other fleet goes (ch. 9)
    for side_id in order:
        if pick(state, side_id):
            state.active_side = side_id
            names = ", ".join(s.name for s in pick(state, side_id))
            verb = "activate a ship" if state.phase == "movement" else "attack with a ship"
            return [public(f"{state.side(side_id).name} to {verb} ({names}).")]
    if state.phase == "movement":
        return begin_attack(state, rng)
    return end_phase(state, rng)


def after_movement_order(state: State, rng: Rng) -> list[Event]:
    """Once a ship's activation has ended, the next one (or the Attack Phase)."""
    return [] if state.activation.ship else next_activation(state, rng)


def end_phase(state: State, rng: Rng) -> list[Event]:
    """THE END PHASE (4.4): the captures to choose, else straight on to withdrawal."""
    events = end_phase_4_4.begin(state)
    return events if state.pending else events + finish_end(state, rng)


def after_end_choice(state: State, rng: Rng) -> list[Event]:
    """Once every capture choice is made, the rest of the End Phase."""
    return [] if state.pending else finish_end(state, rng)


def finish_end(state: State, rng: Rng) -> list[Event]:
    """End Phase steps 2-5, then the next turn unless the game is over."""
    events = end_phase_4_4.check_withdrawal(state)
    if state.phase == "over":
        return events
    return events + end_phase_4_4.end_rolls(state, rng) + start_turn(state, state.turn + 1, rng)
