"""Book section 17.5, Close Assault, on the measured table (option board=measured): units in
base-to-base contact with an enemy fight when the Close Assault Phase begins (17.5: all stands
of a unit are involved). The book's close assault table is on the missing sheets, so the house
chart decides (``data/days_of_iron/reference/sheets/close-assault-chart.toml``): each side rolls
1d6 and adds its Class, a unit that charged this turn and went home +1 (house), and so does a
unit making a Break-Through Attack (17.5.4); the higher total wins; the loser loses the stands
the chart gives for the winner's numbers (outnumbered, even, outnumbering) through the losses of
17.5 (shattered units, 17.5.8); a tie costs each one stand and the melee goes on next turn. Dice
come from the game's stream, the initiative side's pairs first.

Compulsory movement (17.5.1, 17.5.4) follows the house close assault results sheet
(``close-assault-results.toml``), read by the winner's margin: the loser routs (the initial rout
of ``rules/routing_17_4_14.py``) or falls back; the winner holds, advances in the direction of its
charge or pursues the beaten enemy. These moves pay no terrain penalties (17.5.4). A router taken
into a river away from a ford or bridge drowns, surrenders or disperses and is removed (15.3,
17.5.1). An advance stops at the first unit it meets; a new enemy met is a Break-Through Attack:
the two fight in the next turn's Close Assault with the victor counted as charging, and the new
enemy takes a Being Charged test in that turn's Morale Phase (``breakthrough_attacks``; the test
is rules/charges_17_2.py's). A winner still in contact with another enemy does not move (house).

17.5.7: before the fighting, each General attached to a unit in a melee rolls 1d6; on a 6 he rolls
on the Casualties to Staff chart (``morale_17_2.staff_risk``: lost, or wounded without command). An
unattached General contacted by an enemy unit (one that did not evade: "isolated") is automatically
a casualty: captured (14.5, the book's fate for unattached staff contacted) and counted a loss.

17.2.7: skirmishing infantry in the open in contact with (formed) cavalry suffer the same Automatic
Major Victory as their whole combat, and the cavalry makes the winner's compulsory move.

17.5.3: a routing unit in contact is beaten first, separately: it suffers an Automatic Major
Victory (the results sheet's last row; its losses from the close assault chart) and makes the
compulsory movement, while its victors stay where they are and fight their other melees as usual.

17.5.4: a victor whose beaten enemy was destroyed wheels up to 45 degrees towards the nearest enemy
within its compulsory move, paying the doubled arc, and advances the rest (``_wheel_to_confront``).

A Break-Through target that fails its Being Charged test and routs lets the victor advance the
balance of its compulsory move (17.5.4, ``advance_balance``).

Several units joined by contact, and the units reinforcing a line of them from behind, fight one
combat (17.5, 17.5.2: ``rules/melees_17_5_2.py`` groups them and shares the casualties): one score a
side with the average Class, the chart's column by all the stands, the losses shared.

NOT here: cavalry halting at the edge of difficult terrain (17.5.1). Defensive cover (17.5.6) is
built in rules/cover_17_5_6.py.

17.5.5: a Class 2+ unit (or one with a Capable or Exceptional General attached) beaten while
defending a wood, town or other cover does not fall back out of it (``_kept_in_cover``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.core.data import on_reload
from games.core.dice import roll
from games.core.errors import DataError
from games.core.geometry import (
    Base,
    Point,
    angle_diff,
    bearing_of,
    bearing_vector,
    dot,
    length,
    normalise,
    overlaps,
    point_in_polygon,
    polygon_distance,
    scale,
    slide_contact,
    sub,
)
from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.days_of_iron.data import ChartFile, house
from games.days_of_iron.rules import (
    formations_12,
    losses_17_5,
    melees_17_5_2,
    morale_17_2,
    routing_17_4_14,
    shooting_17_3,
)
from games.days_of_iron.rules.formations_12 import SKIRMISH, arm, base, in_contact, on_table
from games.days_of_iron.rules.movement_17_4 import fmt, in_the_way, visible_enemies, wheel_cost
from games.days_of_iron.state import CAPTURED, DISORDERED, GOOD, ON_TABLE, ROUTING, STAFF, State, Unit

FIGHTERS = ("infantry", "cavalry", "artillery", "engineer")
EPS = 1e-6
STEP_BACK = 0.25  # inches: an advance or fall-back that would end in a river is shortened by steps of this
WHEEL_TO_CONFRONT = 45.0  # book 17.5.4: a victor whose enemy was destroyed may wheel up to 45 degrees


@dataclass(frozen=True)
class Result:
    """One side's compulsory movement from the results sheet: what it does and how far."""

    action: str  # loser: rout, fall back; winner: hold, advance, pursue
    inches: float = 0.0
    disordered: bool = False

    def __str__(self) -> str:
        words = self.action + (f" {fmt(self.inches)}\"" if self.inches else "")
        return words + (" disordered" if self.disordered else "")


