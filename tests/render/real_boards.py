"""Real scenario boards for the render tests: each system's own set-up, built through its ruleset
with a fixed seed, as a spectator sees it (what the bot posts to the channel)."""

from __future__ import annotations

from pathlib import Path

from games.core.errors import GameError
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


SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def script_view(system: str, script: str, orders: int | None = None) -> View:
    """The spectator's View part-way through a console script (after its first ``orders`` orders,
    all by default): mid-game boards, with units moved off their set-up lines. The dice here come
    from this module's seed, not the script's, so an order the other dice make illegal (a charge
    home after a failed test) is skipped: the board is what matters, not the story."""
    rules = get_ruleset(system)
    seat_of: dict[str, str] = {}
    who = ""
    state = None
    rng = Rng(SEED)
    done = 0
    for line in (SCRIPTS / system.replace("-", "_") / f"{script}.txt").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("as @"):
            who = line[4:]
        elif line.startswith("/game new"):
            fields = dict(part.split(":", 1) for part in line.split()[2:])
            options = dict(o.split("=", 1) for o in fields.get("options", "").split(",") if "=" in o)
            state = rules.setup(fields["scenario"], options, rng)
        elif line.startswith("/game join seat:"):
            seat_of[who] = line.split(":", 1)[1]
        elif line.startswith("/order text:") and " preview:" not in line and state is not None and who in seat_of:
            if orders is not None and done >= orders:
                break
            try:
                rules.apply(state, seat_of[who], read_order(rules, state, seat_of[who], line.split(":", 1)[1]), rng)
            except GameError:
                continue
            done += 1
    assert state is not None, script
    return rules.view(state, None)
