"""What a seat sees: the table (its size and the deployment zones of 16.2: the bot never knows
where the miniatures stand), the status lines, and the sealed records its side (or the umpire)
may read. A spectator's view never holds a sealed text."""

from __future__ import annotations

from games.core.ruleset import UMPIRE
from games.core.view import Arrow, Board, Counter, Overlay, SideInfo, Terrain, View, Zone
from games.days_of_iron.data import house, reference, rules
from games.days_of_iron.rules import engineers_11, fires_15_9, formations_12, morale_17_2, movement_17_4, shooting_17_3
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
    flagged = {f.label.casefold() for f in objective_counters(state)} if measured else set()
    pieces = tuple(Terrain(t.type, tuple((p[0], p[1]) for p in t.points),
                           label=_kind_name(t.type) if t.name.casefold() in flagged else engineers_11.label(state, t))
                   for t in state.terrain)  # a piece named like an objective: the flag on it names it
    pieces += tuple(Terrain("fire", part, label=f"fire ({t.name})") for t, part in fires_15_9.fire_parts(state))
    board = Board(kind="table", key=f"{SYSTEM_ID}:{state.scenario}:{state.table_width}x{state.table_height}",
                  name=state.scenario_name, width=w, height=h, table_terrain=(table, *pieces))
    depth = float(min(rules().deployment.depth_inches, state.table_height // 2))
    zones = (  # 16.2: the first side's baseline is the bottom edge, the second's the top
        Zone(f"{state.sides[0].name} deployment", state.sides[0].id,
             polygon=((0.0, h - depth), (w, h - depth), (w, h), (0.0, h))),
        Zone(f"{state.sides[1].name} deployment", state.sides[1].id,
             polygon=((0.0, 0.0), (w, 0.0), (w, depth), (0.0, depth))),
    ) if state.phase == SETUP or not measured else ()  # on the measured table they only clutter the battle
    return View(
        board=board,
        viewer=seat,
        sides=tuple(SideInfo(s.id, s.name, s.colour) for s in state.sides),
        zones=zones,
        counters=tuple(counters(state, seat)) if measured else (),
        status=tuple(status(state)),
        title=f"Days of Iron: {state.scenario_name}",
        private_text=tuple(private(state, seat)),
        arrows=(Arrow("wind", fires_15_9.blows_towards(state.wind), label=f"Wind {state.wind}"),) if state.wind else (),
    )


def _kind_name(terrain_type: str) -> str:
    """A terrain type as the sheet names it, without its section ("High hill (15.1, 17.3.3)" -> "High hill")."""
    kind = house().terrain.get(terrain_type)
    return kind.name.split(" (")[0] if kind is not None else terrain_type.replace("-", " ")


def seen_by(unit: Unit, seat: str | None) -> bool:
    """Units standing on the table are seen by all; a hidden one (16.4) only by its side and the
    umpire, until revealed; off-board and gone units by nobody."""
    if formations_12.on_table(unit):
        return True
    return unit.status == HIDDEN and bool(unit.formation) and seat in (UMPIRE, unit.side)


def counters(state: State, seat: str | None) -> list[Counter]:
    """Each unit this seat may see, drawn to scale as its block of stands (section 12; a General
    as a commander's disc), then the scenario's objective points as flags in the holder's colour."""
    seen = sorted((u for u in state.units if seen_by(u, seat)), key=lambda u: bool(u.shelter))  # inside a square: on top
    flags = objective_counters(state)
    names = board_labels(seen, {f.label for f in flags})
    out = []
    for u in seen:
        width, depth = formations_12.footprint(u)
        markers = tuple(m for m, on in (("hidden", u.status == HIDDEN), ("routing", u.status == ROUTING)) if on)
        words = morale_17_2.status_words(u) if u.status != HIDDEN else []  # 17.2.8: markers beside the unit
        label = names[u.id] + (f" ({', '.join(words)})" if words else "")
        out.append(Counter(id=u.id, label=label, side=u.side, pos=(round(u.x, 4), round(u.y, 4)),
                           facing=round(u.facing, 4), markers=markers, size=(depth, width),
                           kind="general" if u.type == "general" else "unit",
                           name=u.name if names[u.id] != u.name else ""))
    return out + flags


def objective_counters(state: State) -> list[Counter]:
    """The objectives with a point on the measured table (18.2), public to every seat: a flag named
    for the objective in the colour of the side holding it (no side's colour when nobody does)."""
    out = []
    for o in state.objectives:
        point = objective_point(state, o.name)
        if point is not None:
            out.append(Counter(id=f"objective:{o.name}", label=o.name, side=o.held_by,
                               pos=(float(point[0]), float(point[1])), kind="objective"))
    return out


NAME_FILLERS = ("de", "du", "des", "la", "le", "à", "a", "von", "der", "of", "the")
CUT = 5  # letters kept of a word cut short on a label ("Chasseurs" -> "Chass.")
VOWELS = "aeiouyàâäéèêëîïôöùûüAEIOUY"


def short_label(unit: Unit) -> str:
    """A name short enough to sit under a 4" column on the board: a General's surname, or the
    unit's number and the start of its arm ("10e Chasseurs à pied" -> "10e Chass."). The full
    stop marks a cut word only ("1st Heavy Battery" -> "1st Heavy")."""
    words = unit.name.split()
    if unit.type == "general":
        return words[-1]
    if len(unit.name) <= 11:
        return unit.name
    rest = [w for w in words[1:] if w.casefold() not in NAME_FILLERS] or words[1:]
    if not rest:
        return unit.name[:11]
    word = rest[0]
    if len(word) <= CUT or word[:CUT].endswith("."):
        return f"{words[0]} {word[:CUT]}"
    # a cut word ends on a consonant, the way abbreviations do ("Batterie" -> "Batt.", not "Batte.")
    stem = word[:CUT].rstrip(VOWELS) if len(word[:CUT].rstrip(VOWELS)) >= 3 else word[:CUT]
    return f"{words[0]} {stem}."


TITLES = {"general": "Gen.", "colonel": "Col.", "major": "Maj.", "captain": "Capt.", "marshal": "Marshal"}


def _longer_label(unit: Unit, level: int) -> str:
    """Longer forms of a unit's label, for names its short label shares on a board: a General's
    title and surname ("Col. Bothmer"), then the full name, then a General's full name with his
    rank of command, and last the full name with its id (unique by construction)."""
    words = unit.name.split()
    if level == 1:
        if unit.type == "general" and len(words) > 1:
            first = words[0]
            title = first if first.endswith(".") else TITLES.get(first.casefold(), first)
            return f"{title} {words[-1]}"
        return unit.name.split(" (")[0]
    if level == 2:
        return unit.name
    if level == 3:
        return f"{unit.name} ({unit.rank})" if unit.type == "general" and unit.rank else unit.name
    return f"{unit.name} [{unit.id}]"


LAST_LEVEL = 4


def board_labels(units: list[Unit], taken: set[str]) -> dict[str, str]:
    """A label for each unit unique on this board (among these units and the ``taken`` labels):
    the short label, lengthened only for the units whose label another counter shares. Only the
    units a seat sees count, so a hidden unit never renames one the other side sees."""
    level = {u.id: 0 for u in units}
    while True:
        labels = {u.id: short_label(u) if level[u.id] == 0 else _longer_label(u, level[u.id]) for u in units}
        count: dict[str, int] = {}
        for text in labels.values():
            count[text] = count.get(text, 0) + 1
        clash = [u for u in units if (count[labels[u.id]] > 1 or labels[u.id] in taken) and level[u.id] < LAST_LEVEL]
        if not clash:
            return labels
        for u in clash:
            level[u.id] += 1


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
    squares = [u.name + "".join(f" (sheltering {', '.join(g.name for g in inside)})"
                                for inside in [formations_12.guests(state, u)] if inside)
               for u in state.units if u.formation == formations_12.SQUARE and formations_12.on_table(u)]
    if squares:  # house (RULINGS.md, Squares 5): the formation everyone sees, and who shelters inside (17.4.16)
        lines.append("In square: " + "; ".join(squares) + ".")
    damaged = [f"{u.name} {', '.join(shooting_17_3.damage_words(u))}" for u in state.units
               if formations_12.on_table(u) and shooting_17_3.damage_words(u)]
    if damaged:  # the Damage to Artillery chart's lasting results (17.3.5, house)
        lines.append("Damaged batteries: " + "; ".join(damaged) + ".")
    lines += fires_15_9.status_lines(state)  # 15.9, 15.12
    lines += engineers_11.status(state)  # 11, 15.5: engineers' work and bridges tried
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
