"""Hex ironclads as a ``Ruleset``: the thin adapter the table service calls, and where it registers.

Everything here hands over to the book's sections in ``rules/`` (``rules/turn_sequence_1.py`` says
how a turn runs); ``apply`` is the one place that checks who may act and matches the typed order
(``orders.py``) to the rule that carries it out.
"""

from __future__ import annotations

from typing import ClassVar

from games.core.errors import NotAllowed, WrongPhase, quote
from games.core.options import check_options, with_defaults
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, OptionSpec, Outcome, Ruleset, ScenarioInfo, Seat, register, unhandled
from games.core.seats import side_seats
from games.core.view import BoardMark, View
from games.hex_ironclads import orders, view
from games.hex_ironclads.data import load_scenario, scenario_ids
from games.hex_ironclads.orders import Done, Fire, HexOrder, Hold, Move, Reveal, Seal, Stay
from games.hex_ironclads.rules import firing_dice_2, movement_4, turn_sequence_1
from games.hex_ironclads.state import OVER, State, new_state

OPTIONS = (
    OptionSpec(
        "ships-block-sight",
        "Ships (of either side) between firer and target block the line of sight.",
        "yes",
        ("yes", "no"),
    ),
    OptionSpec(
        "turns",
        "Turn limit; empty keeps the scenario's (house) limit. At the limit the side that has inflicted more flotation points wins.",
        "",
        between=(1, 99),
    ),
    OptionSpec(
        "ahead-arc",
        "Degrees either side of the keel line that count as ahead/astern: 30 (the ruling: one sixty-degree arc) or 60 (the book read as sixty degrees either side).",
        "30",
        ("30", "60"),
    ),
    OptionSpec(
        "arc-boundary",
        "Hexes exactly on the ahead/astern arc line (30 degrees off the keel line, or 60 with ahead-arc=60): abeam (the ruling) or ahead-astern (half dice).",
        "abeam",
        ("abeam", "ahead-astern"),
    ),
    OptionSpec(
        "ram-timing",
        "When rams are adjudicated: after-movement (the book's turn sequence: once both sides have moved) or at-once (as each ram happens).",
        "after-movement",
        ("after-movement", "at-once"),
    ),
    OptionSpec(
        "broken-off-fire",
        "A ship that has broken off may still fire while it runs for home.",
        "no",
        ("yes", "no"),
    ),
)

HELP = """Hex ironclads (Memoir of Battle at Sea style, book 003).
Each turn: give every ship a fire order, `<Ship> fire <Target>` or `<Ship> hold`, then `seal`.
Orders stay secret (only a commitment is shown) until both sides have sealed or the umpire orders
`reveal`; then all fire resolves at once and a ship sunk this turn still fires.
Each side rolls d6, the lower moves first: `<Ship> move F F S F` (F forward one hex, P/S turn 60
degrees to port/starboard; each step costs one point), `<Ship> stay`, or `done` for the rest.
Moving into an enemy's hex rams it (4 dice with a ram, 2 without); the rammer stays where it was.
Rams are adjudicated once both sides have moved, in the order made (option ram-timing=at-once
rolls each when it happens); a rammed ship still makes its own move meanwhile.
Dice: full dice at one hex, one fewer per further hex (abeam, or any bearing for turrets); ahead
or astern (strictly within 30 degrees of the keel line, or 60 with option ahead-arc=60; option
arc-boundary=ahead-astern adds the hexes on the boundary line) half dice, one fewer per two hexes.
Faces: 6 Major (2 flotation points), 4-5 Minor (1), 1-3 Miss. At its critical point a ship breaks
off and the bot steers it home; leaving by its home edge saves it. Line of sight: land blocks, and
so do ships in between (option ships-block-sight). A side with no ship left fighting loses."""



@register("hex-ironclads")
class HexIronclads(Ruleset[State, HexOrder]):
    id: ClassVar[str] = "hex-ironclads"
    name: ClassVar[str] = "Hex ironclads (Memoir of Battle at Sea style)"
    state_type: ClassVar[type[State]] = State
    book: ClassVar[str] = "Hex ironclads, a Memoir of Battle at Sea-style set with firing dice"
    board_marks: ClassVar[frozenset[BoardMark]] = frozenset({"acts-now", "last-action"})
    # 2: a ship knocked past its critical point is reported in new words (issue 21), so an older
    # game's /game verify finds that report changed and says the rules changed since
    rules_version: ClassVar[str] = "2"

    def scenarios(self) -> list[ScenarioInfo]:
        found = sorted((load_scenario(s) for s in scenario_ids()), key=lambda s: (s.order, s.id))
        return [ScenarioInfo(s.id, s.name, s.description) for s in found]

    def options(self) -> list[OptionSpec]:
        return list(OPTIONS)

    def help(self) -> str:
        return HELP

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> State:
        chosen = with_defaults(OPTIONS, check_options(OPTIONS, options, system=self.name))
        return new_state(load_scenario(scenario), chosen)

    def seats(self, state: State) -> list[Seat]:
        return side_seats(state.sides)

    def to_act(self, state: State) -> list[str]:
        return turn_sequence_1.to_act(state)

    def parse_order(self, state: State, seat: str, text: str) -> HexOrder:
        return orders.parse(state, text)

    def legal_orders(self, state: State, seat: str) -> list[HexOrder]:
        return turn_sequence_1.legal_orders(state, seat)

    def apply(self, state: State, seat: str, order: HexOrder, rng: Rng) -> list[Event]:
        if state.phase == OVER:
            raise WrongPhase("The game is over.", hint=state.result)
        if seat != UMPIRE and seat not in {s.id for s in state.sides}:
            raise NotAllowed(f"{quote(seat)} is not a seat in this game.", hint=f"Seats: {', '.join(s.id for s in state.sides)}, umpire.")
        match order:
            case Fire() | Hold():
                return firing_dice_2.give_fire_order(state, seat, order)
            case Seal():
                return turn_sequence_1.seal_orders(state, seat, order, rng)
            case Reveal():
                return turn_sequence_1.reveal(state, seat, rng)
            case Move() | Stay():
                events = movement_4.move(state, seat, order, rng)
                return events + turn_sequence_1.after_ship_moved(state, rng)
            case Done():
                return turn_sequence_1.done(state, seat, rng)
            case _:
                unhandled(order, hint=orders.SYNTAX_HINT)

    def view(self, state: State, seat: str | None) -> View:
        return view.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        return Outcome(state.winner, state.result, tuple(view.tally(state)))
