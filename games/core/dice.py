"""Dice expressions, as players know them from Avrae and Dice Maiden, and custom dice with named faces.

Notation (letters in any case; spaces around ``+`` and ``-`` are fine)::

    2d6+1   d10   3d6-2+1d4        terms joined by + or -: NdM (N from 1, M from 2), or a number
    d%                             a d100
    4d6kh3  4d6k3   2d20kl1        keep the N highest / lowest dice (k3 is kh3; kh alone is kh1)
    4d6dl1  5d10dh2                drop the N lowest / highest (dl, dh: a bare d1 would be a die)
    3d6!                           exploding: a die showing its maximum rolls again and adds,
                                   as often as it keeps rolling the maximum
    d20adv+5  d20 adv+5  d20+5 adv advantage: one die rolled twice, the higher kept (2d20kh1);
    d20dis                         dis: the lower (2d20kl1); also advantage, disadv, disadvantage
    2doak                          two of the custom die ``oak`` (``data/dice``): face names, no sum
    2d6+3 fire at Huascar          text after the expression is a label shown with the result;
    2d6+3 # 3rd volley             after # it may start with anything (a digit, a dice word)

A term takes at most one keep or drop and one ``!`` (in any order: ``4d6!kh3`` = ``4d6kh3!``).
``adv``/``dis`` glued to a die (``d20adv``) give that die advantage; written after a space or after a
number (``d20 adv+5``, ``d20+5 adv``) they go to the roll's one single die, and are refused when it
has several (``d20+d4 adv``: say which). An exploded die counts as one die, its value the sum of its
rolls, so ``4d6!kh3`` keeps three whole dice. Among equal dice the leftmost are kept. A d10 is
rolled as a 0-9 die whose 0 reads as 10.

Draw order (what a verifier re-derives from the stream): terms left to right; within a term its dice
left to right; a die's explosion rolls straight after it, before the next die; advantage is the
term's two dice in order; keeping and dropping draw nothing. Custom dice draw one ``range(faces)``
each, in the same left-to-right order.

Limits: at most ``MAX_DICE`` dice (advantage counts two), ``MAX_SIDES`` sides, ``MAX_TERMS``
terms, modifiers up to ``MAX_MODIFIER``, and ``MAX_EXPLOSIONS`` explosion rolls in one roll: past
that a maximum no longer explodes and the result says so (a d2! cannot loop for ever). A label is
at most ``MAX_LABEL`` characters and is sanitised (``sanitise_label``): it is shown, never
evaluated or used as a format string. An expression padded past ``MAX_EXPRESSION`` characters
(leading zeros) is shown in its short form.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from games.core.errors import InvalidSyntax, quote
from games.core.rng import Rng

MAX_DICE = 100
MAX_SIDES = 1000
MAX_TERMS = 10
MAX_MODIFIER = 10_000
MAX_EXPLOSIONS = 100  # extra dice from explosions in one roll, besides MAX_DICE
MAX_LABEL = 100
MAX_EXPRESSION = 200  # an expression written longer (leading zeros) is shown in its short form

_FLAGS = re.IGNORECASE | re.ASCII
_DICE = re.compile(r"(\d*)d(%+|\d+|[a-z][a-z0-9_]*)", _FLAGS)
_NUMBER = re.compile(r"\d+", re.ASCII)
_KEEP = re.compile(r"(kh|kl|dh|dl|k)(?:(\d+)|(?![a-z]))", _FLAGS)
_ADV = re.compile(r"advantage|disadvantage|disadv|adv|dis", _FLAGS)
_ADV_WORD = re.compile(r"(advantage|disadvantage|disadv|adv|dis)(?![a-z0-9_%!])", _FLAGS)
_SUFFIX_WORD = re.compile(r"(kh|kl|dh|dl|k)\d*|!.*", _FLAGS)
_DICE_WORD = re.compile(r"\d*d(\d|%)|\d+d[a-z]", _FLAGS)
_HIDDEN = "*_~`|<>[]\\#"  # Markdown, spoilers, quotes, mentions (<@id>), escapes, headings
_ZWSP = "\u200b"
_SUFFIXES = ("After a die you may write kh, kl, dh, dl, ! or adv/dis (keep highest or lowest, drop lowest or highest, "
             "explode, advantage or disadvantage).")
_EXAMPLE = "Write dice like 2d6+1, 4d6kh3, 3d6! or d20adv+5."


def sanitise_label(text: str) -> str:
    """A label safe to show anywhere: one line, no Markdown or mention syntax, and every ``@``
    followed by a zero-width space so ``@everyone`` or ``@here`` can never ping. Idempotent, so a
    label read back from a stored order is unchanged."""
    kept: list[str] = []
    for ch in text:
        category = unicodedata.category(ch)
        if category in ("Cc", "Zl", "Zp"):
            kept.append(" ")
        elif category not in ("Cf", "Cs") and ch not in _HIDDEN:
            kept.append(ch)
    return " ".join("".join(kept).split()).replace("@", "@" + _ZWSP)


def _adv_name(word: str) -> str:
    return "dis" if word.lower().startswith("dis") else "adv"


@dataclass(frozen=True)
class CustomDie:
    """A die with named faces, e.g. Oak & Iron's Skull/Swords/... die."""

    name: str
    faces: tuple[str, ...]


