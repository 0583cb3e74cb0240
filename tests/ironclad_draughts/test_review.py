"""Rules-fidelity review: each test pins a discrepancy found and fixed (fixed random streams)."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from tests.ironclad_draughts.helpers import RS, activate, new_game, order, place, stack


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
