"""Book section 7 (Starting a Game) with the scenario decks, as orders in a set-up phase.

Opt in with the option ``start=book`` on a Patrol, Skirmish or Engagement game (the quick start and
the data scenarios keep their fixed set-ups). The objective card and three cards each of the
setting, deployment and advantage & conditions decks are drawn from the game's random stream; the
side whose Flagship has the higher admiral value (else the winner of a Challenge Test) chooses
to attack or defend (``role attacker``); starting with the attacker, each side takes one card of
each category in turn (``draft <card>``); the objective's terrain goes to the centre (step 1);
starting with the defender, the sides add terrain to the pool as their setting cards allow
(``terrain add <kind>``, ``terrain done``, step 2) and place it, no closer than Musket Shot to
another piece (``terrain place <kind> <x> <y>``; ``terrain discard <kind>`` when it fits nowhere,
step 3); starting with the defender, a side may move a piece lying wholly in its deployment zone
up to Musket Shot (``terrain move <piece> <x> <y>``, ``terrain keep`` when done, step 4); the
defender deploys its whole Squadron in its zone, then the attacker
(``deploy <ship> at <x> <y> [heading]``, never within Cannon Shot of an enemy ship, step 5); the
advantage cards take effect and both sides seal their first initiative card (step 6).
The cards' contents are house cards
(``data/oak_and_iron/cards/scenario.toml``); everything drawn and chosen is public.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.core.geometry import Base, overlaps, polygon_distance
from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.oak_and_iron.data import DECKS, ScenarioCard, rules, scenario_cards
from games.oak_and_iron.measure import base_distance
from games.oak_and_iron.rules import public_lines
from games.oak_and_iron.rules.activation_4 import acting_side
from games.oak_and_iron.rules.captains_6 import admiral_aboard, faction_of, side_changes
from games.oak_and_iron.rules.initiative_4_1 import hand_events, skill_test
from games.oak_and_iron.rules.squadron_6 import refresh
from games.oak_and_iron.state import SetupState, ShipState, State, TerrainPiece

SOLID = ("rock", "island", "land")
RESERVE = "reserve"  # a ship not yet deployed: ShipState.status, so it is not on the table


def card(key: str) -> ScenarioCard:
    """A card of any of the four decks, by key."""
    return scenario_cards().cards[key]


def begin(state: State, rng: Rng) -> list[Event]:
    """Draw the decks and find who chooses to attack or defend; every ship waits off the table."""
    decks = scenario_cards()
    objectives = decks.deck("objective")
    rng.shuffle(objectives)
    offers: list[str] = []
    for deck in DECKS[1:]:
        keys = decks.deck(deck)
        rng.shuffle(keys)
        offers += keys[:3]
    setup = SetupState(objective=objectives[0], offers=offers, picks={s.id: [] for s in state.sides})
    state.setup = setup
    state.phase = "setup"
    for ship in state.ships:
        ship.status = RESERVE
    a, b = state.sides
    lines = [
        "Starting a Game (ch. 7): the scenario decks are drawn.",
        f"Objective: {card(setup.objective).name} - {card(setup.objective).text}",
        *(f"On offer ({deck}): " + "; ".join(f"{card(k).name} ({card(k).text})" for k in offers if card(k).deck == deck)
          for deck in DECKS[1:]),
    ]
    if a.admiral_value != b.admiral_value:
        setup.chooser = a.id if a.admiral_value > b.admiral_value else b.id
        setup.opening = [f"{state.side(setup.chooser).name} has the higher admiral value and chooses to attack or defend."]
    else:
        setup.opening = _challenge(state, rng)
    lines += setup.opening
    setup.turn = setup.chooser
    lines.append(f"{state.side(setup.chooser).name}: `role attacker` or `role defender`.")
    return public_lines(lines)


def _challenge(state: State, rng: Rng) -> list[str]:
    """CHALLENGE TEST (4.1) between the two Flagships (still off the table): most successes, then
    the higher Skill, else again."""
    setup = _setup(state)
    lines = ["Admiral values tie: the Flagships roll a Challenge Test."]
    for _ in range(100):
        results = {}
        for side in state.sides:
            flag = next(s for s in state.ships if s.side == side.id and s.flagship)
            res = skill_test(state, flag, rng)
            results[side.id] = (res.successes, flag.skill)
            lines.append(f"{side.name} ({flag.name}): {res.text} ({res.successes} successes).")
        a, b = (s.id for s in state.sides)
        if results[a] != results[b]:
            setup.chooser = a if results[a] > results[b] else b
            lines.append(f"{state.side(setup.chooser).name} wins and chooses to attack or defend.")
            return lines
        lines.append("Still tied: roll again.")
    setup.chooser = state.sides[0].id
    lines.append(f"Tied 100 times: {state.sides[0].name} chooses (house).")
    return lines


def _setup(state: State) -> SetupState:
    if state.phase != "setup" or state.setup is None:
        raise WrongPhase("The game has been set up; set-up orders are over.")
    return state.setup


def _acting(state: State, seat: str, step: str, what: str) -> tuple[SetupState, str]:
    setup = _setup(state)
    if setup.step != step:
        raise WrongPhase(f"{what} is not the set-up step now; it is {STEP_NAMES[setup.step]}.", hint=next_hint(state))
    side_id = acting_side(state, seat)
    if side_id != setup.turn:
        raise NotYourTurn(f"It is {state.side(setup.turn).name}'s turn in the set-up, not {state.side(side_id).name}'s.")
    return setup, side_id


STEP_NAMES = {
    "role": "choosing attacker or defender",
    "draft": "taking scenario cards",
    "select": "adding terrain to the pool",
    "place": "placing terrain",
    "adjust": "adjusting terrain",
    "deploy": "deploying the Squadrons",
}


def next_hint(state: State) -> str:
    """What to write in the current set-up step."""
    setup = state.setup
    if setup is None:
        return ""
    return {
        "role": "Write `role attacker` or `role defender`.",
        "draft": "Write `draft <card>` with a card on offer.",
        "select": "Write `terrain add <kind>` or `terrain done`.",
        "place": "Write `terrain place <kind> <x> <y>` (inches from the top-left corner).",
        "adjust": "Write `terrain move <piece> <x> <y>` or `terrain keep`.",
        "deploy": "Write `deploy <ship> at <x> <y> [heading]`.",
    }.get(setup.step, "")


def choose_role(state: State, seat: str, role: str) -> list[Event]:
    """The chooser is the attacker or the defender; the draft starts with the attacker."""
    setup, side_id = _acting(state, seat, "role", "Choosing attacker or defender")
    other = state.other(side_id)
    setup.attacker = side_id if role == "attacker" else other
    state.defender = state.other(setup.attacker)
    setup.step = "draft"
    setup.turn = setup.attacker
    return public_lines([
        f"{state.side(side_id).name} chooses to be the {role}: {state.side(setup.attacker).name} attacks, "
        f"{state.side(state.defender).name} defends.",
        f"{state.side(setup.attacker).name} takes the first card: `draft <card>`.",
    ])


def draft(state: State, seat: str, key: str) -> list[Event]:
    """Starting with the attacker, the sides take turns selecting 1 card from each category."""
    setup, side_id = _acting(state, seat, "draft", "Taking a scenario card")
    if key not in setup.offers:
        names = ", ".join(card(k).name for k in setup.offers)
        raise IllegalOrder(f"{card(key).name} is not on offer.", hint=f"On offer: {names}.")
    deck = card(key).deck
    if any(card(k).deck == deck for k in setup.picks[side_id]):
        raise IllegalOrder(f"{state.side(side_id).name} already has a {deck} card; take one of another category.")
    setup.offers.remove(key)
    setup.picks[side_id].append(key)
    lines = [f"{state.side(side_id).name} takes {card(key).name} ({deck})."]
    other = state.other(side_id)
    if len(setup.picks[other]) < 3:
        setup.turn = other
    elif len(setup.picks[side_id]) == 3:
        lines += _end_draft(state)
    return public_lines(lines)


def _end_draft(state: State) -> list[str]:
    """The rest are discarded; PLACE OBJECTIVE TERRAIN (step 1); SELECT TERRAIN begins (step 2)."""
    setup = _setup(state)
    lines = ["The remaining cards are discarded: " + (", ".join(card(k).name for k in setup.offers) or "none") + "."]
    setup.offers = []
    objective = card(setup.objective)
    if objective.terrain:
        piece = _piece(state, objective.terrain, state.table_width / 2, state.table_height / 2)
        state.terrain.append(piece)
        lines.append(f"The defender places the objective's {piece.label} at the centre of the table.")
    for side in state.sides:
        setting = card(next(k for k in setup.picks[side.id] if card(k).deck == "setting"))
        setup.allowance[side.id] = dict(setting.allowance)
    setup.step = "select"
    setup.turn = state.defender
    return lines + _next_selector(state, state.defender)


def _next_selector(state: State, preferred: str) -> list[str]:
    """Whose turn it is to add terrain: ``preferred`` unless it is done; when both are, placing begins."""
    setup = _setup(state)
    for side in state.sides:
        if not any(setup.allowance[side.id].values()) and side.id not in setup.passed:
            setup.passed.append(side.id)
    for side_id in (preferred, state.other(preferred)):
        if side_id not in setup.passed:
            setup.turn = side_id
            return [f"{state.side(side_id).name} may add terrain: {allowance_text(state, side_id)}."]
    setup.step = "place"
    return ["The terrain pool: " + (", ".join(setup.pool) or "empty") + ".", *_next_placer(state, state.defender)]


def allowance_text(state: State, side_id: str) -> str:
    """The terrain the side's setting card still lets it add."""
    left = _setup(state).allowance[side_id]
    return ", ".join(f"{n} {kind}" for kind, n in left.items() if n) or "nothing"


