"""``legal_orders`` reads each candidate back through ``orders.Reader`` (remembered readings)
instead of ``parse_order`` on each text. It must offer exactly what parsing every candidate's text
as if typed offers (the definition the list had before): the same orders, in the same order, in
every state of every pinned Days of Iron log, for the seat that gave the order and the umpire."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rooms.common import fold
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, get_ruleset
from games.days_of_iron import orders
from games.days_of_iron.orders import DoiOrder
from games.days_of_iron.rules import phases_17
from games.days_of_iron.ruleset import DaysOfIron
from games.days_of_iron.state import State
from tests.rules_pins import load_pins, seed_of

RS = get_ruleset("days-of-iron")
assert isinstance(RS, DaysOfIron)
PINNED: dict[str, Any] = {k: v for k, v in load_pins().items() if k.startswith("days-of-iron/")}
EVERY = 10  # states compared: every tenth of each log (every state of the four takes ~4 minutes)


def parsed_as_typed(state: State, seat: str) -> list[DoiOrder]:
    """Every candidate whose text ``parse_order`` takes, once per canonical text."""
    out: dict[str, DoiOrder] = {}
    for candidate in phases_17.candidates(state, seat):
        try:
            order = RS.parse_order(state, seat, candidate.text)
        except ValueError:
            continue
        out.setdefault(order.text, order)
    return list(out.values())


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(PINNED))
def test_legal_orders_are_the_candidates_parsed_as_typed(key: str) -> None:
    scenario = key.split("/")[1]
    log = [(seat, text) for seat, text in PINNED[key]["log"]]
    orders._BOOKS.clear()  # from empty books, then filled by the states before
    compared = 0
    for at, (state, _, _) in enumerate(fold(RS, seed_of("days-of-iron", scenario), scenario, {}, log)):
        if at % EVERY or at >= len(log):
            continue
        for seat in dict.fromkeys((log[at][0], UMPIRE)):
            expected = parsed_as_typed(state, seat)
            assert RS.legal_orders(state, seat) == expected, f"{key}: order {at}, seat {seat}"
            assert RS.legal_orders(state, seat) == expected, f"{key}: order {at}, seat {seat}, read again"
            compared += len(expected)
    assert compared > 100


def test_a_reading_is_kept_per_set_of_names() -> None:
    """Two games whose units are named differently keep apart books: the same text reads as each
    game's own unit (or is refused where a name does not exist there)."""
    state = RS.setup("meeting", {}, Rng(b"x" * 32))
    unit = next(u for u in state.units if u.type == "infantry")
    text = f"hide {unit.name} at 1 2"
    first = orders.Reader(state, unit.side).read(text)
    assert first is not None and first.text.split()[1] == unit.id
    other = RS.setup("meeting", {}, Rng(b"x" * 32))
    for u in other.units:
        u.name = f"renamed {u.id}"
    assert orders.Reader(other, unit.side).read(text) is None
    assert orders.Reader(state, unit.side).read(text) == first


def _outcome(state: State, seat: str, text: str) -> str:
    try:
        order: DoiOrder = RS.parse_order(state, seat, text)
    except ValueError as err:
        return f"refused: {err}"
    return order.text


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(PINNED))
def test_the_checks_skip_only_units_too_far_to_matter(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``formations_12.far_apart`` lets the checks (a move's clearances and end, contact, the
    shooting targets) skip the units that cannot come within their limits: every candidate of every
    tenth pinned state is taken or refused, with the same words, as when every unit is measured."""
    from games.days_of_iron.rules import formations_12, movement_17_4, shooting_17_3

    users = (formations_12, movement_17_4, shooting_17_3)  # each holds the name
    scenario = key.split("/")[1]
    log = [(seat, text) for seat, text in PINNED[key]["log"]]
    skipping: list[list[str]] = []
    far, skipped = formations_12.far_apart, []

    def counted(*args: Any) -> bool:
        said = far(*args)
        skipped.append(said)
        return said

    for module in users:
        monkeypatch.setattr(module, "far_apart", counted)
    for at, (state, _, _) in enumerate(fold(RS, seed_of("days-of-iron", scenario), scenario, {}, log)):
        if at % EVERY or at >= len(log):
            continue
        texts = [c.text for c in phases_17.candidates(state, log[at][0])]
        skipping.append([_outcome(state, log[at][0], t) for t in texts])
        with monkeypatch.context() as m:
            for module in users:
                m.setattr(module, "far_apart", lambda *_: False)
            measured = [c.text for c in phases_17.candidates(state, log[at][0])]
            assert measured == texts, f"{key}: order {at}, the candidates"
            assert [_outcome(state, log[at][0], t) for t in texts] == skipping[-1], f"{key}: order {at}"
    assert any(skipping) and any(skipped), "no unit was skipped: the test compares nothing"
