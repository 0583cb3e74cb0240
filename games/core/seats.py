"""The seats of a game played by sides, written once for every system that has them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from games.core.ruleset import UMPIRE, Seat


class Named(Protocol):
    """A side as the seats need it: its id and name."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


def side_seats(sides: Iterable[Named]) -> list[Seat]:
    """One seat a side (its id and name), then the optional umpire (a game may start without one)."""
    return [Seat(s.id, s.name, s.id, "side") for s in sides] + [Seat(UMPIRE, "Umpire", "", "umpire", optional=True)]
