"""Oak & Iron as a ``Ruleset``: the thin adapter the table service calls, and where it registers.

Everything here hands over to the book's sections in ``rules/`` (``rules/turn_4.py`` runs the
turn); ``apply`` is the one place that matches the typed order (``orders.py``) to the rule that
carries it out, and then lets the turn move on.
"""

from __future__ import annotations

import pickle
from typing import ClassVar

from games.core.errors import GameError, WrongPhase, quote
from games.core.notation import Ref
from games.core.options import check_options
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, OptionSpec, Outcome, Ruleset, ScenarioInfo, Seat, register, unhandled
from games.core.schema import decode
from games.core.view import BoardMark, Overlay, View
from games.oak_and_iron import orders, view
from games.oak_and_iron.data import captain_cards, factions, initiative_cards, rules, scenario_files, upgrade_cards
from games.oak_and_iron.measure import CORNER_CONTACT
from games.oak_and_iron.orders import (
    Adjust,
    AttackOrder,
    Board,
    Broadside,
    Capture,
    ChangeSail,
    Close,
    CutFree,
    Deploy,
    Destroy,
    Done,
    Draft,
    EndChoice,
    Heading,
    Hold,
    Initiative,
    LandingAttack,
    LandingParty,
    Measure,
    Move,
    MovementOrder,
    OakOrder,
    Partial,
    Rally,
    Reload,
    Repair,
    Role,
    Row,
    SetupOrder,
    Spare,
    TerrainAdd,
    TerrainDiscard,
    TerrainDone,
    TerrainKeep,
    TerrainMove,
    TerrainPlace,
    TransferFlag,
)
from games.oak_and_iron.rules import (
    attack_4_3,
    close_combat_4_3,
    crew_actions_4_2,
    end_phase_4_4,
    initiative_4_1,
    movement_4_2,
    range_ruler_2,
    scenario_cards_7,
    seamanship_4_2,
    turn_4,
)
from games.oak_and_iron.rules.activation_4 import acting_side, attackers, movers, to_act
from games.oak_and_iron.rules.fleet_battles_9 import (
    COMMAND,
    fleet_of,
    holder_of_seat,
    seat_holders,
    seat_of_ship,
    squadron_seats,
    to_seal,
)
from games.oak_and_iron.rules.starting_7 import BUILT, FLEET, new_game
from games.oak_and_iron.schema import ScenarioFile
from games.oak_and_iron.state import SAIL_NAMES, ShipState, State

OPTIONS = (
    OptionSpec("ships_block_sight", "Other ships' bases block Line of Sight (house ruling).", "yes", ("yes", "no")),
    OptionSpec(
        "lost_admiral",
        "A Flagship Out of Action: spend a Fortune Point to transfer the flag when possible, or always appoint a new Flagship.",
        "fortune",
        ("fortune", "new"),
    ),
    OptionSpec(
        "corner_contact",
        "Close Combat when only a corner of the attacker touches: it counts as its Bow/Stern edge (end) "
        "or as its side edge (side) (house ruling).",
        "end",
        CORNER_CONTACT,
    ),
    OptionSpec("scrolling_sea", "The designer's SCROLLING SEA (note to 5.2): a ship whose move would take it off the table "
               "stays, and everything on the table moves Musket Shot away from that edge (house: less where a ship would "
               "be carried off the far edge, never less than the move overshot; when even that would carry one off, "
               "the sea cannot scroll and 5.2 removes the ship).", "no", ("no", "yes")),
    OptionSpec("weather", "The weather edge (north, east, south, west); default from the scenario.", ""),
    OptionSpec("defender", "The defending side (a or b), who wins a tie at the turn limit.", ""),
    OptionSpec("faction_a", "Squadron A's faction card (royal-navy, marine-royale, armada, staatse-vloot, brethren; "
               "house cards), default none; every scenario but the quick start (book ch. 3 plays without cards); "
               "fleet: one for every Squadron, or one a Squadron apart with |, e.g. royal-navy|armada.", ""),
    OptionSpec("faction_b", "Squadron B's faction card.", ""),
    OptionSpec("fleet_a", "Patrol/Skirmish/Engagement: Squadron A, e.g. petite-fregate+skill1/sloop+carronades+steady-captain "
               "(flagship first; + a ship's upgrade option, an upgrade card or a captain card); "
               "reef: its own ships with upgrades, e.g. petite-fregate+skill1/sloop+steady-captain; "
               "fleet: 2-4 Squadrons apart with |, e.g. petite-fregate/sloop|corvette/fluyt.", ""),
    OptionSpec("fleet_b", "Squadron B in the same notation.", ""),
    OptionSpec("admiral_a", "Admiral of Squadron A: untested, capable, veteran, renowned (fleet: one a Squadron, "
               "capable|untested); default untested, or the scenario's.", ""),
    OptionSpec("admiral_b", "Admiral of Squadron B.", ""),
    OptionSpec("start", "Patrol/Skirmish/Engagement: quick (both lines deployed at once, house) or book "
               "(ch. 7: scenario decks, draft, terrain and deployment as set-up orders).", "quick", ("quick", "book")),
    OptionSpec("command", "Fleet Battles: one seat commands each fleet (fleet), or each Squadron is a seat (squadron; "
               "ch. 9: 'each player controls 1 or 2 Squadrons', so a player may take two seats).", "fleet", COMMAND),
    OptionSpec("hand_a", "Initiative hand A, card keys separated by / (default: a legal hand).", ""),
    OptionSpec("hand_b", "Initiative hand B.", ""),
)
DRY_RUN = b"legal-orders-dry-run-seed-000000"