def terrain_add(state: State, seat: str, kind: str) -> list[Event]:
    """SELECT TERRAIN (step 2): one piece of a kind the side's setting card still allows."""
    setup, side_id = _acting(state, seat, "select", "Adding terrain")
    if setup.allowance[side_id].get(kind, 0) <= 0:
        raise IllegalOrder(f"{state.side(side_id).name}'s setting card allows no more {kind}.",
                           hint=f"It may still add: {allowance_text(state, side_id)}; or `terrain done`.")
    setup.allowance[side_id][kind] -= 1
    setup.pool.append(kind)
    return public_lines([f"{state.side(side_id).name} adds a {kind} to the pool.", *_next_selector(state, state.other(side_id))])


def terrain_done(state: State, seat: str) -> list[Event]:
    """A side adds no more terrain."""
    setup, side_id = _acting(state, seat, "select", "Adding terrain")
    setup.passed.append(side_id)
    return public_lines([f"{state.side(side_id).name} adds no more terrain.", *_next_selector(state, state.other(side_id))])


def _piece(state: State, kind: str, x: float, y: float) -> TerrainPiece:
    w, h = scenario_cards().pieces[kind]
    setup = _setup(state)
    setup.placed += 1
    label = f"{kind.title()} {1 + sum(1 for t in state.terrain if t.kind == kind)}"
    return TerrainPiece(kind, label, [(x - w / 2, y - h / 2), (x + w / 2, y - h / 2), (x + w / 2, y + h / 2), (x - w / 2, y + h / 2)])


