"""/game replay folds the stored orders with ``shown_only`` (``Ruleset.replay``: Days of Iron does not
check a move again, the check only refuses); /game verify folds them with every check. For every
system and scenario's pinned log (tests/rules_pins.json: random legal orders), both folds must give
the same state, random stream, events and spectator View after every order, so a replay's frames are
the same pictures as before the checks were skipped."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rooms.common import fold
from games.core.errors import GameError
from games.core.ruleset import get_ruleset
from games.days_of_iron.rules import charges_17_2, movement_17_4, squadrons_17_2_6
from tests.rules_pins import cases, load_pins, seed_of

PINNED: dict[str, Any] = load_pins()


def steps(system: str, scenario: str, *, shown_only: bool) -> list[tuple[Any, int, list[Any], Any]]:
    """(encoded state, stream counter, events, spectator View) after set-up and after each order."""
    rules = get_ruleset(system)
    log = [(seat, text) for seat, text in PINNED[f"{system}/{scenario}"]["log"]]
    return [(rules.encode(state), rng.counter, events, rules.view(state, None))
            for state, rng, events in fold(rules, seed_of(system, scenario), scenario, {}, log, shown_only=shown_only)]


@pytest.mark.slow
@pytest.mark.parametrize(("system", "scenario"), cases())
def test_a_replay_folds_every_pinned_log_as_a_verify_does(system: str, scenario: str) -> None:
    shown, checked = steps(system, scenario, shown_only=True), steps(system, scenario, shown_only=False)
    assert len(shown) == len(checked) == len(PINNED[f"{system}/{scenario}"]["log"]) + 1
    for at, (a, b) in enumerate(zip(shown, checked, strict=True)):
        assert a[0] == b[0], f"{system}/{scenario}: the state differs after order {at}"
        assert a[1] == b[1], f"{system}/{scenario}: the random stream differs after order {at}"
        assert a[2] == b[2], f"{system}/{scenario}: the events differ after order {at}"
        assert a[3] == b[3], f"{system}/{scenario}: the spectator's picture differs after order {at}"


@pytest.mark.slow
def test_days_of_iron_moves_and_charges_are_checked_by_a_verify_and_not_by_a_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """The skipped checks are really skipped (and the test above really covers moves): the pinned
    measured-table logs hold moves, which a verify's fold checks and a replay's does not."""
    calls: list[str] = []

    def counting(module: Any, name: str) -> None:
        real = getattr(module, name)

        def counted(state: Any, seat: str, order: Any) -> Any:
            calls.append(type(order).__name__)
            return real(state, seat, order)

        monkeypatch.setattr(module, name, counted)

    counting(movement_17_4, "check_move")
    counting(charges_17_2, "check_charge")
    real_squadron = squadrons_17_2_6.check_squadron

    def squadron(state: Any, seat: str, order: Any) -> Any:
        """A squadron charge is checked in full by a replay too (only a Move or a Charge order is
        not): the charge check it makes of its own is not one of the skipped ones."""
        before = len(calls)
        try:
            return real_squadron(state, seat, order)
        finally:
            del calls[before:]

    monkeypatch.setattr(squadrons_17_2_6, "check_squadron", squadron)
    scenarios = [sc for system, sc in cases() if system == "days-of-iron"]
    for scenario in scenarios:
        steps("days-of-iron", scenario, shown_only=False)
    checked = list(calls)
    calls.clear()
    for scenario in scenarios:
        steps("days-of-iron", scenario, shown_only=True)
    assert checked.count("Move") >= 20, f"the pinned Days of Iron logs hold {checked.count('Move')} moves: too few to compare"
    assert calls == []


def test_a_replay_refuses_a_stored_text_that_no_longer_reads_as_play_does() -> None:
    """What ``replay`` still does: a stored text that no longer reads is refused (the replay then
    says the orders no longer replay), the same refusal as ``play``'s."""
    rules = get_ruleset("days-of-iron")
    refusals = []
    for shown_only in (True, False):
        folded = fold(rules, seed_of("days-of-iron", "spicheren"), "spicheren", {}, [("umpire", "no such order")],
                      shown_only=shown_only)
        next(folded)
        with pytest.raises(GameError) as refused:
            next(folded)
        refusals.append(str(refused.value))
    assert refusals[0] == refusals[1] and "no such order" in refusals[0]
