"""What people say around a spoken answer, and how numbers sound, per language.

A learner answering aloud hesitates ("um, perro"), hedges ("I think it's perro") or frames the
answer ("the answer is dog"), and recognisers write numbers as digits. These tables let the
spoken grading look past that. English first; another language is one more entry in `PHRASES`.
Phrases are written as comparison keys: lower case, no apostrophes ("it's" is "its").
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Phrases:
    """`leading` and `trailing` are filler said before and after the answer, each a tuple of
    words; `numbers` maps a number written in digits to the same number in words."""

    leading: tuple[tuple[str, ...], ...] = ()
    trailing: tuple[tuple[str, ...], ...] = ()
    numbers: dict[str, str] = field(default_factory=dict)


def _phrases(text: str) -> tuple[tuple[str, ...], ...]:
    """The phrases of "a b, c" as (("a", "b"), ("c",)), longest first: "the answer is" is
    tried before "answer is"."""
    found = {tuple(phrase.split()) for phrase in text.split(",")}
    return tuple(sorted(found, key=lambda words: (-len(words), words)))


_ONES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)  # fmt: skip
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def _english(number: int) -> str:
    if number < 20:
        return _ONES[number]
    tens, ones = divmod(number, 10)
    return _TENS[tens - 2] + (f"-{_ONES[ones]}" if ones else "")


ENGLISH = Phrases(
    leading=_phrases(
        "um, umm, uh, uhm, er, erm, eh, ah, oh, hm, hmm, mm, well, so, okay, ok, like, "
        "i think, i guess, i believe, i suppose, maybe, perhaps, probably, "
        "its, it is, thats, that is, is it, "
        "the answer is, answer is, my answer is, the word is, "
        "id say, i would say, i say, lets see, let me think, how about"
    ),
    trailing=_phrases("um, uh, i think, i guess, i believe, maybe, perhaps, right, please"),
    numbers={str(n): _english(n) for n in range(100)},
)

PHRASES: dict[str, Phrases] = {"en": ENGLISH}
