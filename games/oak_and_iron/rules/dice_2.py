"""Book section 2 (Game Components: DICE): the Oak & Iron die, six faces, named in ``data/oak_and_iron/dice.toml``.

Every roll comes from the game's ``Rng`` stream, so a replay of the orders rolls the same faces.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.rng import Rng
from games.oak_and_iron.data import rules


def roll(rng: Rng, n: int) -> list[str]:
    """``n`` dice (none for n <= 0), each a face of the house die."""
    faces = rules().faces
    return [faces[rng.below(len(faces))] for _ in range(max(0, n))]


def count(faces: Sequence[str], wanted: Sequence[str]) -> int:
    """How many of the rolled faces are among ``wanted``."""
    return sum(1 for f in faces if f in wanted)


def show(faces: Sequence[str]) -> str:
    """Rolled faces for the log."""
    return ", ".join(faces) if faces else "no dice"
