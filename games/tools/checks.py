"""Start-up checks of the table tools' data (``games.core.schema.checks`` finds ``CHECKS`` here):
every custom die and deck loads through the loaders the tools use. Kept above the loaders, which
import the schema, so the schema imports nothing of the tools."""

from __future__ import annotations

from games.tools import custom_dice, deck_sources


def _load_all() -> None:
    custom_dice()
    deck_sources()


CHECKS = [_load_all]
