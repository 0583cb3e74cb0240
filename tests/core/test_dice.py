"""Dice expressions: every syntax, the d10 convention, custom dice, caps and error messages."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.dice import MAX_DICE, MAX_MODIFIER, MAX_SIDES, MAX_TERMS, CustomDie, DiceParser, Term, roll, roll_die
from games.core.errors import GameError, InvalidSyntax
from games.core.rng import Rng, seed_from_number

FAST = settings(max_examples=60, deadline=None)

OAK = CustomDie("oak", ("Skull", "Swords", "Shield", "Blank", "Blank", "Helm"))


def fresh(n: int = 1) -> Rng:
    return Rng(seed_from_number(n))


# --- parsing -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("2d6", [Term(1, 2, sides=6)]),
        ("d6", [Term(1, 1, sides=6)]),
        ("D20", [Term(1, 1, sides=20)]),
        ("2d6+1", [Term(1, 2, sides=6), Term(1, 0, value=1)]),
        ("3d10-2", [Term(1, 3, sides=10), Term(-1, 0, value=2)]),
        ("3d6-2+1d4", [Term(1, 3, sides=6), Term(-1, 0, value=2), Term(1, 1, sides=4)]),
        (" 2d6 + 1 ", [Term(1, 2, sides=6), Term(1, 0, value=1)]),
        ("1d8 -\t2", [Term(1, 1, sides=8), Term(-1, 0, value=2)]),
        ("1d8+1d6-1d4", [Term(1, 1, sides=8), Term(1, 1, sides=6), Term(-1, 1, sides=4)]),
        ("-1d6+10", [Term(-1, 1, sides=6), Term(1, 0, value=10)]),
        ("+d6", [Term(1, 1, sides=6)]),
        ("5+d4", [Term(1, 0, value=5), Term(1, 1, sides=4)]),
    ],
)
def test_parse_every_syntax(text: str, terms: list[Term]) -> None:
    assert DiceParser().parse(text) == terms


def test_parse_custom_die_by_name_case_insensitive() -> None:
    parser = DiceParser({"oak": OAK})
    assert parser.parse("2dOak") == [Term(1, 2, custom="oak")]
    assert parser.parse("doak+1d6") == [Term(1, 1, custom="oak"), Term(1, 1, sides=6)]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("3d0", "2 to"),
        ("2d1", "2 to"),
        (f"1d{MAX_SIDES + 1}", "2 to"),
        ("d", "Cannot read dice"),
        ("1000000d6", f"between 1 and {MAX_DICE}"),
        ("0d6", f"between 1 and {MAX_DICE}"),
        ("60d6+60d6", f"at most {MAX_DICE} dice"),
        ("+".join(["1d4"] * (MAX_TERMS + 1)), "too many terms"),
        (f"1d6+{MAX_MODIFIER + 1}", "too large"),
        ("5", "rolls no dice"),
        ("-3+2", "rolls no dice"),
        ("", "No dice given"),
        ("   ", "No dice given"),
        ("fireball", "Cannot read dice"),
        ("2d6+", "Cannot read dice"),
        ("2d6++1", "Cannot read dice"),
        ("2d6*2", "Cannot read dice"),
        ("d%%", "write d%"),
        ("2x6", "Cannot read dice"),
        ("2d6 kh1", "right after the die"),
        ("1dunknown", "No custom die called `unknown`"),
    ],
)
def test_bad_expressions_raise_invalid_syntax_quoting_the_input(text: str, fragment: str) -> None:
    with pytest.raises(InvalidSyntax) as info:
        DiceParser().parse(text)
    message = str(info.value)
    assert fragment in message
    if text.strip() and "custom" not in fragment:
        assert f"`{text.strip()}`" in message  # the whole input is quoted back
    assert isinstance(info.value, GameError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("text", ["3d0", "1000000d6", "fireball", "2d6*2", "0d6", "5"])
def test_cap_and_garbage_messages_quote_the_exact_input(text: str) -> None:
    with pytest.raises(InvalidSyntax) as info:
        DiceParser().parse(text)
    assert f"`{text}`" in str(info.value)


def test_custom_dice_cannot_be_subtracted() -> None:
    with pytest.raises(InvalidSyntax, match="cannot be subtracted"):
        DiceParser({"oak": OAK}).parse("1d6-1doak")


def test_unknown_custom_die_lists_the_known_ones() -> None:
    with pytest.raises(InvalidSyntax) as info:
        DiceParser({"oak": OAK}).parse("2diron")
    assert "`iron`" in str(info.value) and "oak" in str(info.value)


@pytest.mark.parametrize("text", ["2d6 2", "2 d6", "2d 6", "2d6 1d4"])
def test_spaces_inside_or_between_terms_are_refused(text: str) -> None:
    # Gluing "2d6 2" into 2d62 would roll the wrong dice, and a label cannot start like a term:
    # terms must be joined with + or - (a label that starts with a digit or a die follows a #).
    with pytest.raises(InvalidSyntax) as info:
        DiceParser().parse(text)
    assert f"`{text}`" in str(info.value) and "join terms with + or -" in str(info.value).lower()


# --- rolling -------------------------------------------------------------------------------
expressions = (
    st.lists(
        st.tuples(
            st.sampled_from(["+", "-"]),
            st.one_of(
                st.tuples(st.integers(1, 6), st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100])).map(
                    lambda t: f"{t[0]}d{t[1]}"
                ),
                st.integers(0, 50).map(str),
            ),
        ),
        min_size=1,
        max_size=6,
    )
    .map(lambda terms: "".join(sign + body for sign, body in terms))
    .filter(lambda text: "d" in text)
)


@pytest.mark.slow
@FAST
@given(text=expressions, seed=st.integers(0, 10**6))
def test_total_is_the_sum_of_the_shown_dice_plus_the_modifier(text: str, seed: int) -> None:
    result = roll(text, fresh(seed))
    terms = DiceParser().parse(text)
    shown = 0
    dice_terms = [t for t in terms if t.sides]
    assert len(result.rolls) == len(dice_terms)
    for (label, values), term in zip(result.rolls, dice_terms, strict=True):
        assert len(values) == term.count
        assert all(1 <= v <= term.sides for v in values)
        assert label == f"{'-' if term.sign < 0 else ''}{term.count}d{term.sides}"
        shown += term.sign * sum(values)
    modifier = sum(t.sign * t.value for t in terms if not t.sides)
    assert result.modifier == modifier
    assert result.total == shown + modifier
    assert f"**{result.total}**" in result.describe()


@pytest.mark.slow
@FAST
@given(text=expressions, seed=st.integers(0, 10**6))
def test_rolling_is_reproducible_from_the_seed(text: str, seed: int) -> None:
    a, b = fresh(seed), fresh(seed)
    assert roll(text, a) == roll(text, b)
    assert a.counter == b.counter


def test_roll_keeps_the_expression_without_spaces() -> None:
    result = roll(" 2d6 +  1 ", fresh())
    assert result.expression == "2d6+1"
    assert result.describe().startswith("2d6+1: 2d6 [")
    assert result.describe().endswith(f"+1 = **{result.total}**")


def test_each_die_uses_the_stream_in_order() -> None:
    expected_rng = fresh(3)
    expected = [expected_rng.die(6) for _ in range(3)]
    result = roll("3d6", fresh(3))
    assert result.rolls == (("3d6", tuple(expected)),)


def test_d10_reads_zero_as_ten_and_never_shows_zero() -> None:
    rng = fresh(10)
    reference = fresh(10)
    seen = set()
    for _ in range(400):
        face = roll_die(rng, 10)
        raw = reference.below(10)
        assert face == (10 if raw == 0 else raw)
        seen.add(face)
    assert seen == set(range(1, 11))
    result = roll("20d10", fresh(11))
    assert all(1 <= v <= 10 for v in result.rolls[0][1])


@pytest.mark.parametrize("sides", [2, 4, 6, 8, 12, 20, 100])
def test_other_dice_are_one_based(sides: int) -> None:
    rng, reference = fresh(sides), fresh(sides)
    for _ in range(50):
        assert roll_die(rng, sides) == reference.below(sides) + 1


def test_custom_dice_report_named_faces_and_no_sum() -> None:
    parser = DiceParser({"oak": OAK})
    result = parser.roll("3doak", fresh(5))
    reference = fresh(5)
    assert result.faces == tuple(OAK.faces[reference.below(len(OAK.faces))] for _ in range(3))
    assert result.rolls == ()
    assert result.total == 0
    assert "**" not in result.describe()
    assert result.describe().startswith("3doak: faces: ")


def test_custom_and_numeric_dice_together() -> None:
    parser = DiceParser({"oak": OAK})
    result = parser.roll("2doak+1d6", fresh(6))
    assert len(result.faces) == 2 and set(result.faces) <= set(OAK.faces)
    assert len(result.rolls) == 1
    assert result.total == sum(result.rolls[0][1])
    text = result.describe()
    assert "faces:" in text and f"**{result.total}**" in text


def test_negative_totals_are_reported_as_they_are() -> None:
    result = roll("1d4-10", fresh())
    assert result.total == sum(result.rolls[0][1]) - 10 < 0
    assert "-10" in result.describe()


def test_roll_helper_knows_no_custom_dice() -> None:
    with pytest.raises(InvalidSyntax, match="none loaded"):
        roll("2doak", fresh())


def test_bad_roll_draws_nothing() -> None:
    rng = fresh()
    with pytest.raises(InvalidSyntax):
        roll("2d6+1d0", rng)
    assert rng.counter == 0


@pytest.mark.parametrize(
    "text",
    ["1d6+" + "9" * 4400, "9" * 4400 + "d6", "1d" + "9" * 4400, "1d6" + "+1" * 3000, "1d6+" + "0" * 4399 + "1" * 5],
)
def test_thousands_of_digits_are_refused_by_size_not_by_a_crash(text: str) -> None:
    with pytest.raises(InvalidSyntax) as exc:
        DiceParser().parse(text)
    assert len(exc.value.text) < 400  # the message quotes a trimmed input


def test_leading_zeros_do_not_count_against_the_size() -> None:
    assert DiceParser().parse("0002d0006+0001") == [Term(1, 2, sides=6), Term(1, 0, value=1)]
