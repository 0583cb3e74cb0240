"""Ironclad Draughts as a ``Ruleset``: the thin adapter the table service calls, and where it registers.

Everything here hands over to the book's sections in ``rules/`` (``rules/sequence_3.py`` says how
a turn runs); ``apply`` is the one place that matches the typed order (``orders.py``) to the rule
that carries it out, after the checks of who may give it.
"""

from __future__ import annotations

from typing import ClassVar

from games.core.errors import InvalidSyntax
from games.core.notation import Typed
from games.core.rng import Rng
from games.core.ruleset import (
    UMPIRE,
    Event,
    OptionSpec,
    Outcome,
    Ruleset,
    ScenarioInfo,
    Seat,
    public,
    register,
    unhandled,
)
from games.core.view import BoardMark, View
from games.ironclad_draughts import view
from games.ironclad_draughts.data import scenarios
from games.ironclad_draughts.orders import (
    ACTIVATION_HINT,
    AdjustAt,
    AdjustDamage,
    AdjustFlotation,
    AdjustHeading,
    Deal,
    DraughtsOrder,
    Fire,
    Move,
    Pass,
)
from games.ironclad_draughts.rules import sequence_3, set_up_2, umpire_3
from games.ironclad_draughts.state import DEAL, OVER, State, seats

HELP = """\
**Ironclad Draughts** - squadrons of ironclads on a draughts board (book: Ironclad Draughts).
Each turn every ship gets a face-up activation card; ships act from the lowest card (Ace low; ties
Hearts, Clubs, Diamonds, Spades). When a ship's turn comes the bot makes its damage-control draw,
then its owner gives ONE order for the whole activation: the move, the turn and the fire together.

Orders (the active ship's name in front is optional, e.g. `Huascar move 2 fire Cochrane`):
- `move N [port|starboard] [turn port|starboard] [leave] [fire TARGET]`
  N squares in the heading (1 or 2), or 45 degrees off the bow to port/starboard; a diagonal
  direction allows 1 square only. `move diag port` is short for the diagonal 1-square move.
  `turn port|starboard` turns 90 degrees at the end. `leave` is needed for a move that takes the
  ship off the board (it can never return). `fire TARGET` fires every gun that bears, after moving.
  Ending in an occupied square rams (enemy always; a friend only on a red activation card, a black
  card avoids) - a ramming ship does not fire. A ship may not pass through another (option
  pass_through=yes allows it). A ship fires all its bearing guns at one target.
- `pass` / `fire TARGET`: for a ship whose movement damage dictates (conning tower, engine or
  steering hit) - the bot makes the forced move, then the ship fires or not.
Undamaged ships may not stop or go astern.
Firing: range counted orthogonally, 6 squares (4 while on fire); one d6 per gun that bears (two
for 16-inch and larger), each 6 hits; the target draws a damage card per hit:
A conning tower, K engine, Q steering (red turns to port, black to starboard), J fire, 10 lose one
flotation, 2-9 and Jokers nothing. Damage control each activation against the worst card (conning
tower, fire, steering, engine): same suit repairs; see the book for further damage (a Joker
against a fire blows the ship up). A ship sinks at 0 flotation.

Umpire orders: `deal` (when option umpire_deals=yes), any order for the active ship, and
`adjust SHIP flotation N`, `adjust SHIP damage add QH`, `adjust SHIP damage remove QH`,
`adjust SHIP at c4`, `adjust SHIP heading NE` (each logged publicly). Undo is the table's undo.
Options: seats=squadron|ship, umpire_deals=no|yes, damage_shuffle=when-empty|each-turn, pass_through=no|yes,
engine_hit=stop|ahead (stop: one square ahead, then stopped until repaired; ahead: one square every activation),
damaged_may_stop=no|yes (yes: a ship with damage in force or flotation lost may `pass` or `fire TARGET` in place),
turn_limit=0 (none) or N, squadron1/squadron2=class+class+... (or class:Name) to replace a side,
board=WxH. The game ends when a side has no ship afloat on the board; the result names the ships
that passed through the enemy line to the far edge and returned to their starting rank.
"""


@register("ironclad-draughts")
class IroncladDraughts(Ruleset[State, DraughtsOrder]):
    id: ClassVar[str] = "ironclad-draughts"
    name: ClassVar[str] = "Ironclad Draughts"
    state_type: ClassVar[type[State]] = State
    book: ClassVar[str] = "Ironclad Draughts: umpired squadron battles on squares"
    board_marks: ClassVar[frozenset[BoardMark]] = frozenset({"acts-now", "last-action"})

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo(s.id, s.name, s.description) for s in scenarios().values()]

    def options(self) -> list[OptionSpec]:
        return list(set_up_2.OPTIONS)

    def help(self) -> str:
        return HELP

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> State:
        return set_up_2.setup(scenario, options, rng)

    def check_start(self, state: State, seated: set[str]) -> None:
        umpire_3.check_start(state, seated)

    def seats(self, state: State) -> list[Seat]:
        return seats(state)

    def to_act(self, state: State) -> list[str]:
        return sequence_3.to_act(state)

    def parse_order(self, state: State, seat: str, text: str) -> DraughtsOrder:
        words = text.split()
        if not words:
            raise InvalidSyntax("Empty order.", hint="Try `move 2`, `move 1 turn port fire SHIP` or `pass`.")
        if words[0].casefold() in ("deal", "adjust"):
            return umpire_3.read_order(state, seat, text)
        return sequence_3.read_activation(state, seat, text)

    def legal_orders(self, state: State, seat: str) -> list[DraughtsOrder]:
        if state.phase == OVER:
            return []
        if state.phase == DEAL:
            return [Deal()] if seat == UMPIRE else []
        return list(sequence_3.legal_activations(state, seat))

    def apply(self, state: State, seat: str, order: DraughtsOrder, rng: Rng) -> list[Event]:
        if not isinstance(order, Typed):  # an untyped order (a test, a script): read its text
            order = self.parse_order(state, seat, order.text)
        match order:
            case Deal():
                umpire_3.check_deal(state, seat, order.text)
                return [public(umpire_3.deal_cards(state, rng), reveals=True)]
            case AdjustFlotation() | AdjustDamage() | AdjustAt() | AdjustHeading():
                checked = umpire_3.check_adjust(state, seat, order, order.text)
                return [public(umpire_3.adjust(state, checked, rng))]
            case Move() | Pass() | Fire():
                ship, result = sequence_3.checked(state, seat, order)
                counter, pack = rng.counter, len(state.damage_deck.draw_pile)
                report = sequence_3.activate(state, ship, order, result, rng)
                # Dice, shuffles and damage-pack draws reveal chance; a plain move does not (the owner may undo it).
                revealed = rng.counter != counter or len(state.damage_deck.draw_pile) != pack
                return [public(report, reveals=revealed)]
            case _:
                unhandled(order, hint=ACTIVATION_HINT)

    def view(self, state: State, seat: str | None) -> View:
        return view.view(state, seat)

    def summary(self, state: State) -> list[str]:
        return view.summary(state)

    def outcome(self, state: State) -> Outcome | None:
        return view.outcome(state)
