"""Infantry squares on the measured table. The book names squares twice: 17.4.7 ("changing from
line or column to square or vice versa are considered formation changes") and 17.4.16 ("Infantry,
staff and artillery crew evade movement may be into cover or inside infantry in square
formations"). Everything else is a house ruling (data/days_of_iron/RULINGS.md, "Squares")."""

from __future__ import annotations

import re

import pytest

from games.core.errors import IllegalOrder
from games.core.rng import Rng
from games.days_of_iron.rules import formations_12
from games.days_of_iron.state import State
from games.days_of_iron.view import counters
from tests.book.days_of_iron.table import piece, place, table, text_of, to_step
from tests.days_of_iron.helpers import RS, finish_turn, order, start_turn, unit
from tests.scripted import DiceThenStream


def offered(state: State, seat: str) -> set[str]:
    return {o.text for o in RS.legal_orders(state, seat)}


def test_17_4_7_line_or_column_forms_square_as_one_formation_change() -> None:
    """17.4.7: "changing from line or column to square or vice versa are considered formation
    changes". RULING (RULINGS.md, Squares 1): the 2e de Ligne's 12 stands stand in a hollow square,
    each face ceil(12 / 4) = 3 stands wide, a 3" square centred where the column's centre was; the
    24e forms square from line. A unit that formed square has made its one change of the turn."""
    state, rng = table()
    column = place(state, "2e de Ligne", 20.0, 30.0, 0.0, "column")
    line = place(state, "24e de Ligne", 50.0, 30.0, 0.0, "line")
    centres = [(column.x, column.y), (line.x, line.y)]
    to_step(state, "Movement", rng)
    said = text_of(order(state, "french", "2e de Ligne form square", rng))
    order(state, "french", "24e de Ligne form square", rng)
    assert "2e de Ligne forms square" in said, said
    for u, (x, y) in zip((column, line), centres, strict=True):
        assert u.formation == "square"
        assert (u.x, u.y) == pytest.approx((x, y))
        assert formations_12.footprint(u) == (3.0, 3.0)
    with pytest.raises(IllegalOrder, match=r"only one formation change a turn \(17\.4\.7\)"):
        RS.parse_order(state, "french", "2e de Ligne form line")


def test_17_4_7_a_square_forms_line_or_column_again_next_turn() -> None:
    """17.4.7: "... or vice versa are considered formation changes": a square forms line (or column)
    again in a later turn, about its centre (RULINGS.md, Squares 1)."""
    state, rng = table()
    square = place(state, "2e de Ligne", 20.0, 30.0, 0.0, "square")
    to_step(state, "Movement", rng)
    assert {"2e-ligne form line", "2e-ligne form column"} <= offered(state, "french")
    order(state, "french", "2e de Ligne form line", rng)
    assert square.formation == "line" and (square.x, square.y) == pytest.approx((20.0, 30.0))


def test_17_4_7_no_square_in_a_heavy_wood() -> None:
    """17.4.7: "A unit may change formation in a light wood or urban area but not in a heavy wood":
    forming square is a formation change like any other."""
    state, rng = table()
    piece(state, "heavy-wood", "Forêt", 10.0, 20.0, 30.0, 40.0)
    place(state, "2e de Ligne", 20.0, 30.0, 0.0, "column")
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match="heavy wood"):
        RS.parse_order(state, "french", "2e de Ligne form square")


def test_only_formed_infantry_form_square() -> None:
    """RULING (RULINGS.md, Squares 1): "inside infantry in square formations" (17.4.16): only formed
    infantry in line or column form square, not skirmishers, cavalry, artillery, Generals or
    engineers; a march column first forms manoeuvre column or line (the book lists only line and
    column, and march to manoeuvre column is a formation change of its own, 17.4.7)."""
    state, rng = table()
    place(state, "63e de Ligne", 10.0, 30.0, 0.0, "skirmish")
    place(state, "4e Chasseurs à cheval", 20.0, 30.0, 0.0, "line")
    place(state, "7e Batterie", 30.0, 30.0, 0.0, "line")
    place(state, "Gen. Doëns", 40.0, 30.0, 0.0)
    place(state, "Génie detachment", 45.0, 30.0, 0.0, "column")
    place(state, "24e de Ligne", 55.0, 30.0, 0.0, "column").march = True
    to_step(state, "Movement", rng)
    for name in ("4e Chasseurs à cheval", "7e Batterie", "Gen. Doëns", "Génie detachment"):
        with pytest.raises(IllegalOrder, match="only formed infantry form square"):
            RS.parse_order(state, "french", f"{name} form square")
    with pytest.raises(IllegalOrder, match="from line or column"):
        RS.parse_order(state, "french", "63e de Ligne form square")
    with pytest.raises(IllegalOrder, match="march column") as err:
        RS.parse_order(state, "french", "24e de Ligne form square")
    assert "form column" in (err.value.hint or "")
    assert not any(t.endswith("form square") for t in offered(state, "french")
                   if t.split()[0] in ("63e-ligne", "4e-chasseurs", "7e-batterie", "24e-ligne"))


