"""Book section 17.5.6 (defensive cover): infantry in line in a wood or town spend two Movement Phases with no
other activity building abatis or a barricade, a light obstacle as wide as the unit, laid along its
front. ``UNIT fortify`` in the side's own part of the Movement Phase starts the work and, said again
in the next turn's Movement Phase, finishes it (RULINGS.md 17.5.6)."""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.core.geometry import Base, point_in_polygon
from games.core.ruleset import Event, public
from games.days_of_iron.orders import Fortify
from games.days_of_iron.rules.formations_12 import LINE, base, footprint
from games.days_of_iron.rules.movement_17_4 import check_movement_order
from games.days_of_iron.state import State, TerrainPiece, Unit

WOOD_OR_TOWN = ("light-wood", "heavy-wood", "urban", "light-urban")  # the terrain sheet's woods (15.8) and towns (15.7)
COVER = "light-obstacle"  # the terrain sheet's light obstacle (17.5.6)
DEPTH = 0.5  # inches: house value for the depth of the barricade laid before the front


def busy_since(state: State, unit: Unit, turn: int) -> str:
    """What the unit has done since ``turn``'s Movement Phase began that is "other activity"."""
    if unit.moved_turn >= turn and unit.moved > 0:
        return "moved"  # a move, wheel or formation change spends inches (movement_17_4.spend)
    if unit.fired_turn >= turn:
        return "fired"
    if unit.charge_turn >= turn:
        return "charged"
    return ""


def check_fortify(state: State, seat: str, order: Fortify) -> Fortify:
    """17.5.6: infantry, in line, in a wood or urban area, and doing nothing else."""
    unit = state.unit(order.unit)
    check_movement_order(state, seat, unit, order.text)
    if unit.type != "infantry" or unit.formation != LINE:
        raise IllegalOrder(f"only infantry in line prepare defensive cover; {unit.name} is {unit.type} in "
                           f"{unit.formation} (17.5.6).")
    centre = base(unit).centre
    if not any(t.type in WOOD_OR_TOWN and point_in_polygon(centre, [(p[0], p[1]) for p in t.points])
               for t in state.terrain):
        raise IllegalOrder(f"{unit.name} is not in a wood or urban area: defensive cover is built only there (17.5.6).")
    if unit.fortify_turn == state.turn:
        raise IllegalOrder(f"{unit.name} is already at work this turn; say `{unit.name} fortify` again next "
                           "turn's Movement phase to finish (17.5.6).")
    busy = busy_since(state, unit, state.turn)
    if busy:
        raise IllegalOrder(f"{unit.name} has {busy} this turn: building cover takes two Movement Phases with no "
                           "other activity (17.5.6).")
    return order


def fortify(state: State, order: Fortify) -> list[Event]:
    """Start the work, or finish it when the unit began it last turn and has done nothing else since."""
    unit = state.unit(order.unit)
    if unit.fortify_turn != state.turn - 1 or busy_since(state, unit, unit.fortify_turn):
        unit.fortify_turn = state.turn
        return [public(f"{unit.name} begins building defensive cover (17.5.6): say `{unit.name} fortify` in next "
                       "turn's Movement phase, with no other activity between, to finish it.")]
    unit.fortify_turn = 0
    here = base(unit)
    ahead = here.forward
    front = here.edge_midpoint("bow")
    strip = Base((front[0] + ahead[0] * DEPTH / 2, front[1] + ahead[1] * DEPTH / 2), unit.facing, DEPTH,
                 footprint(unit)[0])
    state.terrain.append(TerrainPiece(COVER, f"{unit.name}'s barricade", [[x, y] for x, y in strip.polygon()]))
    return [public(f"{unit.name} has built defensive cover (17.5.6): a light obstacle along its front.")]
