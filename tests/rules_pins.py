"""Pinned logs: a change that alters how an old game replays must bump its system's rules version.

A stored game is replayed from its log (``/game verify``, ``/game replay``, undo): the same order
texts, from the same seed, must give the same events and the same rolls. A rules change that gives
different results breaks every game stored before it, so it must come with a new
``Ruleset.rules_version``; the bot then tells players which version their game was played under.

For every registered system and scenario, the system's own ``tests/<package>/rules_pins.json``
(e.g. ``tests/days_of_iron/rules_pins.json``) keeps a log recorded by random
legal orders (at most ``MAX_ORDERS``) under the version current at recording, and a short digest of
what each order gave (every event's text and readers, and the random stream's counter).
tests/test_rules_pins.py replays each log with today's rules. Same version, different result: the
change needs a version bump. A new version, or a scenario that changed: record again with

    .venv/bin/python -m tests.rules_pins --record

(which keeps the pin of every case whose rules version did not change, so a re-record cannot hide a
change that needed a bump).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path
from typing import Any

from bot.rooms.common import fold
from games.core.rng import Rng
from games.core.ruleset import Event, Ruleset, get_ruleset, legal_texts, system_ids

TESTS = Path(__file__).resolve().parent
PIN_FILE = "rules_pins.json"
MAX_ORDERS = 200


def cases() -> list[tuple[str, str]]:
    """Every (system, scenario) a player can start."""
    systems = [s for s in system_ids() if not s.startswith("test-")]
    return [(s, sc.id) for s in systems for sc in get_ruleset(s).scenarios()]


def pin_file(system: str) -> Path:
    """Where a system's pins are kept: its own tests folder, named after its package in games/, so a
    new system's pins are a new file of its own (the shared systems' files are left alone)."""
    return TESTS / type(get_ruleset(system)).__module__.split(".")[1] / PIN_FILE


def load_pins() -> dict[str, Any]:
    """Every pin of every registered system, keyed "system/scenario"."""
    pins: dict[str, Any] = {}
    for path in sorted({pin_file(system) for system, _ in cases()}):
        if path.exists():
            pins.update(json.loads(path.read_text()))
    return pins


def seed_of(system: str, scenario: str) -> bytes:
    return hashlib.sha256(f"rules-pin/{system}/{scenario}".encode()).digest()


def step_digest(events: list[Event], counter: int) -> str:
    """What one order gave, as verify compares it (event texts), plus readers and rolls spent."""
    told = [[e.text, sorted(e.to) if e.to is not None else None] for e in events]
    return hashlib.sha256(json.dumps([told, counter]).encode()).hexdigest()[:12]


def replay(rules: Ruleset[Any, Any], system: str, scenario: str, log: list[list[str]]) -> list[str]:
    """Each order's digest, or ``"refused: <error>"`` where today's rules no longer take it."""
    digests: list[str] = []
    steps = fold(rules, seed_of(system, scenario), scenario, {}, ((seat, text) for seat, text in log))
    next(steps)
    while len(digests) < len(log):
        try:
            _, rng, events = next(steps)
        except Exception as exc:  # an order today's rules refuse: the replay differs from here on
            digests.append(f"refused: {type(exc).__name__}: {exc}")
            break
        digests.append(step_digest(events, rng.counter))
    return digests


def record_case(system: str, scenario: str) -> dict[str, Any]:
    """A random legal log of the case under today's rules, and what each order gave."""
    rules = get_ruleset(system)
    chooser = random.Random(f"{system}/{scenario}")
    rng = Rng(seed_of(system, scenario))
    state = rules.setup(scenario, {}, rng)
    log: list[list[str]] = []
    while len(log) < MAX_ORDERS and rules.outcome(state) is None:
        to_act = rules.to_act(state)
        if not to_act:
            break
        seat = chooser.choice(sorted(to_act))
        legal = legal_texts(rules, state, seat)
        if not legal:
            break
        text = chooser.choice(legal)
        rules.play(state, seat, text, rng)
        log.append([seat, text])
    return {"rules_version": rules.rules_version, "log": log, "digests": replay(rules, system, scenario, log)}


def record() -> list[str]:
    """Record every case anew, keeping the pin of each case whose rules version has not changed."""
    old = load_pins()
    files: dict[Path, dict[str, Any]] = {}
    kept: list[str] = []
    for system, scenario in cases():
        key = f"{system}/{scenario}"
        pin = old.get(key)
        if pin is not None and pin["rules_version"] == get_ruleset(system).rules_version:
            kept.append(key)
        else:
            pin = record_case(system, scenario)
        files.setdefault(pin_file(system), {})[key] = pin
    for path, pins in files.items():
        path.write_text(json.dumps(pins, indent=1, sort_keys=True) + "\n")
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help="record the pins of new versions and new scenarios")
    args = parser.parse_args()
    if not args.record:
        parser.print_help()
        return
    kept = record()
    print(f"recorded tests/<system>/{PIN_FILE}; kept {len(kept)} pins whose rules version did not change")


if __name__ == "__main__":
    main()
