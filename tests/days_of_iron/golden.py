"""Recorded Days of Iron games, to prove a rewrite of the rules changes nothing a player sees.

``golden_games.json`` was written by ``python -m tests.days_of_iron.golden`` with the rules as they
were before the issue-14 conversion (one ``DaysOfIron`` class parsing text). Each game is a
deterministic random playout whose orders are typed the ways people type them (names for ids,
other case, ``#3``, the umpire naming sides); for every step it keeps the input, the canonical
text it parsed to (what stored games replay from), and digests of the events, every seat's legal
orders and views, and the answers (canonical text, or error class and message) to a bank of probe
orders, good and bad. ``test_golden.py`` replays them against today's rules.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from games.core import data
from games.core.errors import GameError
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import UMPIRE, Event, Ruleset, get_ruleset, legal_texts
from tests.days_of_iron.helpers import MORALE, SMALL_ARMS

FIXTURE = Path(__file__).with_name("golden_games.json")
STEPS = 220


GAMES: list[dict[str, Any]] = [
    {"scenario": scenario, "seed": seed, "options": options, "pack": pack}
    for scenario in ("meeting", "outpost", "spicheren")
    for seed, options, pack in (
        (1, {"turns": "3"}, False),
        (2, {"turns": "4", "staff": "national"}, True),
        (3, {"scouting": "yes", "margin": "scaled"}, False),
        (4, {"victory": "objectives", "turns": "2"}, True),
        (5, {"scouting": "no", "staff": "standard", "turns": "5"}, False),
        (6, {}, True),
        (7, {"turns": "6"}, True),
        (8, {"staff": "national", "victory": "points"}, False),
    )
]


@contextmanager
def reference_pack(on: bool) -> Iterator[None]:
    """The owner's reference tables of tests/days_of_iron/test_reference.py, loaded for the game."""
    if not on:
        yield
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "days_of_iron" / "reference"
        folder.mkdir(parents=True)
        (folder / "morale.toml").write_text(MORALE, encoding="utf-8")
        (folder / "small-arms.toml").write_text(SMALL_ARMS, encoding="utf-8")
        saved = data._packs
        data.set_data_packs([tmp])
        try:
            yield
        finally:
            data.set_data_packs([])
            data._packs = saved


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()[:16]


def answer(rules: Ruleset[Any, Any], state: Any, seat: str, text: str) -> list[str]:
    """What parsing says: the canonical text, or the error's class, message and hint."""
    try:
        return ["ok", rules.parse_order(state, seat, text).text]
    except GameError as err:
        return [type(err).__name__, err.message, err.hint or ""]


def events_of(events: list[Event]) -> list[Any]:
    return [[e.text, sorted(e.to) if e.to is not None else None, e.reveals] for e in events]


def seats(state: Any) -> list[str]:
    return [s.id for s in state.sides] + [UMPIRE]


def probes(state: Any, pick: random.Random) -> list[str]:
    """Orders good and bad, naming things the ways players do."""
    unit = pick.choice(state.units)
    other = pick.choice(state.units)
    brigade = pick.choice(state.brigades)
    side = pick.choice(state.sides)
    name = unit.name
    short = name.split()[-1][:3]
    obj = state.objectives[0].name if state.objectives else "Nowhere"
    return [
        "", "foo", "staff", "ready", "initiative", "next", "end", "END now", f"staff {side.id}", f"ready {side.name}",
        f"staff {side.name[:2]}", f"hide {name} at the wood", f"hide {name}", f"hide {short} at x`y", "hide at x",
        f"loss {name} 1", f"loss {name} 99", f"loss {name} 0", f"loss {name}", f"loss {other.id} 2", "loss 3",
        f"rout {name}", f"rally {name}", f"RALLY {other.name}", f"promote {name}", f"captured {name}",
        f"killed {other.name}", f"destroyed {name}", f"routed-off {name}", f"surrender {short}", f"reveal {name}",
        f"reveal {other.name}", f"dust {brigade.name}", f"dust {brigade.id} at the east road", f"offboard {brigade.name}",
        f"offboard {brigade.name} at the hill", f"offboard {brigade.id} at", "cancel 1", "cancel #2", "cancel x",
        "cancel", f"scout {name}", f"scout {other.name}", f"objective {obj} none", f"objective {obj} nobody",
        f"objective {obj} {side.name}", f"objective {obj}", f"objective {obj[:4]} {side.id}", "dispute",
        "dispute who holds the wood?", "dispute a`b", "check", "check wood", "check wood about", "check wood foo bar",
        "check fo about the copse", "check general-hit about Gen. X", f"morale {name} charge disordered",
        f"morale {name} charge muddy", f"morale {name}", f"morale {name} charge", "table small dense",
        "table small line -1", "table small-arms +2", "table", "table small dense +2", "table nothing", "x" * 300,
        "dispute " + "word " * 50,
    ]


def variant(text: str, state: Any, seat: str, pick: random.Random) -> str:
    """The canonical text as a player might type it: names for ids, other case, a #, 'nobody'."""
    words = text.split()
    roll = pick.random()
    if roll < 0.15:
        return text.upper() if pick.random() < 0.5 else text.title()
    out = []
    for word in words:
        unit = next((u for u in state.units if u.id == word), None)
        brigade = next((b for b in state.brigades if b.id == word), None)
        sides = {s.id: s for s in state.sides}
        if unit is not None and pick.random() < 0.6:
            out.append(unit.name if pick.random() < 0.7 else unit.name.split()[-1])
        elif brigade is not None and pick.random() < 0.6:
            out.append(brigade.name)
        elif word in sides and pick.random() < 0.5:
            out.append(sides[word].name)
        elif word.isdigit() and words[0] == "cancel" and pick.random() < 0.5:
            out.append("#" + word)
        else:
            out.append(word)
    return "  ".join(out) if pick.random() < 0.1 else " ".join(out)


