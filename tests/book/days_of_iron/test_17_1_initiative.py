"""Book 17 (the phases of a turn) and 17.1 (the Initiative phase), checked on the measured table."""

from __future__ import annotations

from games.days_of_iron.state import STEPS
from tests.book.days_of_iron.table import table, text_of
from tests.days_of_iron.helpers import RS, new_game, order, ready_both
from tests.scripted import DiceThenStream


def test_17_the_initiative_player_goes_first_in_each_phase_in_the_book_order() -> None:
    """17: "The player with the initiative will go first in each of the phases unless they are
    simultaneous phases. The Phases are: Initiative Phase, Morale Phase, Shooting Phase, Movement
    Phase, Close Assault Phase." With the Prussians holding the initiative, the turn runs Morale,
    Shooting, Movement, Close Assault, the Prussians acting first in each, then the French."""
    state, _ = table(french_first=False)
    seen: list[tuple[str, str]] = []
    while state.phase == "turn":
        who = RS.to_act(state)[0]
        seen.append((STEPS[state.step], who))
        order(state, who, "next", DiceThenStream([4] * 40))
    assert seen == [
        (step, side) for step in ("Morale", "Shooting", "Movement", "Close Assault") for side in ("prussian", "french")
    ], seen


def test_17_1_both_roll_for_the_initiative_and_draws_are_rerolled() -> None:
    """17.1: "Before starting each turn, both players roll 1d6 to determine who has the initiative
    for that turn. Draws are re-rolled." The French and Prussians both roll 3, then 2 and 5: the
    Prussians have the initiative and act first in the Morale phase."""
    state, rng = new_game("meeting", scouting="no")
    ready_both(state, rng)
    said = text_of(order(state, "french", "initiative", DiceThenStream([3, 3, 2, 5])))
    assert "French 3, Prussians 3" in said and "re-roll" in said and "French 2, Prussians 5" in said, said
    assert STEPS[state.step] == "Morale" and RS.to_act(state) == ["prussian"]
