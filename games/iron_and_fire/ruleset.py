"""Iron and Fire as a ``Ruleset``: the thin adapter the table service calls, and where it registers.

Flow by post: the bot draws the activation cards itself. After set-up (Chile first, then Peru)
each drawn card names the side that acts; that side gives one order per unit it activates and
the next card is drawn as soon as the card's activations are used up, no unit can use them, or
the side says ``done``. Decisions (the first Joker with the Fortunes of War, continuing a
Boarding Combat) wait for the side that must decide. ``apply`` matches the typed order
(``orders.py``) to the book section in ``rules/`` that carries it out.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from games.core.errors import IllegalOrder, NotYourTurn, quote, resolve_name
from games.core.maps import load_map
from games.core.notation import Typed
from games.core.options import check_options
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, OptionSpec, Outcome, Ruleset, ScenarioInfo, Seat, register, unhandled
from games.core.view import BoardMark, View
from games.iron_and_fire import scene
from games.iron_and_fire import view as views
from games.iron_and_fire.data import SIDES, scenarios
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.orders import (
    ACTIVATIONS,
    SYNTAX_HINT,
    Activation,
    BreakOff,
    CableAt,
    CableWith,
    Continue,
    Decision,
    Done,
    FowAgain,
    FowEnd,
    FowExtra,
    FowRedraw,
    FowReroll,
    IronOrder,
    Pass,
    Place,
    PlaceBattery,
    PlaceMine,
    Roll,
    parse,
    ref,
)
from games.iron_and_fire.rules import (
    activations_4,
    boarding_6_3,
    end_phase_11,
    fortunes_of_war_13_1,
    mines_9,
    scenarios_15,
)
from games.iron_and_fire.rules.fortunes_of_war_13_1 import snapshot_of
from games.iron_and_fire.rules.scenarios_15 import new_state
from games.iron_and_fire.state import State

HELP = """Iron and Fire (Against the Odds): the Huáscar and the War of the Pacific, 1879.

Set-up (Chile first, then Peru): `roll steam|arrival|inshore|cable|mines|batteries|damage` (the scenario
says which), `Esmeralda at 1606 3` (hex CCRR, facing by the printed compass 1-6), `mine 2305`,
`battery 1306`, `cable 2004` or `cable Huascar`, then `done`. Secret rolls go to your side by DM;
the channel sees a commitment, revealed when the rules make the value public or at the end.

Play: the bot draws the cards itself, so nobody has to type `draw` (red = Peru, black = Chile; odd 1 unit, even up to 2, face up to 3;
one activation per unit per card) and pings the side to act. Orders, one per activated unit:
  `Huascar move F F P F` (F forward, P port, S starboard; 1 MP each; add `ram` to ram at the end)
  `Huascar ram` · `Huascar fire Esmeralda` · `Huascar fire town` (Scenario 4 bombardment)
  `Huascar board Esmeralda` · `Covadonga repair` · `Independencia unground` · `Huascar cut` (Scenario 4)
  `Esmeralda prepare` (first of two consecutive activations to move a captured ship)
  `done` ends the card's remaining activations.
