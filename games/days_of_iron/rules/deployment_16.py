"""Book section 16 (deployment): who deploys first (16.1), hidden units recorded on a map (16.4) and
units held off the table (16.5), here as sealed records: only their side and the umpire read them;
the channel sees a number and a SHA-256 commitment, checked when the record is opened."""

from __future__ import annotations

import math
from typing import NamedTuple

from games.core.errors import IllegalOrder, InvalidSyntax, NotYourTurn, UnknownName, WrongPhase, resolve_name
from games.core.geometry import Base, Point, add, bearing_vector, overlaps, polygon_distance, scale
from games.core.rng import Rng, check_seal, seal
from games.core.ruleset import UMPIRE, Event, private, public
from games.days_of_iron import data
from games.days_of_iron.data import EntrySpec, rules, victory_sheet
from games.days_of_iron.orders import Cancel, Dust, Hide, Offboard, Ready, Staff, free_text, own_unit
from games.days_of_iron.rules import fires_15_9, formations_12, initiative_17_1, scouting_19_1, shooting_17_3
from games.days_of_iron.rules.points_5 import side_points
from games.days_of_iron.state import HIDDEN, INITIATIVE, OFF_BOARD, ON_TABLE, ROUTING, STEPS, TURN, Sealed, State, Unit


def check_side_order(state: State, seat: str, order: Staff | Ready) -> Staff | Ready:
    """``staff``/``ready`` are for the seat's own side; the umpire names the side first. Staff
    quality is rolled once, before the side is ready (16)."""
    verb = order.text.split()[0]
    words = order.side.split() if order.side else []
    side = seat
    if seat == UMPIRE:
        side = _named_side(state, words, verb)
        words = words[1:]
    if words:
        raise InvalidSyntax(f"`{verb}` takes nothing more.")
    ss = state.side(side)
    if ss.ready:
        raise IllegalOrder(f"the {ss.name} are already ready.")
    if isinstance(order, Staff) and ss.staff_rolled:
        raise IllegalOrder(f"the {ss.name} have already rolled staff quality.")
    if isinstance(order, Ready) and not ss.staff_rolled:
        raise IllegalOrder(f"the {ss.name} must roll staff quality first.", hint="Order `staff`.")
    named = side if seat == UMPIRE else None
    return Staff(named) if isinstance(order, Staff) else Ready(named)


def _named_side(state: State, words: list[str], verb: str) -> str:
    """The side the umpire names first (only its first word is read)."""
    if words:
        try:
            return resolve_name(words[0], {s.id: s.name for s in state.sides}, "side")
        except UnknownName:
            pass
    raise InvalidSyntax("the umpire must name the side first.", hint=f"e.g. `{verb} {state.sides[0].id}`.")


def check_hide(state: State, seat: str, order: Hide) -> Hide:
    """A unit not already sealed may be hidden, where it stands written down (16.4): on the
    measured table a place in its side's deployment zone (``hidden_place``), else free text."""
    unit = own_unit(state, seat, order.unit)
    if unit.status != ON_TABLE:
        raise IllegalOrder(f"{unit.name} already has a sealed record.", hint="`cancel N` it first.")
    where = free_text(order.where, "where")
    if formations_12.measured(state):
        where = hidden_place(state, unit, where).text
    return Hide(unit.id, where)


class Place(NamedTuple):
    """Where a hidden unit stands on the measured table (16.4: location, formation and facing)."""

    x: float
    y: float
    facing: float
    formation: str

    @property
    def text(self) -> str:
        return f"{self.x:g} {self.y:g} facing {self.facing:g} in {self.formation}"


PLACE_USAGE = ("write `hide UNIT at X Y [facing DEGREES] [line|column|skirmish]`: X and Y in inches from the "
               "table's top-left corner, as the board's rulers read")


def read_place(text: str) -> tuple[float, float, float | None, str] | None:
    """``X Y [facing F] [in] [FORMATION]`` (inch marks and commas allowed), or None if not that shape."""
    words = text.replace(",", " ").replace('"', " ").casefold().split()
    try:
        x, y = float(words[0]), float(words[1])
    except (IndexError, ValueError):
        return None
    rest = words[2:]
    facing: float | None = None
    if rest[:1] == ["facing"]:
        try:
            facing = float(rest[1])
        except (IndexError, ValueError):
            return None
        rest = rest[2:]
    if rest[:1] == ["in"]:
        rest = rest[1:]
    formation = rest[0] if len(rest) == 1 else formations_12.COLUMN if not rest else ""
    if formation not in formations_12.FORMATIONS or not all(map(math.isfinite, (x, y, facing or 0.0))):
        return None
    return x, y, facing, formation