LOSER_ACTIONS = ("rout", "fall back")
WINNER_ACTIONS = ("hold", "advance", "pursue")


def parse_result(text: str, allowed: tuple[str, ...], where: str) -> Result:
    """``rout``, ``fall back 3 disordered``, ``advance 3``, ``pursue 6``, ``hold``: checked, so a
    mistyped owner's sheet is named with its file and entry."""
    words = text.lower().split()
    disordered = bool(words) and words[-1] == "disordered"
    words = words[:-1] if disordered else words
    inches = 0.0
    if words and words[-1].replace(".", "", 1).isdigit():
        inches = float(words.pop())
    action = " ".join(words)
    needs = action in ("fall back", "advance", "pursue")
    if action not in allowed or needs != (inches > 0):
        raise DataError(f"{where}: {text!r} is not a result; write one of "
                        + ", ".join(f"'{a} N'" if a in ("fall back", "advance", "pursue") else f"'{a}'" for a in allowed)
                        + " (optionally ending 'disordered')")
    return Result(action, inches, disordered)


@lru_cache(maxsize=1)
def results_sheet() -> tuple[ChartFile, tuple[tuple[Result, Result], ...]]:
    """The close assault results sheet and its rows read (loser, winner), checked when first used."""
    chart = house().charts.get("close-assault-results")
    if chart is None or chart.columns != ("loser", "winner"):
        raise DataError("days_of_iron/reference/sheets/close-assault-results.toml: a chart with columns loser, winner is needed")
    rows = tuple((parse_result(r.results[0], LOSER_ACTIONS, f"close-assault-results row {r.roll[0]}-{r.roll[1]} loser"),
                  parse_result(r.results[1], WINNER_ACTIONS, f"close-assault-results row {r.roll[0]}-{r.roll[1]} winner"))
                 for r in chart.rows)
    return chart, rows


on_reload(results_sheet.cache_clear)


def result_for(margin: int | None) -> tuple[Result, Result]:
    """The (loser, winner) result for a winning margin; None: the Automatic Major Victory (17.5.3)."""
    chart, rows = results_sheet()
    if margin is None:
        return rows[-1]
    index = next((i for i, r in enumerate(chart.rows) if r.roll[0] <= margin <= r.roll[1]),
                 0 if margin < chart.rows[0].roll[0] else len(rows) - 1)
    return rows[index]


def melees(state: State) -> list[tuple[Unit, Unit]]:
    """Pairs of enemy units in contact, the initiative side's unit first in each pair."""
    mine = [u for u in state.units if u.side == state.initiative and on_table(u) and u.type in FIGHTERS]
    theirs = [u for u in state.units if u.side != state.initiative and on_table(u) and u.type in FIGHTERS]
    return [(a, b) for a in mine for b in theirs if in_contact(a, b)]


def breakthrough_attacks(state: State) -> list[tuple[Unit, Unit]]:
    """(attacker, new enemy) of the Break-Through Attacks to be fought this turn (17.5.4): the new
    enemy takes a Being Charged test in this turn's Morale Phase (rules/charges_17_2.py)."""
    out = []
    for unit in state.units:
        if unit.breakthrough and unit.breakthrough_turn == state.turn and on_table(unit):
            enemy = state.unit(unit.breakthrough)
            if on_table(enemy):
                out.append((unit, enemy))
    return out


def _column(winner: Unit, loser: Unit) -> int:
    return _column_for(winner.stands, loser.stands)


