"""Book section 5, Ramming: entering an enemy's hex rams it; four firing dice with a ram, two
without. The rammer stays in the hex it came from (the ruling). When rams are adjudicated is the
turn sequence's (section 1): once both sides have moved, or at once with option ``ram-timing``."""

from __future__ import annotations

from games.core.hexgrid import Hex
from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.hex_ironclads.data import tables
from games.hex_ironclads.rules.damage_3 import damage_report, points
from games.hex_ironclads.rules.firing_dice_2 import describe_roll, dice_word, hits_of, roll_firing_dice
from games.hex_ironclads.state import Mark, Ram, Ship, State, game_map


def ram_dice(ship: Ship) -> int:
    """Section 5: four dice for a ship with a ram, two without (numbers from data)."""
    t = tables()
    return t.ram_dice if ship.ram else t.no_ram_dice


def ram(state: State, ship: Ship, target: Ship, cells: list[tuple[int, int]], rng: Rng) -> list[Event]:
    """Section 5: roll the rammer's dice against the rammed ship and mark the ram on the board."""
    count = ram_dice(ship)
    roll = roll_firing_dice(rng, count)
    hits = hits_of(roll)
    report = damage_report(state, target, hits, struck_before_leaving=True)
    state.marks.append(Mark("ram", list(cells), ship.side, f"{hits}"))
    how = "with her ram" if ship.ram else "without a ram"
    came_from = game_map(state).layout.label(Hex(*cells[0]))
    return [
        public(
            " ".join(
                [
                    f"{ship.name} rams {target.name} {how} ({dice_word(count)}): {describe_roll(roll)} = {points(hits)}.",
                    report[0],
                    f"{ship.name} stays in {came_from}, the hex she came from.",
                    *report[1:],
                ]
            ),
            reveals=True,
        )
    ]


def rammed(state: State, ship: Ship, target: Ship, rng: Rng) -> list[Event]:
    """Section 5 with section 1's timing: adjudicate now (option ram-timing=at-once) or queue the
    ram for the end of movement."""
    cells = [(ship.q, ship.r), (target.q, target.r)]
    if state.options.get("ram-timing", "after-movement") == "at-once":
        return ram(state, ship, target, cells, rng)
    state.rams.append(Ram(ship.id, target.id, cells))
    return [public(f"The ram is adjudicated once both sides have moved ({len(state.rams)} pending).")]


def adjudicate_rams(state: State, rng: Rng) -> list[Event]:
    """Section 1 ("if a ship rams another, the results are adjudicated"): the rams of this
    movement phase, in the order they were made."""
    events: list[Event] = []
    pending, state.rams = state.rams, []
    for made in pending:
        events += ram(state, state.ship(made.rammer), state.ship(made.target), made.cells, rng)
    return events
