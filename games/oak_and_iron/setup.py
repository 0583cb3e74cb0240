"""Building an Oak & Iron game: book scenarios from data, or squadrons bought by points.

Squadron options (for the ``patrol``, ``skirmish`` and ``engagement`` scenarios), written without
commas so they survive ``options:k=v,k2=v2``:

* ``fleet_a=petite-fregate+skill1/sloop/sloop`` ship cards separated by ``/``, upgrades after ``+``;
  the first ship is the Flagship;
* ``admiral_a=veteran``; ``hand_a=down/careful-aim/...`` (default: a legal hand picked in order);
* ``weather=west`` the weather edge; ``defender=b``.
"""

from __future__ import annotations

from games.core.data import Record, load
from games.core.errors import GameError, InvalidSyntax, UnknownName, quote, resolve_name
from games.core.rng import Rng
from games.oak_and_iron.cards import (
    admirals,
    event_cards,
    initiative_cards,
    rules,
    scenario_files,
    ship_cards,
)
from games.oak_and_iron.measure import WEATHER_EDGES
from games.oak_and_iron.state import OakState, ShipState, SideState, TerrainPiece

BUILT = ("patrol", "skirmish", "engagement")
DEFAULT_FLEETS = {
    "patrol": ("petite-fregate/sloop", "fluyt/corvette"),
    "skirmish": ("light-frigate/petite-fregate/sloop/brigantine", "galleon/corvette/fluyt/schooner"),
    "engagement": (
        "fourth-rate/light-frigate/petite-fregate/corvette/sloop",
        "fourth-rate/galleon/corvette/fluyt/brigantine",
    ),
}
SIDE_NAMES = {"a": ("Player A", "#b03a2e"), "b": ("Player B", "#1f5fa8")}


class SetupError(GameError):
    kind = "bad game setup"


def make_ship(ship_id: str, name: str, card_key: str, side: str, x: float, y: float, heading: float, upgrades: list[str]) -> ShipState:
    card = ship_cards()[card_key]
    length, beam = rules().base_size(card.size_class)
    ship = ShipState(
        id=ship_id,
        name=name,
        card=card_key,
        side=side,
        x=x,
        y=y,
        heading=heading % 360.0,
        length=length,
        beam=beam,
        fortitude=card.fortitude,
        broadside=card.broadside,
        crew=card.crew,
        windward=card.windward,
        large=card.large,
        special=list(card.special),
        upgrades=list(upgrades),
    )
    for key in upgrades:
        up = rules().upgrade(key)
        if up is None:
            raise SetupError(f"No upgrade called {quote(key)}.", hint=f"Upgrades: {', '.join(u.key for u in rules().upgrades)}.")
        ship.skill = max(ship.skill, up.skill)
        ship.fortitude += up.fortitude
        ship.crew += up.crew
    return ship


def validate_hand(hand: list[str], admiral_value: int, who: str) -> None:
    cards = initiative_cards()
    size = 5 + admiral_value
    if len(hand) != size:
        raise SetupError(f"{who}'s initiative hand has {len(hand)} cards; it must have {size} (5 + admiral value).")
    if len(set(hand)) != len(hand):
        raise SetupError(f"{who}'s initiative hand repeats a card title.")
    values: dict[int, int] = {}
    for key in hand:
        values[cards[key].value] = values.get(cards[key].value, 0) + 1
    if any(n > 2 for n in values.values()):
        raise SetupError(f"{who}'s initiative hand has more than 2 cards of one initiative value.")
    if sum(1 for key in hand if not cards[key].discard) < 3:
        raise SetupError(f"{who}'s initiative hand needs at least 3 cards that are not discarded after play.")


def default_hand(admiral_value: int, preferred: list[str]) -> list[str]:
    cards = initiative_cards()
    order = preferred + [k for k in cards if k not in preferred]
    hand: list[str] = []
    for key in order:
        if len(hand) == 5 + admiral_value:
            break
        trial = [*hand, key]
        if sum(1 for k in trial if cards[k].value == cards[key].value) > 2:
            continue
        hand.append(key)
    return hand


