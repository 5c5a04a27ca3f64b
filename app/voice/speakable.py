"""Answers made for the ear: the agents' Markdown turned into plain sentences, a budget at a time.

The screen shows the full answer; speech gets what a person would say: no symbols, links by
their label (a bare address is "a link"), code left to the screen, table rows and list items as
sentences. `speak` takes about 75 words, ending at a sentence when it can, and offers the rest:
"Want more?" then `more(rest)` continues.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from app.text.markdown import render_markdown
from app.text.nodes import El, Node, find_all, text_content
from app.voice.sentences import split_sentences

WORD_BUDGET = 75
WANT_MORE = "Want more?"
CODE_NOTE = "The code is on the screen."
LINK = "a link"


@dataclass(frozen=True, slots=True)
class Spoken:
    """What to say now, and the plain text that "more" continues with ("" when nothing is left)."""

    text: str
    rest: str


def speak(markdown: str, budget: int = WORD_BUDGET, offer: str = WANT_MORE) -> Spoken:
    """The first `budget` words or so of an answer, ready to be spoken."""
    return more(speakable(markdown), budget, offer)


def more(rest: str, budget: int = WORD_BUDGET, offer: str = WANT_MORE) -> Spoken:
    """The next part of already speakable text: whole sentences within `budget` words, or the
    start of one over-long sentence, then `offer` when anything is left."""
    budget = max(budget, 1)
    sentences = split_sentences(rest)
    taken = count = 0
    while taken < len(sentences) and count + len(sentences[taken].split()) <= budget:
        count += len(sentences[taken].split())
        taken += 1
    if taken == len(sentences):
        return Spoken(" ".join(sentences), "")
    said, left = sentences[:taken], sentences[taken:]
    if not said:
        head, tail = _cut(left[0], budget)
        said, left = [head], [tail, *left[1:]]
    return Spoken(f"{' '.join(said)} {offer}", " ".join(left))


def speakable(markdown: str) -> str:
    """The whole answer as plain sentences on one line."""
    return " ".join(speakable_sentences(markdown))


def speakable_sentences(markdown: str) -> list[str]:
    """One plain sentence (or more) per block, list item, table row or line of the answer."""
    return [_as_sentence(piece) for node in render_markdown(markdown) for piece in _pieces(node)]


# Blocks whose text is spoken as its own sentence(s).
_BLOCKS = frozenset({"p", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "br", "hr"})


def _pieces(node: Node) -> Iterator[str]:
    """Cleaned, non-empty pieces of text, split where a listener needs a pause."""
    line: list[str] = []
    for part in (*_parts(node), None):
        if part is not None:
            line.append(part)
            continue
        text = _clean("".join(line))
        line.clear()
        if text:
            yield text


def _parts(node: Node) -> Iterator[str | None]:
    """Text of the tree in order, with None wherever a sentence must end."""
    if isinstance(node, str):
        first, *others = node.split("\n")
        yield first
        for other in others:
            yield from (None, other)
    elif node.tag == "pre":
        yield from (None, CODE_NOTE, None)
    elif node.tag == "table":
        for row in _rows(node):
            yield from (None, row, None)
    elif node.tag in _BLOCKS:
        yield None
        for child in node.children:
            yield from _parts(child)
        yield None
    else:
        for child in node.children:
            yield from _parts(child)


def _rows(table: El) -> list[str]:
    """Each row as "first cell: other cells"; the header row only when there are no others."""
    head = [_cells(row) for row in find_all(table, lambda el: el.tag == "thead")]
    body = [_cells(row) for row in find_all(table, lambda el: el.tag == "tr")][len(head) :]
    rows = [row for row in body if row] or [row for row in head if row]
    return [row[0] if len(row) == 1 else f"{row[0]}: {', '.join(row[1:])}" for row in rows]


def _cells(row: El) -> list[str]:
    return [cell for cell in (_clean(text_content(c)) for c in find_all(row, _is_cell)) if cell]


def _is_cell(el: El) -> bool:
    return el.tag in ("th", "td")


_URL = re.compile(r"(?:https?://|mailto:|www\.)\S+", re.IGNORECASE)
# A comment ends at "-->", or gives up at the next "<!--" (an unclosed one is read once).
_TAG = re.compile(r"<!--(?:[^<-]|<(?!!--)|-(?!->))*-->|</?[A-Za-z][^<>]*>")
# Markup that survives as literal text (unmatched or raw): dropped inside words, a space between.
# "#" goes too, even as a number sign ("#3"): a number sign kept at a sentence's start would
# read as a heading once a cut for "Want more?" lands before it, and voices read it unevenly.
_MARKUP = str.maketrans(dict.fromkeys("*`~", "") | dict.fromkeys("_|[]<>\\{}#", " "))
# Emoji, pictographs and other symbols, their modifiers and joiners, private and unassigned
# code points: nothing a voice should try to read.
_SILENT = frozenset({"So", "Sk", "Co", "Cs", "Cn", "Cf"})
_LEADING = re.compile(r"^(?:[•·]+\s*|[-+]\s+)+")
_SPACES = re.compile(r"\s+")
_ENDS = re.compile(r"[.!?…。！？][\"'”’)»」』]*$")


def _clean(text: str) -> str:
    """Plain words of a piece of text, or "" when nothing in it can be said."""
    text = _TAG.sub(" ", _URL.sub(f" {LINK} ", text)).translate(_MARKUP)
    text = "".join(
        " " if unicodedata.category(c) == "Cc" else c
        for c in text
        if unicodedata.category(c) not in _SILENT
    )
    text = _LEADING.sub("", _SPACES.sub(" ", text).strip())
    return text if any(c.isalnum() for c in text) else ""


def _as_sentence(text: str) -> str:
    """The text ending with a stop, so a voice pauses after it."""
    return text if _ENDS.search(text) else f"{text.rstrip(',;:–— ')}."


def _cut(sentence: str, budget: int) -> tuple[str, str]:
    """Split an over-long sentence after a comma-like pause in its second half, else at `budget`
    words; both halves keep every word."""
    words = sentence.split()
    pauses = [n for n in range(budget // 2, budget) if words[n - 1][-1] in ",;:–—"]
    at = pauses[-1] if pauses else budget
    return _as_sentence(" ".join(words[:at])), " ".join(words[at:])
