"""Book section 14 (staff): staff quality (14.1, or the national ratings of 19.4), the effects of
staff (14.2), replacing Generals killed or wounded by field promotion (14.3), attaching Generals to
units on the measured table (14.4: `GENERAL attach UNIT`, `GENERAL detach`), and on the measured
table the Casualties to Staff results (17.3.5, 17.5.7): killed or out of the battle, he is lost;
wounded, he loses command for the chart's number of turns counted from the phase of his wounding
(14.3): no attached factor, no command radius, his formation out of command unless a senior
General is near (14.2)."""

from __future__ import annotations

import re

from games.core.dice import roll
from games.core.errors import IllegalOrder
from games.core.geometry import polygon_distance
from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.days_of_iron.data import house, rules
from games.days_of_iron.orders import Attach, Detach, Promote, successor_of
from games.days_of_iron.rules import formations_12, losses_17_5
from games.days_of_iron.state import (
    CAPTURED,
    GONE,
    HIDDEN,
    KILLED,
    ON_TABLE,
    ROUTING,
    STAFF,
    STEPS,
    TURN,
    SideState,
    State,
    Unit,
)


def roll_staff(state: State, side: SideState, rng: Rng) -> list[Event]:
    """Dice each General's quality (14.1; 19.4 with staff=national); the player's own General is
    Capable and not diced."""
    book = rules()
    table_name, note = "standard", "14.1"
    if state.options.get("staff") == "national":
        if side.nation in book.staff.national:
            table_name, note = side.nation, f"19.4 {side.nation}"
        else:
            note = f"14.1 (no 19.4 row for {side.nation})"
    table = book.staff_table(table_name)
    parts = []
    for u in state.units:
        if u.side != side.id or u.type != "general":
            continue
        if u.rank == "army":
            parts.append(f"{u.name}: Capable (the player's General, not diced)")
            continue
        u.roll = rng.die(6)
        u.quality = next(q for q, faces in table.items() if u.roll in faces)
        parts.append(f"{u.name}: {u.roll} = {u.quality.capitalize()}")
    side.staff_rolled = True
    return [public(f"**{side.name} staff quality** ({note}): " + "; ".join(parts) + ".", reveals=True)]


def check_promote(state: State, unit: Unit) -> Promote:
    """Only a killed or captured General other than the player's own is replaced, once per loss,
    and a turn after he was lost (14.3). The order names the command (one text per command)."""
    if unit.type != "general" or unit.status not in (KILLED, CAPTURED):
        raise IllegalOrder("only a killed or captured General is replaced (14.3).")
    if unit.rank == "army":
        raise IllegalOrder("the player's own General is not replaced by promotion.")
    command = state.unit(unit.replaces) if unit.replaces else unit
    successor = successor_of(state, command)
    if successor is not None and successor.status not in GONE:
        raise IllegalOrder(f"{command.name} already has a successor.")
    last = successor or command  # the General who held the command last
    if last.lost_turn >= state.turn:
        raise IllegalOrder("a field promotion may take place after 1 turn (14.3).",
                           hint=f"{last.name} was lost in turn {last.lost_turn}.")
    if formations_12.measured(state) and not _player_near(state, command):
        raise IllegalOrder(f"to replace {command.name}, the General representing the player must be within "
                           f"{REPLACE_WITHIN:g}\" of the formation (14.3).",
                           hint="Move your own General up to one of its units first.")
    return Promote(command.id)


REPLACE_WITHIN = 8.0  # book 14.3: the player's General must be this near the formation to replace its General


def _player_near(state: State, command: Unit) -> bool:
    """14.3 on the measured table: the player's own General stands within 8" of a unit of the lost
    General's formation (his brigade; for a division or corps General, any of the side's units)."""
    player = _player(state, command.side)
    if player is None:
        return False
    formation = [u for u in state.units if u.side == command.side and u.type != "general" and formations_12.on_table(u)
                 and (u.brigade == command.brigade if command.brigade else True)]
    own = formations_12.base(player).polygon()
    return any(polygon_distance(own, formations_12.base(u).polygon()) <= REPLACE_WITHIN + 1e-9 for u in formation)


