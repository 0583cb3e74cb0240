"""Ironclad Draughts as a Ruleset: set-up, seats, the order notation, activations and views.

An activation is ONE order (move and fire together, e.g. ``move 2 turn port fire Affondatore``):
by post, one message per ship keeps the game moving, and nothing random happens between the move
and the fire, so the owner can choose the target knowing where the ship will be. The activation's
damage-control draw is made by the bot as soon as the ship's turn comes (reported with the previous
order), so the owner knows how the ship can move before writing the order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from games.core.decks import Deck, card_name, rank_of, standard_cards
from games.core.errors import (
    IllegalOrder,
    InvalidSyntax,
    NotAllowed,
    NotYourTurn,
    UnknownName,
    WrongPhase,
    quote,
    resolve_name,
)
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, OptionSpec, Order, Outcome, Ruleset, ScenarioInfo, Seat, public
from games.core.squaregrid import HEADING_NAMES, Square, parse_heading
from games.core.view import Board, Counter, Overlay, SideInfo, View
from games.ironclad_draughts import mechanics as m
from games.ironclad_draughts.records import ScenarioSpec, ShipEntry, SideSpec, house_values, scenarios, ship_classes
from games.ironclad_draughts.state import (
    AFLOAT,
    CONNING,
    ENGINE,
    FIRE,
    KIND_OF_RANK,
    OFF,
    STEERING,
    SUNK,
    DamageCard,
    GameState,
    Gun,
    Mark,
    Ship,
    SideState,
)

SYSTEM_ID = "ironclad-draughts"
OVERLAY_KINDS: dict[str, Literal["path", "fire", "ram"]] = {"path": "path", "fire": "fire", "ram": "ram"}
PORT_WORDS = {"port": -1, "p": -1, "larboard": -1}
STARBOARD_WORDS = {"starboard": 1, "stbd": 1, "s": 1, "sb": 1}
AHEAD_WORDS = {"ahead": 0, "a": 0, "straight": 0}
ACTION_WORDS = ("move", "fire", "pass")

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


@dataclass(frozen=True)
class Plan:
    """One activation order, validated against the state."""

    ship: str
    kind: str  # "move" (free movement), "forced" (pass / fire for a damaged ship) or "stop" (damaged_may_stop)
    offset: int = 0
    distance: int = 0
    turn: int = 0  # -2 port, +2 starboard
    leave: bool = False
    target: str = ""


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


def _options_spec() -> list[OptionSpec]:
    return [
        OptionSpec("seats", "One seat per squadron or one per ship.", "squadron", ("squadron", "ship")),
        OptionSpec("umpire_deals", "The seated umpire deals each turn with `deal`.", "no", ("no", "yes")),
        OptionSpec(
            "damage_shuffle",
            "Reshuffle the damage pack's discards only when it runs out (ruling) or at every deal (Sequence 1).",
            "when-empty",
            ("when-empty", "each-turn"),
        ),
        OptionSpec(
            "pass_through",
            "A two-square move may pass through an occupied square (the book is silent; house: no).",
            "no",
            ("no", "yes"),
        ),
        OptionSpec(
            "engine_hit",
            "Engine Hit: one square straight ahead at the next activation, then stopped until repaired "
            "(stop, the ruling) or one square straight ahead at every activation until repaired (ahead).",
            "stop",
            ("stop", "ahead"),
        ),
        OptionSpec(
            "damaged_may_stop",
            "Whether a damaged ship (damage card in force or flotation lost) may stop: no (the ruling: it must "
            "move unless damage forbids) or yes (Movement 2 read literally).",
            "no",
            ("no", "yes"),
        ),
        OptionSpec("turn_limit", "End after this many turns (0 = no limit, as the book).", "0"),
        OptionSpec("squadron1", "Replace the first squadron: class ids joined by +, e.g. inflexible+devastation.", ""),
        OptionSpec("squadron2", "Replace the second squadron, as squadron1.", ""),
        OptionSpec("board", "Board size WxH (default: the scenario's).", ""),
    ]


def _parse_options(options: dict[str, str]) -> dict[str, str]:
    specs = {o.key: o for o in _options_spec()}
    out = {k: s.default for k, s in specs.items()}
    for key, value in options.items():
        k = key.strip().casefold()
        v = value.strip()
        if k not in specs:
            raise UnknownName(f"No Ironclad Draughts option {quote(key)}.", hint=f"Options: {', '.join(specs)}.")
        spec = specs[k]
        if spec.choices and v.casefold() not in spec.choices:
            raise InvalidSyntax(
                f"Option {k}={quote(value)} is not allowed.", hint=f"Choose {' or '.join(spec.choices)}."
            )
        out[k] = v.casefold() if spec.choices else v
    if not out["turn_limit"].isdigit():
        raise InvalidSyntax(f"Option turn_limit={quote(out['turn_limit'])} must be a whole number (0 = none).")
    out["turn_limit"] = str(int(out["turn_limit"]))
    return out


def _squadron_from_option(text: str, base: SideSpec) -> SideSpec:
    classes = ship_classes()
    names = {cid: c.name for cid, c in classes.items()}
    entries: list[ShipEntry] = []
    for part in text.split("+"):
        part = part.strip()
        if not part:
            continue
        cls_text, _, name = part.partition(":")
        cid = resolve_name(cls_text, names, "ship class")
        entries.append(ShipEntry(name.strip() or classes[cid].name, cid))
    if not entries:
        raise InvalidSyntax(f"Squadron {quote(text)} names no ship classes.", hint=f"Classes: {', '.join(classes)}.")
    return SideSpec(base.id, base.name, base.colour, tuple(entries))


def _spread(count: int, width: int) -> list[int]:
    """Files for ``count`` ships spread evenly across a back rank of ``width`` squares."""
    return [((2 * i + 1) * width) // (2 * count) for i in range(count)]


class IroncladDraughts(Ruleset[GameState]):
    id = SYSTEM_ID
    name = "Ironclad Draughts"
    state_type = GameState
    book = "004_959075e1cdcc0727.txt"

    # --- set-up ---------------------------------------------------------------------------------
    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo(s.id, s.name, s.description) for s in scenarios().values()]

    def options(self) -> list[OptionSpec]:
        return _options_spec()

    def help(self) -> str:
        return HELP

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> GameState:
        specs = scenarios()
        scen_id = resolve_name(scenario or "standard", {k: s.name for k, s in specs.items()}, "scenario")
        spec: ScenarioSpec = specs[scen_id]
        opts = _parse_options(options)
        width, height = spec.width, spec.height
        if opts["board"]:
            size = re.fullmatch(r"\s*(\d+)\s*[x×]\s*(\d+)\s*", opts["board"])
            if not size or not (3 <= int(size[1]) <= 26 and 3 <= int(size[2]) <= 26):
                raise InvalidSyntax(
                    f"Option board={quote(opts['board'])} is not a size.", hint="Write it like 8x8 (3 to 26)."
                )
            width, height = int(size[1]), int(size[2])
        sides = list(spec.sides)
        for i, key in enumerate(("squadron1", "squadron2")):
            if opts[key]:
                sides[i] = _squadron_from_option(opts[key], sides[i])
        classes = ship_classes()
        ships: list[Ship] = []
        used: set[str] = set()
        for index, side in enumerate(sides):
            if len(side.ships) > width:
                raise IllegalOrder(
                    f"{side.name} has {len(side.ships)} ships but the back rank has only {width} squares.",
                    hint="Choose a wider board (option board=WxH) or fewer ships.",
                )
            rank = 0 if index == 0 else height - 1
            heading = 0 if index == 0 else 4
            for entry, file in zip(side.ships, _spread(len(side.ships), width), strict=True):
                name = entry.name
                n = 2
                while _slug(name) in used:
                    name = f"{entry.name} {n}"
                    n += 1
                used.add(_slug(name))
                cls = classes[entry.class_id]
                guns = [Gun(g.name, g.calibre, g.arc) for g in cls.guns for _ in range(g.count)]
                ships.append(
                    Ship(
                        id=_slug(name),
                        name=name,
                        short=entry.short if name == entry.name else "",
                        class_id=cls.id,
                        class_name=cls.name,
                        side=side.id,
                        x=file if index == 0 else width - 1 - file,
                        y=rank,
                        heading=heading,
                        flotation=cls.flotation,
                        flotation_max=cls.flotation,
                        guns=guns,
                        home_rank=rank,
                        far_rank=height - 1 - rank,
                    )
                )
        state = GameState(
            scenario=spec.id,
            scenario_name=spec.name,
            width=width,
            height=height,
            sides=[SideState(s.id, s.name, s.colour) for s in sides],
            ships=ships,
            options=opts,
            activation_deck=Deck.of("activation", standard_cards(0)),
            damage_deck=Deck.of("damage", standard_cards(2)),
        )
        # The umpire's shuffles (Sequence 1 and 2).
        state.damage_deck.shuffle(rng)
        state.activation_deck.shuffle(rng)
        if opts["umpire_deals"] == "yes":
            state.phase = "deal"
        else:
            lines: list[str] = []
            m.deal(state, rng, lines)
            m.advance(state, rng, lines)
        return state

    # --- seats ------------------------------------------------------------------------------------
    def check_start(self, state: GameState, seated: set[str]) -> None:
        if state.options.get("umpire_deals") == "yes" and UMPIRE not in seated:
            raise WrongPhase(
                "Option umpire_deals=yes needs someone in the umpire seat, or nobody would ever deal.",
                hint="Take the seat with /game join seat:umpire, or start a new game without that option.",
            )

    def seats(self, state: GameState) -> list[Seat]:
        out: list[Seat] = []
        if state.options.get("seats") == "ship":
            out = [Seat(s.id, f"{s.name} ({m.side_name(state, s.side)})", s.side, "ship") for s in state.ships]
        else:
            out = [Seat(s.id, s.name, s.id, "side") for s in state.sides]
        out.append(Seat(UMPIRE, "Umpire", "", "umpire", optional=True))
        return out

    def owner(self, state: GameState, ship: Ship) -> str:
        return ship.id if state.options.get("seats") == "ship" else ship.side

    def to_act(self, state: GameState) -> list[str]:
        if state.phase == "over":
            return []
        if state.phase == "deal":
            return [UMPIRE]
        return [self.owner(state, m.ship_by_id(state, state.active))]

    # --- orders -----------------------------------------------------------------------------------
    def parse_order(self, state: GameState, seat: str, text: str) -> Order:
        words = text.split()
        if not words:
            raise InvalidSyntax("Empty order.", hint="Try `move 2`, `move 1 turn port fire SHIP` or `pass`.")
        head = words[0].casefold()
        if head in ("deal", "adjust"):
            if seat != UMPIRE:
                raise NotAllowed(
                    f"Only the umpire may {quote(head)}.", hint="Players order their own ship when it is active."
                )
            if state.phase == "over":
                raise WrongPhase(f"The game is over; {quote(text)} changes nothing.")
            if head == "deal":
                if state.phase == "deal" and len(words) != 1:
                    raise InvalidSyntax(f"{quote(text)}: `deal` takes nothing after it.", hint="Write `deal`.")
                if state.phase != "deal":
                    raise WrongPhase(
                        f"{quote(text)}: there is nothing to deal now.", hint="The turn's cards are already dealt."
                    )
                return Order("deal")
            return Order(self._parse_adjust(state, text, words[1:]))
        plan = self._parse_activation(state, seat, text)
        return Order(self._format_plan(state, plan))

    def _parse_activation(self, state: GameState, seat: str, text: str) -> Plan:
        if state.phase == "over":
            raise WrongPhase(f"The game is over; {quote(text)} cannot be played.")
        if state.phase == "deal":
            raise WrongPhase(
                f"{quote(text)}: the turn's cards are not dealt yet.", hint="The umpire deals with `deal`."
            )
        active = m.ship_by_id(state, state.active)
        words = text.split()
        lowered = [w.casefold() for w in words]
        idx = next((i for i, w in enumerate(lowered) if w in ACTION_WORDS), None)
        if idx is None:
            raise InvalidSyntax(
                f"{quote(text)} is not an order.", hint="Orders start with `move`, `fire` or `pass` (see help)."
            )
        if idx > 0:
            named = self._resolve_ship(state, " ".join(words[:idx]))
            if named.id != active.id:
                if seat != UMPIRE and named.side != self._side_of_seat(state, seat):
                    raise NotYourTurn(
                        f"{quote(text)}: {named.name} is not your ship.",
                        hint=f"It belongs to {self._seat_label(state, self.owner(state, named))}.",
                    )
                raise NotYourTurn(
                    f"{quote(text)}: it is {active.name}'s activation ({card_name(active.card)}), not {named.name}'s.",
                    hint=self._when(state, named),
                )
        owner = self.owner(state, active)
        if seat not in (UMPIRE, owner):
            raise NotYourTurn(
                f"{quote(text)}: it is {active.name}'s activation ({card_name(active.card)}), "
                f"ordered by {self._seat_label(state, owner)}.",
            )
        rest = lowered[idx:]
        orig = words[idx:]
        mode = m.movement_mode(active)
        if rest[0] == "move":
            if mode != "free":
                raise IllegalOrder(
                    f"{quote(text)}: {active.name} cannot choose its move: {self._damage_reason(active)}.",
                    hint="Order `pass` or `fire TARGET`; the bot makes the forced move.",
                )
            return self._parse_move(state, active, text, rest[1:], orig[1:])
        if mode == "free" and not self._may_stop(state, active):
            raise IllegalOrder(
                f"{quote(text)}: {active.name} must move first (ships may not stop unless damaged).",
                hint="Write e.g. `move 2` or `move 1 fire TARGET`.",
            )
        kind = "stop" if mode == "free" else "forced"
        result = m.stay(active) if kind == "stop" else m.forced_move(state, active)
        if rest[0] == "pass":
            if len(rest) != 1:
                raise InvalidSyntax(f"{quote(text)}: `pass` takes nothing after it.")
            return Plan(active.id, kind)
        if len(rest) < 2:
            raise InvalidSyntax(f"{quote(text)}: fire at which ship?", hint="Write `fire TARGET`.")
        target = self._check_fire(state, active, result, " ".join(orig[1:]), text)
        return Plan(active.id, kind, target=target.id)

    def _may_stop(self, state: GameState, ship: Ship) -> bool:
        """Option damaged_may_stop=yes: a ship with damage in force or flotation lost may stop (Movement 2)."""
        damaged = bool(ship.damage) or ship.flotation < ship.flotation_max
        return state.options.get("damaged_may_stop") == "yes" and damaged

    def _parse_move(self, state: GameState, ship: Ship, text: str, rest: list[str], orig: list[str]) -> Plan:
        pos = 0
        offset = 0
        if rest and rest[0] in ("diag", "diagonal"):
            if len(rest) < 2 or rest[1] not in {**PORT_WORDS, **STARBOARD_WORDS}:
                raise InvalidSyntax(f"{quote(text)}: `diag` needs `port` or `starboard`.")
            offset = -1 if rest[1] in PORT_WORDS else 1
            distance = 1
            pos = 2
        else:
            if not rest or not rest[0].isdigit():
                raise InvalidSyntax(f"{quote(text)}: how many squares?", hint="Write `move 1` or `move 2`.")
            distance = int(rest[0])
            pos = 1
            if pos < len(rest) and rest[pos] in {**PORT_WORDS, **STARBOARD_WORDS, **AHEAD_WORDS}:
                word = rest[pos]
                offset = PORT_WORDS.get(word, STARBOARD_WORDS.get(word, 0))
                pos += 1
        turn = 0
        if pos < len(rest) and rest[pos] == "turn":
            if pos + 1 >= len(rest) or rest[pos + 1] not in {**PORT_WORDS, **STARBOARD_WORDS}:
                raise InvalidSyntax(f"{quote(text)}: `turn` needs `port` or `starboard`.")
            turn = -2 if rest[pos + 1] in PORT_WORDS else 2
            pos += 2
        leave = False
        if pos < len(rest) and rest[pos] == "leave":
            leave = True
            pos += 1
        target_text = ""
        if pos < len(rest) and rest[pos] == "fire":
            target_text = " ".join(orig[pos + 1 :])
            if not target_text:
                raise InvalidSyntax(f"{quote(text)}: fire at which ship?")
            pos = len(rest)
        if pos != len(rest):
            raise InvalidSyntax(
                f"{quote(text)}: did not understand {quote(' '.join(orig[pos:]))}.",
                hint="Form: `move N [port|starboard] [turn port|starboard] [leave] [fire TARGET]`.",
            )
        allowed = m.free_distances(ship.heading, offset)
        if distance not in allowed:
            diagonal = len(allowed) == 1
            raise IllegalOrder(
                f"{quote(text)}: {ship.name} may move {'only 1 square diagonally' if diagonal else '1 or 2 squares'} "
                f"in that direction, not {distance}.",
                hint="Ships move 1-2 squares orthogonally or 1 diagonally, within 45 degrees of the bow.",
            )
        result = m.simulate_move(state, ship, offset, distance, turn)
        if result.blocked_by:
            other = m.ship_by_id(state, result.blocked_by)
            raise IllegalOrder(
                f"{quote(text)}: {other.name} at {m.label(Square(other.x, other.y))} is in the way.",
                hint="A ship may not pass through another; `move 1` ends in its square (a ram).",
            )
        if result.left and not leave:
            raise IllegalOrder(
                f"{quote(text)}: that move takes {ship.name} off the board over {m.exit_text(state, result.path[-1])}.",
                hint="Add `leave` if you mean it (a ship that leaves can never return), or choose another move.",
            )
        if leave and not result.left:
            raise IllegalOrder(f"{quote(text)}: `leave` given but that move stays on the board.", hint="Drop `leave`.")
        if result.left and (turn or target_text):
            raise IllegalOrder(f"{quote(text)}: a ship leaving the board can neither turn nor fire.")
        target = ""
        if target_text:
            if result.rams:
                raise IllegalOrder(
                    f"{quote(text)}: that move rams {m.ship_by_id(state, result.rams).name}; a ramming ship may not fire.",
                    hint="Drop the `fire` part.",
                )
            target = self._check_fire(state, ship, result, target_text, text).id
        return Plan(ship.id, "move", offset, distance, turn, leave, target)

    def _check_fire(self, state: GameState, ship: Ship, result: m.MoveResult, target_text: str, text: str) -> Ship:
        target = self._resolve_ship(state, target_text)
        if result.left:
            raise IllegalOrder(f"{quote(text)}: {ship.name} leaves the board and cannot fire.")
        if result.rams:
            raise IllegalOrder(
                f"{quote(text)}: {ship.name} rams this activation and may not fire.", hint="Order `pass`."
            )
        problem = m.fire_problem(state, ship, result.final, result.heading, target)
        if problem:
            raise IllegalOrder(
                f"{quote(text)}: {problem}.", hint="Choose a target in range and arc, or fire at nothing."
            )
        return target

    def _resolve_ship(self, state: GameState, text: str) -> Ship:
        ship_id = resolve_name(text, {s.id: s.name for s in state.ships}, "ship")
        return m.ship_by_id(state, ship_id)

    def _side_of_seat(self, state: GameState, seat_id: str) -> str:
        return next((s.side for s in self.seats(state) if s.id == seat_id), "")

    def _seat_label(self, state: GameState, seat_id: str) -> str:
        return next((s.label for s in self.seats(state) if s.id == seat_id), seat_id)

    def _when(self, state: GameState, ship: Ship) -> str:
        if not m.in_play(ship):
            return f"{ship.name} is {'sunk' if ship.status == SUNK else 'off the board'}."
        if ship.activated:
            return f"{ship.name} has already acted this turn."
        return f"{ship.name} acts later this turn ({card_name(ship.card)})."

    def _damage_reason(self, ship: Ship) -> str:
        mode = m.movement_mode(ship)
        if mode == "stopped":
            return "its engine is hit and it is stopped"
        kinds = [d.kind for d in ship.damage if d.kind in (CONNING, ENGINE, STEERING)]
        return f"{' and '.join(dict.fromkeys(kinds))} hit: it moves one square straight ahead"

    def _format_plan(self, state: GameState, plan: Plan) -> str:
        parts: list[str] = []
        if plan.kind in ("forced", "stop"):
            parts.append("pass" if not plan.target else "fire")
        else:
            parts.append(f"move {plan.distance}")
            if plan.offset:
                parts.append("port" if plan.offset < 0 else "starboard")
            if plan.turn:
                parts.append("turn " + ("port" if plan.turn < 0 else "starboard"))
            if plan.leave:
                parts.append("leave")
            if plan.target:
                parts.append("fire")
        if plan.target:
            parts.append(m.ship_by_id(state, plan.target).name)
        return " ".join(parts)

    def legal_orders(self, state: GameState, seat: str) -> list[str]:
        if state.phase == "over":
            return []
        if state.phase == "deal":
            return ["deal"] if seat == UMPIRE else []
        ship = m.ship_by_id(state, state.active)
        if seat not in (UMPIRE, self.owner(state, ship)):
            return []
        plans: list[Plan] = []
        targets = [s for s in state.ships if m.in_play(s) and s.side != ship.side]
        if m.movement_mode(ship) != "free":
            result = m.forced_move(state, ship)
            plans.append(Plan(ship.id, "forced"))
            if not result.rams and not result.left:
                plans += [
                    Plan(ship.id, "forced", target=t.id)
                    for t in targets
                    if not m.fire_problem(state, ship, result.final, result.heading, t)
                ]
        else:
            if self._may_stop(state, ship):
                here = m.stay(ship)
                plans.append(Plan(ship.id, "stop"))
                plans += [
                    Plan(ship.id, "stop", target=t.id)
                    for t in targets
                    if not m.fire_problem(state, ship, here.final, here.heading, t)
                ]
            for offset in (0, -1, 1):
                for distance in m.free_distances(ship.heading, offset):
                    for turn in (0, -2, 2):
                        result = m.simulate_move(state, ship, offset, distance, turn)
                        if result.blocked_by:
                            continue
                        if result.left:
                            if turn == 0:
                                plans.append(Plan(ship.id, "move", offset, distance, 0, True))
                            continue
                        plans.append(Plan(ship.id, "move", offset, distance, turn))
                        if result.rams:
                            continue
                        plans += [
                            Plan(ship.id, "move", offset, distance, turn, False, t.id)
                            for t in targets
                            if not m.fire_problem(state, ship, result.final, result.heading, t)
                        ]
        return [self._format_plan(state, p) for p in plans]

    # --- apply --------------------------------------------------------------------------------------
    def apply(self, state: GameState, seat: str, order: Order, rng: Rng) -> list[Event]:
        text = order.text
        head = text.split()[0].casefold() if text.split() else ""
        if head in ("deal", "adjust"):
            canonical = self.parse_order(state, seat, text).text
            if head == "deal":
                lines: list[str] = ["Umpire deals."]
                state.marks = []
                m.deal(state, rng, lines)
                m.advance(state, rng, lines)
                return [public("\n".join(lines), reveals=True)]
            return [public(self._apply_adjust(state, canonical, rng))]
        plan = self._parse_activation(state, seat, text)
        counter, pack = rng.counter, len(state.damage_deck.draw_pile)
        report = self._activate(state, plan, rng)
        # Dice, shuffles and damage-pack draws reveal chance; a plain move does not (the owner may undo it).
        revealed = rng.counter != counter or len(state.damage_deck.draw_pile) != pack
        return [public(report, reveals=revealed)]

    def _activate(self, state: GameState, plan: Plan, rng: Rng) -> str:
        ship = m.ship_by_id(state, plan.ship)
        lines = [f"**Turn {state.turn}, {ship.name} ({card_name(ship.card)})**: {self._format_plan(state, plan)}"]
        state.marks = []
        if plan.kind == "forced":
            result = m.forced_move(state, ship)
            lines.append(f"{ship.name}: {self._damage_reason(ship)}.")
        elif plan.kind == "stop":
            result = m.stay(ship)
            lines.append(f"{ship.name} stops (a damaged ship may stop).")
        else:
            result = m.simulate_move(state, ship, plan.offset, plan.distance, plan.turn)
        engines_before = [d for d in ship.damage if d.kind == ENGINE]
        start = Square(ship.x, ship.y)
        if len(result.path) > 1:
            state.marks.append(Mark("path", [(sq.x, sq.y) for sq in result.path], ship.side))
        if result.left:
            ship.status = OFF
            for dmg in ship.damage:
                state.damage_deck.discard(dmg.card)
            ship.damage = []
            lines.append(
                f"{ship.name} steams off the board over {m.exit_text(state, result.path[-1])} and cannot return."
            )
        else:
            ship.x, ship.y, ship.heading = result.final.x, result.final.y, result.heading
            where = m.label(result.final)
            if result.final == start and (result.rams or result.avoids):
                lines.append(f"{ship.name} closes from {where}, heading {HEADING_NAMES[ship.heading]}.")
            elif result.final == start:
                lines.append(f"{ship.name} stays at {where}, heading {HEADING_NAMES[ship.heading]}.")
            else:
                lines.append(f"{ship.name} moves {m.label(start)}-{where}, heading {HEADING_NAMES[ship.heading]}.")
            m.update_manoeuvre(ship)
        if state.options.get("engine_hit", "stop") == "stop":
            for dmg in engines_before:
                dmg.spent = True
        if result.avoids:
            friend = m.ship_by_id(state, result.avoids)
            lines.append(f"{ship.name} sheers off to avoid {friend.name} (black activation card).")
        if result.rams:
            target = m.ship_by_id(state, result.rams)
            state.marks.append(m.resolve_ram(state, ship, target, rng, lines))
        elif plan.target and m.in_play(ship):
            target = m.ship_by_id(state, plan.target)
            state.marks.append(m.resolve_fire(state, ship, target, rng, lines))
        ship.activated = True
        m.advance(state, rng, lines)
        return "\n".join(lines)

    # --- umpire adjustments -------------------------------------------------------------------------
    def _parse_adjust(self, state: GameState, text: str, words: list[str]) -> str:
        keys = ("flotation", "damage", "at", "heading")
        lowered = [w.casefold() for w in words]
        idx = next((i for i, w in enumerate(lowered) if w in keys and i > 0), None)
        form = "adjust SHIP flotation N | damage add/remove CARD | at SQUARE | heading NE"
        if idx is None:
            raise InvalidSyntax(f"{quote(text)} is not an adjustment.", hint=f"Write `{form}`.")
        ship = self._resolve_ship(state, " ".join(words[:idx]))
        if not m.in_play(ship):
            raise IllegalOrder(
                f"{quote(text)}: {ship.name} is no longer in play.", hint="Use the table's undo instead."
            )
        key, args = lowered[idx], words[idx + 1 :]
        if key == "flotation":
            if len(args) != 1 or not args[0].isdigit() or int(args[0]) > ship.flotation_max:
                raise InvalidSyntax(f"{quote(text)}: flotation must be a number from 0 to {ship.flotation_max}.")
            return f"adjust {ship.name} flotation {int(args[0])}"
        if key == "damage":
            if len(args) != 2 or args[0].casefold() not in ("add", "remove"):
                raise InvalidSyntax(f"{quote(text)}: write `damage add CARD` or `damage remove CARD`.")
            card = self._parse_card(args[1], text)
            if args[0].casefold() == "add":
                if rank_of(card) not in KIND_OF_RANK:
                    raise IllegalOrder(f"{quote(text)}: only A, K, Q and J stay in force as damage cards.")
                holder = next((s for s in state.ships if any(d.card == card for d in s.damage)), None)
                if holder is not None:
                    raise IllegalOrder(f"{quote(text)}: {card_name(card)} is already in force on {holder.name}.")
            elif not any(d.card == card for d in ship.damage):
                held = ", ".join(card_name(d.card) for d in ship.damage) or "none"
                raise IllegalOrder(f"{quote(text)}: {ship.name} has no {card_name(card)} in force (has: {held}).")
            return f"adjust {ship.name} damage {args[0].casefold()} {card}"
        if key == "at":
            if len(args) != 1:
                raise InvalidSyntax(f"{quote(text)}: write `at c4`.")
            sq = self._parse_square(state, args[0], text)
            other = m.ship_at(state, sq)
            if other is not None and other.id != ship.id:
                raise IllegalOrder(f"{quote(text)}: {other.name} is already at {m.label(sq)}.")
            return f"adjust {ship.name} at {m.label(sq)}"
        if len(args) != 1:
            raise InvalidSyntax(f"{quote(text)}: write `heading NE`.")
        return f"adjust {ship.name} heading {HEADING_NAMES[parse_heading(args[0])]}"

    def _parse_card(self, word: str, text: str) -> str:
        symbols = {"♥": "H", "♣": "C", "♦": "D", "♠": "S"}
        card = word.strip().upper()
        for sym, letter in symbols.items():
            card = card.replace(sym, letter)
        if not rank_of(card):
            raise InvalidSyntax(f"{quote(text)}: {quote(word)} is not a card.", hint="Write it like QH, 10C or J♠.")
        return card

    def _parse_square(self, state: GameState, word: str, text: str) -> Square:
        t = word.strip().casefold()
        if len(t) >= 2 and t[0].isalpha() and t[1:].isdigit():
            sq = Square(ord(t[0]) - ord("a"), int(t[1:]) - 1)
            if m.on_board(state, sq):
                return sq
        last = m.label(Square(state.width - 1, state.height - 1))
        raise InvalidSyntax(
            f"{quote(text)}: {quote(word)} is not a square on this board.", hint=f"Squares run a1 to {last}."
        )

    def _apply_adjust(self, state: GameState, canonical: str, rng: Rng) -> str:
        words = canonical.split()
        keys = ("flotation", "damage", "at", "heading")
        idx = next(i for i, w in enumerate(words) if w in keys and i > 1)
        ship = self._resolve_ship(state, " ".join(words[1:idx]))
        key, args = words[idx], words[idx + 1 :]
        lines = [f"**Umpire adjusts {ship.name}**: {canonical}"]
        if key == "flotation":
            old = ship.flotation
            ship.flotation = int(args[0])
            lines.append(f"Flotation {old} -> {ship.flotation}/{ship.flotation_max}.")
            if ship.flotation == 0:
                m.sink(state, ship, lines)
        elif key == "damage":
            card = args[1]
            if args[0] == "add":
                deck = state.damage_deck
                for pile in (deck.draw_pile, deck.discards):
                    if card in pile:
                        pile.remove(card)
                ship.damage.append(DamageCard(card, KIND_OF_RANK[rank_of(card)]))
                lines.append(f"{card_name(card)} placed: {KIND_OF_RANK[rank_of(card)]} hit.")
            else:
                dmg = next(d for d in ship.damage if d.card == card)
                ship.damage.remove(dmg)
                state.damage_deck.discard(card)
                lines.append(f"{card_name(card)} removed: {dmg.kind} repaired.")
        elif key == "at":
            sq = self._parse_square(state, args[0], canonical)
            lines.append(f"Moved {m.label(Square(ship.x, ship.y))} -> {m.label(sq)}.")
            ship.x, ship.y = sq.x, sq.y
            m.update_manoeuvre(ship)
        else:
            ship.heading = parse_heading(args[0])
            lines.append(f"Heading now {HEADING_NAMES[ship.heading]}.")
        if state.phase == "activate" and not m.in_play(m.ship_by_id(state, state.active)):
            m.ship_by_id(state, state.active).activated = True
            m.advance(state, rng, lines)
        else:
            m.check_end(state, lines)
        return "\n".join(lines)

    # --- views and the result ---------------------------------------------------------------------
    def view(self, state: GameState, seat: str | None) -> View:
        board = Board(
            kind="square",
            key=f"{SYSTEM_ID}:{state.width}x{state.height}",
            name=state.scenario_name,
            width=state.width,
            height=state.height,
        )
        counters = []
        for ship in state.ships:
            if not m.in_play(ship):
                continue
            markers: list[str] = []
            if m.has(ship, FIRE):
                markers.append("fire")
            if m.movement_mode(ship) == "stopped":
                markers.append("stopped")
            if m.has(ship, CONNING) or m.has(ship, STEERING) or m.movement_mode(ship) == "ahead":
                markers.append("critical")
            counters.append(
                Counter(
                    id=ship.id,
                    label=ship.short or ship.name,
                    side=ship.side,
                    pos=(float(ship.x), float(ship.y)),
                    facing=45.0 * ship.heading,
                    damage=ship.flotation_max - ship.flotation,
                    damage_max=ship.flotation_max,
                    damage_text=m.damage_text(ship),
                    markers=tuple(markers),
                    highlight=ship.id == state.active,
                )
            )
        overlays = tuple(
            Overlay(kind=OVERLAY_KINDS[mk.kind], points=tuple(mk.points), side=mk.side, text=mk.text)
            for mk in state.marks
        )
        return View(
            board=board,
            viewer=seat,
            sides=tuple(SideInfo(s.id, s.name, s.colour) for s in state.sides),
            counters=tuple(counters),
            overlays=overlays,
            status=tuple(self._status(state)),
            title=f"Ironclad Draughts: {state.scenario_name}",
        )

    def _status(self, state: GameState) -> list[str]:
        lines: list[str] = []
        if state.phase == "over":
            outcome = self.outcome(state)
            lines.append(f"Turn {state.turn}: game over. {outcome.reason if outcome else ''}")
        elif state.phase == "deal":
            lines.append(f"Turn {state.turn + 1}: waiting for the umpire to deal.")
        else:
            active = m.ship_by_id(state, state.active)
            lines.append(
                f"Turn {state.turn}: {active.name} ({card_name(active.card)}) acts - "
                f"{self._seat_label(state, self.owner(state, active))} to order."
            )
            lines.extend(state.report[1:])
            later = [s for s in m.activation_order(state) if m.in_play(s) and not s.activated and s.id != active.id]
            if later:
                lines.append(f"Then: {later[0].name} ({card_name(later[0].card)}).")
        order = []
        for ship in m.activation_order(state):
            tag = " (sunk)" if ship.status == SUNK else " (off)" if ship.status == OFF else ""
            tag = tag or (" done" if ship.activated else " <- now" if ship.id == state.active else "")
            order.append(f"{card_name(ship.card)} {ship.name}{tag}")
        if order:
            lines.append("Cards: " + ", ".join(order))
        gone = [f"{s.name} {'sunk' if s.status == SUNK else 'off board'}" for s in state.ships if s.status != AFLOAT]
        if gone:
            lines.append("Out: " + ", ".join(gone))
        deck = state.damage_deck
        lines.append(f"Damage pack: {len(deck.draw_pile)} face down, {len(deck.discards)} discarded.")
        return lines

    def summary(self, state: GameState) -> list[str]:
        """The status strip plus which values are the house's, not the book's (rules-notes)."""
        house = house_values()
        return self._status(state) + ([f"House values in use: {', '.join(house)}."] if house else [])

    def outcome(self, state: GameState) -> Outcome | None:
        if state.phase != "over":
            return None
        details = []
        for side in state.sides:
            ships = [s for s in state.ships if s.side == side.id]
            parts = []
            for s in ships:
                fate = {AFLOAT: f"afloat {s.flotation}/{s.flotation_max}", SUNK: "sunk", OFF: "left the board"}[
                    s.status
                ]
                parts.append(f"{s.name} {fate}")
            details.append(f"{side.name}: " + "; ".join(parts) + ".")
        done = [s.name for s in state.ships if s.returned]
        half = [s.name for s in state.ships if s.reached_far and not s.returned]
        details.append(
            "Passed through and returned: "
            + (", ".join(done) if done else "none")
            + (f"; reached the far edge only: {', '.join(half)}" if half else "")
            + "."
        )
        return Outcome(state.winner or None, state.end_reason, tuple(details))


__all__ = ["SYSTEM_ID", "IroncladDraughts"]
