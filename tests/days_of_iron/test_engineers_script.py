"""The engineers' console script (tests/scripts/days_of_iron/engineers.txt): the Génie detachment
demolishes the wooden bridge of the 'bridges' scenario through the real table service (book 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.console import run_script

pytestmark = pytest.mark.slow  # a whole game through the console: left out of tasks.py test --fast

SCRIPT = Path(__file__).resolve().parents[2] / "tests" / "scripts" / "days_of_iron" / "engineers.txt"


def test_the_genie_demolishes_the_wooden_bridge_in_three_quiet_movement_phases() -> None:
    done = run_script(SCRIPT, seed=1)
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    out = done.stdout
    for phase in ("1 of 3", "2 of 3"):
        assert f"works at demolishing Wooden bridge, a wooden bridge: Movement phase {phase}" in out
    assert "1d6 = 6: a 1-inch span of the bridge is destroyed" in out
    assert "Engineers at work: Génie detachment demolishing Wooden bridge 2/3" in out
    assert "Bridges tried (one attempt each, 11): Wooden bridge span destroyed." in out
    assert "only one attempt may be made to destroy a bridge (11)" in out
