"""Reads for the stats page: every figure aggregated in SQL, none by reading rows in Python.

The review log can hold a million rows. Its time windows are read through `review_by_time`;
the study days of the whole history are found by skipping from day to day through that index
(one seek per day, not a read of every review); only the few cards with the most lapses have
their Again answers counted. A folder's reviews are reached either through the log's time
index or through the folder's cards (`review_by_card`), whichever reads fewer rows (`Reach`).
Days are counted from an `anchor` on the study-day boundary (app/study/days.py), so
`(moment - anchor) / DAY_MS` is the study day of any moment after it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from app.domain import FolderId, WordId
from app.store.db import Database
from app.store.study_queries import Scope, scope_where
from app.study.model import DAY_MS, DIRECTIONS, CardState, Direction, Rating

# The folders that study each direction, or None when every folder of the scope does (the
# usual case, which then needs no list). Cards outside them are set aside (their folder stopped
# studying that direction), so they are neither due nor counted.
Studied = Mapping[Direction, frozenset[FolderId] | None]
# Values a damaged or foreign row might hold outside the enums are left out, not fatal.
_RATINGS = frozenset(Rating)
# A scope with fewer than 1 in this many cards is read through its cards: their whole history
# is then smaller than a month of the whole log (a year's history has 12 months).
_SMALL = 20


@dataclass(frozen=True, slots=True)
class Reach:
    """A scope and how its reviews are best read."""

    scope: Scope
    through_cards: bool  # few cards: read their reviews, not the log's time index


def reach(db: Database, scope: Scope) -> Reach:
    if scope.folders is None:
        return Reach(scope, through_cards=False)
    where, params = scope_where(scope, "c")
    cards = int(db.scalar(f"SELECT count(*) FROM card c WHERE {where}", params))
    every = int(db.scalar("SELECT coalesce(max(id), 0) FROM card"))  # about the count
    return Reach(scope, through_cards=cards * _SMALL < every)


def _reviews(reach: Reach, *, cards: bool = False) -> tuple[str, str, list[str]]:
    """FROM and WHERE for the scope's reviews (`cards`: joined to their cards as `c` even for
    the whole collection). CROSS JOIN fixes SQLite's join order (it has no statistics to choose
    by). The whole collection needs no join otherwise: every review has its card (a grade
    writes both; deleting a word or undoing a grade removes both)."""
    if reach.scope.folders is None and not cards:
        return "review r", "1", []
    where, params = scope_where(reach.scope, "c")
    if reach.through_cards:
        return "card c CROSS JOIN review r ON r.card_id = c.id", where, params
    return "review r CROSS JOIN card c ON c.id = r.card_id", where, params


def reviews_by_day(
    db: Database, reach: Reach, anchor: int, end: int
) -> list[tuple[int, Rating, int]]:
    """(day, rating, reviews) for the reviews from `anchor` until `end`."""
    source, where, params = _reviews(reach)
    rows = db.execute(
        f"SELECT (r.reviewed_at - ?) / {DAY_MS} AS day, r.rating, count(*) FROM {source} "
        f"WHERE r.reviewed_at >= ? AND r.reviewed_at < ? AND {where} GROUP BY day, r.rating",
        [anchor, anchor, end, *params],
    )
    return [(int(d), Rating(r), int(n)) for d, r, n in rows if r in _RATINGS]


def retention_by_folder(
    db: Database, reach: Reach, start: int, end: int
) -> dict[FolderId, tuple[int, int]]:
    """(reviews, not forgotten) per folder, from `start` until `end`, counting only reviews
    of cards that were in Review state: what FSRS's desired retention predicts."""
    source, where, params = _reviews(reach, cards=True)
    rows = db.execute(
        f"SELECT c.folder_id, count(*), sum(r.rating != {Rating.AGAIN}) FROM {source} "
        f"WHERE r.reviewed_at >= ? AND r.reviewed_at < ? AND {where} "
        f"AND r.state_before = {CardState.REVIEW} GROUP BY c.folder_id",
        [start, end, *params],
    )
    return {FolderId(f): (int(n), int(p)) for f, n, p in rows}


