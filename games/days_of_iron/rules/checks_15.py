"""Book section 15 (terrain) and 14.4: the book's simple d6 checks (setting a wood alight, a ford,
demolition, fire spreading, a General attached to a unit hit), as listed in ``rules.toml``."""

from __future__ import annotations

from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.days_of_iron.data import rules
from games.days_of_iron.orders import Check, free_text
from games.days_of_iron.rules import fires_15_9
from games.days_of_iron.state import State


def check_check(state: State, seat: str, order: Check) -> Check:
    """What the check (15.x, 14.4) is about, if said, as stored; setting fire to a piece of the
    measured table is checked by the fire rules (15.9)."""
    if order.about is None:
        return order
    checked = Check(order.check, free_text(order.about, "what the check is about"))
    if order.check == "fire":
        fires_15_9.check_setting(state, seat, checked.about)
    return checked


def roll_check(state: State, order: Check, rng: Rng) -> list[Event]:
    """Roll one check: 1d6 read against the check's faces (15.x, 14.4)."""
    check = rules().checks[order.check]
    roll = rng.die(6)
    about = f" ({order.about})" if order.about else ""
    fire = fires_15_9.after_check(state, order.about, roll) if order.check == "fire" else []
    return [public(f"{check.name}{about}: 1d6 = {roll}: {check.result(roll)}.", reveals=True), *fire]
