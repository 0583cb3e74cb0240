"""The measured-table console script (tests/scripts/days_of_iron/measured.txt) plays a meeting
engagement to its result through the real table service: units set out, moved, wheeled, formed,
measured and firing simultaneously; lines marked ! must fail; the hidden unit never reaches the
Prussians or the channel before the game's end."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.console import run_script

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "scripts" / "days_of_iron" / "measured.txt"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_script(SCRIPT, *args, seed=1)


def test_measured_meeting_plays_to_a_result() -> None:
    done = run()
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    out = done.stdout
    assert "The units are set out in column in their deployment zones" in out
    assert "77th Infantry will be set out in march column (12.1, 16.2)." in out  # it force marches in turn 1
    assert ("`77th Infantry form line`: units are set out in column (16.2): before the battle only `UNIT form march` "
            "(march column, 12.1) or `UNIT form column`") in out
    assert '77th Infantry moves 12" (forced march): it costs 12", 0" left this turn.' in out
    assert "77th Infantry is disordered by its forced march (17.4.5)." in out
    assert '39th Fusiliers moves 4" and wheels left 20°: it costs 6.79", 1.21" left this turn.' in out
    assert "40e de Ligne forms line (0\" left this turn)." in out  # the line's 6" less 4" moved and 4" the change (17.4.3)  # set out with room for its line (16.2)
    assert '77th Infantry to 24e de Ligne: 14.32" edge to edge' in out  # its march column 2" wide
    assert "Preview of `24e-ligne move 8`" in out
    assert '24e de Ligne fire at 77th Infantry: 6.71" (effective), 12 x 1d6' in out
    assert "40e de Ligne would be endangered: it stands between 7e Batterie (4-pdr) and 77th Infantry (17.3.4)" in out
    assert "+1 each for a dense target = 5 H on a dense target" in out  # the 77th in march column (13.3)
    assert "77th Infantry loses 5 stands (7/12 left)." in out
    assert "**Game over.**" in out and "Points (18.2)" in out


def test_the_hidden_unit_stays_private_until_the_enemy_sees_it() -> None:
    """16.4: hidden troops "are placed on the table when they ... become visible to enemy units": the
    10e Chasseurs, hidden in the open at the French baseline, are placed when the battle begins (the
    Prussians see them, 16.3); nothing before that names them to anyone but the French."""
    done = run("--json")
    assert done.returncode == 0, done.stderr
    records: list[dict[str, Any]] = [json.loads(line) for line in done.stdout.splitlines()]
    seen = next(i for i, r in enumerate(records)
                if r["kind"] == "message" and "10e Chasseurs à pied is seen by" in r.get("text", ""))
    before = records[:seen]
    assert not any("10e Chasseurs" in r.get("text", "") for r in before
                   if r["kind"] == "message" and r.get("to") in (None, "@bob"))
    assert "The French reveal 10e Chasseurs à pied: record #1" in records[seen]["text"]
    assert records[-1]["kind"] == "done" and records[-1]["state"] == "over"


def played(name: str) -> str:
    done = run_script(ROOT / "tests" / "scripts" / "days_of_iron" / name, seed=1)
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    return done.stdout


def test_outpost_plays_charges_and_a_close_assault_to_a_result() -> None:
    out = played("outpost-measured.txt")
    # 17.2.4: infantry cannot charge mounted troops; the Hussards' charge from 4" catches the Jäger (17.2.3)
    assert "`5th Jäger charge 3e Hussards`: infantry cannot charge mounted troops; 3e Hussards is cavalry (17.2.4)." in out
    assert "5th Jäger is caught (4\" from 3e Hussards, within 6\"): no Being Charged test" in out
    # the 1st Impulse goes halfway (17.2.3), the 2nd into contact
    assert "1st Impulse: 1.93\" (2.05\" short)" in out
    assert "3e Hussards: Charge Home test (Morale test (house), class-2): 1d6 = 5: PASS. 2nd Impulse 2.39\": in contact with 5th Jäger" in out
    assert "**Close assault** (17.5): 5th Jäger 3+3 = 6; 3e Hussards 2+2+1 charging = 5: 5th Jäger win by 1" in out
    # won by 1: the house results sheet's first row, the loser falls back disordered and the winner holds
    assert "Close assault results (house): 3e Hussards fall back 3\" disordered, 5th Jäger hold (17.5.1)." in out
    assert "3e Hussards falls back 3\" from 5th Jäger and is disordered (17.5.1)." in out
    # 4 of 6 stands left and not routing: no points lost on either side, a draw (18.2)
    assert "**Game over.**" in out and "French: lost 0 of 268 points." in out and "Draw on points lost" in out


def test_spicheren_brings_an_off_board_brigade_on_and_ends_on_objectives() -> None:
    out = played("spicheren-measured.txt")
    assert "**Dust on the horizon at Forbach road!**" in out
    # declared in the Morale phase, it comes on at the entry point when the French part of the Movement phase begins
    # (the 2e de Ligne, set out at the French left, stands on the road's mouth: they come on 2" along the edge)
    assert ("**Arrival** (17.2.1): 24e de Ligne, 40e de Ligne, Gen. Micheler come on at Forbach road (0\", 42\") "
            "in column, facing into the table") in out
    assert "2e de Ligne stands at Forbach road, so they come on at the nearest clear place along the table edge" in out
    assert '24e de Ligne moves 6": it costs 6", 2" left this turn.' in out  # the arrived brigade moves
    # objectives with a point are held from the table (18.2): the hand order is refused, the 77th on the hill hold it
    assert "`objective Rotherberg prussian`: Rotherberg is decided on the table" in out
    assert "Objective Rotherberg is now held by the Prussians: 77th Infantry stands 2.00\" from it (18.2)." in out
    assert "**Game over.** Winner: French." in out and "Rotherberg (wanted by the Prussians) held by the Prussians" in out