def study_days(db: Database, reach: Reach, anchor: int, end: int) -> list[int]:
    """Every day (counted from `anchor`) with at least one review before `end`, ascending."""
    source, where, params = _reviews(reach)
    if reach.through_cards:
        rows = db.execute(
            f"SELECT DISTINCT (r.reviewed_at - ?) / {DAY_MS} AS day FROM {source} "
            f"WHERE {where} AND r.reviewed_at < ? ORDER BY day",
            [anchor, *params, end],
        )
        return [int(d) for (d,) in rows]

    # From each study day, the first review in the scope at or after the next day's start:
    # one seek in the time index per day (a little further for a folder, past other folders'
    # reviews) instead of reading a million rows to find a few hundred days.
    def first_from(start: str) -> str:
        return (
            f"SELECT (r.reviewed_at - ?) / {DAY_MS} FROM {source} WHERE r.reviewed_at >= {start} "
            f"AND r.reviewed_at < ? AND {where} ORDER BY r.reviewed_at LIMIT 1"
        )

    rows = db.execute(
        f"WITH RECURSIVE d(day) AS (SELECT ({first_from('?')}) UNION ALL "
        f"SELECT ({first_from(f'? + (d.day + 1) * {DAY_MS}')}) FROM d WHERE d.day IS NOT NULL) "
        f"SELECT day FROM d WHERE day IS NOT NULL",
        [anchor, anchor, end, *params] * 2,
    )
    return [int(d) for (d,) in rows]


def _studied(scope: Scope, studied: Studied) -> tuple[str, list[str]]:
    """WHERE for the cards of the scope in a direction their folder studies."""
    where, params = scope_where(scope, "c")
    if set(studied) == set(DIRECTIONS) and all(f is None for f in studied.values()):
        # Every card counts: with no test of direction, SQLite answers from the covering
        # indexes card_by_due and card_by_folder.
        return where, params
    clauses = []
    for direction, folders in studied.items():
        clause = "c.direction = ?"
        params.append(direction)
        if folders is not None:
            clause += " AND c.folder_id IN (SELECT value FROM json_each(?))"
            params.append(json.dumps(sorted(folders)))
        clauses.append(f"({clause})")
    return f"{where} AND ({' OR '.join(clauses) or '0'})", params


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
    states = [s for s in CardState if s != CardState.NEW]
    # One sum per state rather than GROUP BY, which would sort every card first.
    sums = ", ".join(f"sum(c.state = {int(s)})" for s in states)
    row = db.first(f"SELECT {sums} FROM card c WHERE {where}", params)
    return {s: int(n or 0) for s, n in zip(states, row or (), strict=False)}


def cards_by_folder(
    db: Database, scope: Scope, studied: Studied
) -> dict[tuple[FolderId, Direction], int]:
    where, params = _studied(scope, studied)
    rows = db.execute(
        f"SELECT c.folder_id, c.direction, count(*) FROM card c WHERE {where} GROUP BY 1, 2",
        params,
    )
    return {(FolderId(f), d): int(n) for f, d, n in rows}


def words_without_meaning(db: Database, scope: Scope) -> dict[FolderId, int]:
    """Per folder, the words that cannot be studied yet (read from a small partial index)."""
    where, params = scope_where(scope, "w")
    rows = db.execute(
        f"SELECT w.folder_id, count(*) FROM word w WHERE {where} AND w.meanings = '[]' "
        f"GROUP BY w.folder_id",
        params,
    )
    return {FolderId(f): int(n) for f, n in rows}


@dataclass(frozen=True, slots=True)
class HardCard:
    """A card its learner keeps forgetting: lapses (forgotten once learnt) and Again answers."""

    word_id: WordId
    direction: Direction
    term: str
    folder_id: FolderId
    folder_name: str
    folder_emoji: str
    lapses: int
    again: int


# Cards whose Again answers are counted to order the hardest: when more than this many tie on
# lapses, FSRS difficulty (which rises with every Again) picks which of them are counted.
CANDIDATES = 100


def hardest_cards(db: Database, scope: Scope, limit: int) -> list[HardCard]:
    """The `limit` cards with the most lapses, then the most Again answers. Ranked by card,
    not by word, so one pass keeps the top few (a sum per word would sort every card)."""
    where, params = scope_where(scope, "c")
    rows = db.execute(
        f"WITH lapsed AS (SELECT c.id, c.word_id, c.direction, c.lapses FROM card c "
        f"WHERE c.lapses > 0 AND {where} "
        f"ORDER BY c.lapses DESC, c.difficulty DESC LIMIT {CANDIDATES}) "
        f"SELECT l.word_id, l.direction, w.term, w.folder_id, f.name, f.emoji, l.lapses, "
        f"(SELECT count(*) FROM review r WHERE r.card_id = l.id "
        f"AND r.rating = {Rating.AGAIN}) AS again "
        f"FROM lapsed l JOIN word w ON w.id = l.word_id JOIN folder f ON f.id = w.folder_id "
        f"ORDER BY l.lapses DESC, again DESC, w.term_key, l.id LIMIT ?",
        [*params, limit],
    )
    return [
        HardCard(WordId(i), d, t, FolderId(f), n, e, int(lapses), int(again))
        for i, d, t, f, n, e, lapses, again in rows
    ]
