"""Iron and Fire as a ``Ruleset``: order notation, legal orders, views and the registry entry.

Flow by post: the bot draws the activation cards itself. After set-up (Chile first, then Peru)
each drawn card names the side that acts; that side gives one order per unit it activates and
the next card is drawn as soon as the card's activations are used up, no unit can use them, or
the side says ``done``. Decisions (the first Joker with the Fortunes of War, continuing a
Boarding Combat) wait for the side that must decide.
"""

from __future__ import annotations

import dataclasses
import json
import unicodedata
from typing import Any

from games.core.errors import GameError, IllegalOrder, InvalidSyntax, NotYourTurn, quote, resolve_name
from games.core.hexgrid import Hex, distance
from games.core.maps import load_map
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
from games.core.view import Board, Counter, Overlay, SideInfo, View, Zone
from games.iron_and_fire.data import SIDES, scenarios
from games.iron_and_fire.game import (
    OPTION_CHOICES,
    OPTION_DEFAULTS,
    SIDE_NAMES,
    Game,
    other,
)
from games.iron_and_fire.rules import (
    activations_4,
    boarding_6_3,
    damage_7,
    firing_6_1,
    fortunes_of_war_13_1,
    mines_9,
    movement_5,
    repair_8,
    scenarios_15,
)
from games.iron_and_fire.rules.fortunes_of_war_13_1 import restore, snapshot_of
from games.iron_and_fire.rules.scenarios_15 import new_state
from games.iron_and_fire.state import State, Unit

ACTIVATION_VERBS = ("move", "ram", "fire", "bombard", "board", "repair", "unground", "cut", "prepare")
UNIT_VERBS = (*ACTIVATION_VERBS, "at")
STEP_ALIASES = {"f": "F", "p": "P", "s": "S", "l": "P", "r": "S"}
COLOURS = {"peru": "#c8102e", "chile": "#1f3a93"}

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
House values in use: ship stats, maps, mine mix, turn limits of scenarios 1, 2 and 5."""


def fold(text: str) -> str:
    """Lower case without accents or apostrophes, so `Huascar` finds Huáscar and `ohiggins` O'Higgins."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.replace("'", "").replace("’", "").casefold()