def test_a_square_does_not_move_or_turn() -> None:
    """RULING (RULINGS.md, Squares 2): a square stands where it formed: `move` (and so a wheel, a
    forced march or a charge) and `turn` are refused with the reason; `?` offers neither."""
    state, rng = table()
    place(state, "2e de Ligne", 20.0, 30.0, 0.0, "square")
    to_step(state, "Movement", rng)
    with pytest.raises(IllegalOrder, match="square does not move") as err:
        RS.parse_order(state, "french", "2e de Ligne move 2")
    assert "form line" in (err.value.hint or "")
    with pytest.raises(IllegalOrder, match="square"):
        RS.parse_order(state, "french", "2e de Ligne turn left")
    mine = {t for t in offered(state, "french") if t.startswith("2e-ligne ")}
    assert mine and not any(" move " in t or " turn " in t for t in mine), mine


def test_a_square_is_a_dense_target() -> None:
    """RULING (RULINGS.md, Squares 3): shot at, a square is a dense target, as a column is (13.3)."""
    state, _ = table()
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "line")
    place(state, "74th", 36.0, 22.0, 180.0, "square")
    to_step(state, "Shooting")
    said = text_of(order(state, "french", "2e de Ligne fire at 74th", DiceThenStream([5] * 30)))
    assert "dense target" in said, said


def charge_result(behind: bool) -> str:
    """The Hussars charge the French square from its front or from behind; the Being Charged line."""
    state, _ = table(french_first=False)
    place(state, "2e de Ligne", 36.0, 30.0, 0.0, "square")  # faces up the table: its front at y 28.5
    place(state, "2nd Hussars", 36.0, 40.0 if behind else 20.0, 0.0 if behind else 180.0, "line")  # 8" off
    dice = DiceThenStream([4] * 40)
    order(state, "prussian", "2nd Hussars charge 2e de Ligne", dice)
    said = text_of(to_step(state, "Shooting", dice))
    return "\n".join(x for x in said.splitlines() if "2e de Ligne" in x and "Being Charged" in x)


def test_a_square_has_no_flank_or_rear() -> None:
    """RULING (RULINGS.md, Squares 3): every face of a square is a front: charged from behind, it
    takes the same Being Charged test, with the same result, as charged from its front."""
    front, rear = charge_result(False), charge_result(True)
    assert front and front == rear


def test_a_square_stands_better_against_cavalry() -> None:
    """RULING (RULINGS.md, Squares 3; house value `[squares] against_cavalry` in rules.toml): a
    square charged by cavalry adds 2 to its Being Charged die, and 2 to its close assault total
    against cavalry. Play-test: a square charged by Uhlans tested and fought exactly as a line
    would, so forming square bought nothing. The same die (2) leaves the 2e in line disordered,
    and in square it stands."""
    said = {}
    for formation in ("line", "square"):
        state, _ = table(french_first=False)
        place(state, "2e de Ligne", 36.0, 30.0, 0.0, formation)
        place(state, "2nd Hussars", 36.0, 20.0, 180.0, "line")
        dice = DiceThenStream([6] + [2] * 40)  # the Hussars pass their To Charge test, then every die a 2
        order(state, "prussian", "2nd Hussars charge 2e de Ligne", dice)
        text = text_of(to_step(state, "Shooting", dice))
        said[formation] = next(x for x in text.splitlines() if "2e de Ligne" in x and "Being Charged test (" in x)
    assert "square against cavalry" not in said["line"] and "STAND" not in said["line"], said
    assert "1d6 = 2 +2 square against cavalry (house) = 4: STAND" in said["square"], said
    square, hussars = place(state, "2e de Ligne", 36.0, 30.0, 0.0, "square"), unit(state, "2nd Hussars")
    assert formations_12.square_against_cavalry(square, hussars) == 2
    assert formations_12.square_against_cavalry(hussars, square) == 0


