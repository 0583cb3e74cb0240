"""The table tools' orders, typed (the notation the table service writes into a channel's tools log;
see the package docstring). Each prints back to the text the service wrote, so logs replay as stored.

Counts, deck names, cards and users are single words here and checked by the tools themselves, so
their messages stay the tools' own ("Deal between 1 and 52 cards each", "No deck called ...").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from games.core.errors import InvalidSyntax, quote
from games.core.notation import Free, Grammar, Token, Typed

WordText = Annotated[str, Token(r"\S+", "word")]
Rest = Annotated[str, Free("text")]


@dataclass(frozen=True)
class Roll(Typed):
    """An open roll: the dice expression, then any label."""

    PATTERN: ClassVar[str] = "roll {dice}"
    dice: Rest


@dataclass(frozen=True)
class Secret(Typed):
    """A secret roll: its expression (one word, as the service writes it), then its purpose."""

    PATTERN: ClassVar[str] = "secret {dice} [{purpose}]"
    dice: WordText
    purpose: Rest | None = None


@dataclass(frozen=True)
class Reveal(Typed):
    PATTERN: ClassVar[str] = "reveal [{roll}]"
    roll: WordText | None = None


@dataclass(frozen=True)
class DeckNew(Typed):
    PATTERN: ClassVar[str] = "deck new {name} {source}"
    name: WordText
    source: WordText


@dataclass(frozen=True)
class DeckShuffle(Typed):
    PATTERN: ClassVar[str] = "deck shuffle {name}"
    name: WordText


@dataclass(frozen=True)
class DeckReshuffle(Typed):
    PATTERN: ClassVar[str] = "deck reshuffle {name}"
    name: WordText


@dataclass(frozen=True)
class DeckDraw(Typed):
    PATTERN: ClassVar[str] = "deck draw {name} [{hand}]"
    name: WordText
    hand: bool = False


@dataclass(frozen=True)
class DeckDeal(Typed):
    PATTERN: ClassVar[str] = "deck deal {name} {count} [{holders}]"
    name: WordText
    count: WordText
    holders: Rest | None = None


@dataclass(frozen=True)
class Play(Typed):
    PATTERN: ClassVar[str] = "play {card} [{deck}]"
    card: WordText
    deck: WordText | None = None


@dataclass(frozen=True)
class SealOpen(Typed):
    PATTERN: ClassVar[str] = "seal open [{people}]"
    people: Rest | None = None


@dataclass(frozen=True)
class SealReveal(Typed):
    PATTERN: ClassVar[str] = "seal reveal"


@dataclass(frozen=True)
class SealText(Typed):
    """A text to seal; ``seal TEXT`` without ``text`` is read too, for logs written before."""

    PATTERN: ClassVar[str] = "seal text {words}"
    words: Rest


@dataclass(frozen=True)
class SealBare(Typed):
    PATTERN: ClassVar[str] = "seal {words}"
    words: Rest


ToolOrder = (Roll | Secret | Reveal | DeckNew | DeckShuffle | DeckReshuffle | DeckDraw | DeckDeal | Play
             | SealOpen | SealReveal | SealText | SealBare)
GRAMMAR = Grammar(Roll, Secret, Reveal, DeckNew, DeckShuffle, DeckReshuffle, DeckDraw, DeckDeal, Play,
                  SealOpen, SealReveal, SealText, SealBare)


def parse(text: str) -> ToolOrder:
    if not text.split():
        raise InvalidSyntax("Empty table command.")
    try:
        order = GRAMMAR.parse(" ".join(text.split()))
    except InvalidSyntax:
        raise InvalidSyntax(f"Unknown table command {quote(text.strip())}.") from None
    assert isinstance(order, ToolOrder)
    return order