def _column_for(winners: int, losers: int) -> int:
    """The chart's column for the winner's numbers (stands): outnumbered (under 2:3), even,
    outnumbering (over 3:2)."""
    if winners * 3 < losers * 2:
        return 0
    return 2 if winners * 2 > losers * 3 else 1


def _score(state: State, unit: Unit, enemy: Unit, rng: Rng) -> tuple[int, str]:
    chart = house().charts["close-assault"]
    die = roll(chart.dice, rng).total
    charged = unit.charge_turn == state.turn and bool(unit.charging)
    broke = unit.breakthrough == enemy.id and unit.breakthrough_turn == state.turn
    square = formations_12.square_against_cavalry(unit, enemy)
    bonus = (1 if charged or broke else 0) + square
    total = die + unit.cls + bonus
    said = ("+1 charging" if charged else "+1 break-through" if broke else "") + (
        f"{square:+d} square against cavalry (house)" if square else "")
    return total, f"{unit.name} {die}+{unit.cls}" + said + f" = {total}"


def resolve(state: State, rng: Rng) -> list[Event]:
    """Fight every melee on the table (17.5): first each routing unit in contact is beaten
    separately (17.5.3), then the rest, one combat for every group of units joined by contact
    (with the units reinforcing a line of it, 17.5, 17.5.2), in order; a unit already beaten this
    phase does not fight again."""
    events = isolated_staff(state)  # first: an isolated engineer taken does not fight a melee too
    pairs = melees(state)
    groups = melees_17_5_2.combats(state, [(a, b) for a, b in pairs if ROUTING not in (a.status, b.status)])
    backing = [u for g in groups for u in g.reinforcing]
    events += _staff_at_risk(state, [u for pair in pairs for u in pair] + backing, rng)
    beaten: set[str] = set()
    for a, b in pairs:
        router = a if a.status == ROUTING else b if b.status == ROUTING else None
        victor = b if router is a else a
        if router is None or victor.status == ROUTING or router.id in beaten or not in_contact(a, b):
            continue
        events += _routers_caught(state, victor, router, rng)
        beaten.add(router.id)
    for group in groups:
        combat = melees_17_5_2.still_fighting(state, group)
        if combat is None or any(u.id in beaten for u in combat.units):
            continue
        if combat.single:
            a, b = combat.mine[0], combat.theirs[0]
            ridden = _ridden_down(state, a, b)
            events += _ride_down(state, *ridden, rng) if ridden else _fight(state, a, b, rng)
        else:
            events += _fight_together(state, combat, rng)
        beaten |= {u.id for u in combat.units if u.status != ON_TABLE}
    return events


def isolated_staff(state: State) -> list[Event]:
    """17.5.7, 14.5: an unattached General or engineer in contact with an enemy unit (he did not
    evade) is automatically a casualty ("If the staff and engineers are contacted when isolated then
    they automatically become casualties"): captured, a loss (a General's command waits for a field
    promotion, 14.3)."""
    events: list[Event] = []
    for general in [g for g in state.units if g.type in STAFF and not g.attached and on_table(g)]:
        enemy = next((e for e in state.units if e.side != general.side and e.type in FIGHTERS and on_table(e)
                      and e.status == ON_TABLE and in_contact(general, e)), None)
        if enemy is not None:
            general.status, general.lost_turn = CAPTURED, state.turn
            events.append(public(f"{general.name}, isolated, is contacted by {enemy.name}: captured, a staff "
                                 "casualty counted as a loss (17.5.7, 14.5)."))
    return events


def _staff_at_risk(state: State, units: list[Unit], rng: Rng) -> list[Event]:
    """17.5.7: each General attached to a unit fighting a close assault this phase (in contact or
    reinforcing) rolls 1d6 once (6: a roll on the Casualties to Staff chart), in the order met."""
    events: list[Event] = []
    seen: list[str] = []
    for unit in units:
        if unit.id in seen:
            continue
        seen.append(unit.id)
        for general in routing_17_4_14.attached_staff(state, unit):
            events += morale_17_2.staff_risk(state, general, rng, "17.5.7")
    return events


def _routers_caught(state: State, victor: Unit, router: Unit, rng: Rng) -> list[Event]:
    """17.5.3: an Automatic Major Victory over a routing unit, fought before the other melees;
    the victor makes no compulsory move."""
    return _automatic_victory(state, victor, router, rng, f"(17.5.3): {router.name}, routing, suffer")


