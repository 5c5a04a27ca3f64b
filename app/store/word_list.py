"""A folder's words as its page lists them: filtered, sorted and one page at a time, and where
in that listing a given word falls (so a link to it can open the page that holds it).

The filter matches the term and meanings anywhere, ignoring case and accents (the `word_text`
SQL function of app.store.db); sorts are A–Z, newest first, or by the next due date of studied
words (words never studied follow, A–Z).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from app.domain import FolderId, Word, WordId
from app.store.db import Database
from app.store.queries import word_count, words_by_id
from app.text.fold import fold

WordSort = Literal["az", "newest", "due"]
SORTS: tuple[WordSort, ...] = get_args(WordSort)

_ORDER: dict[WordSort, str] = {
    "az": "term_key, id",
    "newest": "created_at DESC, id DESC",
    "due": "next.due IS NULL, next.due, term_key, id",
}
# A word has a card per direction studied; the sooner of the two is when it is next due.
_NEXT_DUE = (
    "LEFT JOIN (SELECT word_id, min(due) AS due FROM card WHERE folder_id = :folder "
    "GROUP BY word_id) AS next ON next.word_id = word.id"
)
# The term and meanings one a line: a filter is one line, so it matches inside the term or
# one meaning, never across two (nor the JSON the meanings are stored as).
_MATCHES = "instr(word_text(term, meanings), :needle) > 0"


@dataclass(frozen=True, slots=True)
class WordQuery:
    """Which of a folder's words to list and in what order."""

    text: str = ""
    sort: WordSort = "az"

    @property
    def needle(self) -> str:
        """The folded filter text; empty means every word."""
        return fold(self.text.strip())


@dataclass(frozen=True, slots=True)
class WordPage:
    """Words `start` onwards of the listing, and how many words the query matches in all."""

    words: list[Word]
    start: int
    matching: int


def _source(query: WordQuery) -> str:
    join = _NEXT_DUE if query.sort == "due" else ""
    where = f"folder_id = :folder AND {_MATCHES}" if query.needle else "folder_id = :folder"
    return f"{join} WHERE {where}"


def listing(
    db: Database, folder_id: FolderId, query: WordQuery, start: int = 0, limit: int = -1
) -> list[WordId]:
    """The ids of the words `query` lists, in order (`limit` of them from `start`; -1: all)."""
    rows = db.all(
        f"SELECT id FROM word {_source(query)} ORDER BY {_ORDER[query.sort]} "
        "LIMIT :limit OFFSET :start",
        {"folder": folder_id, "needle": query.needle, "start": start, "limit": limit},
    )
    return [WordId(r[0]) for r in rows]


def page(db: Database, folder_id: FolderId, query: WordQuery, start: int, limit: int) -> WordPage:
    start, limit = max(0, start), max(0, limit)
    if query.needle:
        # One pass of the filter (it folds every word of the folder) gives page and count.
        ids = listing(db, folder_id, query)
        shown, matching = ids[start : start + limit], len(ids)
    else:  # the index pages and counts by itself
        shown, matching = listing(db, folder_id, query, start, limit), word_count(db, folder_id)
    found = {w.id: w for w in words_by_id(db, shown)}
    return WordPage([found[i] for i in shown], start, matching)


def position(db: Database, folder_id: FolderId, query: WordQuery, word_id: WordId) -> int | None:
    """How many words come before `word_id` in the listing; None if it is not listed."""
    ids = listing(db, folder_id, query)
    return ids.index(word_id) if word_id in ids else None
