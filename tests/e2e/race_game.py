"""A tiny turn-based test system, ``e2e-race``: two boats race along a 6-square lane.

Real systems have many legal orders; this one has two or three, so the bot's order buttons, the
"Next:" pings and a quick finish can be exercised end to end with the real table service.
``registered()`` adds it to the registry for one test and takes it out again, so other tests
that list the systems never see it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from games.core import ruleset
from games.core.errors import IllegalOrder, quote
from games.core.rng import Rng
from games.core.ruleset import Event, Order, Outcome, Ruleset, ScenarioInfo, Seat, public, register
from games.core.view import Board, Counter, SideInfo, View

FINISH = 5
SIDES = ("red", "blue")


@dataclass
class RaceState:
    positions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    turn: str = "red"


class Race(Ruleset[RaceState, Order]):
    id = "e2e-race"
    name = "Boat race (test)"
    state_type = RaceState
    public_orders = True  # nothing hidden: order buttons may be public

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("lane", "One lane")]

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> RaceState:
        return RaceState()

    def seats(self, state: RaceState) -> list[Seat]:
        return [Seat(side, side.title(), side) for side in SIDES]

    def to_act(self, state: RaceState) -> list[str]:
        return [] if self.outcome(state) else [state.turn]

    def legal_orders(self, state: RaceState, seat: str) -> list[Order]:
        return [Order(text) for text in self.order_texts(state, seat)]

    def order_texts(self, state: RaceState, seat: str) -> list[str]:
        if seat != state.turn or self.outcome(state):
            return []
        return ["row 1", "row 2"] + (["drift"] if state.positions[seat] else [])

    def parse_order(self, state: RaceState, seat: str, text: str) -> Order:
        canonical = " ".join(text.split()).lower()
        if canonical not in self.order_texts(state, seat):
            raise IllegalOrder(
                f"{quote(text)} is not an order now.", hint="Orders: " + ", ".join(self.order_texts(state, seat))
            )
        return Order(canonical)

    def apply(self, state: RaceState, seat: str, order: Order, rng: Rng) -> list[Event]:
        self.parse_order(state, seat, order.text)
        if order.text.startswith("row"):
            state.positions[seat] = min(FINISH, state.positions[seat] + int(order.text.split()[1]))
        state.turn = SIDES[1 - SIDES.index(seat)]
        return [public(f"{seat.title()} {order.text}s to {state.positions[seat]}.")]

    def view(self, state: RaceState, seat: str | None) -> View:
        board = Board(kind="square", key="e2e-race", width=FINISH + 1, height=2)
        counters = tuple(
            Counter(id=side, label=side.title(), side=side, pos=(state.positions[side], i))
            for i, side in enumerate(SIDES)
        )
        sides = (SideInfo("red", "Red", "#c0392b"), SideInfo("blue", "Blue", "#2c6fbb"))
        return View(board=board, viewer=seat, sides=sides, counters=counters, title="Race")

    def outcome(self, state: RaceState) -> Outcome | None:
        for side, at in state.positions.items():
            if at >= FINISH:
                return Outcome(side, f"{side.title()} crossed the line first.")
        return None


@contextmanager
def registered() -> Iterator[None]:
    register(Race.id)(Race)
    try:
        yield
    finally:
        ruleset._REGISTRY.pop(Race.id, None)
