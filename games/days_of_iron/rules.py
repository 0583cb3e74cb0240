"""Days of Iron as a Ruleset: a table assistant, not a board game engine.

The miniatures stand on a real table and are measured with a tape; the bot never moves them.
It keeps each side's order of battle, rolls what the book tells players to roll, keeps secret
records sealed with a public commitment, tracks losses and objectives and scores the end.
Each order is one short line (see ``HELP``); canonical texts use unit ids so they replay exactly.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from games.core.errors import (
    AmbiguousName,
    GameError,
    IllegalOrder,
    InvalidSyntax,
    NotAllowed,
    NotYourTurn,
    UnknownName,
    WrongPhase,
    quote,
    resolve_name,
)
from games.core.rng import Rng, check_seal, seal
from games.core.ruleset import UMPIRE, Event, OptionSpec, Order, Outcome, Ruleset, ScenarioInfo, Seat, private, public
from games.core.view import Board, SideInfo, Terrain, View, Zone
from games.days_of_iron import records as rec
from games.days_of_iron.reference import Reference, reference
from games.days_of_iron.scoring import (
    fmt_halves,
    lost_halves,
    margin,
    objectives_achieved,
    side_lost_halves,
    side_points,
)
from games.days_of_iron.state import (
    CAPTURED,
    DESTROYED,
    GONE,
    HIDDEN,
    INITIATIVE,
    KILLED,
    OFF_BOARD,
    ON_TABLE,
    OVER,
    ROUTED_OFF,
    ROUTING,
    SETUP,
    SHATTERED,
    STEPS,
    SURRENDERED,
    TURN,
    Brigade,
    GameState,
    Objective,
    Sealed,
    SideState,
    Unit,
)

SYSTEM_ID = "days-of-iron"
MAX_TEXT = 200
DEFAULT_WHERE = "as marked on the deployment map"

HELP = """\
**Days of Iron** - table assistant for Franco-Prussian War miniatures (book: Days of Iron, A. Stone).
The battle is fought on your real table with a tape measure: the bot does NOT move, measure,
shoot or melee. It keeps both orders of battle (points from sections 5-6), rolls staff quality
(14.1, or the national table of 19.4 with option staff=national), initiative (17.1) and disputed
matters (3.4), keeps hidden (16.4) and off-board (16.5) units SEALED (only your side and the umpire
read them; the channel sees a numbered record and its SHA-256 commitment, checked when revealed),
runs scouting (19.1-19.3), tracks losses and objectives and scores the margin of victory (18.2).
The book's reference sheets (movement, shooting, morale, close assault, casualties) are NOT in the
text: the shipped game has NO reference tables. Owners can load theirs as a data pack
(`days_of_iron/reference/*.toml`, format in data/days_of_iron/reference/README.md); then `morale`
and `table` orders use them.

Set-up (each side, then `ready`):
- `staff` roll your Generals' quality (your own General is Capable, not diced)
- `hide UNIT at WHERE` record a hidden unit (sealed); `offboard BRIGADE [at WHERE]` hold a
  brigade off the table (sealed; at most a third of your points); `cancel N` drop your record N
- `scout UNIT` send light cavalry scouting (sealed until both are ready; scouting option on)
- `ready` finish set-up. When both are ready the bot scores scouting and says who deploys first.
Each turn: `initiative` (both roll 1d6, draws re-rolled), then for Morale, Shooting, Movement and
Close Assault the initiative side acts first and says `next`, then the other side says `next`.
- `reveal UNIT` place a hidden unit (publishes the record and its nonce)
- `dust BRIGADE [at WHERE]` (Morale phase) off-board brigade arrives (publishes the record)
- `loss UNIT N` N stands (or guns) lost; infantry at 2 stands / cavalry at 1 are removed (17.5.8)
- `rout UNIT`, `rally UNIT`, `destroyed UNIT`, `routed-off UNIT`, `surrender UNIT`,
  `captured GENERAL`, `killed GENERAL`, `promote GENERAL` (field promotion a turn later, 14.3)
