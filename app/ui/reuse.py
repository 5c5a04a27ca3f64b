"""Element trees built once per content and handed out again while it is unchanged.

A folder redraw renders hundreds of rows and notes though few change: asking with the same key
gives back the element already built, which app.ui.diff then skips at once (and a note's
Markdown is not parsed again). The key must hold everything the tree shows, so a stale tree can
never be shown. Bounded by starting afresh when full.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from app.text.nodes import El

K = TypeVar("K", bound=Hashable)


class Reused(Generic[K]):
    def __init__(self, kept: int = 4096) -> None:
        self.kept = kept
        self._built: dict[K, El] = {}

    def __len__(self) -> int:
        return len(self._built)

    def get(self, key: K, build: Callable[[], El]) -> El:
        tree = self._built.get(key)
        if tree is None:
            if len(self._built) >= self.kept:
                self._built.clear()
            tree = self._built[key] = build()
        return tree
