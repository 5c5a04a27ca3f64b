"""Reads for the stats page: every figure aggregated in SQL over the indexed columns.

The review log can hold a million rows, so nothing here reads it row by row in Python and no
query scans the whole table: windows of time read `review_by_time`, the study days of the
whole history are found by skipping from day to day through that index, and only the few
words with the most lapses have their Again answers counted (through `review_by_word`).
Days are counted from an `anchor` on the study-day boundary (app/study/days.py), so
`(moment - anchor) / DAY_MS` is the study day of any moment after it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from app.domain import FolderId, WordId
from app.store.db import Database
from app.store.study_queries import Scope, _where
from app.study.model import DAY_MS, CardState, Direction, Rating

# The folders that study each direction, or None when every folder of the scope does (the
# usual case, which then needs no list). Cards outside them are set aside (their folder stopped
# studying that direction), so they are neither due nor counted.
Studied = Mapping[Direction, frozenset[FolderId] | None]
# Values a damaged or foreign row might hold outside the enums are left out, not fatal.
_RATINGS = frozenset(Rating)
_STATES = frozenset(CardState)


def _studied(scope: Scope, studied: Studied) -> tuple[str, list[str]]:
    """WHERE for the cards of the scope in a direction their folder studies."""
    where, params = _where(scope, "c")
    clauses = []
    for direction, folders in studied.items():
        clause = "c.direction = ?"
        params.append(direction)
        if folders is not None:
            clause += " AND c.folder_id IN (SELECT value FROM json_each(?))"
            params.append(json.dumps(sorted(folders)))
        clauses.append(f"({clause})")
    return f"{where} AND ({' OR '.join(clauses) or '0'})", params


def _reviews(scope: Scope) -> tuple[str, str, list[str]]:
    """FROM and WHERE for reviews in the scope. The whole collection needs no join: every
    review has its card (a grade writes both; deleting a word or undoing a grade, neither)."""
    if scope.folders is None:
        return "review r", "1", []
    where, params = _where(scope, "c")
    return "review r JOIN card c ON c.id = r.card_id", where, params


def reviews_by_day(
    db: Database, scope: Scope, anchor: int, end: int
) -> list[tuple[int, Rating, int]]:
    """(day, rating, reviews) for the reviews from `anchor` until `end`."""
    source, where, params = _reviews(scope)
    rows = db.execute(
        f"SELECT (r.reviewed_at - ?) / {DAY_MS} AS day, r.rating, count(*) FROM {source} "
        f"WHERE r.reviewed_at >= ? AND r.reviewed_at < ? AND {where} GROUP BY day, r.rating",
        [anchor, anchor, end, *params],
    )
    return [(int(d), Rating(r), int(n)) for d, r, n in rows if r in _RATINGS]


def retention_by_folder(
    db: Database, scope: Scope, start: int, end: int
) -> dict[FolderId, tuple[int, int]]:
    """(reviews, not forgotten) per folder, from `start` until `end`, counting only reviews
    of cards that were in Review state: what FSRS's desired retention predicts."""
    where, params = _where(scope, "c")
    rows = db.execute(
        f"SELECT c.folder_id, count(*), sum(r.rating != {Rating.AGAIN}) "
        f"FROM review r JOIN card c ON c.id = r.card_id "
        f"WHERE r.reviewed_at >= ? AND r.reviewed_at < ? AND {where} "
        f"AND json_extract(r.state_before, '$.state') = {CardState.REVIEW} GROUP BY c.folder_id",
        [start, end, *params],
    )
    return {FolderId(f): (int(n), int(p)) for f, n, p in rows}


def due_by_day(
    db: Database, scope: Scope, studied: Studied, anchor: int, end: int
) -> dict[int, int]:
    """Cards due before `end` per day from `anchor`; anything overdue counts on day 0."""
    where, params = _studied(scope, studied)
    rows = db.execute(
        f"SELECT max(c.due - ?, 0) / {DAY_MS} AS day, count(*) FROM card c "
        f"WHERE c.due < ? AND {where} GROUP BY day",
        [anchor, end, *params],
    )
    return {int(d): int(n) for d, n in rows}