def promote(state: State, order: Promote, rng: Rng) -> list[Event]:
    """Fill a command by field promotion (14.3): the first time a successor record is made; after
    that the same record is promoted again in place, so promotions never grow the state."""
    command = state.unit(order.unit)
    table = rules().staff_table("promotion")
    roll = rng.die(6)
    quality = next(q for q, faces in table.items() if roll in faces)
    successor = successor_of(state, command)
    if successor is None:
        successor = Unit(f"{command.id}-successor", f"{command.name}'s successor", command.side,
                         command.brigade, "general", rank=command.rank)
        state.units.append(successor)
        text = (f"Field promotion (14.3) for {command.name}: {roll} = {quality.capitalize()}. "
                f"{successor.name} takes command.")
    else:
        text = (f"Field promotion (14.3) for {command.name}'s command, its General lost again: {roll} = "
                f"{quality.capitalize()}. A new General takes command as {successor.name}.")
    successor.quality, successor.roll, successor.replaces = quality, roll, command.id
    successor.status, successor.stands, successor.lost_turn = ON_TABLE, successor.start_stands, state.turn
    player = _player(state, command.side)
    if formations_12.measured(state) and player is not None:  # he takes the field beside the player's General
        successor.x, successor.y, successor.facing = player.x, player.y, player.facing
        successor.formation, successor.attached = player.formation or formations_12.COLUMN, ""
        text += f" He takes the field beside {player.name}."
    return [public(text, reveals=True)]


def _player(state: State, side: str) -> Unit | None:
    """The General representing the player (rank army) on the table, if he is."""
    return next((g for g in state.units if g.side == side and g.type == "general" and g.rank == "army"
                 and formations_12.on_table(g)), None)


def commander_quality(state: State, unit: Unit) -> str:
    """The General whose quality counts for a unit (14.2): the brigade's own, else the senior
    surviving one; "none" without one."""
    generals = [u for u in state.units if u.side == unit.side and u.type == "general"
                and u.status in (ON_TABLE, ROUTING, HIDDEN) and in_command(state, u)]
    own = [g for g in generals if g.brigade and g.brigade == unit.brigade]
    if own:
        return own[0].quality or "none"
    order = {"division": 0, "corps": 1, "army": 2}
    senior = sorted((g for g in generals if g.rank in order), key=lambda g: order[g.rank])
    return (senior[0].quality or "none") if senior else "none"


# --- attaching Generals on the measured table (14.4) ---------------------------------------------

ATTACH_GAP = 0.05  # inches behind the unit's rear edge: touching (14.4 "the general stand must touch")


def carry(state: State, unit: Unit) -> None:
    """Keep each General or engineer attached to the unit touching the middle of its rear edge, facing its way."""
    for g in state.units:
        if g.type in STAFF and g.attached == unit.id and g.status in (ON_TABLE, ROUTING):
            _touch(g, unit)


def _touch(general: Unit, unit: Unit) -> None:
    from games.days_of_iron.rules.formations_12 import base, footprint

    rear = base(unit).edge_midpoint("stern")
    _, depth = footprint(general)
    back = base(unit).normal("stern")
    general.facing = unit.facing
    general.x = round(rear[0] + back[0] * (depth / 2 + ATTACH_GAP), 6)
    general.y = round(rear[1] + back[1] * (depth / 2 + ATTACH_GAP), 6)


def check_attach(state: State, seat: str, order: Attach) -> Attach:
    """14.4: in his side's part of the Movement phase a General on the table joins a unit of his
    side standing on the table in good order, within his remaining move (he is placed touching its rear)."""
    from games.core.geometry import polygon_distance
    from games.days_of_iron.rules.formations_12 import base, on_table
    from games.days_of_iron.rules.movement_17_4 import check_movement_order, fmt, left

    general, unit = state.unit(order.unit), state.unit(order.target)
    if general.type not in STAFF:
        raise IllegalOrder(f"only a General or an engineer attaches; {general.name} is {general.type}.",
                           hint="Write `GENERAL attach UNIT` or `ENGINEER attach UNIT`.")
    check_movement_order(state, seat, general, order.text)
    if unit.side != general.side or unit.type in STAFF or not on_table(unit):
        raise IllegalOrder(f"{unit.name} is not a unit of the {state.side_name(general.side)} standing on the table.")
    if unit.status != ON_TABLE:
        raise IllegalOrder(f"{unit.name} is routing: a General cannot join it.")
    if general.attached == unit.id:
        raise IllegalOrder(f"{general.name} is already attached to {unit.name}.")
    gap = polygon_distance(base(general).polygon(), base(unit).polygon())
    if gap > left(state, general) + 1e-6:
        raise IllegalOrder(f"{unit.name} is {fmt(gap)}\" away; {general.name} has {fmt(left(state, general))}\" "
                           "of move left this turn.")
    return order


