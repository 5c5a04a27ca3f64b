"""Study progress for the transfer tests: a store with grades and options, and a store's cards,
reviews and options read back in a form that ignores ids."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from app.store import Store
from app.study.model import DAY_MS, MINUTE_MS, Rating
from app.study.options import StudyOptions
from tests.store.transfer.workspaces import START, grade, sample_store


def studied_store() -> Store:
    """The sample store with progress: three grades of mitosis, one of célula the other way
    round, options of its own for Biology, and the collection's day starting at 5."""
    store = sample_store()
    mitosis, cellula = (store.find_words(term)[0].id for term in ("mitosis", "célula"))
    grade(store, mitosis, "forward", Rating.GOOD, START)
    grade(store, mitosis, "forward", Rating.GOOD, START + 10 * MINUTE_MS)
    grade(store, mitosis, "forward", Rating.AGAIN, START + 3 * DAY_MS)
    grade(store, cellula, "reverse", Rating.EASY, START + DAY_MS)
    biology = store.find_folders("Biology")[0].id
    store.study.set_options(biology, StudyOptions(retention=0.85, directions="both"))
    store.study.set_day_start_hour(5)
    return store


def study_rows(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Cards, reviews and options by term and folder name instead of ids (sessions aside)."""
    conn = sqlite3.connect(":memory:")
    conn.deserialize(store.snapshot())
    return {
        "cards": _all(
            conn,
            "SELECT w.term, c.direction, f.name, c.state, c.step, c.stability, c.difficulty, "
            "c.due, c.last_review, c.reps, c.lapses, c.created_at, c.updated_at FROM card c "
            "JOIN word w ON w.id = c.word_id JOIN folder f ON f.id = c.folder_id",
        ),
        "reviews": _all(
            conn,
            "SELECT w.term, c.direction, r.rating, r.reviewed_at, r.duration_ms, r.mode, "
            "r.state_before, r.step_before, r.stability_before, r.difficulty_before, "
            "r.due_before, r.last_review_before FROM review r JOIN card c ON c.id = r.card_id "
            "JOIN word w ON w.id = c.word_id",
        ),
        "options": [
            (name, StudyOptions.model_validate(_options(text)), created, updated)
            for name, text, created, updated in _all(
                conn,
                "SELECT coalesce(f.name, ''), o.options, o.created_at, o.updated_at "
                "FROM study_options o LEFT JOIN folder f ON f.id = o.id",
            )
        ],
        "day_start": [(store.study.day_start_hour(),)],
    }


def _options(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    data.pop("day_start_hour", None)
    return data


def _all(conn: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
    return sorted(conn.execute(sql).fetchall(), key=repr)
