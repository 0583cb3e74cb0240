"""Book section 8, Repairing Damage: an activation spent rolling 1d10 against the PF.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.iron_and_fire.game import (
    Game,
)
from games.iron_and_fire.orders import Repair
from games.iron_and_fire.rules import sequence_3
from games.iron_and_fire.state import LastAction


# --- repair, unground, cable, prize -------------------------------------------------------
def repair(g: Game, side: str, order: Repair) -> None:
    """8.0: spend an activation rolling 1d10; at or below the PF one hit is removed."""
    uid = order.unit.id
    u = sequence_3.activation_guard(g.s, side, uid)
    if u.battery:
        raise IllegalOrder("Land batteries do not repair.")
    if u.hits == 0:
        raise IllegalOrder(f"{u.name} has no hits to repair.")
    die = g.d(10)
    head = f"{u.name} repairs: d10 **{die}** vs PF {u.pf} (needs {u.pf} or less)"
    if die <= u.pf:
        u.hits -= 1
        g.say(f"{head}: one hit removed ({u.hits} left).")
    else:
        g.say(f"{head}: no effect.")
    g.s.last = LastAction()