def attach(state: State, order: Attach) -> list[Event]:
    """Attach the General (14.4): he moves into contact and spends that distance of his move; while
    attached he commands no other unit and moves with this one."""
    from games.core.geometry import polygon_distance
    from games.days_of_iron.rules.formations_12 import base
    from games.days_of_iron.rules.movement_17_4 import spend

    general, unit = state.unit(order.unit), state.unit(order.target)
    spend(state, general, polygon_distance(base(general).polygon(), base(unit).polygon()))
    general.attached = unit.id
    _touch(general, unit)
    if general.type == "engineer":  # 17.3.5, 17.5.7: he shares its risks; no quality, no command
        return [public(f"{general.name} attaches to {unit.name} (17.3.5, 17.5.7): he shares its risks under fire and "
                       "in a close assault, and routs with it.")]
    return [public(f"{general.name} attaches to {unit.name} (14.4): his quality counts in its morale tests, "
                   "he shares its risks, and he commands no other unit while attached.")]


def check_detach(state: State, seat: str, order: Detach) -> Detach:
    """14.4: an attached General leaves his unit in his side's part of the Movement phase."""
    from games.days_of_iron.rules.movement_17_4 import check_movement_order

    general = state.unit(order.unit)
    if general.type not in STAFF or not general.attached:
        raise IllegalOrder(f"{general.name} is not an attached General or engineer.")
    check_movement_order(state, seat, general, order.text)
    return order


def detach(state: State, order: Detach) -> list[Event]:
    """14.4: the General leaves the unit he was attached to and commands his formation again."""
    general = state.unit(order.unit)
    unit = state.unit(general.attached)
    general.attached = ""
    return [public(f"{general.name} leaves {unit.name} and commands his formation again (14.4).")]


# --- Casualties to Staff on the measured table (14.3, 17.3.5, 17.5.7) ------------------------------

LOST_WORDS = ("killed", "out of the battle")
WOUND_TURNS = re.compile(r"no command for (\d+) turns?")


def phase_clock(state: State) -> int:
    """Phases counted through the game (turn x 4 + step): a wound's lost command is counted from
    the phase of his wounding (14.3)."""
    return state.turn * len(STEPS) + (state.step if state.phase == TURN else 0)


def in_command(state: State, general: Unit) -> bool:
    """14.3: a wounded General has no command until his lost turns are up."""
    return general.wounded_until <= phase_clock(state)


def wound_turns(result: str) -> int:
    """The turns of lost command a Casualties to Staff result gives ("... no command for N turns"; 0: none)."""
    found = WOUND_TURNS.search(result.lower())
    return int(found.group(1)) if found else 0


def staff_casualty(state: State, general: Unit, result: str) -> list[Event]:
    """Carry out a Casualties to Staff result (14.3): killed or out of the battle, the General is
    lost (his command awaits a field promotion); wounded, he stays on the table without command
    for the chart's turns, counted from this phase."""
    if any(w in result for w in LOST_WORDS):
        general.attached = ""
        return losses_17_5.loss(state, general, general.stands)
    turns = wound_turns(result)
    if not turns:
        return []
    general.wounded_until = max(general.wounded_until, phase_clock(state) + turns * len(STEPS))
    back = general.wounded_until
    if general.type == "engineer":  # house (RULINGS.md 17.3.5): a wounded engineer cannot work meanwhile
        return [public(f"{general.name} is wounded and cannot work until turn {back // len(STEPS)}'s "
                       f"{STEPS[back % len(STEPS)]} phase (17.3.5, house).")]
    return [public(f"{general.name} is wounded and has no command until turn {back // len(STEPS)}'s "
                   f"{STEPS[back % len(STEPS)]} phase (14.3).")]


def staff_hits(state: State, general: Unit, hits: int, rng: Rng) -> list[Event]:
    """17.3.5: an unattached General hit by fire rolls once per H on the Casualties to Staff chart;
    each result is carried out (14.3) until he is lost."""
    chart = house().charts["staff-casualties"]
    rolls = [roll(chart.dice, rng).total for _ in range(hits)]
    results = [chart.lookup(r, 0) for r in rolls]
    said = "; ".join(f"{d}: {r}" for d, r in zip(rolls, results, strict=True))
    events = [public(f"{general.name} hit {hits} time{'s' if hits > 1 else ''} ({chart.name}): {said}.")]
    for result in results:
        if general.status in GONE:
            break
        events += staff_casualty(state, general, result)
    return events
