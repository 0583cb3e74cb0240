"""Book section 14, Random Event Table: the 2d6 roll on the first Joker.
"""

from __future__ import annotations

from games.iron_and_fire import scene
from games.iron_and_fire.data import (
    random_events,
)
from games.iron_and_fire.game import (
    SIDE_NAMES,
    Game,
    other,
)


def random_event(g: Game) -> None:
    """14: roll 2d6 on the Random Event table at the first Joker (if the option is on)."""
    if not scene.on(g.s, "random_events"):
        g.say("Random Events are not in use: no event.")
        return
    values, total = g.dice(2, 6)
    event = next(e for e in random_events() if e.low <= total <= e.high)
    g.say(f"Random Event, 2d6 [{values[0]}, {values[1]}] = **{total}**: {event.text}")
    s = g.s
    if event.key == "fickle_luck" and scene.on(g.s, "fow") and s.fow_holder:
        s.fow_holder = other(s.fow_holder)
        g.say(f"The Fortunes of War passes to {SIDE_NAMES[s.fow_holder]}.")
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