def _automatic_victory(state: State, victor: Unit, loser: Unit, rng: Rng, head: str) -> list[Event]:
    """The Automatic Major Victory (the results sheet's last row): the loser's losses from the close
    assault chart, then its compulsory movement."""
    chart = house().charts["close-assault"]
    die = roll(chart.dice, rng).total
    column = _column(victor, loser)
    lost = min(int(chart.lookup(die, column)), loser.stands)
    loser_result, _ = result_for(None)
    events = [public(f"**Close assault** {head} an Automatic Major Victory by {victor.name}; {chart.name} "
                     f"{chart.dice} = {die} ({chart.columns[column]}): {loser.name} lose {lost}.")]
    events += losses_17_5.loss(state, loser, lost)
    if on_table(loser):
        events += _loser_moves(state, loser, victor, loser_result)
    return events


def _ridden_down(state: State, a: Unit, b: Unit) -> tuple[Unit, Unit] | None:
    """17.2.7: "Skirmishing infantry contacted by cavalry in the open suffer an automatic major
    defeat as the combat result": (cavalry, skirmishers) when the pair is that, else None. In the
    open: not standing in a wood or town (the level pieces that hide troops, 16.3)."""
    for horse, foot in ((a, b), (b, a)):
        if (horse.type == "cavalry" and not horse.dismounted and horse.formation != SKIRMISH and arm(foot) == "infantry"
                and foot.formation == SKIRMISH and shooting_17_3.seen_within(state, foot) is None):
            return horse, foot
    return None


def _ride_down(state: State, horse: Unit, foot: Unit, rng: Rng) -> list[Event]:
    """17.2.7: the skirmishers' automatic major defeat; the cavalry makes the winner's compulsory
    move of the Automatic Major Victory."""
    start = base(foot).centre
    events = _automatic_victory(state, horse, foot, rng,
                                f"(17.2.7): {foot.name}, skirmishing infantry contacted by cavalry in the open, suffer")
    return events + _winner_moves(state, horse, foot, result_for(None)[1], start)


def _fight(state: State, a: Unit, b: Unit, rng: Rng) -> list[Event]:
    chart = house().charts["close-assault"]
    sa, ta = _score(state, a, b, rng)
    sb, tb = _score(state, b, a, rng)
    head = f"**Close assault** (17.5): {ta}; {tb}"
    if sa == sb:
        events = [public(f"{head}: a draw, each loses a stand and the melee goes on.")]
        for unit in (a, b):
            events += losses_17_5.loss(state, unit, 1)
        return events
    winner, loser = (a, b) if sa > sb else (b, a)
    margin = abs(sa - sb)
    die = roll(chart.dice, rng).total
    lost = min(int(chart.lookup(die, _column(winner, loser))), loser.stands)
    loser_result, winner_result = result_for(margin)
    events = [public(f"{head}: {winner.name} win by {margin}; {chart.name} {chart.dice} = {die} "
                     f"({chart.columns[_column(winner, loser)]}): {loser.name} lose {lost}. "
                     f"{results_sheet()[0].name}: {loser.name} {loser_result}, {winner.name} {winner_result} (17.5.1).")]
    events += losses_17_5.loss(state, loser, lost)
    start = base(loser).centre
    if on_table(loser):
        events += _loser_moves(state, loser, winner, loser_result)
    events += _winner_moves(state, winner, loser, winner_result, start)
    return events


def _side_score(state: State, side: list[Unit], enemies: list[Unit], rng: Rng) -> tuple[int, str]:
    """17.5 for several units: one die, the average Class (``melees_17_5_2.average_class``), and
    +1 when any of them charged this turn or makes a Break-Through Attack on one of ``enemies``."""
    chart = house().charts["close-assault"]
    die = roll(chart.dice, rng).total
    cls = melees_17_5_2.average_class(side)
    ids = {e.id for e in enemies}
    charged = any(u.charge_turn == state.turn and bool(u.charging) for u in side)
    broke = any(u.breakthrough in ids and u.breakthrough_turn == state.turn for u in side)
    square = max((formations_12.square_against_cavalry(u, e) for u in side for e in enemies), default=0)
    total = die + cls + (1 if charged or broke else 0) + square
    said = ("+1 charging" if charged else "+1 break-through" if broke else "") + (
        f"{square:+d} square against cavalry (house)" if square else "")
    average = " (average Class)" if len(side) > 1 else ""
    return total, f"{_names(side)} {die}+{cls}{average}{said} = {total}"


