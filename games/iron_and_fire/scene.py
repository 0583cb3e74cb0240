"""The scene a state is set in: its scenario, map and options, and the questions about them every
book section asks (where a unit is, what terrain, which unit or mine is in a hex, line of sight,
set-up zones). Plain functions of the ``State``: nothing here rolls a die or says anything, so any
module may use them without depending on the rules that change the state.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder, quote
from games.core.hexgrid import Hex, HexLayout, distance, line
from games.core.maps import HexMap, load_map
from games.core.ruleset import OptionSpec
from games.iron_and_fire.data import (
    DeploySpec,
    RollSpec,
    Scenario,
    Zone,
    scenarios,
    ships,
)
from games.iron_and_fire.state import Mine, State, Unit

LAND = ("land", "town")
WATER_SHALLOW = ("shallow", "shoal")
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
    OptionSpec("turns", "The last turn, then victory points (a number; scenario 5 has none by the book)", "", between=(1, 99)),
)
OPTION_DEFAULTS: dict[str, str] = {o.key: o.default for o in OPTIONS}


def scenario(s: State) -> Scenario:
    return scenarios()[s.scenario]


def hexmap(s: State) -> HexMap:
    return load_map(scenario(s).map)


def layout(s: State) -> HexLayout:
    return hexmap(s).layout


def opt(s: State, key: str) -> str:
    return s.options.get(key, OPTION_DEFAULTS.get(key, ""))


def on(s: State, key: str) -> bool:
    return opt(s, key) == "on"


def of_turns(s: State) -> str:
    """What follows "Turn N" in the log and the status: the last turn, or that there is none
    (``turns`` 0: scenario 5, 15.6.5 "The game has no turn limit")."""
    return f" of {s.turns}" if s.turns else " (no turn limit)"


# --- geometry ----------------------------------------------------------------------------------
def pos(u: Unit) -> Hex:
    return Hex(u.q, u.r)


def label(s: State, h: Hex) -> str:
    return layout(s).label(h)


def terrain(s: State, h: Hex) -> str:
    return hexmap(s).terrain_at(h)


def dir_of(s: State, printed_direction: int) -> int:
    """The direction index of a compass number printed on the map (1-6)."""
    return hexmap(s).compass.index(str(printed_direction))


def printed(s: State, direction: int) -> str:
    """The compass number printed on the map for a direction index."""
    return hexmap(s).compass[direction % 6]


def unit_at(s: State, h: Hex) -> Unit | None:
    for u in s.units:
        if u.afloat and u.q == h.q and u.r == h.r:
            return u
    return None


def unit(s: State, uid: str) -> Unit:
    for u in s.units:
        if u.id == uid:
            return u
    raise IllegalOrder(f"No unit {quote(uid)} in this game.")


def mine_at(s: State, h: Hex) -> Mine | None:
    for m in s.mines:
        if m.q == h.q and m.r == h.r:
            return m
    return None


def on_row(s: State, origin: Hex, direction: int, target: Hex) -> bool:
    """Whether ``target`` lies on the straight hexrow out of ``origin`` in ``direction``."""
    lay = layout(s)
    h = origin
    for _ in range(40):
        h = lay.neighbour(h, direction)
        if h == target:
            return True
    return False


def edge_of(s: State, h: Hex) -> str:
    """The compass name of the map edge an off-map hex lies beyond, by the scenario's north
    (the top edge, printed 6, in Scenarios 1, 2 and 5; the bottom edge in 3 and 4)."""
    lay = layout(s)
    col, row = lay.to_offset(h)
    top_is_north = dir_of(s, scenario(s).north) == dir_of(s, 6)
    if col < lay.first_col:
        return "west" if top_is_north else "east"
    if col >= lay.first_col + lay.cols:
        return "east" if top_is_north else "west"
    if row < lay.first_row:
        return "north" if top_is_north else "south"
    return "south" if top_is_north else "north"


def line_blocker(s: State, a: Hex, b: Hex) -> str:
    """What blocks the line of sight from a to b ('' if clear): units or land (6.1.1, ruling)."""
    for h in line(a, b)[1:]:
        if h == b:
            continue
        blocker = unit_at(s, h)
        if blocker is not None:
            return f"{blocker.name} in {label(s, h)}"
        if terrain(s, h) in LAND and on(s, "land_blocks"):
            return f"land in {label(s, h)}"
    return ""


def secret_value(s: State, key: str) -> int:
    for sec in s.secrets:
        if sec.key == key:
            return sec.value
    return 0


# --- set-up (15.0: Chile first, then Peru) -------------------------------------------------------
def variant_ok(s: State, variant: str) -> bool:
    if not variant:
        return True
    key, _, value = variant.partition("=")
    return opt(s, key) == value


def rolls_for(s: State, side: str) -> list[RollSpec]:
    scn = scenario(s)
    out = [r for r in scn.rolls if r.side == side and variant_ok(s, r.variant)]
    mines = scn.mines
    if mines is not None and mines.dice and mines.side == side and (not mines.option or on(s, mines.option)):
        out.append(RollSpec("mines", side, mines.dice, "number of mine counters"))
    return out


def deploy_for(s: State, side: str, *, arriving: bool) -> list[DeploySpec]:
    out = []
    for d in scenario(s).deploy:
        if not variant_ok(s, d.variant) or ships()[d.ship].side != side:
            continue
        if bool(d.arrive_turn or d.arrive_roll) == arriving:
            out.append(d)
    return out


def spec_of(s: State, uid: str) -> DeploySpec | None:
    for d in scenario(s).deploy:
        if d.ship == uid and variant_ok(s, d.variant):
            return d
    return None


def in_zone(s: State, zone: Zone, h: Hex) -> str:
    """'' if ``h`` satisfies the zone, else why not."""
    lay, the_map = layout(s), hexmap(s)
    if not lay.on_map(h):
        return "off the map"
    col, row = lay.to_offset(h)
    lab = label(s, h)
    if zone.hexes and lab not in zone.hexes:
        return f"{lab} is not one of the listed hexes"
    if zone.rows and row not in zone.rows:
        return f"{lab} is not in row " + " or ".join(f"{r:02d}" for r in zone.rows)
    if zone.cols and not zone.cols[0] <= col <= zone.cols[1]:
        return f"{lab} is not in columns {zone.cols[0]}-{zone.cols[1]}"
    if zone.near and zone.exactly and not any(distance(h, lay.parse(n)) == zone.exactly for n in zone.near):
        return f"{lab} is not exactly {zone.exactly} hexes from " + " or ".join(zone.near)
    if zone.near and not zone.exactly and not any(distance(h, lay.parse(n)) <= zone.within for n in zone.near):
        return f"{lab} is more than {zone.within} hexes from " + " and ".join(zone.near)
    if zone.near_terrain:
        anchors = [x for x, t in the_map.terrain.items() if t == zone.near_terrain]
        if not any(distance(h, a) <= zone.within for a in anchors):
            return f"{lab} is more than {zone.within} hexes from any {zone.near_terrain} hex"
    if zone.far_terrain:
        anchors = [x for x, t in the_map.terrain.items() if t == zone.far_terrain]
        if any(distance(h, a) < zone.far for a in anchors):
            return f"{lab} is closer than {zone.far} hexes to a {zone.far_terrain} hex"
    for sid in zone.near_ships:
        ship = next((u for u in s.units if u.id == sid and u.afloat), None)
        if ship is not None and distance(h, pos(ship)) > zone.within:
            return f"{lab} is more than {zone.within} hexes from {ship.name}"
    if zone.terrain and terrain(s, h) not in zone.terrain:
        return f"{lab} is {terrain(s, h)}, not " + " or ".join(zone.terrain)
    return ""
