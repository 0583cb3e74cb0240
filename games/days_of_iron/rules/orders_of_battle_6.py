"""Book section 6 (creating orders of battle): each side's force from its data file, priced by
section 5 and held to the scenario's points (6.1)."""

from __future__ import annotations

import re
import unicodedata

from games.core.errors import IllegalOrder
from games.days_of_iron import data
from games.days_of_iron.rules.points_5 import side_points, unit_points
from games.days_of_iron.state import Brigade, Objective, SideState, State, TerrainPiece, Unit


def slug(name: str) -> str:
    """An ASCII id for a name in an order of battle (6) (accents dropped: "François" -> "francois")."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.casefold()).strip("-") or "unit"


class _Ids:
    """Unique ids in the order they are handed out ("74th", "74th-2", ...)."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def __call__(self, wanted: str) -> str:
        base = slug(wanted)
        out, n = base, 2
        while out in self.used:
            out, n = f"{base}-{n}", n + 1
        self.used.add(out)
        return out


def new_state(spec: data.ScenarioSpec, options: dict[str, str]) -> State:
    """Both orders of battle set out (6), Generals priced by 5.1; refused over the scenario's points."""
    rules = data.rules()
    sides: list[SideState] = []
    brigades: list[Brigade] = []
    units: list[Unit] = []
    uid = _Ids()
    for index, side in enumerate(spec.sides):
        force = data.force(options[f"force{index + 1}"] or side.force)
        sides.append(SideState(side.id, side.name, side.colour, force.nation, force.name))
        units.append(Unit(uid(force.general), force.general, side.id, "", "general", rank="army",
                          quality="capable", points=rules.points.staff.get("army", 0)))
        for c in force.commanders:
            units.append(Unit(uid(c.id), c.name, side.id, "", "general", rank=c.rank, points=rules.points.staff[c.rank]))
        for b in force.brigades:
            bid = uid(b.id)
            brigades.append(Brigade(bid, b.name, side.id))
            if b.general:
                units.append(Unit(uid(b.general), b.general, side.id, bid, "general", rank="brigade",
                                  points=rules.points.staff["brigade"]))
            for u in b.units:
                units.append(Unit(uid(u.id), u.name, side.id, bid, u.type, u.cls, u.stands, u.stands,
                                  unit_points(u, rules), list(u.modifiers), u.light, gun=u.gun))
    state = State(
        scenario=spec.id, scenario_name=spec.name, options=options, points_limit=spec.points,
        table_width=spec.table[0], table_height=spec.table[1], sides=sides, brigades=brigades, units=units,
        objectives=[Objective(o.name, o.wanted_by, o.held_by) for o in spec.objectives],
        terrain=[TerrainPiece(t.type, t.name, [list(p) for p in t.points]) for t in spec.terrain]
        if options.get("board") == "measured" else [],
    )
    for side_state in sides:
        total = side_points(state, side_state.id)
        if total > spec.points:
            raise IllegalOrder(
                f"{side_state.name}' order of battle ({side_state.force}) costs {total} points, "
                f"more than the scenario's {spec.points}.", hint="Choose another force (option force1/force2).")
    return state
