"""Days of Iron test helpers: games built from data, orders applied, dice scripted."""

from __future__ import annotations

from games.core.errors import resolve_name
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import Event
from games.days_of_iron.ruleset import DaysOfIron
from games.days_of_iron.state import State, TerrainPiece, Unit
from tests.scripted import DiceThenStream

RS = DaysOfIron()



def new_game(scenario: str = "meeting", seed: int = 1, **options: str) -> tuple[State, Rng]:
    rng = Rng(seed_from_number(seed))
    return RS.setup(scenario, dict(options), rng), rng


def order(state: State, seat: str, text: str, rng: Rng) -> list[Event]:
    return RS.apply(state, seat, RS.parse_order(state, seat, text), rng)


def unit(state: State, name: str) -> Unit:
    uid = resolve_name(name, {u.id: u.name for u in state.units}, "unit")
    return next(u for u in state.units if u.id == uid)


def ready_both(state: State, rng: Rng) -> list[Event]:
    """Roll staff for both sides and finish the set-up; returns the last order's events."""
    events: list[Event] = []
    for side in state.sides:
        if not side.staff_rolled:
            order(state, side.id, "staff", rng)
    for side in state.sides:
        if not side.ready:
            events = order(state, side.id, "ready", rng)
    return events


def start_turn(state: State, *, french_first: bool = True) -> None:
    """Roll the initiative with scripted dice so the wanted side (first or second) holds it."""
    faces = [6, 1] if french_first else [1, 6]
    order(state, state.sides[0].id, "initiative", DiceThenStream(faces))


def finish_turn(state: State, rng: Rng) -> list[Event]:
    events: list[Event] = []
    while state.phase == "turn":
        events = order(state, RS.to_act(state)[0], "next", rng)
    return events


# Owner sheets for the reference tests (an owner's printed charts replacing the house ones).
MORALE = """
kind = "morale"
source = "owner"
[tests.charge]
name = "To Charge test"
base = 1
class = [3, 2, 1, 0]
staff = { inept = 1, capable = 0, exceptional = -1, none = 2 }
pass = "Charges."
fail = "May not close."
[tests.charge.factors]
disordered = 1
shaken = 2
"""

SMALL_ARMS = """
kind = "table"
source = "owner"
name = "Small arms (test)"
dice = "1d6"
columns = ["dispersed", "line", "dense"]
[[rows]]
roll = [1, 3]
results = ["-", "-", "H"]
[[rows]]
roll = [4, 6]
results = ["-", "H", "HH"]
"""


def declare(state: State, seat: str, text: str, faces: list[int], rng: Rng | None = None) -> list[Event]:
    """Declare a charge in the Morale phase and play on to the moment every charge is declared
    (17.2.2): the declaring side's `next` if it holds the initiative, then the other side's, whose
    `next` takes the To Charge tests with ``faces`` first. Returns the events from the declaration on."""
    rng = rng or Rng(seed_from_number(5))
    events = order(state, seat, text, rng)
    if state.step_side == 0:
        events += order(state, RS.to_act(state)[0], "next", rng)
    events += order(state, RS.to_act(state)[0], "next", DiceThenStream(faces))
    return events


def copse(state: State, x: float, y: float, half: float = 7.0) -> None:
    """A heavy wood around (x, y): a formed unit hidden in it is seen only within 4" (16.3), so it
    stays hidden (16.4) until an enemy comes that close or its owner reveals it."""
    state.terrain.append(TerrainPiece("heavy-wood", "a copse", [[x - half, y - half], [x + half, y - half],
                                                                [x + half, y + half], [x - half, y + half]]))
