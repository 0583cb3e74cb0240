"""Book section 17.1 (initiative phase): both sides roll 1d6, draws re-rolled; the higher acts first."""

from __future__ import annotations

from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.days_of_iron.state import TURN, State


def roll_off(state: State, rng: Rng) -> list[dict[str, int]]:
    """Both sides roll 1d6; draws are re-rolled (17.1). Every round is kept for the log."""
    rounds: list[dict[str, int]] = []
    while True:
        roll = {s.id: rng.die(6) for s in state.sides}
        rounds.append(roll)
        if len(set(roll.values())) == len(roll):
            return rounds


def describe_rolls(state: State, rounds: list[dict[str, int]]) -> str:
    """The rounds of a roll-off (17.1, 16.1) as the log prints them."""
    parts = [", ".join(f"{state.side_name(side)} {v}" for side, v in r.items()) for r in rounds]
    return " / draw, re-roll: ".join(parts)


def initiative(state: State, rng: Rng) -> list[Event]:
    """Roll the turn's initiative (17.1) and start its Morale phase with the holder."""
    rounds = roll_off(state, rng)
    holder = max(rounds[-1], key=lambda side: rounds[-1][side])
    state.turn += 1
    state.initiative = holder
    state.phase = TURN
    state.step = 0
    state.step_side = 0
    for s in state.sides:
        s.wants_end = False
    text = (f"**Turn {state.turn} initiative** (17.1): {describe_rolls(state, rounds)}. "
            f"The {state.side_name(holder)} have the initiative and act first in the Morale phase.")
    return [public(text, reveals=True)]
