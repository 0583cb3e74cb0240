"""Oak & Iron house data: rules numbers, the custom die, ship, initiative, event and admiral cards.

Everything is read from ``data/oak_and_iron`` (so a data pack can replace it) and decoded straight
into the Structs of ``schema.py``; what a schema cannot say (faces of the die, classes with a base,
symbols that name a faction, pieces the cards place) is checked here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

import msgspec

from games.core.data import listing, load, on_reload
from games.core.errors import DataError
from games.core.schema import decode
from games.oak_and_iron.schema import (
    Admiral,
    AdmiralsFile,
    Advantage,
    CaptainsFile,
    CardChanges,
    DiceFile,
    EventCard,
    EventsFile,
    Faction,
    FactionsFile,
    GameSize,
    InitiativeCard,
    InitiativeFile,
    RulesFile,
    ScenarioCardsFile,
    ShipCard,
    ShipsFile,
    Upgrade,
    UpgradeCard,
    UpgradeCardsFile,
)

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
T = TypeVar("T", bound=msgspec.Struct)
__all__ = ["DECKS", "EVENT_EFFECTS", "INITIATIVE_EFFECTS", "PIECE_KINDS", "Admiral", "Advantage", "CardChanges",
           "EventCard", "Faction", "GameSize", "InitiativeCard", "Rules", "ScenarioCard", "ScenarioCards", "ShipCard",
           "Upgrade", "UpgradeCard", "admirals", "captain_cards", "check_symbols", "event_cards", "factions",
           "initiative_cards", "rules", "scenario_cards", "scenario_files", "ship_cards", "upgrade_cards"]


class Rules(msgspec.Struct, frozen=True):
    """``rules.toml`` and ``dice.toml`` together, read through the names the rules use."""

    file: RulesFile
    dice: DiceFile

    def distance(self, band: str) -> float:
        return float(getattr(self.file.distances, band))

    @property
    def distance_map(self) -> dict[str, float]:
        return {band: self.distance(band) for band in ("yard_arm", "pistol_shot", "musket_shot", "cannon_shot")}

    def base_size(self, size_class: str) -> tuple[float, float]:
        base = self.file.bases.get(size_class)
        if base is None:
            raise DataError(f"{ROOT}/rules.toml: no base size for class {size_class!r}")
        return (base.length, base.beam)

    def hit_faces(self, band: str) -> tuple[str, ...]:
        return self.dice.hits[band]

    def faces_of(self, purpose: str) -> tuple[str, ...]:
        return self.dice.faces_for[purpose]

    def size(self, key: str) -> GameSize:
        found = self.file.sizes.get(key)
        if found is None:
            raise DataError(f"{ROOT}/rules.toml: no game size {key!r}")
        return found

    def upgrade(self, key: str) -> Upgrade | None:
        return self.file.upgrades.get(key)

    @property
    def sizes(self) -> tuple[GameSize, ...]:
        return tuple(self.file.sizes.values())

    @property
    def upgrades(self) -> tuple[Upgrade, ...]:
        return tuple(self.file.upgrades.values())

    @property
    def faces(self) -> tuple[str, ...]:
        return self.dice.faces

    @property
    def inches_per_speed(self) -> float:
        return self.file.movement.inches_per_speed

    @property
    def turn_angle(self) -> float:
        return self.file.movement.turn_angle

    @property
    def max_speed(self) -> int:
        return self.file.movement.max_speed

    @property
    def crippled_max_speed(self) -> int:
        return self.file.movement.crippled_max_speed

    @property
    def helm_full_turn_speed(self) -> int:
        return self.file.movement.helm_full_turn_speed

    @property
    def fatigue_max(self) -> int:
        return self.file.tracks.fatigue_max

    @property
    def damage_max(self) -> int:
        return self.file.tracks.damage_max

    @property
    def skill_test_dice(self) -> int:
        return self.file.tracks.skill_test_dice

    @property
    def fortune_points(self) -> int:
        return self.file.tracks.fortune_points

    @property
    def turn_limit(self) -> int:
        return self.file.tracks.turn_limit

    @property
    def close_combat_base_dice(self) -> int:
        return self.file.tracks.close_combat_base_dice

    @property
    def strike_crippled(self) -> int:
        return self.file.strike_points.crippled

    @property
    def strike_lost(self) -> int:
        return self.file.strike_points.lost

    @property
    def strike_flagship_lost(self) -> int:
        return self.file.strike_points.flagship_lost

    @property
    def off_table_counts_as_lost(self) -> bool:
        return self.file.strike_points.off_table_counts_as_lost


def _faces(file: str, where: str, values: tuple[str, ...], faces: tuple[str, ...]) -> None:
    for v in values:
        if v not in faces:
            raise DataError(f"{file}: key '{where}': {v!r} is not a face of the die ({', '.join(faces)})")


@lru_cache(maxsize=1)
def rules() -> Rules:
    rules_file = decode(f"{ROOT}/rules.toml", RulesFile)
    dice = decode(f"{ROOT}/dice.toml", DiceFile)
    dice_name = load(f"{ROOT}/dice.toml").file
    if len(set(dice.faces)) != 6:
        raise DataError(f"{dice_name}: 'faces' must list six different faces")
    for table, values in (("hits", dice.hits), ("faces_for", dice.faces_for)):
        for key, faces in values.items():
            _faces(dice_name, f"{table}.{key}", faces, dice.faces)
    rules_file = msgspec.structs.replace(
        rules_file,
        sizes={k: msgspec.structs.replace(s, key=k) for k, s in rules_file.sizes.items()},
        upgrades={k: msgspec.structs.replace(u, key=k) for k, u in rules_file.upgrades.items()},
    )
    return Rules(rules_file, dice)


def _keyed(cards: dict[str, T]) -> dict[str, T]:
    """Cards by key, each told its key."""
    return {key: msgspec.structs.replace(card, key=key) for key, card in cards.items()}


@lru_cache(maxsize=1)
def ship_cards() -> dict[str, ShipCard]:
    relpath = f"{ROOT}/ships.toml"
    out = _keyed(decode(relpath, ShipsFile).ships)
    classes = tuple(sorted(rules().file.bases))
    for key, card in out.items():
        if card.size_class not in classes:
            raise DataError(f"{load(relpath).file}: key 'ships.{key}.class': expected one of {', '.join(classes)}, "
                            f"got {card.size_class!r}")
    return out


@lru_cache(maxsize=1)
def initiative_cards() -> dict[str, InitiativeCard]:
    return _keyed(decode(f"{ROOT}/initiative.toml", InitiativeFile).cards)


@lru_cache(maxsize=1)
def event_cards() -> dict[str, EventCard]:
    return _keyed(decode(f"{ROOT}/events.toml", EventsFile).events)


@lru_cache(maxsize=1)
def admirals() -> dict[str, Admiral]:
    return _keyed(decode(f"{ROOT}/admirals.toml", AdmiralsFile).admirals)


def scenario_files() -> dict[str, str]:
    """Scenario id -> relative data path."""
    return {path.rsplit("/", 1)[-1].removesuffix(".toml"): path for path in listing(f"{ROOT}/scenarios")}


@lru_cache(maxsize=1)
def factions() -> dict[str, Faction]:
    return _keyed(decode(f"{ROOT}/cards/factions.toml", FactionsFile).factions)


@lru_cache(maxsize=1)
def upgrade_cards() -> dict[str, UpgradeCard]:
    return _keyed(decode(f"{ROOT}/cards/upgrades.toml", UpgradeCardsFile).upgrades)


@lru_cache(maxsize=1)
def captain_cards() -> dict[str, UpgradeCard]:
    return _keyed(decode(f"{ROOT}/cards/captains.toml", CaptainsFile).captains)


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
    """A card of the ch. 7 decks (house contents): objective, setting, deployment or advantage, read
    alike by the set-up (``cards/scenario.toml`` gives each deck its own table, see ``schema.py``)."""

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
    changes: Advantage | None = None  # advantage


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
    relpath = f"{ROOT}/cards/scenario.toml"
    doc = decode(relpath, ScenarioCardsFile)
    file = load(relpath).file
    pieces = {k: (p.width, p.height) for k, p in doc.pieces.items()}
    found = [
        *(ScenarioCard(k, "objective", o.name, o.text, terrain=o.terrain or "", flagship_lost_extra=o.flagship_lost_extra)
          for k, o in doc.objectives.items()),
        *(ScenarioCard(k, "setting", s.name, s.text,
                       allowance=tuple((kind, getattr(s, kind)) for kind in PIECE_KINDS if getattr(s, kind)))
          for k, s in doc.settings.items()),
        *(ScenarioCard(k, "deployment", d.name, d.text, depth=d.depth, start=d.start, end=d.end)
          for k, d in doc.deployments.items()),
        *(ScenarioCard(k, "advantage", a.name, a.text, changes=msgspec.structs.replace(a, key=k))
          for k, a in doc.advantages.items()),
    ]
    cards: dict[str, ScenarioCard] = {}
    for card in found:
        if card.key in cards:
            raise DataError(f"{file}: the card key {card.key!r} is in two decks")
        cards[card.key] = card
    for deck in DECKS:
        need = 1 if deck == "objective" else 3
        if sum(1 for c in cards.values() if c.deck == deck) < need:
            raise DataError(f"{file}: the {deck} deck needs at least {need} cards (ch. 7 draws {need})")
    for c in cards.values():
        if c.terrain and c.terrain not in pieces:
            raise DataError(f"{file}: objective {c.key!r} places {c.terrain!r}, which has no [pieces] entry")
        for kind, _n in c.allowance:
            if kind not in pieces:
                raise DataError(f"{file}: setting {c.key!r} offers {kind!r}, which has no [pieces] entry")
    return ScenarioCards(pieces, cards)


for _cached in (rules, ship_cards, initiative_cards, event_cards, admirals, factions, upgrade_cards, captain_cards, scenario_cards):
    on_reload(_cached.cache_clear)  # an owner's data pack replaces the house cards at once


def upgrade_cost(card: ShipCard, upgrade: str) -> int:
    """The price of one of rules.toml's upgrades on this ship (0: not offered)."""
    found = rules().upgrade(upgrade)
    return card.cost_of(found.cost_key) if found is not None else 0
