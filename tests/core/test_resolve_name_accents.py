"""resolve_name folds accents (review of Days of Iron on the measured table): a player without the
keys types ``Jager`` for ``Jäger``; exact spellings still win and ambiguity is still reported."""

from __future__ import annotations

import pytest

from games.core.errors import AmbiguousName, UnknownName, fold, resolve_name

UNITS = {"5th-jager": "5th Jäger", "5e-chasseurs": "5e Chasseurs à cheval", "doens": "Doëns",
         "2e-ligne": "2e de Ligne"}


def test_a_name_typed_without_its_accents_is_found() -> None:
    assert resolve_name("5th Jager", UNITS, "unit") == "5th-jager"
    assert resolve_name("5e Chasseurs a cheval", UNITS, "unit") == "5e-chasseurs"
    assert resolve_name("DOENS", UNITS, "unit") == "doens"
    assert resolve_name("Jager", UNITS, "unit") == "5th-jager"  # a word onward, folded
    assert resolve_name("a cheval", UNITS, "unit") == "5e-chasseurs"


def test_an_exact_accented_spelling_beats_a_folded_one() -> None:
    names = {"muller": "Muller", "mueller": "Müller"}
    assert resolve_name("Müller", names, "General") == "mueller"
    assert resolve_name("Muller", names, "General") == "muller"


def test_folded_names_that_match_two_things_are_ambiguous() -> None:
    names = {"a": "Jäger Battalion", "b": "Jager Company"}
    with pytest.raises(AmbiguousName, match="could be any of"):
        resolve_name("jager", {"a": "Jäger 1", "b": "Jâger 2"}, "unit")
    assert resolve_name("Jäger B", names, "unit") == "a"
    with pytest.raises(UnknownName):
        resolve_name("Hussar", UNITS, "unit")


def test_a_prefix_typed_with_its_accent_is_not_widened_by_folding() -> None:
    names = {"a": "Jäger Battalion", "b": "Jager Company"}
    assert resolve_name("Jäg", names, "unit") == "a"
    assert resolve_name("Jag", names, "unit") == "b"  # the spelling as typed first, here too
    with pytest.raises(AmbiguousName):
        resolve_name("Jâg", names, "unit")  # folded only when nothing matches as typed: both


def test_fold_drops_marks_and_case() -> None:
    assert fold("Chasseurs à Cheval Jäger Doëns") == "chasseurs a cheval jager doens"