- `objective NAME SIDE|none` who holds an objective now (in your own part of a phase)
- `morale UNIT TEST [FACTOR ...]`, `table TABLE [COLUMN] [+N|-N]` (only with reference tables)
In your own part of a phase (any time for the umpire): `dispute WHAT` (1-3 as the side asking
wishes, 4-6 as the other), `check NAME [about TEXT]` for the book's simple d6 checks (wood, ford,
demolish, general-hit, fire). Your own units' losses may be recorded at any time in the battle.
`end` (in the Initiative phase, i.e. after a turn's Close Assault): both sides must say it; the
umpire may end at once. Result: points lost (destroyed, shattered, surrendered, routed off, and
killed or captured Generals: full; routing or under half strength: half), margin per 18.2 (option margin=scaled scales the 800-point
bands), or objectives (option victory=objectives). Options: scouting, staff, victory, margin,
turns (end after N turns), force1/force2 (order-of-battle ids). The umpire may give any order;
`staff` and `ready` then name the side (`staff french`).
Staff quality is public (the book does not make it secret). NOT done by the bot: positions,
measuring, movement, formations, disorder/shaken markers, command radius, shooting, close
assault and casualty results (no tables), wounded Generals' lost turns, fires and wind; surrender
(18.1) and objectives are recorded when the players say so. Scouting counts 2 figures per cavalry
stand (4.1). Victory bands: "0 to 150" is a draw, more than 150 a Minor Victory, and so on.
"""

VERBS = (
    "staff", "hide", "offboard", "cancel", "scout", "ready", "initiative", "next", "reveal", "dust",
    "loss", "rout", "rally", "destroyed", "routed-off", "surrender", "captured", "killed", "promote",
    "objective", "morale", "table", "dispute", "check", "end",
)  # fmt: skip
FATES = {
    "rout": ROUTING,
    "destroyed": DESTROYED,
    "routed-off": ROUTED_OFF,
    "surrender": SURRENDERED,
    "captured": CAPTURED,
    "killed": KILLED,
}


def _slug(name: str) -> str:
    """An ASCII id for a name (accents dropped: "François" -> "francois")."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.casefold()).strip("-") or "unit"


def _options_spec() -> list[OptionSpec]:
    return [
        OptionSpec("scouting", "Use the optional scouting rules 19.1-19.3.", "scenario", ("scenario", "yes", "no")),
        OptionSpec("staff", "Staff quality table: 14.1 or the national ratings of 19.4.", "scenario",
                   ("scenario", "standard", "national")),
        OptionSpec("victory", "Decide the winner on points lost or on objectives (18.2).", "scenario",
                   ("scenario", "points", "objectives")),
        OptionSpec("margin", "Victory bands as printed for 800 points (book) or scaled to the game size.", "scenario",
                   ("scenario", "book", "scaled")),
        OptionSpec("turns", "End automatically after this many turns (0 = when the players agree).", "0"),
        OptionSpec("force1", "Order of battle for the first side (a forces/ file id).", ""),
        OptionSpec("force2", "Order of battle for the second side (a forces/ file id).", ""),
    ]


def _parse_options(options: dict[str, str], spec: rec.ScenarioSpec) -> dict[str, str]:
    specs = {o.key: o for o in _options_spec()}
    out = {k: s.default for k, s in specs.items()}
    for key, value in options.items():
        k = key.strip().casefold()
        v = value.strip()
        if k not in specs:
            raise UnknownName(f"No Days of Iron option {quote(key)}.", hint=f"Options: {', '.join(specs)}.")
        if specs[k].choices and v.casefold() not in specs[k].choices:
            raise InvalidSyntax(f"Option {k}={quote(value)} is not allowed.",
                                hint=f"Choose {' or '.join(specs[k].choices)}.")
        out[k] = v.casefold() if specs[k].choices else v
    if not out["turns"].isdigit() or int(out["turns"]) > 100:
        raise InvalidSyntax(f"Option turns={quote(out['turns'])} must be a whole number from 0 to 100.")
    out["turns"] = str(int(out["turns"]))
    defaults = {"scouting": "yes" if spec.scouting else "no", "staff": spec.staff, "victory": spec.victory,
                "margin": spec.margin}
    for key, value in defaults.items():
        if out[key] == "scenario":
            out[key] = value
    for key in ("force1", "force2"):
        if out[key]:
            known = rec.force_ids()
            out[key] = resolve_name(out[key], {f: f for f in known}, "order of battle")
    return out


@dataclass(frozen=True)
class Parsed:
    verb: str
    args: tuple[str, ...]
    side: str  # the side the order is for ("" when none)


class DaysOfIron(Ruleset[GameState]):
    id = SYSTEM_ID
    name = "Days of Iron"
    state_type = GameState
    book = "002_7d78f51a4d90a881.txt"

    # --- set-up ---------------------------------------------------------------------------------
    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo(s, rec.scenario(s).name, rec.scenario(s).description) for s in rec.scenario_ids()]

    def options(self) -> list[OptionSpec]:
        return _options_spec()

    def help(self) -> str:
        ref = reference()
        loaded = ("Reference tables loaded from a data pack: " + ", ".join(ref.sources) + ".") if not ref.empty else (
            "Reference tables loaded: none (the shipped game has no reference tables).")
        return HELP + loaded

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> GameState:
        ids = rec.scenario_ids()
        scen_id = resolve_name(scenario or "meeting", {s: rec.scenario(s).name for s in ids}, "scenario")
        spec = rec.scenario(scen_id)
        opts = _parse_options(options, spec)
        rules = rec.rules()
        sides: list[SideState] = []
        brigades: list[Brigade] = []
        units: list[Unit] = []
        used: set[str] = set()

        def uid(wanted: str) -> str:
            base = _slug(wanted)
            out, n = base, 2
            while out in used:
                out, n = f"{base}-{n}", n + 1
            used.add(out)
            return out

        for index, side in enumerate(spec.sides):
            force = rec.force(opts[f"force{index + 1}"] or side.force)
            sides.append(SideState(side.id, side.name, side.colour, force.nation, force.name))
            units.append(Unit(uid(force.general), force.general, side.id, "", "general", rank="army",
                              quality="capable", points=rules.staff_points.get("army", 0)))
            for c in force.commanders:
                units.append(Unit(uid(c.id), c.name, side.id, "", "general", rank=c.rank,
                                  points=rules.staff_points[c.rank]))
            for b in force.brigades:
                bid = uid(b.id)
                brigades.append(Brigade(bid, b.name, side.id))
                if b.general:
                    units.append(Unit(uid(b.general), b.general, side.id, bid, "general", rank="brigade",
                                      points=rules.staff_points["brigade"]))
                for u in b.units:
                    units.append(Unit(uid(u.id), u.name, side.id, bid, u.type, u.cls, u.stands, u.stands,
                                      rec.unit_points(u, rules), list(u.modifiers), u.light))
        state = GameState(
            scenario=spec.id,
            scenario_name=spec.name,
            options=opts,
            points_limit=spec.points,
            table_width=spec.table[0],
            table_height=spec.table[1],
            sides=sides,
            brigades=brigades,
            units=units,
            objectives=[Objective(o.name, o.wanted_by, o.held_by) for o in spec.objectives],
        )
        for side_state in sides:
            total = side_points(state, side_state.id)
            if total > spec.points:
                raise IllegalOrder(
                    f"{side_state.name}' order of battle ({side_state.force}) costs {total} points, "
                    f"more than the scenario's {spec.points}.", hint="Choose another force (option force1/force2).")
        return state

    # --- seats ------------------------------------------------------------------------------------
    def seats(self, state: GameState) -> list[Seat]:
        out = [Seat(s.id, s.name, s.id, "side") for s in state.sides]
        out.append(Seat(UMPIRE, "Umpire", "", "umpire", optional=True))
        return out

    def to_act(self, state: GameState) -> list[str]:
        if state.phase == SETUP:
            return [s.id for s in state.sides if not s.ready]
        if state.phase == INITIATIVE:
            return [s.id for s in state.sides]
        if state.phase == TURN:
            return [self._step_side(state)]
        return []

    def _step_side(self, state: GameState) -> str:
        other = self._other(state, state.initiative)
        return state.initiative if state.step_side == 0 else other

    def _other(self, state: GameState, side: str) -> str:
        return next(s.id for s in state.sides if s.id != side)

    def _side(self, state: GameState, side: str) -> SideState:
        return next(s for s in state.sides if s.id == side)

    def _side_name(self, state: GameState, side: str) -> str:
        return self._side(state, side).name if side else "nobody"

    # --- parsing ----------------------------------------------------------------------------------
    def parse_order(self, state: GameState, seat: str, text: str) -> Order:
        parsed = self._parse(state, seat, text)
        return Order(" ".join((parsed.verb, *parsed.args)) if parsed.args else parsed.verb, (parsed.side,))

    def _parse(self, state: GameState, seat: str, text: str) -> Parsed:
        """Parse and validate; every refusal starts by quoting the whole order."""
        try:
            return self._parse_inner(state, seat, text)
        except GameError as err:
            if err.message.startswith(quote(text)) or not text.strip():
                raise
            raise type(err)(f"{quote(text)}: {err.message}", hint=err.hint) from None

    def _parse_inner(self, state: GameState, seat: str, text: str) -> Parsed:
        words = text.split()
        if not words:
            raise InvalidSyntax("Empty order.", hint="Try `initiative`, `next`, `loss UNIT 2` or see the help.")
        verb = words[0].casefold()
        rest = words[1:]
        if verb not in VERBS:
            raise InvalidSyntax(f"{quote(text)} is not a Days of Iron order.",
                                hint="Orders: " + ", ".join(VERBS) + " (see the help).")
        if state.phase == OVER:
            raise WrongPhase(f"{quote(text)}: the game is over; nothing changes.")
        if seat != UMPIRE and seat not in {s.id for s in state.sides}:
            raise NotAllowed(f"{quote(text)}: seat {quote(seat)} is not in this game.")
        if verb in ("dispute", "check"):
            return self._parse_anytime(state, seat, verb, rest, text)
        if verb in ("staff", "hide", "offboard", "cancel", "scout", "ready"):
            if state.phase != SETUP:
                raise WrongPhase(f"{quote(text)}: `{verb}` belongs to the set-up, which is over.")
            return self._parse_setup(state, seat, verb, rest, text)
        if state.phase == SETUP:
            raise WrongPhase(f"{quote(text)}: the battle has not started.",
                             hint="Finish the set-up: `staff`, then `ready` (both sides).")
        return self._parse_play(state, seat, verb, rest, text)

    def _free_text(self, words: list[str], text: str, what: str) -> str:
        value = " ".join(words).strip()
        if not value:
            raise InvalidSyntax(f"{quote(text)}: {what} is missing.")
        if len(value) > MAX_TEXT:
            raise InvalidSyntax(f"{quote(text)}: {what} is too long (at most {MAX_TEXT} characters).")
        return value.replace("`", "'")

    def _seat_side(self, state: GameState, seat: str, words: list[str], text: str) -> tuple[str, list[str]]:
        """The side an order is for: the seat's own, or for the umpire a side named first."""
        if seat != UMPIRE:
            return seat, words
        if words:
            names = {s.id: s.name for s in state.sides}
            try:
                return resolve_name(words[0], names, "side"), words[1:]
            except UnknownName:
                pass
        raise InvalidSyntax(f"{quote(text)}: the umpire must name the side first.",
                            hint=f"e.g. `{text.split()[0]} {state.sides[0].id}`.")

    def _unit(self, state: GameState, seat: str, name: str, text: str, *, own: bool = True,
              prefer: Callable[[Unit], bool] | None = None) -> Unit:
        """Resolve a unit name; the seat's own units matching ``prefer`` win a tie (e.g. lost Generals
        for `promote`). Only the seat's own units are preferred, so the answer never depends on the
        secret status (hidden, off board) of an enemy unit."""
        if not name.strip():
            raise InvalidSyntax(f"{quote(text)}: which unit?")
        uid = ""
        if prefer is not None:
            mine = {u.id: u.name for u in state.units if seat in (UMPIRE, u.side) and prefer(u)}
            with contextlib.suppress(UnknownName, AmbiguousName):
                uid = resolve_name(name, mine, "unit")
        uid = uid or resolve_name(name, {u.id: u.name for u in state.units}, "unit")
        unit = next(u for u in state.units if u.id == uid)
        if own and seat not in (UMPIRE, unit.side):
            raise NotAllowed(f"{quote(text)}: {unit.name} belongs to the {self._side_name(state, unit.side)}.",
                             hint="Record your own side's units; the owner records theirs.")
        return unit

    def _brigade(self, state: GameState, seat: str, name: str, text: str) -> Brigade:
        if not name.strip():
            raise InvalidSyntax(f"{quote(text)}: which brigade?")
        pool = {b.id: b.name for b in state.brigades if seat in (UMPIRE, b.side)}
        bid = resolve_name(name, pool, "brigade")
        return next(b for b in state.brigades if b.id == bid)

    def _split_at(self, words: list[str]) -> tuple[list[str], list[str]]:
        lowered = [w.casefold() for w in words]
        if "at" in lowered[1:]:
            i = lowered.index("at", 1)
            return words[:i], words[i + 1 :]
        return words, []

    def _check_acting(self, state: GameState, seat: str, text: str) -> None:
        """Rolls and records that concern both sides belong to whoever acts now (or the umpire)."""
        acting = self.to_act(state)
        if seat != UMPIRE and seat not in acting:
            names = " and ".join(self._side_name(state, s) for s in acting)
            raise NotYourTurn(f"{quote(text)}: the {names} act now.",
                              hint="Raise it in your own part of the phase, or ask the umpire.")

    def _parse_anytime(self, state: GameState, seat: str, verb: str, rest: list[str], text: str) -> Parsed:
        self._check_acting(state, seat, text)
        side = seat if seat != UMPIRE else ""
        if verb == "dispute":
            return Parsed(verb, (self._free_text(rest, text, "the matter in dispute"),), side)
        checks = rec.rules().checks
        if not rest:
            raise InvalidSyntax(f"{quote(text)}: which check?", hint=f"Checks: {', '.join(checks)}.")
        cid = resolve_name(rest[0], {c: c for c in checks}, "check")
        about: tuple[str, ...] = ()
        if len(rest) > 1:
            if rest[1].casefold() != "about":
                raise InvalidSyntax(f"{quote(text)}: write `check {cid} about WHAT`.")
            about = ("about", self._free_text(rest[2:], text, "what the check is about"))
        return Parsed(verb, (cid, *about), side)

    def _parse_setup(self, state: GameState, seat: str, verb: str, rest: list[str], text: str) -> Parsed:
        rules = rec.rules()
        if verb in ("staff", "ready"):
            side, rest = self._seat_side(state, seat, rest, text)
            if rest:
                raise InvalidSyntax(f"{quote(text)}: `{verb}` takes nothing more.")
            ss = self._side(state, side)
            if ss.ready:
                raise IllegalOrder(f"{quote(text)}: the {ss.name} are already ready.")
            if verb == "staff" and ss.staff_rolled:
                raise IllegalOrder(f"{quote(text)}: the {ss.name} have already rolled staff quality.")
            if verb == "ready" and not ss.staff_rolled:
                raise IllegalOrder(f"{quote(text)}: the {ss.name} must roll staff quality first.", hint="Order `staff`.")
            return Parsed(verb, (side,) if seat == UMPIRE else (), side)
        if verb == "cancel":
            if len(rest) != 1 or not rest[0].lstrip("#").isdigit():
                raise InvalidSyntax(f"{quote(text)}: write `cancel N` with your record's number.")
            number = int(rest[0].lstrip("#"))
            record = next((r for r in state.sealed if r.number == number), None)
            if record is None or record.cancelled or seat not in (UMPIRE, record.side):
                mine = [str(r.number) for r in state.sealed if seat in (UMPIRE, r.side) and not r.cancelled]
                raise UnknownName(f"{quote(text)}: you have no record #{number}.",
                                  hint=f"Your records: {', '.join(mine) or 'none'}.")
            return Parsed(verb, (str(number),), record.side)
        if verb == "offboard":
            head, where_words = self._split_at(rest)
            brigade = self._brigade(state, seat, " ".join(head), text)
            members = [u for u in state.units if u.brigade == brigade.id]
            if any(u.status != ON_TABLE for u in members):
                raise IllegalOrder(f"{quote(text)}: {brigade.name} already has a sealed record.",
                                   hint="`cancel N` it first.")
            already = sum(u.points for u in state.units if u.side == brigade.side and u.status == OFF_BOARD)
            total = side_points(state, brigade.side)
            num, den = rules.offboard_fraction
            cost = sum(u.points for u in members)
            if (already + cost) * den > total * num:
                raise IllegalOrder(
                    f"{quote(text)}: {brigade.name} ({cost} pts) would put {already + cost} of "
                    f"{total} points off the table; at most {num}/{den} may be (16.5).")
            where = self._free_text(where_words, text, "where") if where_words else ""
            return Parsed(verb, (brigade.id, *(("at", where) if where else ())), brigade.side)
        # hide / scout
        if verb == "hide":
            head, where_words = self._split_at(rest)
            if not where_words:
                raise InvalidSyntax(f"{quote(text)}: where is it hidden?",
                                    hint="Write `hide UNIT at WHERE` (location, formation and facing, 16.4).")
            unit = self._unit(state, seat, " ".join(head), text)
            if unit.status != ON_TABLE:
                raise IllegalOrder(f"{quote(text)}: {unit.name} already has a sealed record.",
                                   hint="`cancel N` it first.")
            return Parsed(verb, (unit.id, "at", self._free_text(where_words, text, "where")), unit.side)
        if state.options.get("scouting") != "yes":
            raise IllegalOrder(f"{quote(text)}: this game does not use the scouting rules.",
                               hint="Start the game with options:scouting=yes.")
        unit = self._unit(state, seat, " ".join(rest), text)
        if unit.type != "cavalry" or not unit.light:
            raise IllegalOrder(f"{quote(text)}: {unit.name} is not light cavalry; only light cavalry scouts (19.1).")
        if any(r.kind == "scout" and unit.id in r.units and not r.cancelled for r in state.sealed):
            raise IllegalOrder(f"{quote(text)}: {unit.name} is already scouting.")
        return Parsed(verb, (unit.id,), unit.side)

    def _parse_play(self, state: GameState, seat: str, verb: str, rest: list[str], text: str) -> Parsed:
        if verb == "initiative":
            if state.phase != INITIATIVE:
                raise WrongPhase(f"{quote(text)}: initiative for turn {state.turn} is already rolled.",
                                 hint="Finish the turn's phases with `next`.")
            if rest:
                raise InvalidSyntax(f"{quote(text)}: `initiative` takes nothing more.")
            return Parsed(verb, (), "")
        if verb == "end":
            if rest:
                raise InvalidSyntax(f"{quote(text)}: `end` takes nothing more.")
            if seat != UMPIRE:
                if state.phase != INITIATIVE or state.turn == 0:
                    raise WrongPhase(f"{quote(text)}: a game ends after a turn's Close Assault phase (18).",
                                     hint="Say `end` in the Initiative phase, before rolling `initiative`.")
                if self._side(state, seat).wants_end:
                    raise IllegalOrder(f"{quote(text)}: you have already asked to end; waiting for the other side.")
            return Parsed(verb, (), seat if seat != UMPIRE else "")
        if verb == "next":
            if state.phase != TURN:
                raise WrongPhase(f"{quote(text)}: roll `initiative` first.")
            acting = self._step_side(state)
            if seat not in (UMPIRE, acting):
                raise NotYourTurn(f"{quote(text)}: the {self._side_name(state, acting)} act now "
                                  f"({STEPS[state.step]} phase).")
            if rest:
                raise InvalidSyntax(f"{quote(text)}: `next` takes nothing more.")
            return Parsed(verb, (), acting)
        if verb == "objective":
            self._check_acting(state, seat, text)
            if len(rest) < 2:
                raise InvalidSyntax(f"{quote(text)}: write `objective NAME SIDE` (or `none`).")
            if not state.objectives:
                raise IllegalOrder(f"{quote(text)}: this scenario sets no objectives.")
            name = resolve_name(" ".join(rest[:-1]), {o.name: o.name for o in state.objectives}, "objective")
            holder = "none" if rest[-1].casefold() in ("none", "nobody") else resolve_name(
                rest[-1], {s.id: s.name for s in state.sides}, "side")
            return Parsed(verb, (name, holder), seat if seat != UMPIRE else "")
        if verb == "morale":
            return self._parse_morale(state, seat, rest, text)
        if verb == "table":
            return self._parse_table(state, seat, rest, text)
        if verb == "dust":
            head, where_words = self._split_at(rest)
            brigade = self._brigade(state, seat, " ".join(head), text)
            if state.phase != TURN or STEPS[state.step] != "Morale":
                raise WrongPhase(f"{quote(text)}: off-board troops are announced in the Morale phase (16.5).")
            if not any(u.brigade == brigade.id and u.status == OFF_BOARD for u in state.units):
                raise IllegalOrder(f"{quote(text)}: {brigade.name} is not off the table.")
            where = self._free_text(where_words, text, "where") if where_words else ""
            return Parsed(verb, (brigade.id, *(("at", where) if where else ())), brigade.side)
        if verb == "loss":
            if len(rest) < 2 or not rest[-1].isdigit():
                raise InvalidSyntax(f"{quote(text)}: write `loss UNIT N` (N stands or guns).")
            unit = self._unit(state, seat, " ".join(rest[:-1]), text, prefer=lambda u: u.status in (ON_TABLE, ROUTING))
            n = int(rest[-1])
            self._check_in_play(state, unit, text)
            if not 1 <= n <= unit.stands:
                raise IllegalOrder(f"{quote(text)}: {unit.name} has {unit.stands} "
                                   f"{'guns' if unit.type == 'artillery' else 'stands'}; lose 1 to {unit.stands}.")
            return Parsed(verb, (unit.id, str(n)), unit.side)
        # unit verbs: reveal, rout, rally, destroyed, routed-off, surrender, captured, killed, promote
        wanted: dict[str, Callable[[Unit], bool]] = {
            "promote": lambda u: self._lost_holder(state, u),
            "reveal": lambda u: u.status == HIDDEN,
        }
        unit = self._unit(state, seat, " ".join(rest), text,
                          prefer=wanted.get(verb, lambda u: u.status in (ON_TABLE, ROUTING)))
        if verb == "reveal":
            if unit.status != HIDDEN:
                raise IllegalOrder(f"{quote(text)}: {unit.name} is not hidden.")
            return Parsed(verb, (unit.id,), unit.side)
        if verb == "promote":
            if unit.type != "general" or unit.status not in (KILLED, CAPTURED):
                raise IllegalOrder(f"{quote(text)}: only a killed or captured General is replaced (14.3).")
            if unit.rank == "army":
                raise IllegalOrder(f"{quote(text)}: the player's own General is not replaced by promotion.")
            command = self._find(state, unit.replaces) if unit.replaces else unit
            successor = self._successor(state, command)
            if successor is not None and successor.status not in GONE:
                raise IllegalOrder(f"{quote(text)}: {command.name} already has a successor.")
            last = successor or command  # the General who held the command last
            if last.lost_turn >= state.turn:
                raise IllegalOrder(f"{quote(text)}: a field promotion may take place after 1 turn (14.3).",
                                   hint=f"{last.name} was lost in turn {last.lost_turn}.")
            return Parsed(verb, (command.id,), command.side)  # one canonical text per command
        self._check_in_play(state, unit, text)
        general_only = verb in ("captured", "killed")
        if general_only != (unit.type == "general"):
            raise IllegalOrder(f"{quote(text)}: `{verb}` is for {'Generals' if general_only else 'units'}; "
                               f"{unit.name} is {'a General' if unit.type == 'general' else 'a unit'}.",
                               hint="Generals are `killed` or `captured`; units are `destroyed`.")
        if verb == "rally" and unit.status != ROUTING:
            raise IllegalOrder(f"{quote(text)}: {unit.name} is not routing.")
        if verb == "rout" and unit.status == ROUTING:
            raise IllegalOrder(f"{quote(text)}: {unit.name} is already routing.")
        return Parsed(verb, (unit.id,), unit.side)

    def _successor(self, state: GameState, command: Unit) -> Unit | None:
        """The one successor record of a book General's command (14.3), if ever promoted."""
        wanted = f"{command.id}-successor"
        return next((u for u in state.units if u.id == wanted), None)

    def _lost_holder(self, state: GameState, unit: Unit) -> bool:
        """A lost General who held his command last: the one `promote NAME` should mean."""
        if unit.type != "general" or unit.status not in (KILLED, CAPTURED):
            return False
        successor = None if unit.replaces else self._successor(state, unit)
        return successor is None or successor.status not in GONE

    def _check_in_play(self, state: GameState, unit: Unit, text: str) -> None:
        if unit.status in GONE:
            raise IllegalOrder(f"{quote(text)}: {unit.name} is already out of play ({unit.status}).")
        if unit.status in (HIDDEN, OFF_BOARD):
            raise IllegalOrder(f"{quote(text)}: {unit.name} is not on the table yet.",
                               hint="`reveal` it (hidden) or bring its brigade on with `dust` first.")

    def _parse_morale(self, state: GameState, seat: str, rest: list[str], text: str) -> Parsed:
        ref = reference()
        if not ref.morale:
            raise IllegalOrder(f"{quote(text)}: no morale table is loaded; the shipped game has none.",
                               hint="Load your reference sheets as a data pack (see the help).")
        lowered = [w.casefold() for w in rest]
        j = next((i for i in range(1, len(lowered)) if lowered[i] in ref.morale), None)
        if j is None:
            raise InvalidSyntax(f"{quote(text)}: write `morale UNIT TEST [FACTOR ...]`.",
                                hint=f"Tests: {', '.join(ref.morale)}.")
        unit = self._unit(state, seat, " ".join(rest[:j]), text)
        self._check_in_play(state, unit, text)
        test = ref.morale[lowered[j]]
        factors: list[str] = []
        for word in lowered[j + 1 :]:
            if word not in test.factors:
                raise UnknownName(f"{quote(text)}: {test.name} has no factor {quote(word)}.",
                                  hint=f"Factors: {', '.join(test.factors) or 'none'}.")
            factors.append(word)
        return Parsed("morale", (unit.id, test.id, *factors), seat if seat != UMPIRE else "")

    def _parse_table(self, state: GameState, seat: str, rest: list[str], text: str) -> Parsed:
        ref = reference()
        if not ref.tables:
            raise IllegalOrder(f"{quote(text)}: no dice tables are loaded; the shipped game has none.",
                               hint="Load your reference sheets as a data pack (see the help).")
        if not rest:
            raise InvalidSyntax(f"{quote(text)}: which table?", hint=f"Tables: {', '.join(ref.tables)}.")
        tid = resolve_name(rest[0], {k: v.name for k, v in ref.tables.items()}, "table")
        table = ref.tables[tid]
        words = rest[1:]
        modifier = 0
        if words and re.fullmatch(r"[+-]\d{1,3}", words[-1]):
            modifier = int(words[-1])
            words = words[:-1]
        if len(table.columns) == 1 and not words:
            column = table.columns[0]
        else:
            column = resolve_name(" ".join(words), {c: c for c in table.columns}, "column")
        args = (tid, column) + ((f"{modifier:+d}",) if modifier else ())
        return Parsed("table", args, seat if seat != UMPIRE else "")

    # --- legal orders -------------------------------------------------------------------------------
    def legal_orders(self, state: GameState, seat: str) -> list[str]:
        if state.phase == OVER:
            return []
        sides = [s.id for s in state.sides] if seat == UMPIRE else [seat]
        out: list[str] = []
        if state.phase == SETUP:
            for side in sides:
                ss = self._side(state, side)
                if ss.ready:
                    continue
                out.append(("ready" if ss.staff_rolled else "staff") + (f" {side}" if seat == UMPIRE else ""))
                for u in state.units:
                    if u.side == side and u.status == ON_TABLE:
                        out.append(f"hide {u.id} at {DEFAULT_WHERE}")
                        if u.light and state.options.get("scouting") == "yes":
                            out.append(f"scout {u.id}")
                for b in state.brigades:
                    if b.side == side:
                        out.append(f"offboard {b.id}")
                out += [f"cancel {r.number}" for r in state.sealed if r.side == side and not r.cancelled]
        elif state.phase == INITIATIVE:
            out.append("initiative")
            if state.turn > 0 and (seat == UMPIRE or not self._side(state, seat).wants_end):
                out.append("end")
        else:
            if seat in (UMPIRE, self._step_side(state)):
                out.append("next")
            for u in state.units:
                if u.side not in sides:
                    continue
                if u.status == HIDDEN:
                    out.append(f"reveal {u.id}")
                elif u.status in (ON_TABLE, ROUTING):
                    out.append(f"loss {u.id} 1")
                    if u.type == "general":
                        out += [f"killed {u.id}", f"captured {u.id}"]
                    else:
                        out += [f"rally {u.id}" if u.status == ROUTING else f"rout {u.id}", f"routed-off {u.id}"]
                elif u.status in (KILLED, CAPTURED) and u.rank != "army" and u.lost_turn < state.turn:
                    out.append(f"promote {u.id}")
            if STEPS[state.step] == "Morale":
                for b in state.brigades:
                    if b.side in sides and any(u.brigade == b.id and u.status == OFF_BOARD for u in state.units):
                        out.append(f"dust {b.id}")
            for o in state.objectives:
                for s in state.sides:
                    if o.held_by != s.id:
                        out.append(f"objective {o.name} {s.id}")
        out.append("check wood")
        out.append("dispute which terrain is light cover")
        result: list[str] = []
        for text in out:
            try:
                result.append(self.parse_order(state, seat, text).text)
            except ValueError:
                continue
        return list(dict.fromkeys(result))

    # --- apply --------------------------------------------------------------------------------------
    def apply(self, state: GameState, seat: str, order: Order, rng: Rng) -> list[Event]:
        parsed = self._parse(state, seat, order.text)
        handler = getattr(self, "_do_" + parsed.verb.replace("-", "_"), None)
        if handler is None:
            handler = self._do_fate
        events: list[Event] = handler(state, seat, parsed, rng)
        return events

    # set-up
    def _do_staff(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        rules = rec.rules()
        ss = self._side(state, p.side)
        table_name = "standard"
        note = "14.1"
        if state.options.get("staff") == "national":
            if ss.nation in rules.staff_tables:
                table_name, note = ss.nation, f"19.4 {ss.nation}"
            else:
                note = f"14.1 (no 19.4 row for {ss.nation})"
        table = rules.staff_table(table_name)
        parts = []
        for u in state.units:
            if u.side != ss.id or u.type != "general":
                continue
            if u.rank == "army":
                parts.append(f"{u.name}: Capable (the player's General, not diced)")
                continue
            u.roll = rng.die(6)
            u.quality = next(q for q, faces in table.items() if u.roll in faces)
            parts.append(f"{u.name}: {u.roll} = {u.quality.capitalize()}")
        ss.staff_rolled = True
        return [public(f"**{ss.name} staff quality** ({note}): " + "; ".join(parts) + ".", reveals=True)]

    def _seal(self, state: GameState, side: str, kind: str, units: list[str], text: str, rng: Rng) -> list[Event]:
        nonce = rng.nonce(text)
        digest = seal(text, nonce)
        number = self._records_made(state) + 1
        state.records_made = number
        state.sealed.append(Sealed(number, side, kind, units, text, nonce, digest))
        name = self._side_name(state, side)
        return [
            public(f"The {name} seal record #{number} ({'scouting' if kind == 'scout' else 'a secret deployment'}); "
                   f"commitment `{digest}`."),
            private(f"Sealed record #{number} for the {name}: {text}\nNonce `{nonce}` (published when revealed; "
                    f"check: SHA-256 of `nonce:text` equals the commitment).", side),
        ]

    def _do_hide(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        unit = self._find(state, p.args[0])
        unit.status = HIDDEN
        return self._seal(state, unit.side, "hidden", [unit.id], f"Hidden: {unit.name} at {p.args[2]}", rng)

    def _do_offboard(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        brigade = next(b for b in state.brigades if b.id == p.args[0])
        members = [u for u in state.units if u.brigade == brigade.id]
        for u in members:
            u.status = OFF_BOARD
        where = f" ({p.args[2]})" if len(p.args) > 2 else ""
        text = f"Off-board: {brigade.name}{where}: " + ", ".join(u.name for u in members)
        return self._seal(state, brigade.side, "off-board", [u.id for u in members], text, rng)

    def _do_scout(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        unit = self._find(state, p.args[0])
        pts = self._scout_points(unit)
        return self._seal(state, unit.side, "scout", [unit.id], f"Scouting: {unit.name} ({pts} scouting points)", rng)

    def _records_made(self, state: GameState) -> int:
        """Records sealed so far (snapshots from before issue 11 kept every record, cancelled too,
        and no count: there it is the list's length)."""
        return max(state.records_made, len(state.sealed))

    def _do_cancel(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        record = next(r for r in state.sealed if r.number == int(p.args[0]))
        state.records_made = self._records_made(state)
        state.sealed.remove(record)  # the state keeps live records only; the log keeps this one
        if record.kind != "scout":
            for uid in record.units:
                self._find(state, uid).status = ON_TABLE
        return [public(f"The {self._side_name(state, record.side)} cancel sealed record #{record.number}.")]

    def _do_ready(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        ss = self._side(state, p.side)
        ss.ready = True
        lines = [f"The {ss.name} are ready."]
        if all(s.ready for s in state.sides):
            lines += self._start_battle(state, rng)
            return [public("\n".join(lines), reveals=True)]
        return [public("\n".join(lines))]

    def _scout_points(self, unit: Unit) -> int:
        rules = rec.rules()
        return unit.stands * rules.figures_per_stand * rules.figure_points[max(unit.cls, 1) - 1]

    def _start_battle(self, state: GameState, rng: Rng) -> list[str]:
        rules = rec.rules()
        lines: list[str] = []
        a, b = state.sides[0], state.sides[1]
        first = ""
        if state.options.get("scouting") == "yes":
            points = {a.id: 0, b.id: 0}
            for r in state.sealed:
                if r.kind == "scout" and not r.cancelled:
                    r.revealed = True
                    points[r.side] += sum(self._scout_points(self._find(state, u)) for u in r.units)
                    lines.append(f"Record #{r.number} opened: {r.text} (nonce `{r.nonce}`).")
            lines.append(f"Scouting points (19.2): {a.name} {points[a.id]}, {b.name} {points[b.id]}.")
            for x, y in ((a, b), (b, a)):
                if points[y.id] - points[x.id] >= rules.outscout_margin:
                    first = x.id
                    lines.append(
                        f"The {x.name} are out-scouted (19.3): they deploy one brigade {rules.rear_edge_inches}\" "
                        f"from their rear edge first, then the players alternate brigade by brigade.")
            if not first:
                lines.append("Nobody is out-scouted: roll to see who places a brigade first.")
        if not first:
            rolls = self._roll_off(state, rng)
            first = min(rolls[-1], key=lambda side: rolls[-1][side])
            lines.append("Deployment roll (16.1): " + self._describe_rolls(state, rolls)
                         + f"; the {self._side_name(state, first)} (lowest) place a brigade first, then alternate"
                         " (cavalry, artillery, then infantry).")
        state.deploys_first = first
        state.phase = INITIATIVE
        lines.append("Deploy on the table, then roll `initiative` for turn 1.")
        return lines

    def _roll_off(self, state: GameState, rng: Rng) -> list[dict[str, int]]:
        """Both sides roll 1d6; draws are re-rolled (17.1). Every round is kept for the log."""
        rounds: list[dict[str, int]] = []
        while True:
            roll = {s.id: rng.die(6) for s in state.sides}
            rounds.append(roll)
            if len(set(roll.values())) == len(roll):
                return rounds

    def _describe_rolls(self, state: GameState, rounds: list[dict[str, int]]) -> str:
        parts = [", ".join(f"{self._side_name(state, side)} {v}" for side, v in r.items()) for r in rounds]
        return " / draw, re-roll: ".join(parts)

    # play
    def _do_initiative(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        rounds = self._roll_off(state, rng)
        holder = max(rounds[-1], key=lambda side: rounds[-1][side])
        state.turn += 1
        state.initiative = holder
        state.phase = TURN
        state.step = 0
        state.step_side = 0
        for s in state.sides:
            s.wants_end = False
        text = (f"**Turn {state.turn} initiative** (17.1): {self._describe_rolls(state, rounds)}. "
                f"The {self._side_name(state, holder)} have the initiative and act first in the Morale phase.")
        return [public(text, reveals=True)]

    def _do_next(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        done = self._side_name(state, self._step_side(state))
        step = STEPS[state.step]
        if state.step_side == 0:
            state.step_side = 1
            return [public(f"Turn {state.turn}, {step} phase: the {done} are done; "
                           f"the {self._side_name(state, self._step_side(state))} act.")]
        state.step_side = 0
        state.step += 1
        if state.step < len(STEPS):
            return [public(f"Turn {state.turn}: {step} phase over. {STEPS[state.step]} phase: the "
                           f"{self._side_name(state, state.initiative)} act first.")]
        state.phase = INITIATIVE
        state.step = 0
        limit = int(state.options.get("turns", "0"))
        if limit and state.turn >= limit:
            return self._finish(state, f"The turn limit ({limit}) is reached.")
        return [public(f"Turn {state.turn} is over. Roll `initiative` for turn {state.turn + 1}, "
                       "or say `end` (both sides) to finish the battle.")]

    def _do_end(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        if seat == UMPIRE:
            return self._finish(state, "The umpire ended the battle.")
        ss = self._side(state, p.side)
        ss.wants_end = True
        if all(s.wants_end for s in state.sides):
            return self._finish(state, "Both players agreed to end the battle.")
        other = self._side_name(state, self._other(state, ss.id))
        return [public(f"The {ss.name} propose to end the battle; the {other} agree with `end` "
                       "or play on with `initiative`.")]

    def _do_reveal(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        unit = self._find(state, p.args[0])
        unit.status = ON_TABLE
        record = next(r for r in state.sealed if unit.id in r.units and r.kind == "hidden" and not r.cancelled
                      and not r.revealed)
        record.revealed = True
        check = "matches" if check_seal(record.text, record.nonce, record.digest) else "DOES NOT match"
        return [public(f"The {self._side_name(state, unit.side)} reveal {unit.name}: record #{record.number} "
                       f"read \"{record.text}\" (nonce `{record.nonce}`; it {check} commitment "
                       f"`{record.digest[:16]}…`). Place it on the table.", reveals=True)]

    def _do_dust(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        brigade = next(b for b in state.brigades if b.id == p.args[0])
        for u in state.units:
            if u.brigade == brigade.id and u.status == OFF_BOARD:
                u.status = ON_TABLE
        record = next(r for r in state.sealed if r.kind == "off-board" and not r.cancelled and not r.revealed
                      and any(self._find(state, u).brigade == brigade.id for u in r.units))
        record.revealed = True
        edge = f" at {p.args[2]}" if len(p.args) > 2 else ""
        return [public(f"**Dust on the horizon{edge}!** The {self._side_name(state, brigade.side)} bring "
                       f"{brigade.name} on in this turn's Movement phase (16.5): record #{record.number} read "
                       f"\"{record.text}\" (nonce `{record.nonce}`). It must arrive outside 25\" of visible "
                       "enemy units that are not routing.", reveals=True)]

    def _do_loss(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        unit = self._find(state, p.args[0])
        n = int(p.args[1])
        unit.stands -= n
        if unit.type == "general":
            lines = [f"{unit.name} is hit and lost."]
        else:
            what = "guns" if unit.type == "artillery" else "stands"
            lines = [f"{unit.name} loses {n} {what} ({unit.stands}/{unit.start_stands} left)."]
        shattered = rec.rules().shattered.get(unit.type)
        if unit.type == "general":
            unit.status = KILLED
            unit.lost_turn = state.turn
            lines.append(f"{unit.name} is a casualty; see the Casualties to Staff table for wounds (14.3).")
        elif unit.stands == 0:
            unit.status = DESTROYED
            lines.append(f"{unit.name} is destroyed.")
        elif shattered is not None and unit.stands <= shattered:
            unit.status = SHATTERED
            lines.append(f"{unit.name} is shattered and removed from play (17.5.8).")
        return [public(" ".join(lines))]

    def _do_fate(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        unit = self._find(state, p.args[0])
        verb = p.verb
        if verb == "rally":
            unit.status = ON_TABLE
            return [public(f"{unit.name} rallies (17.2.11).")]
        unit.status = FATES[verb]
        if unit.type == "general":
            unit.lost_turn = state.turn
        words = {ROUTING: "is routing", DESTROYED: "is destroyed", ROUTED_OFF: "has routed off the table",
                 SURRENDERED: "surrenders", CAPTURED: "is captured (counts as a loss, 14.5)", KILLED: "is killed"}
        return [public(f"{unit.name} {words[unit.status]}.")]

    def _do_promote(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        """Fill a command by field promotion: the first time a successor record is made; after
        that the same record is promoted again in place, so promotions never grow the state."""
        command = self._find(state, p.args[0])
        table = rec.rules().staff_table("promotion")
        roll = rng.die(6)
        quality = next(q for q, faces in table.items() if roll in faces)
        successor = self._successor(state, command)
        if successor is None:
            successor = Unit(f"{command.id}-successor", f"{command.name}'s successor", command.side,
                             command.brigade, "general", rank=command.rank)
            state.units.append(successor)
            text = (f"Field promotion (14.3) for {command.name}: {roll} = {quality.capitalize()}. "
                    f"{successor.name} takes command.")
        else:
            text = (f"Field promotion (14.3) for {command.name}'s command, its General lost again: {roll} = "
                    f"{quality.capitalize()}. A new General takes command as {successor.name}.")
        successor.quality, successor.roll, successor.replaces = quality, roll, command.id
        successor.status, successor.stands, successor.lost_turn = ON_TABLE, successor.start_stands, state.turn
        return [public(text, reveals=True)]

    def _do_objective(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        objective = next(o for o in state.objectives if o.name == p.args[0])
        objective.held_by = "" if p.args[1] == "none" else p.args[1]
        return [public(f"Objective {objective.name} is now held by the {self._side_name(state, objective.held_by)}.")]

    def _do_dispute(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        rules = rec.rules()
        roll = rng.die(6)
        a = p.side or state.sides[0].id
        b = self._other(state, a)
        winner = a if roll in rules.dispute_a else b
        asker = f"The {self._side_name(state, a)} raise" if p.side else "The umpire raises"
        return [public(f"{asker} a disputed matter (3.4): \"{p.args[0]}\". 1d6 = {roll}: decided as the "
                       f"{self._side_name(state, winner)} wish (Player {'A' if winner == a else 'B'}).", reveals=True)]

    def _do_check(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        check = rec.rules().checks[p.args[0]]
        roll = rng.die(6)
        about = f" ({p.args[2]})" if len(p.args) > 2 else ""
        return [public(f"{check.name}{about}: 1d6 = {roll}: {check.result(roll)}.", reveals=True)]

    def _commander_quality(self, state: GameState, unit: Unit) -> str:
        """The General whose quality counts: the brigade's own, else the senior surviving one."""
        generals = [u for u in state.units
                    if u.side == unit.side and u.type == "general" and u.status in (ON_TABLE, ROUTING, HIDDEN)]
        own = [g for g in generals if g.brigade and g.brigade == unit.brigade]
        if own:
            return own[0].quality or "none"
        order = {"division": 0, "corps": 1, "army": 2}
        senior = sorted((g for g in generals if g.rank in order), key=lambda g: order[g.rank])
        return (senior[0].quality or "none") if senior else "none"

    def _do_morale(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        ref: Reference = reference()
        unit = self._find(state, p.args[0])
        test = ref.morale[p.args[1]]
        parts: list[tuple[str, int]] = []
        if test.base:
            parts.append(("base", test.base))
        if test.by_class and unit.cls:
            parts.append((f"Class {unit.cls}", test.by_class[unit.cls - 1]))
        quality = self._commander_quality(state, unit)
        if quality in test.by_staff:
            parts.append((f"{quality} General" if quality != "none" else "no General", test.by_staff[quality]))
        parts += [(f, test.factors[f]) for f in p.args[2:]]
        total = sum(v for _, v in parts)
        roll = rng.die(6)
        passed = roll > total
        detail = ", ".join(f"{name} {value:+d}" for name, value in parts) or "no factors"
        return [public(f"**{test.name}** for {unit.name}: factors {detail} = {total}; 1d6 = {roll}: "
                       f"{'PASSED' if passed else 'FAILED'} - {test.on_pass if passed else test.on_fail}",
                       reveals=True)]

    def _do_table(self, state: GameState, seat: str, p: Parsed, rng: Rng) -> list[Event]:
        from games.core.dice import DiceParser

        table = reference().tables[p.args[0]]
        column = table.columns.index(p.args[1])
        modifier = int(p.args[2]) if len(p.args) > 2 else 0
        dice = DiceParser().roll(table.dice, rng)
        total = dice.total + modifier
        result = table.lookup(total, column)
        mod = f" {modifier:+d} = {total}" if modifier else ""
        return [public(f"**{table.name}** ({table.columns[column]}): {dice.describe()}{mod}: {result}", reveals=True)]

    # --- the end -----------------------------------------------------------------------------------
    def _finish(self, state: GameState, reason: str) -> list[Event]:
        state.phase = OVER
        lines = [f"**The battle ends.** {reason}"]
        for r in state.sealed:
            if not r.revealed and not r.cancelled:
                r.revealed = True
                lines.append(f"Record #{r.number} ({self._side_name(state, r.side)}) opened: {r.text} "
                             f"(nonce `{r.nonce}`).")
        outcome = self._result(state)
        state.winner = outcome.winner or ""
        state.end_reason = f"{reason} {outcome.reason}"
        return [public("\n".join(lines), reveals=True)]

    def _result(self, state: GameState) -> Outcome:
        rules = rec.rules()
        m = margin(state, rules, state.options.get("margin") == "scaled")
        details = [self._points_line(state, s.id) for s in state.sides]
        lead = (f"the {self._side_name(state, m.leader)} lost {fmt_halves(m.difference_halves)} points fewer"
                if m.leader else "both lost the same points")
        details.append(f"Points (18.2): {lead}: {m.result} (bands up to {', '.join(map(str, m.thresholds))}"
                       f"{' scaled to ' + str(state.points_limit) + ' points' if state.options.get('margin') == 'scaled' else ' for 800 points'}).")
        if state.objectives:
            details.append("Objectives: " + "; ".join(
                f"{o.name} (wanted by the {self._side_name(state, o.wanted_by)}) held by the "
                f"{self._side_name(state, o.held_by)}" for o in state.objectives) + ".")
        if state.options.get("victory") == "objectives":
            got = [s.id for s in state.sides if objectives_achieved(state, s.id)]
            if len(got) == 1:
                winner: str | None = got[0]
                reason = f"The {self._side_name(state, got[0])} took their objectives and denied the enemy theirs."
            else:
                winner = None
                reason = ("Both sides achieved their objectives: a draw." if got
                          else "Neither side achieved its objectives: a draw.")
        else:
            winner = m.leader if m.result != rules.victory_bands[0][1] and m.leader else None
            reason = (f"{m.result} for the {self._side_name(state, winner)}." if winner
                      else f"{m.result} on points lost.")
        return Outcome(winner, reason, tuple(details))

    def _points_line(self, state: GameState, side: str) -> str:
        lost = side_lost_halves(state, side)
        units = [f"{u.name} {fmt_halves(lost_halves(u))}" for u in state.units
                 if u.side == side and lost_halves(u)]
        return (f"{self._side_name(state, side)}: lost {fmt_halves(lost)} of {side_points(state, side)} points"
                + (f" ({', '.join(units)})" if units else "") + ".")

    def outcome(self, state: GameState) -> Outcome | None:
        if state.phase != OVER:
            return None
        result = self._result(state)
        return Outcome(state.winner or None, state.end_reason, result.details)

    # --- views -------------------------------------------------------------------------------------
    def _find(self, state: GameState, unit_id: str) -> Unit:
        return next(u for u in state.units if u.id == unit_id)

    def view(self, state: GameState, seat: str | None) -> View:
        w, h = float(state.table_width), float(state.table_height)
        table = Terrain("land", points=((0.0, 0.0), (w, 0.0), (w, h), (0.0, h)),
                        label=f"{state.table_width}\" x {state.table_height}\" table: measure on your own")
        board = Board(kind="table", key=f"{SYSTEM_ID}:{state.table_width}x{state.table_height}",
                      name=state.scenario_name, width=w, height=h, table_terrain=(table,))
        depth = float(min(rec.rules().deployment_depth, state.table_height // 2))
        zones = (  # 16.2: the first side's baseline is the bottom edge, the second's the top
            Zone(f"{state.sides[0].name} deployment", state.sides[0].id,
                 polygon=((0.0, h - depth), (w, h - depth), (w, h), (0.0, h))),
            Zone(f"{state.sides[1].name} deployment", state.sides[1].id,
                 polygon=((0.0, 0.0), (w, 0.0), (w, depth), (0.0, depth))),
        )
        return View(
            board=board,
            viewer=seat,
            sides=tuple(SideInfo(s.id, s.name, s.colour) for s in state.sides),
            zones=zones,
            status=tuple(self._status(state)),
            title=f"Days of Iron: {state.scenario_name}",
            private_text=tuple(self._private(state, seat)),
        )

    def _status(self, state: GameState) -> list[str]:
        lines: list[str] = []
        if state.phase == SETUP:
            waiting = ", ".join(s.name for s in state.sides if not s.ready)
            lines.append(f"Set-up: waiting for {waiting} (`staff`, then `ready`).")
        elif state.phase == INITIATIVE:
            lines.append(f"Turn {state.turn + 1}: Initiative phase - roll `initiative`"
                         + (" (or `end`)." if state.turn else "."))
        elif state.phase == TURN:
            lines.append(f"Turn {state.turn}, {STEPS[state.step]} phase: the {self._side_name(state, self._step_side(state))} act. "
                         f"Initiative: {self._side_name(state, state.initiative)}.")
        else:
            lines.append(f"Game over after turn {state.turn}. {state.end_reason}")
        for s in state.sides:
            lost = side_lost_halves(state, s.id)
            gone = [u.name for u in state.units if u.side == s.id and u.status in GONE]
            lines.append(f"{s.name} ({s.force}): OOB {side_points(state, s.id)}/{state.points_limit} pts, "
                         f"lost {fmt_halves(lost)}" + (f"; out: {', '.join(gone)}" if gone else ""))
            staff = [f"{u.name} {u.quality or '?'}" for u in state.units
                     if u.side == s.id and u.type == "general" and u.status not in GONE]
            lines.append(f"{s.name} staff: " + ", ".join(staff))
        m = margin(state, rec.rules(), state.options.get("margin") == "scaled")
        lead = f"{self._side_name(state, m.leader)} ahead by {fmt_halves(m.difference_halves)}" if m.leader else "level"
        lines.append(f"Victory margin so far: {lead} ({m.result}).")
        if state.objectives:
            lines.append("Objectives: " + "; ".join(f"{o.name} - {self._side_name(state, o.held_by)}"
                                                    for o in state.objectives))
        sealed = [r for r in state.sealed if not r.cancelled and not r.revealed]
        if sealed:
            lines.append("Sealed records: " + ", ".join(f"#{r.number} {self._side_name(state, r.side)}" for r in sealed))
        if reference().empty:
            lines.append("No reference tables loaded (shipped game).")
        return lines

    def _private(self, state: GameState, seat: str | None) -> list[str]:
        if seat is None:
            return []
        lines: list[str] = []
        for r in state.sealed:
            if (seat == UMPIRE or r.side == seat) and not r.cancelled:
                state_word = "revealed" if r.revealed else "sealed"
                lines.append(f"#{r.number} ({self._side_name(state, r.side)}, {state_word}): {r.text} - nonce {r.nonce}")
        return lines

    def summary(self, state: GameState) -> list[str]:
        return self._status(state)


__all__ = ["SYSTEM_ID", "DaysOfIron"]
