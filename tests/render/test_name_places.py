"""Table name placement (render/labels.py) works out each candidate place's fixed costs (against the
bases and the table's edges) once per picture and looks before it sums (``_Places``): the places it
gives must be the ones it gave before, to the bit. ``name_places.json`` holds the name places of
every table scenario's pinned log (tests/<system>/rules_pins.json), every ``EVERY``-th order,
placed from scratch and placed after the previous picture (names that did not move keep their
place, ``NamePlaces``). First recorded with the code before that cache (commit 04acbb7), which the
cached code matched to the bit; recorded again when Days of Iron's rules version 3 changed its
pinned logs. When placement (or a pinned log) is meant to change, record again:

    .venv/bin/python -m tests.render.test_name_places --record
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.rooms.common import fold
from games.core.ruleset import get_ruleset
from render.board import Renderer
from render.counters import Look, name_look, table_name_sprite
from render.labels import Placed
from tests.rules_pins import cases, load_pins, seed_of

RECORDED = Path(__file__).with_name("name_places.json")
EVERY = 25
TABLES = ("days-of-iron", "oak-and-iron")  # the systems whose boards are tables


def _places(names: dict[str, Placed]) -> dict[str, Any]:
    return {k: [list(p.box), None if p.leader is None else [list(p.leader[0]), list(p.leader[1])]]
            for k, p in sorted(names.items())}


def places_of(system: str, scenario: str) -> list[dict[str, Any]]:
    """Each sampled step's names, from scratch and after the previous sampled picture."""
    rules = get_ruleset(system)
    log = load_pins()[f"{system}/{scenario}"]["log"]
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


def test_a_name_sprite_depends_on_nothing_its_cache_key_leaves_out() -> None:
    """``name_look`` (the name sprite's cache key) sets some of a look's fields to fixed values; a
    sprite drawn from a look differing in any of them must be the same picture, or a cached one
    would show the wrong name row."""
    look = Look(board_kind="table", scale=12.0, kind="infantry", label="2nd Light", colour=(40, 80, 160), facing=90.0,
                damage=1, damage_max=4, damage_text="", markers=("halted",), face_down=False, highlight=False,
                size=(3.0, 1.0), text_px=14.0)
    other: dict[str, Any] = {"board_kind": "hex", "kind": "cavalry", "colour": (200, 10, 10), "facing": 45.0, "face_down": True,
             "highlight": True, "size": (1.5, 2.0), "room": 80.0, "edge": 5.0, "edge_side": 1}
    kept: dict[str, Any] = {"scale": 14.0, "label": "3rd Rifles", "damage": 2, "damage_max": 5, "damage_text": "2 hits",
            "markers": (), "text_px": 16.0, "ghost": True}  # each changes the name row
    changed = other | kept
    assert changed.keys() == {f.name for f in dataclasses.fields(Look)}
    left_out = {f for f, v in changed.items() if name_look(dataclasses.replace(look, **{f: v})) == name_look(look)}
    assert left_out == other.keys()
    want = table_name_sprite(look)
    for field, value in other.items():
        got = table_name_sprite(dataclasses.replace(look, **{field: value}))
        assert (got.image.tobytes(), got.ax, got.ay, got.label_box) == (want.image.tobytes(), want.ax, want.ay, want.label_box), field


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    RECORDED.write_text(json.dumps({f"{s}/{sc}": places_of(s, sc) for s, sc in table_cases()}) + "\n")
    print(f"recorded {RECORDED}")
