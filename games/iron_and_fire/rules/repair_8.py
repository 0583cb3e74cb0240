"""Book section 8, Repairing Damage: an activation spent rolling 1d10 against the PF.
"""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.core.ruleset import Event
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.orders import Repair
from games.iron_and_fire.report import say
from games.iron_and_fire.rules import sequence_3
from games.iron_and_fire.state import LastAction, State


# --- repair, unground, cable, prize -------------------------------------------------------
def repair(s: State, dice: Dice, events: list[Event], side: str, order: Repair) -> None:
    """8.0: spend an activation rolling 1d10; at or below the PF one hit is removed."""
    uid = order.unit.id
    u = sequence_3.activation_guard(s, side, uid)
    if u.battery:
        raise IllegalOrder("Land batteries do not repair.")
    if u.hits == 0:
        raise IllegalOrder(f"{u.name} has no hits to repair.")
    die = dice.d(10)
    head = f"{u.name} repairs: d10 **{die}** vs PF {u.pf} (needs {u.pf} or less)"
    if die <= u.pf:
        u.hits -= 1
        say(events, f"{head}: one hit removed ({u.hits} left).")
    else:
        say(events, f"{head}: no effect.")
    s.last = LastAction()
