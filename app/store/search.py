"""Search as you type over words, folders and notes with the FTS5 index kept by triggers.

User text never reaches FTS5 syntax: it is cut into tokens the way the unicode61 tokenizer cuts
them, each token is quoted, and every token is matched as a prefix. So `"`, `*`, `AND`, `NEAR(`
or a page of emoji can only ever find less, never raise.
"""

from __future__ import annotations

import unicodedata

from app.domain import FolderId
from app.store import queries
from app.store.db import Database
from app.store.migrations import FOLDER_KIND, NOTE_KIND, WORD_KIND
from app.store.results import HitKind, SearchHit, Snippet

MAX_QUERY_CHARS = 200
MAX_TOKENS = 8
# Column weights for bm25: a match in the term/name/title counts most, then meanings, then text.
_WEIGHTS = "10.0, 4.0, 1.0"
# Marker characters cannot occur in stored text: validation rejects control characters.
_OPEN, _CLOSE = "\x02", "\x03"
_KINDS: dict[int, HitKind] = {FOLDER_KIND: "folder", WORD_KIND: "word", NOTE_KIND: "note"}


def _is_token_char(ch: str) -> bool:
    return ch.isalnum() or unicodedata.category(ch)[0] == "M"


def tokens(text: str) -> list[str]:
    """Split like unicode61: letters, digits and combining marks form tokens; all else separates."""
    text = unicodedata.normalize("NFC", text[:MAX_QUERY_CHARS])
    spaced = "".join(ch if _is_token_char(ch) else " " for ch in text)
    return spaced.split()[:MAX_TOKENS]


def fts_query(text: str) -> str | None:
    """A safe FTS5 query for `text`, or None when it holds nothing searchable."""
    found = tokens(text)
    return " ".join(f'"{t}"*' for t in found) if found else None


def search(db: Database, text: str, limit: int = 50) -> list[SearchHit]:
    query = fts_query(text)
    if query is None or limit <= 0:
        return []
    rows = db.all(
        f"SELECT rowid, title, snippet(search, -1, '{_OPEN}', '{_CLOSE}', '…', 12) AS snip "
        f"FROM search WHERE search MATCH ? ORDER BY bm25(search, {_WEIGHTS}) LIMIT ?",
        (query, limit),
    )
    hits = []
    paths: dict[FolderId, list[str]] = {}
    for row in rows:
        kind, item_id = _KINDS[row["rowid"] % 4], row["rowid"] // 4
        folder_id = _folder_of(db, kind, item_id)
        if folder_id not in paths:
            paths[folder_id] = [f.name for f in queries.folder_path(db, folder_id)]
        hits.append(
            SearchHit(
                kind=kind,
                id=item_id,
                title=row["title"],
                snippet=parse_snippet(row["snip"]),
                folder_id=folder_id,
                path=paths[folder_id],
            )
        )
    return hits


def _folder_of(db: Database, kind: str, item_id: int) -> FolderId:
    if kind == "folder":
        return FolderId(item_id)
    return FolderId(db.scalar(f"SELECT folder_id FROM {kind} WHERE id = ?", (item_id,)))


def parse_snippet(marked: str) -> Snippet:
    """Turn FTS5's marker-delimited snippet into plain text plus highlight ranges."""
    text: list[str] = []
    marks: list[tuple[int, int]] = []
    start = 0
    length = 0
    for ch in marked:
        if ch == _OPEN:
            start = length
        elif ch == _CLOSE:
            marks.append((start, length))
        else:
            text.append(ch)
            length += 1
    return Snippet(text="".join(text), marks=marks)
