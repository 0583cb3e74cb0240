"""Book section 3, Damage and Sinking: hits are cumulative; at the critical point a ship breaks
off, at no flotation left it sinks. (Where a broken-off ship steers: ``movement_4.break_off_move``.)"""

from __future__ import annotations

from games.hex_ironclads.state import BROKEN_OFF, FIGHTING, SAVED, SUNK, Ship, State


def points(n: int) -> str:
    """``1 flotation point``, ``2 flotation points``: for the reports."""
    return f"{n} flotation point{'' if n == 1 else 's'}"


def damage(state: State, ship: Ship, amount: int, *, struck_before_leaving: bool = False) -> list[str]:
    """Section 3: take flotation points off a ship; report breaking off and sinking. A ram
    adjudicated after movement (``struck_before_leaving``, section 5) still counts against a ship
    that left the map meanwhile."""
    if amount <= 0 or ship.status == SUNK or (ship.status == SAVED and not struck_before_leaving):
        return []
    ship.lost = min(ship.lost + amount, ship.flotation)
    notes = []
    if ship.remaining <= 0:
        ship.status = SUNK
        notes.append(f"**{ship.name} sinks.**")
    elif ship.remaining <= ship.critical and ship.status == FIGHTING:
        ship.status = BROKEN_OFF
        home = state.side(ship.side).home_edge
        # Name the Critical Point itself: a ship knocked below it has not "reached" a lower one.
        reached = (
            f"reaches its critical point (FV {ship.critical})"
            if ship.remaining == ship.critical
            else f"falls past its critical point (FV {ship.critical}) to FV {ship.remaining}"
        )
        notes.append(f"{ship.name} {reached} and breaks off toward the {home} edge.")
    return notes


def damage_report(state: State, ship: Ship, amount: int, *, struck_before_leaving: bool = False) -> list[str]:
    """Section 3: the damage with the ship's flotation before and after, as one report's parts."""
    before = ship.remaining
    notes = damage(state, ship, amount, struck_before_leaving=struck_before_leaving)
    return [f"{ship.name}: FV {before} -> {ship.remaining} of {ship.flotation}.", *notes]
