"""Sealed fire orders: secret until both sides seal (or the umpire reveals), then published with
their nonces so anyone can check the commitments; bad fire orders change nothing."""

from __future__ import annotations

import re

import pytest

from games.core.errors import IllegalOrder, InvalidSyntax, NotAllowed, UnknownName, WrongPhase
from games.core.rng import check_seal
from games.core.ruleset import UMPIRE, Event, legal_texts
from games.hex_ironclads.state import State
from tests.hex_ironclads.helpers import (
    keep_only,
    new_game,
    order,
    place,
    ruleset,
    snapshot,
    texts,
)
from tests.scripted import ScriptedDice


def close_action() -> State:
    state = new_game("hampton-roads")
    keep_only(state, "Monitor", "Minnesota", "Virginia", "Teaser")
    place(state, "Monitor", "0705", 1)
    place(state, "Minnesota", "0703", 1)
    place(state, "Virginia", "0806", 0)
    place(state, "Teaser", "0904", 4)
    return state


def seen_by(state: State, seat: str | None) -> str:
    """Everything a seat (or a spectator) can read from the view, as one string."""
    return repr(ruleset().view(state, seat)) + "\n".join(ruleset().summary(state))


def test_sealed_orders_are_never_visible_before_the_reveal() -> None:
    state = close_action()
    rng = ScriptedDice([1, 2, 3] * 20)
    events: list[Event] = []
    events += order(state, "union", "Monitor fire Virginia", rng)
    events += order(state, "union", "Minnesota fire Teaser", rng)
    events += order(state, "confederate", "Virginia fire Monitor", rng)
    events += order(state, "union", "seal", rng)
    union = state.side("union")
    secrets = {"union": [union.sealed_text, union.nonce, "Monitor fire Virginia", "Minnesota fire Teaser"],
               "confederate": ["Virginia fire Monitor"]}
    assert union.sealed and union.nonce and union.commitment
    public_text = texts(e for e in events if e.public)
    assert union.commitment in public_text  # the commitment is public
    assert "Union has sealed its fire orders" in public_text
    for side, hidden in secrets.items():
        other = "confederate" if side == "union" else "union"
        for secret in hidden:
            assert secret not in public_text
            assert secret not in seen_by(state, None)
            assert secret not in seen_by(state, other)
            assert secret not in "\n".join(legal_texts(ruleset(), state, other))
            assert secret in texts(e for e in events if e.to == frozenset({side}))
            assert secret in seen_by(state, UMPIRE)
    assert union.sealed_text in seen_by(state, "union")  # a side reads its own sealed orders
    assert "Virginia fire Monitor" in seen_by(state, "confederate")


def test_reveal_publishes_orders_and_nonces_that_check_against_the_commitments() -> None:
    state = close_action()
    rng = ScriptedDice([1, 2, 3] * 20)
    sealed = order(state, "union", "Monitor fire Virginia", rng) + order(state, "union", "seal", rng)
    commitment_u = re.search(r"Commitment: `([0-9a-f]{64})`", texts(sealed))
    assert commitment_u
    order(state, "confederate", "Virginia fire Monitor", rng)
    events = order(state, "confederate", "seal", rng)
    revealed = [e.text for e in events if e.public and "(nonce `" in e.text]
    assert len(revealed) == 2
    for line in revealed:
        m = re.match(r"(?P<text>.+) \(nonce `(?P<nonce>[0-9a-f]{64})`; check SHA-256 of `nonce:text` = `(?P<digest>[0-9a-f]{64})`\)\.$", line)
        assert m, line
        assert check_seal(m["text"], m["nonce"], m["digest"])
    assert revealed[0].startswith("Turn 1, Union: Monitor fire Virginia; Minnesota hold")
    assert commitment_u[1] in revealed[0]
    assert revealed[1].startswith("Turn 1, Confederate: Virginia fire Monitor; Teaser hold")
    assert all(e.reveals for e in events if e.public and "(nonce `" in e.text)


