"""Iron and Fire data: ship values, scenarios, mine mix and random events from ``data/iron_and_fire``.

Everything the book does not print (ship stats, mine mix, maps) is a house value in TOML so a data
pack can replace it without touching code.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.core.data import Record, load
from games.core.errors import DataError

SIDES = ("peru", "chile")
IRONCLAD_TYPES = ("TIC", "BIC", "CBIC")


@dataclass(frozen=True)
class ShipSpec:
    id: str
    name: str
    side: str
    type: str
    mf: int
    cf: int
    pf: int
    bow: str

    @property
    def ironclad(self) -> bool:
        return self.type in IRONCLAD_TYPES

    @property
    def can_fire(self) -> bool:
        return self.type != "collier"

    @property
    def broadside(self) -> bool:
        """Every ship except a turret ship fires from broadsides (bow/stern penalty)."""
        return self.type != "TIC"


@dataclass(frozen=True)
class BatterySpec:
    name: str
    cf: int
    pf: int
    surrender_hits: int


@dataclass(frozen=True)
class Zone:
    """Where a unit, mine or battery may be placed (all given conditions must hold)."""

    rows: tuple[int, ...] = ()
    cols: tuple[int, int] | None = None
    near: tuple[str, ...] = ()
    within: int = 0
    near_terrain: str = ""
    far_terrain: str = ""
    far: int = 0
    terrain: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()
    near_ships: tuple[str, ...] = ()

    def describe(self) -> str:
        parts: list[str] = []
        if self.hexes:
            parts.append("one of " + ", ".join(self.hexes))
        if self.rows:
            parts.append("in row " + " or ".join(f"{r:02d}" for r in self.rows))
        if self.cols:
            parts.append(f"in columns {self.cols[0]}-{self.cols[1]}")
        if self.near:
            parts.append(f"within {self.within} hexes of " + " or ".join(self.near))
        if self.near_terrain:
            parts.append(f"within {self.within} hexes of a {self.near_terrain} hex")
        if self.near_ships:
            parts.append(f"within {self.within} hexes of each of " + ", ".join(self.near_ships))
        if self.far_terrain:
            parts.append(f"at least {self.far} hexes from any {self.far_terrain} hex")
        if self.terrain:
            parts.append("on " + " or ".join(self.terrain))
        return "; ".join(parts) or "anywhere on the map"


@dataclass(frozen=True)
class DeploySpec:
    ship: str
    zone: Zone
    facings: tuple[int, ...] = ()  # printed compass labels; empty = any
    group: str = ""
    group_within: int = 0
    variant: str = ""  # "option=value" that must hold for this ship to take part
    arrive_turn: int = 0  # 0 = sets up before play
    arrive_roll: str = ""  # key of a (secret) roll deciding the arrival turn


@dataclass(frozen=True)
class RollSpec:
    key: str
    side: str
    dice: str
    purpose: str
    secret: bool = False
    variant: str = ""


@dataclass(frozen=True)
class PlacementSpec:
    """Mines or batteries a side places during set-up."""

    side: str
    zone: Zone
    dice: str = ""
    option: str = ""


@dataclass(frozen=True)
class CableSpec:
    rule: str  # "turns" (scenario 3) or "activations" (scenario 4)
    side: str
    on_ship: bool
    zone: Zone


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    description: str
    map: str
    current: int  # printed compass label
    turns: int
    turns_source: str
    victory: str
    deploy: tuple[DeploySpec, ...]
    rolls: tuple[RollSpec, ...]
    mines: PlacementSpec | None
    batteries: PlacementSpec | None
    cable: CableSpec | None
    shoal_table: bool
    bombard_target: int
    north: int = 6  # printed compass label of the edge the scenario calls north


@dataclass(frozen=True)
class RandomEvent:
    low: int
    high: int
    key: str
    text: str


def _zone(rec: Record) -> Zone:
    cols = rec.list("cols") if rec.has("cols") else None
    if cols is not None and (len(cols) != 2 or not all(isinstance(c, int) for c in cols)):
        raise DataError(f"{rec.file}: key '{rec.prefix}cols': expected [first, last]")
    rows = rec.list("rows") if rec.has("rows") else []
    facings_ok = all(isinstance(r, int) for r in rows)
    if not facings_ok:
        raise DataError(f"{rec.file}: key '{rec.prefix}rows': expected integers")
    return Zone(
        rows=tuple(rows),
        cols=(cols[0], cols[1]) if cols else None,
        near=tuple(rec.str_list("near")) if rec.has("near") else (),
        within=rec.opt_int("within", 0),
        near_terrain=rec.opt_str("near_terrain", ""),
        far_terrain=rec.opt_str("far_terrain", ""),
        far=rec.opt_int("far", 0),
        terrain=tuple(rec.str_list("terrain")) if rec.has("terrain") else (),
        hexes=tuple(rec.str_list("hexes")) if rec.has("hexes") else (),
        near_ships=tuple(rec.str_list("near_ships")) if rec.has("near_ships") else (),
    )


def ships() -> dict[str, ShipSpec]:
    """Cached per loaded file, so a data pack switched on later is picked up."""
    return _ships(load("iron_and_fire/ships.toml"))


@lru_cache(maxsize=8)
def _ships(rec: Record) -> dict[str, ShipSpec]:
    out: dict[str, ShipSpec] = {}
    for sid, s in rec.table("ships").items():
        out[sid] = ShipSpec(
            id=sid,
            name=s.str("name"),
            side=s.str("side", SIDES),
            type=s.str("type", ("TIC", "BIC", "CBIC", "SSC", "ship", "collier")),
            mf=s.int("mf", 0, 9),
            cf=s.int("cf", -5, 9),
            pf=s.int("pf", 1, 12),
            bow=s.opt_str("bow", "brown"),
        )
    return out


def battery() -> BatterySpec:
    """Cached per loaded file, so a data pack switched on later is picked up."""
    return _battery(load("iron_and_fire/ships.toml"))


@lru_cache(maxsize=8)
def _battery(rec: Record) -> BatterySpec:
    b = rec.table("battery")
    return BatterySpec(b.str("name"), b.int("cf", -5, 9), b.int("pf", 1, 12), b.int("surrender_hits", 1, 12))


def mine_mix() -> tuple[str, ...]:
    """Cached per loaded file, so a data pack switched on later is picked up."""
    return _mine_mix(load("iron_and_fire/mines.toml"))


@lru_cache(maxsize=8)
def _mine_mix(rec: Record) -> tuple[str, ...]:
    mix = rec.table("mix")
    bag: list[str] = []
    for value in mix:
        if value != "None" and not value.isdigit():
            raise DataError(f"{mix.file}: mine value {value!r} must be None or a number")
        bag.extend([value] * mix.int(value, 0, 50))
    return tuple(bag)


def random_events() -> tuple[RandomEvent, ...]:
    """Cached per loaded file, so a data pack switched on later is picked up."""
    return _random_events(load("iron_and_fire/events.toml"))


@lru_cache(maxsize=8)
def _random_events(rec: Record) -> tuple[RandomEvent, ...]:
    return tuple(RandomEvent(e.int("low", 2, 12), e.int("high", 2, 12), e.str("key"), e.str("text")) for e in rec.tables("event"))


def scenarios() -> dict[str, Scenario]:
    """Cached per loaded file, so a data pack switched on later is picked up."""
    return _scenarios(load("iron_and_fire/scenarios.toml"))


@lru_cache(maxsize=8)
def _scenarios(rec: Record) -> dict[str, Scenario]:
    known = ships()
    out: dict[str, Scenario] = {}
    for sid, s in rec.items():
        deploy = []
        for d in s.tables("deploy"):
            ship_id = d.str("ship")
            if ship_id not in known:
                raise DataError(f"{d.file}: key '{d.prefix}ship': unknown ship {ship_id!r}")
            deploy.append(
                DeploySpec(
                    ship=ship_id,
                    zone=_zone(d),
                    facings=tuple(int(f) for f in d.list("facings")) if d.has("facings") else (),
                    group=d.opt_str("group", ""),
                    group_within=d.opt_int("group_within", 0),
                    variant=d.opt_str("variant", ""),
                    arrive_turn=d.opt_int("arrive_turn", 0),
                    arrive_roll=d.opt_str("arrive_roll", ""),
                )
            )
        rolls = tuple(
            RollSpec(r.str("key"), r.str("side", SIDES), r.str("dice"), r.str("purpose"), r.opt_bool("secret", False), r.opt_str("variant", ""))
            for r in (s.tables("roll") if s.has("roll") else [])
        )

        def placement(key: str, rec: Record = s) -> PlacementSpec | None:
            if not rec.has(key):
                return None
            p = rec.table(key)
            return PlacementSpec(p.str("side", SIDES), _zone(p), p.opt_str("dice", ""), p.opt_str("option", ""))

        cable = None
        if s.has("cable"):
            c = s.table("cable")
            cable = CableSpec(c.str("rule", ("turns", "activations")), c.str("side", SIDES), c.opt_bool("on_ship", False), _zone(c))
        out[sid] = Scenario(
            id=sid,
            name=s.str("name"),
            description=s.opt_str("description", ""),
            map=s.str("map"),
            current=s.int("current", 1, 6),
            turns=s.int("turns", 1, 99),
            turns_source=s.opt_str("turns_source", "book"),
            victory=s.str("victory"),
            deploy=tuple(deploy),
            rolls=rolls,
            mines=placement("mines"),
            batteries=placement("batteries"),
            cable=cable,
            shoal_table=s.opt_bool("shoal_table", False),
            bombard_target=s.opt_int("bombard_target", 0),
            north=s.opt_int("north", 6),
        )
    return out
