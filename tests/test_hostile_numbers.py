"""Numbers of thousands of digits in any order of any system: refused with a GameError, never a crash.

Python refuses to convert more than 4,300 digits with a plain ValueError, which the service would not
turn into a message. New orders reach a system through ``read_order`` (as the service gives them),
which refuses over-long numbers before any parser converts them.
"""

from __future__ import annotations

import contextlib
import copy
import re

import pytest

from games.core.errors import GameError
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import UMPIRE, get_ruleset, legal_texts, read_order, system_ids

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast

HUGE = "9" * 4400
CASES = [(s, sc.id) for s in system_ids() if not s.startswith("test-") for sc in get_ruleset(s).scenarios()]


def hostile_variants(order: str) -> list[str]:
    """The order with each number (or each word, when it has none) replaced by thousands of digits."""
    words = order.split()
    out = [f"{order} {HUGE}"]
    for i, w in enumerate(words):
        if re.search(r"\d", w):
            out.append(" ".join([*words[:i], re.sub(r"\d+", HUGE, w), *words[i + 1:]]))
        elif i:
            out.append(" ".join([*words[:i], HUGE, *words[i + 1:]]))
    return out


@pytest.mark.parametrize(("system", "scenario"), CASES)
def test_huge_numbers_in_legal_orders_are_refused_cleanly(system: str, scenario: str) -> None:
    rules = get_ruleset(system)
    state = rules.setup(scenario, {}, Rng(seed_from_number(1)))
    seats = [s.id for s in rules.seats(state)]
    tried = 0
    for seat in [*seats, UMPIRE]:
        try:
            legal = legal_texts(rules, state, seat)
        except GameError:
            continue
        for order in legal[:40]:
            for text in hostile_variants(order):
                trial = copy.deepcopy(state)
                with contextlib.suppress(GameError):  # a clear refusal is fine; anything else fails the test
                    rules.apply(trial, seat, read_order(rules, trial, seat, text), Rng(seed_from_number(2)))
                tried += 1
    assert tried or not any(legal_texts(rules, state, s) for s in seats)
