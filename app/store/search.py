"""Search as you type over words, folders and notes, ranked like a dictionary.

User text never reaches FTS5 syntax: it is cut into tokens the way the unicode61 tokenizer cuts
them, each token is quoted, and every token is matched as a prefix. So `"`, `*`, `AND`, `NEAR(`
or a page of emoji can only ever find less, never raise.

Hits come in tiers, each a title (a word's term, a folder's or note's name): the exact term
(equal ignoring case and accents), terms that start with the query, terms with a word that
does, then matches in meanings, then in notes. Within a tier shorter titles come first.
"""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata

from app.domain import FolderId
from app.store import queries
from app.store.db import Database
from app.store.migrations import FOLDER_KIND, NOTE_KIND, WORD_KIND
from app.store.results import HitKind, SearchHit, Snippet

MAX_QUERY_CHARS = 200
MAX_TOKENS = 8
# Marker characters cannot occur in stored text: validation rejects control characters.
_OPEN, _CLOSE = "\x02", "\x03"
_KINDS: dict[int, HitKind] = {FOLDER_KIND: "folder", WORD_KIND: "word", NOTE_KIND: "note"}
# The combining accents `remove_diacritics 2` drops (other scripts' marks are part of a word).
_ACCENTS = "[\u0300-\u036f]"


def _is_token_char(ch: str) -> bool:
    return ch.isalnum() or unicodedata.category(ch)[0] == "M"


def _words(text: str) -> list[str]:
    return "".join(ch if _is_token_char(ch) else " " for ch in text).split()


def tokens(text: str) -> list[str]:
    """Split like unicode61: letters, digits and combining marks form tokens; all else separates."""
    return _words(unicodedata.normalize("NFC", text[:MAX_QUERY_CHARS]))[:MAX_TOKENS]


def fold(text: str) -> str:
    """`text` as the index compares it: lower case, without accents, its words joined by one
    space. Two titles with the same fold are the same term to search ("Café" and "cafe").
    Unlike app.text.fold it keeps other scripts' marks and width variants, as the index does."""
    bare = re.sub(_ACCENTS, "", unicodedata.normalize("NFD", text.lower()))
    return " ".join(_words(unicodedata.normalize("NFC", bare)))


def fts_query(text: str) -> str | None:
    """A safe FTS5 query for `text`, or None when it holds nothing searchable."""
    found = tokens(text)
    return _anywhere(found) if found else None


def _anywhere(found: list[str]) -> str:
    return " ".join(f'"{t}"*' for t in found)


# Ranking costs a read of every matching title, and a first letter typed can match a third of
# the collection. Up to this many matches everything is ranked; beyond it, only the two title
# tiers are, while the titles they read stay within this many, and the other matches come
# newest first (FTS5 reads those in index order and stops early). That bounds the cost of
# every keystroke whatever the size of the collection; the exact term is looked up on its own,
# so it comes first even then.
RANK_LIMIT = 2_000
_TITLE_TIERS = 2
_COLUMNS = f"rowid, title, snippet(search, -1, '{_OPEN}', '{_CLOSE}', '…', 12) AS snip"