def charged_screen(*, square: str = "square", side_of_square: str = "french", gap: float = 1.0) -> tuple[State, Rng]:
    """The 10e's screen (x 28.5-43.5, y 29.5-30.5) charged by the Hussars from ahead; a square of
    the 2e beside its right flank, ``gap`` inches off; the French to answer the charge."""
    state, rng = table(french_first=False)
    piece(state, "light-wood", "Bois Vert", 20.0, 26.0, 27.5, 34.0)  # 1" off its left: the French are asked
    place(state, "10e Chasseurs à pied", 36.0, 30.0, 0.0, "skirmish")
    friend = "2e de Ligne" if side_of_square == "french" else "74th"
    place(state, friend, 43.5 + gap + 1.5, 30.0, 0.0, square)
    place(state, "2nd Hussars", 36.0, 21.0, 180.0)
    dice = DiceThenStream([6] * 40)
    order(state, "prussian", "2nd Hussars charge 10e Chasseurs à pied", dice)
    order(state, "prussian", "next", dice)
    order(state, "french", "next", dice)
    return state, rng


def test_17_4_16_a_skirmisher_evades_inside_a_friendly_square() -> None:
    """17.4.16: "Infantry, staff and artillery crew evade movement may be into cover or inside
    infantry in square formations". RULING (RULINGS.md, Squares 4): the 10e's screen, its square
    1" off (within its 4" evade), is offered `evade into 2e de Ligne` and ends inside the square,
    its stands at the square's centre; it is not charged on its own there (the charge is at the
    square) and leaves later with a normal move."""
    state, rng = charged_screen()
    assert "10e-chasseurs evade into 2e-ligne" in offered(state, "french")
    said = text_of(order(state, "french", "10e Chasseurs à pied evade into 2e de Ligne", DiceThenStream([6] * 20)))
    screen, square = unit(state, "10e Chasseurs à pied"), unit(state, "2e de Ligne")
    assert "10e Chasseurs à pied evades inside the square of 2e de Ligne" in said, said
    assert (screen.x, screen.y) == (square.x, square.y)
    assert screen.shelter == square.id and screen.formation == "skirmish"
    to_step(state, "Movement", rng)
    said = text_of(order(state, "prussian", "2nd Hussars charge home", DiceThenStream([6] * 20)))
    assert re.search(r"(in contact with|falls short of) 2e de Ligne", said), said  # the charge goes at the square
    finish_turn(state, rng)
    start_turn(state, french_first=False)
    with pytest.raises(IllegalOrder, match="inside the square of 2e de Ligne"):
        RS.parse_order(state, "prussian", "2nd Hussars charge 10e Chasseurs à pied")
    place(state, "2nd Hussars", 60.0, 10.0, 180.0)  # the melee over, out of the screen's way
    to_step(state, "Movement", rng)
    while RS.to_act(state)[0] != "french":
        order(state, RS.to_act(state)[0], "next", rng)
    order(state, "french", "10e Chasseurs à pied move 6", rng)
    assert screen.shelter == "" and screen.y == pytest.approx(24.0)
    assert formations_12.footprint(screen) == (15.0, 1.0)


def test_17_4_16_an_evade_inside_a_square_is_refused_with_its_reason() -> None:
    """RULING (RULINGS.md, Squares 4): the unit named must be friendly infantry in square, its
    nearest edge within the evader's half move; otherwise the refusal names the reason."""
    state, _ = charged_screen(square="column")
    with pytest.raises(IllegalOrder, match="not in square"):
        RS.parse_order(state, "french", "10e Chasseurs à pied evade into 2e de Ligne")
    state, _ = charged_screen(side_of_square="prussian")
    with pytest.raises(IllegalOrder, match="not a friendly"):
        RS.parse_order(state, "french", "10e Chasseurs à pied evade into 74th")
    state, _ = charged_screen(gap=6.0)
    with pytest.raises(IllegalOrder, match=r"6\" from 10e .*half its move \(4\"\)"):
        RS.parse_order(state, "french", "10e Chasseurs à pied evade into 2e de Ligne")
    assert "10e-chasseurs evade into 2e-ligne" not in offered(state, "french")


