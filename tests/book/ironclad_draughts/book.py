"""Set-ups for the Ironclad Draughts book tests: a game from the ruleset's own ``setup``, the ships
a section needs stood on the board (everything else taken out of play), then nothing but order
text through ``parse_order``/``apply``, ``view``, ``to_act`` and ``outcome``. Dice are scripted
strictly (a rule that rolls one d6 more or fewer than scripted fails the test) and the damage pack
is stacked, so a test also checks how many dice and cards a rule uses."""

from __future__ import annotations

from games.core.rng import Rng, seed_from_number
from games.ironclad_draughts.state import State
from tests.ironclad_draughts.helpers import RS, activate, damage, park, place, ship, stack
from tests.scripted import ScriptedDice

__all__ = [
    "RS",
    "Dice",
    "acting",
    "activate",
    "cards",
    "damage",
    "fails",
    "flotation",
    "game",
    "in_force",
    "order",
    "place",
    "precedence",
    "sail",
    "ship",
    "square",
    "stack",
]


class Dice(ScriptedDice):
    """Scripted d6 rolls; shuffles of the card packs come from a real stream (a draughts game rolls
    no d10, so ``below`` is never a die here)."""

    def below(self, n: int) -> int:
        return Rng.below(self, n)


def game(*names: str, scenario: str = "standard", **options: str) -> State:
    """A game of ``scenario`` in turn 1 with only the named ships in play (the rest taken off)."""
    state = RS.setup(scenario, dict(options), Rng(seed_from_number(1)))
    keep = {ship(state, n).id for n in names}
    park(state, *[s.name for s in state.ships if s.id not in keep])
    return state


def order(state: State, seat: str, text: str, dice: list[int] | None = None) -> str:
    """Give an order; every scripted die must be rolled. Returns the events' text."""
    stream = Dice(dice or [])
    events = RS.apply(state, seat, RS.parse_order(state, seat, text), stream)
    assert not stream.dice, f"dice left unrolled: {stream.dice}"
    return "\n".join(e.text for e in events)


def fails(state: State, seat: str, text: str) -> str:
    """The refusal an order gets; the test fails if it is accepted."""
    try:
        order(state, seat, text)
    except ValueError as exc:
        return str(exc)
    raise AssertionError(f"{text!r} was accepted")


def square(state: State, name: str) -> str:
    """The square a ship stands on, as the board prints it (``c4``)."""
    s = ship(state, name)
    return f"{chr(ord('a') + s.x)}{s.y + 1}"


def flotation(state: State, name: str) -> int:
    """The flotation points the ship has left, as its counter in the public view shows them."""
    s = ship(state, name)
    counter = next(c for c in RS.view(state, None).counters if c.id == s.id)
    return int(counter.damage_text.split("/")[0])


def in_force(state: State, name: str) -> list[str]:
    """The damage cards in force on a ship's record sheet, as its counter in the public view
    shows them (``A♠``)."""
    s = ship(state, name)
    counter = next(c for c in RS.view(state, None).counters if c.id == s.id)
    return counter.damage_text.split()[1:]


def cards(state: State, **dealt: str) -> None:
    """This turn's activation cards, as if the umpire had dealt them (``Habsburg="2H"``): the ships
    named have yet to act, every other ship has acted, and the lowest card acts now. The first ship
    to act makes no damage-control draw (it was dealt to it before the set-up); the later ones do."""
    by_id = {ship(state, name).id: card for name, card in dealt.items()}
    first = min(by_id, key=lambda i: precedence(by_id[i]))
    activate(state, ship(state, first).name, by_id[first])
    for s in state.ships:
        if s.id in by_id:
            s.card, s.activated = by_id[s.id], False


def precedence(card: str) -> tuple[int, int]:
    """The book's footnote i, written out here for the set-ups: rank Ace (1) to King, then suit
    Hearts, Clubs, Diamonds, Spades."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    return ranks.index(card[:-1]), "HCDS".index(card[-1])


def acting(state: State) -> str:
    """The ship whose activation it is, as the public status line names it ('' when none)."""
    line = RS.summary(state)[0]
    if " acts - " not in line:
        return ""
    return line.split(": ", 1)[1].rsplit(" (", 1)[0]


def sail(state: State, plan: dict[str, list[str]], until_over: bool = False) -> str:
    """Play activations in the game's own order, each ship giving its next planned order, until the
    ship to act has none left (or, with ``until_over``, the game ends). Damage pack draws and dice
    come from a fixed real stream. Returns every event's text."""
    rng = Rng(seed_from_number(17))
    queues = {name: list(texts) for name, texts in plan.items()}
    out = []
    while RS.outcome(state) is None:
        name = acting(state)
        if not queues.get(name):
            assert not until_over, f"{name} has no order planned"
            break
        seat = ship(state, name).side
        events = RS.apply(state, seat, RS.parse_order(state, seat, queues[name].pop(0)), rng)
        out += [e.text for e in events]
    return "\n".join(out)
