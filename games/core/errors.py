"""Errors whose messages a player reads.

Every message says what was wrong (quoting the input) and, where it can, what would be right.
All are ``ValueError`` subclasses, like python-chess's move errors, so callers may catch either.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Mapping


def quote(text: str) -> str:
    """Quote user input for an error message, trimmed so a message never explodes."""
    text = text.strip()
    if len(text) > 120:
        text = text[:117] + "..."
    return f"`{text}`"


class GameError(ValueError):
    """Base class: the message is shown to the user; nothing was changed."""

    kind = "error"

    def __init__(self, message: str, *, hint: str = "") -> None:
        self.message = message
        self.hint = hint
        super().__init__(self.text)

    @property
    def text(self) -> str:
        return f"{self.message} {self.hint}".strip()


class InvalidSyntax(GameError):
    """The input could not be read at all (bad notation, malformed dice)."""

    kind = "invalid syntax"


class IllegalOrder(GameError):
    """The input was understood but the rules forbid it now."""

    kind = "illegal order"


class AmbiguousName(GameError):
    """A name matched more than one thing."""

    kind = "ambiguous name"


class UnknownName(GameError):
    """A name matched nothing."""

    kind = "unknown name"


class NotYourTurn(GameError):
    """Someone other than the acting seat tried to act."""

    kind = "not your turn"


class NoSuchGame(GameError):
    """The channel has no game (or not the one named)."""

    kind = "no such game"


class WrongPhase(GameError):
    """The command exists but not in this phase of the game."""

    kind = "wrong phase"


class NotAllowed(GameError):
    """The user lacks the seat or role the command needs."""

    kind = "not allowed"


class DataError(Exception):
    """A data file is missing, malformed or fails validation (for admins, not players)."""


def fold(text: str) -> str:
    """A name as matched: case and accents folded (NFKD, combining marks dropped), so a player
    without the keys types ``Jager`` for ``Jäger`` and ``a cheval`` for ``à cheval``."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def resolve_name(text: str, names: dict[str, str], what: str) -> str:
    """Match ``text`` to one key of ``names`` (key -> display name), case-insensitively, and
    accents folded where the exact spelling matches nothing (``fold``).

    An exact match wins; otherwise a unique prefix of the name, or of the name from any word on
    ("Ferdinand Max" and "Max" both find "Erzherzog Ferdinand Max").
    Raises UnknownName or AmbiguousName quoting the input and listing candidates.
    """
    wanted = text.strip().casefold()
    if not wanted:
        raise InvalidSyntax(f"Expected a {what} name, got nothing.")
    exact = [k for k, n in names.items() if n.casefold() == wanted or k.casefold() == wanted]
    if len(exact) == 1:
        return exact[0]
    if not exact:
        folded = fold(wanted)
        exact = [k for k, n in names.items() if fold(n) == folded or fold(k) == folded]
        if len(exact) == 1:
            return exact[0]

    def prefixed(key: str, name: str, shape: Callable[[str], str], typed: str) -> bool:
        tails = shape(name).split()
        return shape(key).startswith(typed) or any(" ".join(tails[i:]).startswith(typed) for i in range(len(tails)))

    prefix = [k for k, n in names.items() if prefixed(k, n, str.casefold, wanted)]
    if len(prefix) == 1:  # as typed, accents and all, a unique prefix wins before folding widens it
        return prefix[0]
    prefix = [k for k, n in names.items() if prefixed(k, n, fold, fold(wanted))]
    if len(prefix) == 1:
        return prefix[0]
    choices = ", ".join(sorted(names.values()))
    if not prefix:
        raise UnknownName(f"No {what} called {quote(text)}.", hint=f"Known: {choices}.")
    matched = ", ".join(sorted(names[k] for k in prefix))
    raise AmbiguousName(f"{quote(text)} could be any of: {matched}.", hint="Type more of the name.")


SHORT_LIST = 8  # names a refusal lists in full; of more it suggests the closest few


def resolve_suggesting(text: str, known: Mapping[str, str], what: str) -> str:
    """``resolve_name``, but a name matching nothing among many is answered with the closest few
    names (difflib, accents folded) rather than every one of an army's 29 units."""
    try:
        return resolve_name(text, dict(known), what)
    except UnknownName as err:
        if len(known) <= SHORT_LIST:
            raise
        raise UnknownName(err.message, hint=closest_hint(text, known)) from None


def closest_hint(text: str, known: Mapping[str, str], *, tail: str = " `?` lists your orders.") -> str:
    """``Closest: A, B, C.``: the display names nearest the text as typed."""
    by_fold = {fold(name): name for name in known.values()}
    near = difflib.get_close_matches(fold(text), list(by_fold), n=3, cutoff=0.0)
    return "Closest: " + ", ".join(by_fold[n] for n in near) + "." + tail


def quoting(text: str, err: GameError) -> GameError:
    """The refusal with the whole order quoted first (once), so a player sees what was refused."""
    if err.message.startswith(quote(text)) or not text.strip():
        return err
    return type(err)(f"{quote(text)}: {err.message}", hint=err.hint)