def _resolve_card(text: str) -> str:
    if text in initiative_cards():
        return text
    return resolve_name(text.replace("-", " "), {k: c.name for k, c in initiative_cards().items()}, "initiative card")


def _resolve_ship_card(text: str) -> str:
    if text in ship_cards():
        return text
    return resolve_name(text.replace("-", " "), {k: c.name for k, c in ship_cards().items()}, "ship card")


def _sides_from(rec: Record) -> list[SideState]:
    out = []
    for side_id, srec in rec.table("sides").items():
        adm = admirals()[srec.str("admiral", tuple(admirals()))]
        hand = srec.str_list("hand")
        for key in hand:
            if key not in initiative_cards():
                raise SetupError(f"{rec.file}: unknown initiative card {key!r}")
        validate_hand(hand, adm.value, srec.str("name"))
        out.append(
            SideState(
                id=side_id,
                name=srec.str("name"),
                colour=srec.str("colour"),
                admiral=adm.key,
                admiral_name=adm.name,
                admiral_value=adm.value,
                hand=list(hand),
                fortune=rules().fortune_points,
            )
        )
    return out


def from_scenario_file(scenario: str, options: dict[str, str]) -> OakState:
    rec = load(scenario_files()[scenario])
    sides = _sides_from(rec)
    flagships = {side_id: srec.str("flagship") for side_id, srec in rec.table("sides").items()}
    ships = []
    for srec in rec.tables("ships"):
        card = srec.str("card", tuple(ship_cards()))
        ship_id = srec.str("id")
        ship = make_ship(
            ship_id,
            srec.opt_str("name", ship_cards()[card].name),
            card,
            srec.str("side", tuple(s.id for s in sides)),
            srec.float("x"),
            srec.float("y"),
            srec.float("heading"),
            srec.str_list("upgrades") if srec.has("upgrades") else [],
        )
        ship.flagship = flagships.get(ship.side) == ship_id
        ships.append(ship)
    terrain = []
    if rec.has("terrain"):
        for trec in rec.tables("terrain"):
            pts = [(float(p[0]), float(p[1])) for p in trec.list("points")]
            terrain.append(TerrainPiece(trec.str("kind", ("rock", "island", "land", "shoal", "fog")), trec.opt_str("label", ""), pts))
    weather = options.get("weather", rec.str("weather_edge", WEATHER_EDGES))
    return OakState(
        scenario=scenario,
        scenario_name=rec.str("name"),
        options=dict(options),
        table_width=rec.float("table_width"),
        table_height=rec.float("table_height"),
        weather_edge=weather,
        defender=options.get("defender", rec.str("defender")),
        sides=sides,
        ships=ships,
        terrain=terrain,
    )


def parse_fleet(text: str, side: str, size_key: str, admiral_points: int) -> list[tuple[str, list[str]]]:
    """``card+upgrade/card`` -> [(card key, upgrades)], checked against the game size."""
    size = rules().size(size_key)
    items: list[tuple[str, list[str]]] = []
    if not text.strip():
        raise InvalidSyntax(f"Squadron {side.upper()} is empty.", hint="Write it like fleet_a=petite-fregate+skill1/sloop.")
    total = admiral_points
    for part in text.split("/"):
        bits = [b.strip() for b in part.split("+") if b.strip()]
        if not bits:
            raise InvalidSyntax(f"Squadron {side.upper()}: empty entry in {quote(text)}.")
        key = _resolve_ship_card(bits[0])
        card = ship_cards()[key]
        if card.size_class == "line" and not size.line_allowed:
            raise SetupError(f"{card.name}: Ships of the Line are not allowed in a {size_key.title()} game.")
        total += card.points
        for up in bits[1:]:
            if rules().upgrade(up) is None:
                raise SetupError(f"No upgrade called {quote(up)}.", hint=f"Upgrades: {', '.join(u.key for u in rules().upgrades)}.")
            cost = card.upgrade_cost(up)
            if cost <= 0:
                raise SetupError(f"{card.name} does not offer the upgrade {quote(up)}.")
            total += cost
        items.append((key, bits[1:]))
    if not size.min_ships <= len(items) <= size.max_ships:
        raise SetupError(
            f"Squadron {side.upper()} has {len(items)} ships; a {size_key.title()} game needs {size.min_ships} to {size.max_ships}."
        )
    if total > size.points:
        raise SetupError(f"Squadron {side.upper()} costs {total} points; a {size_key.title()} game allows {size.points}.")
    return items


