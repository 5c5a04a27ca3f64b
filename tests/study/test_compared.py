"""What was typed or heard against the answer, each side whole (app/study/compared.py): the
text of each side is exactly what was said and the answer, so it reads right aloud and without
styles, and the marks sit on the letters of a slip or on the words of a wrong answer."""

from __future__ import annotations

import time
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.study.compared import Piece, Sides, compared
from app.study.grading import grade_answer
from tests.study.test_grading import HOSTILE


def shown(sides: Sides) -> tuple[str, str]:
    """Each side with its marked parts in [brackets]."""

    def side(pieces: tuple[Piece, ...]) -> str:
        return "".join(f"[{p.text}]" if p.differs else p.text for p in pieces)

    return side(sides.yours), side(sides.answer)


def of(typed: str, answer: str, *, words: bool) -> tuple[str, str]:
    return shown(compared(grade_answer(typed, [answer]).diff, words=words))


def test_a_wrong_word_is_shown_whole_not_interleaved() -> None:
    # The character diff of these is gr|hous|e|en: shown interleaved it read "grhouseen".
    assert of("house", "green", words=True) == ("house", "green")


def test_the_words_that_differ_are_marked_whole() -> None:
    assert of("the big house", "the green house", words=True) == (
        "the [big] house",
        "the [green] house",
    )
    assert of("a red car", "a blue bike", words=True) == ("a [red car]", "a [blue bike]")


def test_a_word_left_out_is_marked_in_the_answer() -> None:
    assert of("the house", "the big house", words=True) == ("the house", "the [big] house")


def test_words_run_together_or_split_are_marked() -> None:
    assert of("icecream cone", "ice cream cone", words=True) == (
        "[icecream] cone",
        "[ice cream] cone",
    )


def test_a_slip_marks_only_the_letters_that_differ() -> None:
    assert of("hause", "house", words=False) == ("h[a]use", "h[o]use")
    assert of("perrro", "perro", words=False) == ("perr[r]o", "perro")
    assert of("pero", "perro", words=False) == ("pero", "per[r]o")


def test_each_side_keeps_its_own_writing() -> None:
    # Case and accents the grader looked past are shown as each side wrote them.
    assert of("CAFE con lechee", "café con leche", words=True) == (
        "CAFE con [lechee]",
        "café con [leche]",
    )


@pytest.mark.parametrize("words", [True, False])
def test_nothing_typed_shows_the_answer_alone(words: bool) -> None:
    sides = compared(grade_answer("", ["perro"]).diff, words=words)
    assert sides.yours == ()
    assert "".join(p.text for p in sides.answer) in ("", "perro")


texts = st.text(st.sampled_from("ab cdé\u0301 "), max_size=12)


@given(texts, texts, st.booleans())
def test_each_side_is_exactly_what_was_typed_and_the_answer(
    typed: str, answer: str, words: bool
) -> None:
    grade = grade_answer(typed, [answer])
    sides = compared(grade.diff, words=words)
    assert "".join(p.text for p in sides.yours) == "".join(s.typed for s in grade.diff)
    assert "".join(p.text for p in sides.answer) == "".join(s.expected for s in grade.diff)
    for side in (sides.yours, sides.answer):
        assert all(p.text for p in side)
        assert all(a.differs != b.differs for a, b in pairwise(side))
        assert not any(p.differs and not p.text.strip() for p in side)  # no blank marks


@pytest.mark.parametrize(("typed", "answers"), HOSTILE)
@pytest.mark.parametrize("words", [True, False])
def test_hostile_input_is_compared_fast(typed: str, answers: list[str], words: bool) -> None:
    diff = grade_answer(typed, answers).diff
    start = time.perf_counter()
    sides = compared(diff, words=words)
    assert time.perf_counter() - start < 0.5
    assert "".join(p.text for p in sides.yours) == "".join(s.typed for s in diff)
