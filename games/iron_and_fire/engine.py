"""Iron and Fire rules: set-up, card-driven activations, movement, firing, ramming, boarding,
damage, criticals, mines, the End Phase, victory and the advanced rules.

Book sections are cited in comments. Every die shows its raw value, modifiers, total and target
in the event text. Functions mutate the ``State`` they are given: the table service hands in a
copy and drops it when a ``GameError`` is raised.
"""

from __future__ import annotations

import json
import math
from dataclasses import fields

from games.core.codec import from_json, to_json
from games.core.decks import is_joker, is_red, rank_of, standard_cards
from games.core.dice import roll, roll_die
from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase, quote
from games.core.hexgrid import Hex, distance, line
from games.core.maps import HexMap, load_map
from games.core.rng import Rng, seal
from games.core.ruleset import UMPIRE, Event, private, public
from games.iron_and_fire.data import (
    SIDES,
    DeploySpec,
    RollSpec,
    Scenario,
    Zone,
    battery,
    mine_mix,
    random_events,
    scenarios,
    ships,
)
from games.iron_and_fire.state import LastAction, Mine, Secret, State, Unit

SIDE_NAMES = {"peru": "Peru", "chile": "Chile"}
CRITICAL_TABLE = {1: "false alarm", 2: "bridge", 3: "fire", 4: "fire", 5: "propulsion", 6: "steering"}
CRITICAL_NAMES = {"bridge": "Bridge", "fire": "Fire", "propulsion": "Propulsion", "steering": "Steering"}
WATER_SHALLOW = ("shallow", "shoal")
LAND = ("land", "town")

OPTION_DEFAULTS: dict[str, str] = {
    "fow": "off",
    "honor": "off",
    "visibility": "off",
    "random_events": "on",
    "ironclad_save": "on",
    "battery_save": "on",
    "boilers": "bad",
    "mines": "off",
    "independencia": "sunk",
    "once_per": "card",
    "land_blocks": "on",
    "s2_end": "vp",
    "turns": "",
}
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "fow": ("off", "on"),
    "honor": ("off", "on"),
    "visibility": ("off", "on"),
    "random_events": ("on", "off"),
    "ironclad_save": ("on", "off"),
    "battery_save": ("on", "off"),
    "boilers": ("bad", "fixed"),
    "mines": ("off", "on"),
    "independencia": ("sunk", "survives"),
    "once_per": ("card", "turn"),
    "land_blocks": ("on", "off"),
    "s2_end": ("vp", "draw"),
}


def other(side: str) -> str:
    return "chile" if side == "peru" else "peru"


