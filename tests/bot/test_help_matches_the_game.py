"""What /help says about each system is what the game does (issue 24, item 3).

The scenarios, options and board key of ``/help system:<id>`` are generated from the declarations
the engine uses (``scenarios()``, ``options()``, ``board_marks``); these tests check those
declarations against the game itself: every value help offers is accepted by ``setup``, every
``key=value`` the hand-written prose suggests too, the board key matches what a played game's views
draw, and the README names every registered system."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import games  # noqa: F401  (registers every system)
from bot.commands import COMMAND_LIST
from bot.rooms.help import board_key, option_line, system_help
from games.core.errors import GameError
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import OptionSpec, Ruleset, get_ruleset, legal_texts, system_ids
from games.core.view import BOARD_KEY, HIGHLIGHT, NOT_DRAWN, BoardMark, marks_drawn
from tests.bot.helpers import ALICE, make_service, ok

SYSTEMS = system_ids()
README = Path(__file__).resolve().parents[2] / "README.md"
TABLE_OPTIONS = {"sides": "Peru,Chile", "board": "8x8"}
SCRIPTED = {"table": [("peru", "place A b2"), ("peru", "move A e5")]}  # the free table offers no legal list


def accepted(rules: Ruleset[Any, Any], key: str, value: str) -> bool:
    """Whether some scenario of the system sets up with option ``key=value``."""
    extra = TABLE_OPTIONS if rules.id == "table" else {}
    for scenario in rules.scenarios():
        try:
            rules.setup(scenario.id, {**extra, key: value}, Rng(seed_from_number(1)))
        except GameError:
            continue
        return True
    return False


def offered(option: OptionSpec) -> list[str]:
    """The values help offers for an option: every choice, or both ends of its range."""
    if option.choices:
        return list(option.choices)
    if option.between is not None:
        return [str(option.between[0]), str(option.between[1])]
    return []


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_help_states_every_option_with_exactly_its_allowed_values(system_id: str) -> None:
    rules = get_ruleset(system_id)
    text = system_help(rules)
    lines = {line.split("`")[1]: line for line in text.splitlines() if line.startswith("- `")}
    for option in rules.options():
        line = lines[option.key]
        values = line.split(" Values: ", 1)[1]
        if option.choices:
            stated = re.findall(r"`([^`]*)`", values.split(" (default")[0])
            assert stated == list(option.choices), line
        elif option.between is not None:
            assert f"from {option.between[0]} to {option.between[1]}" in values, line
        else:
            assert values.startswith("free text"), line
        assert (f"(default `{option.default}`)" if option.default else "(default unset)") in line, line
        for value in offered(option):
            assert accepted(rules, option.key, value), f"{system_id}: help offers {option.key}={value}, setup refuses it"


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_option_value_the_prose_suggests_is_accepted(system_id: str) -> None:
    """``key=value`` (or ``key=a|b``) in the hand-written help, for an option with fixed values."""
    rules = get_ruleset(system_id)
    prose = rules.help()
    for option in rules.options():
        if not offered(option):
            continue  # free text: the prose shows a shape (board=WxH), not a value
        for value in suggested(option.key, prose):
            assert accepted(rules, option.key, value), f"{system_id} help suggests {option.key}={value}: refused"


def suggested(key: str, prose: str) -> list[str]:
    """The values prose suggests for an option: ``key=a`` or ``key=a|b``, or ``key option a``."""
    word = re.escape(key)
    shapes = (rf"(?<![\w-]){word}=([\w-]+(?:\|[\w-]+)*)", rf"(?<![\w-]){word} option ([\w-]+)")
    return [value for shape in shapes for match in re.finditer(shape, prose) for value in match.group(1).split("|")]


def test_the_prose_check_catches_the_old_scouting_advice() -> None:
    """Days of Iron's help once said to turn scouting "on"; setup refuses that value."""
    rules = get_ruleset("days-of-iron")
    old = "- `scout UNIT` send light cavalry scouting (sealed until both are ready; scouting option on)"
    assert suggested("scouting", old) == ["on"] and not accepted(rules, "scouting", "on")
    assert suggested("staff", "(option staff=national)") == ["national"]
    assert accepted(rules, "scouting", "yes")


def test_an_option_line_names_its_values_and_default() -> None:
    line = option_line(OptionSpec("speed", "How fast.", "slow", ("slow", "fast")))
    assert line == "- `speed`: How fast. Values: one of `slow`, `fast` (default `slow`)."
    assert option_line(OptionSpec("turns", "Limit.", "", between=(1, 9))).endswith(
        "Values: a whole number from 1 to 9 (default unset).")


def ringed_off_turn(rules: Ruleset[Any, Any], state: Any) -> bool:
    """Whether the view highlights a counter of a side with no seat to act now."""
    seats = {seat.id: seat for seat in rules.seats(state)}
    acting = {seats[s].side or s for s in rules.to_act(state)}
    return any(c.highlight and c.side not in acting for c in rules.view(state, None).counters)