@dataclass(frozen=True)
class Term:
    """One term of an expression. Advantage is stored as what it rolls (two dice, keep one), with
    ``advantage`` kept only so the result reads as the player wrote it."""

    sign: int
    count: int
    sides: int = 0  # 0 for a plain modifier or a custom die
    custom: str = ""  # name of a custom die
    value: int = 0  # the modifier
    keep: str = ""  # "kh", "kl", "dh", "dl" or "" (all dice count)
    keep_n: int = 0
    explode: bool = False
    advantage: str = ""  # "adv" or "dis"
    percent: bool = False  # written d%

    @property
    def notation(self) -> str:
        """The term as shown and as a stored order carries it: reads back to the same term."""
        sign = "-" if self.sign < 0 else ""
        if not self.count:
            return f"{sign}{self.value}"
        if self.custom:
            return f"{sign}{self.count}d{self.custom}"
        count = 1 if self.advantage else self.count
        text = f"{sign}{count}d{'%' if self.percent else self.sides}{'!' if self.explode else ''}"
        if self.advantage:
            return text + self.advantage
        return text + (f"{self.keep}{self.keep_n}" if self.keep else "")

    def kept(self, values: list[int]) -> list[bool]:
        """Which dice count: the highest or lowest, ties going to the leftmost die."""
        if not self.keep:
            return [True] * len(values)
        highest = self.keep in ("kh", "dl")
        n = self.keep_n if self.keep in ("kh", "kl") else len(values) - self.keep_n
        order = sorted(range(len(values)), key=lambda i: (-values[i] if highest else values[i], i))
        chosen = set(order[:n])
        return [i in chosen for i in range(len(values))]


@dataclass(frozen=True)
class Expression:
    """What the dice text says: the terms, the expression as one word, and the sanitised label."""

    terms: tuple[Term, ...]
    text: str
    label: str = ""

    @property
    def order_text(self) -> str:
        """The dice text a stored order carries; reading it again gives this same expression."""
        return f"{self.text} # {self.label}" if self.label else self.text


@dataclass(frozen=True)
class Die:
    """One die as rolled: its rolls (several when it exploded) and whether it counts."""

    faces: tuple[int, ...]
    kept: bool = True

    @property
    def value(self) -> int:
        return sum(self.faces)

    def show(self) -> str:
        text = "+".join(f"{f}!" for f in self.faces[:-1]) + ("+" if len(self.faces) > 1 else "") + str(self.faces[-1])
        return text if self.kept else f"~~{text}~~"