@register("oak-and-iron")
class OakAndIron(Ruleset[State, OakOrder]):
    id: ClassVar[str] = "oak-and-iron"
    name: ClassVar[str] = "Oak & Iron"
    state_type: ClassVar[type[State]] = State
    book: ClassVar[str] = "Oak & Iron (Firelock Games): age-of-sail squadron battles"
    board_marks: ClassVar[frozenset[BoardMark]] = frozenset({"in-focus", "last-action", "aids"})  # the ring follows the focus (view.py)
    # 2: "Immediately" card effects now take effect at 4.1 step 3, not at the reveal (issue 21), so an
    # older game's log replays with other events: its /game verify says the rules changed since
    rules_version: ClassVar[str] = "2"

    def scenarios(self) -> list[ScenarioInfo]:
        out = []
        for key, path in sorted(scenario_files().items()):
            spec = decode(path, ScenarioFile)
            out.append(ScenarioInfo(key, spec.name, spec.description))
        for key in BUILT:
            size = rules().size(key)
            about = f"Squadrons of {size.min_ships}-{size.max_ships} ships bought with fleet_a/fleet_b options."
            out.append(ScenarioInfo(key, f"{key.title()} ({size.points} points)", about))
        fleet = rules().size(FLEET)
        out.append(ScenarioInfo(FLEET, f"Fleet Battle ({fleet.points} points a fleet)",
                                "Ch. 9: two fleets of 2-4 Squadrons, fleet_a=petite-fregate/sloop|corvette/fluyt, one admiral a Squadron."))
        return out

    def options(self) -> list[OptionSpec]:
        return list(OPTIONS)

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> State:
        checked = check_options(OPTIONS, options, system=self.name)
        return new_game(scenario, {k: v for k, v in checked.items() if v != ""}, rng)

    def seats(self, state: State) -> list[Seat]:
        """A seat for each side, or for each Squadron of a Fleet Battle with ``command=squadron``."""
        seats = [Seat(h.id, h.name, side=fleet_of(h), kind="side") for h in seat_holders(state)]
        return [*seats, Seat(UMPIRE, "Umpire", kind="umpire", optional=True)]

    def to_act(self, state: State) -> list[str]:
        return to_act(state)

    def parse_order(self, state: State, seat: str, text: str) -> OakOrder:
        return orders.parse(state, text)

    def apply(self, state: State, seat: str, order: OakOrder, rng: Rng) -> list[Event]:
        before = rng.counter
        events = self._apply(state, seat, order, rng)
        if rng.counter == before:  # nothing random and nothing hidden came out: the order may be undone
            events = [Event(e.text, e.to, False) for e in events]
        return events

    def _apply(self, state: State, seat: str, order: OakOrder, rng: Rng) -> list[Event]:
        if state.phase == "over":
            raise WrongPhase("The game is over.")
        match order:
            case Measure(ship=ship, target=target):
                return range_ruler_2.measure(state, seat, ship.id, target.id)
            case Initiative(card=card):
                return initiative_4_1.seal_card(state, seat, card.id, rng) + turn_4.sealed(state, rng)
            case Role() | Draft() | TerrainAdd() | TerrainDone() | TerrainPlace() | TerrainDiscard() | TerrainMove() | TerrainKeep() | Deploy():
                return self._setup_order(state, seat, order)
        if state.phase == "setup":
            raise WrongPhase(f"{quote(order.text)}: the game is still being set up (ch. 7).", hint=scenario_cards_7.next_hint(state))
        if state.phase == "select":
            raise WrongPhase(f"{quote(order.text)}: the players are sealing initiative cards now.", hint="Write `initiative <card>`.")
        match order:
            case EndChoice(ship=ship):
                return end_phase_4_4.capture(state, seat, order.CHOICE, ship.id) + turn_4.after_end_choice(state, rng)
            case Move() | Done() | Adjust() | Heading() | CutFree() | Reload() | Rally() | Repair() | ChangeSail() | Board() | Row() | TransferFlag() | LandingParty():
                return self._movement(state, seat, order, rng) + turn_4.after_movement_order(state, rng)
            case Broadside() | Partial() | Close() | LandingAttack() | Hold():
                return self._attack(state, seat, order, rng) + turn_4.next_activation(state, rng)
            case _:
                unhandled(order, hint=orders.HELP)

    def _setup_order(self, state: State, seat: str, order: SetupOrder) -> list[Event]:
        match order:
            case Role(role=role):
                return scenario_cards_7.choose_role(state, seat, role)
            case Draft(card=card):
                return scenario_cards_7.draft(state, seat, card.id)
            case TerrainAdd(kind=kind):
                return scenario_cards_7.terrain_add(state, seat, kind)
            case TerrainDone():
                return scenario_cards_7.terrain_done(state, seat)
            case TerrainPlace(kind=kind, x=x, y=y):
                return scenario_cards_7.terrain_place(state, seat, kind, x, y)
            case TerrainDiscard(kind=kind):
                return scenario_cards_7.terrain_discard(state, seat, kind)
            case TerrainMove(piece=piece, x=x, y=y):
                return scenario_cards_7.terrain_move(state, seat, piece.name, x, y)
            case TerrainKeep():
                return scenario_cards_7.terrain_keep(state, seat)
            case Deploy(ship=ship, x=x, y=y, heading=heading):
                return scenario_cards_7.deploy(state, seat, ship.id, x, y, heading)
            case _:
                unhandled(order, hint=orders.HELP)

    def _movement(self, state: State, seat: str, order: MovementOrder, rng: Rng) -> list[Event]:
        match order:
            case Move(ship=ship, when=when, direction=direction, degrees=degrees):
                turn = (when or "").removeprefix("turn-")
                return movement_4_2.move(state, seat, ship.id, turn, direction or "", degrees if when else 0.0, rng)
            case Done(ship=ship):
                return movement_4_2.done(state, seat, ship.id)
            case Adjust(ship=ship, delta=delta, fortune=fortune):
                return seamanship_4_2.seamanship(state, seat, ship.id, "adjust", rng, delta=int(delta), fortune=fortune)
            case Heading(ship=ship, direction=direction, degrees=degrees, fortune=fortune):
                return seamanship_4_2.seamanship(
                    state, seat, ship.id, "heading", rng, direction=direction, degrees=degrees, fortune=fortune
                )
            case CutFree(ship=ship, fortune=fortune):
                return seamanship_4_2.seamanship(state, seat, ship.id, "cutfree", rng, fortune=fortune)
            case Reload() | Rally() | Repair() | ChangeSail() | Board() | Row() | TransferFlag() | LandingParty():
                return crew_actions_4_2.crew_action(state, seat, order, rng)
            case _:
                unhandled(order, hint=orders.HELP)

    def _attack(self, state: State, seat: str, order: AttackOrder, rng: Rng) -> list[Event]:
        match order:
            case Broadside():
                return attack_4_3.broadside(state, seat, order, rng)
            case Partial():
                return attack_4_3.partial_fire(state, seat, order, rng)
            case Close(ship=ship, target=target):
                return close_combat_4_3.close(state, seat, ship.id, target.id, rng)
            case LandingAttack(ship=ship, target=target):
                return close_combat_4_3.landing_attack(state, seat, ship.id, target.id, rng)
            case Hold(ship=ship):
                return attack_4_3.hold(state, seat, ship.id)
            case _:
                unhandled(order, hint=orders.HELP)

    # --- orders for autocomplete -----------------------------------------------------------------

    def legal_orders(self, state: State, seat: str) -> list[OakOrder]:
        if state.phase == "over" or not to_act(state) or (seat != UMPIRE and seat not in to_act(state)):
            return []
        side_id = acting_side(state, seat)
        frozen = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)  # each trial starts from a fresh copy of it
        return [o for o in self._candidates(state, seat, side_id) if self._is_legal(frozen, seat, o)]

    def _candidates(self, state: State, seat: str, side_id: str) -> list[OakOrder]:
        if state.phase == "setup":
            return list[OakOrder](orders.setup_candidates(state, side_id))
        if state.phase == "select":
            cards = initiative_cards()
            holder = holder_of_seat(state, seat) if squadron_seats(state) else to_seal(state, side_id)  # or its fleet's next squadron (ch. 9)
            return [] if seat == UMPIRE or holder is None else [Initiative(Ref(k, cards[k].name)) for k in holder.hand]
        if state.phase == "end":
            ship = orders.ref(state.ship(state.pending[0].ship))
            return [Capture(ship), Destroy(ship), Spare(ship)]
        enemies = [orders.ref(t) for t in state.ships if t.controller != side_id and t.on_table]
        if state.phase == "movement":
            ships = [state.ship(state.activation.ship)] if state.activation.ship else movers(state, side_id)
            return [o for ship in ships if self._commands(state, seat, ship) for o in orders.movement_candidates(orders.ref(ship), enemies)]
        return [o for ship in attackers(state, side_id) if self._commands(state, seat, ship)
                for o in orders.attack_candidates(orders.ref(ship), enemies)]

    @staticmethod
    def _commands(state: State, seat: str, ship: ShipState) -> bool:
        """The seat may order the ship: the umpire any, a Squadron's seat its own (ch. 9)."""
        return seat == UMPIRE or seat_of_ship(state, ship) == seat

    def _is_legal(self, frozen: bytes, seat: str, order: OakOrder) -> bool:
        """``order`` applies to the pickled state ``frozen`` (unpickling is a deep copy, several times
        quicker than ``copy.deepcopy`` of this state). The order is tried as built: that its text
        parses back to it is checked for every offered order by tests/test_all_systems.py."""
        trial: State = pickle.loads(frozen)
        try:
            self.apply(trial, seat, order, Rng(DRY_RUN))
        except GameError:
            return False
        return True

    # --- what each seat sees ---------------------------------------------------------------------

    def preview_overlays(self, state: State, seat: str, moved: frozenset[str]) -> list[Overlay]:
        return view.preview_overlays(state, moved)

    def view(self, state: State, seat: str | None) -> View:
        return view.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(state.winner, state.result, tuple(state.details))

    def help(self) -> str:
        """Every order of the notation with what it does (from the order classes), then the cards."""
        lines = [f"{self.name} orders (names match case-insensitively; a unique prefix of one word will do):"]
        lines += [f"`{usage}` - {doc}" for usage, doc in orders.order_help()]
        lines.append(f"Sail settings: {', '.join(SAIL_NAMES.values())}. Terrain kinds: rock, island, shoal, fog.")
        lines.append("Fleet Battles with command=squadron: /game concede gives up your fleet only once every "
                     "Squadron's player of it has conceded; until then the game goes on.")
        lines.append("Cards (house contents, data/oak_and_iron): factions " + ", ".join(factions())
                     + "; upgrade cards " + ", ".join(upgrade_cards()) + "; captains " + ", ".join(captain_cards()) + ".")
        return "\n".join(lines)
