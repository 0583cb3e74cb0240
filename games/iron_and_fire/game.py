"""The record of one order being applied: the state, the game's random stream and the events it
produces, with the die rolls every section shares (a Fortunes of War re-roll replays them, 13.1).
The questions about the map and scenario are plain functions of the state in ``scene.py``; the
rules themselves are functions in ``rules/``, one module per book section.
"""

from __future__ import annotations

from games.core.dice import roll_die
from games.core.rng import Rng
from games.core.ruleset import Event, private, public
from games.iron_and_fire.state import State

SIDE_NAMES = {"peru": "Peru", "chile": "Chile"}
CRITICAL_TABLE = {1: "false alarm", 2: "bridge", 3: "fire", 4: "fire", 5: "propulsion", 6: "steering"}
CRITICAL_NAMES = {"bridge": "Bridge", "fire": "Fire", "propulsion": "Propulsion", "steering": "Steering"}
WATER_SHALLOW = ("shallow", "shoal")


def other(side: str) -> str:
    return "chile" if side == "peru" else "peru"


def sign(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def describe_mods(mods: list[tuple[str, int]]) -> str:
    return "".join(f" {sign(v)} {name}" for name, v in mods)


class Game:
    """One order's application: the state, the random stream, and the events collected."""

    def __init__(self, state: State, rng: Rng | None = None) -> None:
        self.s = state
        self._rng = rng
        self.events: list[Event] = []
        # Fortunes of War re-roll: replay these dice except the one at ``reroll_index``
        self.replay: list[tuple[int, int]] | None = None
        self.reroll_index = -1
        self.diverged = False
        self.rolled: list[tuple[int, int]] = []  # (faces, value) of every die rolled here
        # Mine counters turned over here (q, r, counter); a re-roll meets the same counters again
        self.mine_draws: list[tuple[int, int, str]] = []
        self.replay_mines: dict[tuple[int, int], str] = {}

    # --- plumbing ------------------------------------------------------------------------------
    @property
    def rng(self) -> Rng:
        if self._rng is None:  # pragma: no cover - a programming error, not user input
            raise RuntimeError("this step needs the random stream")
        return self._rng

    def say(self, text: str, *, reveals: bool = False) -> None:
        self.events.append(public(text, reveals=reveals))
        self.s.log_tail.append(text)

    def tell(self, side: str, text: str) -> None:
        self.events.append(private(text, side))

    def d(self, faces: int) -> int:
        """One die from the game's stream (a d10 reads 0 as 10).

        When a Fortunes of War re-roll replays an activation, every die but the chosen one keeps
        its earlier value, until the story diverges (a different die is called for).
        """
        i = len(self.rolled)
        plan = self.replay
        if plan is not None and not self.diverged and i != self.reroll_index:
            if i < len(plan) and plan[i][0] == faces:
                value = plan[i][1]
            else:
                self.diverged = True
                value = roll_die(self.rng, faces)
        else:
            value = roll_die(self.rng, faces)
        self.rolled.append((faces, value))
        return value

    def dice(self, count: int, faces: int) -> tuple[list[int], int]:
        """Several dice (e.g. 2d6) through ``d``: (values, total)."""
        values = [self.d(faces) for _ in range(count)]
        return values, sum(values)

    # --- secrets ------------------------------------------------------------------------------
    def reveal(self, key: str) -> None:
        for sec in self.s.secrets:
            if sec.key == key and not sec.revealed:
                sec.revealed = True
                self.say(
                    f"Secret roll revealed ({sec.purpose}): {sec.text}. Check: sha256 of "
                    f"`{sec.nonce}:{sec.text}` is `{sec.digest}`.",
                    reveals=True,
                )