@dataclass(frozen=True)
class RolledTerm:
    """A numeric term's dice, dropped ones included, for display and for checking."""

    text: str
    sign: int
    sides: int
    dice: tuple[Die, ...]

    @property
    def subtotal(self) -> int:
        return self.sign * sum(d.value for d in self.dice if d.kept)


@dataclass(frozen=True)
class DiceRoll:
    """The outcome of an expression, every die kept for display."""

    expression: str
    terms: tuple[RolledTerm, ...] = ()
    faces: tuple[str, ...] = ()  # named faces of custom dice
    modifier: int = 0
    total: int = 0
    label: str = ""
    capped: bool = False  # explosions stopped at MAX_EXPLOSIONS

    @property
    def rolls(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """(term text, each die's value) for every numeric term."""
        return tuple((t.text, tuple(d.value for d in t.dice)) for t in self.terms)

    def describe(self) -> str:
        """One line; a plain expression reads exactly as it always has (stored games are verified
        by comparing texts)."""
        head = f"{self.expression} ({self.label})" if self.label else self.expression
        parts = [f"{t.text} [{', '.join(d.show() for d in t.dice)}]" for t in self.terms]
        if self.faces:
            parts.append("faces: " + ", ".join(self.faces))
        if self.modifier:
            parts.append(f"{self.modifier:+d}")
        text = " ".join(parts)
        if self.faces and not self.terms:
            return f"{head}: {text}"
        note = f" (explosions stopped at the cap of {MAX_EXPLOSIONS} extra dice)" if self.capped else ""
        return f"{head}: {text} = **{self.total}**{note}"


@dataclass
class DiceParser:
    """Parses expressions; knows the custom dice loaded from data."""

    custom: dict[str, CustomDie] = field(default_factory=dict)

    def parse(self, text: str) -> list[Term]:
        return list(self.read(text).terms)

    def read(self, text: str) -> Expression:
        """The expression and label of a dice text, or InvalidSyntax quoting it."""
        terms, end, label = _Reader(self, text).read()
        raw = text.strip()[:end]
        compact = re.sub(r"\s+", "", raw)
        same = len(compact) <= MAX_EXPRESSION  # thousands of leading zeros are not echoed back
        if same and compact != raw:  # spaced-out adv may attach differently once the spaces are gone
            try:
                same = _Reader(self, compact).read()[0] == terms
            except InvalidSyntax:
                same = False
        if not same:
            compact = "".join(("+" if i and t.sign > 0 else "") + t.notation for i, t in enumerate(terms))
        clean = sanitise_label(label)
        if len(clean.replace(_ZWSP, "")) > MAX_LABEL:
            raise InvalidSyntax(f"The label after {quote(compact)} is {len(clean.replace(_ZWSP, ''))} characters long; "
                                f"at most {MAX_LABEL}.", hint="Shorten it.")
        return Expression(tuple(terms), compact, clean)

    def roll(self, text: str, rng: Rng) -> DiceRoll:
        """Roll in the documented draw order (module docstring)."""
        expr = self.read(text)
        rolled: list[RolledTerm] = []
        faces: list[str] = []
        total = modifier = extra = 0
        capped = False
        for term in expr.terms:
            if term.custom:
                die = self.custom[term.custom]
                for _ in range(term.count):
                    faces.append(die.faces[rng.below(len(die.faces))])
            elif term.sides:
                chains: list[tuple[int, ...]] = []
                for _ in range(term.count):
                    chain = [roll_die(rng, term.sides)]
                    while term.explode and chain[-1] == term.sides:
                        if extra >= MAX_EXPLOSIONS:
                            capped = True
                            break
                        extra += 1
                        chain.append(roll_die(rng, term.sides))
                    chains.append(tuple(chain))
                kept = term.kept([sum(c) for c in chains])
                result = RolledTerm(term.notation, term.sign, term.sides,
                                    tuple(Die(c, k) for c, k in zip(chains, kept, strict=True)))
                rolled.append(result)
                total += result.subtotal
            else:
                modifier += term.sign * term.value
        total += modifier
        return DiceRoll(expr.text, tuple(rolled), tuple(faces), modifier, total, expr.label, capped)


class _Reader:
    """One pass over a dice text: terms until the end, a ``#`` or a label word."""

    def __init__(self, parser: DiceParser, text: str) -> None:
        self.custom = parser.custom
        self.text = text
        self.src = text.strip()
        self.pos = 0
        self.terms: list[Term] = []
        self.loose: list[str] = []  # adv/dis words not glued to a die

    def fail(self, message: str, hint: str = "") -> InvalidSyntax:
        return InvalidSyntax(f"{quote(self.text)}: {message}", hint=hint)

    def read(self) -> tuple[list[Term], int, str]:
        src = self.src
        if not src:
            raise InvalidSyntax("No dice given.", hint="Write dice like 2d6+1.")
        label = ""
        while True:
            self.term()
            if len(self.terms) > MAX_TERMS:
                raise InvalidSyntax(f"{quote(self.text)} has too many terms (at most {MAX_TERMS}).")
            end, label, more = self.after_term()
            if not more:
                break
        self.place_loose_advantage()
        self.check_totals()
        return self.terms, end, label

    def term(self) -> None:
        src = self.src
        sign = 1
        if self.pos < len(src) and src[self.pos] in "+-":
            sign = -1 if src[self.pos] == "-" else 1
            self.pos = _skip(src, self.pos + 1)
        start = self.pos
        number = _NUMBER.match(src, start)
        m = _DICE.match(src, start)
        if m and number and _ADV_WORD.match(src, number.end()):
            m = None  # d20+5dis is 5 then dis, not five dice named "is"
        if m:
            self.pos = m.end()
            self.dice_term(sign, m)
            return
        m = number
        if m:
            value = _bounded(m.group(), MAX_MODIFIER)
            if value > MAX_MODIFIER:
                raise InvalidSyntax(f"Modifier {quote(m.group())} in {quote(self.text)} is too large (at most {MAX_MODIFIER}).")
            self.terms.append(Term(sign, 0, value=value))
            self.pos = m.end()
            return
        raise self.unreadable(start, after_term=False)

    def unreadable(self, at: int, *, after_term: bool = True) -> InvalidSyntax:
        rest = self.src[at:]
        last = self.terms[-1] if self.terms and after_term else None
        before = last.notation if last else ""
        if _ADV.match(rest):
            hint = "Write adv or dis right after the die, e.g. d20adv+5."
        elif last and last.sides and re.match(r"d\d", rest, _FLAGS):
            hint = f"To drop the lowest dice write dl (e.g. {before}dl{rest[1:].split()[0][:3]}); dh drops the highest."
        elif last and last.sides and re.match(r"e\d*(\W|$)", rest, _FLAGS):
            hint = f"To explode dice write ! after them, e.g. {before}!."
        elif last and last.sides and not last.advantage:
            hint = _SUFFIXES
        else:
            hint = _EXAMPLE
        if any(ch.isspace() for ch in self.src):
            hint += " Join terms with + or -, and write each term without spaces (2d6, not 2d 6)."
        return InvalidSyntax(f"Cannot read dice {quote(self.text)} at {quote(rest) if rest else 'the end'}.", hint=hint)

    def dice_term(self, sign: int, m: re.Match[str]) -> None:
        src = self.src
        count = _bounded(m.group(1), MAX_DICE) if m.group(1) else 1
        if not 1 <= count <= MAX_DICE:
            raise InvalidSyntax(f"{quote(self.text)}: roll between 1 and {MAX_DICE} dice at a time.")
        sides_text = m.group(2)
        if not sides_text[0].isalpha():
            self.numeric_term(sign, count, sides_text)
            return
        key = sides_text.lower()
        if key not in self.custom:
            if any(key.startswith(name) and (_KEEP.match(key, len(name)) or _ADV.match(key, len(name)))
                   for name in self.custom):
                raise self.fail("dice with named faces cannot be kept, dropped, exploded or rolled with advantage.")
            known = ", ".join(sorted(self.custom)) or "none loaded"
            raise InvalidSyntax(f"No custom die called {quote(sides_text)}.", hint=f"Custom dice: {known}.")
        if sign < 0:
            raise InvalidSyntax(f"{quote(self.text)}: custom dice cannot be subtracted.")
        if self.pos < len(src) and src[self.pos] == "!":
            raise self.fail("dice with named faces cannot be kept, dropped, exploded or rolled with advantage.")
        self.terms.append(Term(sign, count, custom=key))

    def numeric_term(self, sign: int, count: int, sides_text: str) -> None:
        sides, percent = self._sides(sides_text)
        die = f"{count}d{'%' if percent else sides}"
        keep, keep_n, explode, advantage = self._suffixes(die)
        count, keep, keep_n = self._checked_keep(count, sides, die, keep, keep_n, advantage)
        self.terms.append(Term(sign, count, sides=sides, keep=keep, keep_n=keep_n, explode=explode,
                               advantage=advantage, percent=percent))

    def _sides(self, sides_text: str) -> tuple[int, bool]:
        """(sides, whether written d%)."""
        if sides_text.startswith("%"):
            if len(sides_text) > 1:
                raise self.fail("write d% (a d100) with one %.", hint="e.g. d% or 2d%+5.")
            return 100, True
        sides = _bounded(sides_text, MAX_SIDES)
        if not 2 <= sides <= MAX_SIDES:
            raise self.fail(f"a die needs 2 to {MAX_SIDES} sides.")
        return sides, False

    def _suffixes(self, die: str) -> tuple[str, int, bool, str]:
        """What follows a die, in any order, each at most once: ``!``, ``adv``/``dis``, a keep or drop."""
        src = self.src
        keep, keep_n, explode, advantage = "", 0, False, ""
        while self.pos < len(src):
            here = self.pos
            if src[here] == "!":
                if explode or src.startswith("!!", here):
                    raise self.fail("explode a die with a single !.",
                                    hint=f"Write {die}!: each extra roll already adds to the die that rolled its maximum.")
                explode = True
                self.pos += 1
            elif m := _ADV.match(src, here):
                word = _adv_name(m.group())
                if advantage:
                    raise self.fail("advantage and disadvantage both given." if word != advantage else "write adv or dis once.")
                advantage = word
                self.pos = m.end()
            elif m := _KEEP.match(src, here):
                if keep:
                    raise self.fail("one keep or drop per term.", hint=f"e.g. {die}kh3 or {die}dl1.")
                kind = m.group(1).lower()
                keep = "kh" if kind == "k" else kind
                keep_n = _bounded(m.group(2), MAX_DICE) if m.group(2) else 1
                self.pos = m.end()
            else:
                break
        return keep, keep_n, explode, advantage

    def _checked_keep(self, count: int, sides: int, die: str, keep: str, keep_n: int,
                      advantage: str) -> tuple[int, str, int]:
        """(count, keep, keep_n) with advantage turned into its keep, each checked against the dice."""
        if advantage:
            if keep:
                raise self.fail(f"advantage already keeps the higher of two dice; write either d{sides}adv or 2d{sides}kh1.")
            if count != 1:
                raise self.fail(f"advantage is one die rolled twice (d{sides}adv is 2d{sides}kh1).",
                                hint=f"For the best of {count + 1} dice write {count + 1}d{sides}kh1.")
            return 2, ("kh" if advantage == "adv" else "kl"), 1
        if keep in ("kh", "kl") and not 1 <= keep_n <= count:
            raise self.fail(f"with {count} dice, keep between 1 and {count}.", hint=f"e.g. {die}kh{max(1, count - 1)}.")
        if keep in ("dh", "dl"):
            if count == 1:
                raise self.fail("with one die there is nothing to drop.", hint=f"e.g. 4d{die.split('d')[1]}dl1.")
            if not 1 <= keep_n < count:
                raise self.fail(f"with {count} dice, drop between 1 and {count - 1}.", hint=f"e.g. {die}dl1.")
        return count, keep, keep_n

    def after_term(self) -> tuple[int, str, bool]:
        """After a term: (end of the expression, label, whether another term follows)."""
        src = self.src
        while True:
            end = self.pos
            p = _skip(src, end)
            if p >= len(src):
                return end, "", False
            ch = src[p]
            if ch in "+-":
                self.pos = p
                return end, "", True
            if ch == "#":
                return end, src[p + 1:], False
            m = _ADV_WORD.match(src, p)
            if m:
                self.loose.append(_adv_name(m.group()))
                self.pos = m.end()
                continue
            if p == end:
                raise self.unreadable(end)
            word = src[p:].split(None, 1)[0]
            word = word[:20]
            so_far = "".join(("+" if i and t.sign > 0 else "") + t.notation for i, t in enumerate(self.terms))
            if word[0].isdigit() or _DICE_WORD.match(word) or any(
                    re.fullmatch(rf"d{re.escape(name)}", word, _FLAGS) for name in self.custom):
                raise InvalidSyntax(f"Cannot read dice {quote(self.text)}: join terms with + or -, or start a label with #.",
                                    hint=f"e.g. {so_far}+{word} or {so_far} # {word}")
            if _SUFFIX_WORD.fullmatch(word):
                raise self.fail(f"write {word} right after the die, without a space.", hint=f"e.g. {so_far}{word}.")
            return end, src[p:], False

    def place_loose_advantage(self) -> None:
        """``d20 adv+5`` and ``d20+5 adv``: a loose adv/dis goes to the roll's one single die."""
        if not self.loose:
            return
        given = {t.advantage for t in self.terms if t.advantage} | set(self.loose)
        if len(given) > 1:
            raise self.fail("advantage and disadvantage both given.", hint="Write one of them, e.g. d20adv.")
        if len(self.loose) > 1 or any(t.advantage for t in self.terms):
            raise self.fail("write adv or dis once.", hint="e.g. d20adv+5.")
        single = [i for i, t in enumerate(self.terms) if t.sides and t.count == 1 and not t.keep]
        if not single:
            raise self.fail("advantage needs one die to roll twice, keeping the higher.",
                            hint="e.g. d20 adv+5; for the best of several dice use kh, e.g. 3d20kh1.")
        if len(single) > 1:
            dice = [self.terms[i].notation.lstrip("-") for i in single]
            raise self.fail(f"which die has advantage ({', '.join(dice)})? Write adv right after it.",
                            hint=f"e.g. {dice[0]}adv.")
        i = single[0]
        word = self.loose[0]
        self.terms[i] = Term(self.terms[i].sign, 2, sides=self.terms[i].sides, keep="kh" if word == "adv" else "kl",
                             keep_n=1, explode=self.terms[i].explode, advantage=word, percent=self.terms[i].percent)

    def check_totals(self) -> None:
        terms, text = self.terms, self.text
        if sum(term.count for term in terms) > MAX_DICE:
            raise InvalidSyntax(f"{quote(text)}: at most {MAX_DICE} dice in one roll.")
        has_modifier = any(not term.count for term in terms)
        if has_modifier and any(term.custom for term in terms) and not any(term.sides for term in terms):
            raise InvalidSyntax(f"{quote(text)} adds a number to named-face dice, which have no total.",
                                hint="Roll them on their own, e.g. 2doak, or with numbered dice, e.g. 2doak+1d6+1.")
        if not any(term.count for term in terms):
            raise InvalidSyntax(f"{quote(text)} rolls no dice.", hint="Write dice like 2d6+1.")


def _skip(src: str, pos: int) -> int:
    """The position after any spaces at ``pos``."""
    while pos < len(src) and src[pos].isspace():
        pos += 1
    return pos


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
    """Roll an expression without custom dice."""
    return DiceParser().roll(text, rng)
