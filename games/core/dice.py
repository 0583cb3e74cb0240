"""Dice expressions: ``2d6+1``, ``d10``, ``3d6-2+1d4``, and custom dice with named faces.

A d10 is rolled as a 0-9 die whose 0 reads as 10. Custom dice come from data (``data/dice``):
``2dOak`` rolls two of the die named ``oak`` and reports face names (no sum).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from games.core.errors import InvalidSyntax, quote
from games.core.rng import Rng

MAX_DICE = 100
MAX_SIDES = 1000
MAX_TERMS = 10
MAX_MODIFIER = 10_000

_TERM = re.compile(r"([+-]?)\s*(?:(\d*)d(\d+|[a-z][a-z0-9_]*)|(\d+))", re.IGNORECASE | re.ASCII)


@dataclass(frozen=True)
class CustomDie:
    """A die with named faces, e.g. Oak & Iron's Skull/Swords/... die."""

    name: str
    faces: tuple[str, ...]


@dataclass(frozen=True)
class Term:
    sign: int
    count: int
    sides: int = 0  # 0 for a plain modifier
    custom: str = ""  # name of a custom die
    value: int = 0  # the modifier


@dataclass(frozen=True)
class DiceRoll:
    """The outcome of an expression, every die kept for display."""

    expression: str
    rolls: tuple[tuple[str, tuple[int, ...]], ...]  # (term text, faces as numbers)
    faces: tuple[str, ...] = ()  # named faces of custom dice
    modifier: int = 0
    total: int = 0

    def describe(self) -> str:
        parts = [f"{term} [{', '.join(str(v) for v in values)}]" for term, values in self.rolls]
        if self.faces:
            parts.append("faces: " + ", ".join(self.faces))
        if self.modifier:
            parts.append(f"{self.modifier:+d}")
        text = " ".join(parts)
        return f"{self.expression}: {text} = **{self.total}**" if not self.faces or self.rolls else f"{self.expression}: {text}"


@dataclass
class DiceParser:
    """Parses expressions; knows the custom dice loaded from data."""

    custom: dict[str, CustomDie] = field(default_factory=dict)

    def parse(self, text: str) -> list[Term]:
        t = re.sub(r"\s*([+-])\s*", r"\1", text.strip())
        if any(ch.isspace() for ch in t):
            raise InvalidSyntax(f"Cannot read dice {quote(text)}: join terms with + or -.", hint="Write dice like 2d6+1.")
        if not t:
            raise InvalidSyntax("No dice given.", hint="Write dice like 2d6+1.")
        terms: list[Term] = []
        pos = 0
        while pos < len(t):
            m = _TERM.match(t, pos)
            if not m or m.end() == pos or (terms and not m.group(1)):
                raise InvalidSyntax(f"Cannot read dice {quote(text)} at {quote(t[pos:])}.", hint="Write dice like 2d6+1 or 3d10-2.")
            sign = -1 if m.group(1) == "-" else 1
            if m.group(4) is not None:
                value = _bounded(m.group(4), MAX_MODIFIER)
                if value > MAX_MODIFIER:
                    raise InvalidSyntax(f"Modifier {quote(m.group(4))} in {quote(text)} is too large (at most {MAX_MODIFIER}).")
                terms.append(Term(sign, 0, value=value))
            else:
                count = _bounded(m.group(2), MAX_DICE) if m.group(2) else 1
                if not 1 <= count <= MAX_DICE:
                    raise InvalidSyntax(f"{quote(text)}: roll between 1 and {MAX_DICE} dice at a time.")
                sides_text = m.group(3)
                if sides_text.isdigit():
                    sides = _bounded(sides_text, MAX_SIDES)
                    if not 2 <= sides <= MAX_SIDES:
                        raise InvalidSyntax(f"{quote(text)}: a die needs 2 to {MAX_SIDES} sides.")
                    terms.append(Term(sign, count, sides=sides))
                else:
                    key = sides_text.lower()
                    if key not in self.custom:
                        known = ", ".join(sorted(self.custom)) or "none loaded"
                        raise InvalidSyntax(f"No custom die called {quote(sides_text)}.", hint=f"Custom dice: {known}.")
                    if sign < 0:
                        raise InvalidSyntax(f"{quote(text)}: custom dice cannot be subtracted.")
                    terms.append(Term(sign, count, custom=key))
            pos = m.end()
        if len(terms) > MAX_TERMS:
            raise InvalidSyntax(f"{quote(text)} has too many terms (at most {MAX_TERMS}).")
        if sum(term.count for term in terms) > MAX_DICE:
            raise InvalidSyntax(f"{quote(text)}: at most {MAX_DICE} dice in one roll.")
        has_modifier = any(not term.count for term in terms)
        if has_modifier and any(term.custom for term in terms) and not any(term.sides for term in terms):
            raise InvalidSyntax(f"{quote(text)} adds a number to named-face dice, which have no total.",
                                hint="Roll them on their own, e.g. 2doak, or with numbered dice, e.g. 2doak+1d6+1.")
        if not any(term.count for term in terms):
            raise InvalidSyntax(f"{quote(text)} rolls no dice.", hint="Write dice like 2d6+1.")
        return terms

    def roll(self, text: str, rng: Rng) -> DiceRoll:
        terms = self.parse(text)
        rolls: list[tuple[str, tuple[int, ...]]] = []
        faces: list[str] = []
        total = modifier = 0
        for term in terms:
            if term.custom:
                die = self.custom[term.custom]
                for _ in range(term.count):
                    faces.append(die.faces[rng.below(len(die.faces))])
            elif term.sides:
                values = tuple(roll_die(rng, term.sides) for _ in range(term.count))
                rolls.append((f"{'-' if term.sign < 0 else ''}{term.count}d{term.sides}", values))
                total += term.sign * sum(values)
            else:
                modifier += term.sign * term.value
        total += modifier
        return DiceRoll(re.sub(r"\s+", "", text), tuple(rolls), tuple(faces), modifier, total)


def _bounded(digits: str, limit: int) -> int:
    """``digits`` as a number, or ``limit + 1`` when it has more digits than ``limit``: converting
    thousands of digits is slow, and past 4,300 Python refuses with an error nobody would read."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= len(str(limit)) else limit + 1


def roll_die(rng: Rng, sides: int) -> int:
    """One die. A d10 is a 0-9 die whose 0 reads as 10 (same distribution, same stream)."""
    if sides == 10:
        face = rng.below(10)
        return 10 if face == 0 else face
    return rng.die(sides)


def roll(text: str, rng: Rng) -> DiceRoll:
    """Roll a plain expression (no custom dice)."""
    return DiceParser().roll(text, rng)
