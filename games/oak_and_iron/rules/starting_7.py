"""Book section 7 (Starting a Game), with the Quickstart Setup of section 3: book and house scenarios from
``data/oak_and_iron/scenarios``, or two squadrons bought by points (``squadron_6``) deployed in
line ahead along their own table edges (house deployment); the weather edge, the defender and the
shuffled event deck. Scenario cards (setting, deployment, objectives, conditions) will be
``scenario_cards_7.py``.

Options: ``weather=west`` the weather edge; ``defender=b``; ``faction_a``, ``fleet_a``, ``admiral_a``,
``hand_a`` (and ``_b``) for the Patrol, Skirmish and Engagement sizes.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.core.data import load
from games.core.errors import UnknownName, quote
from games.core.rng import Rng
from games.core.schema import convert, fail
from games.oak_and_iron.data import admirals, event_cards, factions, initiative_cards, rules, scenario_files, ship_cards
from games.oak_and_iron.measure import WEATHER_EDGES
from games.oak_and_iron.rules import scenario_cards_7
from games.oak_and_iron.rules.squadron_6 import (
    SetupError,
    captain_of,
    default_hand,
    make_ship,
    parse_fleet,
    resolve_card,
    squadron_points,
    validate_hand,
)
from games.oak_and_iron.schema import ScenarioFile
from games.oak_and_iron.state import ShipState, SideState, State, TerrainPiece

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



CARD_OPTIONS = ("faction", "fleet", "hand", "admiral")


def _refuse_cards(spec: ScenarioFile, options: dict[str, str]) -> None:
    """A scenario without the card game (the quick start, ch. 3) refuses the options that build one."""
    for side_id, side in spec.sides.items():
        for kind in CARD_OPTIONS:
            value = options.get(f"{kind}_{side_id}", "")
            if value and not (kind == "admiral" and value == side.admiral):
                raise SetupError(
                    f"{spec.name} is played without faction, upgrade or captain cards and with the hands and admirals "
                    f"it gives (book ch. 3: it lets players learn the basics \"before using more advanced options, such as "
                    f"faction, upgrade, or event cards\"), so {quote(f'{kind}_{side_id}={value}')} does not apply.",
                    hint="Leave it out, or play reef, patrol, skirmish, engagement or fleet, which take the cards.",
                )


def _known(file: str, where: str, value: str, known: Iterable[str]) -> str:
    """A scenario's name for something of another file (an admiral, a ship card, a side, a size)."""
    choices = list(known)
    if value not in choices:
        raise fail(file, where, f"expected one of {', '.join(choices)}, got {value!r}")
    return value


def _sides_from(spec: ScenarioFile, file: str, options: dict[str, str]) -> list[SideState]:
    """The scenario's sides; with the card game, each side's admiral, faction card and hand from the
    options (``admiral_a``, ``faction_a``, ``hand_a``), else the scenario's."""
    out = []
    for side_id, sspec in spec.sides.items():
        adm_key = options.get(f"admiral_{side_id}") or _known(file, f"sides.{side_id}.admiral", sspec.admiral, admirals())
        if adm_key not in admirals():
            raise UnknownName(f"No admiral called {quote(adm_key)}.", hint=f"Admirals: {', '.join(admirals())}.")
        adm = admirals()[adm_key]
        faction = faction_option(options, side_id)
        hand = list(sspec.hand)
        for key in hand:
            if key not in initiative_cards():
                raise SetupError(f"{file}: unknown initiative card {key!r}")
        if f"hand_{side_id}" in options:
            hand = [resolve_card(h.strip()) for h in options[f"hand_{side_id}"].split("/") if h.strip()]
        elif adm_key != sspec.admiral or faction:
            try:  # the scenario's hand if it still fits the admiral and the faction, else a legal one led by it
                validate_hand(hand, adm.value, sspec.name, faction)
            except SetupError:
                hand = default_hand(adm.value, hand, faction)
        validate_hand(hand, adm.value, sspec.name, faction)
        fortune = rules().fortune_points + (factions()[faction].fortune if faction else 0)
        out.append(SideState(side_id, sspec.name, sspec.colour, adm.key, adm.name, adm.value, list(hand),
                             fortune=fortune, faction=faction))
    return out


