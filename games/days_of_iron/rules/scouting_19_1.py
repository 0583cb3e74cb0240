"""Book section 19.1 (optional rule: scouting), with 19.2 (scouting points) and 19.3 (results):
light cavalry scouts before deployment; the side out-scouted deploys a brigade first."""

from __future__ import annotations

from games.core.errors import IllegalOrder
from games.days_of_iron.data import rules
from games.days_of_iron.state import State, Unit


def check_scouting_on(state: State) -> None:
    """Scouting is an optional rule (19): refused unless the game uses it."""
    if state.options.get("scouting") != "yes":
        raise IllegalOrder("this game does not use the scouting rules.", hint="Start the game with options:scouting=yes.")


def check_scout(state: State, unit: Unit) -> None:
    """Only light cavalry scouts (19.1), once."""
    if unit.type != "cavalry" or not unit.light:
        raise IllegalOrder(f"{unit.name} is not light cavalry; only light cavalry scouts (19.1).")
    if any(r.kind == "scout" and unit.id in r.units and not r.cancelled for r in state.sealed):
        raise IllegalOrder(f"{unit.name} is already scouting.")


def scout_points(unit: Unit) -> int:
    """A scouting unit's points (19.2): its figures (4.1: per stand) at the value of its class."""
    book = rules()
    return unit.stands * book.scouting.figures_per_stand * book.scouting.figure_points[max(unit.cls, 1) - 1]


def score_scouting(state: State) -> tuple[list[str], str]:
    """Open the scouting records and compare the points (19.2); a side out-scouted by the book's
    margin deploys first (19.3). Returns the log lines and that side ("" for none)."""
    book = rules()
    a, b = state.sides[0], state.sides[1]
    lines: list[str] = []
    points = {a.id: 0, b.id: 0}
    first = ""
    for r in state.sealed:
        if r.kind == "scout" and not r.cancelled:
            r.revealed = True
            points[r.side] += sum(scout_points(state.unit(u)) for u in r.units)
            lines.append(f"Record #{r.number} opened: {r.text} (nonce `{r.nonce}`).")
    lines.append(f"Scouting points (19.2): {a.name} {points[a.id]}, {b.name} {points[b.id]}.")
    for x, y in ((a, b), (b, a)):
        if points[y.id] - points[x.id] >= book.scouting.outscout_margin:
            first = x.id
            lines.append(
                f"The {x.name} are out-scouted (19.3): they deploy one brigade {book.scouting.rear_edge_inches}\" "
                f"from their rear edge first, then the players alternate brigade by brigade.")
    if not first:
        lines.append("Nobody is out-scouted: roll to see who places a brigade first.")
    return lines, first
