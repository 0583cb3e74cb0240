"""Oak & Iron house data: rules numbers, the custom die, ship, initiative, event and admiral cards.

Everything is read from ``data/oak_and_iron`` (so a data pack can replace it) and validated once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.core.data import Record, listing, load, on_reload
from games.core.errors import DataError

ROOT = "oak_and_iron"
INITIATIVE_EFFECTS = (
    "none",
    "reroll_attack",
    "attack_dice",
    "band_closer",
    "seamanship_auto",
    "partial_dice",
    "rally_all",
    "skill_dice",
    "reload_all",
    "speed",
    "ignore_first_fatigue",
)
EVENT_EFFECTS = ("none", "speed", "attack_dice", "rally_all", "fatigue_all")


@dataclass(frozen=True)
class ShipCard:
    key: str
    name: str
    type: str
    size_class: str
    points: int
    fortitude: int
    broadside: int
    crew: int
    windward: int
    large: int
    special: tuple[str, ...]
    upgrade_costs: tuple[tuple[str, int], ...]

    def upgrade_cost(self, upgrade: str) -> int:
        return dict(self.upgrade_costs).get(upgrade, 0)


@dataclass(frozen=True)
class InitiativeCard:
    key: str
    name: str
    value: int
    effect: str
    amount: int
    text: str
    discard: bool
    faction: str = ""


@dataclass(frozen=True)
class EventCard:
    key: str
    name: str
    effect: str
    amount: int
    text: str


@dataclass(frozen=True)
class Admiral:
    key: str
    name: str
    value: int
    points: int


@dataclass(frozen=True)
class GameSize:
    key: str
    points: int
    min_ships: int
    max_ships: int
    table_width: float
    table_height: float
    line_allowed: bool


@dataclass(frozen=True)
class Upgrade:
    key: str
    name: str
    skill: int
    fortitude: int
    crew: int
    cost_key: str


@dataclass(frozen=True)
class Rules:
    distances: tuple[tuple[str, float], ...]
    inches_per_speed: float
    turn_angle: float
    max_speed: int
    crippled_max_speed: int
    helm_full_turn_speed: int
    fatigue_max: int
    damage_max: int
    skill_test_dice: int
    fortune_points: int
    turn_limit: int
    close_combat_base_dice: int
    strike_crippled: int
    strike_lost: int
    strike_flagship_lost: int
    off_table_counts_as_lost: bool
    bases: tuple[tuple[str, float, float], ...]
    sizes: tuple[GameSize, ...]
    upgrades: tuple[Upgrade, ...]
    faces: tuple[str, ...]
    hits: tuple[tuple[str, tuple[str, ...]], ...]
    faces_for: tuple[tuple[str, tuple[str, ...]], ...]

    def distance(self, band: str) -> float:
        return dict(self.distances)[band]

    @property
    def distance_map(self) -> dict[str, float]:
        return dict(self.distances)

    def base_size(self, size_class: str) -> tuple[float, float]:
        for key, length, beam in self.bases:
            if key == size_class:
                return (length, beam)
        raise DataError(f"{ROOT}/rules.toml: no base size for class {size_class!r}")

    def hit_faces(self, band: str) -> tuple[str, ...]:
        return dict(self.hits)[band]

    def faces_of(self, purpose: str) -> tuple[str, ...]:
        return dict(self.faces_for)[purpose]

    def size(self, key: str) -> GameSize:
        for s in self.sizes:
            if s.key == key:
                return s
        raise DataError(f"{ROOT}/rules.toml: no game size {key!r}")

    def upgrade(self, key: str) -> Upgrade | None:
        return next((u for u in self.upgrades if u.key == key), None)


def _faces(rec: Record, key: str, faces: tuple[str, ...]) -> tuple[str, ...]:
    values = rec.str_list(key)
    for v in values:
        if v not in faces:
            raise DataError(f"{rec.file}: key '{rec.prefix}{key}': {v!r} is not a face of the die ({', '.join(faces)})")
    return tuple(values)


@lru_cache(maxsize=1)
def rules() -> Rules:
    doc = load(f"{ROOT}/rules.toml")
    dice = load(f"{ROOT}/dice.toml")
    faces = tuple(dice.str_list("faces"))
    if len(faces) != 6 or len(set(faces)) != 6:
        raise DataError(f"{dice.file}: 'faces' must list six different faces")
    dist = doc.table("distances")
    mv = doc.table("movement")
    tr = doc.table("tracks")
    sp = doc.table("strike_points")
    bases = tuple((k, r.float("length"), r.float("beam")) for k, r in doc.table("bases").items())
    sizes = tuple(
        GameSize(
            k,
            r.int("points", 1),
            r.int("min_ships", 1),
            r.int("max_ships", 1),
            r.float("table_width"),
            r.float("table_height"),
            r.bool("line_allowed"),
        )
        for k, r in doc.table("sizes").items()
    )
    upgrades = tuple(
        Upgrade(k, r.str("name"), r.opt_int("skill", 0), r.opt_int("fortitude", 0), r.opt_int("crew", 0), r.str("cost_key"))
        for k, r in doc.table("upgrades").items()
    )
    hits = dice.table("hits")
    purposes = dice.table("faces_for")
    return Rules(
        distances=tuple(
            (band, dist.float(band)) for band in ("yard_arm", "pistol_shot", "musket_shot", "cannon_shot")
        ),
        inches_per_speed=mv.float("inches_per_speed"),
        turn_angle=mv.float("turn_angle"),
        max_speed=mv.int("max_speed", 1),
        crippled_max_speed=mv.int("crippled_max_speed", 0),
        helm_full_turn_speed=mv.int("helm_full_turn_speed", 1),
        fatigue_max=tr.int("fatigue_max", 1),
        damage_max=tr.int("damage_max", 1),
        skill_test_dice=tr.int("skill_test_dice", 1),
        fortune_points=tr.int("fortune_points", 0),
        turn_limit=tr.int("turn_limit", 1),
        close_combat_base_dice=tr.int("close_combat_base_dice", 0),
        strike_crippled=sp.int("crippled", 0),
        strike_lost=sp.int("lost", 0),
        strike_flagship_lost=sp.int("flagship_lost", 0),
        off_table_counts_as_lost=sp.bool("off_table_counts_as_lost"),
        bases=bases,
        sizes=sizes,
        upgrades=upgrades,
        faces=faces,
        hits=tuple((k, _faces(hits, k, faces)) for k in hits),
        faces_for=tuple((k, _faces(purposes, k, faces)) for k in purposes),
    )


@lru_cache(maxsize=1)
def ship_cards() -> dict[str, ShipCard]:
    doc = load(f"{ROOT}/ships.toml")
    out = {}
    classes = {b[0] for b in rules().bases}
    for key, r in doc.table("ships").items():
        costs = tuple((u.key, r.opt_int(u.cost_key, 0)) for u in rules().upgrades)
        out[key] = ShipCard(
            key=key,
            name=r.str("name"),
            type=r.str("type"),
            size_class=r.str("class", tuple(sorted(classes))),
            points=r.int("points", 0),
            fortitude=r.int("fortitude", 1),
            broadside=r.int("broadside", 0),
            crew=r.int("crew", 0),
            windward=r.int("windward", 0),
            large=r.int("large", 0),
            special=tuple(r.str_list("special")),
            upgrade_costs=costs,
        )
    return out


@lru_cache(maxsize=1)
def initiative_cards() -> dict[str, InitiativeCard]:
    doc = load(f"{ROOT}/initiative.toml")
    return {
        key: InitiativeCard(
            key,
            r.str("name"),
            r.int("value", 0),
            r.str("effect", INITIATIVE_EFFECTS),
            r.opt_int("amount", 0),
            r.str("text"),
            r.bool("discard"),
            r.opt_str("faction", ""),
        )
        for key, r in doc.table("cards").items()
    }


@lru_cache(maxsize=1)
def event_cards() -> dict[str, EventCard]:
    doc = load(f"{ROOT}/events.toml")
    return {
        key: EventCard(key, r.str("name"), r.str("effect", EVENT_EFFECTS), r.opt_int("amount", 0), r.str("text"))
        for key, r in doc.table("events").items()
    }


@lru_cache(maxsize=1)
def admirals() -> dict[str, Admiral]:
    doc = load(f"{ROOT}/admirals.toml")
    return {
        key: Admiral(key, r.str("name"), r.int("value", 0), r.int("points", 0))
        for key, r in doc.table("admirals").items()
    }


def scenario_files() -> dict[str, str]:
    """Scenario id -> relative data path."""
    return {path.rsplit("/", 1)[-1].removesuffix(".toml"): path for path in listing(f"{ROOT}/scenarios")}


@dataclass(frozen=True)
class CardChanges:
    """A faction, upgrade or captain card (ch. 6, house contents): what it changes on a ship."""

    key: str
    name: str
    text: str
    points: int = 0
    faction: str = ""  # the nationality symbol it carries ("" none); a faction's own key for a faction
    broadside: int = 0
    crew: int = 0
    fortitude: int = 0
    windward: int = 0
    large: int = 0
    skill: int = 0
    special: tuple[str, ...] = ()
    fortune: int = 0  # factions: extra Fortune Points
    symbol: str = ""  # factions: the nationality symbol's name


def _changes(key: str, r: Record, *, faction: str | None = None) -> CardChanges:
    return CardChanges(
        key=key,
        name=r.str("name"),
        text=r.str("text"),
        points=r.opt_int("points", 0),
        faction=faction if faction is not None else r.opt_str("faction", ""),
        broadside=r.opt_int("broadside", 0),
        crew=r.opt_int("crew", 0),
        fortitude=r.opt_int("fortitude", 0),
        windward=r.opt_int("windward", 0),
        large=r.opt_int("large", 0),
        skill=r.opt_int("skill", 0),
        special=tuple(r.str_list("special")) if r.has("special") else (),
        fortune=r.opt_int("fortune", 0),
        symbol=r.opt_str("symbol", ""),
    )


@lru_cache(maxsize=1)
def factions() -> dict[str, CardChanges]:
    doc = load(f"{ROOT}/cards/factions.toml")
    return {key: _changes(key, r, faction=key) for key, r in doc.table("factions").items()}


@lru_cache(maxsize=1)
def upgrade_cards() -> dict[str, CardChanges]:
    doc = load(f"{ROOT}/cards/upgrades.toml")
    return {key: _changes(key, r) for key, r in doc.table("upgrades").items()}


@lru_cache(maxsize=1)
def captain_cards() -> dict[str, CardChanges]:
    doc = load(f"{ROOT}/cards/captains.toml")
    return {key: _changes(key, r) for key, r in doc.table("captains").items()}


def check_symbols() -> None:
    """Every card's nationality symbol names a faction card (start-up check)."""
    known = factions()
    groups: list[tuple[str, dict[str, str]]] = [
        ("initiative.toml", {k: c.faction for k, c in initiative_cards().items()}),
        ("cards/upgrades.toml", {k: c.faction for k, c in upgrade_cards().items()}),
        ("cards/captains.toml", {k: c.faction for k, c in captain_cards().items()}),
    ]
    for file, symbols in groups:
        for key, faction in symbols.items():
            if faction and faction not in known:
                raise DataError(f"data/{ROOT}/{file}: card {key!r} carries the symbol of {faction!r}, which is no faction "
                                f"(factions: {', '.join(known)})")


