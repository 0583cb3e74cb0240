"""Record (``python -m tests.oak_and_iron.baseline``) and check what Oak & Iron orders mean.

Stored games replay from their logged order text, so the notation may never drift. The fixture
``baseline.json`` was written by the string-tuple parser before the typed orders of issue 14:
how each of many spellings reads (its canonical text, or the kind of error), and whole recorded
games (random and captains' playouts, with refused probe orders) with a digest of every step's
events, the legal orders, two views and the final state. ``test_baseline.py`` replays it.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from games.core.errors import GameError
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import legal_texts
from tests.oak_and_iron.autoplay import choose
from tests.oak_and_iron.helpers import ruleset, started

FIXTURE = Path(__file__).with_name("baseline.json")

# spellings read in the Movement Phase of the quick start (ships Sloop, Petite Fregate, Corvette, Fluyt)
SPELLINGS = [
    "initiative Careful Aim", "initiative careful aim", "initiative careful-aim", "initiative Careful", "initiative Down!",
    "INITIATIVE reload", "initiative", "initiative Nonesuch",
    "capture Sloop", "destroy sloop", "spare Petite Fregate", "capture", "capture Sloop Fluyt",
    "measure Fluyt Sloop", "measure petite-fregate corv", "measure Petite Fregate Fluyt", "measure Fluyt",
    "Corvette done", "corv DONE", "Corvette done now", "Corvette hold", "Petite Fregate hold", "petite-fregate hold",
    "Pet hold", "Fregate hold", "Fluyt", "Fluyt sail", "",
    "Corvette move", "Corvette move turn-end port 30", "Corvette move turn-end port 45", "corvette move turn-end PORT 30",
    "Corvette move turn-start starboard", "Corvette move turn-start starboard 22.5", "Corvette move turn-end port 30.0000001",
    "Corvette move turn-end port 30deg", "Corvette move turn-end port 30°", "Corvette move turn-end port 3e1",
    "Corvette move turn-end port 400", "Corvette move turn-end port lots", "Corvette move turn-end port nan",
    "Corvette move turn-end port 3_0", "Corvette move turn-end port +30", "Corvette move turn-end port 0",
    "Corvette move turn-middle port 30", "Corvette move turn-end aft 30", "Corvette move port", "Corvette move turn-end port 30 40",
    "Corvette seamanship adjust +1", "Corvette seamanship adjust 1", "Corvette seamanship adjust -1 fortune",
    "Corvette seamanship fortune adjust -1", "Corvette seamanship adjust +2", "Corvette seamanship adjust",
    "Corvette seamanship heading port", "Corvette seamanship heading starboard 30 fortune", "Corvette seamanship heading port 30.5",
    "Corvette seamanship cutfree", "Corvette seamanship cut-free fortune", "Corvette seamanship cut free", "Corvette seamanship",
    "Corvette seamanship FORTUNE cutfree", "Corvette seamanship heading",
    "Corvette crew reload port", "Corvette crew reload STARBOARD fortune", "Corvette crew reload", "Corvette crew rally",
    "Corvette crew rally fortune", "Corvette crew row", "Corvette crew repair", "Corvette crew repair hull",
    "Corvette crew repair aground fortune", "Corvette crew fortune repair", "Corvette crew repair sails",
    "Corvette crew sail up", "Corvette crew sail DOWN", "Corvette crew sail", "Corvette crew board Sloop",
    "Corvette crew board Sloop fortune", "Corvette crew board petite-fregate", "Corvette crew board Petite Fregate fortune",
    "Corvette crew board pet", "Corvette crew board", "Corvette crew fortune board Sloop", "Fluyt crew flag Corvette",
    "Fluyt crew flag Corvette fortune", "Corvette crew landing", "Corvette crew landing 3 4", "Corvette crew landing 3.50 4e0",
    "Corvette crew landing x y", "Corvette crew landing 3", "Corvette crew", "Corvette crew dance",
    "Corvette broadside port Sloop", "Corvette broadside starboard Sloop crew", "Corvette broadside starboard Sloop hull",
    "Corvette broadside starboard Sloop rigging and port Petite Fregate fortune",
    "Corvette broadside starboard Sloop fortune rigging and port Petite Fregate crew helm-starboard",
    "Corvette broadside port Sloop helm-port", "Corvette broadside port Sloop helm-starboard helm-port fortune fortune",
    "Corvette broadside port Sloop rigging crew", "Corvette broadside port Sloop and", "Corvette broadside port Sloop and port Fluyt",
    "Corvette broadside port Sloop and starboard Fluyt and port Sloop", "Corvette broadside aft Sloop", "Corvette broadside",
    "Corvette broadside port", "Corvette broadside port petite-fregate", "Corvette broadside port Pet crew",
    "Corvette broadside fortune port Sloop", "Corvette broadside port Sloop Fluyt",
    "Corvette partial Sloop", "Corvette partial Sloop crew helm-starboard", "Corvette partial Sloop fortune rigging",
    "Corvette partial Sloop rigging crew", "Corvette partial Sloop hull helm-port", "Corvette partial", "Corvette partial Sloop aft",
    "Corvette partial Petite Fregate fortune", "Corvette partial rigging Sloop",
    "Corvette close Sloop", "Corvette close", "Corvette close Sloop now", "Corvette landing-attack Sloop", "Corvette LANDING-ATTACK pet",
    "Corvette jump", "Nonesuch move", "Sloop crew row", "Sloop Sloop move",
]


def plain(value: Any) -> Any:
    """A dataclass as nested tuples, fields at their defaults left out, so that a field added to
    ``View`` later (with a default) does not change old digests."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = []
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if f.default is not dataclasses.MISSING and v == f.default:
                continue
            if f.default_factory is not dataclasses.MISSING and v == f.default_factory():
                continue
            out.append((f.name, plain(v)))
        return tuple(out)
    if isinstance(value, dict):
        return tuple((k, plain(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(plain(v) for v in value)
    return value


def digest(value: Any) -> str:
    return hashlib.sha256(repr(plain(value)).encode()).hexdigest()[:16]


# State fields added after the recordings, with the value every recorded game has (issue 15: the
# captain cards). The final state digest leaves them out at that value, as ``plain`` does for views;
# a recorded game that now set one would still fail.
ADDED_SHIP_FIELDS = {"captain": "", "squadron": ""}
ADDED_SIDE_FIELDS = {"fleet": "", "faction": ""}
# the ch. 7 set-up with the scenario decks; the ch. 9 fleet battles
ADDED_STATE_FIELDS: dict[str, Any] = {"setup": None, "squadrons": [], "moving_squadron": ""}


def final_digest(rs: Any, state: Any) -> str:
    """The digest of the encoded final state, without the fields added since at their defaults."""
    data = rs.encode(state)
    for key, default in ADDED_STATE_FIELDS.items():
        if data.get(key, default) == default:
            data.pop(key, None)
    for items, added in ((data["ships"], ADDED_SHIP_FIELDS), (data["sides"], ADDED_SIDE_FIELDS)):
        for item in items:
            for key, default in added.items():
                if item.get(key) == default:
                    del item[key]
    return digest(json.dumps(data, sort_keys=True))


def read(text: str) -> str:
    """What one spelling reads as: its canonical text, or the error class."""
    state, _ = started()
    rs = ruleset()
    try:
        return "= " + rs.format_order(rs.parse_order(state, "a", text))
    except GameError as exc:
        return "! " + type(exc).__name__


def step_digest(rs: Any, state: Any, seat: str, events: list[Any]) -> str:
    views = [rs.view(state, who) for who in (None, "a")]
    legal = {s: legal_texts(rs, state, s) for s in rs.to_act(state)}
    return digest(([(e.text, sorted(e.to) if e.to is not None else None, e.reveals) for e in events], legal, views))


def record_game(scenario: str, seed: int, options: dict[str, str], picker_seed: int | None, max_orders: int) -> dict[str, Any]:
    """One game: random legal orders (``picker_seed``) or the captains' choices (None), with the
    refused orders the captains probe kept in the log as ``!`` steps."""
    from tests.oak_and_iron.autoplay import bad_orders

    rs = ruleset()
    stream = Rng(seed_from_number(seed))
    picker = Rng(seed_from_number(10_000 + picker_seed)) if picker_seed is not None else None
    state = rs.setup(scenario, options, stream)
    steps: list[list[str]] = []
    while rs.outcome(state) is None and len(steps) < max_orders:
        seat = rs.to_act(state)[0]
        if picker is None and len(steps) % 7 == 0:
            for bad in bad_orders(rs, state, seat)[:1]:
                trial = copy.deepcopy(state)  # the table service applies to a copy and drops it on error
                try:
                    rs.apply(trial, seat, rs.parse_order(trial, seat, bad), Rng(b"baseline-probe-seed-000000000000"))
                except GameError as exc:
                    steps.append([seat, bad, "!", str(exc)])
                    continue
                raise AssertionError(f"probe {bad!r} was accepted")
        text = picker.choice(legal_texts(rs, state, seat)) if picker is not None else choose(rs, state, seat)
        order = rs.parse_order(state, seat, text)
        events = rs.apply(state, seat, order, stream)
        steps.append([seat, text, rs.format_order(order), step_digest(rs, state, seat, events)])
    final = final_digest(rs, state)
    return {"scenario": scenario, "seed": seed, "options": options, "steps": steps, "final": final}


GAMES: list[tuple[str, int, dict[str, str], int | None, int]] = [
    ("quickstart", 1, {}, None, 400),
    ("quickstart", 2, {}, 3, 400),
    ("reef", 5, {}, None, 400),
    ("reef", 6, {"ships_block_sight": "no", "corner_contact": "side"}, 7, 400),
    ("patrol", 8, {}, 9, 300),
    ("patrol", 10, {"lost_admiral": "new", "weather": "north", "defender": "a"}, None, 300),
    ("skirmish", 11, {}, 12, 150),
    ("quickstart", 13, {"lost_admiral": "new"}, 14, 400),
    ("engagement", 15, {}, None, 200),
    *[(scenario, 100 + i, {}, i, 400) for i, scenario in enumerate(["quickstart", "reef", "patrol"] * 6)],
]


def record() -> dict[str, Any]:
    return {
        "spellings": {text: read(text) for text in SPELLINGS},
        "games": [record_game(*game) for game in GAMES],
    }


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(record(), indent=0, ensure_ascii=False) + "\n")
    sys.stdout.write(f"wrote {FIXTURE}\n")