def placement_problem(state: State, kind: str, x: float, y: float) -> str:
    """Why a piece cannot go there ("" when it can): on the table, and no closer than Musket Shot
    to another piece (step 3)."""
    w, h = scenario_cards().pieces[kind]
    if x - w / 2 < 0 or y - h / 2 < 0 or x + w / 2 > state.table_width or y + h / 2 > state.table_height:
        return f"a {kind} ({w:g}\" x {h:g}\") centred at ({x:g}, {y:g}) would leave the table"
    musket = rules().distance("musket_shot")
    poly = [(x - w / 2, y - h / 2), (x + w / 2, y - h / 2), (x + w / 2, y + h / 2), (x - w / 2, y + h / 2)]
    for t in state.terrain:
        d = polygon_distance(poly, t.points)
        if d < musket - 1e-6:
            return f"it would be {d:.2f}\" from {t.label}, closer than Musket Shot ({musket:g}\")"
    return ""


def spot_for(state: State, kind: str, step: float = 1.0) -> tuple[float, float] | None:
    """The first point (row by row) where a piece of ``kind`` may be placed, if any."""
    w, h = scenario_cards().pieces[kind]
    y = h / 2
    while y <= state.table_height - h / 2 + 1e-9:
        x = w / 2
        while x <= state.table_width - w / 2 + 1e-9:
            if not placement_problem(state, kind, x, y):
                return (x, y)
            x += step
        y += step
    return None


