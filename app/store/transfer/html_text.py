"""Plain text out of the HTML in Anki fields, safely: parsed with html.parser (never rendered),
entities unescaped, line breaks and blocks kept as newlines, scripts and styles dropped, Anki's
own markup (`[sound:x.mp3]`, `{{c1::answer::hint}}`) reduced to what a reader would see."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCKS = frozenset(
    {"p", "div", "li", "ul", "ol", "tr", "table", "blockquote", "section", "pre", "hr"}
    | {f"h{n}" for n in range(1, 7)}
)
_DROPPED = frozenset({"script", "style", "head", "title", "template", "object"})
_SOUND = re.compile(r"\[sound:[^\]]*\]")
_CLOZE = re.compile(r"\{\{c\d+::(.*?)(?:::[^}]*)?\}\}", re.DOTALL)
_MARKUP = re.compile(r"[<&]|\[sound:|\{\{c\d")
_BREAK = re.compile("[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")  # where splitlines splits
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")  # categories Cc and Cs


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


def html_to_text(html: str) -> str:
    """The visible text of `html`: one line per line break or block, blank lines dropped,
    spaces collapsed, control characters removed."""
    if _MARKUP.search(html):  # most fields of a deck are plain words: no parser needed
        collector = _Collector()
        collector.feed(_CLOZE.sub(r"\1", _SOUND.sub("", html)))
        collector.close()
        html = "".join(collector.parts)
    if not _BREAK.search(html):  # one line
        return " ".join(_CONTROL.sub(" ", html).split())
    lines = (" ".join(_CONTROL.sub(" ", line).split()) for line in html.splitlines())
    return "\n".join(line for line in lines if line)
