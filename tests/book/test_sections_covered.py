"""Every numbered section of Days of Iron chapters 8-18 has a book test quoting it (issue 21).

A book test quotes a section by naming it, then a colon and the quoted sentence, in its docstring:
``17.2.3: "The 1st Impulse allows ..."``. The sections are listed here by hand from the book's
headings. A section not yet reviewed is in NOT_YET_REVIEWED; a reviewed one must leave that list
(the test fails if a listed section has a book test), so the list only shrinks."""

from __future__ import annotations

from pathlib import Path

from tests.book import coverage

BOOK_TESTS = Path(__file__).parent / "days_of_iron"

SECTIONS = (
    "8", "8.1", "9", "9.1", "10", "10.1", "10.2", "10.3", "11",
    "12", "12.1", "12.2", "12.3",
    "13", "13.1", "13.2", "13.3", "13.4", "13.5", "13.6",
    "14", "14.1", "14.2", "14.3", "14.4", "14.5",
    "15", "15.1", "15.2", "15.3", "15.4", "15.5", "15.6", "15.7", "15.8", "15.9", "15.10", "15.11", "15.12",
    "16", "16.1", "16.2", "16.3", "16.4", "16.5",
    "17", "17.1", "17.2", "17.2.1", "17.2.2", "17.2.3", "17.2.4", "17.2.5", "17.2.6", "17.2.7", "17.2.8",
    "17.2.9", "17.2.10", "17.2.11",
    "17.3", "17.3.1", "17.3.2", "17.3.3", "17.3.4", "17.3.5",
    "17.4", "17.4.1", "17.4.2", "17.4.3", "17.4.4", "17.4.5", "17.4.6", "17.4.7", "17.4.8", "17.4.9",
    "17.4.10", "17.4.11", "17.4.12", "17.4.13", "17.4.14", "17.4.15", "17.4.16",
    "17.5", "17.5.1", "17.5.2", "17.5.3", "17.5.4", "17.5.5", "17.5.6", "17.5.7", "17.5.8",
    "18", "18.1", "18.2",
)  # fmt: skip

# Sections no book test quotes yet. The issue-21 review reached every one, so none is left; a
# section the book gains (a new edition) goes here until a test quotes it.
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
