"""The end of the battle on the measured table (board=measured): surrender (18.1) in its window,
the 18.2 result counted from the table with its breakdown, objectives held by the units standing
on them, off-board arrivals (16.5, 17.2.1) at the scenario's entry points, and when a game may end
(18). Hidden and off-board units never reach another side's view or a public event."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.core.errors import GameError
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import UMPIRE, Event, legal_texts
from games.days_of_iron import data as rec
from games.days_of_iron.rules import deployment_16, shooting_17_3
from games.days_of_iron.rules.formations_12 import base, on_table
from games.days_of_iron.rules.victory_18 import breakdown_line, holder
from games.days_of_iron.state import State, Unit
from tests.console import run_script
from tests.days_of_iron.helpers import RS, copse, finish_turn, new_game, order, ready_both, start_turn, unit

SCRIPT = Path(__file__).resolve().parents[2] / "tests" / "scripts" / "days_of_iron" / "arrivals.txt"


def playing(scenario: str = "outpost", *, french_first: bool = True, **options: str) -> tuple[State, Rng]:
    state, rng = new_game(scenario, 1, **{"scouting": "no", **options})
    ready_both(state, rng)
    start_turn(state, french_first=french_first)
    return state, rng


def to_step(state: State, rng: Rng, step: str, side: int = 0) -> None:
    """Say `next` (as the umpire) until the named phase and part of it (0: initiative side's)."""
    steps = ("Morale", "Shooting", "Movement", "Close Assault")
    while not (state.phase == "turn" and steps[state.step] == step and state.step_side == side):
        order(state, UMPIRE, "next", rng)


def refused(state: State, seat: str, text: str) -> str:
    with pytest.raises(GameError) as err:
        RS.parse_order(state, seat, text)
    return err.value.message + " " + (err.value.hint or "")


def beside(mover: Unit, target: Unit) -> None:
    """Stand ``mover`` face to face with ``target``, base to base (a melee's aftermath)."""
    front = base(target).edge_midpoint("bow")
    mover.facing = (target.facing + 180.0) % 360.0
    depth = base(mover).length
    fwd = base(target).forward
    mover.x, mover.y = front[0] + fwd[0] * depth / 2, front[1] + fwd[1] * depth / 2


# --- 18.1 surrender --------------------------------------------------------------------------------


def test_a_routing_unit_surrenders_at_the_end_of_the_close_assault_phase() -> None:
    state, rng = playing()
    hussars = unit(state, "3e Hussards")
    hussars.status = "routing"
    assert "end of the Close Assault phase" in refused(state, "french", "3e Hussards surrender")
    hussars.status = "on table"  # (a routing unit would rout on in the Movement phase, 17.4.14)
    to_step(state, rng, "Close Assault")
    hussars.status = "routing"
    assert "3e-hussards surrender" in legal_texts(RS, state, "french")
    events = order(state, "french", "3e Hussards surrender", rng)
    assert hussars.status == "surrendered" and not on_table(hussars)
    assert "3e Hussards surrenders (18.1; routing)" in events[0].text and "full 36 points" in events[0].text
    assert "full: 3e Hussards 36 (surrendered)" in breakdown_line(state, "french")


def test_an_attached_general_is_captured_with_the_unit_that_surrenders() -> None:
    state, rng = playing()
    hussars, general = unit(state, "3e Hussards"), unit(state, "Septeuil")
    to_step(state, rng, "Close Assault")
    hussars.status = "routing"
    general.attached = hussars.id
    events = order(state, "french", "3e Hussards surrender", rng)
    assert general.status == "captured" and not general.attached and general.lost_turn == state.turn
    assert "Gen. de Septeuil, attached to it, is captured with it (14.5" in events[0].text
    assert "full: Gen. de Septeuil 30 (captured), 3e Hussards 36 (surrendered)." in breakdown_line(state, "french")


def test_surrender_unit_reads_the_same_on_the_measured_table() -> None:
    state, rng = playing()
    to_step(state, rng, "Close Assault")
    unit(state, "3e Hussards").status = "routing"
    parsed = RS.parse_order(state, "french", "surrender 3e Hussards")
    assert parsed.text == "3e-hussards surrender"


def test_only_affected_own_units_surrender_in_their_own_part() -> None:
    state, rng = playing()
    to_step(state, rng, "Close Assault")
    assert "not affected" in refused(state, "french", "1er Tirailleurs surrender")
    assert "routing, contact, under-half" in refused(state, "french", "1er Tirailleurs surrender")
    assert not any(o.endswith(" surrender") for o in legal_texts(RS, state, "french"))
    unit(state, "7th Grenadiers").status = "routing"
    assert "only its own side" in refused(state, "french", "7th Grenadiers surrender")
    assert "act now" in refused(state, "prussian", "7th Grenadiers surrender")  # the French part of the phase
    assert "Generals are captured" in refused(state, "french", "Pelletier surrender")
    order(state, "french", "next", rng)
    assert "7th-grenadiers surrender" in legal_texts(RS, state, "prussian")


def test_in_contact_and_under_half_are_affected_and_disorder_counts() -> None:
    state, rng = playing()
    turcos, grenadiers, chasseurs = unit(state, "1er Tirailleurs"), unit(state, "7th Grenadiers"), unit(state, "16e Chasseurs")
    to_step(state, rng, "Close Assault")
    beside(turcos, grenadiers)
    chasseurs.stands = 3  # 3/8: under half
    unit(state, "9e Batterie").order = "shaken"
    legal = legal_texts(RS, state, "french")
    assert {"1er-turcos surrender", "16e-chasseurs surrender", "9e-batterie surrender"} <= set(legal)
    events = order(state, "french", "1er Tirailleurs surrender", rng)
    assert "(18.1; contact)" in events[0].text


def test_hand_records_of_losses_are_for_board_tape_only() -> None:
    state, rng = playing()
    assert "decided on the measured table" in refused(state, "french", "loss 1er Tirailleurs 2")
    assert "decided on the measured table" in refused(state, "french", "destroyed 3e Hussards")
    assert "decided on the measured table" in refused(state, "french", "routed-off 3e Hussards")
    order(state, UMPIRE, "loss 1er Tirailleurs 2", rng)  # the umpire may correct the table
    assert unit(state, "1er Tirailleurs").stands == 10
    tape, rng2 = playing(board="tape")
    order(tape, "french", "loss 1er Tirailleurs 2", rng2)
    order(tape, "french", "surrender 3e Hussards", rng2)  # recorded any time on the tape board
    assert unit(tape, "3e Hussards").status == "surrendered"
    assert "board=tape" in refused(tape, "french", "3e Hussards surrender")


# --- 18.2 the result counted from the table --------------------------------------------------------


def test_the_result_counts_full_and_half_from_the_table_and_names_each_unit() -> None:
    state, rng = playing()
    unit(state, "3e Hussards").status = "surrendered"
    unit(state, "16e Chasseurs").stands = 3  # under half: half points
    unit(state, "7th Grenadiers").status = "routing"  # routing: half
    unit(state, "5th Jäger").status = "shattered"
    events = order(state, UMPIRE, "end", rng)
    outcome = RS.outcome(state)
    assert outcome is not None and "The battle ends" in events[0].text
    french = next(d for d in outcome.details if d.startswith("French:"))
    prussian = next(d for d in outcome.details if d.startswith("Prussians:"))
    assert "full: 3e Hussards 36 (surrendered)" in french
    assert "half: 16e Chasseurs à pied 16 (under half strength, 3/8)" in french
    assert "full: 5th Jäger 32 (shattered)" in prussian and "half: 7th Grenadiers 24 (routing)" in prussian
    assert any(d.startswith("Points (18.2):") and "scaled to 400 points" in d for d in outcome.details)


def test_nothing_lost_says_so() -> None:
    state, rng = playing()
    order(state, UMPIRE, "end", rng)
    outcome = RS.outcome(state)
    assert outcome is not None
    assert "French: lost 0 of 268 points." in outcome.details


# --- objectives held from the table ---------------------------------------------------------------


def test_objectives_with_points_are_held_by_the_nearest_good_order_unit() -> None:
    state, rng = playing("spicheren")
    rotherberg = next(o for o in state.objectives if o.name == "Rotherberg")
    assert rotherberg.held_by == "french"
    assert "decided on the table" in refused(state, "french", "objective Rotherberg prussian")
    grenadiers = unit(state, "74th Infantry")
    grenadiers.x, grenadiers.y = 37.0, 18.0  # on the hill's point
    side, who, gap = holder(state, (37.0, 18.0))
    assert (side, who, gap) == ("prussian", grenadiers, 0.0)
    grenadiers.order = "disordered"  # not in good order: holds nothing
    assert holder(state, (37.0, 18.0))[0] == ""
    grenadiers.order = "good"
    events = finish_turn(state, rng)
    assert rotherberg.held_by == "prussian"
    assert any("Objective Rotherberg is now held by the Prussians: 74th Infantry stands 0.00\"" in e.text for e in events)
    assert 'Rotherberg at (37", 18") - Prussians' in "\n".join(RS.view(state, None).status)  # where to stand, who holds it


def test_objectives_without_points_keep_the_hand_order() -> None:
    state, rng = playing("spicheren", board="tape")
    order(state, "french", "objective Rotherberg prussian", rng)
    assert next(o for o in state.objectives if o.name == "Rotherberg").held_by == "prussian"
    assert "Objectives: Rotherberg - Prussians;" in "\n".join(RS.view(state, None).status)


# --- 18: when a game may end ----------------------------------------------------------------------


def test_a_game_ends_only_after_the_non_initiative_players_close_assault() -> None:
    state, rng = playing()
    for step in ("Morale", "Shooting", "Movement", "Close Assault"):
        to_step(state, rng, step, 1)
        assert "after a turn's Close Assault phase" in refused(state, "prussian", "end")
        assert "end" not in legal_texts(RS, state, "prussian")
    order(state, "prussian", "next", rng)  # the non-initiative side ends its Close Assault phase
    assert state.phase == "initiative"
    assert "end" in legal_texts(RS, state, "french") and "end" in legal_texts(RS, state, "prussian")
    order(state, "french", "end", rng)
    events: list[Event] = order(state, "prussian", "end", rng)
    assert RS.outcome(state) is not None and "Both players agreed" in events[0].text


# --- 16.5, 17.2.1 off-board units arriving at the scenario's entry points --------------------------


def held_off(seed: int = 1) -> tuple[State, Rng]:
    """The meeting engagement with the Prussian cavalry brigade off the table, the Prussians first."""
    state, rng = new_game("meeting", seed=seed, scouting="no", turns="2")
    order(state, "prussian", "staff", rng)
    order(state, "prussian", "offboard Rheinbaben", rng)
    ready_both(state, rng)
    start_turn(state, french_first=False)
    return state, rng


def seen(state: State, seat: str | None) -> set[str]:
    return {c.id for c in RS.view(state, seat).counters}


BRIGADE = ("gen-von-rheinbaben", "2nd-hussars", "11th-uhlans")


@pytest.mark.slow
def test_arrival_is_declared_in_the_morale_phase_and_comes_on_in_the_movement_phase() -> None:
    state, rng = held_off()
    assert {"dust rheinbaben at Givonne road", "dust rheinbaben at baseline"} <= set(legal_texts(RS, state, "prussian"))
    events = order(state, "prussian", "dust Rheinbaben at givonne", rng)
    assert "Dust on the horizon at Givonne road!" in events[0].text
    # declared, not yet there: on nobody's board, not a target, not named to the French
    assert all(unit(state, u).status == "off board" and unit(state, u).entry == "Givonne road" for u in BRIGADE)
    for seat in (None, "french", "prussian"):
        assert not seen(state, seat) & set(BRIGADE)
    assert not any("hussars" in o or "uhlans" in o for o in legal_texts(RS, state, "french"))
    assert "already on its way" in refused(state, "prussian", "dust Rheinbaben")
    to_step(state, rng, "Shooting")
    assert not any("hussars" in o for o in legal_texts(RS, state, "french"))
    order(state, UMPIRE, "next", rng)
    events = order(state, UMPIRE, "next", rng)  # the Movement phase opens with the Prussians' part
    arrival = next(e for e in events if "**Arrival**" in e.text)
    # the 2nd Light Battery, set out at the right of the Prussians' second row, stands on the road's mouth
    assert arrival.public and "2nd Hussars, 11th Uhlans, Gen. von Rheinbaben come on at Givonne road (72\", 7\")" in arrival.text
    assert "2nd Light Battery (Krupp) stands at Givonne road, so they come on at the nearest clear place" in arrival.text
    hussars, uhlans, general = unit(state, "2nd Hussars"), unit(state, "11th Uhlans"), unit(state, "Rheinbaben")
    assert all(u.status == "on table" and u.formation == "column" and u.facing == 270.0 and not u.entry
               for u in (hussars, uhlans, general))
    assert hussars.x < uhlans.x < general.x and base(general).polygon()[0][0] <= 72.0 + 1e-9  # the lead deepest
    assert max(p[0] for p in base(general).polygon()) == pytest.approx(72.0)  # the last one's rear on the edge
    assert set(BRIGADE) <= seen(state, None) and set(BRIGADE) <= seen(state, "french")
    assert "2nd-hussars move 14" in legal_texts(RS, state, "prussian")  # it may move its whole allowance
    before = hussars.x
    order(state, "prussian", "2nd Hussars move 10", rng)
    assert hussars.x == pytest.approx(before - 10.0)


def test_the_other_side_comes_on_only_when_its_own_part_begins() -> None:
    state, rng = new_game("meeting", scouting="no")
    order(state, "french", "staff", rng)
    order(state, "french", "offboard Micheler", rng)
    ready_both(state, rng)
    start_turn(state, french_first=False)  # the Prussians act first in every phase
    order(state, "prussian", "next", rng)
    order(state, "french", "dust Micheler", rng)  # the first entry point: the Sedan road
    to_step(state, rng, "Movement", 0)
    assert unit(state, "24e de Ligne").status == "off board"
    events = order(state, "prussian", "next", rng)
    assert any("come on at Sedan road (0\", 42\")" in e.text for e in events)
    assert unit(state, "24e de Ligne").status == "on table" and unit(state, "24e de Ligne").facing == 90.0


def test_enemy_within_25_inches_of_the_entry_sends_them_to_their_own_edge() -> None:
    state, rng = held_off()
    order(state, "prussian", "dust Rheinbaben at Givonne road", rng)
    engineers = unit(state, "Génie")
    engineers.x, engineers.y = 50.0, 20.0  # a visible French unit near the Givonne road
    to_step(state, rng, "Movement")
    hussars = unit(state, "2nd Hussars")
    assert hussars.facing == 180.0 and hussars.x == pytest.approx(36.0)  # the middle of the Prussian edge
    engineers.status = "routing"  # a routing enemy does not block (16.5)
    state2, rng2 = held_off()
    order(state2, "prussian", "dust Rheinbaben at Givonne road", rng2)
    unit(state2, "Génie").x, unit(state2, "Génie").y, unit(state2, "Génie").status = 50.0, 20.0, "routing"
    to_step(state2, rng2, "Movement")
    assert unit(state2, "2nd Hussars").facing == 270.0


def test_arrival_refusals_say_what_is_wrong() -> None:
    state, rng = held_off()
    assert "No entry point called `the moon`" in refused(state, "prussian", "dust Rheinbaben at the moon")
    assert "Rheinbaben cavalry" not in refused(state, "french", "dust Rheinbaben")  # the enemy's brigades are not listed
    order(state, UMPIRE, "next", rng)
    order(state, UMPIRE, "next", rng)
    assert "announced in the Morale phase" in refused(state, "prussian", "dust Rheinbaben")


def test_hidden_and_off_board_units_never_reach_the_enemy_or_the_channel() -> None:
    """Until it comes on, no public event, no French or spectator board and no French candidate
    shows an off-board unit (the order of battle and its Generals' staff quality are public)."""
    state, rng = held_off(seed=5)
    names = [unit(state, u).name for u in BRIGADE] + list(BRIGADE)
    public_before: list[str] = []
    for text in ("next", "next", "next", "next"):  # Morale (no dust yet) and Shooting
        public_before += [e.text for e in order(state, UMPIRE, text, rng) if e.public]
    for seat in (None, "french"):
        view = RS.view(state, seat)
        assert not seen(state, seat) & set(BRIGADE) and not any("Rheinbaben" in t for t in view.private_text)
        assert not any("off board" in line or "Off-board" in line for line in view.status)
    assert not any(n in t for n in names for t in public_before)
    assert not any(n in o for n in BRIGADE for o in legal_texts(RS, state, "french"))
    assert "not on the table" in refused(state, "french", "measure 2e de Ligne to 2nd Hussars")


# --- the console script: an arrival and a surrender to the computed result -------------------------


@pytest.mark.slow
def test_the_arrivals_script_plays_an_arrival_and_a_surrender_to_the_computed_result() -> None:
    done = run_script(SCRIPT)  # its own --seed line
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    out = done.stdout
    assert "`dust Rheinbaben at the moon`: No entry point called `the moon`. Known: Givonne road, baseline." in out
    assert "**Dust on the horizon at Givonne road!**" in out
    assert "`measure 2e de Ligne to 2nd Hussars`: 2nd Hussars is not on the table." in out  # declared, not yet there
    # (the 77th set out in march column, 6" deep, pushes the rows behind it back: the 2nd Light Battery no
    # longer stands on the entry point; test_set_out and test_measured_script see arrivals moved aside)
    assert ("**Arrival** (17.2.1): 2nd Hussars, 11th Uhlans, Gen. von Rheinbaben come on at Givonne road (72\", 6\") "
            "in column, facing into the table, and may move this phase.") in out
    assert "77th Infantry will be set out in march column (12.1, 16.2)." in out
    assert '2nd Hussars moves 10": it costs 10", 4" left this turn.' in out
    assert "`8th Jäger surrender`: 8th Jäger is not affected" in out
    assert "77th Infantry is disordered by its forced march (17.4.5)." in out
    assert "`end`: a game ends after a turn's Close Assault phase (18)." in out
    assert "24e de Ligne routs (beaten by 77th Infantry)" in out
    assert "`24e de Ligne surrender`: 24e de Ligne belongs to the French; only its own side may surrender it." in out
    assert "24e-ligne surrender" in out  # offered to the French by `?`
    assert "24e de Ligne surrenders (18.1; routing, contact): it leaves the table and counts its full 48 points lost" in out
    assert "**Game over.** Winner: nobody (a draw). Both players agreed to end the battle. Draw on points lost." in out
    assert "French: lost 48 of 644 points - full: 24e de Ligne 48 (surrendered)." in out
    assert "Points (18.2): the Prussians lost 48 points fewer: Draw (bands up to 150, 250, 400 for 800 points)." in out


@pytest.mark.slow
def test_the_arrivals_script_keeps_the_off_board_brigade_from_the_french_until_declared() -> None:
    done = run_script(SCRIPT, "--json")
    assert done.returncode == 0, done.stderr
    records: list[dict[str, Any]] = [json.loads(line) for line in done.stdout.splitlines()]
    declared = next(i for i, r in enumerate(records) if "Dust on the horizon" in r.get("text", ""))
    secret = ("Rheinbaben cavalry", "2nd Hussars", "11th Uhlans", "Off-board")
    for r in records[:declared]:
        if r["kind"] in ("message", "dm", "error") and r.get("to") not in ("@bob", "@umpy"):  # its side and the umpire
            assert not any(word in r.get("text", "") for word in secret), r
    arrived = next(i for i, r in enumerate(records) if "**Arrival**" in r.get("text", ""))
    between = [r for r in records[declared + 1:arrived] if r.get("to") == "@alice"]
    assert [r["text"] for r in between] == ["`measure 2e de Ligne to 2nd Hussars`: 2nd Hussars is not on the table."]


@pytest.mark.slow  # long random playouts: left out of `tasks.py test --fast`
@pytest.mark.parametrize("seed", [3, 11, 29])
def test_playouts_with_arrivals_and_surrenders_replay_and_never_show_off_board_units(seed: int) -> None:
    """Both sides hold a brigade off the table; whenever offered, a side declares it, surrenders an
    affected unit, charges or moves. No off-board unit is on another side's or a spectator's board,
    every offered order applies, and the log replays to the same state."""
    pick = random.Random(seed)
    options = {"turns": "3", "scouting": "no"}
    rng = Rng(seed_from_number(seed))
    state = RS.setup("meeting", options, rng)
    log: list[tuple[str, str]] = []

    def give(seat: str, text: str) -> None:
        RS.apply(state, seat, RS.parse_order(state, seat, text), rng)
        log.append((seat, text))

    for seat, text in (("french", "staff"), ("french", "offboard Micheler"), ("prussian", "staff"),
                       ("prussian", "offboard Rheinbaben"), ("french", "ready"), ("prussian", "ready")):
        give(seat, text)
    used: set[str] = set()
    for _ in range(800):
        if RS.outcome(state) is not None:
            break
        seat = RS.to_act(state)[0]
        legal = legal_texts(RS, state, seat)
        wanted = [o for o in legal if o.startswith("dust") or o.endswith(" surrender")
                  or o.split()[1:2] in (["move"], ["charge"])]
        text = pick.choice(wanted) if wanted and pick.random() < 0.7 else (
            "initiative" if "initiative" in legal else "next" if "next" in legal else pick.choice(legal))
        used.add("dust" if text.startswith("dust") else "surrender" if text.endswith(" surrender") else text.split()[0])
        give(seat, text)
        away = {u.id: u.side for u in state.units if u.status == "off board"}
        for viewer in (None, "french", "prussian"):
            assert not {c.id for c in RS.view(state, viewer).counters} & set(away)
    assert RS.outcome(state) is not None and "dust" in used
    rng2 = Rng(seed_from_number(seed))
    again = RS.setup("meeting", options, rng2)
    for seat, text in log:
        RS.apply(again, seat, RS.parse_order(again, seat, text), rng2)
    assert again == state


def test_a_hidden_unit_holds_no_objective_until_revealed() -> None:
    state, rng = new_game("spicheren", 1, scouting="no")
    order(state, "prussian", "hide 8th Jäger at 37 6", rng)
    ready_both(state, rng)
    copse(state, 37, 6)  # in woods no enemy sees it, so it stays hidden (16.3, 16.4)
    start_turn(state)
    jager = unit(state, "8th Jäger")
    jager.x, jager.y = 37.0, 18.0
    copse(state, 37, 18, 4)
    assert holder(state, (37.0, 18.0))[0] == ""
    finish_turn(state, rng)
    assert next(o for o in state.objectives if o.name == "Rotherberg").held_by == "french"


@pytest.mark.parametrize("scenario", ["meeting", "outpost", "spicheren"])
def test_every_scenario_gives_each_side_an_entry_point_clear_of_the_enemy_set_out(scenario: str) -> None:
    """The house entry points (16.5) are on a table edge and, with both armies as set out, more than
    25" from every enemy unit, so a brigade declared on turn 1 comes on there."""
    state, rng = new_game(scenario, 1, scouting="no")
    ready_both(state, rng)
    for side in state.sides:
        given = [e for e in rec.scenario(scenario).entries if e.side == side.id]
        assert given and all(e.source == "house" for e in given)
        for entry in given:
            probe = Unit("probe", "probe", side.id, "", "cavalry", stands=6, start_stands=6)
            probe.formation, probe.facing = "column", deployment_16.inward(state, entry.at)
            d = base(probe).length
            fwd = base(probe).forward
            probe.x, probe.y = entry.at[0] + fwd[0] * d / 2, entry.at[1] + fwd[1] * d / 2
            enemies = [u for u in state.units if u.side != side.id and on_table(u)]
            assert min(shooting_17_3.gap(probe, e) for e in enemies) > 25.0, (scenario, entry.name)
