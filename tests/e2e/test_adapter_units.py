"""The Discord adapter's pure helpers: splitting, choice capping, option text, output routing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord_app import next_actors, options_text, plan_outputs
from bot.discord_choices import make_offer, offer_view
from bot.service import Output
from bot.slash import AUTOCOMPLETE_LIMIT, autocomplete_choices
from bot.text import MESSAGE_LIMIT, split_text

lines = st.lists(st.text(alphabet=st.characters(codec="utf-8"), max_size=2500), max_size=8)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(lines)
def test_split_text_fits_and_keeps_every_character(parts: list[str]) -> None:
    text = "\n".join(parts)
    chunks = split_text(text)
    assert all(len(c) <= MESSAGE_LIMIT for c in chunks)
    assert "".join(text.split()) == "".join("".join(chunks).split())  # only whitespace at cuts may go


def test_split_text_prefers_line_breaks() -> None:
    text = "\n".join(f"line {i:04d} " + "x" * 80 for i in range(60))
    chunks = split_text(text)
    assert len(chunks) > 1 and all(c.startswith("line ") for c in chunks)


def test_autocomplete_is_capped_and_skips_overlong_values() -> None:
    pairs = [("long", "x" * 101)] + [(f"order {i}", f"order {i}") for i in range(40)]
    choices = autocomplete_choices(pairs)
    assert len(choices) == AUTOCOMPLETE_LIMIT and choices[0].value == "order 0"
    assert autocomplete_choices([]) == []
    clipped = autocomplete_choices([("y" * 150, "v")])
    assert len(clipped[0].name) == 100 and clipped[0].value == "v"  # a long label is clipped, still offered


def test_options_are_strings_as_typed() -> None:
    assert options_text({"dice": "2d6", "secret": True, "count": 3, "purpose": None, "off": False}) == {
        "dice": "2d6",
        "secret": "true",
        "count": "3",
        "off": "false",
    }


def test_outputs_are_routed_by_kind_and_recipient() -> None:
    outputs = [
        Output("message", "here", channel="c1"),
        Output("message", "there", channel="c2"),
        Output("ephemeral", "for me", to="me"),
        Output("error", "my mistake", to="me"),
        Output("ephemeral", "for someone else", to="them"),
        Output("dm", "secret", to="them"),
    ]
    plan = plan_outputs(outputs, "c1", "me")
    assert (plan.public, plan.elsewhere, plan.to_invoker, plan.dms) == ([0], [1], [2, 3], [4, 5])


def test_next_actors_come_from_the_ping_line() -> None:
    outputs = [Output("message", "Peru fires.\nNext: <@12> <@34>", channel="c"), Output("dm", "Next: <@99>", to="1")]
    assert next_actors(outputs) == ["12", "34"]
    assert next_actors([Output("message", "The game begins!\nTo act: <@5>", channel="c")]) == ["5"]


async def test_buttons_carry_their_choice_and_the_game_state_in_the_custom_id() -> None:
    for offer, ids in (
        (make_offer("join", ["peru", "chile"], 4, 0), ["wg:join:4:peru", "wg:join:4:chile"]),
        (make_offer("order", ["Huascar ram"], 4, 9), ["wg:order:4.9:Huascar ram"]),
    ):
        view = offer_view(offer)
        assert view is not None and view.is_finished()  # not kept in memory; dynamic items answer clicks
        assert [c["custom_id"] for row in view.to_components() for c in row["components"]] == ids
    assert offer_view(None) is None
