"""What a seat sees: the table (its size and the deployment zones of 16.2: the bot never knows
where the miniatures stand), the status lines, and the sealed records its side (or the umpire)
may read. A spectator's view never holds a sealed text."""

from __future__ import annotations

from games.core.ruleset import UMPIRE
from games.core.view import Board, Counter, Overlay, SideInfo, Terrain, View, Zone
from games.days_of_iron.data import house, reference, rules
from games.days_of_iron.rules import formations_12, morale_17_2, movement_17_4, shooting_17_3
from games.days_of_iron.rules.points_5 import side_points
from games.days_of_iron.rules.victory_18 import fmt_halves, margin, objective_point, side_lost_halves
from games.days_of_iron.state import GONE, HIDDEN, INITIATIVE, ROUTING, SETUP, STEPS, TURN, State, Unit

SYSTEM_ID = "days-of-iron"


def view(state: State, seat: str | None) -> View:
    """The table for ``seat`` (None: a spectator)."""
    w, h = float(state.table_width), float(state.table_height)
    measured = formations_12.measured(state)
    label = f"{state.table_width}\" x {state.table_height}\" table" + ("" if measured else ": measure on your own")
    table = Terrain("land", points=((0.0, 0.0), (w, 0.0), (w, h), (0.0, h)), label=label)
    pieces = tuple(Terrain(t.type, tuple((p[0], p[1]) for p in t.points), label=t.name) for t in state.terrain)
    board = Board(kind="table", key=f"{SYSTEM_ID}:{state.scenario}:{state.table_width}x{state.table_height}",
                  name=state.scenario_name, width=w, height=h, table_terrain=(table, *pieces))
    depth = float(min(rules().deployment_depth, state.table_height // 2))
    zones = (  # 16.2: the first side's baseline is the bottom edge, the second's the top
        Zone(f"{state.sides[0].name} deployment", state.sides[0].id,
             polygon=((0.0, h - depth), (w, h - depth), (w, h), (0.0, h))),
        Zone(f"{state.sides[1].name} deployment", state.sides[1].id,
             polygon=((0.0, 0.0), (w, 0.0), (w, depth), (0.0, depth))),
    )
    return View(
        board=board,
        viewer=seat,
        sides=tuple(SideInfo(s.id, s.name, s.colour) for s in state.sides),
        zones=zones,
        counters=tuple(counters(state, seat)) if measured else (),
        status=tuple(status(state)),
        title=f"Days of Iron: {state.scenario_name}",
        private_text=tuple(private(state, seat)),
    )


def seen_by(unit: Unit, seat: str | None) -> bool:
    """Units standing on the table are seen by all; a hidden one (16.4) only by its side and the
    umpire, until revealed; off-board and gone units by nobody."""
    if formations_12.on_table(unit):
        return True
    return unit.status == HIDDEN and bool(unit.formation) and seat in (UMPIRE, unit.side)


def counters(state: State, seat: str | None) -> list[Counter]:
    """Each unit this seat may see, drawn to scale as its block of stands (section 12)."""
    out = []
    for u in state.units:
        if not seen_by(u, seat):
            continue
        width, depth = formations_12.footprint(u)
        markers = tuple(m for m, on in (("hidden", u.status == HIDDEN), ("routing", u.status == ROUTING)) if on)
        words = morale_17_2.status_words(u) if u.status != HIDDEN else []  # 17.2.8: markers beside the unit
        label = short_label(u) + (f" ({', '.join(words)})" if words else "")
        out.append(Counter(id=u.id, label=label, side=u.side, pos=(round(u.x, 4), round(u.y, 4)),
                           facing=round(u.facing, 4), markers=markers, size=(depth, width), kind="unit"))
    return out


NAME_FILLERS = ("de", "du", "des", "la", "le", "à", "a", "von", "der", "of", "the")


def short_label(unit: Unit) -> str:
    """A name short enough to sit under a 4" column on the board: a General's surname, or the
    unit's number and the start of its arm ("10e Chasseurs à pied" -> "10e Chass.")."""
    words = unit.name.split()
    if unit.type == "general":
        return words[-1]
    if len(unit.name) <= 11:
        return unit.name
    rest = [w for w in words[1:] if w.casefold() not in NAME_FILLERS] or words[1:]
    return f"{words[0]} {rest[0][:5]}." if rest else unit.name[:11]


PREVIEW_TARGETS = 4  # lines drawn from a previewed unit: the nearest enemies near its reach


def preview_overlays(state: State, seat: str, moved: frozenset[str]) -> list[Overlay]:
    """Aiming aids for a previewed order: from each moved unit as it would stand, its 45-degree
    firing arcs from the front corners (17.3) out to its chart's longest range, and a line with
    the measured distance to each of the nearest enemies it can see within half as far again
    ("can fire" when it could fire at it now). Only units standing on the table: a hidden enemy
    is never drawn."""
    out: list[Overlay] = []
    for u in state.units:
        if u.id not in moved or not formations_12.on_table(u):
            continue
        reach = shooting_17_3.reach(u)
        out.append(Overlay("arc", formations_12.firing_arc(u, reach), u.side, f"{u.name} arcs {reach:g}\""))
        can = {t.id for t in shooting_17_3.eligible(state, u)} if u.type in shooting_17_3.SHOOTERS else set()
        near = sorted((shooting_17_3.gap(u, e), e.id, e) for e in movement_17_4.visible_enemies(state, u.side))
        for gap, _, enemy in [n for n in near if n[0] <= reach * 1.5][:PREVIEW_TARGETS]:
            note = ", can fire" if enemy.id in can else ""
            out.append(Overlay("fire", (formations_12.front_centre(u), formations_12.base(enemy).centre), u.side,
                               f"{enemy.name} {movement_17_4.fmt(gap)}\"{note}"))
    return out


def _phase_line(state: State) -> str:
    if state.phase == SETUP:
        waiting = ", ".join(s.name for s in state.sides if not s.ready)
        return f"Set-up: waiting for {waiting} (`staff`, then `ready`)."
    if state.phase == INITIATIVE:
        return f"Turn {state.turn + 1}: Initiative phase - roll `initiative`" + (" (or `end`)." if state.turn else ".")
    if state.phase == TURN:
        return (f"Turn {state.turn}, {STEPS[state.step]} phase: the {state.side_name(state.acting_side())} act. "
                f"Initiative: {state.side_name(state.initiative)}.")
    return f"Game over after turn {state.turn}. {state.end_reason}"


def status(state: State) -> list[str]:
    """The status lines: phase, each side's points, losses and staff, the margin so far,
    objectives, and the numbers (only) of records still sealed."""
    lines = [_phase_line(state)]
    for s in state.sides:
        lost = side_lost_halves(state, s.id)
        gone = [u.name for u in state.units if u.side == s.id and u.status in GONE]
        lines.append(f"{s.name} ({s.force}): OOB {side_points(state, s.id)}/{state.points_limit} pts, "
                     f"lost {fmt_halves(lost)}" + (f"; out: {', '.join(gone)}" if gone else ""))
        staff = [f"{u.name} {u.quality or '?'}" for u in state.units
                 if u.side == s.id and u.type == "general" and u.status not in GONE]
        lines.append(f"{s.name} staff: " + ", ".join(staff))
    m = margin(state, rules(), state.options.get("margin") == "scaled")
    lead = f"{state.side_name(m.leader)} ahead by {fmt_halves(m.difference_halves)}" if m.leader else "level"
    lines.append(f"Victory margin so far: {lead} ({m.result}).")
    troubled = [f"{u.name} {', '.join(morale_17_2.status_words(u))}" for u in state.units
                if formations_12.on_table(u) and morale_17_2.status_words(u)]
    if troubled:  # 17.2.8: the markers everyone sees on the table (units on it only, never a hidden one)
        lines.append("Not in good order: " + "; ".join(troubled) + ".")
    if state.objectives:
        lines.append("Objectives: " + "; ".join(f"{o.name}{_where(state, o.name)} - {state.side_name(o.held_by)}"
                                                for o in state.objectives))
    sealed = [r for r in state.sealed if not r.cancelled and not r.revealed]
    if sealed:
        lines.append("Sealed records: " + ", ".join(f"#{r.number} {state.side_name(r.side)}" for r in sealed))
    if formations_12.measured(state):
        sources = sorted(set(house().sources.values()))
        lines.append(f"Measured table: reference sheets in use - {', '.join(sources)} values "
                     "(data/days_of_iron/reference/README.md).")
    elif reference().empty:
        lines.append("No reference tables loaded (shipped game).")
    return lines


def _where(state: State, objective: str) -> str:
    """Where an objective stands on the measured table (18.2; held by the units near it), if it has a point."""
    point = objective_point(state, objective) if formations_12.measured(state) else None
    return f" at ({point[0]:g}\", {point[1]:g}\")" if point is not None else ""


def private(state: State, seat: str | None) -> list[str]:
    """The sealed records this seat may read: its side's own, all for the umpire, none for others."""
    if seat is None:
        return []
    lines: list[str] = []
    for r in state.sealed:
        if (seat == UMPIRE or r.side == seat) and not r.cancelled:
            state_word = "revealed" if r.revealed else "sealed"
            lines.append(f"#{r.number} ({state.side_name(r.side)}, {state_word}): {r.text} - nonce {r.nonce}")
    return lines
