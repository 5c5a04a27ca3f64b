"""Grading a typed (later spoken) answer against the accepted answers of a card.

Lenient where a demanding learner expects it (case, accents, punctuation, leading articles, a
slip of the keyboard in a longer word) and strict where the meaning changes (one different
letter in a short word, one different character in Chinese). Pure and defensive: any text gives
a `Grade`, never an exception, and the work is capped so hostile input finishes at once.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import islice
from typing import Literal

from app.study.model import Rating

Verdict = Literal["exact", "close", "wrong", "empty"]
SegmentKind = Literal["same", "missing", "extra", "wrong"]

DISTANCE_CAP = 20  # a distance this large or larger reads "far off"; more precision buys nothing
COMPARE_MAX = 2_000  # longer texts (MEANING_MAX) are only checked for equality
DIFF_MAX = 300  # characters of each side aligned in the diff; any rest is shown unaligned
FORMS_MAX = 64  # parts taken from one meaning; the whole meaning is always a form too


@dataclass(frozen=True)
class CompareOptions:
    accents_optional: bool = True  # "cafe" matches "café"
    articles_optional: bool = True  # "perro" matches "el perro" and the other way round
    lang: str = ""  # BCP 47 tag of the answer; picks its articles, "" means any of ours


@dataclass(frozen=True)
class Segment:
    """One piece of the character diff; `missing` is in the answer but not typed, `extra` the
    reverse, `wrong` typed in place of the answer's characters."""

    kind: SegmentKind
    typed: str
    expected: str


@dataclass(frozen=True)
class Grade:
    """`matched` is the accepted form closest to what was typed, as stored (None when nothing
    was typed or the card has no answer); `diff` compares the typed text with it as written."""

    verdict: Verdict
    matched: str | None
    distance: int
    suggested_rating: int
    diff: tuple[Segment, ...]


_DEFAULT = CompareOptions()
_RATINGS: dict[Verdict, Rating] = {"exact": Rating.GOOD, "close": Rating.HARD}  # else AGAIN

# --- normalisation ----------------------------------------------------------------------------

# Invisible characters a paste or an RTL keyboard brings along: soft hyphen, bidi controls,
# zero-width space, BOM, variation selectors and the Arabic tatweel (a typographic stretch).
# ZWJ and ZWNJ stay: they are part of emoji and of Persian spelling.
_INVISIBLE = re.compile(
    "[\u00ad\u061c\u0640\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069"
    "\ufe00-\ufe0f\ufeff\U000e0100-\U000e01ef]"
)
_APOSTROPHES = str.maketrans(dict.fromkeys("’‘ʼ`´\u1ffd′", "'"))
_DIGIT_COMMA = re.compile(r"(?<=\d)[,٫٬](?=\d)")  # "1,000" and "3,5" are one number
# Marks that are accents: Latin/Greek/Cyrillic diacritics, Hebrew points, Arabic harakat and
# hamza. Not Japanese dakuten, Indic vowel signs or Thai marks: those make another letter.
_ACCENTS = re.compile(
    "[\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7"
    "\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed"
    "\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20f0\ufe20-\ufe2f]"
)
# Letters that carry an "accent" but do not decompose (ß already became "ss" by casefolding).
_PLAIN_LETTERS = str.maketrans(
    {"æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ħ": "h", "ŧ": "t"}
)
_KEPT_PUNCTUATION = frozenset("#%&@*")  # "C#", "100%": part of what is being asked
_JOINERS = frozenset(".·‧・")  # "U.S.A." is "USA", "col·lecció" is "collecció"

_ARTICLES: dict[str, tuple[str, ...]] = {
    "en": ("the", "a", "an", "to"),  # "to" marks the infinitive: "(to) run"
    "es": ("el", "la", "los", "las", "lo", "un", "una", "unos", "unas"),
    "fr": ("le", "la", "les", "l'", "un", "une", "des", "du", "de la", "de l'"),
    "de": ("der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer"),
    "it": ("il", "lo", "la", "i", "gli", "le", "l'", "un", "uno", "una", "un'"),
    "pt": ("o", "a", "os", "as", "um", "uma", "uns", "umas"),
    "nl": ("de", "het", "een", "'t"),
    "ar": ("ال",),  # written joined to its noun: "الكلب" is "كلب"
}
# Without a language: all of them but Italian "i" and Portuguese "as", which lead many English
# answers as the pronoun "I" and the conjunction "as".
_ANY_ARTICLE = tuple({a for group in _ARTICLES.values() for a in group} - {"i", "as"})


