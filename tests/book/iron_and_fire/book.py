"""Set-ups for the Iron and Fire book tests: a scenario from the ruleset's own ``setup``, the units a
case needs placed on printed hexes with printed compass facings, a card in play, then nothing but
order text through ``parse_order``/``apply``, ``summary``, ``to_act`` and ``outcome``. Dice are
scripted strictly (a rule that rolls one die more or fewer than scripted fails the test).

Built on the Iron and Fire test helpers (``tests/iron_and_fire/helpers.py``) so that the engine's
restructuring changes one place, not every book test."""

from __future__ import annotations

from games.core.rng import Rng, seed_from_number
from games.iron_and_fire.state import State
from tests.iron_and_fire.helpers import in_play, new_game, order, place, ruleset, text, unit

__all__ = [
    "RS",
    "end_turn",
    "fails",
    "game",
    "hits",
    "in_play",
    "lay_mine",
    "line",
    "place",
    "play",
    "play_freely",
    "ruleset",
    "unit",
]

RS = ruleset()


def game(scenario: str = "s1", **options: str) -> State:
    """A scenario just set up (its set-up phase not yet played), with these options."""
    if scenario == "s1":
        options.setdefault("boilers", "fixed")
    return new_game(scenario, options)


def play(state: State, seat: str, order_text: str, dice: list[int] | None = None) -> str:
    """Give an order with exactly these dice (d10 results as 1-10); returns the events' text."""
    return text(order(state, seat, order_text, dice or []))


def fails(state: State, seat: str, order_text: str, dice: list[int] | None = None) -> str:
    """The refusal an order gets; the test fails if it is accepted."""
    try:
        play(state, seat, order_text, dice)
    except ValueError as exc:
        return str(exc)
    raise AssertionError(f"{order_text!r} was accepted")


def line(state: State, name: str) -> str:
    """A unit's public status line (``Huáscar (Peru): 1609; facing 6, hits 0/7, MP 3, ...``)."""
    return next(x for x in RS.summary(state) if x.startswith(name + " ("))


def hits(state: State, uid: str) -> int:
    return unit(state, uid).hits


def play_freely(state: State, seat: str, order_text: str, seed: int = 5) -> str:
    """Give an order with a real stream (for orders that end a turn: the next turn's shuffle draws
    from the stream too, so its dice cannot be scripted one by one)."""
    rng = Rng(seed_from_number(seed))
    return "\n".join(e.text for e in RS.apply(state, seat, RS.parse_order(state, seat, order_text), rng))


def lay_mine(state: State, hex_label: str, value: str) -> None:
    """A face-down Mine counter on a printed hex whose value, when turned over, is ``value``."""
    from games.iron_and_fire.state import Mine
    from tests.iron_and_fire.helpers import hexof

    h = hexof(state, hex_label)
    state.mines.append(Mine(h.q, h.r))
    state.mine_bag = [value]


def end_turn(state: State, seed: int = 5) -> str:
    """Spend the card in play and let the second Joker end the turn: the End Phase runs and the
    next turn starts (a real stream; tests read the dice from the log)."""
    state.deck = ["JK2", "JK1"]
    state.options.setdefault("random_events", "off")
    return play_freely(state, state.card_side, "done", seed)
