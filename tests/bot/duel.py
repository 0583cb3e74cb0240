"""A tiny rule system for testing the table service: two sides race to 20 points.

Orders: ``roll`` (public d6 to your score), ``hide`` (a secret d6 kept in your reserve, told
only to you), ``spend`` (reveal your reserve and add it), ``pass``. Sides alternate.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.errors import IllegalOrder, InvalidSyntax, NotYourTurn, quote
from games.core.rng import Rng
from games.core.ruleset import Event, Order, Outcome, Ruleset, ScenarioInfo, Seat, private, public, register
from games.core.view import Board, Counter, SideInfo, View

SIDES = ("north", "south")


@dataclass
class DuelState:
    turn: int = 0
    scores: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SIDES})
    reserve: dict[str, list[int]] = field(default_factory=lambda: {s: [] for s in SIDES})


class Duel(Ruleset[DuelState, Order]):
    id = "test-duel"
    name = "Test duel"
    state_type = DuelState

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("race", "Race to 20")]

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> DuelState:
        return DuelState()

    def seats(self, state: DuelState) -> list[Seat]:
        return [Seat(s, s.title(), s) for s in SIDES] + [Seat("umpire", "Umpire", "", "umpire", optional=True)]

    def to_act(self, state: DuelState) -> list[str]:
        return [] if self.outcome(state) else [SIDES[state.turn % 2]]

    def legal_orders(self, state: DuelState, seat: str) -> list[Order]:
        return [Order(text) for text in self.order_texts(state, seat)]

    def order_texts(self, state: DuelState, seat: str) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return ["roll", "hide", "pass"] + (["spend"] if state.reserve[seat] else [])

    def parse_order(self, state: DuelState, seat: str, text: str) -> Order:
        word = text.strip().lower()
        if word not in ("roll", "hide", "spend", "pass"):
            raise InvalidSyntax(f"{quote(text)} is not an order.", hint="Orders: roll, hide, spend, pass.")
        return Order(word)

    def apply(self, state: DuelState, seat: str, order: Order, rng: Rng) -> list[Event]:
        if self.outcome(state):
            raise IllegalOrder("The race is over.")
        if seat != "umpire" and seat not in self.to_act(state):
            raise NotYourTurn(f"It is {SIDES[state.turn % 2]}'s turn, not yours.")
        side = SIDES[state.turn % 2]
        events: list[Event] = []
        if order.text == "roll":
            value = rng.die(6)
            state.scores[side] += value
            events.append(public(f"{side} rolls {value}.", reveals=True))
        elif order.text == "hide":
            value = rng.die(6)
            state.reserve[side].append(value)
            events.append(public(f"{side} hides a die."))
            events.append(private(f"SECRET-{side}-{value}-{len(state.reserve[side])}", side))
        elif order.text == "spend":
            if not state.reserve[side]:
                raise IllegalOrder("You have no hidden dice to spend.")
            total = sum(state.reserve[side])
            state.scores[side] += total
            state.reserve[side] = []
            events.append(public(f"{side} spends hidden dice worth {total}.", reveals=True))
        else:
            events.append(public(f"{side} passes."))
        state.turn += 1
        return events

    def view(self, state: DuelState, seat: str | None) -> View:
        private_lines = tuple(f"SECRET-{seat}-{v}-{i + 1}" for i, v in enumerate(state.reserve.get(seat or "", [])))
        if seat == "umpire":
            private_lines = tuple(f"{s}: {state.reserve[s]}" for s in SIDES)
        return View(
            board=Board(kind="square", key="duel", width=4, height=4),
            viewer=seat,
            sides=(SideInfo("north", "North", "#cc0000"), SideInfo("south", "South", "#0000cc")),
            counters=(Counter("n", "N", "north", (0, min(3, state.scores["north"] // 6))),
                      Counter("s", "S", "south", (3, min(3, state.scores["south"] // 6)))),
            status=(f"North {state.scores['north']}, South {state.scores['south']}",),
            private_text=private_lines,
        )

    def outcome(self, state: DuelState) -> Outcome | None:
        for s in SIDES:
            if state.scores[s] >= 20:
                return Outcome(s, f"{s} reached 20.")
        return None


register("test-duel")(Duel)
