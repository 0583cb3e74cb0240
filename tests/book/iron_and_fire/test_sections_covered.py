"""Every numbered section of the Iron and Fire rule book (book 000) has a book test quoting it, or
is listed here as no rule to test (issue 21's second reading).

The book numbers its Modules, Sections and Cases itself (7.5.1 is the first Case of the fifth
Section of the seventh Module); SECTIONS lists every number its text carries, in the book's
order. A few numbered passages hold no rule a game could break: an introduction, the game scale,
the history that opens each scenario, and the three passages lost from the text (unit stats and
the two orientation diagrams, which the project replaces with house data: ship stats in
data/iron_and_fire/ships.toml, the printed hexside compass on each map). They are in NOT_A_RULE
with the reason. A book test quotes a section by naming it, a colon and the quoted sentence, in its
docstring: ``6.1.1: "All ships and land batteries possess a range of 4 hexes ..."``. A section not
yet reviewed is in NOT_YET_REVIEWED; a reviewed one must leave that list, so the list only shrinks.
"""

from __future__ import annotations

from pathlib import Path

from tests.book import coverage

BOOK_TESTS = Path(__file__).parent

SECTIONS = (
    "1.0", "2.0", "2.1", "2.2", "2.3", "2.4", "2.5",
    "3.0", "3.1", "3.2", "3.3",
    "4.0", "4.1", "4.2",
    "5.0", "5.1", "5.2", "5.3", "5.4", "5.5",
    "6.0", "6.1", "6.1.1", "6.1.2", "6.1.3", "6.1.4", "6.1.5", "6.2", "6.2.1", "6.2.2", "6.2.3", "6.3",
    "7.0", "7.1", "7.2",
    "8.0", "9.0", "10.0", "11.0", "11.1", "12.0",
    "13.0", "13.1", "13.2", "13.3",
    "14.0",
    "15.0", "15.1",
    "15.2", "15.2.1", "15.2.2", "15.2.3", "15.2.4",
    "15.3", "15.3.1", "15.3.2", "15.3.3", "15.3.4",
    "15.4", "15.4.1", "15.4.2", "15.4.3", "15.4.4",
    "15.5", "15.5.1", "15.5.2", "15.5.3", "15.5.4", "15.5.5",
    "15.6", "15.6.1", "15.6.2", "15.6.3", "15.6.4", "15.6.5",
)  # fmt: skip

NOT_A_RULE: dict[str, str] = {
    "1.0": "introduction: what the game covers",
    "2.2": "game scale: 30 minutes a turn, one warship or battery a unit",
    "2.3": "lost from the text (unit stats); house ship stats in data/iron_and_fire/ships.toml",
    "2.4": "lost from the text (ship orientation diagram); ships face hexsides of the map's printed compass",
    "2.5": "lost from the text (hexside orientation diagram); the compass is printed on each map",
    "15.2": "history that opens Scenario 1 (its rules are 15.2.1-15.2.4)",
    "15.4": "history that opens Scenario 3 (its rules are 15.4.1-15.4.4)",
    "15.5": "history that opens Scenario 4 (its rules are 15.5.1-15.5.5)",
    "15.6": "history that opens Scenario 5 (its rules are 15.6.1-15.6.5)",
}

# Sections no book test quotes yet (the second reading, issue 21, reached every rule of the book).
NOT_YET_REVIEWED: frozenset[str] = frozenset()


def quoted_sections() -> dict[str, list[str]]:
    return coverage.quoted_sections(BOOK_TESTS)


def test_every_section_has_a_book_test_quoting_it() -> None:
    quoted = quoted_sections()
    missing = [s for s in SECTIONS if s not in quoted and s not in NOT_A_RULE and s not in NOT_YET_REVIEWED]
    assert not missing, f"sections with no book test quoting them: {missing}"


def test_a_section_with_a_book_test_leaves_not_yet_reviewed() -> None:
    quoted = quoted_sections()
    stale = sorted(s for s in NOT_YET_REVIEWED if s in quoted)
    assert not stale, f"these sections now have book tests; take them out of NOT_YET_REVIEWED: {stale}"


def test_a_section_that_is_no_rule_has_no_book_test() -> None:
    quoted = quoted_sections()
    both = sorted(s for s in NOT_A_RULE if s in quoted)
    assert not both, f"these sections have book tests, so they are rules: take them out of NOT_A_RULE: {both}"


def test_the_lists_name_only_book_sections() -> None:
    assert set(SECTIONS) >= NOT_YET_REVIEWED | set(NOT_A_RULE)
    assert set(quoted_sections()) <= set(SECTIONS), "a book test quotes a section number the book does not have"
