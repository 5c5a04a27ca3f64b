"""Read-only result shapes the store returns besides the domain entities (tree rows, search hits,
deletion summaries, bulk-paste previews): plain pydantic data the UI and tools can render."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from app.domain import Folder, FolderId, WordId


class _Result(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class TreeRow(_Result):
    """A folder in depth-first order with its direct and subtree word counts."""

    folder: Folder
    depth: int
    word_count: int
    total_words: int


class DeletionSummary(_Result):
    """What deleting a folder would take with it, for the confirmation dialog."""

    folder: Folder
    subfolders: int
    words: int
    notes: int


class Snippet(_Result):
    """Plain text around a match; `marks` are [start, end) character ranges to highlight."""

    text: str
    marks: list[tuple[int, int]]


HitKind = Literal["word", "folder", "note"]


class SearchHit(_Result):
    """One search result. `folder_id`/`path` locate it: the containing folder for words and
    notes, the folder itself for folder hits; `path` lists folder names from the root."""

    kind: HitKind
    id: int
    title: str
    snippet: Snippet
    folder_id: FolderId
    path: list[str]


BulkStatus = Literal["ok", "duplicate", "invalid"]


class BulkRow(_Result):
    line: int
    term: str
    meanings: list[str]
    status: BulkStatus
    reason: str = ""


class BulkPreview(_Result):
    rows: list[BulkRow]
    note: str = ""  # e.g. why some lines were not read

    def count(self, status: BulkStatus) -> int:
        return sum(1 for r in self.rows if r.status == status)


class BulkResult(_Result):
    added: int
    skipped: list[BulkRow]


class WordsMoved(_Result):
    moved: list[WordId]
    skipped: list[str]  # one sentence per word left where it was
