"""The typed orders of hex ironclads round-trip through their notation with every scenario's ship
names (multi-word ones such as "Almirante Cochrane" and "Virginia II" beside "Virginia")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.notation import Typed
from games.hex_ironclads.orders import Done, Fire, Hold, Move, Reveal, Seal, Stay, parse, ref
from games.hex_ironclads.state import State
from tests.hex_ironclads.helpers import new_game, ruleset

pytestmark = pytest.mark.slow  # every test here takes 0.8 s or more: left out of tasks.py test --fast

STATES = {s.id: new_game(s.id) for s in ruleset().scenarios()}


@st.composite
def orders(draw: st.DrawFn) -> tuple[State, Typed]:
    state = STATES[draw(st.sampled_from(sorted(STATES)))]
    ships = st.sampled_from(state.ships).map(ref)
    order = draw(st.one_of(
        st.builds(Fire, ships, ships), st.builds(Hold, ships), st.builds(Stay, ships),
        st.builds(Move, ships, st.text("FPS", min_size=1, max_size=6)),
        st.sampled_from([Seal(), Done(), Reveal()]),
    ))
    return state, order


@given(orders(), st.sampled_from([str.lower, str.upper, lambda t: t]), st.booleans())
@settings(max_examples=200, deadline=None)
def test_every_order_reads_back_from_its_text_however_it_is_cased(case: tuple[State, Typed],
                                                                   spell: Callable[[str], str], joined: bool) -> None:
    state, order = case
    assert parse(state, order.text) == order
    typed = spell(order.text)
    if joined and isinstance(order, Move):
        typed = f"{order.ship.name} move {order.steps}"
    assert parse(state, typed).text == order.text
