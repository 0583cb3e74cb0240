"""Book section 8, Ramming: a ship ending its move in an occupied square rams it (a friend only on
a red activation card; a black one avoids, Ramming 2); rammer and rammed each draw a Damage Card
on their own table (Ramming 4 and 5). The move itself is in ``movement_4``.
"""

from __future__ import annotations

from games.core.decks import card_name, is_joker, rank_of, rank_value
from games.core.rng import Rng
from games.ironclad_draughts.rules.firing_5 import draw_damage, place_damage
from games.ironclad_draughts.rules.sinking_7 import lose_flotation
from games.ironclad_draughts.state import KIND_OF_RANK, Mark, Ship, State

RAMMER_LOSS = {"A": 5, "K": 5, "Q": 5, "J": 5, "10": 5, "9": 5, "8": 4, "7": 4, "6": 3, "5": 3, "4": 2, "3": 2, "2": 1}
RAMMED_FACE_LOSS = 10


def ram_damage(state: State, ship: Ship, card: str, rammer: bool, lines: list[str]) -> None:
    """The ramming tables (Ramming 4 for the rammer, 5 for the rammed)."""
    rank = rank_of(card)
    who = "rammer" if rammer else "rammed"
    if is_joker(card) or not rank:
        state.damage_deck.discard(card)
        lines.append(f"{ship.name} ({who}) draws {card_name(card)}: no effect.")
        return
    if rank in ("A", "K", "Q"):
        kind = KIND_OF_RANK[rank]
        place_damage(ship, card, kind)
        lines.append(f"{ship.name} ({who}) draws {card_name(card)}: {kind} hit.")
        loss = 5 if rammer else RAMMED_FACE_LOSS
    else:
        state.damage_deck.discard(card)
        lines.append(f"{ship.name} ({who}) draws {card_name(card)}.")
        loss = RAMMER_LOSS[rank] if rammer else (RAMMED_FACE_LOSS if rank == "J" else rank_value(card))
    lose_flotation(state, ship, loss, lines)


def resolve_ram(state: State, rammer: Ship, target: Ship, rng: Rng, lines: list[str]) -> Mark:
    """Both ships draw for the ram, the rammer first (Ramming 4-5)."""
    lines.append(f"{rammer.name} rams {target.name}!")
    for ship, is_rammer in ((rammer, True), (target, False)):
        card = draw_damage(state, rng)
        if card is None:
            lines.append("The damage pack is exhausted.")
            break
        ram_damage(state, ship, card, is_rammer, lines)
    # No text: the renderer labels a ram overlay "RAM" itself.
    return Mark("ram", [(rammer.x, rammer.y), (target.x, target.y)], rammer.side)
