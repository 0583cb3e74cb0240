"""Book section 13.2, Chilean Honor: an honour-bound Chilean ship may not open the range to the
nearest Peruvian ironclad until it has rammed.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.core.hexgrid import Hex, distance
from games.iron_and_fire import scene
from games.iron_and_fire.game import (
    Game,
)
from games.iron_and_fire.state import Unit


def honor_bound(g: Game, u: Unit) -> bool:
    """Chilean Honor (13.2): black-bow Chilean ships while Peru holds the Fortunes of War."""
    if not (scene.on(g.s, "honor") and scene.on(g.s, "fow")) or u.side != "chile" or u.bow != "black" or u.honor_done:
        return False
    if g.s.fow_holder != "peru":
        return False
    return any(_peruvian_ironclad(g, p) for p in g.s.units)


def _peruvian_ironclad(g: Game, p: Unit) -> bool:
    """An afloat, ungrounded Peruvian ironclad still under Peruvian command (13.2)."""
    return p.afloat and not p.grounded and p.side == "peru" and p.controller == "peru" and p.type in ("TIC", "BIC", "CBIC")


def nearest_ironclad(g: Game, h: Hex) -> int:
    """13.2: the range from a hex to the nearest Peruvian ironclad in play (0 if none)."""
    return min(
        (distance(h, scene.pos(p)) for p in g.s.units if _peruvian_ironclad(g, p)),
        default=0,
    )


def honor_check(g: Game, u: Unit, entered: list[Hex]) -> None:
    """13.2: an honour-bound ship may not open the range to the nearest Peruvian ironclad."""
    before = nearest_ironclad(g, scene.pos(u))
    after = nearest_ironclad(g, entered[-1]) if entered else before
    if after > before:
        raise IllegalOrder(
            f"Chilean Honor: {u.name} must close with the nearest Peruvian ironclad to ram it ({before} hexes away now, {after} after this move).",
            hint="Move towards it at best rate, or ram when the bow is on it.",
        )
