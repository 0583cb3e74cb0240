"""The one check of a game's options against its ``OptionSpec``s, with one wording for every system.

The table service runs it on ``/game new``; a system's ``setup`` runs it too, so tests and
scripts that call ``setup`` directly get the same answers. Keys and listed choices are matched
case-insensitively and come back spelled as declared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.core.errors import InvalidSyntax, UnknownName, quote
from games.core.ruleset import OptionSpec


def check_options(specs: Sequence[OptionSpec], given: Mapping[str, str], *, system: str) -> dict[str, str]:
    """The given options, checked and spelled canonically (not merged with the defaults).

    Raises UnknownName for a key no spec declares, InvalidSyntax for a value outside the choices
    or the number range; both quote the input and list what would be right.
    """
    by_key = {spec.key.casefold(): spec for spec in specs}
    out: dict[str, str] = {}
    for key, value in given.items():
        spec = by_key.get(key.strip().casefold())
        if spec is None:
            known = ", ".join(sorted(s.key for s in specs)) or "none"
            raise UnknownName(f"{system} has no option {quote(key)}.", hint=f"Options: {known}.")
        out[spec.key] = _checked(spec, value.strip())
    return out


def with_defaults(specs: Sequence[OptionSpec], options: Mapping[str, str]) -> dict[str, str]:
    """Every option: the given (checked) values over the declared defaults."""
    return {spec.key: spec.default for spec in specs} | dict(options)


def _checked(spec: OptionSpec, value: str) -> str:
    if value == "" and spec.default == "":
        return value
    if spec.choices:
        for choice in spec.choices:
            if value.casefold() == choice.casefold():
                return choice
        raise InvalidSyntax(f"Option {spec.key}={quote(value)} is not allowed.",
                            hint=f"Choose one of {', '.join(spec.choices)}.")
    if spec.between is not None:
        lo, hi = spec.between
        if not (value.isascii() and value.isdigit() and len(value) <= 6 and lo <= int(value) <= hi):
            raise InvalidSyntax(f"Option {spec.key}={quote(value)} is not allowed.",
                                hint=f"Give a whole number from {lo} to {hi}.")
        return value  # as given: stored games replay with exactly the text they were created with
    return value
