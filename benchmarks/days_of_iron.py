"""Days of Iron in long games: per-order cost, board render and snapshot size at 100 vs 3,000 orders.

    .venv/bin/python benchmarks/days_of_iron.py [--orders 3000] [--window 50] [--renders 7]

Two scripted games are played, each far past any real battle's length:

* battle: every turn one French command gets a new General by field promotion (14.3) and loses
  him again, and the turn runs through its eight `next`s;
* set-up: the French hide a unit and cancel the sealed record, again and again, before `ready`.

At order 100 and at order ``--orders`` the benchmark times ``--window`` orders the way the table
service gives each one (decode the JSON snapshot, parse, apply, encode it again) and ``--renders``
spectator boards (``view`` + ``render_png``), and reports the medians and the snapshot size.
The ratio late/early is the point: state and board must cost the same however long a game runs
(issue 11; target: every "now" ratio under 1.5). The baseline, run in the same process on the
same script, is the rule system as it was before issue 11 (``BeforeIssue11``: a promotion
appended a new successor unit each time, a cancelled record stayed in the state). PASS/MISS is
printed; the exit code is always 0 (a benchmark is not a test).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its own name would shadow the
# ``render`` package: put the project root first instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from games.core.rng import Rng, seed_from_number  # noqa: E402
from games.core.ruleset import Event, Order, public  # noqa: E402
from games.days_of_iron import data as rec  # noqa: E402
from games.days_of_iron.orders import Cancel, DoiOrder, Promote  # noqa: E402
from games.days_of_iron.ruleset import DaysOfIron  # noqa: E402
from games.days_of_iron.state import INITIATIVE, ON_TABLE, State, Unit  # noqa: E402
from render import render_png  # noqa: E402

TARGET_RATIO = 1.5
Script = Callable[[DaysOfIron, State], tuple[str, str]]  # the next (seat, order) from the state alone


class BeforeIssue11(DaysOfIron):
    """The baseline: field promotion and cancel as they were before issue 11 (a promotion appended
    a new successor unit each time, and any command whose General was lost could be filled again;
    a cancelled record stayed in the state)."""

    def parse_order(self, state: State, seat: str, text: str) -> DoiOrder:
        verb, _, command_id = text.partition(" ")
        if verb == "promote":  # the script names the command by id; its checks were the old ones
            return Promote(command_id)
        return super().parse_order(state, seat, text)

    def apply(self, state: State, seat: str, order: Order, rng: Rng) -> list[Event]:
        match order:
            case Promote(unit=command_id):
                return _promote_appending(state, state.unit(command_id), rng)
            case Cancel(number=number):
                self.parse_order(state, seat, order.text)
                return _cancel_keeping(state, number)
        return super().apply(state, seat, order, rng)


def _promote_appending(state: State, lost: Unit, rng: Rng) -> list[Event]:
    roll = rng.die(6)
    quality = next(q for q, faces in rec.rules().staff_table("promotion").items() if roll in faces)
    n = sum(1 for u in state.units if u.id.startswith(f"{lost.id}-successor")) + 1
    state.units.append(Unit(f"{lost.id}-successor" + (f"-{n}" if n > 1 else ""), f"{lost.name}'s successor",
                            lost.side, lost.brigade, "general", rank=lost.rank, quality=quality, roll=roll,
                            lost_turn=state.turn))
    return [public(f"Field promotion (14.3) for {lost.name}: {roll} = {quality.capitalize()}.", reveals=True)]


def _cancel_keeping(state: State, number: int) -> list[Event]:
    record = next(r for r in state.sealed if r.number == number)
    record.cancelled = True
    for uid in record.units:
        state.unit(uid).status = ON_TABLE
    return [public(f"Record #{record.number} cancelled.")]


def battle(rules: DaysOfIron, state: State) -> tuple[str, str]:
    """The next order of the battle: staff, ready, then turns in which Doëns' command gets a new
    General by field promotion in the Morale phase (from turn 2) and loses him in the Shooting phase."""
    for side in state.sides:
        if not side.ready:
            return side.id, "ready" if side.staff_rolled else "staff"
    if state.phase == INITIATIVE:
        return "french", "initiative"
    command = next(u for u in state.units if u.name == "Gen. Doëns")
    holder = [u.id for u in state.units if u.id.startswith(command.id) and u.status == ON_TABLE]
    if state.step_side == 0 and state.step == 0 and not holder:
        return "french", f"promote {command.id}"
    if state.step_side == 0 and state.step == 1 and holder:
        return "french", f"killed {holder[-1]}"
    return rules.to_act(state)[0], "next"


def set_up(rules: DaysOfIron, state: State) -> tuple[str, str]:
    """The next order of an endless set-up: hide a unit, or cancel its record."""
    live = [r for r in state.sealed if not r.cancelled]
    return ("french", f"cancel {live[-1].number}") if live else ("french", "hide 2e de Ligne at the wood")


@dataclass
class Point:
    orders: int
    state_kb: float
    order_ms: float
    board_ms: float


def measure(rules: DaysOfIron, script: Script, checkpoints: tuple[int, int], window: int, renders: int) -> list[Point]:
    """Play ``script``; at each checkpoint time ``window`` orders (snapshot round trip) and boards."""
    rng = Rng(seed_from_number(1))
    state = rules.setup("meeting", {}, rng)
    render_png(rules.view(state, None))  # the first board draws and caches the table's background
    points: list[Point] = []
    given = 0
    for mark in checkpoints:
        while given < mark:
            seat, text = script(rules, state)
            rules.apply(state, seat, rules.parse_order(state, seat, text), rng)
            given += 1
        snapshot = json.dumps(rules.encode(state))
        size = len(snapshot)
        boards = []
        for _ in range(renders):
            t = time.perf_counter()
            render_png(rules.view(state, None))
            boards.append(time.perf_counter() - t)
        costs = []
        for _ in range(window):
            seat, text = script(rules, state)
            t = time.perf_counter()
            state = rules.decode(json.loads(snapshot))  # what the service does for every order
            rules.apply(state, seat, rules.parse_order(state, seat, text), rng)
            snapshot = json.dumps(rules.encode(state))
            costs.append(time.perf_counter() - t)
            given += 1
        points.append(Point(mark, size / 1024, statistics.median(costs) * 1000, statistics.median(boards) * 1000))
    return points


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--orders", type=int, default=3000)
    ap.add_argument("--window", type=int, default=50, help="orders timed at each checkpoint")
    ap.add_argument("--renders", type=int, default=7, help="boards timed at each checkpoint")
    args = ap.parse_args()
    checkpoints = (100, args.orders)
    print(f"Days of Iron at {checkpoints[0]} vs {checkpoints[1]} orders: snapshot size, per-order cost (decode + "
          "apply + encode, median) and spectator board (view + render_png, median)")
    print(f"{'game':8} {'rules':16} {'orders':>6} {'state KB':>9} {'order ms':>9} {'board ms':>9}")
    verdicts = []
    for name, script in (("battle", battle), ("set-up", set_up)):
        for label, rules in (("now", DaysOfIron()), ("before issue 11", BeforeIssue11())):
            early, late = measure(rules, script, checkpoints, args.window, args.renders)
            for p in (early, late):
                print(f"{name:8} {label:16} {p.orders:6d} {p.state_kb:9.1f} {p.order_ms:9.3f} {p.board_ms:9.2f}")
            ratios = (late.state_kb / early.state_kb, late.order_ms / early.order_ms, late.board_ms / early.board_ms)
            print(f"{name:8} {label:16} {'ratio':>6} {ratios[0]:8.2f}x {ratios[1]:8.2f}x {ratios[2]:8.2f}x")
            if label == "now":
                verdicts.append((name, ratios))
    print()
    for name, ratios in verdicts:
        ok = max(ratios) < TARGET_RATIO
        print(f"{'PASS' if ok else 'MISS'}  {name}: {checkpoints[1]}/{checkpoints[0]}-order ratios (size, order, board) "
              f"{', '.join(f'{r:.2f}' for r in ratios)} all < {TARGET_RATIO}")
    load, cpus = os.getloadavg()[0], os.cpu_count() or 1
    print(f"\nload average {load:.1f} on {cpus} CPUs" + ("  (busy machine: timings are inflated, run again when idle)" if load > cpus * 0.75 else ""))


if __name__ == "__main__":
    main()
