"""How the rules report: public and private events, modifier lists, and secret rolls revealed.

The rules append to the ``events`` list of the order being applied; ``ruleset.apply`` keeps the
public ones as the state's ``log_tail`` (the last activation's report).
"""

from __future__ import annotations

from games.core.ruleset import Event, private, public
from games.iron_and_fire.state import State


def say(events: list[Event], text: str, *, reveals: bool = False) -> None:
    """A line everyone reads."""
    events.append(public(text, reveals=reveals))


def tell(events: list[Event], side: str, text: str) -> None:
    """A line only ``side`` (and the umpire) reads."""
    events.append(private(text, side))


def sign(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def describe_mods(mods: list[tuple[str, int]]) -> str:
    return "".join(f" {sign(v)} {name}" for name, v in mods)


def reveal(s: State, events: list[Event], key: str) -> None:
    """Make a secret roll public, with what anyone needs to check its commitment."""
    for sec in s.secrets:
        if sec.key == key and not sec.revealed:
            sec.revealed = True
            say(
                events,
                f"Secret roll revealed ({sec.purpose}): {sec.text}. Check: sha256 of "
                f"`{sec.nonce}:{sec.text}` is `{sec.digest}`.",
                reveals=True,
            )