@dataclass(frozen=True)
class ScenarioCard:
    """A card of the ch. 7 decks (house contents): objective, setting, deployment or advantage."""

    key: str
    deck: str  # objective, setting, deployment, advantage
    name: str
    text: str
    terrain: str = ""  # objective: the piece it places at the centre
    flagship_lost_extra: int = 0  # objective
    allowance: tuple[tuple[str, int], ...] = ()  # setting: pieces of each kind the holder may add
    depth: float = 0.0  # deployment zone
    start: float = 0.0
    end: float = 1.0
    changes: CardChanges | None = None  # advantage


@dataclass(frozen=True)
class ScenarioCards:
    pieces: dict[str, tuple[float, float]]
    cards: dict[str, ScenarioCard]

    def deck(self, deck: str) -> list[str]:
        return [k for k, c in self.cards.items() if c.deck == deck]


DECKS = ("objective", "setting", "deployment", "advantage")
PIECE_KINDS = ("rock", "island", "shoal", "fog")


@lru_cache(maxsize=1)
def scenario_cards() -> ScenarioCards:
    """The decks of ch. 7; card keys are unique across the decks (so an order may name any)."""
    doc = load(f"{ROOT}/cards/scenario.toml")
    pieces = {k: (r.float("width"), r.float("height")) for k, r in doc.table("pieces").items()}
    cards: dict[str, ScenarioCard] = {}
    for deck, table in zip(DECKS, ("objectives", "settings", "deployments", "advantages"), strict=True):
        for key, r in doc.table(table).items():
            if key in cards:
                raise DataError(f"{doc.file}: the card key {key!r} is in two decks")
            if deck == "objective":
                card = ScenarioCard(key, deck, r.str("name"), r.str("text"), terrain=r.opt_str("terrain", ""),
                                    flagship_lost_extra=r.opt_int("flagship_lost_extra", 0))
            elif deck == "setting":
                card = ScenarioCard(key, deck, r.str("name"), r.str("text"),
                                    allowance=tuple((k, r.opt_int(k, 0)) for k in PIECE_KINDS if r.opt_int(k, 0)))
            elif deck == "deployment":
                card = ScenarioCard(key, deck, r.str("name"), r.str("text"), depth=r.float("depth"),
                                    start=r.float("from"), end=r.float("to"))
            else:
                card = ScenarioCard(key, deck, r.str("name"), r.str("text"), changes=_changes(key, r))
            cards[key] = card
    for deck in DECKS:
        need = 1 if deck == "objective" else 3
        if sum(1 for c in cards.values() if c.deck == deck) < need:
            raise DataError(f"{doc.file}: the {deck} deck needs at least {need} cards (ch. 7 draws {need})")
    for c in cards.values():
        if c.terrain and c.terrain not in pieces:
            raise DataError(f"{doc.file}: objective {c.key!r} places {c.terrain!r}, which has no [pieces] entry")
        for kind, _n in c.allowance:
            if kind not in pieces:
                raise DataError(f"{doc.file}: setting {c.key!r} offers {kind!r}, which has no [pieces] entry")
    return ScenarioCards(pieces, cards)


for _cached in (rules, ship_cards, initiative_cards, event_cards, admirals, factions, upgrade_cards, captain_cards, scenario_cards):
    on_reload(_cached.cache_clear)  # an owner's data pack replaces the house cards at once