def played(system_id: str) -> tuple[set[BoardMark], int]:
    """Every board-key mark the spectator's views draw over a seeded game of random legal orders,
    and how many of those views highlight a counter whose side is not to act."""
    rules = get_ruleset(system_id)
    highlight = next((m for m in HIGHLIGHT if m in rules.board_marks), "acts-now")
    stream, picker = Rng(seed_from_number(3)), Rng(seed_from_number(4))
    state = rules.setup(rules.scenarios()[0].id, TABLE_OPTIONS if system_id == "table" else {}, stream)
    seen = marks_drawn(rules.view(state, None), highlight)
    off_turn = 0
    for seat, text in SCRIPTED.get(system_id, []):
        rules.apply(state, seat, rules.parse_order(state, seat, text), stream)
        seen |= marks_drawn(rules.view(state, None), highlight)
    for _ in range(150):
        if rules.outcome(state) is not None or not rules.to_act(state):
            break
        seat = rules.to_act(state)[0]
        legal = legal_texts(rules, state, seat)
        if not legal:
            break
        rules.apply(state, seat, rules.parse_order(state, seat, picker.choice(legal)), stream)
        seen |= marks_drawn(rules.view(state, None), highlight)
        off_turn += ringed_off_turn(rules, state)
    return seen, off_turn


@pytest.mark.slow
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_board_key_is_what_the_board_draws(system_id: str) -> None:
    """A declared mark the game never draws would be a false key, an undeclared one a missing key."""
    rules = get_ruleset(system_id)
    seen, off_turn = played(system_id)
    assert seen == set(rules.board_marks)
    if "acts-now" in rules.board_marks:  # the ring says "acts now": never on a side not to act
        assert off_turn == 0
    if "in-focus" in rules.board_marks:  # ... and a system whose ring is not that says so
        assert off_turn > 0
    [board_line] = [line for line in system_help(rules).splitlines() if line.startswith("Board: ")]
    assert board_line == "Board: " + "; ".join(board_key(rules.board_marks)) + "."
    for mark, meaning in BOARD_KEY.items():
        assert (meaning in board_line) == (mark in rules.board_marks), mark
    ringed = [m for m in HIGHLIGHT if m in rules.board_marks]
    assert len(ringed) <= 1, "the highlight has one meaning in a system"
    assert (NOT_DRAWN["acts-now"] in board_line) == (not ringed)
    assert (NOT_DRAWN["last-action"] in board_line) == ("last-action" not in rules.board_marks)


def test_oak_and_iron_says_its_ring_follows_the_focus() -> None:
    """The other half of the bug: Oak & Iron rings the ship in focus, often after its turn."""
    text = system_help(get_ruleset("oak-and-iron"))
    assert BOARD_KEY["in-focus"] in text and BOARD_KEY["acts-now"] not in text
    assert NOT_DRAWN["acts-now"] not in text


def test_no_ring_and_no_last_move_are_said_for_days_of_iron() -> None:
    """The bug found: its key claimed a ring for who acts and the last move drawn; it draws neither."""
    text = system_help(get_ruleset("days-of-iron"))
    assert NOT_DRAWN["acts-now"] in text and NOT_DRAWN["last-action"] in text
    assert BOARD_KEY["acts-now"] not in text and BOARD_KEY["last-action"] not in text


async def test_the_general_help_claims_no_board_key_for_every_system(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "t.db")
    text = "\n".join(o.text for o in await ok(svc, ALICE, "help"))
    assert "yellow ring" not in text and "board key" in text
    assert any(c.name == "help" for c in COMMAND_LIST)
    per_system = "\n".join(o.text for o in await ok(svc, ALICE, "help", system="days-of-iron"))
    assert "Options (" in per_system and "`scouting`" in per_system and "Board: " in per_system


def test_the_readme_lists_every_registered_system() -> None:
    """One row each in the Rule systems table: a new system's one line outside its own folders
    (docs/adding-a-system.md)."""
    table = README.read_text(encoding="utf-8").split("## Rule systems", 1)[1]
    # the shipped systems: a test elsewhere may register a toy ruleset of its own in this process
    shipped = [s for s in system_ids() if type(get_ruleset(s)).__module__.startswith("games.")]
    assert len(shipped) >= 6, shipped
    for system_id in shipped:
        assert f"| `{system_id}` |" in table, f"README's Rule systems table omits {system_id}"


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_help_names_the_rule_book_by_its_title_not_a_file(system_id: str) -> None:
    """/help system:<id> printed "Rule book: 001_7f6407afdde9b010.txt", a file name only the
    project's developers had; a player needs the book's title to find it."""
    rules = get_ruleset(system_id)
    if not rules.book:
        pytest.skip(f"{system_id} carries out no rule book")
    assert not re.search(r"\.\w{2,4}$|^\d+_[0-9a-f]+", rules.book), rules.book
    assert f"Rule book: {rules.book}" in system_help(rules)
