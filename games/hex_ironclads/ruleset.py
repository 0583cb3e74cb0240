"""Hex ironclads as a ``Ruleset``: sealed simultaneous fire, initiative, movement and ramming.

Turn: (1) each side gives one fire order per ship (``<Ship> fire <Target>`` or ``<Ship> hold``)
and ``seal``s them; publicly only a commitment ``seal(text, nonce)`` is shown. When both sides
have sealed (or the umpire orders ``reveal``) the orders and nonces are published and all fire
resolves at once: damage lands after every ship has rolled, so a ship sunk this turn still fires.
(2) Each side rolls d6, ties re-rolled; the lower moves first. Broken-off ships are moved by the
bot toward their home edge. Moving into an enemy's hex rams; the rammer stays in the hex it came
from. (3) Once both sides have moved, the rams are adjudicated in the order they were made (the
book's turn sequence; option ``ram-timing=at-once`` rolls each ram when it happens instead). A
ship rammed this turn still makes its own move, and its damage counts even if it has left the map
meanwhile. (4) The next turn. A side with no ship left fighting loses.
"""

from __future__ import annotations

import re
from typing import ClassVar

from games.core.errors import IllegalOrder, InvalidSyntax, NotAllowed, NotYourTurn, UnknownName, WrongPhase, quote
from games.core.hexgrid import Hex
from games.core.maps import load_map
from games.core.rng import Rng, seal
from games.core.ruleset import (
    UMPIRE,
    Event,
    OptionSpec,
    Order,
    Outcome,
    Ruleset,
    ScenarioInfo,
    Seat,
    private,
    public,
    register,
)
from games.core.view import Counter, Overlay, SideInfo, View
from games.hex_ironclads import orders as notation
from games.hex_ironclads.data import load_scenario, rules, scenario_ids, ship_types, ship_types_are_house
from games.hex_ironclads.rules import (
    all_step_sequences,
    assess_shot,
    break_off_steps,
    can_fire,
    damage,
    describe_roll,
    game_map,
    hex_of,
    hits_of,
    plan_move,
    ram_dice,
    roll_firing_dice,
    targets_for,
)
from games.hex_ironclads.state import (
    BROKEN_OFF,
    FIGHTING,
    FIRE,
    HOLD,
    MOVE,
    OVER,
    SAVED,
    SUNK,
    HexIroncladsState,
    Mark,
    Ram,
    Ship,
    Side,
)

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


def points(n: int) -> str:
    return f"{n} flotation point{'' if n == 1 else 's'}"


def layout_label(state: HexIroncladsState, h: Hex) -> str:
    return game_map(state).layout.label(h)


