"""Book section 17.5 (close assault phase): casualties (17.5.2) and shattered units (17.5.8), and the
other fates the players report from the table: routing (17.4.14), rallying (17.2.11), routing off,
surrender (18.1), Generals killed or captured (14.3, 14.5). The bot records; the table decides."""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.core.geometry import sub
from games.core.ruleset import Event, public
from games.days_of_iron.data import rules
from games.days_of_iron.orders import Fate
from games.days_of_iron.rules.formations_12 import base, measured
from games.days_of_iron.state import (
    CAPTURED,
    DESTROYED,
    GONE,
    HIDDEN,
    KILLED,
    OFF_BOARD,
    ON_TABLE,
    ROUTED_OFF,
    ROUTING,
    SHATTERED,
    SURRENDERED,
    State,
    Unit,
)

FATES = {
    "rout": ROUTING,
    "destroyed": DESTROYED,
    "routed-off": ROUTED_OFF,
    "surrender": SURRENDERED,
    "captured": CAPTURED,
    "killed": KILLED,
}
SAID = {ROUTING: "is routing", DESTROYED: "is destroyed", ROUTED_OFF: "has routed off the table",
        SURRENDERED: "surrenders", CAPTURED: "is captured (counts as a loss, 14.5)", KILLED: "is killed"}


def check_in_play(unit: Unit) -> None:
    """Losses and fates are for units on the table: not gone, not hidden or off board (16.4, 16.5)."""
    if unit.status in GONE:
        raise IllegalOrder(f"{unit.name} is already out of play ({unit.status}).")
    if unit.status in (HIDDEN, OFF_BOARD):
        raise IllegalOrder(f"{unit.name} is not on the table yet.",
                           hint="`reveal` it (hidden) or bring its brigade on with `dust` first.")


def check_loss(unit: Unit, stands: int) -> None:
    """A unit loses 1 to all of its stands (or guns)."""
    check_in_play(unit)
    if not 1 <= stands <= unit.stands:
        raise IllegalOrder(f"{unit.name} has {unit.stands} "
                           f"{'guns' if unit.type == 'artillery' else 'stands'}; lose 1 to {unit.stands}.")


def loss(state: State, unit: Unit, stands: int) -> list[Event]:
    """Take losses: a General hit is lost (14.3); a unit with no stands is destroyed, and infantry
    at 2 stands or cavalry at 1 are shattered and removed (17.5.8). On the measured table the
    stands come off the rear: the front edge stays where it stood, so a unit in contact stays in
    contact (17.5: a drawn melee "goes on" next turn; RULINGS.md 17.5.2)."""
    front = base(unit).edge_midpoint("bow") if measured(state) and unit.type != "general" else None
    unit.stands -= stands
    if front is not None and unit.stands > 0:
        moved = sub(front, base(unit).edge_midpoint("bow"))
        unit.x, unit.y = round(unit.x + moved[0], 6), round(unit.y + moved[1], 6)
    if unit.type == "general":
        lines = [f"{unit.name} is hit and lost."]
    else:
        what = "guns" if unit.type == "artillery" else "stands"
        lines = [f"{unit.name} loses {stands} {what} ({unit.stands}/{unit.start_stands} left)."]
    shattered = rules().shattered.get(unit.type)
    if unit.type == "general":
        unit.status = KILLED
        unit.lost_turn = state.turn
        lines.append(f"{unit.name} is a casualty; see the Casualties to Staff table for wounds (14.3).")
    elif unit.stands == 0:
        unit.status = DESTROYED
        lines.append(f"{unit.name} is destroyed.")
    elif shattered is not None and unit.stands <= shattered:
        unit.status = SHATTERED
        lines.append(f"{unit.name} is shattered and removed from play (17.5.8).")
    return [public(" ".join(lines))]


def check_fate(unit: Unit, order: Fate) -> None:
    """Generals are killed or captured, units destroyed; only a routing unit rallies (17.2.11)."""
    check_in_play(unit)
    general_only = order.fate in ("captured", "killed")
    if general_only != (unit.type == "general"):
        raise IllegalOrder(f"`{order.fate}` is for {'Generals' if general_only else 'units'}; "
                           f"{unit.name} is {'a General' if unit.type == 'general' else 'a unit'}.",
                           hint="Generals are `killed` or `captured`; units are `destroyed`.")
    if order.fate == "rally" and unit.status != ROUTING:
        raise IllegalOrder(f"{unit.name} is not routing.")
    if order.fate == "rout" and unit.status == ROUTING:
        raise IllegalOrder(f"{unit.name} is already routing.")


def fate(state: State, unit: Unit, order: Fate) -> list[Event]:
    """Record a fate; a General lost starts the turn count for his field promotion (14.3)."""
    if order.fate == "rally":
        unit.status = ON_TABLE
        return [public(f"{unit.name} rallies (17.2.11).")]
    unit.status = FATES[order.fate]
    if unit.type == "general":
        unit.lost_turn = state.turn
    return [public(f"{unit.name} {SAID[unit.status]}.")]