def _next_placer(state: State, preferred: str) -> list[str]:
    setup = _setup(state)
    if setup.pool:
        setup.turn = preferred
        return [f"{state.side(preferred).name} places a piece: `terrain place <kind> <x> <y>`."]
    setup.step = "adjust"
    setup.passed = []
    return _next_adjuster(state, state.defender)


def movable(state: State, side_id: str) -> list[TerrainPiece]:
    """ADJUST TERRAIN (step 4): pieces lying completely within the side's deployment zone, not yet moved."""
    x0, y0, x1, y1 = zone(state, side_id)
    inside = [t for t in state.terrain if all(x0 - 1e-6 <= px <= x1 + 1e-6 and y0 - 1e-6 <= py <= y1 + 1e-6 for px, py in t.points)]
    return [t for t in inside if t.label not in _setup(state).adjusted]


def _next_adjuster(state: State, preferred: str) -> list[str]:
    """Whose turn it is to adjust terrain; when both sides are done, deployment begins."""
    setup = _setup(state)
    for side in state.sides:
        if not movable(state, side.id) and side.id not in setup.passed:
            setup.passed.append(side.id)
    for side_id in (preferred, state.other(preferred)):
        if side_id not in setup.passed:
            setup.turn = side_id
            names = ", ".join(t.label for t in movable(state, side_id))
            return [f"{state.side(side_id).name} may move a piece in its zone up to Musket Shot ({names}): "
                    "`terrain move <piece> <x> <y>` or `terrain keep`."]
    return _begin_deploy(state)


def terrain_move(state: State, seat: str, label: str, x: float, y: float) -> list[Event]:
    """ADJUST TERRAIN (step 4): move a piece wholly in the side's zone up to Musket Shot; it may
    come within Musket Shot of other pieces but not overlap one, nor leave the table."""
    setup, side_id = _acting(state, seat, "adjust", "Adjusting terrain")
    piece = next((t for t in state.terrain if t.label == label), None)
    if piece is None or piece not in movable(state, side_id):
        names = ", ".join(t.label for t in movable(state, side_id)) or "none"
        raise IllegalOrder(f"{label} is not a piece {state.side(side_id).name} may move (one wholly in its deployment zone, "
                           f"not moved yet).", hint=f"Movable: {names}.")
    cx = sum(p[0] for p in piece.points) / len(piece.points)
    cy = sum(p[1] for p in piece.points) / len(piece.points)
    musket = rules().distance("musket_shot")
    far = ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5
    if far > musket + 1e-6:
        raise IllegalOrder(f"{label} may move up to Musket Shot ({musket:g}\"); ({x:g}, {y:g}) is {far:.2f}\" away.")
    moved = [(px + x - cx, py + y - cy) for px, py in piece.points]
    if any(px < -1e-6 or py < -1e-6 or px > state.table_width + 1e-6 or py > state.table_height + 1e-6 for px, py in moved):
        raise IllegalOrder(f"{label} may not be moved off the table.")
    for t in state.terrain:
        if t is not piece and overlaps(moved, t.points, tolerance=1e-6):
            raise IllegalOrder(f"{label} would overlap {t.label}.")
    piece.points = moved
    setup.adjusted.append(label)
    return public_lines([f"{state.side(side_id).name} moves {label} to ({x:g}, {y:g}).", *_next_adjuster(state, state.other(side_id))])


