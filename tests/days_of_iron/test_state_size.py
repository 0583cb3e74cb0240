"""The state (and the status the board draws) must not grow with the length of the game.

The store keeps every order, and the full history is in `/game log`; the snapshot is decoded,
applied to and re-encoded for every order and drawn for every board, so anything in it that grows
with the order count makes each order and each board slower the longer a game runs (issue 11).
Sizes are compared, never times: timing belongs in ``benchmarks/days_of_iron.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from games.core.errors import IllegalOrder
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, legal_texts
from games.days_of_iron.state import State
from tests.days_of_iron.helpers import RS, finish_turn, new_game, order, ready_both, unit
from tests.scripted import DiceThenStream

EARLY, LATE = 100, 3000
SLACK = 256  # bytes: turn numbers and record numbers gain digits; nothing else may grow


def encoded_size(state: State) -> int:
    return len(json.dumps(RS.encode(state)))


def status_size(state: State) -> int:
    return sum(len(line) for line in RS.view(state, UMPIRE).status + RS.view(state, UMPIRE).private_text)


def sizes_at(state: State, rng: Rng, orders: Iterator[tuple[str, str]]) -> dict[int, tuple[int, int]]:
    """Give orders until LATE; the encoded state and status sizes after EARLY and LATE orders."""
    out: dict[int, tuple[int, int]] = {}
    for given in range(1, LATE + 1):
        seat, text = next(orders)
        order(state, seat, text, rng)
        if given in (EARLY, LATE):
            out[given] = (encoded_size(state), status_size(state))
    return out


@pytest.mark.slow  # plays many turns: left out of `tasks.py test --fast`
def test_field_promotions_every_turn_keep_the_state_size_flat() -> None:
    """Each turn the French General Doëns' command loses its General and gets a new one by field
    promotion (14.3): the state holds one successor per command, not one per promotion."""
    state, rng = new_game("meeting")
    ready_both(state, rng)
    doens = unit(state, "Doëns").id

    def holder() -> str:
        """Whoever commands Doëns' brigade now (the book General, then his successor)."""
        live = [u.id for u in state.units if u.id.startswith(doens) and u.status == "on table"]
        return live[-1] if live else ""

    def turns() -> Iterator[tuple[str, str]]:
        while True:
            yield "french", "initiative"
            if not holder():
                yield "french", f"promote {doens}"
            yield UMPIRE, f"killed {holder()}"  # players lose Generals to rolls on the measured table
            yield UMPIRE, "check wood"
            while state.phase == "turn":
                yield RS.to_act(state)[0], "next"

    sizes = sizes_at(state, rng, turns())
    assert state.turn > 250
    assert sizes[LATE][0] <= sizes[EARLY][0] + SLACK, sizes
    assert sizes[LATE][1] <= sizes[EARLY][1] + SLACK, sizes


@pytest.mark.slow
def test_sealing_and_cancelling_in_the_set_up_keeps_the_state_size_flat() -> None:
    """A side may hide a unit and cancel the record again as often as it likes before `ready`:
    a cancelled record is gone (its commitment stays in the channel's log), its number not reused."""
    state, rng = new_game("meeting")

    def set_up() -> Iterator[tuple[str, str]]:
        while True:
            yield "french", "hide 2e de Ligne at 20 42"
            yield "french", f"cancel {state.sealed[-1].number}"

    sizes = sizes_at(state, rng, set_up())
    assert sizes[LATE][0] <= sizes[EARLY][0] + SLACK, sizes
    assert sizes[LATE][1] <= sizes[EARLY][1] + SLACK, sizes
    events = order(state, "french", "hide 2e de Ligne at 20 42", rng)
    assert f"record #{LATE // 2 + 1} " in events[0].text  # numbers run on; none is reused


def test_a_lost_successor_is_replaced_in_place_a_turn_later() -> None:
    """14.3 for a successor: his command is filled again after 1 turn, by the same record (one
    canonical order text whichever of the two Generals' names is typed)."""
    state, rng = new_game("meeting")
    ready_both(state, rng)
    doens = unit(state, "Doëns").id
    order(state, "french", "initiative", rng)
    order(state, UMPIRE, f"killed {doens}", rng)
    finish_turn(state, rng)
    order(state, "french", "initiative", rng)
    order(state, "french", f"promote {doens}", rng)
    order(state, UMPIRE, "killed Doëns", rng)  # the successor: the book General is already lost
    successor = unit(state, "Doëns's successor")
    assert successor.status == "killed" and successor.replaces == doens
    with pytest.raises(IllegalOrder, match="after 1 turn"):
        RS.parse_order(state, "french", "promote Doëns")
    units = len(state.units)
    finish_turn(state, rng)
    order(state, "french", "initiative", rng)
    assert RS.parse_order(state, "french", "promote Doëns's successor").text == f"promote {doens}"
    assert f"promote {doens}" in legal_texts(RS, state, "french")
    events = order(state, "french", "promote Doëns", DiceThenStream([5]))
    assert "lost again: 5 = Capable. A new General takes command as Gen. Doëns's successor" in events[0].text
    assert len(state.units) == units and successor.status == "on table" and successor.quality == "capable"
    assert successor.lost_turn == state.turn
    with pytest.raises(IllegalOrder, match="already has a successor"):
        RS.parse_order(state, "french", "promote Doëns")
