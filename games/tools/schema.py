"""Schemas of the table tools' data files (``dice/*.toml``, ``decks/*.toml``), checked at start-up.

Why here: they describe what ``custom_dice`` and ``deck_sources`` in ``games/tools`` read, so the
two change together; ``games.core.schema`` gathers them into the one registry.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from games.core.schema import Sourced


class DieSchema(Sourced, kw_only=True):
    """A custom die: its name in ``/roll`` and its faces."""

    name: str
    faces: list[str]


class DeckSchema(Sourced, kw_only=True):
    """A custom deck: card name -> how many copies (1-200)."""

    cards: dict[str, Annotated[int, msgspec.Meta(ge=1, le=200)]]


SCHEMAS = {"dice/*.toml": DieSchema, "decks/*.toml": DeckSchema}
