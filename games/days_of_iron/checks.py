"""Start-up checks of days of iron's data as a whole (``games.core.schema.checks`` finds
``CHECKS`` here): at the top of the package, so the loaders it calls never import back."""

from __future__ import annotations


def load_all() -> None:
    """Load every file through the system's own loaders: the cross-file checks a schema cannot make."""
    from games.days_of_iron import data

    data.rules()
    for force_id in data.force_ids():
        data.force(force_id)
    for scenario_id in data.scenario_ids():
        data.scenario(scenario_id)
    data.reference()
    data.house()
    data.victory_sheet()
    data.morale_sheet()


CHECKS = [load_all]
