"""Book section 13.2, Chilean Honor: an honour-bound Chilean ship may not open the range to the
nearest Peruvian ironclad until it has rammed.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.core.hexgrid import Hex, distance
from games.iron_and_fire import scene
from games.iron_and_fire.data import IRONCLAD_TYPES
from games.iron_and_fire.state import State, Unit


def honor_bound(s: State, u: Unit) -> bool:
    """Chilean Honor (13.2): black-bow Chilean ships while Peru holds the Fortunes of War."""
    if not (scene.on(s, "honor") and scene.on(s, "fow")) or u.side != "chile" or u.bow != "black" or u.honor_done:
        return False
    if s.fow_holder != "peru":
        return False
    return any(_peruvian_ironclad(s, p) for p in s.units)


def _peruvian_ironclad(s: State, p: Unit) -> bool:
    """An afloat, ungrounded Peruvian ironclad still under Peruvian command (13.2)."""
    return p.afloat and not p.grounded and p.side == "peru" and p.controller == "peru" and p.type in IRONCLAD_TYPES


def nearest_ironclad(s: State, h: Hex) -> int:
    """13.2: the range from a hex to the nearest Peruvian ironclad in play (0 if none)."""
    return min(
        (distance(h, scene.pos(p)) for p in s.units if _peruvian_ironclad(s, p)),
        default=0,
    )


def honor_check(s: State, u: Unit, entered: list[Hex]) -> None:
    """13.2: an honour-bound ship may not open the range to the nearest Peruvian ironclad."""
    before = nearest_ironclad(s, scene.pos(u))
    after = nearest_ironclad(s, entered[-1]) if entered else before
    if after > before:
        raise IllegalOrder(
            f"Chilean Honor: {u.name} must close with the nearest Peruvian ironclad to ram it ({before} hexes away now, {after} after this move).",
            hint="Move towards it at best rate, or ram when the bow is on it.",
        )