def normalise(text: str, options: CompareOptions) -> str:
    """The comparison key of `text`: folded case (and accents), punctuation and a leading
    article dropped, whitespace collapsed. Text that is only punctuation keeps it ("?")."""
    folded = _fold(text, options)
    words = " ".join("".join(map(_punctuation, _DIGIT_COMMA.sub("", folded))).split())
    if options.articles_optional:
        words = _article_pattern(options.lang).sub("", words, count=1)
    return " ".join(words.replace("'", "").split()) or " ".join(folded.split())


def _fold(text: str, options: CompareOptions) -> str:
    """Casefold under NFKC on both sides, so "Straße", "STRASSE" and "ｓｔｒａｓｓｅ" agree, then
    drop the accents if they are optional."""
    text = _INVISIBLE.sub("", text).translate(_APOSTROPHES)
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    # Dotless "ı" and "i" share the capital "I", so ignoring case must merge them.
    folded = folded.translate(_APOSTROPHES).replace("ı", "i")
    if not options.accents_optional:
        return folded
    bare = _ACCENTS.sub("", unicodedata.normalize("NFD", folded))
    return unicodedata.normalize("NFC", bare.translate(_PLAIN_LETTERS))


@lru_cache(maxsize=4096)
def _punctuation(char: str) -> str:
    """Dashes, dots and brackets join ("e-mail" is "email"); other punctuation separates
    words; apostrophes wait until the article has been recognised ("l'eau")."""
    category = unicodedata.category(char)
    if not category.startswith("P") or char == "'" or char in _KEPT_PUNCTUATION:
        return char
    return "" if category in ("Pd", "Ps", "Pe") or char in _JOINERS else " "


@lru_cache(maxsize=64)
def _article_pattern(lang: str) -> re.Pattern[str]:
    articles = _ARTICLES.get(lang.partition("-")[0].casefold(), _ANY_ARTICLE)
    choices = [_article_regex(a) for a in sorted(articles, key=len, reverse=True)]
    # Something must remain: an answer that is only "the" keeps it.
    return re.compile(rf"^(?:{'|'.join(choices)})(?=\S)")


def _article_regex(article: str) -> str:
    if article.endswith("'"):
        return re.escape(article) + " ?"
    if article == "ال":
        return re.escape(article) + r"(?=\S\S)"  # a noun of two letters or more follows
    return re.escape(article) + " "


# --- accepted forms ---------------------------------------------------------------------------

_OPEN, _CLOSE = "([{（［｛", ")]}）］｝"
_SEPARATORS = frozenset(";,/；，、／،؛")


def candidates(meaning: str) -> list[str]:
    """The accepted forms of one stored meaning, main form first: each top-level part
    ("dog; hound") without its bracketed asides ("(to) run" -> "run") and with them unwrapped
    ("to run", "colo(u)r" -> "colour"), then the whole meaning."""
    forms = [form for part in islice(_parts(meaning), FORMS_MAX) for form in part]
    forms.append(" ".join(meaning.split()))
    return list(dict.fromkeys(f for f in forms if f))


def _parts(meaning: str) -> Iterator[tuple[str, str]]:
    """Each part between top-level separators, without and with its bracketed text."""
    kept: list[str] = []
    unwrapped: list[str] = []
    depth = 0
    for index, char in enumerate(meaning):
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE and depth:
            depth -= 1
        elif char in _SEPARATORS and not depth and not _inside_number(meaning, index):
            yield _squeezed(kept), _squeezed(unwrapped)
            kept, unwrapped = [], []
        else:
            unwrapped.append(char)
            if not depth:
                kept.append(char)
    yield _squeezed(kept), _squeezed(unwrapped)


def _inside_number(text: str, index: int) -> bool:
    before, after = text[index - 1 : index], text[index + 1 : index + 2]
    return text[index] == "," and before.isdecimal() and after.isdecimal()


def _squeezed(chars: list[str]) -> str:
    return " ".join("".join(chars).split())


# --- grading ----------------------------------------------------------------------------------


def tolerance(answer_length: int) -> int:
    """How many typos an answer of this many characters forgives.

    A slip is a key or two, so the allowance grows slowly and stops at three. Short words get
    none because one letter there usually makes another word (sol/sal, 龍/竜); a bigger
    allowance on long answers would let a different short word inside them pass as a typo.
    """
    for longest, allowed in ((3, 0), (7, 1), (13, 2)):
        if answer_length <= longest:
            return allowed
    return 3