def search(db: Database, text: str, limit: int = 50) -> list[SearchHit]:
    found = tokens(text)
    if not found or limit <= 0:
        return []
    rows = _with_snippets(db, found, _ranked(db, found, text, limit))
    hits = [(_KINDS[row["rowid"] % 4], row["rowid"] // 4) for row in rows]
    places = _places(db, hits)
    return [
        SearchHit(
            kind=kind,
            id=item_id,
            title=row["title"],
            snippet=parse_snippet(row["snip"]),
            folder_id=places[kind, item_id][0],
            path=places[kind, item_id][1],
        )
        for row, (kind, item_id) in zip(rows, hits, strict=True)
    ]


def _tiers(found: list[str]) -> list[str]:
    """FTS5 queries for the tiers after the exact term, best first, each without the ones
    before it: title starts with the query, a word of the title does, meanings, the rest."""
    anywhere = _anywhere(found)
    start = f'title : ^ "{" ".join(found)}"*'
    title = f"title : ({anywhere})"
    named = f"{{title meanings}} : ({anywhere})"
    return [
        start,
        f"({title}) NOT ({start})",
        f"({named}) NOT ({title})",
        f"({anywhere}) NOT ({named})",
    ]


def _ranked(db: Database, found: list[str], text: str, limit: int) -> list[int]:
    """The rowids of the best `limit` matches, best first. When there are more matches than
    RANK_LIMIT, only the title tiers are ranked, sharing a budget of that many titles read,
    and the rest come newest first (as does a title tier bigger than what is left)."""
    total = _count(db, _anywhere(found), RANK_LIMIT)
    if not total:
        return []
    picked = _exact(db, found, text)[:limit]
    budget = RANK_LIMIT
    for n, query in enumerate(_tiers(found)):
        need = limit - len(picked)
        if need <= 0:
            break
        skip = set(picked)
        if total <= RANK_LIMIT:
            rowids = _shortest(db, "search MATCH ?", query, need + len(skip))
        else:
            budget = budget if n < _TITLE_TIERS else 0
            rowids = _newest(db, query, max(budget, need + len(skip)) + 1)
            if len(rowids) <= budget:
                budget -= len(rowids)
                # By rowid, without a MATCH, FTS5 does not expand the prefixes again.
                where = f"rowid IN ({queries.IDS})"
                rowids = _shortest(db, where, json.dumps(rowids), need + len(skip))
        picked += [rowid for rowid in rowids if rowid not in skip][:need]
    return picked


def _newest(db: Database, query: str, limit: int) -> list[int]:
    sql = "SELECT rowid FROM search WHERE search MATCH ? ORDER BY rowid DESC LIMIT ?"
    return [row["rowid"] for row in db.all(sql, (query, limit))]


def _shortest(db: Database, where: str, param: str, limit: int) -> list[int]:
    """The first `limit` rows matching `where`, by the length of their title; ties
    alphabetically, then oldest first."""
    rows = db.all(
        f"SELECT rowid FROM search WHERE {where} "
        "ORDER BY length(title), lower(title), rowid LIMIT ?",
        (param, limit),
    )
    return [row["rowid"] for row in rows]


def _exact(db: Database, found: list[str], text: str) -> list[int]:
    """Titles equal to the query but for case and accents: among the titles whose first words
    are the query's (few, but for a word that starts thousands of titles, such as an article,
    where the titles equal ignoring case are looked up in the term and name indexes)."""
    query = f'title : ^ "{" ".join(found)}"'
    rows = db.all(
        "SELECT rowid, title FROM search WHERE search MATCH ? LIMIT ?", (query, RANK_LIMIT + 1)
    )
    if len(rows) > RANK_LIMIT:
        key = unicodedata.normalize("NFC", text.strip()).casefold()
        rows = db.all(
            f"SELECT id * 4 + {WORD_KIND} AS rowid, term AS title FROM word WHERE term_key = ?1 "
            f"UNION ALL SELECT id * 4 + {FOLDER_KIND}, name FROM folder WHERE name_key = ?1",
            (key,),
        )
    wanted = fold(" ".join(found))
    exact = [row for row in rows if fold(row["title"]) == wanted]
    return [row["rowid"] for row in sorted(exact, key=_shorter_first)]


def _shorter_first(row: sqlite3.Row) -> tuple[int, str, int]:
    return len(row["title"]), row["title"].casefold(), row["rowid"]


def _count(db: Database, query: str, most: int) -> int:
    """How many matches `query` has, counting no further than `most` + 1."""
    sql = "SELECT count(*) FROM (SELECT 1 FROM search WHERE search MATCH ? LIMIT ?)"
    return int(db.scalar(sql, (query, most + 1)))


def _with_snippets(db: Database, found: list[str], rowids: list[int]) -> list[sqlite3.Row]:
    """The rows of `rowids`, in that order, with their snippets (made only for these). The
    unary + keeps SQLite from handing the list to FTS5 as one lookup per rowid, each of which
    would expand the prefixes again; the range still narrows the scan."""
    rows = db.all(
        f"SELECT {_COLUMNS} FROM search WHERE search MATCH ? AND rowid BETWEEN ? AND ? "
        f"AND +rowid IN ({queries.IDS})",
        (_anywhere(found), min(rowids, default=0), max(rowids, default=0), json.dumps(rowids)),
    )
    by_rowid = {row["rowid"]: row for row in rows}
    return [by_rowid[rowid] for rowid in rowids if rowid in by_rowid]


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
