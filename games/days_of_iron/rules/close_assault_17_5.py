"""Book section 17.5, Close Assault, on the measured table (option board=measured): units in
base-to-base contact with an enemy fight when the Close Assault Phase begins (17.5: all stands
of a unit are involved). The book's close assault table is on the missing sheets, so the house
chart decides (``data/days_of_iron/reference/sheets/close-assault-chart.toml``): each side rolls
1d6 and adds its Class, a unit that charged this turn and went home +1 (house); the higher total wins; the loser loses the stands
the chart gives for the winner's numbers (outnumbered, even, outnumbering) through the losses of
17.5 (shattered units, 17.5.8), routs and falls back 3" (house) from the winner; a tie costs each
one stand and the melee goes on next turn. Dice come from the game's stream, the initiative
side's pairs first.
"""

from __future__ import annotations

from games.core.dice import roll
from games.core.geometry import normalise, sub
from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.days_of_iron.data import house
from games.days_of_iron.rules import losses_17_5
from games.days_of_iron.rules.charges_17_2 import in_contact
from games.days_of_iron.rules.formations_12 import base, on_table
from games.days_of_iron.rules.movement_17_4 import fmt
from games.days_of_iron.state import ON_TABLE, ROUTING, State, Unit

FALL_BACK = 3.0  # house: inches a beaten unit falls back
FIGHTERS = ("infantry", "cavalry", "artillery", "engineer")


def melees(state: State) -> list[tuple[Unit, Unit]]:
    """Pairs of enemy units in contact, the initiative side's unit first in each pair."""
    mine = [u for u in state.units if u.side == state.initiative and on_table(u) and u.type in FIGHTERS]
    theirs = [u for u in state.units if u.side != state.initiative and on_table(u) and u.type in FIGHTERS]
    return [(a, b) for a in mine for b in theirs if in_contact(a, b)]


def _column(winner: Unit, loser: Unit) -> int:
    """The chart's column for the winner's numbers: outnumbered (under 2:3), even, outnumbering (over 3:2)."""
    if winner.stands * 3 < loser.stands * 2:
        return 0
    return 2 if winner.stands * 2 > loser.stands * 3 else 1


def _score(state: State, unit: Unit, rng: Rng) -> tuple[int, str]:
    chart = house().charts["close-assault"]
    die = roll(chart.table.dice, rng).total
    bonus = 1 if unit.charge_turn == state.turn and unit.charging else 0
    total = die + unit.cls + bonus
    return total, f"{unit.name} {die}+{unit.cls}" + ("+1 charging" if bonus else "") + f" = {total}"


def resolve(state: State, rng: Rng) -> list[Event]:
    """Fight every melee on the table (17.5), in order; a unit already beaten this phase does not fight again."""
    events: list[Event] = []
    beaten: set[str] = set()
    for a, b in melees(state):
        if a.id in beaten or b.id in beaten or not (on_table(a) and on_table(b) and in_contact(a, b)):
            continue
        events += _fight(state, a, b, rng)
        beaten |= {u.id for u in (a, b) if u.status != ON_TABLE}
    return events


def _fight(state: State, a: Unit, b: Unit, rng: Rng) -> list[Event]:
    chart = house().charts["close-assault"]
    sa, ta = _score(state, a, rng)
    sb, tb = _score(state, b, rng)
    head = f"**Close assault** (17.5): {ta}; {tb}"
    if sa == sb:
        events = [public(f"{head}: a draw, each loses a stand and the melee goes on.")]
        for unit in (a, b):
            events += losses_17_5.loss(state, unit, 1)
        return events
    winner, loser = (a, b) if sa > sb else (b, a)
    die = roll(chart.table.dice, rng).total
    lost = min(int(chart.table.lookup(die, _column(winner, loser))), loser.stands)
    events = [public(f"{head}: {winner.name} win; {chart.table.name} {chart.table.dice} = {die} "
                     f"({chart.table.columns[_column(winner, loser)]}): {loser.name} lose {lost}.")]
    events += losses_17_5.loss(state, loser, lost)
    if on_table(loser):
        away = normalise(sub(base(loser).centre, base(winner).centre))
        loser.x, loser.y = (base(loser).centre[0] + away[0] * FALL_BACK, base(loser).centre[1] + away[1] * FALL_BACK)
        loser.x = min(max(loser.x, 0.0), float(state.table_width))
        loser.y = min(max(loser.y, 0.0), float(state.table_height))
        loser.status = ROUTING
        events.append(public(f"{loser.name} rout and fall back {fmt(FALL_BACK)}\" from {winner.name}."))
    return events
