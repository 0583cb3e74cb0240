"""Book section 17.2 (morale phase): morale tests read from the owner's reference sheets (the text
has none): the factors add up and the unit passes when 1d6 is HIGHER than the total."""

from __future__ import annotations

from games.core.errors import IllegalOrder, UnknownName, quote
from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.days_of_iron.data import reference
from games.days_of_iron.orders import Morale
from games.days_of_iron.rules.losses_17_5 import check_in_play
from games.days_of_iron.rules.staff_14 import commander_quality
from games.days_of_iron.state import State, Unit


def check_tests_loaded() -> None:
    """Morale tests (17.2) need the owner's sheets loaded as a data pack."""
    if not reference().morale:
        raise IllegalOrder("no morale table is loaded; the shipped game has none.",
                           hint="Load your reference sheets as a data pack (see the help).")


def check_morale(unit: Unit, order: Morale) -> None:
    """A unit in play takes the test (17.2); the factors named must be the test's own."""
    check_in_play(unit)
    test = reference().morale[order.test]
    for word in order.factors:
        if word not in test.factors:
            raise UnknownName(f"{test.name} has no factor {quote(word)}.", hint=f"Factors: {', '.join(test.factors) or 'none'}.")


def morale_test(state: State, order: Morale, rng: Rng) -> list[Event]:
    """Add the factors (base, class, the commanding General's quality (14.2), those named) and roll."""
    unit = state.unit(order.unit)
    test = reference().morale[order.test]
    parts: list[tuple[str, int]] = []
    if test.base:
        parts.append(("base", test.base))
    if test.by_class and unit.cls:
        parts.append((f"Class {unit.cls}", test.by_class[unit.cls - 1]))
    quality = commander_quality(state, unit)
    if quality in test.by_staff:
        parts.append((f"{quality} General" if quality != "none" else "no General", test.by_staff[quality]))
    parts += [(f, test.factors[f]) for f in order.factors]
    total = sum(v for _, v in parts)
    roll = rng.die(6)
    passed = roll > total
    detail = ", ".join(f"{name} {value:+d}" for name, value in parts) or "no factors"
    return [public(f"**{test.name}** for {unit.name}: factors {detail} = {total}; 1d6 = {roll}: "
                   f"{'PASSED' if passed else 'FAILED'} - {test.on_pass if passed else test.on_fail}",
                   reveals=True)]
