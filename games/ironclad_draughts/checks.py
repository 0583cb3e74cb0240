"""Start-up checks of ironclad draughts's data as a whole (``games.core.schema.checks`` finds
``CHECKS`` here): at the top of the package, so the loaders it calls never import back."""

from __future__ import annotations


def load_all() -> None:
    """Load every file through the system's own loaders: the cross-file checks a schema cannot make."""
    """Read every file the way play reads it, so a value the schema cannot see is refused at start-up."""
    from games.ironclad_draughts import data

    data.arcs()
    data.house_values()
    data.scenarios()


CHECKS = [load_all]
