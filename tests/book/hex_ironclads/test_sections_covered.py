"""Every section of the hex ironclads rule book (book 003) has a book test quoting it (issue 21).

The book has no numbers, only five headings with bulleted rules, so this project numbers them in
the book's order: the heading is the section, each bullet rule under it a subsection, and an
example belongs to the rule it illustrates (the plain-text copy runs some headings into the
example before them, e.g. "Damage and SinkingFor example ...": that example is the ahead/astern
one of 2.6). The headings are titles with no rule of their own, so only the rules are listed.
The numbering:

1 Turn Sequence: 1.1 both sides fire (simultaneous; a ship sunk still fires), 1.2 initiative die,
  the lower moves first, 1.3 then the other side moves, 1.4 rams adjudicated, 1.5 the turn ends.
2 Firing Dice: 2.1 the faces (1 Major, 2 Minor, 3 Miss), 2.2 one target a turn, 2.3 line of sight,
  2.4 turreted monitors (all round, countdown 6-5-4-3-2-1), 2.5 other ships abeam (4-3-2-1),
  2.6 ahead or astern, half dice (2-2-1-1).
3 Damage and Sinking: 3.1 hits cumulative, critical point breaks off, flotation reached sinks (the
  steam frigate example).
4 Movement: 4.1 hexes, a sixty-degree turn costs one (the steam gunboat example).
5 Ramming: 5.1 entering another ship's hex rams, four dice with a ram, two without.

A book test quotes a section by naming it, a colon and the quoted sentence, in its docstring:
``2.5: "a Casemate Ironclad ..."``. A section not yet reviewed is in NOT_YET_REVIEWED; a reviewed one
must leave that list (the test fails if a listed section has a book test), so the list only shrinks.
"""

from __future__ import annotations

from pathlib import Path

from tests.book import coverage

BOOK_TESTS = Path(__file__).parent

SECTIONS = (
    "1.1", "1.2", "1.3", "1.4", "1.5",
    "2.1", "2.2", "2.3", "2.4", "2.5", "2.6",
    "3.1",
    "4.1",
    "5.1",
)  # fmt: skip

# Sections no book test quotes yet (the second reading, issue 21, reached every rule of the book).
NOT_YET_REVIEWED: frozenset[str] = frozenset()


def quoted_sections() -> dict[str, list[str]]:
    return coverage.quoted_sections(BOOK_TESTS)


def test_every_section_has_a_book_test_quoting_it() -> None:
    quoted = quoted_sections()
    missing = [s for s in SECTIONS if s not in quoted and s not in NOT_YET_REVIEWED]
    assert not missing, f"sections with no book test quoting them: {missing}"


def test_a_section_with_a_book_test_leaves_not_yet_reviewed() -> None:
    quoted = quoted_sections()
    stale = sorted(s for s in NOT_YET_REVIEWED if s in quoted)
    assert not stale, f"these sections now have book tests; take them out of NOT_YET_REVIEWED: {stale}"


def test_the_lists_name_only_book_sections() -> None:
    assert set(SECTIONS) >= NOT_YET_REVIEWED
    assert set(quoted_sections()) <= set(SECTIONS), "a book test quotes a section number the book does not have"