def cards_by_state(db: Database, scope: Scope, studied: Studied) -> dict[CardState, int]:
    where, params = _studied(scope, studied)
    rows = db.execute(f"SELECT c.state, count(*) FROM card c WHERE {where} GROUP BY 1", params)
    return {CardState(s): int(n) for s, n in rows if s in _STATES}


def cards_by_folder(
    db: Database, scope: Scope, studied: Studied
) -> dict[tuple[FolderId, Direction], int]:
    where, params = _studied(scope, studied)
    rows = db.execute(
        f"SELECT c.folder_id, c.direction, count(*) FROM card c WHERE {where} GROUP BY 1, 2",
        params,
    )
    return {(FolderId(f), d): int(n) for f, d, n in rows}


def words_to_study(db: Database, scope: Scope) -> dict[FolderId, int]:
    """Words with at least one meaning (the others cannot be studied), per folder."""
    where, params = _where(scope, "w")
    rows = db.execute(
        f"SELECT w.folder_id, count(*) FROM word w WHERE {where} AND w.meanings != '[]' "
        f"GROUP BY w.folder_id",
        params,
    )
    return {FolderId(f): int(n) for f, n in rows}


def study_days(db: Database, scope: Scope, anchor: int, end: int) -> list[int]:
    """Every day (counted from `anchor`) with at least one review before `end`, ascending."""
    if scope.folders is not None:
        # A folder's reviews are reached through its cards (`review_by_card` covers both
        # columns), so the cost follows the folder's reviews, not the whole log.
        where, params = _where(scope, "c")
        rows = db.execute(
            f"SELECT DISTINCT (r.reviewed_at - ?) / {DAY_MS} AS day FROM card c "
            f"JOIN review r ON r.card_id = c.id WHERE {where} AND r.reviewed_at < ? ORDER BY day",
            [anchor, *params, end],
        )
        return [int(d) for (d,) in rows]
    # The whole log: one index seek per study day (the first review at or after the next
    # day's start) instead of reading a million rows to find a few hundred distinct days.
    rows = db.execute(
        f"WITH RECURSIVE d(day) AS ("
        f"SELECT (min(reviewed_at) - :a) / {DAY_MS} FROM review WHERE reviewed_at < :end "
        f"UNION ALL SELECT (SELECT (min(reviewed_at) - :a) / {DAY_MS} FROM review "
        f"WHERE reviewed_at >= :a + (d.day + 1) * {DAY_MS} AND reviewed_at < :end) "
        f"FROM d WHERE d.day IS NOT NULL) SELECT day FROM d WHERE day IS NOT NULL",
        {"a": anchor, "end": end},
    )
    return [int(d) for (d,) in rows]


@dataclass(frozen=True, slots=True)
class HardWord:
    """A word its cards lapsed on (forgotten once learnt), with its Again answers."""

    word_id: WordId
    term: str
    folder_id: FolderId
    folder_name: str
    folder_emoji: str
    lapses: int
    again: int


# Words whose Again answers are counted to order the hardest: when more than this many tie
# on lapses, FSRS difficulty (which rises with every Again) picks which of them are counted.
CANDIDATES = 100


def hardest_words(db: Database, scope: Scope, limit: int) -> list[HardWord]:
    """The `limit` words with the most lapses over their cards, then the most Again answers."""
    where, params = _where(scope, "c")
    rows = db.execute(
        f"WITH lapsed AS (SELECT c.word_id, sum(c.lapses) AS lapses FROM card c "
        f"WHERE c.lapses > 0 AND {where} GROUP BY c.word_id "
        f"ORDER BY lapses DESC, max(c.difficulty) DESC LIMIT {CANDIDATES}) "
        f"SELECT l.word_id, w.term, w.folder_id, f.name, f.emoji, l.lapses, "
        f"(SELECT count(*) FROM review r WHERE r.word_id = l.word_id "
        f"AND r.rating = {Rating.AGAIN}) AS again "
        f"FROM lapsed l JOIN word w ON w.id = l.word_id JOIN folder f ON f.id = w.folder_id "
        f"ORDER BY l.lapses DESC, again DESC, w.term_key, w.id LIMIT ?",
        [*params, limit],
    )
    return [
        HardWord(WordId(i), t, FolderId(f), n, e, int(lapses), int(again))
        for i, t, f, n, e, lapses, again in rows
    ]
