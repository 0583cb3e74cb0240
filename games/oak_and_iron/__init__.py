"""Oak & Iron (Firelock Games): age-of-sail squadrons on a continuous table, measured exactly."""

from games.oak_and_iron.ruleset import OakAndIron

__all__ = ["OakAndIron"]
