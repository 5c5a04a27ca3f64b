"""Folding for matching: case, accents and width variants never decide whether text matches."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.text.fold import fold


def test_case_accents_and_width_fold_away() -> None:
    assert fold("CRÉER") == fold("Créer") == fold("creer") == "creer"
    assert fold("Ｈｕｎｄ") == "hund"  # full-width letters, as some IMEs type them
    assert fold("Straße") == "strasse"
    assert fold("龍") == "龍"  # scripts without case or accents stay as they are


@given(st.text())
def test_folding_twice_changes_nothing(text: str) -> None:
    assert fold(fold(text)) == fold(text)


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_plain_ascii_only_lowercases(text: str) -> None:
    assert fold(text) == text.casefold()
