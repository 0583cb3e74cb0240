"""Book section 14, Random Event Table: the 2d6 roll on the first Joker.
"""

from __future__ import annotations

from games.core.ruleset import Event
from games.iron_and_fire import scene
from games.iron_and_fire.data import (
    SIDE_NAMES,
    other,
    random_events,
)
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.report import say
from games.iron_and_fire.state import State


def random_event(s: State, dice: Dice, events: list[Event]) -> None:
    """14: roll 2d6 on the Random Event table at the first Joker (if the option is on)."""
    if not scene.on(s, "random_events"):
        say(events, "Random Events are not in use: no event.")
        return
    values, total = dice.roll(2, 6)
    event = next(e for e in random_events() if e.low <= total <= e.high)
    say(events, f"Random Event, 2d6 [{values[0]}, {values[1]}] = **{total}**: {event.text}")
    if event.key == "fickle_luck" and scene.on(s, "fow") and s.fow_holder:
        s.fow_holder = other(s.fow_holder)
        say(events, f"The Fortunes of War passes to {SIDE_NAMES[s.fow_holder]}.")
    elif event.key in ("order_confusion", "confusing_signal"):
        side = "peru" if event.key == "order_confusion" else "chile"
        for u in s.units:
            if u.afloat and u.controller == side and not u.battery:
                u.mp_penalty = 1
    elif event.key == "save_the_captain":
        s.save_captain = True
    elif event.key == "save_the_admiral":
        s.save_admiral = True
    elif event.key in ("lucky_shot_peru", "lucky_shot_chile"):
        side = event.key.removeprefix("lucky_shot_")
        if side not in s.lucky_shot:
            s.lucky_shot.append(side)