def _names(units: list[Unit]) -> str:
    return ", ".join(u.name for u in units[:-1]) + (" and " if len(units) > 1 else "") + units[-1].name


def _fight_together(state: State, combat: melees_17_5_2.Combat, rng: Rng) -> list[Event]:
    """17.5, 17.5.2: several units in one combat: one score a side, the losses shared among the
    beaten side's units, then every unit's compulsory movement (each beaten unit away from the
    nearest victor, each victor after the nearest beaten unit)."""
    chart = house().charts["close-assault"]
    sa, ta = _side_score(state, combat.mine, combat.theirs, rng)
    sb, tb = _side_score(state, combat.theirs, combat.mine, rng)
    backing = f" ({_names(combat.reinforcing)} reinforcing)" if combat.reinforcing else ""
    head = f"**Close assault** (17.5, one combat of {len(combat.units)} units{backing}): {ta}; {tb}"
    if sa == sb:
        events = [public(f"{head}: a draw, each side loses a stand (17.5.2) and the melee goes on.")]
        for side in (combat.mine, combat.theirs):
            for unit, lost in melees_17_5_2.share(side, 1, rng):
                events += losses_17_5.loss(state, unit, lost)
        return events
    winners, losers = (combat.mine, combat.theirs) if sa > sb else (combat.theirs, combat.mine)
    margin = abs(sa - sb)
    die = roll(chart.dice, rng).total
    column = _column_for(sum(u.stands for u in winners), sum(u.stands for u in losers))
    lost = min(int(chart.lookup(die, column)), sum(u.stands for u in losers))
    shares = melees_17_5_2.share(losers, lost, rng)
    loser_result, winner_result = result_for(margin)
    taken = ", ".join(f"{u.name} {n}" for u, n in shares) or "none"
    events = [public(f"{head}: {_names(winners)} win by {margin}; {chart.name} {chart.dice} = {die} "
                     f"({chart.columns[column]}): {_names(losers)} lose {lost}, shared (17.5.2): {taken}. "
                     f"{results_sheet()[0].name}: the beaten {loser_result}, the victors {winner_result} (17.5.1).")]
    for unit, n in shares:
        events += losses_17_5.loss(state, unit, n)
    starts = {u.id: base(u).centre for u in losers}
    for loser in melees_17_5_2.rear_first(losers, winners):  # a line's reinforcer gives way before it
        if on_table(loser):
            events += _loser_moves(state, loser, melees_17_5_2.nearest(loser, winners), loser_result)
    for winner in reversed(melees_17_5_2.rear_first(winners, losers)):  # the front ranks lead
        beaten = melees_17_5_2.nearest(winner, losers)
        events += _winner_moves(state, winner, beaten, winner_result, starts[beaten.id])
    return events


def _loser_moves(state: State, loser: Unit, winner: Unit, result: Result) -> list[Event]:
    """The beaten unit's compulsory movement (17.5.1): rout, or fall back facing the winner."""
    away = _away(winner, loser)
    if result.action == "rout":  # a rout into a river drowns the unit (17.5.1; rules/routing_17_4_14.py)
        return routing_17_4_14.rout(state, loser, sub(base(loser).centre, away), cause=f"beaten by {winner.name}")
    inches = _clear_distance(state, loser, away, result.inches, ignore=set())[0]
    kept = _kept_in_cover(state, loser, base(loser).translated(scale(away, inches)))
    if kept:
        return [public(f"{loser.name} holds {kept}: Class 2 and above defending cover are not required to make a "
                       "compulsory movement that would take them out of it (17.5.5).")]
    _shift(loser, scale(away, inches))
    if result.disordered and loser.order == GOOD:
        loser.order, loser.order_turn = DISORDERED, state.turn
    said = " and is disordered" if result.disordered else ""
    return [public(f"{loser.name} falls back {fmt(inches)}\" from {winner.name}{said} (17.5.1).")]


