"""Every section of the Ironclad Draughts rule book (book 004) has a book test quoting it (issue 21).

The book numbers the steps under its headings but not the headings, so this project numbers the
headings in the book's order (data/ironclad_draughts/RULINGS.md gives the same list):
1 Playing Equipment: 1.1 a surface marked in squares (and models no longer than a square), 1.2 the
  standard pack (order of move), 1.3 the small pack (damage and damage control), 1.4 D6s, 1.5 a
  record sheet and a flotation marker for each ship.
2 Set-Up (one paragraph, no steps).
3 Sequence of Play: 3.1-3.4 the book's steps 1-4; the book prints a second step "4" (the cards
  collected and shuffled), 3.5 here, and its step 5 (repeat until a side is gone) is 3.6. The
  footnote on card precedence belongs to 3.3.
4 Movement: 4.1-4.5. 5 Firing: 5.1-5.4. 6 Damage Control: 6.1-6.3. 7 Sinking (one sentence).
8 Ramming: 8.1-8.5.

A book test quotes a section by naming it, a colon and the quoted sentence, in its docstring:
``4.2: "Ships may not stop ..."``. A section not yet reviewed is in NOT_YET_REVIEWED; a reviewed one
must leave that list (the test fails if a listed section has a book test), so the list only shrinks.
"""

from __future__ import annotations

from pathlib import Path

from tests.book import coverage

BOOK_TESTS = Path(__file__).parent

SECTIONS = (
    "1.1", "1.2", "1.3", "1.4", "1.5",
    "2",
    "3.1", "3.2", "3.3", "3.4", "3.5", "3.6",
    "4.1", "4.2", "4.3", "4.4", "4.5",
    "5.1", "5.2", "5.3", "5.4",
    "6.1", "6.2", "6.3",
    "7",
    "8.1", "8.2", "8.3", "8.4", "8.5",
)  # fmt: skip

# Sections no book test quotes yet (the second reading, issue 21, reached every one).
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
