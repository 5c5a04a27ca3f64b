"""Grading a spoken answer: the recogniser's alternatives against a card's accepted answers.

Each alternative is graded as a typed answer would be (case, punctuation, accents and articles
as the folder says, a tolerance scaled by length), and the best one wins. A close match is
"near": the recogniser may have misheard the right word, so the screen asks "Did you say …?"
instead of failing the learner. Recognisers write numbers as digits and learners wrap a word
in filler ("um, perro", "the answer is dog"); both are looked past in a short phrase only, so a
sentence that merely contains the word is still wrong. Pure, and any text gives a grade.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Literal

from app.study.grading import CompareOptions, Grade, Verdict, grade_answer, normalise
from app.study.spoken_phrases import PHRASES, Phrases

Heard = Literal["right", "near", "wrong", "empty"]

ALTERNATIVES_MAX = 10  # recognisers offer up to five; any beyond ten are ignored
PHRASE_WORDS_MAX = 12  # filler and spoken numbers are only looked for in a phrase this short


@dataclass(frozen=True, slots=True)
class SpokenGrade:
    """`said` is the part of the winning alternative the grade is based on, as the recogniser
    wrote it (filler around it left out; "" when nothing was heard); `matched` the accepted
    answer it matched or nearly matched, as stored; `grade` grades `said` against the answers
    (with its digits read as words, or its number words as digits, when that matched)."""

    heard: Heard
    said: str
    matched: str | None
    grade: Grade


_HEARD: dict[Verdict, Heard] = {
    "exact": "right",
    "close": "near",
    "wrong": "wrong",
    "empty": "empty",
}
_RANKS: tuple[Heard, ...] = ("right", "near", "wrong", "empty")
_WORD = re.compile(r"\S+")
_KEY = CompareOptions(accents_optional=False, articles_optional=False)  # case and punctuation


def grade_spoken(
    alternatives: Sequence[str], answers: Sequence[str], options: CompareOptions
) -> SpokenGrade:
    """The best grade of any alternative: right, then near, then wrong, then empty; among
    equals the nearest, then the alphabetically first, so their order never matters."""
    distinct = islice(dict.fromkeys(alternatives), ALTERNATIVES_MAX)
    graded = [_grade_one(text, answers, options) for text in distinct]
    if not graded:
        return _nothing(answers, options)
    return min(graded, key=_rank)


def _rank(spoken: SpokenGrade) -> tuple[int, int, str]:
    return _RANKS.index(spoken.heard), spoken.grade.distance, spoken.said


def _nothing(answers: Sequence[str], options: CompareOptions) -> SpokenGrade:
    return SpokenGrade("empty", "", None, grade_answer("", answers, options))


def _grade_one(text: str, answers: Sequence[str], options: CompareOptions) -> SpokenGrade:
    """The best reading of one alternative: as written, and without the filler around it."""
    text = text.strip()
    if not normalise(text, options):
        return _nothing(answers, options)
    words = list(islice(_WORD.finditer(text), PHRASE_WORDS_MAX + 1))
    if len(words) > PHRASE_WORDS_MAX:
        return _graded(text, grade_answer(text, answers, options))
    phrases = [
        PHRASES[lang] for lang in dict.fromkeys(("en", _language(options))) if lang in PHRASES
    ]
    core = _without_filler(words, phrases)
    said = [text] if core is None else list(dict.fromkeys((text, core)))
    readings = [
        _graded(piece, grade_answer(reading, answers, options))
        for piece in said
        for reading in _number_readings(piece, _language(options) or "en")
    ]
    best = min(readings, key=_rank)
    if core is None and best.heard == "wrong":
        return _nothing(answers, options)  # only filler: nothing was said yet
    return best


def _graded(said: str, grade: Grade) -> SpokenGrade:
    heard = _HEARD[grade.verdict]
    matched = grade.matched if heard in ("right", "near") else None
    return SpokenGrade(heard, said, matched, grade)


def _language(options: CompareOptions) -> str:
    return options.lang.partition("-")[0].casefold()


@lru_cache(maxsize=16)
def _numbers(lang: str) -> tuple[dict[str, str], dict[str, str]]:
    """Digits to words, and words (as comparison keys: "twentyone") to digits."""
    numbers = PHRASES.get(lang, Phrases()).numbers
    return numbers, {normalise(word, _KEY): digits for digits, word in numbers.items()}


def _without_filler(words: list[re.Match[str]], phrases: list[Phrases]) -> str | None:
    """The text between the filler said before and after it; None when it is all filler.
    Only words with a letter or digit count: "..." between the filler and the answer is no
    word of either."""
    kept = [w for w in words if any(c.isalnum() for c in w.group())]
    keys = [normalise(w.group(), _KEY).replace("'", "") for w in kept]
    start, end = 0, len(keys)
    leading = [p for group in phrases for p in group.leading]
    trailing = [p for group in phrases for p in group.trailing]
    while start < end:
        before = next((p for p in leading if tuple(keys[start : start + len(p)]) == p), ())
        after = next((p for p in trailing if tuple(keys[max(end - len(p), start) : end]) == p), ())
        if not before and not after:
            break
        start, end = start + len(before), end - len(after)
    if start >= end:
        return None
    return kept[start].string[kept[start].start() : kept[end - 1].end()]


def _number_readings(said: str, lang: str) -> list[str]:
    """`said` itself, then with its digits as words and its number words as digits, in the
    answer's language (English when it has none)."""
    numbers, as_digits = _numbers(lang)
    words = [normalise(w, _KEY) for w in said.split()]
    spelled = [numbers.get(w, w) for w in words]
    digits = [as_digits.get(w, w) for w in words]
    readings = [said] + [" ".join(r) for r in (spelled, digits) if r != words]
    return list(dict.fromkeys(readings))