def dice_word(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


@register("hex-ironclads")
class HexIronclads(Ruleset[HexIroncladsState]):
    id: ClassVar[str] = "hex-ironclads"
    name: ClassVar[str] = "Hex ironclads (Memoir of Battle at Sea style)"
    state_type: ClassVar[type[HexIroncladsState]] = HexIroncladsState
    book: ClassVar[str] = "003_bca610a20888cbc6.txt"

    # --- catalogue -------------------------------------------------------------------------
    def scenarios(self) -> list[ScenarioInfo]:
        found = sorted((load_scenario(s) for s in scenario_ids()), key=lambda s: (s.order, s.id))
        return [ScenarioInfo(s.id, s.name, s.description) for s in found]

    def options(self) -> list[OptionSpec]:
        return list(OPTIONS)

    def help(self) -> str:
        return HELP

    # --- set-up ----------------------------------------------------------------------------
    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> HexIroncladsState:
        chosen = {o.key: o.default for o in OPTIONS}
        for key, value in options.items():
            spec = next((o for o in OPTIONS if o.key == key), None)
            if spec is None:
                raise UnknownName(f"No option called {quote(key)}.", hint=f"Options: {', '.join(o.key for o in OPTIONS)}.")
            if spec.key == "turns":
                if value and not (value.isdigit() and 1 <= int(value) <= 99):
                    raise InvalidSyntax(f"Option `turns` cannot be {quote(value)}.", hint="Give a number of turns from 1 to 99.")
            elif value not in spec.choices:
                raise InvalidSyntax(f"Option {quote(key)} cannot be {quote(value)}.", hint=f"Choose {' or '.join(spec.choices)}.")
            chosen[key] = value
        sc = load_scenario(scenario)
        layout = load_map(sc.map_id).layout
        types = ship_types()
        ships = []
        for spec_ship in sc.ships:
            t = types[spec_ship.type]
            h = layout.parse(spec_ship.hex)
            ships.append(
                Ship(
                    id=slug(spec_ship.name),
                    name=spec_ship.name,
                    side=spec_ship.side,
                    type=t.id,
                    q=h.q,
                    r=h.r,
                    facing=spec_ship.facing,
                    dice=t.dice,
                    move=t.move,
                    flotation=t.flotation,
                    critical=t.critical,
                    ram=t.ram,
                    all_round=t.all_round,
                )
            )
        return HexIroncladsState(
            scenario=sc.id,
            map_id=sc.map_id,
            turn_limit=int(chosen["turns"]) if chosen["turns"] else sc.turn_limit,
            options=chosen,
            sides=[Side(s.id, s.name, s.colour, s.home_edge) for s in sc.sides],
            ships=ships,
            house=sc.house or ship_types_are_house() or rules().house,
        )

    def seats(self, state: HexIroncladsState) -> list[Seat]:
        return [Seat(s.id, s.name, s.id, "side") for s in state.sides] + [
            Seat(UMPIRE, "Umpire", "", "umpire", optional=True)
        ]

    def to_act(self, state: HexIroncladsState) -> list[str]:
        if state.phase == FIRE:
            return [s.id for s in state.sides if not s.sealed]
        if state.phase == MOVE:
            return [state.mover()]
        return []

    # --- orders ----------------------------------------------------------------------------
    def parse_order(self, state: HexIroncladsState, seat: str, text: str) -> Order:
        return notation.parse(state, text)

    def format_order(self, order: Order) -> str:
        return order.text

    def legal_orders(self, state: HexIroncladsState, seat: str) -> list[str]:
        if state.phase == FIRE:
            if seat == UMPIRE:
                return ["reveal"]
            if seat not in {s.id for s in state.sides} or state.side(seat).sealed:
                return []
            side = state.side(seat)
            out: list[str] = []
            for ship in state.ships:
                if ship.side != seat or not can_fire(state, ship):
                    continue
                given = side.orders.get(ship.id)
                if given is None or given != HOLD:
                    out.append(notation.fmt(state, ("hold", ship.id)))
                if given is None or given == HOLD:
                    out.extend(notation.fmt(state, ("fire", ship.id, t.id)) for t, _ in targets_for(state, ship))
            return [*out, "seal"]
        if state.phase == MOVE and seat in (state.mover(), UMPIRE):
            out = []
            for ship in self._to_move(state):
                out.append(notation.fmt(state, ("move", ship.id, "")))
                seen: set[tuple[Hex, int, str]] = set()
                for steps in all_step_sequences(ship.move)[1:]:
                    result = plan_move(state, ship, steps)
                    key = (result.end, result.facing, result.rams)
                    if result.problem or key in seen or (not result.rams and result.end == hex_of(ship) and result.facing == ship.facing):
                        continue
                    seen.add(key)
                    out.append(notation.fmt(state, ("move", ship.id, steps)))
            return [*out, "done"]
        return []

    def apply(self, state: HexIroncladsState, seat: str, order: Order, rng: Rng) -> list[Event]:
        if state.phase == OVER:
            raise WrongPhase("The game is over.", hint=state.result)
        if seat != UMPIRE and seat not in {s.id for s in state.sides}:
            raise NotAllowed(f"{quote(seat)} is not a seat in this game.", hint=f"Seats: {', '.join(s.id for s in state.sides)}, umpire.")
        kind = order.args[0] if order.args else ""
        if kind in ("fire", "hold"):
            return self._fire_order(state, seat, order)
        if kind == "seal":
            return self._seal(state, seat, order, rng)
        if kind == "reveal":
            return self._reveal(state, seat, rng)
        if kind == "move":
            return self._move(state, seat, order, rng)
        if kind == "done":
            return self._done(state, seat, rng)
        raise InvalidSyntax(f"Cannot carry out {quote(order.text)}.", hint=notation.SYNTAX_HINT)

    # --- fire phase ------------------------------------------------------------------------
    def _own_ship(self, state: HexIroncladsState, seat: str, ship: Ship, order: Order) -> Side:
        if seat != UMPIRE and ship.side != seat:
            owner = state.side(ship.side).name
            raise NotAllowed(
                f"{quote(order.text)}: {ship.name} belongs to {owner}; you sit as {state.side(seat).name}.",
                hint="Give orders only to your own ships.",
            )
        return state.side(ship.side)

    def _fire_order(self, state: HexIroncladsState, seat: str, order: Order) -> list[Event]:
        if state.phase != FIRE:
            raise WrongPhase(
                f"{quote(order.text)}: fire orders are given at the start of a turn; now {state.side(state.mover()).name} is moving.",
                hint="Give a move order, `stay` or `done`.",
            )
        ship = state.ship(order.args[1])
        side = self._own_ship(state, seat, ship, order)
        if side.sealed:
            raise IllegalOrder(f"{quote(order.text)}: {side.name} has sealed its fire orders; they cannot be changed this turn.")
        if not can_fire(state, ship):
            why = {BROKEN_OFF: "has broken off", SUNK: "has sunk", SAVED: "has left the battle"}.get(ship.status, "cannot fire")
            raise IllegalOrder(f"{quote(order.text)}: {ship.name} {why} and does not fire.")
        given = side.orders.get(ship.id)
        if order.args[0] == "hold":
            side.orders[ship.id] = HOLD
            return [private(f"Fire order noted (secret until the reveal): {order.text}.", side.id)]
        target = state.ship(order.args[2])
        if target.side == ship.side:
            raise IllegalOrder(f"{quote(order.text)}: {target.name} is one of your own ships.", hint="Fire at an enemy ship.")
        if not target.on_board:
            raise IllegalOrder(f"{quote(order.text)}: {target.name} is no longer on the board ({target.status}).")
        if given:
            raise IllegalOrder(
                f"{quote(order.text)}: {ship.name} already fires at {state.ship(given).name} this turn, and a ship fires at one target only.",
                hint=f"To change it before sealing, give `{ship.name} hold` first.",
            )
        shot = assess_shot(state, ship, target)
        if shot.problem:
            legal = ", ".join(t.name for t, _ in targets_for(state, ship)) or "none"
            raise IllegalOrder(f"{quote(order.text)}: {shot.problem}.", hint=f"{ship.name} can fire at: {legal}.")
        side.orders[ship.id] = target.id
        return [
            private(
                f"Fire order noted (secret until the reveal): {order.text} (range {shot.range}, {shot.arc}, {dice_word(shot.dice)}).",
                side.id,
            )
        ]

    def _sealed_text(self, state: HexIroncladsState, side: Side) -> str:
        parts = []
        for ship in state.ships:
            if ship.side == side.id and can_fire(state, ship):
                target = side.orders.get(ship.id, HOLD)
                args = ("fire", ship.id, target) if target else ("hold", ship.id)
                parts.append(notation.fmt(state, args))
        return f"Turn {state.turn}, {side.name}: " + ("; ".join(parts) if parts else "no ship fires")

    def _seal_side(self, state: HexIroncladsState, side: Side, rng: Rng, by: str) -> list[Event]:
        side.sealed_text = self._sealed_text(state, side)
        side.nonce = rng.nonce(side.sealed_text)
        side.commitment = seal(side.sealed_text, side.nonce)
        side.sealed = True
        return [
            public(f"{side.name} has sealed its fire orders{by}. Commitment: `{side.commitment}`."),
            private(f"Your sealed fire orders: {side.sealed_text} (nonce `{side.nonce}`).", side.id),
        ]

    def _seal(self, state: HexIroncladsState, seat: str, order: Order, rng: Rng) -> list[Event]:
        if state.phase != FIRE:
            raise WrongPhase(f"{quote(order.text)}: fire orders are sealed at the start of a turn; now it is movement.")
        if seat == UMPIRE:
            raise NotAllowed(f"{quote(order.text)}: the umpire does not seal for a side.", hint="Use `reveal` to resolve fire now.")
        side = state.side(seat)
        if side.sealed:
            raise IllegalOrder(f"{quote(order.text)}: {side.name} has already sealed its fire orders this turn.")
        events = self._seal_side(state, side, rng, "")
        if all(s.sealed for s in state.sides):
            events += self._resolve_fire(state, rng)
        return events

    def _reveal(self, state: HexIroncladsState, seat: str, rng: Rng) -> list[Event]:
        if seat != UMPIRE:
            raise NotAllowed("`reveal`: only the umpire may reveal the fire orders early.", hint="Give your fire orders and `seal`.")
        if state.phase != FIRE:
            raise WrongPhase("`reveal`: there are no sealed fire orders to reveal now; it is movement.")
        events: list[Event] = []
        for side in state.sides:
            if not side.sealed:
                events += self._seal_side(state, side, rng, " (sealed as they stood by the umpire's reveal)")
        return events + self._resolve_fire(state, rng)

    def _resolve_fire(self, state: HexIroncladsState, rng: Rng) -> list[Event]:
        events = [public("All fire orders are sealed: here they are, with their nonces.", reveals=True)]
        for side in state.sides:
            events.append(
                public(
                    f"{side.sealed_text} (nonce `{side.nonce}`; check SHA-256 of `nonce:text` = `{side.commitment}`).",
                    reveals=True,
                )
            )
        state.marks = []
        fired = False
        pending: dict[str, int] = {}
        for side in state.sides:
            for ship in state.ships:
                target_id = side.orders.get(ship.id, HOLD) if ship.side == side.id else HOLD
                if not target_id or not can_fire(state, ship):
                    continue
                target = state.ship(target_id)
                shot = assess_shot(state, ship, target)
                if shot.problem:
                    events.append(public(f"{ship.name}'s fire at {target.name} is void: {shot.problem}."))
                    continue
                fired = True
                roll = roll_firing_dice(rng, shot.dice)
                hits = hits_of(roll)
                pending[target.id] = pending.get(target.id, 0) + hits
                text = f"{ship.name} fires at {target.name} (range {shot.range}, {shot.arc}, {dice_word(shot.dice)}): {describe_roll(roll)} = {points(hits)}."
                events.append(public(text, reveals=True))
                state.marks.append(Mark("fire", [(ship.q, ship.r), (target.q, target.r)], ship.side, f"{hits}"))
        for ship in state.ships:
            lost = pending.get(ship.id, 0)
            if lost:
                before = ship.remaining
                notes = damage(state, ship, lost)
                events.append(public(" ".join([f"{ship.name}: FV {before} -> {ship.remaining} of {ship.flotation}.", *notes])))
        if not fired:
            events.append(public("No ship fired this turn."))
        events += self._check_end(state)
        if state.phase != OVER:
            events += self._initiative(state, rng)
        return events

    # --- movement --------------------------------------------------------------------------
    def _initiative(self, state: HexIroncladsState, rng: Rng) -> list[Event]:
        first, second = state.sides
        first.initiative, second.initiative = [], []
        while True:
            a, b = rng.die(6), rng.die(6)
            first.initiative.append(a)
            second.initiative.append(b)
            if a != b:
                break
        rolls = ", ".join(f"{first.name} {a} / {second.name} {b}" for a, b in zip(first.initiative, second.initiative, strict=True))
        lower, higher = (first, second) if first.initiative[-1] < second.initiative[-1] else (second, first)
        state.move_order = [lower.id, higher.id]
        state.moving = 0
        state.phase = MOVE
        for ship in state.ships:
            ship.moved = False
        tie = " (ties re-rolled)" if len(first.initiative) > 1 else ""
        events = [public(f"Initiative: {rolls}{tie}. {lower.name} moves first.", reveals=True)]
        return events + self._advance_movement(state, rng)

    def _to_move(self, state: HexIroncladsState) -> list[Ship]:
        mover = state.mover()
        return [s for s in state.ships if s.side == mover and s.status == FIGHTING and not s.moved]

    def _advance_movement(self, state: HexIroncladsState, rng: Rng) -> list[Event]:
        """Move broken-off ships of the side to move, then wait for its orders or pass on."""
        events: list[Event] = []
        while state.phase == MOVE:
            mover = state.mover()
            for ship in state.ships:
                if ship.side == mover and ship.status == BROKEN_OFF and not ship.moved:
                    events += self._break_off_move(state, ship)
            events += self._check_end(state)
            if state.phase != MOVE or self._to_move(state):
                return events
            state.moving += 1
            if state.moving >= len(state.move_order):
                events += self._movement_over(state, rng)
        return events

    def _break_off_move(self, state: HexIroncladsState, ship: Ship) -> list[Event]:
        steps = break_off_steps(state, ship)
        result = plan_move(state, ship, steps, allow_exit=True, allow_ram=False)
        ship.moved = True
        layout = game_map(state).layout
        start = layout.label(hex_of(ship))
        ship.q, ship.r, ship.facing = result.end.q, result.end.r, result.facing
        shown = " ".join(steps) or "no move"
        if len(result.path) > 1:
            state.marks.append(Mark("path", [(h.q, h.r) for h in result.path], ship.side))
        if result.exits:
            ship.status = SAVED
            return [public(f"{ship.name} (broken off) steers {shown} and leaves by the {state.side(ship.side).home_edge} edge: saved.")]
        return [public(f"{ship.name} (broken off) steers for home: {shown}, {start} -> {layout.label(result.end)}. Facing {game_map(state).compass[result.facing % 6]}.")]

    def _move(self, state: HexIroncladsState, seat: str, order: Order, rng: Rng) -> list[Event]:
        ship = state.ship(order.args[1])
        steps = order.args[2]
        if state.phase != MOVE:
            raise WrongPhase(f"{quote(order.text)}: ships move after the fire orders are revealed.", hint="Give fire orders and `seal` first.")
        self._own_ship(state, seat, ship, order)
        mover = state.side(state.mover())
        if ship.side != mover.id:
            raise NotYourTurn(f"{quote(order.text)}: {mover.name} moves now (it won the initiative roll's order).", hint="Wait for your side's movement.")
        if ship.status != FIGHTING:
            raise IllegalOrder(f"{quote(order.text)}: {ship.name} is {ship.status} and is not under your orders.")
        if ship.moved:
            raise IllegalOrder(f"{quote(order.text)}: {ship.name} has already moved this turn.")
        result = plan_move(state, ship, steps)
        if result.problem:
            raise IllegalOrder(
                f"{quote(order.text)}: {result.problem}.",
                hint="Steps: F forward one hex, P/S turn 60 degrees to port/starboard, one point each; a ram ends the move.",
            )
        layout = game_map(state).layout
        start = layout.label(hex_of(ship))
        ship.q, ship.r, ship.facing, ship.moved = result.end.q, result.end.r, result.facing, True
        if len(result.path) > 1:
            state.marks.append(Mark("path", [(h.q, h.r) for h in result.path], ship.side))
        if result.rams:
            text = f"{ship.name} moves {' '.join(steps)} from {start} and rams {state.ship(result.rams).name}."
        elif steps:
            text = f"{ship.name} moves {' '.join(steps)}: {start} -> {layout.label(result.end)}."
        else:
            text = f"{ship.name} stays at {start}."
        # the facing decides the next turn's fire and moves: say it, in the map's printed compass
        text += f" Facing {game_map(state).compass[result.facing % 6]}."
        events = [public(text)]
        if result.rams:
            target = state.ship(result.rams)
            if state.options.get("ram-timing", "after-movement") == "at-once":
                events += self._ram(state, ship, target, [(ship.q, ship.r), (target.q, target.r)], rng)
            else:
                state.rams.append(Ram(ship.id, target.id, [(ship.q, ship.r), (target.q, target.r)]))
                events.append(public(f"The ram is adjudicated once both sides have moved ({len(state.rams)} pending)."))
        return events + self._after_ship_moved(state, rng)

    def _ram(self, state: HexIroncladsState, ship: Ship, target: Ship, cells: list[tuple[int, int]], rng: Rng) -> list[Event]:
        count = ram_dice(ship)
        roll = roll_firing_dice(rng, count)
        hits = hits_of(roll)
        before = target.remaining
        notes = damage(state, target, hits, struck_before_leaving=True)
        state.marks.append(Mark("ram", list(cells), ship.side, f"{hits}"))
        how = "with her ram" if ship.ram else "without a ram"
        return [
            public(
                " ".join(
                    [
                        f"{ship.name} rams {target.name} {how} ({dice_word(count)}): {describe_roll(roll)} = {points(hits)}.",
                        f"{target.name}: FV {before} -> {target.remaining} of {target.flotation}.",
                        f"{ship.name} stays in {layout_label(state, Hex(*cells[0]))}, the hex she came from.",
                        *notes,
                    ]
                ),
                reveals=True,
            )
        ]

    def _after_ship_moved(self, state: HexIroncladsState, rng: Rng) -> list[Event]:
        events = self._check_end(state)
        if state.phase == MOVE and not self._to_move(state):
            state.moving += 1
            if state.moving >= len(state.move_order):
                return events + self._movement_over(state, rng)
            events += self._advance_movement(state, rng)
        return events

    def _done(self, state: HexIroncladsState, seat: str, rng: Rng) -> list[Event]:
        if state.phase != MOVE:
            raise WrongPhase("`done`: it is the fire phase; give fire orders and `seal`.")
        mover = state.side(state.mover())
        if seat not in (mover.id, UMPIRE):
            raise NotYourTurn(f"`done`: {mover.name} moves now, not {state.side(seat).name}.", hint="Wait for your side's movement.")
        staying = [s for s in self._to_move(state)]
        for ship in staying:
            ship.moved = True
        names = ", ".join(s.name for s in staying)
        events = [public(f"{mover.name} ends its movement" + (f" ({names} stay{'s' if len(staying) == 1 else ''})." if staying else "."))]
        return events + self._after_ship_moved(state, rng)

    def _movement_over(self, state: HexIroncladsState, rng: Rng) -> list[Event]:
        """Both sides have moved: adjudicate the rams in the order made, then end the turn."""
        events: list[Event] = []
        pending, state.rams = state.rams, []
        for ram in pending:
            events += self._ram(state, state.ship(ram.rammer), state.ship(ram.target), ram.cells, rng)
        if pending:
            events += self._check_end(state)
        if state.phase == OVER:
            return events
        return events + self._end_turn(state)

    def _end_turn(self, state: HexIroncladsState) -> list[Event]:
        if state.turn >= state.turn_limit:
            return self._finish_by_limit(state)
        state.turn += 1
        state.phase = FIRE
        state.move_order = []
        state.moving = 0
        for side in state.sides:
            side.orders = {}
            side.sealed = False
            side.sealed_text = side.nonce = side.commitment = ""
            side.initiative = []
        for ship in state.ships:
            ship.moved = False
        return [public(f"Turn {state.turn} begins: both sides give their fire orders and `seal`.")]

    # --- the end ---------------------------------------------------------------------------
    def _check_end(self, state: HexIroncladsState) -> list[Event]:
        if state.phase == OVER:
            return []
        beaten = [s for s in state.sides if not any(sh.side == s.id and sh.status == FIGHTING for sh in state.ships)]
        if not beaten:
            return []
        if len(beaten) == len(state.sides):
            state.winner = None
            state.result = "Neither side has a ship left fighting: a draw."
        else:
            winner = next(s for s in state.sides if s not in beaten)
            state.winner = winner.id
            state.result = f"{beaten[0].name} has no ship left fighting: {winner.name} wins."
        state.phase = OVER
        return [public(f"The battle is over: {state.result}", reveals=True)]

    def _finish_by_limit(self, state: HexIroncladsState) -> list[Event]:
        inflicted = {
            s.id: sum(sh.lost for sh in state.ships if sh.side != s.id) for s in state.sides
        }
        a, b = state.sides
        score = f"{a.name} inflicted {points(inflicted[a.id])}, {b.name} {points(inflicted[b.id])}"
        if inflicted[a.id] == inflicted[b.id]:
            state.winner = None
            state.result = f"Turn limit ({state.turn_limit}) reached; {score}: a draw."
        else:
            winner = a if inflicted[a.id] > inflicted[b.id] else b
            state.winner = winner.id
            state.result = f"Turn limit ({state.turn_limit}) reached; {score}: {winner.name} wins."
        state.phase = OVER
        return [public(f"The battle is over: {state.result}", reveals=True)]

    def _tally(self, state: HexIroncladsState) -> list[str]:
        """Per side: sunk, broken-off, saved and still fighting ships."""
        lines = []
        for side in state.sides:
            parts = []
            for status, label in ((SUNK, "sunk"), (BROKEN_OFF, "broken off"), (SAVED, "saved"), (FIGHTING, "fighting")):
                names = [s.name for s in state.ships if s.side == side.id and s.status == status]
                parts.append(f"{label}: {', '.join(names) if names else 'none'}")
            lines.append(f"{side.name}: " + "; ".join(parts) + ".")
        return lines

    def outcome(self, state: HexIroncladsState) -> Outcome | None:
        if state.phase != OVER:
            return None
        return Outcome(state.winner, state.result, tuple(self._tally(state)))

    # --- views -----------------------------------------------------------------------------
    def view(self, state: HexIroncladsState, seat: str | None) -> View:
        hex_map = game_map(state)
        layout = hex_map.layout
        counters = []
        acting = set(self.to_act(state))
        afloat = {(s.q, s.r) for s in state.ships if s.on_board}
        for ship in state.ships:
            if ship.status == SAVED or (ship.status == SUNK and (ship.q, ship.r) in afloat):
                continue  # saved ships have left; a wreck never hides a ship now in its hex
            markers = (ship.status,) if ship.status in (BROKEN_OFF, SUNK) else ()
            counters.append(
                Counter(
                    id=ship.id,
                    label=ship.name,
                    side=ship.side,
                    pos=(float(ship.q), float(ship.r)),
                    facing=layout.bearing(ship.facing),
                    damage=ship.lost,
                    damage_max=ship.flotation,
                    damage_text=f"FV {ship.remaining}/{ship.flotation}",
                    markers=markers,
                    highlight=state.phase == MOVE and ship.side in acting and ship.status == FIGHTING and not ship.moved,
                )
            )
        overlays = tuple(
            Overlay(
                "path" if m.kind == "path" else ("ram" if m.kind == "ram" else "fire"),
                tuple((float(q), float(r)) for q, r in m.cells),
                m.side,
                m.text,
            )
            for m in state.marks
        )
        sc = load_scenario(state.scenario)
        return View(
            board=hex_map.board(),
            viewer=seat,
            sides=tuple(SideInfo(s.id, s.name, s.colour) for s in state.sides),
            counters=tuple(counters),
            overlays=overlays,
            status=tuple(self._status(state)),
            title=f"{sc.name}, turn {state.turn}",
            private_text=tuple(self._private_lines(state, seat)),
        )

    def _status(self, state: HexIroncladsState) -> list[str]:
        if state.phase == FIRE:
            lines = [f"Turn {state.turn} of {state.turn_limit}: fire orders (sealed until both sides have sealed)."]
        elif state.phase == MOVE:
            lines = [f"Turn {state.turn} of {state.turn_limit}: movement, {state.side(state.mover()).name} to move."]
        else:
            lines = [f"Game over after turn {state.turn}: {state.result}"]
        for side in state.sides:
            counts = []
            for status, label in ((FIGHTING, "fighting"), (BROKEN_OFF, "broken off"), (SUNK, "sunk"), (SAVED, "saved")):
                n = sum(1 for s in state.ships if s.side == side.id and s.status == status)
                if n:
                    counts.append(f"{n} {label}")
            line = f"{side.name} (home edge {side.home_edge}): {', '.join(counts)}"
            if state.phase == FIRE:
                line += f"; fire orders sealed, commitment {side.commitment[:16]}..." if side.sealed else "; writing fire orders"
            elif state.phase == MOVE and side.initiative:
                line += f"; initiative {'/'.join(str(v) for v in side.initiative)}"
            lines.append(line + ".")
        if state.rams:
            made = ", ".join(f"{state.ship(r.rammer).name} rammed {state.ship(r.target).name}" for r in state.rams)
            lines.append(f"Rams to adjudicate once both sides have moved: {made}.")
        for ship in state.ships:
            if ship.status in (FIGHTING, BROKEN_OFF):
                extra = " (broken off)" if ship.status == BROKEN_OFF else ""
                lines.append(f"{ship.name} [{state.side(ship.side).name}, {ship_types()[ship.type].name if ship.type in ship_types() else ship.type}]: FV {ship.remaining}/{ship.flotation}{extra}.")
        if state.house:
            lines.append("House values in use (ship types, maps, scenarios).")
        return lines

    def _private_lines(self, state: HexIroncladsState, seat: str | None) -> list[str]:
        """A side sees its own orders this turn; the umpire sees every side's."""
        if seat is None:
            return []
        if state.phase == MOVE and seat in (state.mover(), UMPIRE):
            waiting = [f"{s.name} ({s.move} points)" for s in self._to_move(state)]
            return [f"{state.side(state.mover()).name} still to move: {', '.join(waiting)}; `done` when finished."]
        if state.phase != FIRE:
            return []
        sides = state.sides if seat == UMPIRE else [s for s in state.sides if s.id == seat]
        lines = []
        for side in sides:
            if side.sealed:
                lines.append(f"{side.name} sealed: {side.sealed_text} (nonce {side.nonce}).")
                continue
            given = [
                notation.fmt(state, ("fire", sid, t) if t else ("hold", sid)) for sid, t in side.orders.items()
            ]
            waiting = [s.name for s in state.ships if s.side == side.id and can_fire(state, s) and s.id not in side.orders]
            lines.append(f"{side.name} fire orders so far: {'; '.join(given) if given else 'none'}.")
            if waiting:
                lines.append(f"{side.name} ships without an order (they hold if you seal now): {', '.join(waiting)}.")
        return lines