def test_a_second_target_for_one_ship_is_refused_until_withdrawn() -> None:
    state = close_action()
    order(state, "union", "Monitor fire Virginia")
    before = snapshot(state)
    with pytest.raises(IllegalOrder, match="Monitor already fires at Virginia this turn, and a ship fires at one target only"):
        order(state, "union", "Monitor fire Teaser")
    assert snapshot(state) == before
    order(state, "union", "Monitor hold")
    order(state, "union", "Monitor fire Teaser")
    assert state.side("union").orders == {"monitor": "teaser"}


def test_sealed_orders_cannot_change() -> None:
    state = close_action()
    rng = ScriptedDice([1, 2, 3] * 20)
    order(state, "union", "Monitor fire Virginia", rng)
    order(state, "union", "seal", rng)
    before = snapshot(state)
    for text in ("Monitor fire Teaser", "Monitor hold", "Minnesota fire Teaser"):
        with pytest.raises(IllegalOrder, match="Union has sealed its fire orders; they cannot be changed"):
            order(state, "union", text, rng)
    with pytest.raises(IllegalOrder, match="already sealed"):
        order(state, "union", "seal", rng)
    assert snapshot(state) == before
    order(state, "confederate", "seal", rng)  # both sealed: fire resolved, movement begins
    before = snapshot(state)
    with pytest.raises(WrongPhase):
        order(state, "union", "Monitor fire Teaser", rng)
    with pytest.raises(WrongPhase):
        order(state, "confederate", "seal", rng)
    assert snapshot(state) == before


def test_the_umpire_reveals_early_and_only_the_umpire() -> None:
    state = close_action()
    rng = ScriptedDice([1, 2, 3] * 20)
    order(state, "union", "Monitor fire Virginia", rng)
    order(state, "union", "seal", rng)
    order(state, "confederate", "Virginia fire Monitor", rng)
    with pytest.raises(NotAllowed, match="only the umpire"):
        order(state, "union", "reveal", rng)
    with pytest.raises(NotAllowed, match="does not seal"):
        order(state, UMPIRE, "seal", rng)
    assert legal_texts(ruleset(), state, UMPIRE) == ["reveal"]
    events = order(state, UMPIRE, "reveal", rng)
    log = texts(events)
    assert "Confederate has sealed its fire orders (sealed as they stood by the umpire's reveal)" in log
    assert "Virginia fires at Monitor" in log and "Monitor fires at Virginia" in log
    assert state.phase == "move"


def test_bad_fire_orders_say_what_is_wrong() -> None:
    state = close_action()
    before = snapshot(state)
    with pytest.raises(NotAllowed, match="Virginia belongs to Confederate; you sit as Union"):
        order(state, "union", "Virginia fire Monitor")
    with pytest.raises(IllegalOrder, match="Minnesota is one of your own ships"):
        order(state, "union", "Monitor fire Minnesota")
    with pytest.raises(UnknownName, match="No ship called `Merrimack`"):
        order(state, "union", "Monitor fire Merrimack")
    with pytest.raises(InvalidSyntax, match="Cannot read the order `Monitor sail away`"):
        order(state, "union", "Monitor sail away")
    with pytest.raises(InvalidSyntax, match="`X` is not a movement step"):
        order(state, "union", "Monitor move F X")
    with pytest.raises(InvalidSyntax, match=r"`Monitor fire`: give the target \(ship\)"):
        order(state, "union", "Monitor fire")
    with pytest.raises(WrongPhase, match="ships move after the fire orders are revealed"):
        order(state, "union", "Monitor move F")
    with pytest.raises(WrongPhase):
        order(state, "union", "done")
    with pytest.raises(NotAllowed, match="not a seat"):
        order(state, "spectator", "seal")
    assert snapshot(state) == before


def test_orders_round_trip_through_their_notation() -> None:
    state = close_action()
    rs = ruleset()
    for seat in ("union", "confederate"):
        for text in legal_texts(rs, state, seat):
            parsed = rs.parse_order(state, seat, text)
            assert rs.format_order(parsed) == text
            assert rs.parse_order(state, seat, rs.format_order(parsed)) == parsed
    assert rs.parse_order(state, "union", "monitor MOVE ffs").text == "Monitor move F F S"
    assert rs.parse_order(state, "union", "Monitor move L R").text == "Monitor move P S"
    assert rs.parse_order(state, "union", "Monitor move").text == "Monitor stay"
