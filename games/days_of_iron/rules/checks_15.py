"""Book section 15 (terrain) and 14.4: the book's simple d6 checks (setting a wood alight, a ford,
demolition, fire spreading, a General attached to a unit hit), as listed in ``rules.toml``."""

from __future__ import annotations

from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.days_of_iron.data import rules
from games.days_of_iron.orders import Check, free_text
from games.days_of_iron.state import State


def check_check(order: Check) -> Check:
    """What the check (15.x, 14.4) is about, if said, as stored."""
    if order.about is None:
        return order
    return Check(order.check, free_text(order.about, "what the check is about"))


def roll_check(state: State, order: Check, rng: Rng) -> list[Event]:
    """Roll one check: 1d6 read against the check's faces (15.x, 14.4)."""
    check = rules().checks[order.check]
    roll = rng.die(6)
    about = f" ({order.about})" if order.about else ""
    return [public(f"{check.name}{about}: 1d6 = {roll}: {check.result(roll)}.", reveals=True)]
