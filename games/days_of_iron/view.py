"""What a seat sees: the table (its size and the deployment zones of 16.2: the bot never knows
where the miniatures stand), the status lines, and the sealed records its side (or the umpire)
may read. A spectator's view never holds a sealed text."""

from __future__ import annotations

from games.core.ruleset import UMPIRE
from games.core.view import Board, SideInfo, Terrain, View, Zone
from games.days_of_iron.data import reference, rules
from games.days_of_iron.rules.points_5 import side_points
from games.days_of_iron.rules.victory_18 import fmt_halves, margin, side_lost_halves
from games.days_of_iron.state import GONE, INITIATIVE, SETUP, STEPS, TURN, State

SYSTEM_ID = "days-of-iron"


def view(state: State, seat: str | None) -> View:
    """The table for ``seat`` (None: a spectator)."""
    w, h = float(state.table_width), float(state.table_height)
    table = Terrain("land", points=((0.0, 0.0), (w, 0.0), (w, h), (0.0, h)),
                    label=f"{state.table_width}\" x {state.table_height}\" table: measure on your own")
    board = Board(kind="table", key=f"{SYSTEM_ID}:{state.table_width}x{state.table_height}",
                  name=state.scenario_name, width=w, height=h, table_terrain=(table,))
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
        status=tuple(status(state)),
        title=f"Days of Iron: {state.scenario_name}",
        private_text=tuple(private(state, seat)),
    )


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
    if state.objectives:
        lines.append("Objectives: " + "; ".join(f"{o.name} - {state.side_name(o.held_by)}" for o in state.objectives))
    sealed = [r for r in state.sealed if not r.cancelled and not r.revealed]
    if sealed:
        lines.append("Sealed records: " + ", ".join(f"#{r.number} {state.side_name(r.side)}" for r in sealed))
    if reference().empty:
        lines.append("No reference tables loaded (shipped game).")
    return lines


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