def _kept_in_cover(state: State, loser: Unit, end: Base) -> str:
    """17.5.5: "Units that are Class 2 and above or units with Capable or Exceptional General
    defending urban areas or cover are not required to make compulsory movements as a result of
    Close Assault combat if that compulsory movement would take them out of the cover": the name of
    the wood, town or other cover the fall-back would take ``loser`` (partly) out of, "" if none or
    not such a unit. RULING (RULINGS.md 17.5.5): the bot keeps such a unit in its cover (it would not
    choose to leave it), and a rout is not excused (the unit routs)."""
    good = loser.cls >= 2 or any(g.quality in ("capable", "exceptional")
                                 for g in routing_17_4_14.attached_staff(state, loser))
    if not good:
        return ""
    types = house().terrain
    here = base(loser).polygon()
    for piece in state.terrain:
        outline = [(p[0], p[1]) for p in piece.points]
        if types[piece.type].cover != "none" and overlaps(here, outline) \
                and not all(point_in_polygon(p, outline, 1e-6) for p in end.polygon()):
            return piece.name
    return ""


def _away(winner: Unit, loser: Unit) -> Point:
    """Directly away from the winner (17.4.14): along the winner's facing when the loser stands in
    front of its front edge (square to the line of contact, so a router turning about its centre
    does not swing into its enemy), else away from the winner's centre."""
    front = base(winner)
    if dot(sub(base(loser).centre, front.edge_midpoint("bow")), front.forward) > 0:
        return front.forward
    to_loser = sub(base(loser).centre, front.centre)
    return normalise(to_loser) if length(to_loser) > EPS else front.forward


def _winner_moves(state: State, winner: Unit, loser: Unit, result: Result, loser_start: Point) -> list[Event]:
    """The victor's compulsory movement (17.5.1, 17.5.4): hold, advance in the direction of its
    charge, or pursue in the direction the beaten enemy moved; a new enemy met is a Break-Through."""
    if result.action == "hold" or not on_table(winner):
        return []
    pinned = next((e for e in state.units if e.side != winner.side and e.id != loser.id and on_table(e)
                   and e.type in FIGHTERS and in_contact(winner, e)), None)
    if pinned is not None:
        return [public(f"{winner.name} stays in contact with {pinned.name} and does not {result.action} (house).")]
    inches, wheeled = result.inches, ""
    if not on_table(loser):  # 17.5.4: the defeated unit destroyed, the victor may wheel to confront another
        inches, wheeled = _wheel_to_confront(state, winner, inches)
    direction = base(winner).forward
    if result.action == "pursue" and on_table(loser):
        moved = sub(base(loser).centre, loser_start)
        if length(moved) > EPS:
            direction = normalise(moved)
    reach = inches
    inches, met = _clear_distance(state, winner, direction, inches, ignore={loser.id} if not on_table(loser) else set())
    _shift(winner, scale(direction, inches))
    if met is None:  # an advance ending just touching a unit has met it too (17.4.2: 1" of base is contact)
        met = next((o for o in state.units if o.id != winner.id and on_table(o) and o.type != "general"
                    and in_contact(winner, o)), None)
    verb = "pursues" if result.action == "pursue" else "advances"
    text = wheeled + f"{winner.name} {verb} {fmt(inches)}\""
    if met is None:
        return [public(text + " (17.5.4).")]
    if met.side == winner.side:
        return [public(text + f", halting at {met.name} (17.5.4).")]
    if met.id == loser.id:
        return [public(text + f" and catches the routing {loser.name} (17.5.3 next turn).")]
    winner.breakthrough, winner.breakthrough_turn = met.id, state.turn + 1
    winner.breakthrough_left, winner.breakthrough_bearing = round(reach - inches, 6), round(bearing_of(direction), 6)
    return [public(text + f" into {met.name}: a **Break-Through Attack** (17.5.4). They fight in the next "
                   f"Close Assault, {winner.name} as charging; {met.name} takes a Being Charged test in the next Morale Phase.")]


