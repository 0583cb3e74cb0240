"""Start-up checks of iron and fire's data as a whole (``games.core.schema.checks`` finds
``CHECKS`` here): at the top of the package, so the loaders it calls never import back."""

from __future__ import annotations


def load_all() -> None:
    """Load every file through the system's own loaders: the cross-file checks a schema cannot make."""
    from games.iron_and_fire import data

    data.ships()
    data.battery()
    data.mine_mix()
    data.random_events()
    data.scenarios()


CHECKS = [load_all]
