"""Read-only result shapes the store returns besides the domain entities (tree rows, search hits,
deletion summaries, bulk-paste previews): plain frozen data the UI and tools can render."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.domain import Folder, FolderId, WordId


@dataclass(frozen=True, slots=True, kw_only=True)
class TreeRow:
    """A folder in depth-first order with its direct and subtree word counts."""

    folder: Folder
    depth: int
    word_count: int
    total_words: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DeletionSummary:
    """What deleting a folder would take with it, for the confirmation dialog."""

    folder: Folder
    subfolders: int
    words: int
    notes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Snippet:
    """Plain text around a match; `marks` are [start, end) character ranges to highlight."""

    text: str
    marks: list[tuple[int, int]]


HitKind = Literal["word", "folder", "note"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchHit:
    """One search result. `folder_id`/`path` locate it: the containing folder for words and
    notes, the folder itself for folder hits; `path` lists folder names from the root."""

    kind: HitKind
    id: int
    title: str
    snippet: Snippet
    folder_id: FolderId
    path: list[str]


BulkStatus = Literal["ok", "duplicate", "invalid"]


@dataclass(frozen=True, slots=True, kw_only=True)
class BulkRow:
    """One line of a bulk paste as previewed: its word and whether it will be added."""

    line: int
    term: str
    meanings: list[str]
    status: BulkStatus
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class BulkPreview:
    """Every line of a bulk paste as previewed, and a note on any not read."""

    rows: list[BulkRow]
    note: str = ""  # e.g. why some lines were not read

    def count(self, status: BulkStatus) -> int:
        return sum(1 for r in self.rows if r.status == status)


@dataclass(frozen=True, slots=True, kw_only=True)
class BulkResult:
    """What a bulk add did: how many words it added and the rows it skipped."""

    added: int
    skipped: list[BulkRow]


@dataclass(frozen=True, slots=True, kw_only=True)
class WordsMoved:
    """The words a move took to the other folder, and why any stayed."""

    moved: list[WordId]
    skipped: list[str]  # one sentence per word left where it was