def extra_orders(state: Any, pick: random.Random) -> list[str]:
    """Orders legal_orders does not list: free-text disputes, checks about something, tables."""
    unit = pick.choice(state.units)
    return [f"dispute is the {pick.choice(['wood', 'hill', 'farm'])} light cover?",
            f"check {pick.choice(['wood', 'ford', 'fire', 'demolish', 'general-hit'])} about the {unit.name}",
            f"morale {unit.name} charge" + pick.choice(["", " disordered", " shaken disordered"]),
            f"table small {pick.choice(['line', 'dense', 'dispersed'])} {pick.choice(['', '+1', '-2'])}".strip()]


TABLE_FIELDS: tuple[str, ...] = ("x", "y", "facing", "formation", "moved", "moved_turn", "start_formation", "fired_turn", "pending_hits", "pending_small_arms",
                "charge_turn", "charging", "home_turn",
                "order", "order_turn", "halted", "ground", "rout_bearing", "rout_done", "rout_turn", "attached", "rally_turn", "forced_turn",
                "gun", "breakthrough", "breakthrough_turn", "breakthrough_left", "breakthrough_bearing", "passage_turn", "changed_turn",
                "declared", "declared_seq", "tested_turn", "caught_turn", "declared_turn", "reserve_turn", "reserve_stands", "return_turn",
                "entry", "wounded_until", "fortify_turn", "dismounted", "refused_turn", "march")
TABLE_FIELDS += ("seen",)  # 17.3: enemies seen passing (rules/seen_fire_17_3.py), empty on board=tape
TABLE_FIELDS += ("crew_hit", "team_lost")  # 17.3.5: a battery's lasting damage (rules/shooting_17_3.py), none on board=tape
TABLE_FIELDS += ("limber_casualties",)  # 10.3: a horse battery's limber casualties (rules/shooting_17_3.py), none on board=tape
TABLE_FIELDS += ("shelter",)  # 17.4.16: the square a unit evaded inside (rules/evading_17_4_16.py), none on board=tape


def recorded_fields(encoded: Any) -> Any:
    """The encoded state without what the measured table (issue 15) added, all at its defaults in a
    board=tape game: the recordings' final states predate those fields."""
    state = json.loads(encoded) if isinstance(encoded, (str, bytes)) else json.loads(json.dumps(encoded))
    state["options"].pop("board", None)
    state["options"].pop("wind", None)  # 15.12, "none" in these games: no wind, no fires
    for key in ("terrain", "wind", "fires", "in_fire", "fires_tried",  # 15; 15.9, 15.12 fires and wind
                "works", "bridges_tried", "spans_down"):  # 11, 15.5 engineers' work: none on tape
        state.pop(key, None)
    for unit in state["units"]:
        for key in TABLE_FIELDS:
            unit.pop(key, None)
    return state


def play(game: dict[str, Any]) -> dict[str, Any]:
    """One recorded game (see the module docstring)."""
    rules = get_ruleset("days-of-iron")
    pick = random.Random(game["seed"] * 7919)
    steps: list[dict[str, Any]] = []
    with reference_pack(game["pack"]):
        rng = Rng(seed_from_number(game["seed"]))
        # recorded with the table assistant, before the measured table existed (board=tape keeps it)
        state = rules.setup(game["scenario"], {"board": "tape", **game["options"]}, rng)
        for i in range(STEPS):
            if rules.outcome(state) is not None:
                break
            acting = rules.to_act(state)
            seat = pick.choice([*acting, *acting, UMPIRE]) if i < STEPS * 3 // 4 else acting[0]
            legal = {s: legal_texts(rules, state, s) for s in seats(state)}
            views = {str(s): [list(v.status), list(v.private_text)] for s in (None, *seats(state))
                     for v in [rules.view(state, s)]}
            probe_seat = pick.choice(seats(state))
            answers = [answer(rules, state, probe_seat, t) for t in probes(state, pick)]
            options = legal[seat] + (extra_orders(state, pick) if pick.random() < 0.3 else [])
            if i >= STEPS // 2:
                options = [o for o in legal[seat] if o.split()[0] in ("staff", "ready", "initiative", "next", "end")]
                options = options or legal[seat]
            verbs = sorted({o.split()[0] for o in options})
            verb = pick.choice(verbs)
            wanted = pick.choice([o for o in options if o.split()[0] == verb])
            typed = variant(wanted, state, seat, pick)
            got = answer(rules, state, seat, typed)
            if got[0] != "ok":
                typed, got = wanted, answer(rules, state, seat, wanted)
            if got[0] != "ok":
                steps.append({"seat": seat, "input": typed, "error": got})
                continue
            order = rules.parse_order(state, seat, typed)
            events = rules.apply(state, seat, order, rng)
            steps.append({
                "seat": seat, "input": typed, "text": order.text, "events": digest(events_of(events)),
                "legal": digest(legal), "views": digest(views), "probe_seat": probe_seat,
                "probes": digest(answers),
            })
        outcome = rules.outcome(state)
        final = {"state": digest(recorded_fields(rules.encode(state))),
                 "outcome": [outcome.winner, outcome.reason, list(outcome.details)] if outcome else None}
    return {**game, "steps": steps, "final": final}


def main() -> None:
    games = [play(g) for g in GAMES]
    FIXTURE.write_text(json.dumps(games, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    n = sum(len(g["steps"]) for g in games)
    print(f"wrote {len(games)} games, {n} steps to {FIXTURE}", file=sys.stderr)


if __name__ == "__main__":
    main()
