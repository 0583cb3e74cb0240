"""The typed orders (issue 14): what the notation reads into each class, and that ``apply`` checks a
typed order it is handed directly (a replayed log, a test) as strictly as one it read from text."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalOrder, InvalidSyntax, NotAllowed, NotYourTurn, WrongPhase
from games.core.notation import Ref
from games.core.rng import Rng, seed_from_number
from games.ironclad_draughts.orders import (
    ACTIVATION,
    AdjustAt,
    AdjustDamage,
    AdjustFlotation,
    AdjustHeading,
    Deal,
    Fire,
    Move,
    Pass,
    ship_names,
)
from games.ironclad_draughts.state import State
from tests.ironclad_draughts.helpers import RS, activate, damage, new_game, place, ship


def lissa() -> State:
    state = new_game("standard")
    place(state, "Habsburg", "c3", "N")
    place(state, "Affondatore", "d6", "S")
    activate(state, "Habsburg", "4H")
    return state


def ref(state: State, name: str) -> Ref:
    s = ship(state, name)
    return Ref(s.id, s.name)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("move 2", Move(2)),
        ("MOVE 2 ahead", Move(2)),
        ("move 1 p", Move(1, "port")),
        ("move diag stbd turn larboard", Move(1, "starboard", "port")),
        ("move diagonal s leave", Move(1, "starboard", None, True)),
        ("move 2 straight turn sb", Move(2, "ahead", "starboard")),
        ("pass", Pass()),
    ],
)
def test_spellings_read_into_one_typed_order(text: str, expected: Move | Pass) -> None:
    parsed = ACTIVATION.parse(text, ship_names(lissa()))
    assert parsed == expected
    assert ACTIVATION.parse(parsed.text, ship_names(lissa())) == parsed


def test_the_active_ships_name_in_front_is_read_and_not_printed() -> None:
    parsed = RS.parse_order(lissa(), "austria", "habs MOVE 2 ahead")
    assert parsed == Move(2) and parsed.text == "move 2"


def test_a_fire_order_holds_the_target_ship() -> None:
    state = lissa()
    parsed = RS.parse_order(state, "austria", "move 2 fire affon")
    assert parsed == Move(2, target=ref(state, "Affondatore"))
    assert parsed.text == "move 2 fire Affondatore"


def test_apply_checks_a_typed_order_it_did_not_read() -> None:
    state = lissa()
    rng = Rng(seed_from_number(1))
    with pytest.raises(IllegalOrder, match="1 or 2 squares"):
        RS.apply(state, "austria", Move(3), rng)
    with pytest.raises(NotYourTurn, match="Habsburg's activation"):
        RS.apply(state, "italy", Move(2), rng)
    with pytest.raises(IllegalOrder, match="must move first"):
        RS.apply(state, "austria", Pass(), rng)
    with pytest.raises(IllegalOrder, match="own side"):
        RS.apply(state, "austria", Move(1, target=ref(state, "Kaiser Max")), rng)
    with pytest.raises(IllegalOrder, match="must move first"):
        RS.apply(state, "austria", Fire(ref(state, "Affondatore")), rng)
    with pytest.raises(NotAllowed, match="Only the umpire"):
        RS.apply(state, "austria", AdjustFlotation(ref(state, "Habsburg"), 3), rng)
    with pytest.raises(WrongPhase, match="nothing to deal"):
        RS.apply(state, "umpire", Deal(), rng)
    with pytest.raises(InvalidSyntax, match="0 to 14"):
        RS.apply(state, "umpire", AdjustFlotation(ref(state, "Habsburg"), 99), rng)
    damage(state, "Habsburg", "KC")
    with pytest.raises(IllegalOrder, match="cannot choose its move"):
        RS.apply(state, "austria", Move(1), rng)


def test_apply_matches_on_the_class_and_logs_the_canonical_text() -> None:
    state = lissa()
    rng = Rng(seed_from_number(1))
    habsburg = ref(state, "Habsburg")
    events = RS.apply(state, "umpire", AdjustAt(habsburg, "C04"), rng)
    assert events[0].text.startswith("**Umpire adjusts Habsburg**: adjust Habsburg at c4\n")
    assert (ship(state, "Habsburg").x, ship(state, "Habsburg").y) == (2, 3)
    RS.apply(state, "umpire", AdjustHeading(habsburg, "E"), rng)
    RS.apply(state, "umpire", AdjustDamage(habsburg, "add", "QH"), rng)
    assert [d.kind for d in ship(state, "Habsburg").damage] == ["steering"]
    events = RS.apply(state, "austria", Pass(), rng)
    assert "pass" in events[0].text.splitlines()[0] and "steering hit" in events[0].text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("move", "how many squares"),
        ("move x", "how many squares"),
        ("move 1 starboard fire", "fire at which ship"),
        ("move 2 turn ahead", "`turn` needs `port` or `starboard`"),
        ("move 2 turn", "`turn` needs `port` or `starboard`"),
        ("move diag", "`diag` needs `port` or `starboard`"),
        ("move diag ahead", "`diag` needs `port` or `starboard`"),
        ("move 2 sideways", "did not understand `sideways`"),
    ],
)
def test_syntax_errors_say_what_is_missing(text: str, message: str) -> None:
    with pytest.raises(InvalidSyntax, match=message) as err:
        RS.parse_order(lissa(), "austria", text)
    assert f"`{text}`" in err.value.text
