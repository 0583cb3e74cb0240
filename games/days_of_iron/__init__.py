"""Days of Iron (book 002): a table assistant for a Franco-Prussian miniatures game.

The game is played on a physical table with free measurement; the bot keeps the orders of
battle, makes the book's rolls, seals hidden and off-board records, and scores the end.
"""

from __future__ import annotations

from typing import Any

from games.core.ruleset import Ruleset, register
from games.days_of_iron.rules import DaysOfIron


@register("days-of-iron")
def make_ruleset() -> Ruleset[Any]:
    """The registry's factory for ``get_ruleset("days-of-iron")``."""
    return DaysOfIron()
