"""A simple deterministic captain for Oak & Iron, used to play whole games in tests and to write
the console script of the quick-start game (``python -m tests.oak_and_iron.autoplay``).

It only ever chooses among orders the ruleset accepts; it closes with the enemy, brings a loaded
broadside to bear, reloads, rallies and fires whatever bears.
"""

from __future__ import annotations

import copy
import sys
from typing import Any

from games.core.errors import GameError
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import legal_texts
from games.oak_and_iron.measure import base_distance, in_broadside_path
from games.oak_and_iron.rules.activation_4 import acting_side, movers
from games.oak_and_iron.rules.fleet_battles_9 import squadron_seats
from games.oak_and_iron.ruleset import OakAndIron
from games.oak_and_iron.state import State

DRY = Rng(b"autoplay-dry-run-seed-0000000000")


def _try(rs: Any, state: State, seat: str, text: str) -> State | None:
    trial = copy.deepcopy(state)
    try:
        rs.apply(trial, seat, rs.parse_order(trial, seat, text), Rng(b"autoplay-dry-run-seed-0000000000"))
    except GameError:
        return None
    return trial


def _score(state: State, ship_id: str) -> float:
    ship = state.ship(ship_id)
    if not ship.on_table:
        return -1000.0
    enemies = [s for s in state.ships if s.on_table and s.controller != ship.controller and not s.out_of_action]
    if not enemies:
        return 0.0
    score = 0.0
    nearest = min(base_distance(ship.base, e.base) for e in enemies)
    score -= abs(nearest - 3.5)
    for side, loaded in (("port", not ship.reload_port), ("starboard", not ship.reload_starboard)):
        for e in enemies:
            if in_broadside_path(ship.base, side, e.base) and base_distance(ship.base, e.base) <= 12:
                score += 6.0 if loaded else 1.5
    margin = min(ship.x, ship.y, state.table_width - ship.x, state.table_height - ship.y)
    if margin < 4:
        score -= (4 - margin) * 3
    if ship.aground:
        score -= 8
    return score