def zone(state: State, side: str) -> tuple[float, float, float, float]:
    """A side's deployment zone (16.2): the table's width and ``deployment_depth`` inches deep from
    its own edge (the first side's is the bottom), as ``formations_12.deploy`` sets it out: x0, y0, x1, y1."""
    depth = float(min(rules().deployment.depth_inches, state.table_height // 2))
    if side == state.sides[0].id:
        return 0.0, state.table_height - depth, float(state.table_width), float(state.table_height)
    return 0.0, 0.0, float(state.table_width), depth


def zone_text(state: State, side: str) -> str:
    """The zone as a refusal names it, in the board's inches (its rulers read from the top left)."""
    x0, y0, x1, y1 = zone(state, side)
    edge = "bottom" if side == state.sides[0].id else "top"
    return (f"the deployment zone of the {state.side_name(side)}, the {edge} {y1 - y0:g}\" of the table "
            f"(x {x0:g} to {x1:g}, y {y0:g} to {y1:g})")


def hidden_place(state: State, unit: Unit, where: str) -> Place:
    """Where a hidden unit is recorded on the measured table (16.4): a place whose footprint lies in
    its side's deployment zone (16.2), facing the enemy unless the record says otherwise."""
    read = read_place(where)
    if read is None:
        raise InvalidSyntax(f"where is it hidden? On the measured table {PLACE_USAGE}, inside "
                            f"{zone_text(state, unit.side)}.")
    x, y, facing, formation = read
    bar = formations_12.formation_bar(unit, formation) if unit.type == "infantry" else ""  # 8.1
    if bar:
        raise IllegalOrder(bar)
    toward = 0.0 if unit.side == state.sides[0].id else 180.0
    place = Place(x, y, (toward if facing is None else facing) % 360, formation)
    x0, y0, x1, y1 = zone(state, unit.side)
    # the base of the unit set there (``formations_12.base`` of it moved and formed so, built directly:
    # this runs for every unit's `hide` the set-up's autocomplete offers)
    width, depth = formations_12.footprint(unit, formations_12.shape_in(unit, place.formation))
    if not all(x0 - 1e-6 <= px <= x1 + 1e-6 and y0 - 1e-6 <= py <= y1 + 1e-6
               for px, py in Base((place.x, place.y), place.facing, depth, width).polygon()):
        raise IllegalOrder(f"{unit.name} at ({x:g}\", {y:g}\") in {formation} would stand outside "
                           f"{zone_text(state, unit.side)} (16.2, 16.4).", hint=f"Hidden units are recorded "
                           f"where they deploy: {PLACE_USAGE}.")
    return place


def hide_candidate(state: State, unit: Unit, default: str) -> Hide:
    """The `hide` to offer (16.4): on the measured table the middle of the side's zone, else ``default``."""
    if not formations_12.measured(state):
        return Hide(unit.id, default)
    x0, y0, x1, y1 = zone(state, unit.side)
    toward = 0.0 if unit.side == state.sides[0].id else 180.0
    return Hide(unit.id, Place((x0 + x1) / 2, (y0 + y1) / 2, toward, formations_12.COLUMN).text)


def place_hidden(state: State) -> None:
    """Hidden units stand where their records put them (16.4), not in the slots ``deploy`` gave
    them; records from before places were read keep those slots."""
    for record in state.sealed:
        if record.kind != "hidden" or record.revealed or record.cancelled:
            continue
        unit = state.unit(record.units[0])
        prefix = f"Hidden: {unit.name} at "
        read = read_place(record.text[len(prefix):]) if record.text.startswith(prefix) else None
        if read is not None and read[2] is not None:
            unit.x, unit.y, unit.facing, unit.formation = read[0], read[1], read[2], read[3]


def check_offboard(state: State, order: Offboard) -> Offboard:
    """A whole brigade goes off the table; at most the book's fraction of a side's points (16.5)."""
    brigade = state.brigade(order.brigade)
    members = [u for u in state.units if u.brigade == brigade.id]
    if any(u.status != ON_TABLE for u in members):
        raise IllegalOrder(f"{brigade.name} already has a sealed record.", hint="`cancel N` it first.")
    already = sum(u.points for u in state.units if u.side == brigade.side and u.status == OFF_BOARD)
    total = side_points(state, brigade.side)
    offboard = rules().offboard
    num, den = offboard.numerator, offboard.denominator
    cost = sum(u.points for u in members)
    if (already + cost) * den > total * num:
        raise IllegalOrder(f"{brigade.name} ({cost} pts) would put {already + cost} of "
                           f"{total} points off the table; at most {num}/{den} may be (16.5).")
    return Offboard(brigade.id, free_text(order.where, "where") if order.where else None)


def check_cancel(state: State, seat: str, order: Cancel) -> Cancel:
    """A side cancels only its own live records of 16.4/16.5/19.1 (the umpire any), before the battle."""
    record = next((r for r in state.sealed if r.number == order.number), None)
    if record is None or record.cancelled or seat not in (UMPIRE, record.side):
        mine = [str(r.number) for r in state.sealed if seat in (UMPIRE, r.side) and not r.cancelled]
        raise UnknownName(f"you have no record #{order.number}.", hint=f"Your records: {', '.join(mine) or 'none'}.")
    return order


def check_reveal(unit: Unit) -> None:
    """Only a hidden unit is revealed (16.4)."""
    if unit.status != HIDDEN:
        raise IllegalOrder(f"{unit.name} is not hidden.")


def check_dust(state: State, seat: str, order: Dust) -> Dust:
    """Off-board troops are announced in the Morale phase (16.5); on the measured table in the
    side's own part of it (17.2: "The initiative player goes first, followed by the non-initiative
    player") and at one of the side's entry points (17.2.1), named in the canonical order."""
    brigade = state.brigade(order.brigade)
    if state.phase != TURN or STEPS[state.step] != "Morale":
        raise WrongPhase("off-board troops are announced in the Morale phase (16.5).")
    if formations_12.measured(state) and seat not in (UMPIRE, state.acting_side()):
        raise NotYourTurn(f"the {state.side_name(state.acting_side())} act first in the Morale phase (17.2): "
                          "announce arrivals in your own part of it.", hint="Wait for their `next`.")
    if not any(u.brigade == brigade.id and u.status == OFF_BOARD for u in state.units):
        raise IllegalOrder(f"{brigade.name} is not off the table.")
    if formations_12.measured(state):
        if any(u.brigade == brigade.id and u.entry for u in state.units):
            raise IllegalOrder(f"{brigade.name} is already on its way: it comes on in this turn's Movement phase.")
        points = entries(state, brigade.side)
        named = {e.name: e.name for e in points}
        where = resolve_name(order.where, named, "entry point") if order.where else points[0].name
        return Dust(brigade.id, where)
    return Dust(brigade.id, free_text(order.where, "where") if order.where else None)


def dust_candidates(state: State, brigade_id: str) -> list[Dust]:
    """The arrival orders to offer for an off-board brigade (16.5): on the measured table one per entry point."""
    out = [Dust(brigade_id)]
    if formations_12.measured(state):
        out += [Dust(brigade_id, e.name) for e in entries(state, state.brigade(brigade_id).side)]
    return out


BASELINE = "baseline"  # house: the entry on a side's own table edge where a scenario gives it none (16.5)


def baseline(state: State, side: str) -> EntrySpec:
    """The middle of a side's own table edge (16.2: the first side's is the bottom edge)."""
    y = float(state.table_height) if side == state.sides[0].id else 0.0
    return EntrySpec(side, BASELINE, (state.table_width / 2, y), "house")


def entries(state: State, side: str) -> list[EntrySpec]:
    """The side's entry points (16.5, 17.2.1): the scenario's (each tagged with its source), then
    the house baseline, which is also where troops come on when the enemy blocks the others."""
    given = [e for e in data.scenario(state.scenario).entries if e.side == side]
    return [*given, baseline(state, side)] if all(e.name != BASELINE for e in given) else given


def inward(state: State, point: Point) -> float:
    """The bearing into the table from an edge point: units come on facing it."""
    x, y = point
    if x <= 0:
        return 90.0
    if x >= state.table_width:
        return 270.0
    return 180.0 if y <= 0 else 0.0


def _lay_out(state: State, column: list[Unit], entry: EntrySpec) -> None:
    """The brigade in column of route from the entry point into the table: the lead unit deepest,
    the last one's rear on the edge, ``arrival_gap`` inches between them (house)."""
    facing = inward(state, entry.at)
    ahead = bearing_vector(facing)
    gap = victory_sheet().arrival_gap
    offset = 0.0
    for unit in reversed(column):
        unit.formation = formations_12.COLUMN
        unit.facing = facing
        depth = formations_12.footprint(unit)[1]
        unit.x, unit.y = add(entry.at, scale(ahead, offset + depth / 2))
        offset += depth + gap


def _too_close(state: State, column: list[Unit]) -> bool:
    """16.5: arriving units are placed outside 25" of visible enemy units that are not routing."""
    clearance = victory_sheet().arrival_clearance
    enemies = [e for e in state.units if e.side != column[0].side and formations_12.on_table(e) and e.status != ROUTING]
    return any(polygon_distance(formations_12.base(u).polygon(), formations_12.base(e).polygon()) < clearance
               for u in column for e in enemies)




def _blocker(state: State, column: list[Unit], entry: EntrySpec) -> str:
    """The name of the first unit on the table an arriving column laid out at ``entry`` would stand on."""
    _lay_out(state, column, entry)
    return next((o.name for o in _others(state, column) for u in column
                 if overlaps(formations_12.base(u).polygon(), formations_12.base(o).polygon())), "a unit")


def _others(state: State, column: list[Unit]) -> list[Unit]:
    """The units on the table (and seen) an arriving column must not end on (17.4.8)."""
    ids = {u.id for u in column}
    return [o for o in state.units if o.id not in ids and formations_12.on_table(o)]


def _fits(state: State, column: list[Unit]) -> bool:
    """The laid-out column stands wholly on the table and on no other unit's base."""
    others = [formations_12.base(o).polygon() for o in _others(state, column)]
    for u in column:
        outline = formations_12.base(u).polygon()
        if not all(-1e-6 <= x <= state.table_width + 1e-6 and -1e-6 <= y <= state.table_height + 1e-6
                   for x, y in outline) or any(overlaps(outline, o) for o in others):
            return False
    return True


def clear_spot(state: State, column: list[Unit], entry: EntrySpec) -> EntrySpec | None:
    """Where on the edge the column comes on (17.2.1 with 17.4.8): the entry point if it lands
    clear, else the nearest point along the same edge where it does, else None (held off the table)."""
    along = bearing_vector(inward(state, entry.at) + 90.0)
    step_size = victory_sheet().arrival_step
    reach = int(max(state.table_width, state.table_height) / step_size)
    for step in range(reach + 1):
        for sign in ((1,) if step == 0 else (1, -1)):
            at = add(entry.at, scale(along, sign * step * step_size))
            if not (0 <= at[0] <= state.table_width and 0 <= at[1] <= state.table_height):
                continue
            spot = EntrySpec(entry.side, entry.name, (round(at[0], 6), round(at[1], 6)), entry.source)
            _lay_out(state, column, spot)
            if _fits(state, column):
                return spot
    return None


def arrive(state: State) -> list[Event]:
    """The acting side's declared off-board units come on as its part of the Movement phase begins
    (17.2.1): at their entry point in column facing into the table, or at its own baseline if the
    enemy stands within 25" of the entry (16.5); where a unit stands there, at the nearest clear place
    along the edge, and if there is none they wait off the table for the next turn. They may then move."""
    side = state.acting_side()
    coming = [u for u in state.units if u.side == side and u.status == OFF_BOARD and u.entry]
    events: list[Event] = []
    for name in dict.fromkeys(u.entry for u in coming):
        column = sorted((u for u in coming if u.entry == name), key=lambda u: u.type == "general")  # troops lead
        points = {e.name: e for e in entries(state, side)}
        entry = points.get(name, baseline(state, side))
        _lay_out(state, column, entry)
        note = ""
        if _too_close(state, column) and entry.name != BASELINE:
            _lay_out(state, column, baseline(state, side))
            note = (f" Enemy troops stand within {victory_sheet().arrival_clearance:g}\" of {entry.name}, so they come "
                    f"on at their own table edge instead (16.5).")
            entry = baseline(state, side)
        spot = clear_spot(state, column, entry)
        if spot is None:  # still declared (their entry kept): they try again as the next Movement phase begins
            events.append(public(f"**Arrival held** (17.2.1, 17.4.8): {', '.join(u.name for u in column)} find no "
                                 f"clear room on the table edge near {entry.name}; they stay off the table and come "
                                 "on as your next Movement phase begins."))
            continue
        if spot.at != entry.at:
            blocker = _blocker(state, column, entry)
            note += (f" {blocker} stands at {entry.name}, so they come on at the nearest clear place along the "
                     "table edge (17.4.8: no unit ends on another's base).")
        entry = EntrySpec(entry.side, entry.name, spot.at, entry.source)
        _lay_out(state, column, entry)
        for u in column:
            u.status = ON_TABLE
            u.entry = ""
            u.moved = 0.0
        names = ", ".join(u.name for u in column)
        events.append(public(f"**Arrival** (17.2.1): {names} come on at {entry.name} "
                             f"({entry.at[0]:g}\", {entry.at[1]:g}\") in column, facing into the table, "
                             f"and may move this phase.{note}"))
    return events


def records_made(state: State) -> int:
    """Records sealed so far (snapshots from before issue 11 kept every record, cancelled too,
    and no count: there it is the list's length)."""
    return max(state.records_made, len(state.sealed))


def seal_record(state: State, side: str, kind: str, units: list[str], text: str, rng: Rng) -> list[Event]:
    """Seal a secret record (16.4, 16.5, 19.1): the text to its side, the commitment to all."""
    nonce = rng.nonce(text)
    digest = seal(text, nonce)
    number = records_made(state) + 1
    state.records_made = number
    state.sealed.append(Sealed(number, side, kind, units, text, nonce, digest))
    name = state.side_name(side)
    return [
        public(f"The {name} seal record #{number} ({'scouting' if kind == 'scout' else 'a secret deployment'}); "
               f"commitment `{digest}`."),
        private(f"Sealed record #{number} for the {name}: {text}\nNonce `{nonce}` (published when revealed; "
                f"check: SHA-256 of `nonce:text` equals the commitment).", side),
    ]


def hide(state: State, order: Hide, rng: Rng) -> list[Event]:
    """Record a hidden unit (16.4), sealed."""
    unit = state.unit(order.unit)
    unit.status = HIDDEN
    return seal_record(state, unit.side, "hidden", [unit.id], f"Hidden: {unit.name} at {order.where}", rng)


def offboard(state: State, order: Offboard, rng: Rng) -> list[Event]:
    """Hold a brigade off the table (16.5), sealed."""
    brigade = state.brigade(order.brigade)
    members = [u for u in state.units if u.brigade == brigade.id]
    for u in members:
        u.status = OFF_BOARD
    where = f" ({order.where})" if order.where else ""
    text = f"Off-board: {brigade.name}{where}: " + ", ".join(u.name for u in members)
    return seal_record(state, brigade.side, "off-board", [u.id for u in members], text, rng)


def cancel(state: State, order: Cancel) -> list[Event]:
    """Drop a record (16.4, 16.5, 19.1): the state keeps live records only; the log keeps this one."""
    record = next(r for r in state.sealed if r.number == order.number)
    state.records_made = records_made(state)
    state.sealed.remove(record)
    if record.kind != "scout":
        for uid in record.units:
            state.unit(uid).status = ON_TABLE
    return [public(f"The {state.side_name(record.side)} cancel sealed record #{record.number}.")]


def scout(state: State, unit: Unit, rng: Rng) -> list[Event]:
    """Send light cavalry scouting (19.1), sealed until both sides are ready."""
    pts = scouting_19_1.scout_points(unit)
    return seal_record(state, unit.side, "scout", [unit.id], f"Scouting: {unit.name} ({pts} scouting points)", rng)


def ready(state: State, side: str, rng: Rng) -> list[Event]:
    """A side is ready (16); when both are, scouting is scored (19.2) and the deployment order rolled (16.1)."""
    ss = state.side(side)
    ss.ready = True
    lines = [f"The {ss.name} are ready."]
    if all(s.ready for s in state.sides):
        lines += start_battle(state, rng)
        return [public("\n".join(lines), reveals=True)]
    return [public("\n".join(lines))]


def start_battle(state: State, rng: Rng) -> list[str]:
    """Who deploys first: the side out-scouted (19.3), else the lower of a roll-off (16.1)."""
    lines: list[str] = []
    first = ""
    if state.options.get("scouting") == "yes":
        lines, first = scouting_19_1.score_scouting(state)
    if not first:
        rolls = initiative_17_1.roll_off(state, rng)
        first = min(rolls[-1], key=lambda side: rolls[-1][side])
        lines.append("Deployment roll (16.1): " + initiative_17_1.describe_rolls(state, rolls)
                     + f"; the {state.side_name(first)} (lowest) place a brigade first, then alternate"
                     " (cavalry, artillery, then infantry).")
    state.deploys_first = first
    state.phase = INITIATIVE
    lines += fires_15_9.set_wind(state, rng)  # 15.12: before play (no roll unless option wind=roll)
    if formations_12.measured(state):
        lines += formations_12.deploy(state)
        place_hidden(state)
        lines.append("Roll `initiative` for turn 1.")
        return lines
    lines.append("Deploy on the table, then roll `initiative` for turn 1.")
    return lines


def reveal(state: State, unit: Unit) -> list[Event]:
    """Place a hidden unit (16.4): its record and nonce are published and checked."""
    unit.status = ON_TABLE
    record = next(r for r in state.sealed if unit.id in r.units and r.kind == "hidden" and not r.cancelled
                  and not r.revealed)
    record.revealed = True
    check = "matches" if check_seal(record.text, record.nonce, record.digest) else "DOES NOT match"
    placed = "Place it on the table."
    if formations_12.measured(state):
        placed = (f"It stands at ({unit.x:g}\", {unit.y:g}\") facing {unit.facing:g} in {unit.formation} "
                  "(16.4).")
    return [public(f"The {state.side_name(unit.side)} reveal {unit.name}: record #{record.number} "
                   f"read \"{record.text}\" (nonce `{record.nonce}`; it {check} commitment "
                   f"`{record.digest[:16]}…`). {placed}", reveals=True)]


MAX_SIGHT = 72.0  # book 16.3: "Maximum visibility is 6'"
FIELD_OF_VISION = 90.0  # book 16.3: "Units have a 180° field of vision" (90 degrees either side of the facing)


def sees(state: State, viewer: Unit, target: Unit) -> bool:
    """16.3: a unit sees another within 6', inside its 180-degree field of vision, on a line of sight
    the ground does not block (woods and towns hide a unit beyond 4" or 6", skirmishers beyond 2")."""
    if viewer.type == "general" and viewer.attached:
        return False
    off = abs((math.degrees(math.atan2(target.x - viewer.x, viewer.y - target.y)) - viewer.facing + 180) % 360 - 180)
    return (off <= FIELD_OF_VISION and shooting_17_3.gap(viewer, target) <= MAX_SIGHT
            and shooting_17_3.in_sight(state, viewer, target))


def spotted(state: State) -> list[Event]:
    """16.4: "troops are placed on the table when they shoot or become visible to enemy units": after
    every order of the battle, each hidden unit an enemy on the table sees is placed (revealed)."""
    if state.phase != TURN:
        return []
    events: list[Event] = []
    for unit in [u for u in state.units if u.status == HIDDEN]:
        viewer = next((e for e in state.units if e.side != unit.side and formations_12.on_table(e)
                       and e.status == ON_TABLE and sees(state, e, unit)), None)
        if viewer is not None:
            events.append(public(f"{unit.name} is seen by {viewer.name} (16.3, 16.4)."))
            events += reveal(state, unit)
    return events


def dust(state: State, order: Dust) -> list[Event]:
    """An off-board brigade arrives (16.5): its record is published. On the measured table it is
    declared now (Morale phase) and comes on at the named entry point when its side's part of the
    Movement phase begins (17.2.1, ``arrive``)."""
    brigade = state.brigade(order.brigade)
    measured = formations_12.measured(state)
    for u in state.units:
        if u.brigade == brigade.id and u.status == OFF_BOARD:
            if measured:
                u.entry = order.where or entries(state, brigade.side)[0].name
            else:
                u.status = ON_TABLE
    record = next(r for r in state.sealed if r.kind == "off-board" and not r.cancelled and not r.revealed
                  and any(state.unit(u).brigade == brigade.id for u in r.units))
    record.revealed = True
    edge = f" at {order.where}" if order.where else ""
    return [public(f"**Dust on the horizon{edge}!** The {state.side_name(brigade.side)} bring "
                   f"{brigade.name} on in this turn's Movement phase (16.5): record #{record.number} read "
                   f"\"{record.text}\" (nonce `{record.nonce}`). It must arrive outside 25\" of visible "
                   "enemy units that are not routing.", reveals=True)]
