"""Record what Ironclad Draughts reads and prints, through the public Ruleset API only.

``python -m tests.ironclad_draughts.order_texts`` wrote ``order_texts.json.xz`` before the package
was converted to typed orders (issue 14); ``test_order_texts.py`` replays the same playouts and
probes and asserts the same canonical texts, legal orders, event texts and status lines, so stored
games (which replay from their logged order text) keep replaying. Refusals are compared by error
class only (their wording may improve); ``--full FILE`` writes the messages too, for a diff.
"""

from __future__ import annotations

import copy
import hashlib
import json
import lzma
import sys
from pathlib import Path
from typing import Any

from games.core.errors import GameError
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import UMPIRE, get_ruleset, legal_texts

FIXTURE = Path(__file__).with_name("order_texts.json.xz")
RS = get_ruleset("ironclad-draughts")

# (scenario, seed, options): the defaults and every reading option.
GAMES: list[tuple[str, int, dict[str, str]]] = [
    ("standard", 1, {"turn_limit": "12"}),
    ("standard", 2, {"turn_limit": "12", "seats": "ship", "pass_through": "yes"}),
    ("duel", 3, {"turn_limit": "12", "umpire_deals": "yes", "engine_hit": "ahead"}),
    ("fleet", 4, {"turn_limit": "8", "damaged_may_stop": "yes", "damage_shuffle": "each-turn"}),
    ("duel", 5, {"turn_limit": "15", "damaged_may_stop": "yes", "board": "6x6"}),
    ("standard", 6, {"turn_limit": "10", "squadron1": "inflexible+devastation:Dev", "seats": "ship"}),
]

# Spellings the notation accepts besides the canonical one.
WORD_VARIANTS = [
    (" port", [" p", " larboard", " PORT"]),
    (" starboard", [" stbd", " s", " sb", " Starboard"]),
    ("turn port", ["turn p", "TURN larboard"]),
    ("turn starboard", ["turn s", "turn sb"]),
]
BAD = [
    "", "move", "move x", "move 3", "move 0", "move -1", "move 2 turn", "move 2 turn ahead", "move 1 leave",
    "move 2 fire", "move 2 sideways", "move diag", "move diag ahead", "fire", "fire Nobody", "pass now",
    "pass turn port", "xyzzy", "deal", "deal now", "adjust", "adjust flotation 3", "move 2 leave fire X",
    "move 1 port 2", "move 2 turn port turn port", "fire Re", "move 1 starboard fire", "Nobody move 2",
]


def outcome_of(thunk: Any) -> list[str]:
    try:
        return ["ok", str(thunk())]
    except GameError as error:
        return [type(error).__name__, str(error), str(getattr(error, "hint", "") or "")]


def probes(state: Any, seat: str, legal: list[str]) -> dict[str, list[str]]:
    """Parse the legal texts respelled, and some bad ones, as ``seat`` and as the umpire."""
    out: dict[str, list[str]] = {}
    active = next((s for s in state.ships if s.id == state.active), None)
    texts: list[str] = []
    for text in legal[:40]:
        texts.append(text)
        texts.append(text.upper())
        for old, news in WORD_VARIANTS:
            if old in text:
                texts += [text.replace(old, new, 1) for new in news]
        if text.startswith("move 1 port") or text.startswith("move 1 starboard"):
            side = text.split()[2]
            texts.append(text.replace(f"move 1 {side}", f"move diag {side}", 1))
            texts.append(text.replace(f"move 1 {side}", f"move diagonal {side[0]}", 1))
        if text.startswith("move 2") or text.startswith("move 1"):
            parts = text.split()
            if len(parts) < 3 or parts[2] not in ("port", "starboard"):
                for word in ("ahead", "a", "straight"):
                    texts.append(" ".join([*parts[:2], word, *parts[2:]]))
        if active is not None:
            texts.append(f"{active.name} {text}")
            texts.append(f"{active.name.casefold()[:5]} {text}")
        if " fire " in f" {text} ":
            head, _, target = text.partition("fire ")
            texts.append(f"{head}fire {target.casefold()[:4]}")
            texts.append(f"{head}FIRE   {target}")
    texts += BAD
    for other in state.ships:
        texts.append(f"{other.name} move 2")
        texts.append(f"{other.name} pass")
        for adjust in (
            "flotation 3", "flotation 99", "flotation x", "damage add QH", "damage add 5H", "damage remove KS",
            "damage add", "damage add Q♥", "at c4", "at z9", "at a1", "heading ne", "heading 7", "heading",
            "heading SW", "damage ADD jc", "at C5",
        ):
            texts.append(f"adjust {other.name} {adjust}")
    for who in dict.fromkeys([seat, UMPIRE, state.sides[0].id, state.ships[0].id]):
        for text in texts:
            out[f"{who}|{text}"] = outcome_of(lambda who=who, text=text: RS.parse_order(state, who, text).text)
    return out


