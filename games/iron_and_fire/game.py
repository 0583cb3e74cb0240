"""The table one order is applied on: the state, the game's random stream, the map and scenario,
and the events collected; plus the die rolls every section shares (a Fortunes of War re-roll
replays them, 13.1). The rules themselves are functions in ``rules/``, one module per book section.
"""

from __future__ import annotations

from games.core.dice import roll_die
from games.core.errors import IllegalOrder, quote
from games.core.hexgrid import Hex, distance, line
from games.core.maps import HexMap, load_map
from games.core.rng import Rng
from games.core.ruleset import Event, OptionSpec, private, public
from games.iron_and_fire.data import (
    DeploySpec,
    RollSpec,
    Scenario,
    Zone,
    scenarios,
    ships,
)
from games.iron_and_fire.state import Mine, State, Unit

SIDE_NAMES = {"peru": "Peru", "chile": "Chile"}
CRITICAL_TABLE = {1: "false alarm", 2: "bridge", 3: "fire", 4: "fire", 5: "propulsion", 6: "steering"}
CRITICAL_NAMES = {"bridge": "Bridge", "fire": "Fire", "propulsion": "Propulsion", "steering": "Steering"}
WATER_SHALLOW = ("shallow", "shoal")
LAND = ("land", "town")

OPTIONS = (
    OptionSpec("fow", "Advanced rule 13.1 Fortunes of War", "off", ("off", "on")),
    OptionSpec("honor", "Advanced rule 13.2 Chilean Honor (needs fow=on)", "off", ("off", "on")),
    OptionSpec("visibility", "Advanced rule 13.3 Visibility", "off", ("off", "on")),
    OptionSpec("random_events", "Random Event table on the first Joker (14.0)", "on", ("on", "off")),
    OptionSpec("ironclad_save", "Ironclad armour ignores hits on an even raw d10 (6.1.4)", "on", ("on", "off")),
    OptionSpec("battery_save", "Land batteries ignore hits at range 3-4 on an even raw d10 (6.1.4)", "on", ("on", "off")),
    OptionSpec("boilers", "Scenario 1: Bad Boilers (15.2.2) or Boilers Fixed (15.2.3)", "bad", ("bad", "fixed")),
    OptionSpec("mines", "Scenario 1: 1d6+2 mines within 10 hexes of the east edge", "off", ("off", "on")),
    OptionSpec("independencia", "Scenarios 3 and 5: the Independencia survives variant", "sunk", ("sunk", "survives")),
    OptionSpec("once_per", "A unit activates once per card (ruling) or once per turn (3.0's 'usually')", "card", ("card", "turn")),
    OptionSpec("land_blocks", "Land hexes block line of sight (ruling) or only units do", "on", ("on", "off")),
    OptionSpec("s2_end", "Scenario 2 at its turn limit: victory points (ruling) or a draw (15.3.4 as printed)", "vp", ("vp", "draw")),
    OptionSpec("turns", "Override the scenario's turn limit (a number)", "", between=(1, 99)),
)
OPTION_DEFAULTS: dict[str, str] = {o.key: o.default for o in OPTIONS}


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
