"""Helpers for Iron and Fire tests: scripted dice, games already in play, placing units."""

from __future__ import annotations

import json
from collections.abc import Iterable

from games.core.hexgrid import Hex
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import Event, get_ruleset
from games.iron_and_fire import scene
from games.iron_and_fire.rules import activations_4
from games.iron_and_fire.ruleset import IronAndFire
from games.iron_and_fire.state import State, Unit
from tests.scripted import ScriptedDice


def ruleset() -> IronAndFire:
    rs = get_ruleset("iron-and-fire")
    assert isinstance(rs, IronAndFire)
    return rs



def new_game(scenario: str = "s1", options: dict[str, str] | None = None) -> State:
    return ruleset().setup(scenario, options or {}, Rng(seed_from_number(1)))


def unit(state: State, uid: str) -> Unit:
    return next(u for u in state.units if u.id == uid)


def hexof(state: State, label: str) -> Hex:
    return scene.layout(state).parse(label)


def place(state: State, uid: str, label: str, printed_facing: int) -> Unit:
    """Put a unit on a printed hex with a printed compass facing (1-6)."""
    u = unit(state, uid)
    h = scene.layout(state).parse(label)
    u.q, u.r, u.facing = h.q, h.r, scene.dir_of(state, printed_facing)
    u.status = "afloat"
    return u


def add_battery(state: State, label: str, side: str = "chile") -> Unit:
    h = hexof(state, label)
    n = sum(1 for u in state.units if u.battery) + 1
    b = Unit(id=f"battery{n}", name=f"Battery {n}", side=side, type="battery", mf=0, cf=2, pf=5, q=h.q, r=h.r, status="afloat", controller=side)
    state.units.append(b)
    return b


def in_play(state: State, side: str = "peru", card: str = "KH", deck: list[str] | None = None, turn: int = 1) -> State:
    """Skip set-up: the given card is in play for ``side``; the deck holds plain cards only."""
    state.phase = "activations"
    state.turn = turn
    state.card = card
    state.card_side = side
    state.acts_left = activations_4.acts_for(state, card)
    state.used = []
    state.deck = deck if deck is not None else ["2S", "2H"] * 12
    return state


def order(state: State, seat: str, text: str, dice: Iterable[int] = ()) -> list[Event]:
    """Parse and apply an order with scripted dice; every scripted die must be used."""
    rs = ruleset()
    rng = ScriptedDice(dice)
    events = rs.apply(state, seat, rs.parse_order(state, seat, text), rng)
    assert not rng.dice, f"dice left unrolled: {rng.dice}"
    return events


def text(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def round_trips(state: State) -> bool:
    rs = ruleset()
    return rs.decode(json.loads(json.dumps(rs.encode(state)))) == state
