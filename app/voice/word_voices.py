"""Which language each part of a spoken sentence is said in: collection words in their own.

An answer is said in the user's speech language, but a word of the collection in it ("perro"
in a Spanish folder) is said by a voice for that word's language. `WordVoices` compiles one
pattern for a set of terms and splits a sentence into (text, language) pieces that join back
to the sentence exactly. Terms match folded (case and accents do not count), as whole words,
longest first ("buenos días" before "días"); a term in a script written without spaces (Chinese,
Japanese, Korean, Thai…) needs no word boundary on that side. Punctuation touching a word goes
with it, so the voice that says the word also makes its pause.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from app.speech.voices import normal_tag, primary
from app.text.fold import fold

Piece = tuple[str, str]  # (text, BCP 47 tag to say it in)

# Scripts written without spaces between words: Han, Hiragana, Katakana, Hangul, Thai, Lao,
# Myanmar, Khmer (with their compatibility and half-width forms).
_UNSPACED = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1100-\u11ff\u1780-\u17ff\u2e80-\u2fdf\u3040-\u30ff"
    "\u3130-\u318f\u3190-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
    "\uff65-\uffdc\U00020000-\U0003134f]"
)
_SAYABLE = re.compile(r"\w")


def same_language(tag: str, other: str) -> bool:
    """Whether two tags name the same language (primary subtag); an empty tag is `other`."""
    return not primary(tag) or primary(tag) == primary(other)


@dataclass(frozen=True, slots=True)
class _Folded:
    """A sentence folded a character at a time, with where each folded character came from."""

    text: str
    origin: list[int]  # folded index → index in the sentence
    size: int  # the sentence's length

    @classmethod
    def of(cls, sentence: str) -> _Folded:
        if sentence.isascii():
            return cls(sentence.lower(), list(range(len(sentence))), len(sentence))
        text: list[str] = []
        origin: list[int] = []
        for at, char in enumerate(sentence):
            folded = fold(char)
            text.append(folded)
            origin += [at] * len(folded)
        return cls("".join(text), origin, len(sentence))

    def span(self, start: int, end: int) -> tuple[int, int] | None:
        """The sentence's span for a folded span, or None when it cuts a character in two
        ("ß" folds to "ss": a match of one "s" is not a word of the sentence)."""
        first = self.origin[start]
        after = self.origin[end] if end < len(self.origin) else self.size
        if (start and self.origin[start - 1] == first) or (end and self.origin[end - 1] == after):
            return None
        return first, after


class WordVoices:
    """Splits sentences by the language their words are said in.

    `words` maps a term to its language tag; a term listed twice (after folding) keeps its
    first tag. Terms in the language of `default_lang` are said with the rest of the sentence
    (but still win over a shorter term inside them).
    """

    def __init__(self, words: Mapping[str, str], default_lang: str) -> None:
        self.default_lang = default_lang
        self._langs: dict[str, str] = {}
        for term, lang in words.items():
            key = fold(term.strip())
            if key and _SAYABLE.search(key):
                self._langs.setdefault(key, lang)
        foreign = any(not same_language(lang, default_lang) for lang in self._langs.values())
        terms = sorted(self._langs, key=len, reverse=True) if foreign else []
        self._pattern = re.compile(_alternatives(terms)) if terms else None

    def split(self, sentence: str) -> list[Piece]:
        """The sentence in pieces, each with the tag to say it in: the default language's
        except for foreign collection words. Joined, the pieces are the sentence."""
        spans = self._foreign(sentence)
        pieces: list[Piece] = []
        at = 0
        for start, end, lang in spans:
            _add(pieces, sentence[at:start], self.default_lang)
            _add(pieces, sentence[start:end], lang)
            at = end
        _add(pieces, sentence[at:], self.default_lang)
        return pieces

    def _foreign(self, sentence: str) -> list[tuple[int, int, str]]:
        """Where the foreign words are, each widened over the punctuation touching it, and
        words of one language with nothing sayable between them joined."""
        if self._pattern is None:
            return []
        folded = _Folded.of(sentence)
        spans: list[tuple[int, int, str]] = []
        for match in self._pattern.finditer(folded.text):
            span = folded.span(match.start(), match.end())
            lang = self._langs[match.group()]
            if span is None or same_language(lang, self.default_lang):
                continue
            floor = spans[-1][1] if spans else 0
            start, end = max(span[0], floor), span[1]  # the word before took a "¿" it shares
            while start > floor and _touching(sentence[start - 1]):
                start -= 1
            while end < len(sentence) and _touching(sentence[end]):
                end += 1
            joined = spans and normal_tag(spans[-1][2]) == normal_tag(lang)
            if joined and not _SAYABLE.search(sentence[spans[-1][1] : start]):
                start = spans.pop()[0]
            spans.append((start, end, lang))
        return spans


def _alternatives(terms: list[str]) -> str:
    """One pattern for folded terms, longest first: whole words only, except on a side where
    the term's script has no spaces between words. Terms that start in the same script share
    one guard in front, checked once where a word may start rather than once per term."""
    spaced = [term for term in terms if not _UNSPACED.match(term[0])]
    unspaced = [term for term in terms if _UNSPACED.match(term[0])]
    groups = [f"(?<!\\w)(?:{_ends(spaced)})" if spaced else "", _ends(unspaced)]
    return "|".join(group for group in groups if group)


def _ends(terms: list[str]) -> str:
    return "|".join(
        re.escape(term) + ("" if _UNSPACED.match(term[-1]) else r"(?!\w)") for term in terms
    )


def _touching(char: str) -> bool:
    """Punctuation that belongs with the word it touches (not a space, not a letter)."""
    return not char.isspace() and not _SAYABLE.match(char)


def _add(pieces: list[Piece], text: str, lang: str) -> None:
    """Append a piece; text with nothing to say, or in the language of the piece before it,
    joins that piece (leading text with nothing to say joins the piece after it)."""
    if not text:
        return
    if pieces and (pieces[-1][1] == lang or not _SAYABLE.search(text)):
        pieces[-1] = (pieces[-1][0] + text, pieces[-1][1])
    elif pieces and not _SAYABLE.search(pieces[-1][0]):
        pieces[-1] = (pieces[-1][0] + text, lang)
    else:
        pieces.append((text, lang))
