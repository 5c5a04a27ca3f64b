"""Deep links: the URL hash names the open folder and word, so reload and back/forward land there.

Formats: `#/` (home), `#/folder/12`, `#/folder/12/word/34`. Anything else means home, so a
hand-edited or stale link never breaks the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PATTERN = re.compile(r"^#?/?(?:folder/(\d{1,15})(?:/word/(\d{1,15}))?)?/?$")


@dataclass(frozen=True, slots=True)
class Route:
    folder_id: int | None = None
    word_id: int | None = None

    @classmethod
    def parse(cls, fragment: str) -> Route:
        match = _PATTERN.match(fragment.strip())
        if match is None or match.group(1) is None:
            return cls()
        word = match.group(2)
        return cls(int(match.group(1)), int(word) if word else None)

    def to_hash(self) -> str:
        if self.folder_id is None:
            return "#/"
        if self.word_id is None:
            return f"#/folder/{self.folder_id}"
        return f"#/folder/{self.folder_id}/word/{self.word_id}"
