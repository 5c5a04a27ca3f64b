"""Search as you type over words, folders and notes with the FTS5 index kept by triggers.

User text never reaches FTS5 syntax: it is cut into tokens the way the unicode61 tokenizer cuts
them, each token is quoted, and every token is matched as a prefix. So `"`, `*`, `AND`, `NEAR(`
or a page of emoji can only ever find less, never raise.
"""

from __future__ import annotations

import json
import sqlite3
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


# bm25 is computed for every match before the best are kept, so its cost grows with the
# number of matches (a first letter typed can match a third of the collection). Up to this
# many matches everything is ranked; beyond it, title matches are ranked (or, if they too are
# that many, listed newest first) and the other matches follow newest first. That bounds the
# cost of every keystroke whatever the size of the collection.
RANK_LIMIT = 2_000
_COLUMNS = f"rowid, title, snippet(search, -1, '{_OPEN}', '{_CLOSE}', '…', 12) AS snip"


def search(db: Database, text: str, limit: int = 50) -> list[SearchHit]:
    query = fts_query(text)
    if query is None or limit <= 0:
        return []
    rows = _matches(db, query, limit)
    found = [(_KINDS[row["rowid"] % 4], row["rowid"] // 4) for row in rows]
    places = _places(db, found)
    return [
        SearchHit(
            kind=kind,
            id=item_id,
            title=row["title"],
            snippet=parse_snippet(row["snip"]),
            folder_id=places[kind, item_id][0],
            path=places[kind, item_id][1],
        )
        for row, (kind, item_id) in zip(rows, found, strict=True)
    ]


def _matches(db: Database, query: str, limit: int) -> list[sqlite3.Row]:
    if not _more_than(db, query, RANK_LIMIT):
        return _ranked(db, query, limit)
    in_titles = f"title : ({query})"
    if _more_than(db, in_titles, RANK_LIMIT):
        rows = _newest(db, in_titles, limit)
    else:
        rows = _ranked(db, in_titles, limit)
    if len(rows) < limit:
        rows += _newest(db, f"({query}) NOT {in_titles}", limit - len(rows))
    return rows


def _more_than(db: Database, query: str, count: int) -> bool:
    """Whether `query` has more than `count` matches (counting stops there)."""
    sql = "SELECT count(*) FROM (SELECT 1 FROM search WHERE search MATCH ? LIMIT ?)"
    return bool(db.scalar(sql, (query, count + 1)) > count)


def _ranked(db: Database, query: str, limit: int) -> list[sqlite3.Row]:
    return db.all(
        f"SELECT {_COLUMNS} FROM search WHERE search MATCH ? "
        f"ORDER BY bm25(search, {_WEIGHTS}) LIMIT ?",
        (query, limit),
    )


def _newest(db: Database, query: str, limit: int) -> list[sqlite3.Row]:
    return db.all(
        f"SELECT {_COLUMNS} FROM search WHERE search MATCH ? ORDER BY rowid DESC LIMIT ?",
        (query, limit),
    )


Place = tuple[FolderId, list[str]]


def _places(db: Database, found: list[tuple[HitKind, int]]) -> dict[tuple[HitKind, int], Place]:
    """Each hit's folder (the folder itself for folder hits) and that folder's path, from
    three queries however many hits there are."""
    folder_of = {hit: hit[1] for hit in found if hit[0] == "folder"}
    for kind in ("word", "note"):
        ids = json.dumps([item_id for k, item_id in found if k == kind])
        for row in db.all(f"SELECT id, folder_id FROM {kind} WHERE id IN ({queries.IDS})", (ids,)):
            folder_of[kind, row["id"]] = row["folder_id"]
    paths = queries.folder_paths(db, set(folder_of.values()))
    return {hit: (FolderId(folder), paths[folder]) for hit, folder in folder_of.items()}


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