Decisions: `continue` / `break off` after a Boarding Combat round; at the first Joker the holder of
the Fortunes of War says `fow end` or `pass`.
Fortunes of War (options:fow=on): add `fow` to a move/ram/fire order for +2 (first use) / +1;
`fow extra`, `fow again <unit>` on your own card; `fow redraw` before anyone acts on a card;
`fow reroll N` right after any activation re-rolls its Nth die (`fow reroll` = the first); the
activation is replayed with every other die as it fell.
Names match without accents and by unique prefix. Options: fow, honor, visibility, random_events,
ironclad_save, battery_save, boilers (s1), mines (s1), independencia (s3, s5), s2_end (vp|draw), once_per,
land_blocks, turns.
House values in use: ship stats, maps, mine mix, turn limits of scenarios 1 and 2 (scenario 5 has none)."""


class IronAndFire(Ruleset[State, IronOrder]):
    id = "iron-and-fire"
    name = "Iron and Fire"
    state_type = State
    book = "Iron and Fire (Against the Odds): the Huáscar in the War of the Pacific, 1879"
    board_marks: ClassVar[frozenset[BoardMark]] = frozenset({"acts-now", "last-action", "zones"})
    # 2: scenario 5 has no turn limit and ends a draw when the Huáscar leaves without Peru's
    # condition met (was: 20 turns, then victory points, a 0-0 tie to Peru); scenario 4's Huáscar
    # sets up exactly three hexes from 2801/2901 (data/iron_and_fire/RULINGS.md). An older game's
    # log replays differently: its /game verify and /game replay say the rules changed since.
    rules_version: ClassVar[str] = "2"

    # --- catalogue -----------------------------------------------------------------------------
    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo(s.id, s.name, s.description) for s in scenarios().values()]

    def options(self) -> list[OptionSpec]:
        return list(scene.OPTIONS)

    def help(self) -> str:
        return HELP

    # --- lifecycle -----------------------------------------------------------------------------
    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> State:
        known = scenarios()
        if scenario not in known:
            scenario = resolve_name(scenario, {k: v.name for k, v in known.items()}, "scenario")
        load_map(known[scenario].map)  # a map that cannot load refuses the game now, not at its first board
        return new_state(scenario, check_options(scene.OPTIONS, options, system=self.name))

    def seats(self, state: State) -> list[Seat]:
        return [
            Seat("peru", "Peru", side="peru"),
            Seat("chile", "Chile", side="chile"),
            Seat(UMPIRE, "Umpire", kind="umpire", optional=True),
        ]

    def to_act(self, state: State) -> list[str]:
        if state.phase in ("setup", "arrive"):
            return [state.setup_side]
        if state.phase in ("joker", "boarding"):
            return list(SIDES) if state.decider == "both" else [state.decider]
        if state.phase == "activations" and state.card_side:
            return [state.card_side]
        return []

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(state.result_winner or None, state.result_reason, tuple(state.result_details))

    # --- orders --------------------------------------------------------------------------------
    def _side(self, state: State, seat: str) -> str:
        if seat in SIDES:
            return seat
        if seat == UMPIRE:
            acting = self.to_act(state)
            if acting:
                return acting[0]
            raise NotYourTurn("Nobody is to act now.")
        raise NotYourTurn(f"Seat {quote(seat)} cannot give orders in Iron and Fire.", hint="Seats: peru, chile, umpire.")

    def parse_order(self, state: State, seat: str, text: str) -> IronOrder:
        return parse(state, load_map(scenarios()[state.scenario].map).layout, text)

    def apply(self, state: State, seat: str, order: IronOrder, rng: Rng) -> list[Event]:
        """Apply an order; events are marked ``reveals`` when a die was rolled or a card drawn,
        so only the umpire can undo it. A refused order may leave ``state`` half changed: the
        table service applies orders to a copy and drops it on error (``games.core.ruleset``)."""
        if state.phase == "over":
            raise IllegalOrder("The game is over.", hint="Start a new game.")
        if not isinstance(order, Typed):
            order = self.parse_order(state, seat, order.text)
        side = self._side(state, seat)
        counter, cards = rng.counter, len(state.deck)
        state.log_tail = []
        dice = Dice(rng)
        events: list[Event] = []
        if isinstance(order, FowReroll):
            replay = fortunes_of_war_13_1.start_reroll(state, dice, events, side, order)
            activations_4.perform(state, dice, events, replay.actor, replay.order)
            fortunes_of_war_13_1.finish_reroll(state, dice, events, replay)
        elif isinstance(order, ACTIVATIONS):
            self._activate(state, dice, events, side, order)
        else:
            state.snapshot, state.snapshot_dice, state.snapshot_mines = "", [], []
            self._decide(state, dice, events, side, order)
        state.log_tail = [e.text for e in events if e.public]  # the public report of this order
        if rng.counter != counter or len(state.deck) != cards:
            return [dataclasses.replace(e, reveals=True) for e in events]
        return events

    def _activate(self, state: State, dice: Dice, events: list[Event], side: str, order: Activation) -> None:
        """An activation (4.2); with the Fortunes of War in play, the state before it is kept so
        that ``fow reroll`` can replay it (13.1)."""
        state.snapshot, state.snapshot_dice, state.snapshot_mines = "", [], []
        before = snapshot_of(state) if scene.on(state, "fow") else ""
        activations_4.perform(state, dice, events, side, order)
        if before and dice.rolled:
            state.snapshot, state.snapshot_order, state.snapshot_side = before, order.text, side
            state.snapshot_dice = list(dice.rolled)
            state.snapshot_mines = list(dice.mine_draws)

    def _decide(self, state: State, dice: Dice, events: list[Event], side: str, order: Decision) -> None:
        """Set-up, turn flow and decisions: everything but an activation."""
        match order:
            case Done():
                if state.phase in ("setup", "arrive"):
                    scenarios_15.setup_done(state, dice, events, side)
                    activations_4.advance(state, dice, events)
                else:
                    activations_4.pass_card(state, dice, events, side)
            case Continue() | BreakOff():
                boarding_6_3.boarding_decision(state, events, side, order)
                activations_4.continue_card(state, dice, events)
            case Pass() | FowEnd():
                if fortunes_of_war_13_1.joker_decision(state, dice, events, side, order):
                    end_phase_11.end_phase(state, dice, events)
                activations_4.advance(state, dice, events)
            case Roll():
                scenarios_15.do_roll(state, dice, events, side, order)
            case Place():
                scenarios_15.place_unit(state, events, side, order)
            case PlaceMine():
                mines_9.place_mine(state, events, side, order)
            case PlaceBattery():
                scenarios_15.place_battery(state, events, side, order)
            case CableAt():
                scenarios_15.place_cable(state, events, side, order)
            case CableWith():
                scenarios_15.place_cable_with(state, events, side, order)
            case FowExtra():
                fortunes_of_war_13_1.fow_extra(state, events, side)
            case FowAgain():
                fortunes_of_war_13_1.fow_again(state, events, side, order)
            case FowRedraw():
                fortunes_of_war_13_1.fow_redraw(state, events, side)
                activations_4.advance(state, dice, events)
            case _:
                unhandled(order, hint=SYNTAX_HINT)

    # --- legal orders ----------------------------------------------------------------------------
    def legal_orders(self, state: State, seat: str) -> list[IronOrder]:
        try:
            side = self._side(state, seat)
        except NotYourTurn:
            return []
        return self._legal(state, side)

    def _legal(self, state: State, side: str) -> list[IronOrder]:
        if state.phase in ("setup", "arrive"):
            return scenarios_15.setup_orders(state, side) if side == state.setup_side else []
        if state.phase == "joker" and side == state.decider:
            return [FowEnd(), Pass()]
        if state.phase == "boarding" and state.decider in (side, "both"):
            return [Continue(), BreakOff()]
        if state.phase != "activations":
            return []
        out: list[IronOrder] = []
        fow_ok = scene.on(state, "fow") and state.fow_holder == side and side not in state.fow_used_turn
        if state.card_side == side:
            for u in state.units:
                if u.controller == side and activations_4.can_activate(state, u):
                    out.extend(activations_4.unit_orders(state, u))
            if fow_ok:
                out.append(FowExtra())
                out.extend(FowAgain(ref(u)) for u in state.units if u.controller == side and u.afloat and u.id in state.used)
        if fow_ok and state.snapshot:
            out.extend(FowReroll(i + 1) for i in range(len(state.snapshot_dice)))
        if fow_ok and state.card and not state.used:
            out.append(FowRedraw())
        if state.card_side == side:
            out.append(Done())
        return out

    # --- views -----------------------------------------------------------------------------------
    def view(self, state: State, seat: str | None) -> View:
        return views.view(state, seat)

    def summary(self, state: State) -> list[str]:
        return list(self.view(state, None).status)


@register("iron-and-fire")
def _factory() -> Ruleset[Any, Any]:
    return IronAndFire()
