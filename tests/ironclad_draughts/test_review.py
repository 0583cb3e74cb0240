"""Rules-fidelity review: each test pins a discrepancy found and fixed (fixed random streams)."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from games.ironclad_draughts.rules.movement_4 import movement_mode
from games.ironclad_draughts.state import State
from tests.ironclad_draughts.helpers import RS, activate, damage, new_game, order, place, stack


def test_ram_overlay_label_does_not_repeat_the_word_ram() -> None:
    """The renderer already labels a ram overlay "RAM"; the board showed "RAM ram"."""
    state = new_game("duel")
    place(state, "Huascar", "c3", "N")
    place(state, "Cochrane", "c5", "S")
    activate(state, "Huascar", "2C")
    stack(state, "7H", "9C")
    order(state, "peru", "move 2")
    ram = next(o for o in RS.view(state, None).overlays if o.kind == "ram")
    assert "ram" not in ram.text.casefold()


def test_deal_with_extra_words_when_a_deal_is_due_says_what_is_wrong() -> None:
    """`deal now` while the umpire must deal was refused as if the cards were already dealt."""
    state = new_game("duel", umpire_deals="yes")
    with pytest.raises(GameError) as err:
        RS.parse_order(state, "umpire", "deal now")
    message = str(err.value)
    assert "`deal now`" in message and "already dealt" not in message
    assert "`deal`" in message


def _huascar_alone(square: str, heading: str, **options: str) -> State:
    state = new_game("duel", **options)
    place(state, "Huascar", square, heading)
    place(state, "Cochrane", "f1", "N")
    activate(state, "Huascar", "2C")
    return state


def test_engine_hit_option_ahead_moves_one_square_every_activation() -> None:
    """Engine Hit "move one square straight ahead and stop" read per activation (option engine_hit=ahead)."""
    state = _huascar_alone("c3", "N", engine_hit="ahead")
    hu = damage(state, "Huascar", "KC")
    order(state, "peru", "pass")
    assert (hu.x, hu.y) == (2, 3) and movement_mode(hu) == "ahead"
    activate(state, "Huascar", "3C")
    order(state, "peru", "pass")
    assert (hu.x, hu.y) == (2, 4)


def test_engine_hit_default_is_the_ruling_stop_after_one_square() -> None:
    state = _huascar_alone("c3", "N")
    assert state.options["engine_hit"] == "stop"
    hu = damage(state, "Huascar", "KC")
    order(state, "peru", "pass")
    activate(state, "Huascar", "3C")
    order(state, "peru", "pass")
    assert (hu.x, hu.y) == (2, 3)


def test_engine_hit_option_is_validated() -> None:
    with pytest.raises(GameError, match="`maybe`"):
        new_game("duel", engine_hit="maybe")


def test_summary_says_house_values_are_in_use() -> None:
    """House convention for every system: the game summary shows "house values in use"."""
    state = new_game("standard")
    lines = RS.summary(state)
    house = [line for line in lines if "House values in use" in line]
    assert house and "record sheets" in house[0] and "gun arcs" in house[0]
