"""Iron and Fire (Against the Odds): the Huáscar and the naval war of the Pacific, 1879."""

from games.iron_and_fire.ruleset import IronAndFire

__all__ = ["IronAndFire"]
