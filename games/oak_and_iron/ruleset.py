"""The Oak & Iron ruleset: seats, orders, views (a continuous table) and the outcome."""

from __future__ import annotations

import copy

from games.core.errors import GameError, InvalidSyntax, WrongPhase, quote
from games.core.geometry import add, scale
from games.core.rng import Rng
from games.core.ruleset import (
    UMPIRE,
    Event,
    OptionSpec,
    Order,
    Outcome,
    Ruleset,
    ScenarioInfo,
    Seat,
    register,
)
from games.core.view import Arrow, Board, Counter, Overlay, SideInfo, Terrain, View
from games.oak_and_iron import engine as E
from games.oak_and_iron import orders as O
from games.oak_and_iron import play as P
from games.oak_and_iron.cards import event_cards, initiative_cards, rules, scenario_files
from games.oak_and_iron.measure import CORNER_CONTACT, WIND_BEARING, broadside_strip
from games.oak_and_iron.setup import BUILT, new_game
from games.oak_and_iron.state import SAIL_NAMES, OakState

PHASE_NAMES = {
    "select": "Initiative Phase (sealing cards)",
    "movement": "Movement Phase",
    "attack": "Attack Phase",
    "end": "End Phase",
    "over": "Game over",
}


@register("oak-and-iron")
class OakAndIron(Ruleset[OakState]):
    id = "oak-and-iron"
    name = "Oak & Iron"
    state_type = OakState
    book = "001_7f6407afdde9b010.txt"

    def scenarios(self) -> list[ScenarioInfo]:
        from games.core.data import load

        out = []
        for key, path in sorted(scenario_files().items()):
            rec = load(path)
            out.append(ScenarioInfo(key, rec.str("name"), rec.opt_str("description", "")))
        for key in BUILT:
            size = rules().size(key)
            out.append(
                ScenarioInfo(
                    key,
                    f"{key.title()} ({size.points} points)",
                    f"Squadrons of {size.min_ships}-{size.max_ships} ships bought with fleet_a/fleet_b options.",
                )
            )
        return out

    def options(self) -> list[OptionSpec]:
        return [
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
            OptionSpec("weather", "The weather edge (north, east, south, west); default from the scenario.", ""),
            OptionSpec("defender", "The defending side (a or b), who wins a tie at the turn limit.", ""),
            OptionSpec("fleet_a", "Patrol/Skirmish/Engagement: Squadron A, e.g. petite-fregate+skill1/sloop (flagship first).", ""),
            OptionSpec("fleet_b", "Squadron B in the same notation.", ""),
            OptionSpec("admiral_a", "Admiral of Squadron A: untested, capable, veteran, renowned.", "untested"),
            OptionSpec("admiral_b", "Admiral of Squadron B.", "untested"),
            OptionSpec("hand_a", "Initiative hand A, card keys separated by / (default: a legal hand).", ""),
            OptionSpec("hand_b", "Initiative hand B.", ""),
        ]

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> OakState:
        clean = {k: v for k, v in options.items() if v != ""}
        for key, choices in (
            ("ships_block_sight", ("yes", "no")),
            ("lost_admiral", ("fortune", "new")),
            ("corner_contact", CORNER_CONTACT),
        ):
            if key in clean and clean[key] not in choices:
                raise InvalidSyntax(f"Option {key}={quote(clean[key])} must be one of {', '.join(choices)}.")
        return new_game(scenario, clean, rng)

    def seats(self, state: OakState) -> list[Seat]:
        seats = [Seat(s.id, s.name, side=s.id, kind="side") for s in state.sides]
        return [*seats, Seat(UMPIRE, "Umpire", kind="umpire", optional=True)]

    def to_act(self, state: OakState) -> list[str]:
        return P.to_act(state)

    def parse_order(self, state: OakState, seat: str, text: str) -> Order:
        return O.parse(state, text)

    def apply(self, state: OakState, seat: str, order: Order, rng: Rng) -> list[Event]:
        before = rng.counter
        events = self._apply(state, seat, order, rng)
        if rng.counter == before:  # nothing random and nothing hidden came out: the order may be undone
            events = [Event(e.text, e.to, False) for e in events]
        return events

    def _apply(self, state: OakState, seat: str, order: Order, rng: Rng) -> list[Event]:
        if state.phase == "over":
            raise WrongPhase("The game is over.")
        kind = order.args[0] if order.args else ""
        if kind == "measure":
            return P.order_measure(state, order)
        if kind == "initiative":
            return P.order_initiative(state, seat, order.args[1], rng)
        if state.phase == "select":
            raise WrongPhase(
                f"{quote(order.text)}: the players are sealing initiative cards now.", hint="Write `initiative <card>`."
            )
        if kind in ("capture", "destroy", "spare"):
            return P.order_capture(state, seat, order, rng)
        events: list[Event] = []
        handlers = {
            "seamanship": P.order_seamanship,
            "move": P.order_move,
            "crew": P.order_crew,
            "broadside": P.order_broadside,
            "partial": P.order_partial,
            "close": P.order_close,
            "landing-attack": P.order_landing_attack,
        }
        if kind in handlers:
            return events + handlers[kind](state, seat, order, rng)
        if kind == "done":
            return events + P.order_done(state, seat, order.args[1], rng)
        if kind == "hold":
            return events + P.order_hold(state, seat, order.args[1], rng)
        raise InvalidSyntax(f"Cannot apply {quote(order.text)}.", hint=O.HELP)

    # --- orders for autocomplete -----------------------------------------------------------------

    def legal_orders(self, state: OakState, seat: str) -> list[str]:
        if state.phase == "over" or (seat != UMPIRE and seat not in P.to_act(state)):
            return []
        side_id = P.to_act(state)[0] if seat == UMPIRE else seat
        if state.phase == "select":
            if seat == UMPIRE:
                return []
            return [f"initiative {initiative_cards()[k].name}" for k in state.side(side_id).hand]
        if state.phase == "end":
            p = state.pending[0]
            name = state.ship(p.ship).name
            return [f"capture {name}", f"destroy {name}", f"spare {name}"]
        candidates: list[str] = []
        if state.phase == "movement":
            ships = [state.ship(state.activation.ship)] if state.activation.ship else P.movers(state, side_id)
            for ship in ships:
                n = ship.name
                candidates += [f"{n} move", f"{n} move turn-end port 45", f"{n} move turn-end starboard 45"]
                candidates += [f"{n} move turn-start port 20", f"{n} move turn-start starboard 20"]
                candidates += [f"{n} done", f"{n} crew reload port", f"{n} crew reload starboard", f"{n} crew rally"]
                candidates += [f"{n} crew repair", f"{n} crew sail up", f"{n} crew sail down", f"{n} seamanship adjust +1"]
                candidates += [f"{n} seamanship heading port 30", f"{n} seamanship cutfree", f"{n} crew row"]
                candidates += [f"{n} crew board {t.name}" for t in state.ships if t.controller != side_id and t.on_table]
        else:
            for ship in P.attackers(state, side_id):
                n = ship.name
                for t in state.ships:
                    if t.controller == side_id or not t.on_table:
                        continue
                    candidates += [f"{n} broadside port {t.name}", f"{n} broadside starboard {t.name}", f"{n} partial {t.name}"]
                    candidates += [f"{n} close {t.name}"]
                candidates.append(f"{n} hold")
        return [c for c in candidates if self._is_legal(state, seat, c)]

    def _is_legal(self, state: OakState, seat: str, text: str) -> bool:
        trial = copy.deepcopy(state)
        try:
            self.apply(trial, seat, self.parse_order(trial, seat, text), Rng(b"legal-orders-dry-run-seed-000000"))
        except GameError:
            return False
        return True

    # --- what each seat sees ---------------------------------------------------------------------

    def view(self, state: OakState, seat: str | None) -> View:
        r = rules()
        terrain = tuple(Terrain(t.kind, tuple(t.points), label=t.label) for t in state.terrain)
        wind = WIND_BEARING[state.weather_edge]
        board = Board(
            kind="table",
            key=f"oak-and-iron:{state.scenario}:{state.table_width:g}x{state.table_height:g}",
            name=state.scenario_name,
            width=state.table_width,
            height=state.table_height,
            table_terrain=terrain,
        )
        counters: list[Counter] = []
        for ship in state.ships:
            if not ship.on_table:
                continue
            markers = []
            if ship.reload_port or ship.reload_starboard:
                markers.append("reload")
            if ship.crippled:
                markers.append("crippled")
            if ship.shaken:
                markers.append("shaken")
            if ship.captured_by:
                markers.append("captured")
            if ship.aground:
                markers.append("grounded")
            if ship.entangled:
                markers.append("boarding")
            if ship.sail == "anchored":
                markers.append("stopped")
            if ship.flagship:
                markers.append("flag")
            reload = "".join(x for x, on in (("P", ship.reload_port), ("S", ship.reload_starboard)) if on)
            counters.append(
                Counter(
                    id=ship.id,
                    label=ship.name,
                    side=ship.controller,
                    pos=(ship.x, ship.y),
                    facing=ship.heading,
                    damage=ship.damage,
                    damage_max=r.damage_max,
                    damage_text=f"D{ship.damage} F{ship.fatigue}" + (f" R:{reload}" if reload else ""),
                    markers=tuple(markers),
                    highlight=ship.id in (state.focus, state.activation.ship),
                    size=(ship.length, ship.beam),
                )
            )
            if ship.moved and not ship.attacked and state.phase in ("movement", "attack"):
                stern = add(ship.base.edge_midpoint("stern"), scale(ship.base.forward, -0.4))
                counters.append(Counter(f"{ship.id}-wake", "wake", ship.controller, stern, ship.heading, kind="wake", size=(0.6, ship.beam)))
            if ship.landing is not None:
                counters.append(Counter(f"{ship.id}-landing", f"{ship.name} landing party", ship.controller, ship.landing, kind="landing"))
        overlays: list[Overlay] = [Overlay("path" if m.kind == "path" else "fire", tuple(m.points), m.side, m.text) for m in state.marks]
        focus = state.activation.ship or state.focus
        if focus:
            ship = state.ship(focus)
            if ship.on_table:
                for band in ("pistol_shot", "musket_shot", "cannon_shot"):
                    overlays.append(
                        Overlay("ring", ((ship.x, ship.y),), ship.controller, f"{r.distance(band):g}\"", radius=r.distance(band) + ship.beam / 2)
                    )
                for edge in ("port", "starboard"):
                    strip = broadside_strip(ship.base, edge, r.distance("cannon_shot"))
                    overlays.append(Overlay("arc", strip, ship.controller, f"{edge} broadside path"))
        status = [f"Turn {state.turn}/{r.turn_limit} - {PHASE_NAMES.get(state.phase, state.phase)}"]
        if state.initiative:
            status.append(f"Initiative: {state.side(state.initiative).name}")
        acting = P.to_act(state)
        if acting:
            status.append("To act: " + ", ".join(state.side(a).name for a in acting))
        if state.activation.ship:
            act = state.activation
            status.append(f"Activating {state.ship(act.ship).name}: speed {act.speed}, {act.pos_text}")
        for side in state.sides:
            face = initiative_cards()[side.face_up].name if side.face_up else "-"
            sealed = "card sealed" if side.sealed else "no card sealed"
            status.append(
                f"{side.name}: admiral {side.admiral_name} ({side.admiral_value}), fortune {side.fortune}, strike points {side.strike_points}, "
                f"face-up {face}, {sealed}, {len(side.hand)} cards in hand"
            )
        if state.events_active:
            status.append("Events: " + ", ".join(event_cards()[e].name for e in state.events_active))
        for ship in state.ships:
            status.append(E.describe_ship(ship) + ("" if ship.on_table else f" ({ship.status})"))
        status.append(f"House values in use (data/oak_and_iron); wind blows from the {state.weather_edge} edge")
        private_text: list[str] = []
        for side in state.sides:
            if seat in (side.id, UMPIRE):
                private_text.append(P.hand_text(state, side.id))
                if side.sealed:
                    private_text.append(f"{side.name} sealed: {initiative_cards()[side.sealed].name} (nonce {side.sealed_nonce})")
        return View(
            board=board,
            viewer=seat,
            sides=tuple(SideInfo(s.id, s.name, s.colour) for s in state.sides),
            counters=tuple(counters),
            overlays=tuple(overlays),
            arrows=(Arrow("wind", wind, "wind"),),
            status=tuple(status),
            title=f"Oak & Iron - {state.scenario_name} - turn {state.turn}",
            private_text=tuple(private_text),
        )

    def outcome(self, state: OakState) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(state.winner, state.result, tuple(state.details))

    def help(self) -> str:
        return f"{self.name}: {O.HELP} Sail settings: {', '.join(SAIL_NAMES.values())}."
