"""Book section 2 (Game Components: RANGE RULER): Yard Arm, Pistol, Musket and Cannon
Shot, measured exactly between bases; and the ``measure`` order, which any seat may give and which
changes nothing but the board's focus."""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.core.geometry import bearing_of, sub
from games.core.ruleset import Event, private
from games.oak_and_iron.data import rules
from games.oak_and_iron.measure import (
    BAND_NAMES,
    band_of,
    base_distance,
    in_broadside_path,
    line_of_sight,
    point_of_sail,
    raking,
)
from games.oak_and_iron.rules.terrain_5_9 import sight_blockers
from games.oak_and_iron.state import State


def distances() -> dict[str, float]:
    """Each band's reach in inches (house values, ``data/oak_and_iron/rules.toml``)."""
    return rules().distance_map


def band_text(dist: float) -> str:
    """A distance with its band, as replies quote it: ``4.20" (Musket Shot)``."""
    return f"{dist:.2f}\" ({BAND_NAMES[band_of(dist, distances())]})"


def measure(state: State, seat: str, ship_id: str, target_id: str) -> list[Event]:
    """Everything the ruler and the eye would tell about two ships: distance and band, point of
    sail, bearing, and for each broadside whether the target is in its path and in sight. Told to
    the asker alone, as Days of Iron's `measure` is: a question changes nothing at the table (the
    book says nothing of measuring aloud), not even which ship's range rings the board shows, or
    the rings would tell everyone that someone measured, and from which ship."""
    ship, target = state.ship(ship_id), state.ship(target_id)
    if not (ship.on_table and target.on_table) or ship_id == target_id:
        raise IllegalOrder(f"Measure between two different ships on the table, not {ship.name} and {target.name}.")
    d = base_distance(ship.base, target.base)
    pos = point_of_sail(ship.base, state.weather_edge, state.table_width, state.table_height)
    bits = [f"{ship.name} to {target.name}: {band_text(d)}", f"{ship.name} is {pos.describe()}"]
    bearing = bearing_of(sub(target.base.centre, ship.base.centre))
    bits.append(f"bearing {bearing:.0f} (relative {((bearing - ship.heading) % 360):.0f})")
    blockers = sight_blockers(state, ship.id, target.id)
    for side in ("port", "starboard"):
        inside = in_broadside_path(ship.base, side, target.base)
        sight = line_of_sight(ship.base, target.base, blockers, (side,)) is not None
        rake = raking(ship.base, side, target.base) if inside else ""
        bits.append(
            f"{side}: {'in' if inside else 'not in'} broadside path, {'sight' if sight else 'no sight'}"
            + (f", raking through the {rake}" if rake else "")
            + (", reload marker" if (ship.reload_port if side == "port" else ship.reload_starboard) else "")
        )
    bits.append(f"band {BAND_NAMES[band_of(d, distances())]}")
    return [private("; ".join(bits) + ".", seat)]