def _cards_for(spec: ScenarioFile, file: str, side: SideState, options: dict[str, str]) -> dict[str, list[str]]:
    """FACTIONS & SHIPS (6) on a scenario's fixed ships: ``fleet_a`` names the side's ships (their
    cards, Flagship first, then in the scenario's order) with ``+`` upgrades and a captain, checked
    against the scenario's game size; ship id -> its added entries."""
    text = options.get(f"fleet_{side.id}", "")
    if not text:
        return {}
    flagship = spec.sides[side.id].flagship
    own = sorted((s for s in spec.ships if s.side == side.id), key=lambda s: s.id != flagship)
    size_key = _known(file, "size", spec.size, (s.key for s in rules().sizes))
    entries = parse_fleet(text, side.id, size_key, admirals()[side.admiral].points, faction_option(options, side.id))
    want = "/".join(s.card for s in own)
    if [key for key, _ in entries] != [s.card for s in own]:
        raise SetupError(f"{spec.name} gives {side.name} the ships {want} (Flagship first): fleet_{side.id} may add "
                         f"upgrades and a captain to them, not change them.", hint=f"e.g. fleet_{side.id}={want.replace('/', '+skill1/', 1)}")
    return {s.id: ups for s, (_, ups) in zip(own, entries, strict=True)}


def from_scenario_file(scenario: str, options: dict[str, str]) -> State:
    """A book or house scenario from data (the Quickstart Setup of section 3, the reef): sides, ships,
    terrain; a scenario with ``cards = true`` takes the card game's options (ch. 6)."""
    record = load(scenario_files()[scenario])
    spec, file = convert(record.doc, ScenarioFile, record.file), record.file
    if not spec.cards:
        _refuse_cards(spec, options)
        options = {k: v for k, v in options.items() if k.split("_")[0] not in CARD_OPTIONS}
    sides = _sides_from(spec, file, options)
    flagships = {side_id: side.flagship for side_id, side in spec.sides.items()}
    added: dict[str, list[str]] = {}
    for side in sides:
        added |= _cards_for(spec, file, side, options)
    ships = []
    for i, sspec in enumerate(spec.ships):
        card = _known(file, f"ships[{i}].card", sspec.card, ship_cards())
        side_id = _known(file, f"ships[{i}].side", sspec.side, (s.id for s in sides))
        ups = list(sspec.upgrades) + added.get(sspec.id, [])
        captain = captain_of(ups)
        ship = make_ship(
            sspec.id,
            sspec.name or ship_cards()[card].name,
            card,
            side_id,
            sspec.x,
            sspec.y,
            sspec.heading,
            [u for u in ups if u != captain],
            faction=faction_option(options, side_id),
            captain=captain,
        )
        ship.flagship = flagships.get(ship.side) == sspec.id
        ships.append(ship)
    terrain = [TerrainPiece(t.kind, t.label, list(t.points)) for t in spec.terrain]
    return State(
        scenario=scenario,
        scenario_name=spec.name,
        options=dict(options),
        table_width=spec.table_width,
        table_height=spec.table_height,
        weather_edge=options.get("weather", spec.weather_edge),
        defender=options.get("defender", spec.defender),
        sides=sides,
        ships=ships,
        terrain=terrain,
    )


def faction_option(options: dict[str, str], side_id: str) -> str:
    """FACTIONS & SHIPS (6): the faction card a Squadron chose (option ``faction_a``), "" for none."""
    key = options.get(f"faction_{side_id}", "")
    if key and key not in factions():
        raise UnknownName(f"No faction called {quote(key)}.", hint=f"Factions: {', '.join(factions())}.")
    return key


def fleet_factions(options: dict[str, str], side_id: str, count: int) -> list[str]:
    """FACTIONS & SHIPS (6) for each Squadron of a fleet (ch. 9): ``faction_a=royal-navy`` for all of
    them, or one a Squadron apart with | (``royal-navy|armada``; an empty part: none)."""
    text = options.get(f"faction_{side_id}", "")
    parts = text.split("|") if "|" in text else [text] * count
    if len(parts) != count:
        raise SetupError(f"faction_{side_id} names {len(parts)} factions for {count} Squadrons: give one for all, or one a Squadron apart with |.")
    return [faction_option({f"faction_{side_id}": p.strip()}, side_id) for p in parts]