def squadron_points(items: list[tuple[str, list[str]]], admiral_points: int) -> int:
    total = admiral_points
    for key, ups in items:
        card = ship_cards()[key]
        total += card.points + sum(card.upgrade_cost(u) for u in ups)
    return total


def built_game(size_key: str, options: dict[str, str]) -> OakState:
    size = rules().size(size_key)
    sides: list[SideState] = []
    ships: list[ShipState] = []
    names_used: dict[str, int] = {}
    for side_id, default_fleet in zip(("a", "b"), DEFAULT_FLEETS[size_key], strict=True):
        adm_key = options.get(f"admiral_{side_id}", "untested")
        if adm_key not in admirals():
            raise UnknownName(f"No admiral called {quote(adm_key)}.", hint=f"Admirals: {', '.join(admirals())}.")
        adm = admirals()[adm_key]
        fleet = parse_fleet(options.get(f"fleet_{side_id}", default_fleet), side_id, size_key, adm.points)
        if f"hand_{side_id}" in options:
            hand = [_resolve_card(h.strip()) for h in options[f"hand_{side_id}"].split("/") if h.strip()]
        else:
            hand = default_hand(adm.value, [])
        name, colour = SIDE_NAMES[side_id]
        validate_hand(hand, adm.value, name)
        sides.append(SideState(side_id, name, colour, adm.key, adm.name, adm.value, hand, fortune=rules().fortune_points))
        # deployment (house): line ahead along the side's own edge, sailing east
        y = 4.0 if side_id == "a" else size.table_height - 4.0
        x = 3.0
        for i, (key, ups) in enumerate(fleet):
            card = ship_cards()[key]
            length, _ = rules().base_size(card.size_class)
            names_used[card.name] = names_used.get(card.name, 0) + 1
            n = names_used[card.name]
            label = card.name if n == 1 else f"{card.name} {n}"
            x += length / 2
            ship = make_ship(f"{side_id}{i + 1}-{key}", label, key, side_id, x, y, 90.0, ups)
            ship.flagship = i == 0
            ships.append(ship)
            x += length / 2 + 1.5
        # the line is laid out left to right; the flagship leads it
        own = [s for s in ships if s.side == side_id]
        xs = sorted((s.x for s in own), reverse=True)
        for s, new_x in zip(own, xs, strict=True):
            s.x = new_x
        if max(s.x + s.length / 2 for s in own) > size.table_width:
            raise SetupError(f"Squadron {side_id.upper()} does not fit along the {size.table_width:.0f}\" table edge.")
    weather = options.get("weather", "west")
    if weather not in WEATHER_EDGES:
        raise SetupError(f"Weather edge {quote(weather)} is not one of {', '.join(WEATHER_EDGES)}.")
    return OakState(
        scenario=size_key,
        scenario_name=f"{size_key.title()} game ({size.points} points)",
        options=dict(options),
        table_width=size.table_width,
        table_height=size.table_height,
        weather_edge=weather,
        defender=options.get("defender", "b"),
        sides=sides,
        ships=ships,
    )


def new_game(scenario: str, options: dict[str, str], rng: Rng) -> OakState:
    if scenario in BUILT:
        state = built_game(scenario, options)
    elif scenario in scenario_files():
        state = from_scenario_file(scenario, options)
    else:
        known = ", ".join([*sorted(scenario_files()), *BUILT])
        raise UnknownName(f"No Oak & Iron scenario called {quote(scenario)}.", hint=f"Scenarios: {known}.")
    if state.weather_edge not in WEATHER_EDGES:
        raise SetupError(f"Weather edge {quote(state.weather_edge)} is not one of {', '.join(WEATHER_EDGES)}.")
    if state.defender not in ("a", "b"):
        raise SetupError(f"Defender {quote(state.defender)} must be a or b.")
    deck = sorted(event_cards())
    rng.shuffle(deck)
    state.event_deck = deck
    return state
