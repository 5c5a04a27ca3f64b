"""Deep links: the URL hash names the open folder and word, or a screen, so reload and
back/forward land there.

Formats: `#/` (home), `#/folder/12`, `#/folder/12/word/34`, `#/study` (the study session),
`#/stats` and `#/stats/folder/12` (study statistics of everything or of one folder).
Anything else means home, so a hand-edited or stale link never breaks the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

View = Literal["", "study", "stats"]

_PATTERN = re.compile(r"^#?/?(?:folder/(\d{1,15})(?:/word/(\d{1,15}))?)?/?$")
_SCREEN = re.compile(r"^#?/?(study|stats)(?:/folder/(\d{1,15}))?/?$")


@dataclass(frozen=True, slots=True)
class Route:
    """Where the page is: a folder, a word in it, or a view such as study or stats."""

    folder_id: int | None = None
    word_id: int | None = None
    view: View = ""

    @classmethod
    def parse(cls, fragment: str) -> Route:
        text = fragment.strip()
        screen = _SCREEN.match(text)
        if screen is not None:
            view: View = "study" if screen.group(1) == "study" else "stats"
            folder = screen.group(2)
            # The study screen is the one open session, whatever folder it studies.
            return cls(int(folder) if folder and view == "stats" else None, None, view)
        match = _PATTERN.match(text)
        if match is None or match.group(1) is None:
            return cls()
        word = match.group(2)
        return cls(int(match.group(1)), int(word) if word else None)

    def to_hash(self) -> str:
        if self.view == "study":
            return "#/study"
        if self.view == "stats":
            return "#/stats" if self.folder_id is None else f"#/stats/folder/{self.folder_id}"
        if self.folder_id is None:
            return "#/"
        if self.word_id is None:
            return f"#/folder/{self.folder_id}"
        return f"#/folder/{self.folder_id}/word/{self.word_id}"
