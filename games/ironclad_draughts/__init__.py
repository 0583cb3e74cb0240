"""Ironclad Draughts (book 004): umpired squadron actions on a draughts board."""

from __future__ import annotations

from typing import Any

from games.core.ruleset import Ruleset, register
from games.ironclad_draughts.rules import IroncladDraughts


@register("ironclad-draughts")
def make_ruleset() -> Ruleset[Any]:
    """The registry's factory for ``get_ruleset("ironclad-draughts")``."""
    return IroncladDraughts()