def sign(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def describe_mods(mods: list[tuple[str, int]]) -> str:
    return "".join(f" {sign(v)} {name}" for name, v in mods)


class Game:
    """One application of rules to a state with the game's random stream; collects events."""

    def __init__(self, state: State, rng: Rng | None = None) -> None:
        self.s = state
        self._rng = rng
        self.scn: Scenario = scenarios()[state.scenario]
        self.map: HexMap = load_map(self.scn.map)
        self.layout = self.map.layout
        self.events: list[Event] = []
        # Fortunes of War re-roll: replay these dice except the one at ``reroll_index``
        self.replay: list[tuple[int, int]] | None = None
        self.reroll_index = -1
        self.diverged = False
        self.rolled: list[tuple[int, int]] = []  # (faces, value) of every die rolled here
        # Mine counters turned over here (q, r, counter); a re-roll meets the same counters again
        self.mine_draws: list[tuple[int, int, str]] = []
        self.replay_mines: dict[tuple[int, int], str] = {}

    # --- plumbing ------------------------------------------------------------------------------
    @property
    def rng(self) -> Rng:
        if self._rng is None:  # pragma: no cover - a programming error, not user input
            raise RuntimeError("this step needs the random stream")
        return self._rng

    def say(self, text: str, *, reveals: bool = False) -> None:
        self.events.append(public(text, reveals=reveals))
        self.s.log_tail.append(text)

    def tell(self, side: str, text: str) -> None:
        self.events.append(private(text, side))

    def opt(self, key: str) -> str:
        return self.s.options.get(key, OPTION_DEFAULTS.get(key, ""))

    def on(self, key: str) -> bool:
        return self.opt(key) == "on"

    def d(self, faces: int) -> int:
        """One die from the game's stream (a d10 reads 0 as 10).

        When a Fortunes of War re-roll replays an activation, every die but the chosen one keeps
        its earlier value, until the story diverges (a different die is called for).
        """
        i = len(self.rolled)
        plan = self.replay
        if plan is not None and not self.diverged and i != self.reroll_index:
            if i < len(plan) and plan[i][0] == faces:
                value = plan[i][1]
            else:
                self.diverged = True
                value = roll_die(self.rng, faces)
        else:
            value = roll_die(self.rng, faces)
        self.rolled.append((faces, value))
        return value

    def dice(self, count: int, faces: int) -> tuple[list[int], int]:
        """Several dice (e.g. 2d6) through ``d``: (values, total)."""
        values = [self.d(faces) for _ in range(count)]
        return values, sum(values)

    # --- geometry ------------------------------------------------------------------------------
    def pos(self, u: Unit) -> Hex:
        return Hex(u.q, u.r)

    def label(self, h: Hex) -> str:
        return self.layout.label(h)

    def terrain(self, h: Hex) -> str:
        return self.map.terrain_at(h)

    def dir_of(self, printed: int) -> int:
        return self.map.compass.index(str(printed))

    def printed(self, direction: int) -> str:
        return self.map.compass[direction % 6]

    def on_map_units(self) -> list[Unit]:
        return [u for u in self.s.units if u.afloat]

    def unit_at(self, h: Hex) -> Unit | None:
        for u in self.s.units:
            if u.afloat and u.q == h.q and u.r == h.r:
                return u
        return None

    def unit(self, uid: str) -> Unit:
        for u in self.s.units:
            if u.id == uid:
                return u
        raise IllegalOrder(f"No unit {quote(uid)} in this game.")

    def mine_at(self, h: Hex) -> Mine | None:
        for m in self.s.mines:
            if m.q == h.q and m.r == h.r:
                return m
        return None

    def on_row(self, origin: Hex, direction: int, target: Hex) -> bool:
        """Whether ``target`` lies on the straight hexrow out of ``origin`` in ``direction``."""
        h = origin
        for _ in range(40):
            h = self.layout.neighbour(h, direction)
            if h == target:
                return True
        return False

    def edge_of(self, h: Hex) -> str:
        """The compass name of the map edge an off-map hex lies beyond, by the scenario's north
        (the top edge, printed 6, in Scenarios 1, 2 and 5; the bottom edge in 3 and 4)."""
        col, row = self.layout.to_offset(h)
        lay = self.layout
        top_is_north = self.dir_of(self.scn.north) == self.dir_of(6)
        if col < lay.first_col:
            return "west" if top_is_north else "east"
        if col >= lay.first_col + lay.cols:
            return "east" if top_is_north else "west"
        if row < lay.first_row:
            return "north" if top_is_north else "south"
        return "south" if top_is_north else "north"

    def line_blocker(self, a: Hex, b: Hex) -> str:
        """What blocks the line of sight from a to b ('' if clear): units or land (6.1.1, ruling)."""
        for h in line(a, b)[1:]:
            if h == b:
                continue
            blocker = self.unit_at(h)
            if blocker is not None:
                return f"{blocker.name} in {self.label(h)}"
            if self.terrain(h) in LAND and self.on("land_blocks"):
                return f"land in {self.label(h)}"
        return ""

    # --- unit values (7.1) ---------------------------------------------------------------------
    def half_pf(self, u: Unit) -> int:
        return math.ceil(u.pf / 2)

    def steam_limited(self, u: Unit) -> bool:
        return u.id == "covadonga" and self.s.scenario == "s2" and self.s.turn <= self.s.steam_turns

    def eff_cf(self, u: Unit) -> int:
        cf = u.cf
        if not u.battery:
            if u.hits >= 2:
                cf -= 2
            if u.hits >= 4:
                cf -= 1
        return cf

    def base_mp(self, u: Unit) -> int:
        """MP from hits and criticals, without temporary penalties (section 7.1, 10.0)."""
        if u.battery:
            return 0
        if u.hits >= u.pf:
            return 0
        mp = u.mf
        if self.steam_limited(u):  # 15.3.2: 1 MP; any damage that drops MP by one makes it drift
            mp = min(1, u.mf) - (1 if u.hits >= self.half_pf(u) else 0)
        elif u.hits >= self.half_pf(u):
            mp = min(mp, 1)
        mp -= u.criticals.count("propulsion")
        return max(0, mp)

    def mp_secret(self, u: Unit) -> bool:
        """The Covadonga's MP gives away the secret steam roll until it is revealed."""
        return u.id == "covadonga" and any(sec.key == "steam" and not sec.revealed for sec in self.s.secrets)

    def eff_mp(self, u: Unit) -> int:
        return max(0, self.base_mp(u) - u.mp_penalty)

    def crippled(self, u: Unit) -> bool:
        """2.1/12.0: hits that take MP to 0 (hits equal to PF, 7.1) and CF below 0; critical
        hits and raising steam do not cripple."""
        return not u.battery and u.hits >= u.pf and self.eff_cf(u) < 0

    def honor_bound(self, u: Unit) -> bool:
        """Chilean Honor (13.2): black-bow Chilean ships while Peru holds the Fortunes of War."""
        if not (self.on("honor") and self.on("fow")) or u.side != "chile" or u.bow != "black" or u.honor_done:
            return False
        if self.s.fow_holder != "peru":
            return False
        return any(self._peruvian_ironclad(p) for p in self.s.units)

    def _peruvian_ironclad(self, p: Unit) -> bool:
        """An afloat, ungrounded Peruvian ironclad still under Peruvian command (13.2)."""
        return p.afloat and not p.grounded and p.side == "peru" and p.controller == "peru" and p.type in ("TIC", "BIC", "CBIC")

    def nearest_ironclad(self, h: Hex) -> int:
        return min(
            (distance(h, self.pos(p)) for p in self.s.units if self._peruvian_ironclad(p)),
            default=0,
        )

    def honor_check(self, u: Unit, entered: list[Hex]) -> None:
        """13.2: an honour-bound ship may not open the range to the nearest Peruvian ironclad."""
        before = self.nearest_ironclad(self.pos(u))
        after = self.nearest_ironclad(entered[-1]) if entered else before
        if after > before:
            raise IllegalOrder(
                f"Chilean Honor: {u.name} must close with the nearest Peruvian ironclad to ram it ({before} hexes away now, {after} after this move).",
                hint="Move towards it at best rate, or ram when the bow is on it.",
            )

    # --- damage (7.0, 10.0) -------------------------------------------------------------------
    def hit(self, u: Unit, n: int, cause: str, by: str = "") -> None:
        """Put ``n`` hits on a unit and carry out sinking, surrender and the random-event checks."""
        if n <= 0 or not u.afloat:
            return
        u.hits += n
        if u.battery:
            limit = battery().surrender_hits
            if u.hits >= limit:
                u.status = "surrendered"
                u.sunk_by = by
                self.say(f"{u.name} takes {n} hit{'s' if n > 1 else ''} ({cause}) and surrenders ({u.hits} hits).")
            else:
                self.say(f"{u.name} takes {n} hit{'s' if n > 1 else ''} ({cause}): {u.hits} of {limit}.")
            return
        if u.hits > u.pf:
            u.status = "sunk"
            u.sunk_by = by
            self._break_boarding(u)
            self.say(f"{u.name} takes {n} hit{'s' if n > 1 else ''} ({cause}): {u.hits} hit{'s' if u.hits != 1 else ''}, more than PF {u.pf}: **sunk**.")
            return
        effects = [f"MP {self.eff_mp(u)}"] if not self.mp_secret(u) else []
        effects.append(f"CF {sign(self.eff_cf(u))}")
        if self.crippled(u):
            effects.append("crippled")
        self.say(f"{u.name} takes {n} hit{'s' if n > 1 else ''} ({cause}): {u.hits} hit{'s' if u.hits != 1 else ''}, {', '.join(effects)}.")
        if self.s.save_captain and u.side == "chile":
            self.s.save_captain = False
            self._save_roll(u, "Save the Captain", "chile")
        if self.s.save_admiral and u.id in ("huascar", "independencia"):
            self.s.save_admiral = False
            self._save_roll(u, "Save the Admiral", "peru")

    def _save_roll(self, u: Unit, what: str, side: str) -> None:
        die = self.d(6)
        if die == 6:
            u.criticals.append("bridge")
            self.say(f"{what}: {SIDE_NAMES[side]} rolls d6 **6**: {u.name} is marked with a Bridge critical hit.")
        else:
            self.say(f"{what}: {SIDE_NAMES[side]} rolls d6 **{die}**: no effect (needs 6).")

    def critical(self, u: Unit, by: str = "") -> None:
        """Roll 1d6 on the Critical Hit table (10.0) and apply it; ``by`` set the fire (credit)."""
        if not u.afloat or u.battery:
            return
        die = self.d(6)
        kind = CRITICAL_TABLE[die]
        if kind == "false alarm":
            self.say(f"Critical hit on {u.name}: d6 **{die}**: False Alarm, no effect.")
            return
        u.criticals.append(kind)
        if kind == "fire" and not u.fire_by:
            u.fire_by = by
        extra = ""
        if kind == "propulsion":
            extra = " MF −1" + ("" if self.mp_secret(u) else f" (now MP {self.eff_mp(u)}" + (", it will drift)" if self.base_mp(u) == 0 else ")"))
        self.say(f"Critical hit on {u.name}: d6 **{die}**: {CRITICAL_NAMES[kind]}.{extra}")

    def _unlock(self, a: Unit, b: Unit) -> None:
        """Remove the Boarding Combat markers between a and b (each may be locked elsewhere)."""
        if a.boarding_with == b.id:
            a.boarding_with = ""
        if b.boarding_with == a.id:
            b.boarding_with = ""
        # a target still boarded by another ship stays locked with that one
        for x in (a, b):
            if not x.boarding_with:
                partner = next((y for y in self.s.units if y.afloat and y.boarding_with == x.id), None)
                if partner is not None:
                    x.boarding_with = partner.id

    def _break_boarding(self, u: Unit) -> None:
        """A ship leaves play: every Boarding Combat it was part of ends."""
        partners = [y for y in self.s.units if y.id != u.id and (y.boarding_with == u.id or u.boarding_with == y.id)]
        if partners or u.boarding_with:
            for y in partners:
                self._unlock(u, y)
            u.boarding_with = ""
            if self.s.phase == "boarding" and u.id in self.s.boarding_pair:
                self.s.phase = "activations"
                self.s.decider = ""
                self.s.boarding_pair = []

    # --- grounding (5.1, 5.2, 15.3.3) ---------------------------------------------------------
    def grounding_check(self, u: Unit, mp_used: int, why: str, hexes: int = 0) -> bool:
        """Roll for grounding; return True if the ship grounds (and stops).

        ``mp_used`` feeds 5.1's "+1 if the ship uses 2 MP"; ``hexes`` (hexes entered this
        activation) feeds 15.3.3's "+1: ship moving two or more hexes".
        """
        if self.scn.shoal_table:
            return self._shoal_table(u, hexes, why)
        die = self.d(10)
        mods: list[tuple[str, int]] = []
        if mp_used >= 2:
            mods.append(("2nd MP", 1))
        if u.hits >= 2:
            mods.append((f"{u.hits} hits", u.hits // 2))
        if u.criticals:
            mods.append(("criticals", len(u.criticals)))
        if self.on("visibility") and self.s.turn >= 7:
            mods.append(("low visibility", 1))
        total = die + sum(v for _, v in mods)
        head = f"Grounding check for {u.name} ({why}): d10 **{die}**{describe_mods(mods)} = {total} vs PF {u.pf}"
        if total < u.pf:
            self.say(f"{head}: clear.")
            return False
        u.grounded = True
        if total >= 2 * u.pf:
            self.say(f"{head} (twice PF {2 * u.pf}): **grounded** and 1 hit.")
            self.hit(u, 1, "grounding")
        else:
            self.say(f"{head}: **grounded**.")
        return True

    def _shoal_table(self, u: Unit, hexes: int, why: str) -> bool:
        die = self.d(6)
        mods: list[tuple[str, int]] = []
        if u.id == "independencia":
            mods.append(("Independencia", 1))
        if hexes >= 2:
            mods.append(("moving two or more hexes", 1))
        if "bridge" in u.criticals:
            mods.append(("Bridge critical", 1))
        if "steering" in u.criticals:
            mods.append(("Rudder critical", 1))
        total = die + sum(v for _, v in mods)
        head = f"Shoals check for {u.name} ({why}, 15.3.3): d6 **{die}**{describe_mods(mods)} = {total} vs 5"
        if total < 5:
            self.say(f"{head}: clear.")
            return False
        u.grounded = True
        n = sum(v for _, v in mods)
        self.say(f"{head}: **aground**, {n} hit{'s' if n != 1 else ''} (one per modifier).")
        self.hit(u, n, "grounding on the shoals")
        return True

    def unground_roll(self, u: Unit, when: str) -> None:
        """5.3: d10 + modifiers below PF frees the ship; twice PF adds a hit (ruling)."""
        die = self.d(10)
        mods: list[tuple[str, int]] = []
        if u.hits >= 2:
            mods.append((f"{u.hits} hits", u.hits // 2))
        if u.criticals:
            mods.append(("criticals", len(u.criticals)))
        if self.crippled(u):
            mods.append(("crippled", 1))
        total = die + sum(v for _, v in mods)
        head = f"{u.name} tries to unground ({when}): d10 **{die}**{describe_mods(mods)} = {total} vs PF {u.pf}"
        if total < u.pf:
            u.grounded = False
            self.say(f"{head}: **afloat** again.")
        elif total >= 2 * u.pf:
            self.say(f"{head} (twice PF {2 * u.pf}): stays grounded and takes 1 hit.")
            self.hit(u, 1, "grounding")
        else:
            self.say(f"{head}: stays grounded.")

    # --- mines (9.0) --------------------------------------------------------------------------
    def mine_attack(self, u: Unit, mine: Mine, fow_mod: int) -> None:
        h = Hex(mine.q, mine.r)
        if not mine.value:
            bag = self.s.mine_bag
            known = self.replay_mines.get((mine.q, mine.r))
            if known is not None:  # a Fortunes of War replay: the counter is the one turned over before
                if known in bag:
                    bag.remove(known)
                mine.value = known
            else:
                mine.value = bag.pop(self.rng.below(len(bag))) if bag else "None"
            self.mine_draws.append((mine.q, mine.r, mine.value))
        if mine.value == "None":
            self.s.mines.remove(mine)
            self.say(f"{u.name} enters {self.label(h)}: the mine counter is turned over: **None**. Removed.", reveals=True)
            return
        n = int(mine.value)
        values, rolled = self.dice(2, 6)
        mods: list[tuple[str, int]] = [("mine counter", n)]
        if fow_mod:
            mods.append(("Fortunes of War", -fow_mod))
        total = rolled + sum(v for _, v in mods)
        head = (
            f"{u.name} enters {self.label(h)}: mine counter **{n}**. Mine attack: 2d6 "
            f"[{', '.join(str(v) for v in values)}] = {rolled}{describe_mods(mods)} = {total} vs PF {u.pf}"
        )
        if total < u.pf:
            self.say(f"{head}: no effect.", reveals=True)
            return
        self.s.mines.remove(mine)
        if total > u.pf:
            self.say(f"{head}: greater than PF, the ship **sinks**.", reveals=True)
            self.hit(u, u.pf + 1 - u.hits, "mine")
        else:
            hits = 2 if total % 2 == 0 else 3
            self.say(f"{head}: equal to PF ({'even' if hits == 2 else 'odd'}), {hits} hits.", reveals=True)
            self.hit(u, hits, "mine")

    # --- Fortunes of War (13.1) ---------------------------------------------------------------
    def fow_check(self, side: str) -> None:
        if not self.on("fow"):
            raise IllegalOrder("Fortunes of War is not in use in this game.", hint="Start a game with options:fow=on.")
        if self.s.fow_holder != side:
            raise IllegalOrder(f"{SIDE_NAMES[side]} does not hold the Fortunes of War.")
        if side in self.s.fow_used_turn:
            raise IllegalOrder(f"{SIDE_NAMES[side]} has already used the Fortunes of War this turn.")

    def fow_use(self, side: str, what: str) -> bool:
        """Spend the counter; return True on the player's first use in the game."""
        self.fow_check(side)
        first = side not in self.s.fow_used_ever
        self.s.fow_used_turn.append(side)
        if first:
            self.s.fow_used_ever.append(side)
        self.s.fow_holder = other(side)
        self.say(f"{SIDE_NAMES[side]} plays the Fortunes of War: {what}. The counter passes to {SIDE_NAMES[other(side)]}.")
        return first

    # --- secrets ------------------------------------------------------------------------------
    def reveal(self, key: str) -> None:
        for sec in self.s.secrets:
            if sec.key == key and not sec.revealed:
                sec.revealed = True
                self.say(
                    f"Secret roll revealed ({sec.purpose}): {sec.text}. Check: sha256 of "
                    f"`{sec.nonce}:{sec.text}` is `{sec.digest}`.",
                    reveals=True,
                )

    def secret_value(self, key: str) -> int:
        for sec in self.s.secrets:
            if sec.key == key:
                return sec.value
        return 0

    # ==========================================================================================
    # Set-up (15.0: Chile first, then Peru)
    # ==========================================================================================
    def variant_ok(self, variant: str) -> bool:
        if not variant:
            return True
        key, _, value = variant.partition("=")
        return self.opt(key) == value

    def rolls_for(self, side: str) -> list[RollSpec]:
        out = [r for r in self.scn.rolls if r.side == side and self.variant_ok(r.variant)]
        mines = self.scn.mines
        if mines is not None and mines.dice and mines.side == side and (not mines.option or self.on(mines.option)):
            out.append(RollSpec("mines", side, mines.dice, "number of mine counters"))
        return out

    def deploy_for(self, side: str, *, arriving: bool) -> list[DeploySpec]:
        out = []
        for d in self.scn.deploy:
            if not self.variant_ok(d.variant) or ships()[d.ship].side != side:
                continue
            if bool(d.arrive_turn or d.arrive_roll) == arriving:
                out.append(d)
        return out

    def spec_of(self, uid: str) -> DeploySpec | None:
        for d in self.scn.deploy:
            if d.ship == uid and self.variant_ok(d.variant):
                return d
        return None

    def in_zone(self, zone: Zone, h: Hex) -> str:
        """'' if ``h`` satisfies the zone, else why not."""
        lay = self.layout
        if not lay.on_map(h):
            return "off the map"
        col, row = lay.to_offset(h)
        lab = self.label(h)
        if zone.hexes and lab not in zone.hexes:
            return f"{lab} is not one of the listed hexes"
        if zone.rows and row not in zone.rows:
            return f"{lab} is not in row " + " or ".join(f"{r:02d}" for r in zone.rows)
        if zone.cols and not zone.cols[0] <= col <= zone.cols[1]:
            return f"{lab} is not in columns {zone.cols[0]}-{zone.cols[1]}"
        if zone.near and not any(distance(h, lay.parse(n)) <= zone.within for n in zone.near):
            return f"{lab} is more than {zone.within} hexes from " + " and ".join(zone.near)
        if zone.near_terrain:
            anchors = [x for x, t in self.map.terrain.items() if t == zone.near_terrain]
            if not any(distance(h, a) <= zone.within for a in anchors):
                return f"{lab} is more than {zone.within} hexes from any {zone.near_terrain} hex"
        if zone.far_terrain:
            anchors = [x for x, t in self.map.terrain.items() if t == zone.far_terrain]
            if any(distance(h, a) < zone.far for a in anchors):
                return f"{lab} is closer than {zone.far} hexes to a {zone.far_terrain} hex"
        for sid in zone.near_ships:
            ship = next((u for u in self.s.units if u.id == sid and u.afloat), None)
            if ship is not None and distance(h, self.pos(ship)) > zone.within:
                return f"{lab} is more than {zone.within} hexes from {ship.name}"
        if zone.terrain and self.terrain(h) not in zone.terrain:
            return f"{lab} is {self.terrain(h)}, not " + " or ".join(zone.terrain)
        return ""

    def setup_remaining(self, side: str) -> list[str]:
        """What ``side`` still has to do before ``done`` (empty when complete)."""
        s = self.s
        todo: list[str] = []
        if s.phase == "arrive":
            for u in s.units:
                if u.controller == side and u.status == "waiting" and u.arrive_turn == s.turn:
                    todo.append(f"place {u.name}")
            return todo
        for r in self.rolls_for(side):
            if r.key not in s.rolls_done:
                todo.append(f"roll {r.key}")
        for d in self.deploy_for(side, arriving=False):
            if self.unit(d.ship).status == "waiting":
                todo.append(f"place {self.unit(d.ship).name}")
        if self.scn.mines is not None and self.scn.mines.side == side and s.mines_to_place:
            todo.append(f"place {s.mines_to_place} more mine{'s' if s.mines_to_place > 1 else ''}")
        if self.scn.batteries is not None and self.scn.batteries.side == side and s.batteries_to_place:
            todo.append(f"place {s.batteries_to_place} more land batter{'ies' if s.batteries_to_place > 1 else 'y'}")
        if self.scn.cable is not None and self.scn.cable.side == side and s.cable is None:
            todo.append("place the cable buoy")
        return todo

    def _setup_guard(self, side: str) -> None:
        if self.s.phase not in ("setup", "arrive"):
            raise WrongPhase("Set-up is over.", hint="Give activation orders now.")
        if side != self.s.setup_side:
            raise NotYourTurn(f"{SIDE_NAMES[self.s.setup_side]} is setting up now, not {SIDE_NAMES.get(side, side)}.")

    def do_roll(self, side: str, key: str) -> None:
        self._setup_guard(side)
        if self.s.phase != "setup":
            raise WrongPhase("Set-up rolls are made before play.")
        specs = {r.key: r for r in self.rolls_for(side)}
        if key not in specs:
            known = ", ".join(sorted(specs)) or "none"
            raise IllegalOrder(f"{SIDE_NAMES[side]} has no set-up roll {quote(key)} in this scenario.", hint=f"Rolls: {known}.")
        if key in self.s.rolls_done:
            raise IllegalOrder(f"The {quote(key)} roll is already made.")
        spec = specs[key]
        dice = roll(spec.dice, self.rng)
        value = dice.total
        self.s.rolls_done[key] = value
        meaning = self._roll_effect(spec, value)
        text = f"{spec.dice} = {value}: {meaning}"
        if spec.secret:
            nonce = self.rng.nonce()
            digest = seal(text, nonce)
            self.s.secrets.append(Secret(key, side, spec.purpose, value, text, nonce, digest))
            self.say(f"{SIDE_NAMES[side]} makes a secret roll: {spec.purpose}. Commitment: `{digest}`.")
            self.tell(side, f"Your secret roll ({spec.purpose}): {dice.describe()} → {meaning}. Nonce `{nonce}`.")
        else:
            self.say(f"{SIDE_NAMES[side]} rolls for {spec.purpose}: {dice.describe()} → {meaning}.")

    def _roll_effect(self, spec: RollSpec, value: int) -> str:
        s = self.s
        if spec.key == "steam":
            s.steam_turns = 1 if value <= 2 else 2 if value <= 4 else 3
            return f"the Covadonga moves at 1 MP for {s.steam_turns} turn{'s' if s.steam_turns > 1 else ''}"
        if spec.key == "arrival":
            for d in self.scn.deploy:
                if d.arrive_roll == "arrival":
                    self.unit(d.ship).arrive_turn = value
            return f"the Unión arrives on turn {value}"
        if spec.key == "inshore":
            turn = 2 if value % 2 == 0 else 3
            for d in self.scn.deploy:
                if d.arrive_roll == "inshore":
                    self.unit(d.ship).arrive_turn = turn
            return f"the Inshore Squadron enters on turn {turn}"
        if spec.key == "cable":
            return f"the cable is cut after {value} consecutive activations atop the buoy"
        if spec.key == "mines":
            s.mines_to_place = value
            return f"{value} mine counters to place"
        if spec.key == "batteries":
            n = max(0, value) if s.scenario != "s4" else (2 if value % 2 == 0 else 3)
            s.batteries_to_place = n
            return f"{n} land batter{'ies' if n != 1 else 'y'}"
        if spec.key == "damage":
            u = self.unit("independencia")
            hits = (1 if value % 2 else 2) if s.scenario == "s3" else (2 if value % 2 == 0 else 3)
            u.hits = hits
            return f"the Independencia starts with {hits} hits"
        return str(value)

    def place_unit(self, side: str, uid: str, h: Hex, printed_facing: int | None) -> None:
        self._setup_guard(side)
        u = self.unit(uid)
        if u.side != side:
            raise NotYourTurn(f"{u.name} is not a {SIDE_NAMES[side]} ship.")
        spec = self.spec_of(uid)
        if spec is None:
            raise IllegalOrder(f"{u.name} does not take part in this scenario.")
        arriving = bool(spec.arrive_turn or spec.arrive_roll)
        if self.s.phase == "setup" and arriving:
            raise IllegalOrder(f"{u.name} is not set up now: it arrives later in the game.")
        if self.s.phase == "arrive" and not (u.status == "waiting" and u.arrive_turn == self.s.turn):
            raise IllegalOrder(f"{u.name} is not arriving now.")
        why = self.in_zone(spec.zone, h)
        if why:
            raise IllegalOrder(f"{u.name} cannot set up in {quote(self.label(h) if self.layout.on_map(h) else '?')}: {why}.", hint=f"Zone: {spec.zone.describe()}.")
        if self.terrain(h) in LAND:
            raise IllegalOrder(f"{u.name} cannot set up on {self.terrain(h)} ({self.label(h)}).")
        occupant = self.unit_at(h)
        if occupant is not None and occupant.id != uid:
            raise IllegalOrder(f"{self.label(h)} is occupied by {occupant.name}: no stacking.")
        if self.mine_at(h) is not None:
            raise IllegalOrder(f"{self.label(h)} holds a mine counter; set up elsewhere.")
        if printed_facing is None:
            if spec.facings:
                raise IllegalOrder(f"Give {u.name}'s facing: " + " or ".join(str(f) for f in spec.facings) + ".")
            raise IllegalOrder(f"Give {u.name}'s facing, a compass number 1-6.")
        if spec.facings and printed_facing not in spec.facings:
            raise IllegalOrder(
                f"{u.name} must face " + " or ".join(str(f) for f in spec.facings) + f", not {printed_facing}.",
            )
        if spec.group and spec.group_within:
            for mate in self.s.units:
                mspec = self.spec_of(mate.id)
                if mate.id != uid and mate.afloat and mspec is not None and mspec.group == spec.group and distance(h, self.pos(mate)) > spec.group_within:
                        raise IllegalOrder(f"{u.name} must be within {spec.group_within} hexes of {mate.name} ({self.label(self.pos(mate))}).")
        u.q, u.r = h.q, h.r
        u.facing = self.dir_of(printed_facing)
        u.status = "afloat"
        self.say(f"{u.name} sets up in {self.label(h)} facing {printed_facing}.")
        if self.s.scenario == "s3" and self.s.cable is not None and self.s.cable_ship == uid:
            self.s.cable = (h.q, h.r)

    def place_mine(self, side: str, h: Hex) -> None:
        self._setup_guard(side)
        spec = self.scn.mines
        if spec is None or spec.side != side or (spec.option and not self.on(spec.option)):
            raise IllegalOrder(f"{SIDE_NAMES[side]} places no mines in this game.")
        if "mines" not in self.s.rolls_done:
            raise IllegalOrder("Roll for the number of mines first.", hint="Order: roll mines")
        if self.s.mines_to_place <= 0:
            raise IllegalOrder("All mine counters are placed.")
        why = self.in_zone(spec.zone, h)
        if why:
            raise IllegalOrder(f"No mine in {quote(self.label(h))}: {why}.", hint=f"Zone: {spec.zone.describe()}.")
        if self.terrain(h) in LAND:
            raise IllegalOrder(f"No mine on {self.terrain(h)} ({self.label(h)}).")
        if self.mine_at(h) is not None or self.unit_at(h) is not None:
            raise IllegalOrder(f"{self.label(h)} is taken: one mine to a hex and not under a ship.")
        self.s.mines.append(Mine(h.q, h.r))
        self.s.mines_to_place -= 1
        self.say(f"{SIDE_NAMES[side]} places a face-down mine counter in {self.label(h)}.")

    def place_battery(self, side: str, h: Hex) -> None:
        self._setup_guard(side)
        spec = self.scn.batteries
        if spec is None or spec.side != side:
            raise IllegalOrder(f"{SIDE_NAMES[side]} places no land batteries in this scenario.")
        if "batteries" not in self.s.rolls_done:
            raise IllegalOrder("Roll for the number of land batteries first.", hint="Order: roll batteries")
        if self.s.batteries_to_place <= 0:
            raise IllegalOrder("All land batteries are placed.")
        if self.terrain(h) not in LAND:
            raise IllegalOrder(f"A land battery goes on a land or town hex; {self.label(h)} is {self.terrain(h)}.")
        why = self.in_zone(spec.zone, h)
        if why:
            raise IllegalOrder(f"No battery in {quote(self.label(h))}: {why}.", hint=f"Zone: {spec.zone.describe()}.")
        if self.unit_at(h) is not None:
            raise IllegalOrder(f"{self.label(h)} already holds a battery: one per hex.")
        b = battery()
        n = sum(1 for u in self.s.units if u.battery) + 1
        self.s.units.append(
            Unit(id=f"battery{n}", name=f"{b.name} {n}", side=side, type="battery", mf=0, cf=b.cf, pf=b.pf, q=h.q, r=h.r, status="afloat", controller=side)
        )
        self.s.batteries_to_place -= 1
        self.say(f"{SIDE_NAMES[side]} places {b.name} {n} in {self.label(h)}.")

    def place_cable(self, side: str, h: Hex) -> None:
        self._setup_guard(side)
        spec = self.scn.cable
        if spec is None or spec.side != side:
            raise IllegalOrder("There is no cable buoy for you to place in this scenario.")
        if spec.on_ship:
            ship = self.unit_at(h)
            if ship is None or ship.side != side or ship.battery:
                raise IllegalOrder(f"The buoy goes in the same hex as a {SIDE_NAMES[side]} ship; {self.label(h)} holds none.", hint="Set up the ship first, then: cable <ship>.")
            self.s.cable_ship = ship.id
        else:
            why = self.in_zone(spec.zone, h)
            if why or self.terrain(h) in (*LAND, *WATER_SHALLOW):
                raise IllegalOrder(f"The buoy cannot go in {self.label(h)}: {why or 'it must be deep water'}.", hint=f"Zone: {spec.zone.describe()}, not land or shallow water.")
        self.s.cable = (h.q, h.r)
        self.say(f"{SIDE_NAMES[side]} places the Underwater Cable Buoy in {self.label(h)}.")

    def setup_done(self, side: str) -> None:
        self._setup_guard(side)
        todo = self.setup_remaining(side)
        if todo:
            raise IllegalOrder(f"{SIDE_NAMES[side]} is not finished setting up.", hint="Still to do: " + "; ".join(todo) + ".")
        if self.s.phase == "arrive":
            self.say(f"{SIDE_NAMES[side]}'s arrivals are in place.")
            self.begin_activations()
            return
        self.say(f"{SIDE_NAMES[side]} has finished setting up.")
        if side == "chile":
            self.s.setup_side = "peru"
        else:
            self.begin_turn(1)

    # ==========================================================================================
    # Turn structure (3.0, 4.0, 11.0)
    # ==========================================================================================
    def begin_turn(self, turn: int) -> None:
        s = self.s
        s.turn = turn
        s.deck = standard_cards(jokers=2)
        self.rng.shuffle(s.deck)
        s.discards = []
        s.jokers_drawn = 0
        s.extra_draws = -1
        s.acted_sides = []
        s.turn_used = []
        s.fow_used_turn = []
        s.fired_on_huascar = []
        s.card = ""
        s.card_side = ""
        s.acts_left = 0
        s.used = []
        self.say(f"**Turn {turn}** of {s.turns}: the deck of 54 cards is shuffled.")
        if s.scenario == "s2" and turn == s.steam_turns + 1 and s.steam_turns:
            self.say("The Covadonga has raised steam: full MP from now on.")
            self.reveal("steam")
        if s.cable is not None and not s.cable_cut and self.scn.cable is not None and self.scn.cable.rule == "turns":
            atop = self.unit_at(Hex(*s.cable))
            if atop is not None and atop.side == "peru" and atop.controller == "peru":
                if atop.id != s.cable_ship:
                    s.cable_progress = 0
                s.cable_ship = atop.id
                s.cable_clean = True
            else:
                s.cable_ship = ""
                s.cable_progress = 0
        self.begin_arrivals()

    def begin_arrivals(self) -> None:
        s = self.s
        for side in ("chile", "peru"):
            if any(u.status == "waiting" and u.arrive_turn == s.turn and u.controller == side for u in s.units):
                s.phase = "arrive"
                s.setup_side = side
                keys = {d.arrive_roll for d in self.scn.deploy if d.arrive_roll and self.unit(d.ship).arrive_turn == s.turn}
                for key in sorted(keys):
                    self.reveal(key)
                names = ", ".join(u.name for u in s.units if u.status == "waiting" and u.arrive_turn == s.turn and u.controller == side)
                self.say(f"Arriving this turn: {names}. {SIDE_NAMES[side]} places them, then says `done`.")
                return
        self.begin_activations()

    def begin_activations(self) -> None:
        self.s.phase = "activations"
        self.advance()

    def acts_for(self, card: str) -> int:
        rank = rank_of(card)
        if rank in ("J", "Q", "K"):
            return 3
        value = 1 if rank == "A" else int(rank)
        return 1 if value % 2 else 2

    def advance(self) -> None:
        """Draw cards until a side has a choice to make (the bot draws for the players)."""
        s = self.s
        guard = 0
        while s.phase == "activations" and not s.card:
            guard += 1
            if guard > 200:  # pragma: no cover - defensive
                raise RuntimeError("card loop did not settle")
            if s.extra_draws == 0 or not s.deck:
                if not s.deck and s.extra_draws != 0:
                    self.say("The deck is exhausted.")
                self.end_phase()
                continue
            card = s.deck.pop()
            s.discards.append(card)
            if s.extra_draws > 0:
                s.extra_draws -= 1
            if is_joker(card):
                s.jokers_drawn += 1
                if s.jokers_drawn == 1:
                    if self.on("fow") and s.fow_holder and s.fow_holder not in s.fow_used_turn and s.extra_draws < 0:
                        s.phase = "joker"
                        s.decider = s.fow_holder
                        self.say(f"First Joker drawn. {SIDE_NAMES[s.fow_holder]} holds the Fortunes of War: `fow end` to end the Activations Phase, or `pass` for a Random Event roll.")
                        return
                    self.say("First Joker drawn.")
                    self.random_event()
                    continue
                missing = [x for x in SIDES if x not in s.acted_sides and self.side_can_act(x)]
                if missing and s.extra_draws < 0:
                    values, total = self.dice(2, 6)
                    s.extra_draws = total
                    self.say(f"Second Joker drawn, but {', '.join(SIDE_NAMES[x] for x in missing)} has not activated this turn (4.1): 2d6 [{values[0]}, {values[1]}] = **{total}** more card draws before the turn ends.")
                    continue
                self.say("Second Joker drawn: the Activations Phase ends.")
                self.end_phase()
                continue
            side = "peru" if is_red(card) else "chile"
            n = self.acts_for(card)
            s.card, s.card_side, s.acts_left, s.used, s.bonus_unit = card, side, n, [], ""
            if not any(self.can_activate(u) for u in s.units if u.controller == side):
                self.say(f"Card {self.card_name(card)}: {SIDE_NAMES[side]} has no unit able to act; the card is passed.")
                s.card, s.card_side, s.acts_left = "", "", 0
                continue
            self.say(f"Card {self.card_name(card)}: {SIDE_NAMES[side]} activates up to {n} unit{'s' if n > 1 else ''}.")
            return

    def card_name(self, card: str) -> str:
        from games.core.decks import card_name

        return card_name(card)

    def finish_card(self) -> None:
        s = self.s
        s.card, s.card_side, s.acts_left, s.used, s.bonus_unit = "", "", 0, [], ""
        self.advance()

    def side_can_act(self, side: str) -> bool:
        return any(u.afloat and u.controller == side for u in self.s.units)

    def random_event(self) -> None:
        if not self.on("random_events"):
            self.say("Random Events are not in use: no event.")
            return
        values, total = self.dice(2, 6)
        event = next(e for e in random_events() if e.low <= total <= e.high)
        self.say(f"Random Event, 2d6 [{values[0]}, {values[1]}] = **{total}**: {event.text}")
        s = self.s
        if event.key == "fickle_luck" and self.on("fow") and s.fow_holder:
            s.fow_holder = other(s.fow_holder)
            self.say(f"The Fortunes of War passes to {SIDE_NAMES[s.fow_holder]}.")
        elif event.key in ("order_confusion", "confusing_signal"):
            side = "peru" if event.key == "order_confusion" else "chile"
            for u in s.units:
                if u.afloat and u.controller == side and not u.battery:
                    u.mp_penalty = 1
        elif event.key == "save_the_captain":
            s.save_captain = True
        elif event.key == "save_the_admiral":
            s.save_admiral = True
        elif event.key in ("lucky_shot_peru", "lucky_shot_chile"):
            side = event.key.removeprefix("lucky_shot_")
            if side not in s.lucky_shot:
                s.lucky_shot.append(side)

    def end_phase(self) -> None:
        """11.1 in order: victory, critical repairs, ungrounding, drift, then the next turn."""
        s = self.s
        s.card, s.card_side, s.acts_left = "", "", 0
        self.say(f"**End Phase** of turn {s.turn}.")
        if self.check_victory(end_phase=True):
            return
        for u in list(s.units):
            if u.afloat and u.criticals:
                self.repair_criticals(u)
        for u in s.units:
            if u.afloat and u.grounded and not u.battery:
                self.unground_roll(u, "End Phase")
        for u in s.units:
            if u.afloat and not u.battery and not u.grounded and self.eff_mp(u) == 0 and not u.boarding_with:
                if s.cable is not None and u.id == s.cable_ship and (u.q, u.r) == s.cable and not s.cable_cut:
                    continue
                self.drift(u)
        for u in s.units:
            u.mp_penalty = 0
        if self.scn.cable is not None and self.scn.cable.rule == "turns" and not s.cable_cut:
            self.cable_turn_check()
        if self.check_victory(end_phase=False):
            return
        if s.turn >= s.turns:
            self.final_result(f"the last turn ({s.turns}) is over")
            return
        self.begin_turn(s.turn + 1)

    def repair_criticals(self, u: Unit) -> None:
        """10.0: mandatory End-Phase repair rolls for every critical hit."""
        kept: list[str] = []
        skip_boiler = u.bad_boilers
        for kind in list(u.criticals):
            if not u.afloat:
                break
            if kind == "propulsion" and skip_boiler:
                skip_boiler = False
                kept.append(kind)
                continue
            die = self.d(6)
            if kind == "fire":
                if die <= 3:
                    self.say(f"{u.name}: Fire repair d6 **{die}**: fire extinguished.")
                elif die == 6:
                    self.say(f"{u.name}: Fire repair d6 **6**: the fire reaches the powder magazine! The ship **blows up**.")
                    u.status = "sunk"
                    u.sunk_by = u.fire_by  # the ship whose hit set the fire sank her
                    self._break_boarding(u)
                    return
                else:
                    n = 1 if die == 4 else 2
                    self.say(f"{u.name}: Fire repair d6 **{die}**: the fire remains.")
                    kept.append(kind)
                    self.hit(u, n, "fire", u.fire_by)
            else:
                fixed = die % 2 == 0
                self.say(f"{u.name}: {CRITICAL_NAMES[kind]} repair d6 **{die}**: {'repaired' if fixed else 'not repaired'}.")
                if not fixed:
                    kept.append(kind)
        if u.afloat:
            u.criticals = kept
            if "fire" not in kept:
                u.fire_by = ""

    def drift(self, u: Unit) -> None:
        """5.4: one hex with the current, no facing change."""
        direction = self.dir_of(self.scn.current)
        target = self.layout.neighbour(self.pos(u), direction)
        if not self.layout.on_map(target):
            u.status = "sunk"  # eliminated (5.4): counts as lost, never as an exit
            self._break_boarding(u)
            self.say(f"{u.name} drifts off the map and is eliminated (counted as sunk).")
            return
        terrain = self.terrain(target)
        if self.unit_at(target) is not None and terrain not in LAND:  # a battery's hex is still land
            self.say(f"{u.name} would drift into {self.label(target)} but it is occupied: stays put.")
            return
        if terrain in LAND:
            u.grounded = True
            self.say(f"{u.name} drifts onto the {terrain} at {self.label(target)}: grounded in its hex and 2 hits.")
            self.hit(u, 2, "drifting onto land")
            return
        u.q, u.r = target.q, target.r
        self.say(f"{u.name} drifts to {self.label(target)}.")
        if terrain in WATER_SHALLOW:
            u.grounded = True
            self.say(f"{u.name} drifts into {terrain} water: automatically grounded.")
        mine = self.mine_at(target)
        if mine is not None and u.afloat:
            self.mine_attack(u, mine, 0)

    def cable_turn_check(self) -> None:
        """15.4.2: a whole turn atop the buoy without moving, firing, ramming or boarding."""
        s = self.s
        if not s.cable_ship or s.cable is None:
            return
        u = self.unit(s.cable_ship)
        if not u.afloat or (u.q, u.r) != s.cable or not s.cable_clean or u.controller != "peru":
            s.cable_progress = 0
            return
        s.cable_progress += 1
        die = self.d(10)
        mod = s.cable_progress - 1
        total = die + mod
        text = f"{u.name} works on the cable (turn {s.cable_progress} atop the buoy): d10 **{die}**{describe_mods([('turns after the first', mod)])} = {total} vs 5"
        if total >= 5:
            s.cable_cut = True
            self.say(f"{text}: **the cable is cut**.")
        else:
            self.say(f"{text}: not yet.")

    # ==========================================================================================
    # Activations (4.2)
    # ==========================================================================================
    def can_activate(self, u: Unit) -> bool:
        s = self.s
        if not u.afloat or u.controller != s.card_side:
            return False
        if u.id in s.used and s.bonus_unit != u.id:
            return False
        if self.opt("once_per") == "turn" and u.id in s.turn_used and s.bonus_unit != u.id:
            return False
        if u.battery:
            return any(self.fire_problem(u, t) == "" for t in self.s.units if t.afloat and t.controller != u.controller)
        return True

    def activation_guard(self, side: str, uid: str) -> Unit:
        s = self.s
        if s.phase in ("setup", "arrive"):
            raise WrongPhase("Set-up is not finished yet.", hint="Place your units and say `done`.")
        if s.phase == "over":
            raise WrongPhase("The game is over.")
        if s.phase in ("joker", "boarding"):
            raise WrongPhase(f"{SIDE_NAMES.get(s.decider, 'A side')} must decide first.", hint="`fow end` or `pass`." if s.phase == "joker" else "`continue` or `break off`.")
        u = self.unit(uid)
        if u.controller != side:
            raise NotYourTurn(f"{u.name} is not under {SIDE_NAMES.get(side, side)}'s command.")
        if s.card_side != side:
            raise NotYourTurn(f"The card in play ({self.card_name(s.card)}) activates {SIDE_NAMES.get(s.card_side, '?')}, not {SIDE_NAMES[side]}.")
        if not u.afloat:
            raise IllegalOrder(f"{u.name} is no longer in play ({u.status}).")
        if u.id in s.used and s.bonus_unit != u.id:
            raise IllegalOrder(f"{u.name} has already activated on this card.", hint="One activation per unit per card; choose another unit or `done`.")
        if self.opt("once_per") == "turn" and u.id in s.turn_used and s.bonus_unit != u.id:
            raise IllegalOrder(f"{u.name} has already activated this turn (option once_per=turn).")
        return u

    def activation_done(self, u: Unit) -> None:
        s = self.s
        side = u.controller
        if u.id in s.used and s.bonus_unit == u.id:
            s.bonus_unit = ""
        s.used.append(u.id)
        if u.id not in s.turn_used:
            s.turn_used.append(u.id)
        s.acts_left -= 1
        u.mp_penalty = 0
        if side not in s.acted_sides:
            s.acted_sides.append(side)
        if s.prize_ready.get(side) and s.prize_ready[side] != u.id:
            del s.prize_ready[side]
        s.last_friendly[side] = u.id
        if self.check_victory(end_phase=False):
            return
        if s.phase == "boarding":
            return
        self.continue_card()

    def continue_card(self) -> None:
        s = self.s
        if s.phase != "activations":
            return
        if s.acts_left <= 0 or not any(self.can_activate(x) for x in s.units):
            self.finish_card()

    def pass_card(self, side: str) -> None:
        s = self.s
        if s.phase != "activations" or s.card_side != side:
            raise NotYourTurn(f"There is no {SIDE_NAMES.get(side, side)} card in play to end.")
        self.say(f"{SIDE_NAMES[side]} ends the activations of {self.card_name(s.card)}.")
        self.finish_card()

    # --- movement (5.0) -----------------------------------------------------------------------
    def plan_path(self, u: Unit, steps: list[str]) -> tuple[list[Hex], int, bool]:
        """Validate a path without dice: returns (hexes entered, final facing, leaves map)."""
        h, facing = self.pos(u), u.facing
        entered: list[Hex] = []
        for i, step in enumerate(steps):
            if step == "P":
                facing = (facing - 1) % 6
            elif step == "S":
                facing = (facing + 1) % 6
            else:
                nxt = self.layout.neighbour(h, facing)
                if not self.layout.on_map(nxt):
                    if i != len(steps) - 1:
                        raise IllegalOrder(f"{u.name} leaves the map at step {i + 1}; nothing can follow.", hint="End the order with the F that leaves the map.")
                    return entered, facing, True
                if self.terrain(nxt) in LAND:
                    raise IllegalOrder(f"{u.name} cannot enter {self.label(nxt)}: it is {self.terrain(nxt)} (step {i + 1}).")
                occupant = self.unit_at(nxt)
                if occupant is not None:
                    raise IllegalOrder(f"{u.name} cannot enter {self.label(nxt)}: {occupant.name} is there (no stacking, step {i + 1}).")
                h = nxt
                entered.append(h)
        return entered, facing, False

    def move(self, side: str, uid: str, steps: list[str], ram_target: str | None, ram: bool, fow: bool) -> None:
        u = self.activation_guard(side, uid)
        s = self.s
        if u.battery:
            raise IllegalOrder(f"{u.name} is a land battery: it never moves.")
        if u.boarding_with:
            raise IllegalOrder(f"{u.name} is locked in a Boarding Combat: it cannot move or ram.")
        if u.grounded:
            raise IllegalOrder(f"{u.name} is grounded and cannot move.", hint=f"Try `{u.name} unground`.")
        if u.captured and ram:
            raise IllegalOrder(f"{u.name} is a captured ship: it never rams.")
        if u.captured and not (s.prize_ready.get(side) == u.id and s.last_friendly.get(side) == u.id):
            raise IllegalOrder(f"{u.name} is a prize: moving it needs two consecutive activations.", hint=f"First `{u.name} prepare`, then move it on your next activation.")
        mp = self.eff_mp(u)
        slow = s.cable_slow and s.cable_ship == u.id
        if slow:
            mp = min(mp, 1)
        need = len(steps) + (1 if ram else 0)
        if need == 0:
            raise IllegalOrder(f"{u.name}: the move has no steps.", hint="Steps are F (forward), P (port), S (starboard), e.g. `move F F P F`.")
        if need > mp:
            why = " (first move after cutting the cable)" if slow else ""
            raise IllegalOrder(f"{u.name} has {mp} MP{why} this activation; that order needs {need}.")
        entered, final_facing, leaves = self.plan_path(u, steps)
        target: Unit | None = None
        if ram:
            if leaves:
                raise IllegalOrder("A ship that leaves the map cannot ram.")
            ahead = self.layout.neighbour(entered[-1] if entered else self.pos(u), final_facing)
            target = self.unit_at(ahead)
            if target is None or target.battery or target.controller == side:
                raise IllegalOrder(f"{u.name}'s bow would not point at an adjacent enemy ship ({self.label(ahead) if self.layout.on_map(ahead) else 'off the map'}).", hint="Ram needs the bow on an adjacent enemy ship.")
            if ram_target and target.id != ram_target:
                raise IllegalOrder(f"{u.name}'s bow would point at {target.name}, not {self.unit(ram_target).name}.")
        if self.honor_bound(u) and not ram:
            self.honor_check(u, entered)
        if fow:
            self.fow_check(side)
        # --- carry it out
        if s.cable_ship == u.id:
            s.cable_clean = False
            if slow and steps:
                s.cable_slow = False
        if u.captured:
            s.prize_ready.pop(side, None)
        fow_mod = 0
        if fow:
            fow_mod = 2 if self.fow_use(side, "a bonus on this movement's ram or mine attack") else 1
        start = self.pos(u)
        path: list[tuple[int, int]] = [(start.q, start.r)]
        if "bridge" in u.criticals:
            die = self.d(6)
            if die % 2 == 0:
                u.criticals.remove("bridge")
                self.say(f"{u.name} (Bridge critical): d6 **{die}**, even: the Bridge hit is cleared; the ship moves normally.")
            else:
                self.say(f"{u.name} (Bridge critical): d6 **{die}**, odd: the ship cannot move. The activation is spent.")
                s.last = LastAction("path", side, path, "bridge hit")
                return
        taken: list[str] = []
        mp_used = 0
        stopped = ""
        for step in steps:
            mp_used += 1
            if step in ("P", "S"):
                if "steering" in u.criticals:
                    die = self.d(6)
                    if die % 2:
                        stopped = f"Steering critical: d6 **{die}**, odd: the turn fails and the activation is spent"
                        break
                    self.say(f"{u.name} (Steering critical): d6 **{die}**, even: makes the turn.")
                u.facing = (u.facing + (1 if step == "S" else -1)) % 6
                taken.append(step)
                continue
            nxt = self.layout.neighbour(self.pos(u), u.facing)
            taken.append(step)
            if not self.layout.on_map(nxt):
                u.status = "exited"
                u.exit_hex = self.label(self.pos(u))
                u.exit_edge = self.edge_of(nxt)
                self.say(f"{u.name} moves {' '.join(taken)} and leaves the map by the {u.exit_edge} edge from {u.exit_hex}: out of play.")
                s.last = LastAction("path", side, path, "exit")
                return
            u.q, u.r = nxt.q, nxt.r
            path.append((nxt.q, nxt.r))
            terrain = self.terrain(nxt)
            if terrain in WATER_SHALLOW:
                self.say(f"{u.name} enters {terrain} water at {self.label(nxt)}.")
                if self.grounding_check(u, mp_used, f"entering {self.label(nxt)}", len(path) - 1):
                    stopped = "grounded"
            mine = self.mine_at(nxt)
            if mine is not None and u.afloat:  # a ship grounding in a mined hex has entered it (9.0)
                self.mine_attack(u, mine, fow_mod)
            if not u.afloat:
                stopped = "sunk"
            if stopped:
                break
        dest = self.label(self.pos(u))
        moved = " ".join(taken) if taken else "nothing"
        if stopped and stopped.startswith("Steering"):
            self.say(f"{u.name} moves {moved}: {stopped}. Now in {dest} facing {self.printed(u.facing)}.")
        elif u.afloat and (steps or stopped):  # a ram from where it lies needs no move report
            rest = f" (stopped: {stopped})" if stopped else ""
            self.say(f"{u.name} moves {moved}{rest}: now in {dest} facing {self.printed(u.facing)}.")
        s.last = LastAction("path", side, path, "")
        if ram and not stopped and u.afloat and target is not None and target.afloat:
            self.ram(u, target, mp_used + 1, fow_mod, len(path) - 1)

    def ram(self, u: Unit, target: Unit, mp_used: int, fow_mod: int, hexes: int = 0) -> None:
        """6.2: shallow-water check first, then 1d10 against the target's PF."""
        s = self.s
        shallow = self.terrain(self.pos(target)) in WATER_SHALLOW
        if shallow and self.grounding_check(u, mp_used, f"ramming {target.name} in {self.terrain(self.pos(target))} water", hexes):
            self.say(f"{u.name} grounds before the ram: no ram attack.")
            return
        die = self.d(10)
        mods: list[tuple[str, int]] = []
        if u.bow == "black":
            mods.append(("black bow", 1))
        if self.eff_mp(target) == 0:
            mods.append(("target MF 0", 2))
        tpos = self.pos(target)
        if self.layout.neighbour(tpos, target.facing) == self.pos(u):
            mods.append(("through the bow", -2))
        elif self.layout.neighbour(tpos, target.facing + 3) == self.pos(u):
            mods.append(("through the stern", -1))
        if fow_mod:
            mods.append(("Fortunes of War", fow_mod))
        total = die + sum(v for _, v in mods)
        head = f"{u.name} rams {target.name}: d10 **{die}**{describe_mods(mods)} = {total} vs PF {target.pf}"
        s.last = LastAction("ram", u.controller, [(u.q, u.r), (target.q, target.r)], "ram")
        u.honor_done = True
        if total >= 2 * target.pf:
            self.say(f"{head} (twice PF {2 * target.pf}): 2 hits and a critical hit.")
            self.hit(target, 2, f"rammed by {u.name}", u.id)
            self.critical(target, u.id)
        elif total >= target.pf:
            self.say(f"{head}: 1 hit.")
            self.hit(target, 1, f"rammed by {u.name}", u.id)
        else:
            self.say(f"{head}: the ram fails; the rammer takes 1 hit.")
            self.hit(u, 1, "failed ram")
        if total < u.pf and u.afloat:
            self.say(f"{total} is also below the rammer's PF {u.pf}: {u.name} takes 1 hit.")
            self.hit(u, 1, "ramming shock")

    def ram_order(self, side: str, uid: str, target: str | None, fow: bool) -> None:
        self.move(side, uid, [], target, True, fow)

    # --- firing (6.1) -------------------------------------------------------------------------
    def fixed_fire_mods(self, u: Unit, t: Unit) -> list[tuple[str, int]]:
        """6.1.2's modifiers that need no die and no choice: CF, range, target state, arcs."""
        rng = distance(self.pos(u), self.pos(t))
        mods: list[tuple[str, int]] = [("CF", self.eff_cf(u))]
        if rng == 1:
            mods.append(("range 1", 1))
        elif rng == 2:
            mods.append(("range 2", -1))
        else:
            mods.append((f"range {rng}", -2))
        if not t.battery:
            if t.grounded:
                mods.append(("target grounded", 2))
            elif self.eff_mp(t) == 0:
                mods.append(("target MF 0", 1))
            if t.type == "SSC" and (self.on_row(self.pos(t), t.facing, self.pos(u)) or self.on_row(self.pos(t), t.facing + 3, self.pos(u))):
                mods.append(("raking fire", 1))
        if not u.battery and ships()[u.id].broadside and (self.on_row(self.pos(u), u.facing, self.pos(t)) or self.on_row(self.pos(u), u.facing + 3, self.pos(t))):
            mods.append(("broadside ship firing out of bow/stern", -1))
        return mods

    def best_fire_total(self, u: Unit, t: Unit, fow: bool) -> int:
        """The highest total a fire attack could reach: a d10 of 10, every fixed modifier, the
        Visibility d6 falling even, and the bonuses the firer holds (Lucky Shot, its FoW)."""
        best = 10 + sum(v for _, v in self.fixed_fire_mods(u, t))
        if self.on("visibility") and distance(self.pos(u), self.pos(t)) > 1 and self.s.turn >= 7:
            best -= 1
        if self.honor_bound(u):
            best -= 2
        if u.controller in self.s.lucky_shot:
            best += 1
        if fow:
            best += 2 if u.controller not in self.s.fow_used_ever else 1
        return best

    def fire_problem(self, u: Unit, t: Unit, fow: bool = False) -> str:
        if u.type == "collier":
            return f"{u.name} carries no guns"
        if u.captured:
            return f"{u.name} is a captured ship and never fires"
        if u.boarding_with:
            return f"{u.name} is locked in a Boarding Combat"
        if not t.afloat:
            return f"{t.name} is not in play"
        if t.controller == u.controller:
            return f"{t.name} is on your side"
        rng = distance(self.pos(u), self.pos(t))
        if rng > 4:
            return f"{t.name} is {rng} hexes away (range 4)"
        blocker = self.line_blocker(self.pos(u), self.pos(t))
        if blocker:
            return f"the line of sight to {t.name} is blocked by {blocker}"
        best = self.best_fire_total(u, t, fow)
        if best < t.pf:  # 6.1 / 7.1: a unit fires only while a hit is possible
            return f"no hit is possible (the best total, a d10 of 10 with every modifier, is {best}; PF {t.pf})"
        return ""

    def fire(self, side: str, uid: str, tid: str, fow: bool) -> None:
        u = self.activation_guard(side, uid)
        t = self.unit(tid)
        problem = self.fire_problem(u, t, fow)
        if problem:
            raise IllegalOrder(f"{u.name} cannot fire at {t.name}: {problem}.")
        if fow:
            self.fow_check(side)
        s = self.s
        if s.cable_ship == u.id:
            s.cable_clean = False
        rng = distance(self.pos(u), self.pos(t))
        mods = self.fixed_fire_mods(u, t)
        if self.on("visibility") and rng > 1:
            if 4 <= s.turn <= 6:
                vis = self.d(6)
                if vis % 2:
                    mods.append((f"visibility (d6 {vis}, odd)", -1))
                else:
                    self.say(f"Visibility check: d6 **{vis}**, even: no effect.")
            elif s.turn >= 7:
                mods.append(("reduced visibility", -1))
        if self.honor_bound(u):
            mods.append(("Chilean Honor", -2))
        if side in s.lucky_shot:
            s.lucky_shot.remove(side)
            mods.append(("Lucky Shot", 1))
        if fow:
            first = self.fow_use(side, "a bonus on this fire attack")
            mods.append(("Fortunes of War", 2 if first else 1))
        die = self.d(10)
        total = die + sum(v for _, v in mods)
        pf = t.pf
        head = f"{u.name} fires at {t.name} (range {rng}): d10 **{die}**{describe_mods(mods)} = {total} vs PF {pf}"
        s.last = LastAction("fire", side, [(u.q, u.r), (t.q, t.r)], "")
        if t.id == "huascar":
            s.fired_on_huascar.append(u.id)
        hits = 2 if total >= 2 * pf else 1 if total >= pf else 0
        if hits == 0:
            self.say(f"{head}: no effect.")
            s.last.text = "miss"
            return
        if t.type in ("TIC", "BIC", "CBIC") and self.on("ironclad_save") and die % 2 == 0:
            self.say(f"{head}: {hits} hit{'s' if hits > 1 else ''}, but the raw d10 {die} is even: the ironclad's armour ignores all hits (6.1.4).")
            s.last.text = "saved"
            return
        if t.battery and self.on("battery_save") and rng >= 3 and die % 2 == 0:
            self.say(f"{head}: {hits} hit{'s' if hits > 1 else ''}, but at range {rng} the raw d10 {die} is even: the battery ignores all hits (6.1.4).")
            s.last.text = "saved"
            return
        s.last.text = f"{hits} hit{'s' if hits > 1 else ''}"
        if hits == 2:
            self.say(f"{head} (twice PF {2 * pf}): 2 hits and a critical-hit check.")
            self.hit(t, 2, f"fire from {u.name}", u.id)
            if t.afloat and not t.battery:
                die6 = self.d(6)
                if die6 >= 5:
                    self.say(f"Critical-hit check: d6 **{die6}** (5 or 6 needed): critical hit!")
                    self.critical(t, u.id)
                else:
                    self.say(f"Critical-hit check: d6 **{die6}** (5 or 6 needed): none.")
        else:
            self.say(f"{head}: 1 hit.")
            self.hit(t, 1, f"fire from {u.name}", u.id)

    def bombard(self, side: str, uid: str) -> None:
        """15.5.4: Huáscar fires on Antofagasta for bombardment points."""
        u = self.activation_guard(side, uid)
        if self.scn.bombard_target <= 0:
            raise IllegalOrder("There is no bombardment in this scenario.")
        if u.id != "huascar":
            raise IllegalOrder("Only the Huáscar bombards the town (15.5.4).")
        if u.boarding_with:
            raise IllegalOrder(f"{u.name} is locked in a Boarding Combat.")
        towns = [h for h, t in self.map.terrain.items() if t == "town"]
        in_range = [h for h in towns if distance(self.pos(u), h) <= 4 and not self.line_blocker(self.pos(u), h)]
        if not in_range:
            raise IllegalOrder(f"{u.name} has no Antofagasta hex within range 4 and line of sight.")
        rng = min(distance(self.pos(u), h) for h in in_range)
        die = self.d(6)
        mods: list[tuple[str, int]] = []
        if "abtao" in self.s.fired_on_huascar:
            mods.append(("fired upon by the Abtao", -1))
        if "magallanes" in self.s.fired_on_huascar:
            mods.append(("fired upon by the Magallanes", -1))
        if rng >= 3:
            mods.append((f"range {rng}", -1))
        total = max(0, die + sum(v for _, v in mods))
        self.s.bombard_hits += total
        self.s.last = LastAction("fire", side, [(u.q, u.r), (in_range[0].q, in_range[0].r)], f"bombard {total}")
        self.say(f"{u.name} bombards Antofagasta: d6 **{die}**{describe_mods(mods)} = {total} bombardment hits (total {self.s.bombard_hits} of {self.scn.bombard_target}).")

    # --- boarding (6.3) -----------------------------------------------------------------------
    def board(self, side: str, uid: str, tid: str | None) -> None:
        u = self.activation_guard(side, uid)
        if u.battery:
            raise IllegalOrder("A land battery cannot board.")
        if tid is None:
            if not u.boarding_with:
                raise IllegalOrder(f"Name the ship {u.name} boards.", hint=f"`{u.name} board <ship>`.")
            tid = u.boarding_with
        t = self.unit(tid)
        if t.battery or not t.afloat or t.controller == side:
            raise IllegalOrder(f"{u.name} can only board an enemy ship in play.")
        if distance(self.pos(u), self.pos(t)) != 1:
            raise IllegalOrder(f"{u.name} is not adjacent to {t.name}.")
        s = self.s
        if s.cable_ship in (u.id, t.id):
            s.cable_clean = False
        if u.boarding_with == t.id or t.boarding_with == u.id:
            self.say(f"{u.name} fights on in the Boarding Combat with {t.name}.")
            self.boarding_round(u, t)
            return
        if u.captured:
            raise IllegalOrder(f"{u.name} is a captured ship: it never starts a Boarding Combat.")
        if u.boarding_with:
            raise IllegalOrder(f"{u.name} is already locked in a Boarding Combat with {self.unit(u.boarding_with).name}.")
        if t.boarding_with and self.unit(t.boarding_with).controller != side:
            raise IllegalOrder(f"{t.name} is already locked in a Boarding Combat with {self.unit(t.boarding_with).name}.")
        # a second friendly ship may board the same target; the strengths never combine (6.3)
        die = self.d(10)
        head = f"{u.name} attempts to board {t.name}: d10 **{die}** vs PF {t.pf} (needs {t.pf} or less)"
        s.last = LastAction("ram", side, [(u.q, u.r), (t.q, t.r)], "board")
        if die > t.pf:
            self.say(f"{head}: the Boarding Combat does not occur.")
            return
        u.boarding_with = t.id
        if not t.boarding_with:
            t.boarding_with = u.id
        self.say(f"{head}: Boarding Combat! Markers on both ships.")
        self.boarding_round(u, t)

    def _board_total(self, u: Unit) -> tuple[int, int, str]:
        die = self.d(6)
        mods: list[tuple[str, int]] = [("PF", u.pf)]
        if "fire" in u.criticals:
            mods.append(("on fire", -1))
        if self.honor_bound(u):
            mods.append(("Chilean Honor", -2))
        total = die + sum(v for _, v in mods)
        return die, total, f"{u.name} d6 **{die}**{describe_mods(mods)} = {total}"

    def boarding_round(self, u: Unit, t: Unit) -> None:
        du, tu, text_u = self._board_total(u)
        dt, tt, text_t = self._board_total(t)
        head = f"Boarding Combat: {text_u}; {text_t}"
        s = self.s
        if tu == tt:
            if du % 2 and dt % 2:
                self.say(f"{head}: tie with both dice odd: both ships take 1 hit.")
                self.hit(u, 1, "boarding")
                self.hit(t, 1, "boarding")
            else:
                self.say(f"{head}: tie, inconclusive.")
            decider = "both"  # after a tie either player may declare the action over
        else:
            win, lose = (u, t) if tu > tt else (t, u)
            if abs(tu - tt) >= 2:
                self.say(f"{head}: {win.name} wins by {abs(tu - tt)}: **{lose.name} is captured**.")
                for y in [y for y in s.units if y.boarding_with == lose.id or lose.boarding_with == y.id]:
                    self._unlock(lose, y)
                lose.boarding_with = ""
                lose.controller = win.controller
                if s.cable_ship == lose.id:
                    s.cable_ship = ""
                self.hit(lose, 1, "captured", win.id)
                return
            self.say(f"{head}: {win.name} wins by 1: 1 hit on {lose.name}.")
            self.hit(lose, 1, "boarding", win.id)
            decider = win.controller
        if u.afloat and t.afloat and (u.boarding_with == t.id or t.boarding_with == u.id):
            s.phase = "boarding"
            s.decider = decider
            s.boarding_pair = [u.id, t.id]
            who = "Either side" if decider == "both" else SIDE_NAMES[decider]
            self.say(f"{who} decides: `continue` the Boarding Combat next activation, or `break off`.")

    def boarding_decision(self, side: str, keep: bool) -> None:
        s = self.s
        if s.phase != "boarding":
            raise WrongPhase("There is no Boarding Combat decision to make now.")
        if s.decider not in (side, "both"):
            raise NotYourTurn(f"{SIDE_NAMES[s.decider]} decides about the Boarding Combat.")
        a, b = (self.unit(x) for x in s.boarding_pair)
        s.phase = "activations"
        s.decider = ""
        s.boarding_pair = []
        if keep:
            self.say(f"{SIDE_NAMES[side]} continues the Boarding Combat between {a.name} and {b.name}: the markers stay.")
        else:
            self._unlock(a, b)
            self.say(f"{SIDE_NAMES[side]} breaks off the Boarding Combat between {a.name} and {b.name}: markers removed.")
        if self.check_victory(end_phase=False):
            return
        self.continue_card()

    # --- repair, unground, cable, prize -------------------------------------------------------
    def repair(self, side: str, uid: str) -> None:
        u = self.activation_guard(side, uid)
        if u.battery:
            raise IllegalOrder("Land batteries do not repair.")
        if u.hits == 0:
            raise IllegalOrder(f"{u.name} has no hits to repair.")
        die = self.d(10)
        head = f"{u.name} repairs: d10 **{die}** vs PF {u.pf} (needs {u.pf} or less)"
        if die <= u.pf:
            u.hits -= 1
            self.say(f"{head}: one hit removed ({u.hits} left).")
        else:
            self.say(f"{head}: no effect.")
        self.s.last = LastAction()

    def unground(self, side: str, uid: str) -> None:
        u = self.activation_guard(side, uid)
        if not u.grounded:
            raise IllegalOrder(f"{u.name} is not grounded.")
        self.unground_roll(u, "activation")
        self.s.last = LastAction()

    def cut(self, side: str, uid: str) -> None:
        u = self.activation_guard(side, uid)
        s = self.s
        spec = self.scn.cable
        if spec is None or spec.rule != "activations":
            raise IllegalOrder("Cable cutting by activations is not part of this scenario.", hint="In Scenario 3 the ship just stays atop the buoy all turn.")
        if s.cable_cut:
            raise IllegalOrder("The cable is already cut.")
        if s.cable is None or (u.q, u.r) != s.cable:
            raise IllegalOrder(f"{u.name} is not atop the Underwater Cable Buoy.")
        if u.boarding_with:
            raise IllegalOrder(f"{u.name} is locked in a Boarding Combat.")
        s.cable_ship = u.id
        s.cable_slow = True
        s.cable_progress += 1
        need = self.secret_value("cable")
        self.say(f"{u.name} spends an activation cutting the cable ({s.cable_progress} so far).")
        self.tell(side, f"Cable cutting: {s.cable_progress} of {need} activations.")
        if s.cable_progress >= need:
            s.cable_cut = True
            self.say("**The cable is cut.**")
            self.reveal("cable")
        s.last = LastAction()

    def prepare_prize(self, side: str, uid: str) -> None:
        u = self.activation_guard(side, uid)
        if not u.captured:
            raise IllegalOrder(f"{u.name} is not a captured ship; it moves normally.")
        self.s.prize_ready[side] = u.id
        self.say(f"The prize crew readies {u.name} (first of two consecutive activations to move it).")
        self.s.last = LastAction()

    # ==========================================================================================
    # Fortunes of War orders and decisions
    # ==========================================================================================
    def fow_extra(self, side: str) -> None:
        s = self.s
        if s.phase != "activations" or s.card_side != side:
            raise IllegalOrder("Play `fow extra` on one of your own activation cards.")
        self.fow_use(side, "+1 activation on this card")
        s.acts_left += 1

    def fow_again(self, side: str, uid: str) -> None:
        s = self.s
        u = self.unit(uid)
        if s.phase != "activations" or s.card_side != side or u.controller != side or not u.afloat:
            raise IllegalOrder("Play `fow again <unit>` on one of your own cards, for one of your units in play.")
        self.fow_use(side, f"a second activation for {u.name}")
        s.bonus_unit = u.id
        s.acts_left += 1

    def fow_redraw(self, side: str) -> None:
        s = self.s
        if s.phase != "activations" or not s.card or s.used:
            raise IllegalOrder("`fow redraw` ignores a just-drawn card before anyone activates on it.")
        self.fow_use(side, f"ignore {self.card_name(s.card)} and draw another card")
        s.card, s.card_side, s.acts_left = "", "", 0
        self.advance()

    def joker_decision(self, side: str, end: bool) -> None:
        s = self.s
        if s.phase != "joker":
            raise WrongPhase("There is no Joker decision to make now.")
        if side != s.decider:
            raise NotYourTurn(f"{SIDE_NAMES[s.decider]} decides at the first Joker.")
        s.phase = "activations"
        s.decider = ""
        if end:
            self.fow_use(side, "end the Activations Phase on the first Joker")
            self.end_phase()
            return
        self.say(f"{SIDE_NAMES[side]} does not play the Fortunes of War.")
        self.random_event()
        self.advance()

    # ==========================================================================================
    # Victory (12.0, 15.x)
    # ==========================================================================================
    def lost(self, side: str) -> list[Unit]:
        """``side``'s own ships sunk or captured (exited ships are not lost)."""
        return [u for u in self.s.units if u.side == side and not u.battery and (u.status == "sunk" or (u.status != "waiting" and u.captured))]

    def final_result(self, why: str, *, turn_limit: bool = True) -> None:
        """The scenario's end-of-game conditions, else victory points (12.0).

        ``turn_limit`` is False when the game ends because a side has nothing left in play.
        Scenario 2 at its (house) turn limit goes to victory points by the rulings ("12 turns,
        then victory points"); option ``s2_end=draw`` keeps 15.3.4's "any other result is a draw".
        """
        s = self.s
        v = self.scn.victory
        peru_lost, chile_lost = len(self.lost("peru")), len(self.lost("chile"))
        if v == "s2" and (not turn_limit or self.opt("s2_end") == "draw"):
            self.finish(None, f"Draw: {why} without either side achieving its objective.")
            return
        if v == "s3":
            if chile_lost != peru_lost:
                winner = "peru" if chile_lost > peru_lost else "chile"
                self.finish(winner, f"{SIDE_NAMES[winner]} sank or captured more ships ({max(chile_lost, peru_lost)} to {min(chile_lost, peru_lost)}); {why}.")
            elif s.cable_cut and peru_lost == 0:
                self.finish("peru", f"Peru cut the cable and lost no ships; {why}.")
            else:
                self.finish(None, f"Draw: {why}, ships lost {peru_lost} each side and no cable victory.")
            return
        if v == "s4" and peru_lost > chile_lost:
            self.finish("chile", f"Chile sank or captured more ships than it lost ({peru_lost} to {chile_lost}); {why}.")
            return
        self.victory_points(why)

    def vp(self, side: str) -> tuple[int, list[str]]:
        points = 0
        lines: list[str] = []
        for u in self.s.units:
            if u.battery:
                if side == "peru" and u.side == "chile" and u.status == "surrendered":
                    points += 5
                    lines.append(f"{u.name} surrendered: 5")
                continue
            if u.side == side or u.status == "waiting":
                continue
            mult = 3 if u.type in ("TIC", "BIC", "CBIC") else 2
            if u.status == "sunk" or u.captured or (u.afloat and u.grounded):
                state = "sunk" if u.status == "sunk" else "captured" if u.captured else "grounded"
                points += mult * u.pf
                lines.append(f"{u.name} {state}: {mult} x PF {u.pf} = {mult * u.pf}")
            elif u.afloat and self.crippled(u):
                points += u.pf
                lines.append(f"{u.name} crippled: PF {u.pf}")
        return points, lines

    def victory_points(self, why: str) -> None:
        pv, plines = self.vp("peru")
        cv, clines = self.vp("chile")
        details = [f"Peru {pv} VP: " + ("; ".join(plines) or "none"), f"Chile {cv} VP: " + ("; ".join(clines) or "none")]
        winner = "peru" if pv >= cv else "chile"
        tie = " (a tie goes to Peru)" if pv == cv else ""
        self.finish(winner, f"{why}: victory points Peru {pv}, Chile {cv}{tie}.", details)

    def finish(self, winner: str | None, reason: str, details: list[str] | None = None) -> None:
        s = self.s
        s.phase = "over"
        s.result_winner = winner or ""
        s.result_reason = reason
        s.result_details = list(details or [])
        s.card, s.card_side, s.acts_left, s.decider = "", "", 0, ""
        who = f"**{SIDE_NAMES[winner]} wins**" if winner else "**Draw**"
        self.say(f"Game over. {who}: {reason}")
        for detail in s.result_details:
            self.say(detail)
        for sec in s.secrets:
            if not sec.revealed:
                self.reveal(sec.key)

    def check_victory(self, *, end_phase: bool) -> bool:
        """Scenario conditions that can happen now; True if the game ended."""
        s = self.s
        if s.phase == "over":
            return True
        if s.phase in ("setup",):
            return False
        v = self.scn.victory
        units = {u.id: u for u in s.units}

        def gone(uid: str) -> bool:
            x = units.get(uid)
            return x is not None and (x.status == "sunk" or (x.status != "waiting" and x.captured))

        if v == "s1":
            for uid, winner in (("esmeralda", "peru"), ("huascar", "chile")):
                if gone(uid):
                    self.finish(winner, f"the {units[uid].name} was {'sunk' if units[uid].status == 'sunk' else 'captured'}.")
                    return True
            e = units["esmeralda"]
            if e.status == "exited" and e.exit_edge != "drift":
                winner = "chile" if e.exit_edge == "south" else "peru"
                self.finish(winner, f"the Esmeralda left the map by the {e.exit_edge} edge.")
                return True
        elif v == "s2":
            c, i = units["covadonga"], units["independencia"]
            if gone("covadonga"):
                self.finish("peru", f"the Covadonga was {'sunk' if c.status == 'sunk' else 'captured'}.")
                return True
            if gone("independencia"):
                self.finish("chile", f"the Independencia was {'sunk' if i.status == 'sunk' else 'captured'}.")
                return True
            if c.status == "exited" and c.exit_hex in ("2813", "2912") and c.exit_edge != "drift" and not self.crippled(c):
                self.finish("chile", f"the Covadonga escaped from {c.exit_hex}, not crippled.")
                return True
        elif v == "s4":
            for u in s.units:
                if u.side == "chile" and u.status == "exited":
                    self.finish("peru", f"the {u.name} left the map.")
                    return True
            if gone("huascar"):
                self.finish("chile", "the Huáscar was sunk or captured.")
                return True
            if end_phase and s.bombard_hits >= self.scn.bombard_target and len(self.lost("chile")) > len(self.lost("peru")) and not gone("huascar"):
                self.finish("peru", f"{s.bombard_hits} bombardment hits on Antofagasta, more ships sunk than lost, and the Huáscar not sunk.")
                return True
        elif v == "s5":
            survives = self.opt("independencia") == "survives"
            heroes = ["huascar", "independencia"] if survives else ["huascar"]
            # the draw first: the Huáscar is an ironclad, so Chile's win would otherwise always
            # pre-empt "all ironclads sunk or captured" and the clause could never apply
            ironclads = [u for u in s.units if u.type in ("TIC", "BIC", "CBIC") and (u.status != "waiting")]
            waiting_ironclads = [u for u in s.units if u.type in ("TIC", "BIC", "CBIC") and u.status == "waiting" and u.arrive_turn]
            if ironclads and not waiting_ironclads and all(gone(u.id) for u in ironclads):
                self.finish(None, "all ironclads were sunk or captured.")
                return True
            if all(gone(h) for h in heroes):
                self.finish("chile", " and ".join(units[h].name for h in heroes) + (" were" if len(heroes) > 1 else " was") + " sunk or captured.")
                return True
            kills = sum(1 for u in s.units if u.side == "chile" and u.status == "sunk" and u.sunk_by in heroes)
            need = 3 if survives else 2
            if kills >= need and all(units[h].status == "exited" and units[h].exit_hex in ("1101", "1201") and units[h].exit_edge != "drift" and not self.crippled(units[h]) for h in heroes):
                self.finish("peru", f"{kills} Chilean ships sunk and " + " and ".join(units[h].name for h in heroes) + " escaped by 1101/1201.")
                return True
        for side in SIDES:
            waiting = any(u.status == "waiting" and u.controller == side and u.arrive_turn >= s.turn for u in s.units)
            if not waiting and not self.side_can_act(side):
                self.final_result(f"{SIDE_NAMES[side]} has no units left in play", turn_limit=False)
                return True
        return False


def snapshot_of(state: State) -> str:
    data = to_json(state)
    data["snapshot"] = ""
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def restore(state: State, text: str) -> None:
    restored: State = from_json(State, json.loads(text))
    for f in fields(State):
        setattr(state, f.name, getattr(restored, f.name))


def new_state(scenario_id: str, options: dict[str, str]) -> State:
    """A fresh state in the set-up phase (no dice yet: set-up rolls are orders)."""
    scn = scenarios()[scenario_id]
    state = State(scenario=scenario_id, options=dict(options))
    state.turns = int(options["turns"]) if options.get("turns") else scn.turns
    game = Game(state)
    specs = ships()
    for d in scn.deploy:
        if not game.variant_ok(d.variant):
            continue
        sp = specs[d.ship]
        u = Unit(id=sp.id, name=sp.name, side=sp.side, type=sp.type, mf=sp.mf, cf=sp.cf, pf=sp.pf, bow=sp.bow, controller=sp.side, arrive_turn=d.arrive_turn)
        if d.arrive_roll:
            u.arrive_turn = 99  # set by the secret roll
        state.units.append(u)
    if scenario_id == "s1" and game.opt("boilers") == "bad":
        e = next(u for u in state.units if u.id == "esmeralda")
        e.criticals.append("propulsion")
        e.bad_boilers = True
    state.mine_bag = list(mine_mix())
    if game.on("fow"):
        state.fow_holder = "peru"
    state.setup_side = "chile"
    return state


__all__ = ["OPTION_CHOICES", "OPTION_DEFAULTS", "SIDE_NAMES", "UMPIRE", "Game", "new_state", "other", "restore", "snapshot_of"]
