"""Streams with scripted dice for rule tests, shared by the systems' test helpers.

Two behaviours, two names:

* ``ScriptedDice`` is strict: every die the rules roll must be scripted and running out is a test
  failure, so a test also checks how many dice a rule rolls. Other draws (nonces, shuffles of
  short lists) come from a real stream.
* ``DiceThenStream`` is lenient: its first die faces are scripted, then the real stream goes on,
  for tests that care only about the opening rolls.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.core.rng import Rng, seed_from_number


class ScriptedDice(Rng):
    """Die results given in advance, in the order the rules roll them; running out fails the test.

    ``die(faces)`` takes the next value. A ``below(10)`` draw is the dice notation's d10 (0 stands
    for 10), so it takes the next value too, a 10 scripted as 10.
    """

    def __init__(self, dice: Iterable[int] = ()) -> None:
        super().__init__(seed_from_number(4242))
        self.dice = list(dice)
        self.rolled: list[int] = []

    def _next(self, faces: int) -> int:
        assert self.dice, f"the rules rolled a d{faces} more than the test scripted"
        value = self.dice.pop(0)
        assert 1 <= value <= faces, f"scripted {value} on a d{faces}"
        self.rolled.append(value)
        return value

    def die(self, faces: int) -> int:
        return self._next(faces)

    def below(self, n: int) -> int:
        if n == 10:
            return self._next(10) % 10
        return super().below(n)


class DiceThenStream(Rng):
    """A real stream whose next ``below`` draws are the given die faces, then the stream goes on."""

    def __init__(self, faces: Iterable[int], seed: int = 1) -> None:
        super().__init__(seed_from_number(seed))
        self.faces = list(faces)

    def below(self, n: int) -> int:
        if self.faces:
            face = self.faces.pop(0)
            assert 1 <= face <= n, f"scripted face {face} is not on a d{n}"
            return face - 1
        return super().below(n)
