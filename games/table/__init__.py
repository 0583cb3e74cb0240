"""``table``: a free-form game for any group, with sides, an optional umpire and a square board.

The bot enforces no rules beyond whose pieces are whose (``ruleset.RULES`` is its whole "book",
carried out section by section in ``rules/``). Dice, decks, secret rolls and sealed orders come
from the table tools, which work in every channel.
"""

from games.table.ruleset import FreeTable

__all__ = ["FreeTable"]