def choose(rs: Any, state: State, seat: str) -> str:
    """The order this captain gives now."""
    legal = legal_texts(rs, state, seat)
    if not legal:
        raise AssertionError(f"no legal order for {seat} in {state.phase}")
    if state.phase == "setup":  # the ch. 7 set-up: attack, the first card offered, a middle spot
        if state.setup is not None and state.setup.step in ("place", "deploy"):
            spots = [o for o in legal if not o.startswith("terrain discard")] or legal
            return spots[len(spots) // 2]
        return legal[0]
    if state.phase == "select":
        return legal[(state.turn + (0 if seat == "a" else 1)) % len(legal)]
    if state.phase == "end":
        return next(o for o in legal if o.startswith("capture"))
    if state.phase == "attack":
        return _attack(rs, state, seat, legal)
    act = state.activation
    ship = state.ship(act.ship) if act.ship else None
    if ship is None or act.step != "moved":
        candidates = [o for o in legal if " move" in o]
        name = (ship.name if ship else candidates[0].split(" move")[0]) if candidates else ""
        if candidates:
            texts = [f"{name} move"] + [
                f"{name} move turn-{when} {side} {deg}" for when in ("start", "end") for side in ("port", "starboard") for deg in (15, 30, 45)
            ]
            best: tuple[float, str] | None = None
            for text in texts:
                trial = _try(rs, state, seat, text)
                if trial is None:
                    continue
                sid = next(s.id for s in trial.ships if s.name == name)
                score = _score(trial, sid)
                if best is None or score > best[0] + 1e-9:
                    best = (score, text)
            if best is not None:
                return best[1]
    for prefix in ("crew reload", "crew rally", "crew repair", "done"):
        for o in legal:
            if prefix in o:
                return o
    return legal[0]


def _attack(rs: Any, state: State, seat: str, legal: list[str]) -> str:
    broadsides = [o for o in legal if " broadside " in o]
    if broadsides:
        by_ship: dict[str, list[str]] = {}
        for o in broadsides:
            by_ship.setdefault(o.split(" broadside ")[0], []).append(o)
        _ship, orders = next(iter(by_ship.items()))
        port = [o for o in orders if " broadside port " in o]
        starboard = [o for o in orders if " broadside starboard " in o]
        if port and starboard:
            combined = port[0] + " and " + starboard[0].split(" broadside ")[1]
            if _try(rs, state, seat, combined) is not None:
                return combined
        return orders[0]
    for kind in (" close ", " partial "):
        for o in legal:
            if kind in o:
                return o
    return next(o for o in legal if o.endswith(" hold"))


def play(scenario: str = "quickstart", seed: int = 1, options: dict[str, str] | None = None, max_orders: int = 1500) -> tuple[State, list[tuple[str, str]]]:
    """Play a whole game; returns the final state and the (seat, order text) log."""
    state, log = play_with_probes(scenario, seed, options, max_orders, probes=False)
    return state, [(seat, text) for seat, text, _ in log]


def bad_orders(rs: Any, state: State, seat: str) -> list[str]:
    """Orders the book forbids right now, each shown to fail (for the script's ``!`` lines)."""
    out: list[str] = []
    if state.phase == "setup" and state.setup is not None:
        if state.setup.step == "place" and state.setup.pool:
            out.append(f"terrain place {state.setup.pool[0]} 0 0")  # half off the table
        if state.setup.step == "deploy":
            ship = next(s for s in state.ships if s.side == seat and s.status == "reserve")
            out.append(f"deploy {ship.name} {state.table_width / 2:g} {state.table_height / 2:g}")  # outside its zone
        return out
    if state.phase == "select":
        return out
    side = acting_side(state, seat)  # a Squadron's seat (command=squadron) speaks for its fleet
    if squadron_seats(state) and state.phase == "movement" and not state.activation.ship:
        for ship in movers(state, side):
            if ship.squadron != seat:  # a team-mate's ship: each player orders only their own
                out.append(f"{ship.name} move")
                break
    mine = [s for s in state.ships if s.controller == side and s.can_act and (s.squadron == seat or not squadron_seats(state))]
    enemies = [s for s in state.ships if s.controller != side and s.on_table]
    if state.phase == "movement" and not state.activation.ship:
        for ship in mine:
            if not ship.moved:
                out.append(f"{ship.name} move turn-end port 60")
                break
    if state.phase == "movement" and state.activation.ship and state.activation.step == "moved":
        ship = state.ship(state.activation.ship)
        far = [e for e in enemies if base_distance(ship.base, e.base) > 1.0]
        if far:
            out.append(f"{ship.name} crew board {far[0].name}")
    if state.phase == "attack":
        for ship in mine:
            if ship.attacked:
                continue
            for side, marked in (("port", ship.reload_port), ("starboard", ship.reload_starboard)):
                for e in enemies:
                    inside = in_broadside_path(ship.base, side, e.base)
                    if (marked and inside) or not inside:
                        out.append(f"{ship.name} broadside {side} {e.name}")
                        break
            break
    return [o for o in out if _try(rs, state, seat, o) is None]


def play_with_probes(
    scenario: str, seed: int, options: dict[str, str] | None, max_orders: int, *, probes: bool
) -> tuple[State, list[tuple[str, str, bool]]]:
    rs = OakAndIron()
    rng = Rng(seed_from_number(seed))
    state = rs.setup(scenario, options or {}, rng)
    log: list[tuple[str, str, bool]] = []
    probed: set[str] = set()
    while rs.outcome(state) is None and len(log) < max_orders:
        seat = rs.to_act(state)[0]
        if probes:
            for bad in bad_orders(rs, state, seat):
                kind = " ".join(bad.split()[1:3]) if " broadside " not in bad else "broadside"
                if kind not in probed:
                    probed.add(kind)
                    log.append((seat, bad, True))
        text = choose(rs, state, seat)
        order = rs.parse_order(state, seat, text)
        rs.apply(state, seat, order, rng)
        log.append((seat, rs.format_order(order), False))
    return state, log


BOOK_START = {"start": "book", "admiral_a": "capable"}
SQUADRON_SEATS = {"command": "squadron"}  # ch. 9: a player for each Squadron
SQUADRON_PLAYERS = {"a1": "@alice", "a2": "@carol", "b1": "@bob", "b2": "@dave"}


def console_script(seed_number: int = 1, scenario: str = "quickstart") -> str:
    """A game as a console script for ``python -m bot console --seed N``: the quick start
    (``quickstart.txt``), a Patrol game set up with the scenario decks (``book_start.txt``), or
    any other scenario by its id (``reef.txt``, ``skirmish.txt``, ``engagement.txt``, ``fleet.txt``)."""
    book = scenario == "book_start"
    options = BOOK_START if book else SQUADRON_SEATS if scenario == "fleet_squadrons" else None
    played = {"book_start": "patrol", "fleet_squadrons": "fleet"}.get(scenario, scenario)
    state, log = play_with_probes(played, seed_number * 1_000_000, options, 1500, probes=True)
    users = {"a": "@alice", "b": "@bob", **SQUADRON_PLAYERS}
    title = {
        "book_start": "a Patrol game set up by the book's Starting a Game (chapter 7) with the house scenario decks",
        "fleet": "Fleet Battle (book chapter 9), two Squadrons a fleet",
        "fleet_squadrons": "Fleet Battle (book chapter 9) with a player for each Squadron (command=squadron)",
        "reef": "house scenario 'The reef' (rocks, a shoal, an island and a fog bank, book 5.9)",
        "skirmish": "Skirmish game (book chapter 6, 100 points a Squadron, house line-ahead deployment)",
        "engagement": "Engagement game (book chapter 6, 200 points a Squadron, house line-ahead deployment)",
    }.get(scenario, "quick start (book chapter 3)")
    new = f"/game new system:oak-and-iron scenario:{played}"
    if options:
        new += " options:" + ",".join(f"{k}={v}" for k, v in options.items())
    lines = [
        f"# Oak & Iron {title}, played to a result by tests/oak_and_iron/autoplay.py.",
        f"# Run with: python -m bot console --seed {seed_number} --script tests/scripts/oak_and_iron/{scenario}.txt",
        "as @alice",
        new,
    ]
    typing = "@alice"
    for seat, user in (SQUADRON_PLAYERS if options is SQUADRON_SEATS else {"a": "@alice", "b": "@bob"}).items():
        lines += ([f"as {user}"] if user != typing else []) + [f"/game join seat:{seat}"]
        typing = user
    lines += ["as @alice", "/game start"]
    if scenario == "quickstart":
        lines += ["# Any seat may ask the bot to measure; nothing changes.", "/order text:measure Petite Fregate Fluyt"]
    current = "@alice"
    sealed_probe = scenario == "fleet"  # a fleet's second squadron may seal the same title from its own hand
    for seat, text, bad in log:
        if users[seat] != current:
            current = users[seat]
            lines.append(f"as {current}")
        if bad:
            lines.append(f"! /order text:{text}")
        else:
            lines.append(f"/order text:{text}")
        if text.startswith("initiative") and seat in ("a", "a1") and not bad and not sealed_probe:
            sealed_probe = True
            lines.append("! /order text:initiative Down!")
    lines.append(f"# Result: {state.side(state.winner).name if state.winner else '-'} wins ({state.result}) after turn {state.turn}.")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(console_script(int(sys.argv[1]) if len(sys.argv) > 1 else 1, sys.argv[2] if len(sys.argv) > 2 else "quickstart"))