def applied_adjustments(state: Any, rng: Rng) -> dict[str, list[str]]:
    """The umpire's adjustments carried out on copies: their event texts and the status after."""
    out: dict[str, list[str]] = {}
    for other in state.ships[:2]:
        for adjust in ("flotation 0", "flotation 5", "damage add QD", "damage add AH", "at b3", "heading SE"):
            text = f"adjust {other.name} {adjust}"
            trial, trial_rng = copy.deepcopy(state), copy.deepcopy(rng)

            def run(trial: Any = trial, text: str = text, trial_rng: Rng = trial_rng) -> str:
                events = RS.apply(trial, UMPIRE, RS.parse_order(trial, UMPIRE, text), trial_rng)
                return json.dumps([[e.text, e.reveals, sorted(e.to or [])] for e in events] + RS.summary(trial))

            out[text] = outcome_of(run)
    return out


def play(scenario: str, seed: int, options: dict[str, str]) -> list[dict[str, Any]]:
    rng = Rng(seed_from_number(seed))
    state = RS.setup(scenario, options, rng)
    steps: list[dict[str, Any]] = []
    for i in range(300):
        seats = [s.id for s in RS.seats(state)]
        step: dict[str, Any] = {
            "to_act": RS.to_act(state),
            "legal": {seat: legal_texts(RS, state, seat) for seat in seats},
            "summary": RS.summary(state),
            "view": [list(RS.view(state, None).status), [c.label + c.damage_text for c in RS.view(state, None).counters]],
        }
        if RS.outcome(state) is not None:
            outcome = RS.outcome(state)
            step["outcome"] = [outcome.winner, outcome.reason, list(outcome.details)] if outcome else []
            steps.append(step)
            break
        seat = RS.to_act(state)[0]
        legal = step["legal"][seat]
        if i % 3 == 0 or i < 6:
            step["probes"] = probes(state, seat, legal)
        if i % 7 == 2:
            step["adjust"] = applied_adjustments(state, rng)
        # prefer firing now and then, so that combat and damage control are exercised
        firing = [t for t in legal if "fire" in t.split()]
        pool = firing if firing and i % 2 else legal
        text = pool[(seed * 31 + i * 17) % len(pool)]
        order = RS.parse_order(state, seat, text)
        events = RS.apply(state, seat, order, rng)
        step["order"] = [seat, text, RS.format_order(order)]
        step["events"] = [[e.text, e.reveals, sorted(e.to or [])] for e in events]
        steps.append(step)
    step = {"state": hashlib.sha256(json.dumps(RS.encode(state), sort_keys=True).encode()).hexdigest()}
    steps.append(step)
    return steps


def options_probes() -> dict[str, list[str]]:
    """What setup says about good and bad options (the wording may change; the class may not)."""
    cases = [
        {"seats": "SHIP"}, {"Seats": "ship"}, {"colour": "red"}, {"pass_through": "maybe"}, {"turn_limit": "x"},
        {"turn_limit": "007"}, {"turn_limit": ""}, {"board": "9x9"}, {"board": "2x2"}, {"board": "big"},
        {"squadron1": "warship"}, {"squadron1": "+"}, {"squadron1": "inflexible+inflexible"},
        {"engine_hit": "Ahead"}, {"umpire_deals": "yes"}, {"board": "3x3", "squadron2": "inflexible+inflexible+inflexible+inflexible"},
    ]
    out: dict[str, list[str]] = {}
    for case in cases:

        def run(case: dict[str, str] = case) -> str:
            state = RS.setup("standard", case, Rng(seed_from_number(7)))
            return json.dumps([state.options, RS.summary(state), [s.name for s in state.ships]])

        out[json.dumps(case)] = outcome_of(run)
    return out


def record() -> dict[str, Any]:
    return {
        "games": {f"{s}|{n}|{json.dumps(o, sort_keys=True)}": play(s, n, o) for s, n, o in GAMES},
        "options": options_probes(),
    }


def compact(found: dict[str, Any]) -> dict[str, Any]:
    """The record with each refusal cut down to its error class (what the fixture keeps)."""

    def cut(results: dict[str, list[str]]) -> dict[str, list[str]]:
        return {k: r if r[0] == "ok" else r[:1] for k, r in results.items()}

    games = {
        key: [{k: cut(v) if k in ("probes", "adjust") else v for k, v in step.items()} for step in steps]
        for key, steps in found["games"].items()
    }
    return {"games": games, "options": cut(found["options"])}


def load_fixture() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(lzma.decompress(FIXTURE.read_bytes()))
    return found


if __name__ == "__main__":
    full = record()
    if sys.argv[1:2] == ["--full"]:
        Path(sys.argv[2]).write_text(json.dumps(full, indent=0, ensure_ascii=False) + "\n")
    else:
        raw = json.dumps(compact(full), ensure_ascii=False, separators=(",", ":")).encode()
        FIXTURE.write_bytes(lzma.compress(raw, preset=9))
