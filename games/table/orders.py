"""The free table's orders: ``place``, ``move``, ``remove``, ``concede``, and any other text, which
is a message from the side (section 2 of the table's rules, see ``ruleset.RULES``).

A piece's label, a square and a heading are single words read here and checked by the rules, so a
mistyped label is an error that says which pieces there are, while a text that is no order at all
(``move Warspite`` with no square) is a message, as it always was: stored games replay as played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from games.core.errors import GameError, InvalidSyntax
from games.core.notation import Free, Grammar, Token, Typed

Label = Annotated[str, Token(r"\S+", "piece label", "Warspite")]
SquareText = Annotated[str, Token(r"\S+", "square", "d4")]
Heading = Annotated[str, Token(r"\S+", "heading", "NE")]


@dataclass(frozen=True)
class Place(Typed):
    """A new piece of your side (section 1)."""

    PATTERN: ClassVar[str] = "place {label} {square} [{heading}]"
    label: Label
    square: SquareText
    heading: Heading | None = None


@dataclass(frozen=True)
class Move(Typed):
    """One of your pieces to another square, optionally turning it (section 1)."""

    PATTERN: ClassVar[str] = "move {label} {square} [{heading}]"
    label: Label
    square: SquareText
    heading: Heading | None = None


@dataclass(frozen=True)
class Remove(Typed):
    """One of your pieces off the board (section 1)."""

    PATTERN: ClassVar[str] = "remove {label}"
    label: Label


@dataclass(frozen=True)
class Concede(Typed):
    """Your side gives up (section 3)."""

    PATTERN: ClassVar[str] = "concede"


@dataclass(frozen=True)
class Say(Typed):
    """Any other text: a message from your side, logged for all (section 2)."""

    PATTERN: ClassVar[str] = "{message}"
    message: Annotated[str, Free("message")]


GRAMMAR = Grammar(Place, Move, Remove, Concede, hint="Write e.g. `place Warspite d1 N`, `move Warspite d4 NE`.")
TableOrder = Place | Move | Remove | Concede | Say


def parse(text: str) -> TableOrder:
    """The order the text gives; text that is no order is a message."""
    words = text.split()
    if not words:
        raise InvalidSyntax("Empty order.", hint="Write an order, e.g. `move Warspite d4`.")
    try:
        order = GRAMMAR.parse(" ".join(words))
    except GameError:
        return Say(" ".join(words))
    assert isinstance(order, Place | Move | Remove | Concede)
    return order
