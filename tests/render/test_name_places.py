"""Table name placement (render/labels.py) works out each candidate place's fixed costs (against the
bases and the table's edges) once per picture and looks before it sums (``_Places``): the places it
gives must be the ones it gave before, to the bit. ``name_places.json`` holds the name places of
every table scenario's pinned log (tests/rules_pins.json), every ``EVERY``-th order, placed from
scratch and placed after the previous picture (names that did not move keep their place,
``NamePlaces``), recorded with the code before that cache (commit 04acbb7). When placement is
meant to change, record again:

    .venv/bin/python -m tests.render.test_name_places --record
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.rooms.common import fold
from games.core.ruleset import get_ruleset
from render.board import Renderer
from render.labels import Placed
from tests.rules_pins import PINS, cases, seed_of

RECORDED = Path(__file__).with_name("name_places.json")
EVERY = 25
TABLES = ("days-of-iron", "oak-and-iron")  # the systems whose boards are tables


def _places(names: dict[str, Placed]) -> dict[str, Any]:
    return {k: [list(p.box), None if p.leader is None else [list(p.leader[0]), list(p.leader[1])]]
            for k, p in sorted(names.items())}


def places_of(system: str, scenario: str) -> list[dict[str, Any]]:
    """Each sampled step's names, from scratch and after the previous sampled picture."""
    rules = get_ruleset(system)
    log = json.loads(PINS.read_text())[f"{system}/{scenario}"]["log"]
    renderer = Renderer()
    before: dict[str, Placed] | None = None
    out = []
    for step, (state, _, _) in enumerate(fold(rules, seed_of(system, scenario), scenario, {}, [(s, t) for s, t in log])):
        if step % EVERY:
            continue
        view = rules.view(state, None)
        scratch = renderer.table_layout(view).names
        after = renderer.table_layout(view, before=before).names
        before = after
        out.append({"step": step, "scratch": _places(scratch), "after": _places(after)})
    return out


def table_cases() -> list[tuple[str, str]]:
    return [(system, scenario) for system, scenario in cases() if system in TABLES]


@pytest.mark.slow
@pytest.mark.parametrize(("system", "scenario"), table_cases())
def test_names_go_where_they_went_before_the_cache(system: str, scenario: str) -> None:
    want = json.loads(RECORDED.read_text())[f"{system}/{scenario}"]
    have = places_of(system, scenario)
    assert len(have) == len(want)
    for a, b in zip(have, want, strict=True):
        assert a["scratch"] == b["scratch"], f"{system}/{scenario} step {b['step']}: names placed from scratch moved"
        assert a["after"] == b["after"], f"{system}/{scenario} step {b['step']}: names placed after the picture before moved"


def test_the_recording_covers_crowded_pictures_and_kept_names() -> None:
    """The recording is worth comparing against: pictures with many names, names with leaders (no
    clear place by the base), and names that kept their place (the ``before`` path differs)."""
    recorded = json.loads(RECORDED.read_text())
    assert {f"{s}/{sc}" for s, sc in table_cases()} == recorded.keys()
    steps = [step for case in recorded.values() for step in case]
    assert max(len(step["scratch"]) for step in steps) >= 25
    assert sum(1 for step in steps for _, leader in step["scratch"].values() if leader is not None) >= 20
    assert sum(1 for step in steps if step["after"] != step["scratch"]) >= 5


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    RECORDED.write_text(json.dumps({f"{s}/{sc}": places_of(s, sc) for s, sc in table_cases()}) + "\n")
    print(f"recorded {RECORDED}")
