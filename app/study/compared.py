"""What was typed (or heard) and the answer, each shown whole, with the parts that differ marked.

The grader's diff (app.study.grading `Grade.diff`) interleaves both texts: shown as it is, "house"
against "green" became "gr" struck out, "hous" marked, "e", "en" struck out, and a screen reader
or a page without styles read "grhouseen". Here each side is rebuilt from the diff in order, so
its text is exactly what was typed and exactly the answer, and only the marks tell them apart:
on the letters of a slip ("h[a]use" against "h[o]use"), or on whole words for a wrong answer
and for anything heard, as a recogniser hears words, not letters ("the [big] house" against
"the [green] house"). Words that have nothing in common are shown without marks: marking every
letter of both says no more than the two lines do.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.study.grading import Segment

_WORD = re.compile(r"\S+")
Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of one side's text; `differs` marks it as not matching the other side."""

    text: str
    differs: bool


@dataclass(frozen=True, slots=True)
class Sides:
    """What was typed or heard (`yours`) and the answer, each as pieces in reading order."""

    yours: tuple[Piece, ...]
    answer: tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class _Gap:
    """Where the other side has text this one lacks, and whether that text runs on from the
    letter before the gap or into the letter after it (no space between)."""

    at: int
    joins_before: bool
    joins_after: bool


@dataclass
class _Side:
    """One side as the diff builds it: its text, the spans that differ, and its gaps."""

    parts: list[str] = field(default_factory=list)
    length: int = 0
    differing: list[Span] = field(default_factory=list)
    gaps: list[_Gap] = field(default_factory=list)

    def add(self, text: str, differs: bool, other: str) -> None:
        if differs and text:
            self.differing.append((self.length, self.length + len(text)))
        elif differs:
            gap = _Gap(self.length, not other[:1].isspace(), not other[-1:].isspace())
            self.gaps.append(gap)
        self.parts.append(text)
        self.length += len(text)

    @property
    def text(self) -> str:
        return "".join(self.parts)


def compared(diff: Sequence[Segment], *, words: bool) -> Sides:
    """Both sides of `diff`, marked letter by letter, or word by word with `words`."""
    yours, answer = _Side(), _Side()
    for segment in diff:
        differs = segment.kind != "same"
        yours.add(segment.typed, differs, segment.expected)
        answer.add(segment.expected, differs, segment.typed)
    if not words:
        return Sides(_pieces(yours.text, _letters(yours)), _pieces(answer.text, _letters(answer)))
    marked = [_words(side) for side in (yours, answer)]
    if all(all(hit) for hit in marked):  # nothing in common: the two lines say it all
        marked = [[False] * len(hit) for hit in marked]
    return Sides(
        _pieces(yours.text, _joined(yours.text, marked[0])),
        _pieces(answer.text, _joined(answer.text, marked[1])),
    )


def _letters(side: _Side) -> list[Span]:
    """The differing spans without the blanks at their ends: a marked space shows nothing."""
    text, spans = side.text, []
    for start, end in side.differing:
        run = text[start:end]
        lead = len(run) - len(run.lstrip())
        trimmed = run.strip()
        if trimmed:
            spans.append((start + lead, start + lead + len(trimmed)))
    return spans


def _words(side: _Side) -> list[bool]:
    """For each word of the side, whether it differs: a letter of it does, something is
    missing inside it or right against it ("hose" for "house"), or the space before or after
    it alone differs (words run together or split: "icecream" for "ice cream")."""
    text = side.text
    spans = [m.span() for m in _WORD.finditer(text)]
    flags = bytearray(len(text))
    for start, end in side.differing:
        flags[start:end] = b"\x01" * (end - start)
    hit = [any(flags[start:end]) for start, end in spans]
    starts = [start for start, _end in spans]
    for gap in side.gaps:
        i = bisect_right(starts, gap.at) - 1
        if i < 0:
            continue
        start, end = spans[i]
        inside = start < gap.at < end
        if inside or (gap.at == end and gap.joins_before) or (gap.at == start and gap.joins_after):
            hit[i] = True
    for i in range(len(spans) - 1):
        between = slice(spans[i][1], spans[i + 1][0])
        if any(flags[between]) and not flags[between.start - 1] and not flags[between.stop]:
            hit[i] = hit[i + 1] = True
    return hit


def _joined(text: str, hit: list[bool]) -> list[Span]:
    """The spans of the marked words, neighbours joined with the space between them."""
    spans: list[Span] = []
    for (start, end), marked in zip((m.span() for m in _WORD.finditer(text)), hit, strict=True):
        if not marked:
            continue
        if spans and not text[spans[-1][1] : start].strip():
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def _pieces(text: str, marked: list[Span]) -> tuple[Piece, ...]:
    """`text` cut into alternating plain and marked pieces (`marked` in order, apart)."""
    pieces: list[Piece] = []
    at = 0
    for start, end in marked:
        if start > at:
            pieces.append(Piece(text[at:start], differs=False))
        if pieces and pieces[-1].differs:  # touching spans (a wrong letter, then a missing one)
            pieces[-1] = Piece(pieces[-1].text + text[start:end], differs=True)
        else:
            pieces.append(Piece(text[start:end], differs=True))
        at = end
    if at < len(text):
        pieces.append(Piece(text[at:], differs=False))
    return tuple(pieces)
