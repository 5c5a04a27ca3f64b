"""Grading a right spoken answer by how long it took (app.drill.timing)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.drill.timing import LENGTH_CAP, rating_for
from app.study.model import Rating


def test_a_quick_answer_is_easy_a_steady_one_good_a_slow_one_hard() -> None:
    assert rating_for(1.8, "dog") == Rating.EASY
    assert rating_for(4.0, "dog") == Rating.GOOD
    assert rating_for(7.0, "dog") == Rating.HARD


def test_a_longer_answer_is_given_more_time() -> None:
    assert rating_for(2.6, "dog") == Rating.GOOD
    assert rating_for(2.6, "the hospital") == Rating.EASY
    assert rating_for(6.0, "dog") == Rating.HARD
    assert rating_for(6.0, "the hospital") == Rating.GOOD


def test_a_huge_answer_does_not_make_every_answer_easy() -> None:
    assert rating_for(60.0, "x" * 100_000) == Rating.HARD
    assert rating_for(60.0, "x" * LENGTH_CAP) == rating_for(60.0, "x" * 100_000)


@given(st.floats(0, 600), st.floats(0, 600), st.text(max_size=50))
def test_taking_longer_never_grades_better(fast: float, slow: float, answer: str) -> None:
    fast, slow = min(fast, slow), max(fast, slow)
    assert rating_for(slow, answer) <= rating_for(fast, answer)
    assert rating_for(slow, answer) != Rating.AGAIN
