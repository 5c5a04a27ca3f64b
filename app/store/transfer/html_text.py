"""Plain text out of the HTML in Anki fields, safely: parsed with html.parser (never rendered),
entities unescaped, line breaks and blocks kept as newlines, scripts and styles dropped, Anki's
own markup (`[sound:x.mp3]`, `{{c1::answer::hint}}`) reduced to what a reader would see."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

_BLOCKS = frozenset(
    {"p", "div", "li", "ul", "ol", "tr", "table", "blockquote", "section", "pre", "hr"}
    | {f"h{n}" for n in range(1, 7)}
)
_DROPPED = frozenset({"script", "style", "head", "title", "template", "object"})
# Neither reaches past the next opening mark, so unclosed ones are read once, not each to the end.
_SOUND = re.compile(r"\[sound:[^\][]*\]")
_CLOZE = re.compile(r"\{\{c\d+::((?:[^:{}]|:(?!:))*)(?:::[^{}]*)?\}\}")
# Most fields hold only plain formatting: tags without scripts, comments or odd quoting, and
# whole entities. Such text is read by three substitutions instead of the (slow) parser, with
# the same result (tests/store/transfer/test_anki.py checks that it is the same). Each
# character is taken at one place only (a run of text ends at the next `<` or `&`, where a tag
# or an entity must start, and each ends at one place), so a field that is not simple (a comment
# at its end) fails in linear time; `(?:[^<&]+|...)*` here let the engine split a run of text
# every possible way, and a 330-character field of a public deck never finished. A run is taken
# whole rather than a character an alternative: a third of the time on a deck's fields.
_ATTRIBUTES = r"(?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:=\"[^\"<>]*\")?)*\s*/?>"
_KEPT = rf"(?!(?:{'|'.join(sorted(_DROPPED))})\b)[a-zA-Z][a-zA-Z0-9]*"  # not a dropped tag
_TAG = rf"<{_KEPT}{_ATTRIBUTES}|</{_KEPT}\s*>"
_ENTITY = r"&(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});"
_SIMPLE = re.compile(rf"(?:[^<&]*(?:{_TAG}|{_ENTITY}))*[^<&]*", re.IGNORECASE)
_BLOCK_NAMES = "|".join(sorted(_BLOCKS))
# A line break: a start tag of br or a block, or a block's end tag (not br's).
_LINE_TAG = re.compile(rf"<(?:br|{_BLOCK_NAMES})\b{_ATTRIBUTES}|</(?:{_BLOCK_NAMES})\s*>", re.I)
_ANY_TAG = re.compile(_TAG, re.IGNORECASE)
# What a field needs more than its spaces collapsed for: markup, Anki's own, control characters
# and line breaks.
_SPECIAL = re.compile("[<&\\[{\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029]")
_BREAK = re.compile("[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")  # where splitlines splits
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")  # categories Cc and Cs
# _CONTROL without _BREAK's characters
_CONTROL_IN_LINE = re.compile("[\x00-\x09\x0e-\x1b\x1f\x7f-\x84\x86-\x9f\ud800-\udfff]")


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.dropping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED:
            self.dropping += 1
        elif tag == "br" or tag in _BLOCKS:
            self.parts.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" or tag in _BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED:
            self.dropping = max(0, self.dropping - 1)
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.dropping:
            self.parts.append(data)


def _parsed_text(html: str) -> str:
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return "".join(collector.parts)


def _simple_text(html: str) -> str:
    """What `_parsed_text` gives for `_SIMPLE` markup."""
    return unescape(_ANY_TAG.sub("", _LINE_TAG.sub("\n", html)))


def html_to_text(html: str) -> str:
    """The visible text of `html`: one line per line break or block, blank lines dropped,
    spaces collapsed, control characters removed."""
    if not _SPECIAL.search(html):  # plain words on one line: most fields of a deck
        return " ".join(html.split())
    # Each pattern only where it can match (a scan costs as much as the rest of a short field);
    # a cloze can be whole only once the sounds inside it are gone.
    if "[sound:" in html:
        html = _SOUND.sub("", html)
    if "{{c" in html:
        html = _CLOZE.sub(r"\1", html)
    if "<" in html or "&" in html:  # most fields of a deck are plain words: no parser needed
        html = _simple_text(html) if _SIMPLE.fullmatch(html) else _parsed_text(html)
    if not _BREAK.search(html):  # one line
        return " ".join(_CONTROL.sub(" ", html).split())
    # Control characters become spaces in one scan of the whole text, sparing the line breaks.
    lines = (" ".join(line.split()) for line in _CONTROL_IN_LINE.sub(" ", html).splitlines())
    return "\n".join(filter(None, lines))
