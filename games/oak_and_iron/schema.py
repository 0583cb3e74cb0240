"""Rules, dice, cards, admirals and scenarios of ``data/oak_and_iron``: the one description of each
file. ``data.py`` decodes the files straight into these Structs and the rules read them
(``rules/starting_7.py`` reads the scenario files); ``games.core.schema`` checks every file against
them at start-up, so an unknown key or a bad value is refused before play.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from games.core.schema import Sourced, Strict

Natural = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
# Spelled out for the type checker; a test keeps them equal to cards.py and measure.py.
InitiativeEffect = Literal[
    "none", "reroll_attack", "attack_dice", "band_closer", "seamanship_auto", "partial_dice", "rally_all",
    "skill_dice", "reload_all", "speed", "ignore_first_fatigue",
]
EventEffect = Literal["none", "speed", "attack_dice", "rally_all", "fatigue_all"]
WeatherEdge = Literal["north", "east", "south", "west"]
TerrainKind = Literal["rock", "island", "land", "shoal", "fog"]


# --- rules.toml and dice.toml --------------------------------------------------------------------
class DistancesSchema(Strict, kw_only=True):
    yard_arm: float
    pistol_shot: float
    musket_shot: float
    cannon_shot: float


class MovementSchema(Strict, kw_only=True):
    inches_per_speed: float
    turn_angle: float
    max_speed: Positive
    crippled_max_speed: Natural
    helm_full_turn_speed: Positive


class TracksSchema(Strict, kw_only=True):
    fatigue_max: Positive
    damage_max: Positive
    skill_test_dice: Positive
    fortune_points: Natural
    turn_limit: Positive
    close_combat_base_dice: Natural


class StrikePointsSchema(Strict, kw_only=True):
    crippled: Natural
    lost: Natural
    flagship_lost: Natural
    off_table_counts_as_lost: bool


class BaseSchema(Strict, kw_only=True):
    length: float
    beam: float


class GameSize(Strict, kw_only=True):
    key: str = ""  # the table's key, set by data.py
    points: Positive
    min_ships: Positive
    max_ships: Positive
    table_width: float
    table_height: float
    line_allowed: bool


class Upgrade(Strict, kw_only=True):
    key: str = ""  # the table's key, set by data.py
    name: str
    skill: int = 0
    fortitude: int = 0
    crew: int = 0
    cost_key: str  # the ship-card key holding its price


class RulesFile(Sourced, kw_only=True):
    distances: DistancesSchema
    movement: MovementSchema
    tracks: TracksSchema
    strike_points: StrikePointsSchema
    bases: dict[str, BaseSchema]
    sizes: dict[str, GameSize]
    upgrades: dict[str, Upgrade]


class DiceFile(Sourced, kw_only=True):
    faces: Annotated[tuple[str, ...], msgspec.Meta(min_length=6, max_length=6)]  # different: data.py
    hits: dict[str, tuple[str, ...]]  # faces of the die: data.py
    faces_for: dict[str, tuple[str, ...]]


# --- cards ---------------------------------------------------------------------------------------
class ShipCard(Strict, kw_only=True):
    key: str = ""  # the table's key, set by data.py
    name: str
    type: str
    size_class: str = msgspec.field(name="class")  # a key of [bases] in rules.toml: data.py
    points: Natural
    fortitude: Positive
    broadside: Natural
    crew: Natural
    windward: Natural
    large: Natural
    special: tuple[str, ...]
    # upgrade prices, one per ``cost_key`` of rules.toml (0: the upgrade is not offered)
    skill1_cost: int = 0
    skill2_cost: int = 0
    stout_cost: int = 0
    crew_cost: int = 0

    def cost_of(self, cost_key: str) -> int:
        """The price under one of rules.toml's ``cost_key``s on this ship (0: not offered);
        ``data.upgrade_cost`` finds the key of an upgrade."""
        return int(getattr(self, cost_key))


class ShipsFile(Sourced, kw_only=True):
    ships: dict[str, ShipCard]


class InitiativeCard(Strict, kw_only=True):
    key: str = ""  # the table's key, set by data.py
    name: str
    value: Natural
    effect: InitiativeEffect
    amount: int = 0
    text: str
    discard: bool
    faction: str = ""  # the nationality symbol it carries (a key of cards/factions.toml), none if empty


class InitiativeFile(Sourced, kw_only=True):
    cards: dict[str, InitiativeCard]


class CardChanges(Strict, kw_only=True):
    """What a faction, upgrade, captain or advantage card changes on each ship it applies to."""

    key: str = ""  # the table's key, set by data.py
    name: str
    broadside: int = 0
    crew: int = 0
    fortitude: int = 0
    windward: int = 0
    large: int = 0
    skill: Natural = 0  # the ship's Skill is at least this
    special: tuple[str, ...] = ()
    text: str


class Faction(CardChanges, kw_only=True):
    symbol: str  # the nationality symbol's name
    fortune: Natural = 0  # extra Fortune Points for the Squadron


class FactionsFile(Sourced, kw_only=True):
    factions: dict[str, Faction]


class UpgradeCard(CardChanges, kw_only=True):
    """An upgrade or a captain card (the same keys)."""

    points: Natural
    faction: str = ""  # the nationality symbol it carries (a key of cards/factions.toml): data.py


class UpgradeCardsFile(Sourced, kw_only=True):
    upgrades: dict[str, UpgradeCard]


class CaptainsFile(Sourced, kw_only=True):
    captains: dict[str, UpgradeCard]


class PieceSchema(Strict, kw_only=True):
    width: float
    height: float


class ObjectiveSchema(Strict, kw_only=True):
    name: str
    text: str
    terrain: TerrainKind | None = None
    flagship_lost_extra: Natural = 0


class SettingSchema(Strict, kw_only=True):
    name: str
    text: str
    rock: Natural = 0
    island: Natural = 0
    shoal: Natural = 0
    fog: Natural = 0


class DeploymentSchema(Strict, kw_only=True):
    name: str
    text: str
    depth: float
    start: float = msgspec.field(name="from")
    end: float = msgspec.field(name="to")


class Advantage(CardChanges, kw_only=True):
    fortune: Natural = 0


class ScenarioCardsFile(Sourced, kw_only=True):
    pieces: dict[str, PieceSchema]
    objectives: dict[str, ObjectiveSchema]
    settings: dict[str, SettingSchema]
    deployments: dict[str, DeploymentSchema]
    advantages: dict[str, Advantage]


class EventCard(Strict, kw_only=True):
    key: str = ""  # the table's key, set by data.py
    name: str
    effect: EventEffect
    amount: int = 0
    text: str


class EventsFile(Sourced, kw_only=True):
    events: dict[str, EventCard]


class Admiral(Strict, kw_only=True):
    key: str = ""  # the table's key, set by data.py
    name: str
    value: Natural
    points: Natural


class AdmiralsFile(Sourced, kw_only=True):
    admirals: dict[str, Admiral]


# --- scenarios/*.toml ----------------------------------------------------------------------------
class SideSchema(Strict, kw_only=True):
    name: str
    colour: str
    admiral: str
    flagship: str
    hand: list[str]


class ShipSchema(Strict, kw_only=True):
    id: str
    card: str
    side: str
    name: str = ""  # default: the card's name
    x: float
    y: float
    heading: float
    upgrades: list[str] = msgspec.field(default_factory=list)


class TerrainSchema(Strict, kw_only=True):
    kind: TerrainKind
    label: str = ""
    points: list[tuple[float, float]]


class ScenarioFile(Sourced, kw_only=True):
    name: str
    description: str = ""
    table_width: float
    table_height: float
    weather_edge: WeatherEdge
    defender: str
    sides: dict[str, SideSchema]
    ships: list[ShipSchema]
    terrain: list[TerrainSchema] = msgspec.field(default_factory=list)
    # the card game (ch. 6): true lets the options add a faction card, upgrades and captains
    # (fleet_a), an admiral and a hand, within the game size ``size``; false for the quick start
    cards: bool = False
    size: str = ""


def cost_keys() -> None:
    """Each upgrade's ``cost_key`` must be a ship-card key the schema knows, or no card could price it."""
    from games.core.data import load
    from games.core.errors import DataError
    from games.core.schema import decode

    known = [f.encode_name for f in msgspec.structs.fields(ShipCard) if f.encode_name.endswith("_cost")]
    for key, upgrade in decode("oak_and_iron/rules.toml", RulesFile).upgrades.items():
        if upgrade.cost_key not in known:
            raise DataError(f"{load('oak_and_iron/rules.toml').file}: key 'upgrades.{key}.cost_key': expected one of "
                            f"{', '.join(known)} (a new price needs a field in games/oak_and_iron/schema.py), "
                            f"got {upgrade.cost_key!r}")


SCHEMAS = {
    "oak_and_iron/rules.toml": RulesFile,
    "oak_and_iron/dice.toml": DiceFile,
    "oak_and_iron/ships.toml": ShipsFile,
    "oak_and_iron/initiative.toml": InitiativeFile,
    "oak_and_iron/events.toml": EventsFile,
    "oak_and_iron/admirals.toml": AdmiralsFile,
    "oak_and_iron/cards/factions.toml": FactionsFile,
    "oak_and_iron/cards/upgrades.toml": UpgradeCardsFile,
    "oak_and_iron/cards/captains.toml": CaptainsFile,
    "oak_and_iron/cards/scenario.toml": ScenarioCardsFile,
    "oak_and_iron/scenarios/*.toml": ScenarioFile,
}
