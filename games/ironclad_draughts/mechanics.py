"""Pure rule mechanics of Ironclad Draughts: movement, firing, damage, ramming, the deal.

Everything here works on a ``GameState`` in place and appends readable lines to a report;
the ruleset in ``rules.py`` does the parsing, seat checks and event building.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.decks import SUITS, Deck, card_name, is_joker, is_red, rank_of, rank_value, suit_of
from games.core.rng import Rng
from games.core.squaregrid import Square, is_diagonal, orthogonal_distance, step
from games.ironclad_draughts.records import arcs
from games.ironclad_draughts.state import (
    AFLOAT,
    CONNING,
    ENGINE,
    FIRE,
    KIND_OF_RANK,
    PRIORITY,
    STEERING,
    SUNK,
    DamageCard,
    GameState,
    Gun,
    Mark,
    Ship,
)

NORMAL_RANGE = 6
FIRE_RANGE = 4
DOUBLE_CALIBRE = 16.0

# Ineffective damage control: card rank drawn -> further damage, per damage kind in force.
FURTHER_DAMAGE: dict[str, dict[str, str]] = {
    CONNING: {"K": ENGINE, "Q": STEERING},
    STEERING: {"K": ENGINE},
    FIRE: {"JOKER": "blow up", "A": CONNING, "K": ENGINE, "Q": STEERING, "J": FIRE},
    ENGINE: {},
}
RAMMER_LOSS = {"A": 5, "K": 5, "Q": 5, "J": 5, "10": 5, "9": 5, "8": 4, "7": 4, "6": 3, "5": 3, "4": 2, "3": 2, "2": 1}
RAMMED_FACE_LOSS = 10


# --- small helpers ---------------------------------------------------------------------------


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def cname(card: str) -> str:
    return card_name(card)


def activation_key(card: str) -> tuple[int, int]:
    """Ace low, then suit order Hearts, Clubs, Diamonds, Spades."""
    return rank_value(card), SUITS.index(suit_of(card))


def ship_by_id(state: GameState, ship_id: str) -> Ship:
    for ship in state.ships:
        if ship.id == ship_id:
            return ship
    raise KeyError(ship_id)


def in_play(ship: Ship) -> bool:
    return ship.status == AFLOAT


def ship_at(state: GameState, sq: Square) -> Ship | None:
    for ship in state.ships:
        if in_play(ship) and ship.x == sq.x and ship.y == sq.y:
            return ship
    return None


def on_board(state: GameState, sq: Square) -> bool:
    return 0 <= sq.x < state.width and 0 <= sq.y < state.height


def label(sq: Square) -> str:
    return f"{chr(ord('a') + sq.x)}{sq.y + 1}"


def exit_text(state: GameState, sq: Square) -> str:
    """Which edge an off-board square lies beyond, e.g. ``the west edge``."""
    edges = []
    if sq.y >= state.height:
        edges.append("north")
    if sq.y < 0:
        edges.append("south")
    if sq.x >= state.width:
        edges.append("east")
    if sq.x < 0:
        edges.append("west")
    return f"the {'-'.join(edges) or 'near'} edge"


def side_name(state: GameState, side_id: str) -> str:
    for side in state.sides:
        if side.id == side_id:
            return side.name
    return side_id


def has(ship: Ship, kind: str) -> bool:
    return any(d.kind == kind for d in ship.damage)


def most_serious(ship: Ship) -> DamageCard | None:
    for kind in PRIORITY:
        for dmg in ship.damage:
            if dmg.kind == kind:
                return dmg
    return None


def movement_mode(ship: Ship) -> str:
    """``free``, ``ahead`` (one square straight ahead, forced) or ``stopped``."""
    if any(d.kind == ENGINE and d.spent for d in ship.damage):
        return "stopped"
    if any(d.kind in (CONNING, ENGINE, STEERING) for d in ship.damage):
        return "ahead"
    return "free"


def steering_turn(ship: Ship) -> int:
    """45-degree steps the steering hit forces: port (-1) for a red card, starboard (+1) for black."""
    for dmg in ship.damage:
        if dmg.kind == STEERING:
            return -1 if is_red(dmg.card) else 1
    return 0


def damage_text(ship: Ship) -> str:
    cards = " ".join(f"{cname(d.card)}" for d in ship.damage)
    return f"{ship.flotation}/{ship.flotation_max}" + (f" {cards}" if cards else "")


# --- cards ------------------------------------------------------------------------------------


def draw_damage(state: GameState, rng: Rng) -> str | None:
    """Draw from the face-down damage pack, reshuffling its discards when it runs out."""
    deck = state.damage_deck
    if not deck.draw_pile and not deck.discards:
        return None
    return deck.draw(rng)


def place_damage(ship: Ship, card: str, kind: str) -> None:
    ship.damage.append(DamageCard(card, kind))


def sink(state: GameState, ship: Ship, lines: list[str], how: str = "sinks") -> None:
    ship.flotation = 0
    ship.status = SUNK
    for dmg in ship.damage:
        state.damage_deck.discard(dmg.card)
    ship.damage = []
    lines.append(f"**{ship.name} {how}!**")


def lose_flotation(state: GameState, ship: Ship, points: int, lines: list[str]) -> None:
    if points <= 0 or not in_play(ship):
        return
    ship.flotation = max(0, ship.flotation - points)
    lines.append(f"{ship.name} loses {points} flotation ({ship.flotation}/{ship.flotation_max} left).")
    if ship.flotation == 0:
        sink(state, ship, lines)


def hit_damage(state: GameState, ship: Ship, card: str, lines: list[str]) -> None:
    """A Damage Card drawn for a gunfire hit (the book's Firing 3-4)."""
    rank = rank_of(card)
    if rank in KIND_OF_RANK:
        kind = KIND_OF_RANK[rank]
        place_damage(ship, card, kind)
        lines.append(
            f"{ship.name} draws {cname(card)}: {kind} hit{' (' + turn_word(card) + ')' if kind == STEERING else ''}."
        )
        return
    state.damage_deck.discard(card)
    if rank == "10":
        lines.append(f"{ship.name} draws {cname(card)}: flotation hit.")
        lose_flotation(state, ship, 1, lines)
    else:
        lines.append(f"{ship.name} draws {cname(card)}: no effect.")


def turn_word(card: str) -> str:
    return "turning to port" if is_red(card) else "turning to starboard"


def ram_damage(state: GameState, ship: Ship, card: str, rammer: bool, lines: list[str]) -> None:
    """The ramming tables (the book's Ramming 4 and 5)."""
    rank = rank_of(card)
    who = "rammer" if rammer else "rammed"
    if is_joker(card) or not rank:
        state.damage_deck.discard(card)
        lines.append(f"{ship.name} ({who}) draws {cname(card)}: no effect.")
        return
    if rank in ("A", "K", "Q"):
        kind = KIND_OF_RANK[rank]
        place_damage(ship, card, kind)
        lines.append(f"{ship.name} ({who}) draws {cname(card)}: {kind} hit.")
        loss = 5 if rammer else RAMMED_FACE_LOSS
    else:
        state.damage_deck.discard(card)
        lines.append(f"{ship.name} ({who}) draws {cname(card)}.")
        loss = RAMMER_LOSS[rank] if rammer else (RAMMED_FACE_LOSS if rank == "J" else rank_value(card))
    lose_flotation(state, ship, loss, lines)


def damage_control(state: GameState, ship: Ship, rng: Rng, lines: list[str]) -> None:
    """The activation's Damage Control draw against the most serious card in force."""
    worst = most_serious(ship)
    if worst is None:
        return
    card = draw_damage(state, rng)
    if card is None:
        lines.append(f"{ship.name}: the damage pack is exhausted, no damage control draw.")
        return
    head = f"{ship.name} damage control against {worst.kind} ({cname(worst.card)}): drew {cname(card)}"
    if suit_of(card) and suit_of(card) == suit_of(worst.card):
        ship.damage.remove(worst)
        state.damage_deck.discard(worst.card)
        state.damage_deck.discard(card)
        lines.append(f"{head}, same suit: {worst.kind} repaired.")
        return
    rank = "JOKER" if is_joker(card) else rank_of(card)
    further = FURTHER_DAMAGE[worst.kind].get(rank, "")
    if further == "blow up":
        state.damage_deck.discard(card)
        lines.append(f"{head}: the fire reaches the magazine.")
        sink(state, ship, lines, "blows up")
    elif further:
        place_damage(ship, card, further)
        extra = f" ({turn_word(card)})" if further == STEERING else ""
        word = "another fire starts" if further == FIRE else f"further damage: {further} hit{extra}"
        lines.append(f"{head}: {word}.")
    else:
        state.damage_deck.discard(card)
        lines.append(f"{head}: no effect.")


# --- movement ---------------------------------------------------------------------------------


@dataclass
class MoveResult:
    path: list[Square]  # start square first; a final off-board square if the ship leaves
    final: Square
    heading: int
    left: bool = False
    blocked_by: str = ""  # a ship in the way before the last square of a two-square move
    rams: str = ""
    avoids: str = ""


def simulate_move(state: GameState, ship: Ship, offset: int, distance: int, turn: int) -> MoveResult:
    """Where a move ends. ``offset`` -1/0/+1 is 45 degrees to port/ahead/starboard.

    A ship may not pass through another unless the ``pass_through`` option says so; a move that
    ends in an occupied square rams (or avoids a friend) from the last empty square of its path.
    """
    direction = (ship.heading + offset) % 8
    passing = state.options.get("pass_through") == "yes"
    start = Square(ship.x, ship.y)
    cur = last_empty = start
    path = [start]
    stop = 1  # path[:stop] ends at the last empty square
    result = MoveResult(path, start, (ship.heading + turn) % 8)
    for i in range(distance):
        nxt = step(cur, direction)
        if not on_board(state, nxt):
            path.append(nxt)
            stop = len(path)
            result.left = True
            result.heading = ship.heading
            break
        other = ship_at(state, nxt)
        if other is not None and i < distance - 1:
            if not passing:
                result.blocked_by = other.id
                break
            cur = nxt
            path.append(cur)
            continue
        if other is not None:
            if other.side != ship.side or is_red(ship.card):
                result.rams = other.id
            else:
                result.avoids = other.id
            break
        cur = last_empty = nxt
        path.append(cur)
        stop = len(path)
    del path[stop:]
    result.final = last_empty
    return result


def forced_move(state: GameState, ship: Ship) -> MoveResult:
    """The move damage imposes: one square straight ahead (plus the steering turn), or none."""
    mode = movement_mode(ship)
    if mode == "stopped":
        return stay(ship)
    return simulate_move(state, ship, 0, 1, steering_turn(ship))


def stay(ship: Ship) -> MoveResult:
    """No move at all: a stopped ship, or a damaged one stopping (option ``damaged_may_stop``)."""
    here = Square(ship.x, ship.y)
    return MoveResult([here], here, ship.heading)


def free_distances(heading: int, offset: int) -> tuple[int, ...]:
    return (1,) if is_diagonal(heading + offset) else (1, 2)


def update_manoeuvre(ship: Ship) -> None:
    """Track the pass-through-and-return manoeuvre (Movement 5)."""
    if ship.y == ship.far_rank:
        ship.reached_far = True
    elif ship.reached_far and ship.y == ship.home_rank:
        ship.returned = True


# --- firing -----------------------------------------------------------------------------------


def relative_bearing(firer: Square, heading: int, target: Square) -> float:
    import math

    bearing = math.degrees(math.atan2(target.x - firer.x, target.y - firer.y))
    rel = (bearing - 45 * heading) % 360.0
    return 0.0 if rel > 360.0 - 1e-9 else rel


def in_arc(rel: float, arc: tuple[float, float]) -> bool:
    lo, hi = arc
    if hi - lo >= 360:
        return True
    eps = 1e-9
    lo %= 360
    hi %= 360
    if lo <= hi:
        return lo - eps <= rel <= hi + eps
    return rel >= lo - eps or rel <= hi + eps


def guns_bearing(ship: Ship, pos: Square, heading: int, target: Square) -> list[Gun]:
    table = arcs()
    rel = relative_bearing(pos, heading, target)
    return [g for g in ship.guns if in_arc(rel, table[g.arc])]


def gun_range(ship: Ship) -> int:
    return FIRE_RANGE if has(ship, FIRE) else NORMAL_RANGE


def dice_for(guns: list[Gun]) -> int:
    return sum(2 if g.calibre >= DOUBLE_CALIBRE else 1 for g in guns)


def fire_problem(state: GameState, ship: Ship, pos: Square, heading: int, target: Ship) -> str:
    """Why ``ship`` cannot fire at ``target`` from ``pos``/``heading`` ('' if it can)."""
    if has(ship, CONNING):
        return f"{ship.name} has a conning tower hit and may not fire"
    if not in_play(target):
        return f"{target.name} is {'sunk' if target.status == SUNK else 'off the board'}"
    if target.side == ship.side:
        return f"{target.name} is on your own side"
    tsq = Square(target.x, target.y)
    dist = orthogonal_distance(pos, tsq)
    limit = gun_range(ship)
    if dist > limit:
        why = " (on fire)" if limit == FIRE_RANGE else ""
        return f"{target.name} is {dist} squares away from {label(pos)}; range is {limit}{why}"
    if not guns_bearing(ship, pos, heading, tsq):
        rel = relative_bearing(pos, heading, tsq)
        arcs_held = ", ".join(sorted({g.arc for g in ship.guns}))
        return f"no gun of {ship.name} bears on {target.name} ({rel:.0f} degrees from the bow; its arcs: {arcs_held})"
    return ""


def resolve_fire(state: GameState, ship: Ship, target: Ship, rng: Rng, lines: list[str]) -> Mark:
    pos = Square(ship.x, ship.y)
    tsq = Square(target.x, target.y)
    guns = guns_bearing(ship, pos, ship.heading, tsq)
    dice = dice_for(guns)
    rolls = [rng.die(6) for _ in range(dice)]
    hits = rolls.count(6)
    counts: dict[str, int] = {}
    for g in guns:
        counts[g.name] = counts.get(g.name, 0) + 1
    gun_note = ", ".join(f"{n} x {name}" if n > 1 else name for name, n in counts.items())
    lines.append(
        f"{ship.name} fires at {target.name} ({plural(orthogonal_distance(pos, tsq), 'square')}) with {gun_note}: "
        f"{dice} {'die' if dice == 1 else 'dice'} {' '.join(map(str, rolls))}: {hits} hit{'s' if hits != 1 else ''}."
    )
    for _ in range(hits):
        if not in_play(target):
            break
        card = draw_damage(state, rng)
        if card is None:
            lines.append("The damage pack is exhausted.")
            break
        hit_damage(state, target, card, lines)
    text = f"{hits} hit{'s' if hits != 1 else ''}" + (" - sunk" if target.status == SUNK else "")
    return Mark("fire", [(pos.x, pos.y), (tsq.x, tsq.y)], ship.side, text)


def resolve_ram(state: GameState, rammer: Ship, target: Ship, rng: Rng, lines: list[str]) -> Mark:
    lines.append(f"{rammer.name} rams {target.name}!")
    for ship, is_rammer in ((rammer, True), (target, False)):
        card = draw_damage(state, rng)
        if card is None:
            lines.append("The damage pack is exhausted.")
            break
        ram_damage(state, ship, card, is_rammer, lines)
    # No text: the renderer labels a ram overlay "RAM" itself.
    return Mark("ram", [(rammer.x, rammer.y), (target.x, target.y)], rammer.side)


# --- the turn -----------------------------------------------------------------------------------


def sides_in_play(state: GameState) -> list[str]:
    return [s.id for s in state.sides if any(in_play(sh) and sh.side == s.id for sh in state.ships)]


def check_end(state: GameState, lines: list[str]) -> bool:
    """End the game when a side has no ship left on the board (the book's Sequence 5)."""
    if state.phase == "over":
        return True
    alive = sides_in_play(state)
    if len(alive) == 2:
        return False
    state.phase = "over"
    state.active = ""
    if alive:
        state.winner = alive[0]
        loser = next(s.id for s in state.sides if s.id != alive[0])
        state.end_reason = f"{side_name(state, loser)} has no ship left afloat on the board"
        lines.append(f"**Game over: {side_name(state, alive[0])} wins** ({state.end_reason}).")
    else:
        state.winner = ""
        state.end_reason = "neither side has a ship left afloat on the board"
        lines.append(f"**Game over: a draw** ({state.end_reason}).")
    return True


def end_by_turn_limit(state: GameState, lines: list[str]) -> None:
    """House option ``turn_limit``: the side with more flotation in play wins."""
    totals = {s.id: sum(sh.flotation for sh in state.ships if in_play(sh) and sh.side == s.id) for s in state.sides}
    state.phase = "over"
    state.active = ""
    a, b = state.sides[0].id, state.sides[1].id
    state.winner = a if totals[a] > totals[b] else b if totals[b] > totals[a] else ""
    state.end_reason = (
        f"turn limit {state.turn} reached; flotation in play {side_name(state, a)} {totals[a]}, "
        f"{side_name(state, b)} {totals[b]}"
    )
    result = f"{side_name(state, state.winner)} wins" if state.winner else "a draw"
    lines.append(f"**Game over: {result}** ({state.end_reason}).")


def activation_order(state: GameState) -> list[Ship]:
    dealt = [s for s in state.ships if s.card]
    return sorted(dealt, key=lambda s: activation_key(s.card))


def next_ship(state: GameState) -> Ship | None:
    for ship in activation_order(state):
        if in_play(ship) and not ship.activated:
            return ship
    return None


def deal(state: GameState, rng: Rng, lines: list[str]) -> None:
    """Collect and shuffle the activation pack, then deal one card face up to each ship in play."""
    deck: Deck = state.activation_deck
    deck.reshuffle_discards(rng)
    if state.options.get("damage_shuffle") == "each-turn":
        state.damage_deck.reshuffle_discards(rng)
    state.turn += 1
    for ship in state.ships:
        ship.activated = False
        ship.card = deck.draw() if in_play(ship) else ""
    order = ", ".join(f"{cname(s.card)} {s.name}" for s in activation_order(state))
    lines.append(f"Turn {state.turn}: activation cards dealt: {order}.")
    state.phase = "activate"


def end_turn(state: GameState) -> None:
    for ship in state.ships:
        if ship.card:
            state.activation_deck.discard(ship.card)
            ship.card = ""
        ship.activated = False


def advance(state: GameState, rng: Rng, lines: list[str]) -> None:
    """Start the next activation: next ship by card, end of turn, the deal, or the end of the game."""
    while True:
        state.active = ""
        state.report = []
        if check_end(state, lines):
            return
        ship = next_ship(state)
        if ship is None:
            end_turn(state)
            limit = int(state.options.get("turn_limit", "0") or 0)
            if limit and state.turn >= limit:
                end_by_turn_limit(state, lines)
                return
            if state.options.get("umpire_deals") == "yes":
                state.phase = "deal"
                lines.append(f"Turn {state.turn} is over; waiting for the umpire to `deal`.")
                return
            deal(state, rng, lines)
            continue
        state.active = ship.id
        start: list[str] = [f"Next: {ship.name} ({cname(ship.card)})."]
        damage_control(state, ship, rng, start)
        lines.extend(start)
        state.report = start
        if not in_play(ship):
            ship.activated = True
            continue
        return


class InvariantBroken(AssertionError):
    """A bug, not a user's mistake: the state broke an invariant."""


def check_rules(state: GameState) -> None:
    """Invariants a test can call: cards are conserved and no two ships share a square."""
    seen: dict[tuple[int, int], str] = {}
    for ship in state.ships:
        if in_play(ship):
            key = (ship.x, ship.y)
            if key in seen:
                raise InvariantBroken(f"{ship.name} and {seen[key]} share a square")
            seen[key] = ship.name
    in_force = [d.card for s in state.ships for d in s.damage]
    pack = state.damage_deck.draw_pile + state.damage_deck.discards + in_force
    if sorted(pack) != sorted(set(pack)) or len(pack) != 54:
        raise InvariantBroken(f"damage pack has {len(pack)} cards ({len(set(pack))} distinct)")
