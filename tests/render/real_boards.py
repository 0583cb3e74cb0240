"""Real scenario boards for the render tests: each system's own set-up, built through its ruleset
with a fixed seed, as a spectator sees it (what the bot posts to the channel)."""

from __future__ import annotations

from games.core.rng import Rng
from games.core.ruleset import get_ruleset, read_order
from games.core.view import View

SEED = b"render-golden-real-boards"

# (system, scenario, set-up orders as (seat, order) pairs): the orders place what a scenario
# leaves to the players, so the board shows ships rather than an empty map
BOARDS: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {
    "hex-ironclads": ("hex-ironclads", "angamos", ()),
    "iron-and-fire": (
        "iron-and-fire",
        "s1",
        (("chile", "Esmeralda at 1606 3"), ("chile", "done"), ("peru", "Huascar at 1610 6"), ("peru", "done")),
    ),
    "ironclad-draughts": ("ironclad-draughts", "fleet", ()),
    "oak-and-iron": ("oak-and-iron", "engagement", ()),
    "days-of-iron": (  # both sides ready: the measured table sets the units out in their zones
        "days-of-iron",
        "meeting",
        (("french", "staff"), ("french", "ready"), ("prussian", "staff"), ("prussian", "ready")),
    ),
    "table": (
        "table",
        "free",
        (("red", "place Warspite d1 N"), ("red", "place Valiant e1 N"), ("blue", "place Derfflinger d8 S"), ("blue", "move Derfflinger d7 S")),
    ),
}


def real_view(name: str) -> View:
    """The spectator's View of a real scenario's board after its set-up orders."""
    system, scenario, orders = BOARDS[name]
    rules = get_ruleset(system)
    rng = Rng(SEED)
    state = rules.setup(scenario, {}, rng)
    for seat, text in orders:
        rules.apply(state, seat, read_order(rules, state, seat, text), rng)
    return rules.view(state, None)