def advance_balance(state: State, winner: Unit) -> list[Event]:
    """17.5.4: "If the new enemy unit contacted fails its Being Charged test it will rout and the
    victorious unit will continue to advance the balance of its compulsory movement in the direction
    of the original unit defeated": the rest of the Break-Through advance, straight on; it stops at
    the first unit it meets (an enemy met is in contact and fights in this turn's Close Assault)."""
    balance, winner.breakthrough_left = winner.breakthrough_left, 0.0
    if balance <= EPS or not on_table(winner) or winner.status != ON_TABLE:
        return []
    direction = bearing_vector(winner.breakthrough_bearing)
    inches, met = _clear_distance(state, winner, direction, balance, ignore=set())
    _shift(winner, scale(direction, inches))
    stop = f", halting at {met.name}" if met is not None else ""
    return [public(f"{winner.name} advances the balance of its compulsory move, {fmt(inches)}\"{stop} (17.5.4).")]


def _wheel_to_confront(state: State, winner: Unit, inches: float) -> tuple[float, str]:
    """17.5.4: "If defeated units were destroyed as a result of the Close Assault the victorious
    unit(s) must still advance in the direction of its charge but may wheel up to 45° to confront an
    enemy unit within range, while paying the movement reduction for any wheel." RULING (RULINGS.md
    17.5.4): the bot wheels towards the nearest enemy unit within the compulsory move's distance,
    on its inner front corner, as far as it needs, at most 45 degrees and as far as the move pays
    for (the outer arc doubled, 17.4.6); what is left of the move it then advances straight ahead.
    (inches left, what it said)."""
    b = base(winner)
    near = [(polygon_distance(b.polygon(), base(e).polygon()), e) for e in visible_enemies(state, winner.side)
            if e.type in FIGHTERS and e.status == ON_TABLE]
    near = [(d, e) for d, e in near if d <= inches + EPS]
    if not near:
        return inches, ""
    _, enemy = min(near, key=lambda n: n[0])
    off = angle_diff(winner.facing, bearing_of(sub(base(enemy).centre, b.edge_midpoint("bow"))))
    per_degree = wheel_cost(winner, 1.0)
    degrees = min(WHEEL_TO_CONFRONT, abs(off), inches / per_degree if per_degree > 0 else 0.0)
    if degrees < 1.0:
        return inches, ""
    bow_port, bow_starboard, _, _ = b.corners()
    turned = b.pivoted(bow_starboard, degrees) if off > 0 else b.pivoted(bow_port, -degrees)
    trial = Unit(**{**winner.__dict__})
    trial.x, trial.y = turned.centre
    trial.facing = round(turned.heading, 6) % 360.0
    if in_the_way(state, trial, base(trial)) is not None or not _on_table(state, base(trial)):
        return inches, ""
    winner.x, winner.y, winner.facing = trial.x, trial.y, trial.facing
    way = "right" if off > 0 else "left"
    return max(0.0, inches - wheel_cost(winner, degrees)), (
        f"{winner.name}, its enemy destroyed, wheels {way} {fmt(degrees)}° to confront {enemy.name} (17.5.4). ")


def _clear_distance(state: State, unit: Unit, direction: Point, inches: float, *, ignore: set[str]) -> tuple[float, Unit | None]:
    """How far the unit slides along ``direction`` (up to ``inches``) before it meets another unit
    on the table (hidden units are not there), and the unit met; the slide stops short of a river
    outside its crossings (house) and on the table's edge."""
    start = base(unit)
    delta = scale(direction, inches)
    hits = [(t, other) for other in state.units if other.id != unit.id and other.id not in ignore and on_table(other)
            and other.type != "general" and (t := slide_contact(start.polygon(), delta, base(other).polygon())) is not None]
    t, met = min(hits, key=lambda h: h[0]) if hits else (1.0, None)
    distance = inches * t
    while distance > EPS and (routing_17_4_14.water_crossed(state, start, start.translated(scale(direction, distance)))
                              or not _on_table(state, start.translated(scale(direction, distance)))):
        distance, met = max(0.0, distance - STEP_BACK), None
    return round(distance, 6), met


def _on_table(state: State, b: Base) -> bool:
    return all(-EPS <= x <= state.table_width + EPS and -EPS <= y <= state.table_height + EPS for x, y in b.polygon())


def _shift(unit: Unit, delta: Point) -> None:
    """Move the unit without turning it: a fall-back or an advance is made straight (17.5.1)."""
    unit.x, unit.y = round(unit.x + delta[0], 6), round(unit.y + delta[1], 6)