def terrain_keep(state: State, seat: str) -> list[Event]:
    """A side moves no more terrain (step 4)."""
    setup, side_id = _acting(state, seat, "adjust", "Adjusting terrain")
    setup.passed.append(side_id)
    return public_lines([f"{state.side(side_id).name} moves no more terrain.", *_next_adjuster(state, state.other(side_id))])


def terrain_place(state: State, seat: str, kind: str, x: float, y: float) -> list[Event]:
    """PLACE TERRAIN (step 3): a piece from the pool, centred at (x, y)."""
    setup, side_id = _acting(state, seat, "place", "Placing terrain")
    if kind not in setup.pool:
        raise IllegalOrder(f"There is no {kind} in the pool.", hint="In the pool: " + (", ".join(setup.pool) or "nothing") + ".")
    problem = placement_problem(state, kind, x, y)
    if problem:
        spot = spot_for(state, kind)
        hint = f"e.g. `terrain place {kind} {spot[0]:g} {spot[1]:g}`." if spot else f"It fits nowhere: `terrain discard {kind}`."
        raise IllegalOrder(f"The {kind} cannot go there: {problem}.", hint=hint)
    setup.pool.remove(kind)
    piece = _piece(state, kind, x, y)
    state.terrain.append(piece)
    return public_lines([f"{state.side(side_id).name} places {piece.label} at ({x:g}, {y:g}).", *_next_placer(state, state.other(side_id))])


def terrain_discard(state: State, seat: str, kind: str) -> list[Event]:
    """A piece that cannot be placed anywhere is removed from the game (step 3)."""
    setup, side_id = _acting(state, seat, "place", "Placing terrain")
    if kind not in setup.pool:
        raise IllegalOrder(f"There is no {kind} in the pool.")
    spot = spot_for(state, kind)
    if spot is not None:
        raise IllegalOrder(f"The {kind} can still be placed, e.g. `terrain place {kind} {spot[0]:g} {spot[1]:g}`.")
    setup.pool.remove(kind)
    return public_lines([f"The {kind} fits nowhere and is removed from the game.", *_next_placer(state, state.other(side_id))])


# --- deployment (step 5) ---------------------------------------------------------------------------


def zone(state: State, side_id: str) -> tuple[float, float, float, float]:
    """The side's deployment zone (x0, y0, x1, y1) from its deployment card: along its own edge
    (the first side the top edge, the other the bottom; the long edges of the table)."""
    setup = _setup_any(state)
    key = next(k for k in setup.picks[side_id] if card(k).deck == "deployment")
    c = card(key)
    x0, x1 = c.start * state.table_width, c.end * state.table_width
    if side_id == state.sides[0].id:
        return (x0, 0.0, x1, c.depth)
    return (x0, state.table_height - c.depth, x1, state.table_height)


def _setup_any(state: State) -> SetupState:
    if state.setup is None:
        raise WrongPhase("This game was not set up with the scenario decks.")
    return state.setup


def facing(state: State, side_id: str) -> float:
    """The default heading: towards the enemy's edge."""
    return 180.0 if side_id == state.sides[0].id else 0.0


def _begin_deploy(state: State) -> list[str]:
    setup = _setup(state)
    setup.step = "deploy"
    setup.turn = state.defender
    return [f"{state.side(state.defender).name} (the defender) deploys its whole Squadron first: `deploy <ship> at <x> <y> [heading]`."]


def to_deploy(state: State, side_id: str) -> list[ShipState]:
    """The side's ships still waiting off the table."""
    return [s for s in state.ships if s.side == side_id and s.status == RESERVE]