def test_17_4_16_staff_and_crews_evade_inside_a_square() -> None:
    """17.4.16: "Infantry, staff and artillery crew" may evade inside a square. A General charged
    goes in (his base at its centre); a battery's crews go in on foot and leave the guns (10.2)."""
    state, _ = table(french_first=False)
    place(state, "Gen. Doëns", 36.0, 30.0, 0.0)
    place(state, "7e Batterie", 47.0, 30.0, 0.0, "line")  # its guns' centre 2.5" from the square
    place(state, "2e de Ligne", 43.0, 30.0, 0.0, "square")  # x 41.5-44.5: 5" from the General
    place(state, "2nd Hussars", 36.0, 21.0, 180.0)
    place(state, "11th Uhlans", 47.0, 21.0, 180.0, "column")
    dice = DiceThenStream([6] * 60)
    order(state, "prussian", "2nd Hussars charge Gen. Doëns", dice)
    order(state, "prussian", "11th Uhlans charge 7e Batterie", dice)
    order(state, "prussian", "next", dice)
    order(state, "french", "next", dice)
    said = text_of(order(state, "french", "Gen. Doëns evade into 2e de Ligne", dice))
    said += text_of(order(state, "french", "7e Batterie evade into 2e de Ligne", dice))
    general, guns = unit(state, "Gen. Doëns"), unit(state, "7e Batterie")
    assert (general.x, general.y) == (43.0, 30.0) and general.shelter == "2e-ligne"
    assert "crew of 7e Batterie (4-pdr) leave their guns and evade inside the square of 2e de Ligne" in said, said
    assert (guns.x, guns.y) == (47.0, 30.0)


def test_a_square_draws_as_its_block_and_the_status_names_it() -> None:
    """RULING (RULINGS.md, Squares 5): the board draws a square as a block its side square (3" for
    the 2e's 12 stands), a unit sheltering inside as a small block at its centre, and the status
    names the formation "square" and who shelters in it."""
    state, _ = charged_screen()
    order(state, "french", "10e Chasseurs à pied evade into 2e de Ligne", DiceThenStream([6] * 20))
    drawn = {c.id: c for c in counters(state, None)}
    assert drawn["2e-ligne"].size == (3.0, 3.0)
    inner = drawn["10e-chasseurs"]
    assert inner.pos == drawn["2e-ligne"].pos and max(inner.size) < 3.0
    lines = RS.view(state, None).status
    assert any("In square: 2e de Ligne (sheltering 10e Chasseurs à pied)" in x for x in lines), lines


def test_a_square_keeps_its_guests_until_they_leave_and_exposes_them_if_it_routs() -> None:
    """RULING (RULINGS.md, Squares 4): while the 10e shelters in the 2e's square, the square may not
    form line (they leave first) and the 10e neither forms nor turns (it leaves with a move); when
    the square routs, the 10e stands in the open where it huddled, at its own size."""
    state, rng = charged_screen()
    order(state, "french", "10e Chasseurs à pied evade into 2e de Ligne", DiceThenStream([6] * 20))
    screen = unit(state, "10e Chasseurs à pied")
    place(state, "2nd Hussars", 60.0, 10.0, 180.0)  # out of the way
    to_step(state, "Movement", rng)
    while RS.to_act(state)[0] != "french":
        order(state, RS.to_act(state)[0], "next", rng)
    with pytest.raises(IllegalOrder, match="shelter inside 2e de Ligne's square") as err:
        RS.parse_order(state, "french", "2e de Ligne form line")
    assert "10e-chasseurs move" in (err.value.hint or "")
    for text in ("10e Chasseurs à pied form column", "10e Chasseurs à pied turn about"):
        with pytest.raises(IllegalOrder, match="leaves with a move first"):
            RS.parse_order(state, "french", text)
    said = text_of(order(state, "umpire", "rout 2e de Ligne", rng))
    assert "2e de Ligne no longer shelters 10e Chasseurs à pied" in said, said
    assert screen.shelter == "" and formations_12.footprint(screen) == (15.0, 1.0)


def test_a_square_re_forms_only_line_or_column_and_breaks_up_when_it_routs() -> None:
    """17.4.7: "changing from line or column to square or vice versa are considered formation
    changes": out of square only line or column (play-test: `form skirmish` was accepted straight
    from square). RULING (RULINGS.md, Squares): a square that routs breaks up and routs as a column;
    the status no longer lists it "In square" (play-test: a routing square still showed as one)."""
    state, rng = table()
    square = place(state, "2e de Ligne", 20.0, 30.0, 0.0, "square")
    to_step(state, "Movement", rng)
    for text in ("2e de Ligne form skirmish", "2e de Ligne form march"):
        with pytest.raises(IllegalOrder, match="a square forms line or column again"):
            RS.parse_order(state, "french", text)
    assert not {t for t in offered(state, "french") if t.startswith("2e-ligne form") and t.split()[-1] not in ("line", "column")}
    RS.parse_order(state, "french", "2e de Ligne form column")
    said = text_of(order(state, "umpire", "rout 2e de Ligne", rng))
    assert "Its square breaks up: it routs as a column" in said, said
    assert square.formation == "column"
    assert not any(line.startswith("In square") for line in RS.view(state, None).status)