def grade_answer(typed: str, answers: Sequence[str], options: CompareOptions = _DEFAULT) -> Grade:
    """Grade `typed` against every form of every answer; the closest form wins.

    A card without any answer cannot be graded by typing (the session does not offer it):
    blank input is still "empty", anything else "wrong" with nothing matched.
    """
    typed_key = normalise(typed, options)
    forms = [form for answer in answers for form in candidates(answer)]
    keyed = [(form, key) for form in forms if (key := normalise(form, options))]
    if not typed_key:
        distance = min(len(keyed[0][1]), DISTANCE_CAP) if keyed else 0
        return Grade("empty", None, distance, int(Rating.AGAIN), ())
    if not keyed:
        extra = (Segment("extra", typed, ""),)
        return Grade("wrong", None, min(len(typed_key), DISTANCE_CAP), int(Rating.AGAIN), extra)
    scored = [(_verdict(d := _distance(typed_key, key), len(key)), d, form) for form, key in keyed]
    # By verdict first: a close match of a long form beats a nearer miss of a short one.
    verdict, distance, matched = min(scored, key=lambda s: (_RANKS.index(s[0]), s[1]))
    diff = _diff(typed, matched, options)
    return Grade(verdict, matched, distance, int(_RATINGS.get(verdict, Rating.AGAIN)), diff)


_RANKS: tuple[Verdict, ...] = ("exact", "close", "wrong")


def _verdict(distance: int, answer_length: int) -> Verdict:
    if distance == 0:
        return "exact"
    return "close" if distance <= tolerance(answer_length) else "wrong"


def _distance(a: str, b: str, cap: int = DISTANCE_CAP) -> int:
    """Optimal-string-alignment (Damerau-Levenshtein) distance, or `cap` when it is at least
    that. Only a band of width 2 * cap is computed, and a row that is already at the cap
    ends it, so the work is O(len * cap) instead of quadratic."""
    if a == b:
        return 0
    if abs(len(a) - len(b)) >= cap or max(len(a), len(b)) > COMPARE_MAX:
        return cap
    before: list[int] = []
    previous = [min(j, cap) for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        current = [cap] * (len(b) + 1)
        current[0] = min(i, cap)
        low, high = max(1, i - cap), min(len(b), i + cap)
        for j in range(low, high + 1):
            substitution = previous[j - 1] + (a[i - 1] != b[j - 1])
            value = min(previous[j] + 1, current[j - 1] + 1, substitution)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, before[j - 2] + 1)
            current[j] = min(value, cap)
        if min(current[low - 1 : high + 1]) >= cap:
            return cap  # every path to the end runs through this row
        before, previous = previous, current
    return previous[-1]


# --- the diff ---------------------------------------------------------------------------------

_KINDS: dict[str, SegmentKind] = {"equal": "same", "replace": "wrong", "delete": "extra"}


def _diff(typed: str, expected: str, options: CompareOptions) -> tuple[Segment, ...]:
    """Align what was typed with the matched form, character by character as a reader sees
    them (a letter with its accents, a whole emoji), ignoring case and optional accents."""
    ours, theirs = _clusters(typed[:DIFF_MAX]), _clusters(expected[:DIFF_MAX])
    keys = [_fold(c, options) for c in ours], [_fold(c, options) for c in theirs]
    matcher = SequenceMatcher(None, *keys, autojunk=False)
    segments = [
        Segment(_KINDS.get(tag, "missing"), "".join(ours[i1:i2]), "".join(theirs[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
    ]
    if typed[DIFF_MAX:] or expected[DIFF_MAX:]:
        segments.append(_tail(typed[DIFF_MAX:], expected[DIFF_MAX:], options))
    return _merged(segments)


def _tail(typed: str, expected: str, options: CompareOptions) -> Segment:
    """The unaligned rest of two long texts, as one piece."""
    if not expected:
        return Segment("extra", typed, "")
    if not typed:
        return Segment("missing", "", expected)
    same = _fold(typed, options).split() == _fold(expected, options).split()
    return Segment("same" if same else "wrong", typed, expected)


def _clusters(text: str) -> list[str]:
    clusters: list[str] = []
    for char in text:
        if clusters and _continues(clusters[-1], char):
            clusters[-1] += char
        else:
            clusters.append(char)
    return clusters


def _continues(cluster: str, char: str) -> bool:
    """Whether `char` belongs to the cluster before it: a mark, a joined or modified emoji,
    the second half of a flag."""
    if cluster.endswith("\u200d") or char == "\u200d" or unicodedata.category(char)[0] == "M":
        return True
    if 0x1F3FB <= ord(char) <= 0x1F3FF or 0xE0020 <= ord(char) <= 0xE007F:
        return True
    flag = 0x1F1E6 <= ord(char) <= 0x1F1FF
    return flag and len(cluster) == 1 and 0x1F1E6 <= ord(cluster) <= 0x1F1FF


def _merged(segments: list[Segment]) -> tuple[Segment, ...]:
    merged: list[Segment] = []
    for segment in segments:
        if merged and merged[-1].kind == segment.kind:
            last = merged.pop()
            typed, expected = last.typed + segment.typed, last.expected + segment.expected
            merged.append(Segment(segment.kind, typed, expected))
        else:
            merged.append(segment)
    return tuple(merged)
