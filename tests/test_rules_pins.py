"""A change that alters how an old game replays must come with a new rules version (tests/rules_pins.py
says how the pins are made and recorded)."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.ruleset import get_ruleset
from tests.rules_pins import cases, load_pins, replay

PINNED: dict[str, Any] = load_pins()
RECORD = "record the pins again: .venv/bin/python -m tests.rules_pins --record"


def test_every_case_is_pinned_and_no_pin_is_stale() -> None:
    keys = {f"{system}/{scenario}" for system, scenario in cases()}
    assert keys - PINNED.keys() == set(), f"cases without a pin: {RECORD}"
    assert PINNED.keys() - keys == set(), f"pins of cases that are gone: {RECORD}"


@pytest.mark.parametrize(("system", "scenario"), cases())
def test_the_pinned_log_replays_as_recorded_under_the_same_rules_version(system: str, scenario: str) -> None:
    pin = PINNED.get(f"{system}/{scenario}")
    if pin is None:
        pytest.fail(f"{system}/{scenario} has no pin: {RECORD}")
    rules = get_ruleset(system)
    if pin["rules_version"] != rules.rules_version:
        pytest.fail(f"{system} is at rules version {rules.rules_version}, the pin at {pin['rules_version']}: {RECORD}")
    got = replay(rules, system, scenario, pin["log"])
    for at, (want, have) in enumerate(zip(pin["digests"], got, strict=True)):
        seat, text = pin["log"][at]
        assert have == want, (
            f"{system}/{scenario}: order {at + 1} ({seat}: {text!r}) gives a different result than under rules "
            f"version {rules.rules_version} ({have}). Old games of {system} would no longer replay or verify: "
            f"give it a new rules_version (games/.../ruleset.py), then {RECORD}")
