"""Book section 5, Firing: after its move a ship fires every gun that bears at one target within
6 squares counted orthogonally (4 while on fire); one d6 per gun (two for 16-inch and larger),
each 6 a hit; the target draws a Damage Card per hit (Firing 3-4).

Also here: drawing from and placing Damage Cards, which ramming and damage control share.
"""

from __future__ import annotations

import math

from games.core.decks import card_name, is_red, rank_of
from games.core.errors import IllegalOrder, quote
from games.core.rng import Rng
from games.core.squaregrid import Square, orthogonal_distance
from games.ironclad_draughts.data import arcs
from games.ironclad_draughts.rules.movement_4 import MoveResult
from games.ironclad_draughts.rules.sinking_7 import lose_flotation
from games.ironclad_draughts.state import (
    CONNING,
    FIRE,
    KIND_OF_RANK,
    STEERING,
    SUNK,
    DamageCard,
    Gun,
    Mark,
    Ship,
    State,
    has,
    in_play,
    label,
)

NORMAL_RANGE = 6
FIRE_RANGE = 4
DOUBLE_CALIBRE = 16.0


def plural(n: int, word: str) -> str:
    """``1 square``, ``2 squares`` for the fire report."""
    return f"{n} {word}{'' if n == 1 else 's'}"


# --- Damage Cards (Firing 3) ----------------------------------------------------------------


def draw_damage(state: State, rng: Rng) -> str | None:
    """Draw from the face-down damage pack, reshuffling its discards when it runs out (ruling)."""
    deck = state.damage_deck
    if not deck.draw_pile and not deck.discards:
        return None
    return deck.draw(rng)


def place_damage(ship: Ship, card: str, kind: str) -> None:
    """A Damage Card placed face up on the record sheet, in force until repaired (Firing 3)."""
    ship.damage.append(DamageCard(card, kind))


def turn_word(card: str) -> str:
    """Steering Hit: port for a red card, starboard for a black one (Firing 4)."""
    return "turning to port" if is_red(card) else "turning to starboard"


def hit_damage(state: State, ship: Ship, card: str, lines: list[str]) -> None:
    """A Damage Card drawn for a gunfire hit (Firing 3-4)."""
    rank = rank_of(card)
    if rank in KIND_OF_RANK:
        kind = KIND_OF_RANK[rank]
        place_damage(ship, card, kind)
        lines.append(
            f"{ship.name} draws {card_name(card)}: {kind} hit{' (' + turn_word(card) + ')' if kind == STEERING else ''}."
        )
        return
    state.damage_deck.discard(card)
    if rank == "10":
        lines.append(f"{ship.name} draws {card_name(card)}: flotation hit.")
        lose_flotation(state, ship, 1, lines)
    else:
        lines.append(f"{ship.name} draws {card_name(card)}: no effect.")


# --- range and arcs (Firing 1-2) ------------------------------------------------------------


def relative_bearing(firer: Square, heading: int, target: Square) -> float:
    """Degrees clockwise from the firer's bow to the target's square."""
    bearing = math.degrees(math.atan2(target.x - firer.x, target.y - firer.y))
    rel = (bearing - 45 * heading) % 360.0
    return 0.0 if rel > 360.0 - 1e-9 else rel


def in_arc(rel: float, arc: tuple[float, float]) -> bool:
    """Whether a bearing lies in a gun's arc, boundaries included (house ruling)."""
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
    """The guns "able to bear" (Firing 2): those whose arc holds the target."""
    table = arcs()
    rel = relative_bearing(pos, heading, target)
    return [g for g in ship.guns if in_arc(rel, table[g.arc])]


def gun_range(ship: Ship) -> int:
    """6 squares, 4 while on fire (Firing 1 and its note)."""
    return FIRE_RANGE if has(ship, FIRE) else NORMAL_RANGE


def dice_for(guns: list[Gun]) -> int:
    """One die per gun; 16-inch and larger count as two guns (Firing 2 note)."""
    return sum(2 if g.calibre >= DOUBLE_CALIBRE else 1 for g in guns)


def fire_problem(state: State, ship: Ship, pos: Square, heading: int, target: Ship) -> str:
    """Why ``ship`` cannot fire at ``target`` from ``pos``/``heading`` ('' if it can) (Firing 1)."""
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


def check_fire(state: State, ship: Ship, result: MoveResult, target: Ship, text: str) -> None:
    """Refuse a fire order the move makes impossible: leaving, ramming (Firing 1), range or arc."""
    if result.left:
        raise IllegalOrder(f"{quote(text)}: {ship.name} leaves the board and cannot fire.")
    if result.rams:
        raise IllegalOrder(f"{quote(text)}: {ship.name} rams this activation and may not fire.", hint="Order `pass`.")
    problem = fire_problem(state, ship, result.final, result.heading, target)
    if problem:
        raise IllegalOrder(f"{quote(text)}: {problem}.", hint="Choose a target in range and arc, or fire at nothing.")


def resolve_fire(state: State, ship: Ship, target: Ship, rng: Rng, lines: list[str]) -> Mark:
    """Roll for the guns that bear and draw a Damage Card per 6 (Firing 2-3)."""
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
