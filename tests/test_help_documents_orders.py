"""`/help system:<id>` documents every order a system's grammar accepts (issue 15's done-criterion).

The help text is written by hand, so an order added to ``orders.py`` and forgotten in the help is
an order players cannot find. For each order class this checks that one help line holds every
keyword of its pattern, the optional ones included (``wheel``, ``forced``...)."""

from __future__ import annotations

import importlib
import re
from types import ModuleType

import pytest

from games.core.notation import Grammar, _Field, _Group, _Lit, _Part, _Shape
from games.core.ruleset import get_ruleset, system_ids
from games.days_of_iron import orders as doi


def _orders_module(system_id: str) -> ModuleType:
    """The ``orders`` module beside the ruleset that registered ``system_id`` (every package has one)."""
    package = type(get_ruleset(system_id)).__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.orders")


# Every shipped system, read from the registry, so a new one is checked without editing this file
# (a test elsewhere may register a toy ruleset of its own outside games/: not shipped, not checked).
SYSTEMS: dict[str, ModuleType] = {
    s: _orders_module(s) for s in system_ids() if type(get_ruleset(s)).__module__.startswith("games.")
}


def grammars(module: ModuleType) -> list[Grammar]:
    return [value for value in vars(module).values() if isinstance(value, Grammar)]


def keywords(parts: tuple[_Part, ...]) -> list[str]:
    """The literal words of a pattern, optional groups included."""
    found: list[str] = []
    for part in parts:
        if isinstance(part, _Lit):
            found.append(part.word.lower())
        elif isinstance(part, _Group):
            found += keywords(part.parts)
        elif isinstance(part, _Field):
            continue
    return found


def documented(shape: _Shape, help_text: str) -> bool:
    words = keywords(shape.pattern)
    for line in help_text.lower().splitlines():
        if all(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", line) for w in words):
            return True
    return False


def test_every_system_with_orders_is_checked() -> None:
    assert {"days-of-iron", "table"} <= SYSTEMS.keys(), sorted(SYSTEMS)  # the registry was read
    for system_id, module in SYSTEMS.items():
        assert grammars(module), f"{system_id}: no Grammar found in {module.__name__}"
        assert get_ruleset(system_id).help()


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_help_names_every_order(system_id: str) -> None:
    help_text = get_ruleset(system_id).help()
    missing = [shape.usage() for grammar in grammars(SYSTEMS[system_id]) for shape in grammar.shapes
               if not documented(shape, help_text)]
    assert not missing, f"/help system:{system_id} does not document: {missing}"


def test_the_check_can_fail() -> None:
    """A help text that leaves out an order's keyword is caught."""
    shape = doi.GRAMMAR.shapes[0]
    words = keywords(shape.pattern)
    assert words, shape.usage()
    assert documented(shape, " ".join(words))
    assert not documented(shape, " ".join(words[:-1]) + " something-else")