def deploy_problem(state: State, ship: ShipState, x: float, y: float, heading: float) -> str:
    """Why the ship cannot stand there ("" when it can): wholly in its zone, on no rock or island
    nor another ship, and not within Cannon Shot of an opposing ship."""
    base = Base((x, y), heading % 360.0, ship.length, ship.beam)
    x0, y0, x1, y1 = zone(state, ship.side)
    if any(not (x0 - 1e-6 <= px <= x1 + 1e-6 and y0 - 1e-6 <= py <= y1 + 1e-6) for px, py in base.polygon()):
        return f"it must stand wholly inside its deployment zone (x {x0:g}-{x1:g}, y {y0:g}-{y1:g})"
    for t in state.terrain:
        if t.kind in SOLID and overlaps(base.polygon(), t.points, tolerance=1e-6):
            return f"it would stand on {t.label}"
    cannon = rules().distance("cannon_shot")
    for other in state.ships:
        if other.on_table and other.id != ship.id:
            if overlaps(base.polygon(), other.base.polygon(), tolerance=1e-6):
                return f"it would overlap {other.name}"
            if other.side != ship.side:
                d = base_distance(base, other.base)
                if d <= cannon + 1e-6:
                    return f"it would be {d:.2f}\" from the enemy {other.name}, within Cannon Shot ({cannon:g}\")"
    return ""


def deploy(state: State, seat: str, ship_id: str, x: float, y: float, heading: float | None) -> list[Event]:
    """DEPLOY SQUADRONS (step 5): one ship onto the table."""
    setup, side_id = _acting(state, seat, "deploy", "Deploying")
    ship = state.ship(ship_id)
    if ship.side != side_id:
        raise IllegalOrder(f"{ship.name} is not one of {state.side(side_id).name}'s ships.")
    if ship.status != RESERVE:
        raise IllegalOrder(f"{ship.name} is already deployed.")
    turn = facing(state, side_id) if heading is None else heading
    problem = deploy_problem(state, ship, x, y, turn)
    if problem:
        raise IllegalOrder(f"{ship.name} cannot deploy at ({x:g}, {y:g}): {problem}.")
    ship.x, ship.y, ship.heading = x, y, turn % 360.0
    ship.status = "afloat"
    lines = [f"{state.side(side_id).name} deploys {ship.name} at ({x:g}, {y:g}), heading {ship.heading:g}."]
    if to_deploy(state, side_id):
        return public_lines(lines)
    other = state.other(side_id)
    if to_deploy(state, other):
        setup.turn = other
        lines.append(f"{state.side(other).name} now deploys: `deploy <ship> at <x> <y> [heading]`.")
        return public_lines(lines)
    setup.step = "done"
    setup.turn = ""
    return public_lines(lines + _advantages(state)) + _first_card(state)


def _advantages(state: State) -> list[str]:
    """The advantage & conditions cards take effect for their holders' Squadrons."""
    setup = _setup(state)
    lines = []
    for side in state.sides:
        key = next(k for k in setup.picks[side.id] if card(k).deck == "advantage")
        changes = card(key).changes
        if changes is None:
            continue
        side.fortune += changes.fortune
        for ship in state.ships:
            if ship.side == side.id:
                refresh(ship, faction_of(state, ship), admiral_aboard(state, ship), extra=side_changes(state, side.id))
        lines.append(f"{side.name}'s advantage: {card(key).name} - {card(key).text}")
    return lines


def _first_card(state: State) -> list[Event]:
    """CHOOSE FIRST INITIATIVE CARD (step 6): each side seals a card; the hands are private."""
    state.phase = "select"
    events = [public("The Squadrons are deployed. Each player seals a first initiative card: `initiative <card>`.")]
    return events + hand_events(state)


def status_lines(state: State) -> list[str]:
    """The set-up so far, for the status strip (all public)."""
    setup = state.setup
    if setup is None:
        return []
    lines = [f"Objective: {card(setup.objective).name}"]
    if state.phase == "setup":
        lines.append(f"Set-up: {STEP_NAMES[setup.step]}" + (f" - {state.side(setup.turn).name} to act" if setup.turn else ""))
        if setup.step == "role":  # drawn at set-up, before any order: the game's first message shows it
            lines += setup.opening
        if setup.offers:
            lines.append("On offer: " + ", ".join(f"{card(k).name} ({card(k).deck})" for k in setup.offers))
        if setup.pool:
            lines.append("Terrain pool: " + ", ".join(setup.pool))
    for side in state.sides:
        held = ", ".join(card(k).name for k in setup.picks.get(side.id, [])) or "none"
        role = "" if not setup.attacker else (" (attacker)" if side.id == setup.attacker else " (defender)")
        lines.append(f"{side.name}{role}: {held}")
    return lines