class IronAndFire(Ruleset[State]):
    id = "iron-and-fire"
    name = "Iron and Fire"
    state_type = State
    book = "000_d6993f962167ea23.txt"

    # --- catalogue -----------------------------------------------------------------------------
    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo(s.id, s.name, s.description) for s in scenarios().values()]

    def options(self) -> list[OptionSpec]:
        descriptions = {
            "fow": "Advanced rule 13.1 Fortunes of War",
            "honor": "Advanced rule 13.2 Chilean Honor (needs fow=on)",
            "visibility": "Advanced rule 13.3 Visibility",
            "random_events": "Random Event table on the first Joker (14.0)",
            "ironclad_save": "Ironclad armour ignores hits on an even raw d10 (6.1.4)",
            "battery_save": "Land batteries ignore hits at range 3-4 on an even raw d10 (6.1.4)",
            "boilers": "Scenario 1: Bad Boilers (15.2.2) or Boilers Fixed (15.2.3)",
            "mines": "Scenario 1: 1d6+2 mines within 10 hexes of the east edge",
            "independencia": "Scenarios 3 and 5: the Independencia survives variant",
            "once_per": "A unit activates once per card (ruling) or once per turn (3.0's 'usually')",
            "land_blocks": "Land hexes block line of sight (ruling) or only units do",
            "s2_end": "Scenario 2 at its turn limit: victory points (ruling) or a draw (15.3.4 as printed)",
            "turns": "Override the scenario's turn limit (a number)",
        }
        return [OptionSpec(k, descriptions[k], OPTION_DEFAULTS[k], OPTION_CHOICES.get(k, ())) for k in OPTION_DEFAULTS]

    def help(self) -> str:
        return HELP

    # --- lifecycle -----------------------------------------------------------------------------
    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> State:
        known = scenarios()
        if scenario not in known:
            names = {k: v.name for k, v in known.items()}
            scenario = resolve_name(scenario, names, "scenario")
        clean: dict[str, str] = {}
        for key, value in options.items():
            k, v = key.strip().lower(), value.strip().lower()
            if k not in OPTION_DEFAULTS:
                raise InvalidSyntax(f"No option {quote(key)} in Iron and Fire.", hint="Options: " + ", ".join(OPTION_DEFAULTS) + ".")
            if k == "turns":
                if not v.isdigit() or not 1 <= int(v) <= 99:
                    raise InvalidSyntax(f"Option turns={quote(value)} must be a number of turns from 1 to 99.")
            elif v not in OPTION_CHOICES[k]:
                raise InvalidSyntax(f"Option {k}={quote(value)} is not allowed.", hint="Choose " + " or ".join(OPTION_CHOICES[k]) + ".")
            clean[k] = v
        return new_state(scenario, clean)

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

    def _unit_names(self, state: State) -> dict[str, str]:
        return {u.id: fold(u.name) for u in state.units}

    def _resolve(self, state: State, text: str, what: str = "unit") -> str:
        return resolve_name(fold(text), self._unit_names(state), what)

    def _display(self, state: State, uid: str) -> str:
        for u in state.units:
            if u.id == uid:
                return u.name
        return uid

    def parse_order(self, state: State, seat: str, text: str) -> Order:
        raw = text.strip()
        tokens = fold(raw).replace(",", " ").split()
        if not tokens:
            raise InvalidSyntax("Empty order.", hint="Try `help` for the notation, e.g. `Huascar move F F P F`.")
        head = tokens[0]
        if len(tokens) == 1 and head in ("done", "pass", "continue"):
            return Order(head, (head,))
        if head == "break" and tokens[1:] in ([], ["off"]):
            return Order("break off", ("break",))
        if head == "draw":
            raise InvalidSyntax("There is no `draw` order: the bot draws the activation cards itself.", hint="Give your units' orders, or `done` to end the card in play.")
        if head == "fow":
            return self._parse_fow(state, raw, tokens)
        if head == "roll":
            if len(tokens) != 2:
                raise InvalidSyntax(f"Cannot read {quote(raw)}.", hint="Write `roll <what>`, e.g. `roll mines`.")
            return Order(f"roll {tokens[1]}", ("roll", tokens[1]))
        if head in ("mine", "battery", "cable") and len(tokens) >= 2 and not any(t in UNIT_VERBS for t in tokens[1:]):
            layout = load_map(scenarios()[state.scenario].map).layout
            arg = " ".join(tokens[1:])
            if arg.isdigit():
                h = layout.parse(arg)
                return Order(f"{head} {layout.label(h)}", (head, layout.label(h)))
            if head == "cable":
                uid = self._resolve(state, arg, "ship")
                return Order(f"cable {self._display(state, uid)}", ("cable", "@" + uid))
            raise InvalidSyntax(f"{quote(raw)}: give a hex number CCRR.", hint=f"e.g. `{head} 2305`.")
        verb_at = next((i for i, t in enumerate(tokens) if t in UNIT_VERBS and i > 0), -1)
        if verb_at < 0:
            raise InvalidSyntax(
                f"Cannot read {quote(raw)}.",
                hint="Write `<ship> move F F P F`, `<ship> fire <target>`, `<ship> ram`, `<ship> board <target>`, `<ship> repair`, `<ship> unground`, or `done`.",
            )
        uid = self._resolve(state, " ".join(tokens[:verb_at]))
        name = self._display(state, uid)
        verb = tokens[verb_at]
        rest = tokens[verb_at + 1 :]
        fow = bool(rest) and rest[-1] == "fow"
        if fow:
            rest = rest[:-1]
        fow_text = " fow" if fow else ""
        fow_arg = "fow" if fow else ""
        if verb == "at":
            if rest and rest[0] == "facing":
                rest = rest[1:]
            if len(rest) >= 2 and rest[1] == "facing":
                rest = [rest[0], *rest[2:]]
            if len(rest) not in (1, 2) or not all(t.isdigit() for t in rest):
                raise InvalidSyntax(f"Cannot read {quote(raw)}.", hint=f"Write `{name} at 1606 3` (hex, then facing 1-6).")
            layout = load_map(scenarios()[state.scenario].map).layout
            h = layout.parse(rest[0])
            facing = rest[1] if len(rest) == 2 else ""
            if facing and not 1 <= int(facing) <= 6:
                raise InvalidSyntax(f"Facing {quote(facing)} must be a compass number 1-6.")
            return Order(f"{name} at {layout.label(h)}" + (f" {facing}" if facing else ""), ("at", uid, layout.label(h), facing))
        if verb in ("move", "ram"):
            steps: list[str] = []
            ram = verb == "ram"
            target = ""
            i = 0
            while i < len(rest) and not ram:
                tok = rest[i]
                if tok == "ram":
                    ram = True
                    i += 1
                    break
                for ch in tok:
                    if ch not in STEP_ALIASES:
                        raise InvalidSyntax(f"{quote(tok)} in {quote(raw)} is not a movement step.", hint="Steps: F (forward), P (port), S (starboard).")
                    steps.append(STEP_ALIASES[ch])
                i += 1
            if ram and i < len(rest):
                target = self._resolve(state, " ".join(rest[i:]), "ship")
            elif i < len(rest):
                raise InvalidSyntax(f"Cannot read {quote(raw)}.")
            if verb == "move" and not steps and not ram:
                raise InvalidSyntax(f"{quote(raw)} has no steps.", hint=f"e.g. `{name} move F F P F`.")
            parts = [name, "move" if steps else "ram", *steps]
            if steps and ram:
                parts.append("ram")
            if target:
                parts.append(self._display(state, target))
            return Order(" ".join(parts) + fow_text, ("move", uid, "".join(steps), "ram" if ram else "", target, fow_arg))
        if verb == "fire":
            if not rest:
                raise InvalidSyntax(f"{quote(raw)}: fire at what?", hint=f"e.g. `{name} fire Esmeralda`.")
            if rest[0] in ("town", "antofagasta"):
                return Order(f"{name} fire town", ("bombard", uid))
            tid = self._resolve(state, " ".join(rest), "target")
            return Order(f"{name} fire {self._display(state, tid)}{fow_text}", ("fire", uid, tid, fow_arg))
        if verb == "bombard":
            return Order(f"{name} fire town", ("bombard", uid))
        if verb == "board":
            tid = self._resolve(state, " ".join(rest), "ship") if rest else ""
            return Order(f"{name} board" + (f" {self._display(state, tid)}" if tid else ""), ("board", uid, tid))
        if rest or fow:
            raise InvalidSyntax(f"{quote(raw)}: `{verb}` takes nothing after it.")
        return Order(f"{name} {verb}", (verb, uid))

    def _parse_fow(self, state: State, raw: str, tokens: list[str]) -> Order:
        what = tokens[1] if len(tokens) > 1 else ""
        if what in ("extra", "redraw", "reroll", "end") and len(tokens) == 2:
            return Order(f"fow {what}", ("fow", what))
        if what == "reroll" and len(tokens) == 3 and tokens[2].isdigit():
            return Order(f"fow reroll {int(tokens[2])}", ("fow", "reroll", str(int(tokens[2]))))
        if what == "again" and len(tokens) > 2:
            uid = self._resolve(state, " ".join(tokens[2:]))
            return Order(f"fow again {self._display(state, uid)}", ("fow", "again", uid))
        raise InvalidSyntax(f"Cannot read {quote(raw)}.", hint="Fortunes of War: `fow extra`, `fow again <unit>`, `fow redraw`, `fow reroll`, `fow end`, or add `fow` to a move/ram/fire order.")

    # --- applying -------------------------------------------------------------------------------
    def apply(self, state: State, seat: str, order: Order, rng: Rng) -> list[Event]:
        """Apply an order; events are marked ``reveals`` when a die was rolled or a card drawn,
        so only the umpire can undo it."""
        counter, cards = rng.counter, len(state.deck)
        kept = (state.snapshot, state.snapshot_order, state.snapshot_side, state.snapshot_dice, state.snapshot_mines, state.log_tail)
        try:
            events = self._apply(state, seat, order, rng)
        except GameError:  # a refused order changes nothing, not even the re-roll record
            state.snapshot, state.snapshot_order, state.snapshot_side, state.snapshot_dice, state.snapshot_mines, state.log_tail = kept
            raise
        if rng.counter != counter or len(state.deck) != cards:
            events = [dataclasses.replace(e, reveals=True) for e in events]
        return events

    def _apply(self, state: State, seat: str, order: Order, rng: Rng) -> list[Event]:
        if state.phase == "over":
            raise IllegalOrder("The game is over.", hint="Start a new game.")
        side = self._side(state, seat)
        state.log_tail = []
        args = order.args
        if args[:2] == ("fow", "reroll"):
            return self._reroll(state, side, rng, int(args[2]) if len(args) > 2 else 1)
        previous, previous_dice, previous_mines = state.snapshot, state.snapshot_dice, state.snapshot_mines
        state.snapshot, state.snapshot_dice, state.snapshot_mines = "", [], []
        game = Game(state, rng)
        verb = args[0]
        if verb in ACTIVATION_VERBS:
            before = snapshot_of(state) if game.on("fow") else ""
            self._activate(game, side, args)
            if before and game.rolled:
                state.snapshot, state.snapshot_order, state.snapshot_side = before, order.text, side
                state.snapshot_dice = list(game.rolled)
                state.snapshot_mines = list(game.mine_draws)
            return game.events
        try:
            self._other(game, side, args)
        except Exception:
            state.snapshot, state.snapshot_dice, state.snapshot_mines = previous, previous_dice, previous_mines
            raise
        return game.events

    def _activate(self, game: Game, side: str, args: tuple[str, ...]) -> None:
        verb, uid = args[0], args[1]
        if verb == "move":
            movement_5.move(game, side, uid, list(args[2]), args[4] or None, args[3] == "ram", args[5] == "fow")
        elif verb == "fire":
            firing_6_1.fire(game, side, uid, args[2], args[3] == "fow")
        elif verb == "bombard":
            scenarios_15.bombard(game, side, uid)
        elif verb == "board":
            boarding_6_3.board(game, side, uid, args[2] or None)
        elif verb == "repair":
            repair_8.repair(game, side, uid)
        elif verb == "unground":
            movement_5.unground(game, side, uid)
        elif verb == "cut":
            scenarios_15.cut(game, side, uid)
        elif verb == "prepare":
            boarding_6_3.prepare_prize(game, side, uid)
        activations_4.activation_done(game, game.unit(uid))

    def _other(self, game: Game, side: str, args: tuple[str, ...]) -> None:
        verb = args[0]
        layout = game.layout
        if verb == "done":
            if game.s.phase in ("setup", "arrive"):
                scenarios_15.setup_done(game, side)
            else:
                activations_4.pass_card(game, side)
        elif verb in ("continue", "break"):
            boarding_6_3.boarding_decision(game, side, verb == "continue")
        elif verb == "pass":
            fortunes_of_war_13_1.joker_decision(game, side, False)
        elif verb == "roll":
            scenarios_15.do_roll(game, side, args[1])
        elif verb == "at":
            scenarios_15.place_unit(game, side, args[1], layout.parse(args[2]), int(args[3]) if args[3] else None)
        elif verb == "mine":
            mines_9.place_mine(game, side, layout.parse(args[1]))
        elif verb == "battery":
            scenarios_15.place_battery(game, side, layout.parse(args[1]))
        elif verb == "cable":
            if args[1].startswith("@"):
                u = game.unit(args[1][1:])
                if not u.afloat:
                    raise IllegalOrder(f"Set up {u.name} before putting the buoy with it.")
                scenarios_15.place_cable(game, side, game.pos(u))
            else:
                scenarios_15.place_cable(game, side, layout.parse(args[1]))
        elif verb == "fow":
            what = args[1]
            if what == "extra":
                fortunes_of_war_13_1.fow_extra(game, side)
            elif what == "again":
                fortunes_of_war_13_1.fow_again(game, side, args[2])
            elif what == "redraw":
                fortunes_of_war_13_1.fow_redraw(game, side)
            elif what == "end":
                fortunes_of_war_13_1.joker_decision(game, side, True)
        else:  # pragma: no cover - parse_order only makes the verbs above
            raise InvalidSyntax(f"Unknown order {quote(verb)}.")

    def _reroll(self, state: State, side: str, rng: Rng, which: int) -> list[Event]:
        """13.1 "immediately re-roll any die roll": the last activation is replayed with the
        chosen die rolled afresh and every other die as it fell (until the story diverges)."""
        game = Game(state, rng)
        fortunes_of_war_13_1.fow_check(game, side)
        if not state.snapshot:
            raise IllegalOrder("There is no activation to re-roll right now.", hint="`fow reroll` must come right after the activation that rolled the die.")
        dice = list(state.snapshot_dice)
        mines = {(q, r): value for q, r, value in state.snapshot_mines}
        if not 1 <= which <= len(dice):
            listing = ", ".join(f"{i + 1}) d{f} {v}" for i, (f, v) in enumerate(dice))
            raise IllegalOrder(f"The last activation rolled {len(dice)} dice; there is no die {which}.", hint=f"Dice: {listing}.")
        snap, order_text, actor = state.snapshot, state.snapshot_order, state.snapshot_side
        used_turn, used_ever, turn = list(state.fow_used_turn), list(state.fow_used_ever), state.turn
        if json.loads(snap)["turn"] != turn:
            raise IllegalOrder("That activation belongs to an earlier turn; it can no longer be re-rolled.")
        restore(state, snap)
        state.log_tail = []
        game = Game(state, rng)
        game.replay, game.reroll_index = dice, which - 1
        game.replay_mines = mines
        faces, value = dice[which - 1]
        game.say(f"{SIDE_NAMES[side]} plays the Fortunes of War: re-roll die {which} (d{faces} {value}) of `{order_text}`. The activation is replayed:")
        order = self.parse_order(state, actor, order_text)
        self._activate(game, actor, order.args)
        state.snapshot_dice = list(game.rolled)
        mines.update({(q, r): v for q, r, v in game.mine_draws})
        state.snapshot_mines = [(q, r, v) for (q, r), v in mines.items()]
        state.fow_used_turn = sorted(set(used_turn) | set(state.fow_used_turn) | {side})
        state.fow_used_ever = sorted(set(used_ever) | set(state.fow_used_ever) | {side})
        state.fow_holder = other(side)
        state.snapshot, state.snapshot_order, state.snapshot_side = snap, order_text, actor
        game.say(f"The Fortunes of War passes to {SIDE_NAMES[other(side)]}.")
        return game.events

    # --- legal orders ----------------------------------------------------------------------------
    def legal_orders(self, state: State, seat: str) -> list[str]:
        try:
            side = self._side(state, seat)
        except NotYourTurn:
            return []
        game = Game(state)
        out: list[str] = []
        if state.phase in ("setup", "arrive"):
            if side == state.setup_side:
                out.extend(self._setup_orders(game, side))
            return out
        if state.phase == "joker" and side == state.decider:
            return ["fow end", "pass"]
        if state.phase == "boarding" and state.decider in (side, "both"):
            return ["continue", "break off"]
        if state.phase != "activations":
            return out
        fow_ok = game.on("fow") and state.fow_holder == side and side not in state.fow_used_turn
        if state.card_side == side:
            for u in state.units:
                if u.controller == side and activations_4.can_activate(game, u):
                    out.extend(self._unit_orders(game, u))
            if fow_ok:
                out.append("fow extra")
                out.extend(f"fow again {u.name}" for u in state.units if u.controller == side and u.afloat and u.id in state.used)
        if fow_ok and state.snapshot:
            out.extend(f"fow reroll {i + 1}" for i in range(len(state.snapshot_dice)))
        if fow_ok and state.card and not state.used:
            out.append("fow redraw")
        if state.card_side == side:
            out.append("done")
        return out

    def _setup_orders(self, game: Game, side: str) -> list[str]:
        s = game.s
        out: list[str] = []
        if s.phase == "setup":
            out.extend(f"roll {r.key}" for r in game.rolls_for(side) if r.key not in s.rolls_done)
            pending = [game.unit(d.ship) for d in game.deploy_for(side, arriving=False)]
        else:
            pending = [u for u in s.units if u.controller == side and u.status == "waiting" and u.arrive_turn == s.turn]
        hexes = game.layout.all_hexes()
        for u in pending:
            if u.status != "waiting":
                continue
            spec = game.spec_of(u.id)
            if spec is None:
                continue
            facings = spec.facings or (1, 2, 3, 4, 5, 6)
            mates = [
                game.pos(m) for m in s.units
                if m.id != u.id and m.afloat and spec.group and (game.spec_of(m.id) or spec).group == spec.group
            ]
            cells = [h for h in hexes if self._free_for_ship(game, spec.zone, h) and all(distance(h, m) <= spec.group_within for m in mates)]
            for k, h in enumerate(_spread(cells, 6)):
                out.append(f"{u.name} at {game.label(h)} {facings[k % len(facings)]}")
        mines = game.scn.mines
        if mines is not None and mines.side == side and s.mines_to_place > 0:
            cells = [h for h in hexes if not game.in_zone(mines.zone, h) and game.terrain(h) not in ("land", "town") and game.mine_at(h) is None and game.unit_at(h) is None]
            out.extend(f"mine {game.label(h)}" for h in _spread(cells, 6))
        bats = game.scn.batteries
        if bats is not None and bats.side == side and s.batteries_to_place > 0:
            cells = [h for h in hexes if not game.in_zone(bats.zone, h) and game.terrain(h) in ("land", "town") and game.unit_at(h) is None]
            out.extend(f"battery {game.label(h)}" for h in _spread(cells, 6))
        cable = game.scn.cable
        if cable is not None and cable.side == side and s.cable is None and s.phase == "setup":
            if cable.on_ship:
                out.extend(f"cable {u.name}" for u in s.units if u.side == side and u.afloat)
            else:
                cells = [h for h in hexes if not game.in_zone(cable.zone, h) and game.terrain(h) == "deep"]
                out.extend(f"cable {game.label(h)}" for h in _spread(cells, 6))
        if not scenarios_15.setup_remaining(game, side):
            out.append("done")
        return out

    def _free_for_ship(self, game: Game, zone: Any, h: Hex) -> bool:
        return not game.in_zone(zone, h) and game.terrain(h) not in ("land", "town") and game.unit_at(h) is None and game.mine_at(h) is None

    def _unit_orders(self, game: Game, u: Unit) -> list[str]:
        s = game.s
        out: list[str] = []
        enemies = [t for t in s.units if t.afloat and t.controller != u.controller]
        for t in enemies:
            if not firing_6_1.fire_problem(game, u, t):
                out.append(f"{u.name} fire {t.name}")
        if u.battery:
            return out
        if u.id == "huascar" and game.scn.bombard_target and any(
            distance(game.pos(u), h) <= 4 and not game.line_blocker(game.pos(u), h) for h, t in game.map.terrain.items() if t == "town"
        ):
            out.append(f"{u.name} fire town")
        for t in enemies:
            locked_with_us = not t.boarding_with or game.unit(t.boarding_with).controller == u.controller
            fighting = u.boarding_with == t.id or t.boarding_with == u.id
            if not t.battery and distance(game.pos(u), game.pos(t)) == 1 and (fighting or (not u.captured and not u.boarding_with and locked_with_us)):
                out.append(f"{u.name} board {t.name}")
        can_move = not u.grounded and not u.boarding_with and (not u.captured or (s.prize_ready.get(u.controller) == u.id and s.last_friendly.get(u.controller) == u.id))
        mp = damage_7.eff_mp(game, u)
        if s.cable_slow and s.cable_ship == u.id:
            mp = min(mp, 1)
        if can_move and mp > 0:
            seqs: list[str] = [""]
            for _ in range(mp):
                seqs = seqs + [q + c for q in seqs for c in "FPS" if len(q) < mp]
            seen: set[str] = set()
            for seq in seqs:
                if not seq or seq in seen:
                    continue
                seen.add(seq)
                try:
                    entered, facing, leaves = movement_5.plan_path(game, u, list(seq))
                except IllegalOrder:
                    continue
                out.append(f"{u.name} move {' '.join(seq)}")
                if not leaves and len(seq) < mp and not u.captured:
                    ahead = game.layout.neighbour(entered[-1] if entered else game.pos(u), facing)
                    target = game.unit_at(ahead)
                    if target is not None and not target.battery and target.controller != u.controller:
                        out.append(f"{u.name} move {' '.join(seq)} ram")
            ahead = game.layout.neighbour(game.pos(u), u.facing)
            target = game.unit_at(ahead)
            if target is not None and not target.battery and target.controller != u.controller and not u.captured:
                out.append(f"{u.name} ram")
        if u.hits:
            out.append(f"{u.name} repair")
        if u.grounded:
            out.append(f"{u.name} unground")
        if game.scn.cable is not None and game.scn.cable.rule == "activations" and s.cable == (u.q, u.r) and not s.cable_cut:
            out.append(f"{u.name} cut")
        if u.captured and s.prize_ready.get(u.controller) != u.id:
            out.append(f"{u.name} prepare")
        return out

    # --- views -----------------------------------------------------------------------------------
    def view(self, state: State, seat: str | None) -> View:
        game = Game(state)
        hexmap = game.map
        board: Board = hexmap.board()
        layout = hexmap.layout
        umpire = seat == UMPIRE
        counters: list[Counter] = []
        acting = state.phase == "activations" and bool(state.card)  # the ring: who may act now
        for u in state.units:
            if not u.afloat:
                continue
            markers: list[str] = []
            if u.grounded:
                markers.append("grounded")
            if "fire" in u.criticals:
                markers.append("fire")
            if any(c != "fire" for c in u.criticals):
                markers.append("critical")
            if u.captured:
                markers.append("captured")
            if u.boarding_with:
                markers.append("boarding")
            if damage_7.crippled(game, u):
                markers.append("crippled")
            damage_max = 3 if u.battery else u.pf + 1
            counters.append(
                Counter(
                    id=u.id,
                    label=u.name,
                    side=u.side,
                    pos=(float(u.q), float(u.r)),
                    facing=None if u.battery else layout.bearing(u.facing),
                    damage=u.hits,
                    damage_max=damage_max,
                    damage_text=f"{u.hits}H" if u.hits else "",
                    markers=tuple(markers),
                    highlight=acting and activations_4.can_activate(game, u),  # still free to act on this card (4.2)
                    kind="battery" if u.battery else "ship",
                )
            )
        for i, m in enumerate(state.mines):
            counters.append(
                Counter(
                    id=f"mine{i}",
                    label=f"Mine {m.value}" if m.value else "",
                    side="",
                    pos=(float(m.q), float(m.r)),
                    face_down=not m.value,
                    kind="mine",
                )
            )
        if state.cable is not None:
            counters.append(
                Counter(id="cable", label="Cable" + (" (cut)" if state.cable_cut else ""), side="", pos=(float(state.cable[0]), float(state.cable[1])), kind="marker", markers=("flag",))
            )
        overlays: list[Overlay] = []
        last = state.last
        if last.kind in ("path", "fire", "ram") and last.points:
            kind: Any = last.kind
            overlays.append(Overlay(kind, tuple((float(q), float(r)) for q, r in last.points), last.side, last.text))
        zones: list[Zone] = []
        if state.phase in ("setup", "arrive"):
            side = state.setup_side
            pending = [u for u in state.units if u.side == side and u.status == "waiting" and ((state.phase == "setup" and not u.arrive_turn) or (state.phase == "arrive" and u.arrive_turn == state.turn))]
            by_cells: dict[tuple[tuple[float, float], ...], list[str]] = {}
            for u in pending:
                spec = game.spec_of(u.id)
                if spec is None:
                    continue
                cells = tuple((float(h.q), float(h.r)) for h in layout.all_hexes() if not game.in_zone(spec.zone, h) and game.terrain(h) not in ("land", "town"))
                by_cells.setdefault(cells, []).append(u.name)
            # ships sharing a set-up zone share one outline and label (labels drawn apart overlap)
            zones.extend(Zone(names[0] if len(names) == 1 else f"{len(names)} ships", side, cells) for cells, names in by_cells.items())
            mines = game.scn.mines
            if mines is not None and mines.side == side and state.mines_to_place:
                cells = tuple((float(h.q), float(h.r)) for h in layout.all_hexes() if not game.in_zone(mines.zone, h) and game.terrain(h) not in ("land", "town"))
                zones.append(Zone("Mines", side, cells))
        private_text: list[str] = []
        for sec in state.secrets:
            if umpire or seat == sec.side:
                private_text.append(f"Secret ({sec.purpose}): {sec.text}" + (" (revealed)" if sec.revealed else ""))
        if (umpire or seat == "peru") and game.scn.cable is not None and game.scn.cable.rule == "activations":
            private_text.append(f"Cable cutting: {state.cable_progress} of {game.secret_value('cable') or '?'} activations.")
        return View(
            board=board,
            viewer=seat,
            sides=(SideInfo("peru", "Peru", COLOURS["peru"]), SideInfo("chile", "Chile", COLOURS["chile"])),
            counters=tuple(counters),
            overlays=tuple(overlays),
            zones=tuple(zones),
            status=tuple(self._status(game, seat)),
            title=game.scn.name,
            private_text=tuple(private_text),
        )

    def _status(self, game: Game, seat: str | None) -> list[str]:
        s = game.s
        lines: list[str] = []
        if s.phase == "setup":
            lines.append(f"Set-up: {SIDE_NAMES[s.setup_side]} is placing (Chile first, then Peru).")
        elif s.phase == "over":
            winner = SIDE_NAMES.get(s.result_winner, "Nobody (draw)")
            lines.append(f"Game over after turn {s.turn}: {winner}. {s.result_reason}")
        else:
            phase = {"arrive": f"arrivals ({SIDE_NAMES[s.setup_side]} places)", "joker": f"first Joker ({SIDE_NAMES.get(s.decider, '')} decides)", "boarding": f"Boarding Combat ({SIDE_NAMES.get(s.decider, 'either side')} decides)"}.get(s.phase, "activations")
            lines.append(f"Turn {s.turn} of {s.turns}: {phase}. Cards left {len(s.deck)}, Jokers drawn {s.jokers_drawn}" + (f", extra draws left {s.extra_draws}" if s.extra_draws >= 0 else "") + ".")
            if s.card:
                left = s.acts_left
                lines.append(f"Card {activations_4.card_name(game, s.card)}: {SIDE_NAMES[s.card_side]}, {left} activation{'s' if left != 1 else ''} left" + (f" (done: {', '.join(game.unit(x).name for x in s.used)})" if s.used else "") + ".")
        if game.on("fow"):
            holder = SIDE_NAMES.get(s.fow_holder, "nobody")
            used = ", ".join(SIDE_NAMES[x] for x in s.fow_used_turn) or "nobody"
            lines.append(f"Fortunes of War: held by {holder}; used this turn by {used}.")
        if game.on("fow") and s.snapshot and s.snapshot_dice:
            dice = ", ".join(f"{i + 1}) d{f} {v}" for i, (f, v) in enumerate(s.snapshot_dice))
            lines.append(f"Dice of the last activation (`fow reroll N` re-rolls one): {dice}.")
        if game.scn.bombard_target:
            lines.append(f"Bombardment hits on Antofagasta: {s.bombard_hits} of {game.scn.bombard_target}.")
        if game.scn.cable is not None:
            lines.append("Cable: " + ("cut." if s.cable_cut else "intact."))
        if s.lucky_shot or s.save_captain or s.save_admiral:
            pending = [f"Lucky Shot ({SIDE_NAMES[x]})" for x in s.lucky_shot]
            pending += ["Save the Captain"] if s.save_captain else []
            pending += ["Save the Admiral"] if s.save_admiral else []
            lines.append("Pending events: " + ", ".join(pending) + ".")
        secret_steam = any(sec.key == "steam" and not sec.revealed for sec in s.secrets)
        for u in s.units:
            if u.status == "waiting":
                continue
            where = game.label(game.pos(u)) if u.afloat else u.status
            bits = [f"{u.name} ({SIDE_NAMES[u.side]}{', held by ' + SIDE_NAMES[u.controller] if u.captured else ''}): {where}"]
            if u.afloat:
                if u.battery:
                    bits.append(f"hits {u.hits}/3, CF {sign_text(u.cf)}, PF {u.pf}")
                else:
                    show_mp = not (u.id == "covadonga" and secret_steam and seat not in ("chile", UMPIRE))
                    mp = f"MP {damage_7.eff_mp(game, u)}, " if show_mp else ""
                    bits.append(f"facing {game.printed(u.facing)}, hits {u.hits}/{u.pf}, {mp}CF {sign_text(damage_7.eff_cf(game, u))}, PF {u.pf}")
                    extras = [c.title() for c in u.criticals]
                    if u.grounded:
                        extras.append("grounded")
                    if u.boarding_with:
                        extras.append(f"boarding {game.unit(u.boarding_with).name}")
                    if damage_7.crippled(game, u):
                        extras.append("crippled")
                    if extras:
                        bits.append(", ".join(extras))
            lines.append("; ".join(bits))
        lines.append("House values in use: ship stats, maps, mine mix" + (", turn limit" if game.scn.turns_source == "house" and not s.options.get("turns") else "") + ".")
        return lines

    def summary(self, state: State) -> list[str]:
        return list(self.view(state, None).status)


def sign_text(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def _spread(items: list[Hex], n: int) -> list[Hex]:
    """Up to ``n`` items spread evenly through the list (varied autocomplete suggestions)."""
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


@register("iron-and-fire")
def _factory() -> Ruleset[Any]:
    return IronAndFire()
