"""The dice of one order, as the Fortunes of War re-roll needs them (13.1): every die rolled and
every Mine counter turned over is recorded, and a re-roll replays an activation with each die as
it fell except the chosen one (until the story diverges) and with the same Mine counters.
"""

from __future__ import annotations

from games.core.dice import roll_die
from games.core.rng import Rng


class Dice:
    """The game's random stream for one order, recording what it rolls (13.1)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.rolled: list[tuple[int, int]] = []  # (faces, value) of every die rolled here
        self.mine_draws: list[tuple[int, int, str]] = []  # (q, r, counter) of every Mine counter turned over here
        self._plan: list[tuple[int, int]] | None = None
        self._reroll_index = -1
        self._diverged = False
        self._known_mines: dict[tuple[int, int], str] = {}

    def replay(self, plan: list[tuple[int, int]], reroll_index: int, mines: dict[tuple[int, int], str]) -> None:
        """13.1: replay these dice, except the one at ``reroll_index``, and these Mine counters."""
        self._plan, self._reroll_index, self._known_mines = plan, reroll_index, mines

    def d(self, faces: int) -> int:
        """One die (a d10 reads 0 as 10); in a replay the planned value while the story holds."""
        i = len(self.rolled)
        plan = self._plan
        if plan is not None and not self._diverged and i != self._reroll_index:
            if i < len(plan) and plan[i][0] == faces:
                value = plan[i][1]
            else:
                self._diverged = True
                value = roll_die(self.rng, faces)
        else:
            value = roll_die(self.rng, faces)
        self.rolled.append((faces, value))
        return value

    def roll(self, count: int, faces: int) -> tuple[list[int], int]:
        """Several dice (e.g. 2d6) through ``d``: (values, total)."""
        values = [self.d(faces) for _ in range(count)]
        return values, sum(values)

    def mine_counter(self, bag: list[str], q: int, r: int) -> str:
        """9.0: the counter a face-down Mine at (q, r) turns out to be, drawn from ``bag`` (the one
        turned over before when a re-roll replays the activation); "None" when the bag is empty."""
        known = self._known_mines.get((q, r))
        if known is not None:
            if known in bag:
                bag.remove(known)
            value = known
        else:
            value = bag.pop(self.rng.below(len(bag))) if bag else "None"
        self.mine_draws.append((q, r, value))
        return value