def built_game(size_key: str, options: dict[str, str]) -> State:
    """Patrol, Skirmish or Engagement (6): both squadrons bought from the options, deployed in line ahead (house)."""
    size = rules().size(size_key)
    sides: list[SideState] = []
    ships: list[ShipState] = []
    names_used: dict[str, int] = {}
    for side_id, default_fleet in zip(("a", "b"), DEFAULT_FLEETS[size_key], strict=True):
        adm_key = options.get(f"admiral_{side_id}", "untested")
        if adm_key not in admirals():
            raise UnknownName(f"No admiral called {quote(adm_key)}.", hint=f"Admirals: {', '.join(admirals())}.")
        adm = admirals()[adm_key]
        faction = faction_option(options, side_id)
        fleet = parse_fleet(options.get(f"fleet_{side_id}", default_fleet), side_id, size_key, adm.points, faction)
        if f"hand_{side_id}" in options:
            hand = [resolve_card(h.strip()) for h in options[f"hand_{side_id}"].split("/") if h.strip()]
        else:
            hand = default_hand(adm.value, [], faction)
        name, colour = SIDE_NAMES[side_id]
        validate_hand(hand, adm.value, name, faction)
        fortune = rules().fortune_points + (factions()[faction].fortune if faction else 0)
        sides.append(SideState(side_id, name, colour, adm.key, adm.name, adm.value, hand, fortune=fortune, faction=faction))
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
            captain = captain_of(ups)
            plain = [u for u in ups if u != captain]
            ship = make_ship(f"{side_id}{i + 1}-{key}", label, key, side_id, x, y, 90.0, plain, faction=faction, captain=captain)
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
    return State(
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


FLEET = "fleet"
DEFAULT_FLEET_BATTLE = ("petite-fregate/sloop|light-frigate/brigantine", "fluyt/corvette|galleon/schooner")


def fleet_game(options: dict[str, str]) -> State:
    """FLEET BATTLES (9): each side a fleet of 2-4 Squadrons (``fleet_a=sq1|sq2``, each written like a
    Squadron, its first ship its Flagship; ``admiral_a=capable|untested`` one admiral a Squadron),
    the fleets' points and ships checked against ``[sizes.fleet]``; each Squadron has its own
    initiative hand; the fleet shares its Fortune Points (house). Deployed (house) in line ahead
    along the fleet's own long edge, Squadron after Squadron, a new line further in when full."""
    size = rules().size(FLEET)
    sides: list[SideState] = []
    squadrons: list[SideState] = []
    ships: list[ShipState] = []
    names_used: dict[str, int] = {}
    for side_id, default in zip(("a", "b"), DEFAULT_FLEET_BATTLE, strict=True):
        name, colour = SIDE_NAMES[side_id]
        parts = [p for p in options.get(f"fleet_{side_id}", default).split("|")]
        if not 2 <= len(parts) <= 4:
            raise SetupError(f"Fleet {side_id.upper()} has {len(parts)} Squadrons; a Fleet Battle needs 2 to 4 (write them apart with |).")
        chosen = fleet_factions(options, side_id, len(parts))
        adm_keys = options.get(f"admiral_{side_id}", "").split("|") if options.get(f"admiral_{side_id}") else []
        hands = options[f"hand_{side_id}"].split("|") if f"hand_{side_id}" in options else []
        total = 0
        count = 0
        for n, part in enumerate(parts, start=1):
            adm_key = adm_keys[n - 1].strip() if n <= len(adm_keys) else "untested"
            if adm_key not in admirals():
                raise UnknownName(f"No admiral called {quote(adm_key)}.", hint=f"Admirals: {', '.join(admirals())}.")
            adm = admirals()[adm_key]
            faction = chosen[n - 1]
            entries = parse_fleet(part, f"{side_id}{n}", FLEET, adm.points, faction, whole=False)
            total += squadron_points(entries, adm.points)
            count += len(entries)
            sq_id, sq_name = f"{side_id}{n}", f"{name} squadron {n}"
            if n <= len(hands):
                hand = [resolve_card(h.strip()) for h in hands[n - 1].split("/") if h.strip()]
            else:
                hand = default_hand(adm.value, [], faction)
            validate_hand(hand, adm.value, sq_name, faction)
            squadrons.append(SideState(sq_id, sq_name, colour, adm.key, adm.name, adm.value, hand, fortune=0, fleet=side_id, faction=faction))
            for i, (key, ups) in enumerate(entries):
                card = ship_cards()[key]
                names_used[card.name] = names_used.get(card.name, 0) + 1
                label = card.name if names_used[card.name] == 1 else f"{card.name} {names_used[card.name]}"
                captain = captain_of(ups)
                ship = make_ship(f"{sq_id}-{i + 1}-{key}", label, key, side_id, 0.0, 0.0, 90.0,
                                 [u for u in ups if u != captain], faction=faction, captain=captain)
                ship.flagship, ship.squadron = i == 0, sq_id
                ships.append(ship)
        if not size.min_ships <= count <= size.max_ships:
            raise SetupError(f"Fleet {side_id.upper()} has {count} ships; a Fleet Battle needs {size.min_ships} to {size.max_ships}.")
        if total > size.points:
            raise SetupError(f"Fleet {side_id.upper()} costs {total} points; a Fleet Battle allows {size.points} a fleet.")
        fleet_sq = [q for q in squadrons if q.fleet == side_id]
        # the fleet shares its Fortune Points (house): each faction among its Squadrons adds its bonus once
        fortune = rules().fortune_points + sum(factions()[f].fortune for f in dict.fromkeys(chosen) if f)
        top = max(q.admiral_value for q in fleet_sq)
        sides.append(SideState(side_id, f"{name}'s fleet", colour, "fleet", "fleet", top, [], fortune=fortune))
        _line_ahead(size.table_width, size.table_height, side_id, [s for s in ships if s.side == side_id])
    weather = options.get("weather", "west")
    if weather not in WEATHER_EDGES:
        raise SetupError(f"Weather edge {quote(weather)} is not one of {', '.join(WEATHER_EDGES)}.")
    return State(
        scenario=FLEET, scenario_name=f"Fleet Battle ({size.points} points a fleet)", options=dict(options),
        table_width=size.table_width, table_height=size.table_height, weather_edge=weather,
        defender=options.get("defender", "b"), sides=sides, ships=ships, squadrons=squadrons,
    )


def _line_ahead(width: float, height: float, side_id: str, own: list[ShipState]) -> None:
    """House deployment: line ahead sailing east along the own edge (a the top, b the bottom) from
    8" in from the west end, the first Squadron's Flagship leading, 5" between ships and 4" more between
    Squadrons (room for the names on the board); a new line 6" further in once a line reaches 60%
    of the edge, so there is sea ahead."""
    row, x = 0, 8.0
    previous = ""
    for ship in reversed(own):
        if previous and ship.squadron != previous:
            x += 4.0
        previous = ship.squadron
        if x + ship.length > width * 0.6:
            row, x = row + 1, 8.0
        ship.x = x + ship.length / 2
        ship.y = 4.0 + 6.0 * row if side_id == "a" else height - 4.0 - 6.0 * row
        x += ship.length + 5.0


def new_game(scenario: str, options: dict[str, str], rng: Rng) -> State:
    """DEPLOY and the first Initiative Phase to come (7): the game, its weather edge and defender checked, the event deck shuffled."""
    if scenario in BUILT:
        state = built_game(scenario, options)
    elif scenario == FLEET:
        state = fleet_game(options)
    elif scenario in scenario_files():
        state = from_scenario_file(scenario, options)
    else:
        known = ", ".join([*sorted(scenario_files()), *BUILT, FLEET])
        raise UnknownName(f"No Oak & Iron scenario called {quote(scenario)}.", hint=f"Scenarios: {known}.")
    if state.weather_edge not in WEATHER_EDGES:
        raise SetupError(f"Weather edge {quote(state.weather_edge)} is not one of {', '.join(WEATHER_EDGES)}.")
    if state.defender not in ("a", "b"):
        raise SetupError(f"Defender {quote(state.defender)} must be a or b.")
    deck = sorted(event_cards())
    rng.shuffle(deck)
    state.event_deck = deck
    if options.get("command", "fleet") != "fleet" and scenario != FLEET:
        raise SetupError(f"command={options['command']} (a seat for each Squadron) is for Fleet Battles (ch. 9); "
                         f"{quote(scenario)} has one Squadron a side.", hint="Play scenario:fleet, or leave out command.")
    if options.get("start", "quick") == "book":
        if scenario not in BUILT:
            raise SetupError(f"start=book (the scenario decks) is for {', '.join(BUILT)} games; {quote(scenario)} has its own set-up.")
        # set-up makes no events the table service posts: what begin says (the draw, a Challenge
        # Test's dice) is kept in the state and shown by the status the game's first message carries
        scenario_cards_7.begin(state, rng)
    return state
