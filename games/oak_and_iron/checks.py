"""Start-up checks of oak and iron's data as a whole (``games.core.schema.checks`` finds
``CHECKS`` here): at the top of the package, so the loaders it calls never import back."""

from __future__ import annotations

from games.oak_and_iron import schema


def load_all() -> None:
    """Load every file through the system's own loaders: the cross-file checks a schema cannot make."""
    from games.oak_and_iron import data as cards
    from games.oak_and_iron.rules import starting_7 as setup

    schema.cost_keys()
    cards.rules()
    cards.ship_cards()
    cards.initiative_cards()
    cards.event_cards()
    cards.admirals()
    cards.check_symbols()
    cards.scenario_cards()
    for scenario in cards.scenario_files():
        setup.from_scenario_file(scenario, {})


CHECKS = [load_all]
