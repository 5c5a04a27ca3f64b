"""How study progress is laid out as rows when an import or the SQLite export writes it: the
columns of a card and of a review (in `REVIEW_FIELDS` order, as a backup lists them), and the
stored form of study options. Cards and reviews are written as value tuples rather than dicts:
an Anki history of a million reviews is ordinary, and a dict per row would cost ten times the
memory."""

from __future__ import annotations

import json
from typing import Any

from app.ids import uuid7
from app.store.study_queries import COLLECTION
from app.store.transfer.model import REVIEW_FIELDS
from app.study.days import Moment
from app.study.model import Direction, Progress

CARD_COLUMNS = (
    *("id", "word_id", "folder_id", "direction", "state", "step", "stability", "difficulty"),
    *("due", "last_review", "reps", "lapses", "created_at", "updated_at"),
)
CardValues = tuple[Any, ...]  # in CARD_COLUMNS order
ReviewValues = tuple[Any, ...]  # in REVIEW_FIELDS order


def _insert(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


CARD_INSERT = _insert("card", CARD_COLUMNS)
REVIEW_INSERT = _insert("review", REVIEW_FIELDS)


def card_values(
    card_id: int,
    word_id: int,
    folder_id: int,
    direction: Direction,
    progress: Progress,
    *,
    stamps: tuple[int, int],
) -> CardValues:
    """A card row: its word and folder, its schedule, and (created, updated) times."""
    return (
        *(card_id, word_id, folder_id, direction, int(progress.state), progress.step),
        *(progress.stability, progress.difficulty, progress.due, progress.last_review),
        *(progress.reps, progress.lapses, *stamps),
    )


def review_values(
    card_id: int, rating: int, at: Moment, duration_ms: int, *, mode: str, before: Progress | None
) -> ReviewValues:
    """A new review row with a new global id, keeping the card's schedule before the grade the
    way a live grade does (app.store.study): state 0 and no schedule when the card was new."""
    if before is None:
        schedule: tuple[Any, ...] = (0, None, None, None, None, None)
    else:
        schedule = (int(before.state), before.step, before.stability, before.difficulty)
        schedule = (*schedule, before.due, before.last_review)
    return (card_id, rating, at.at, duration_ms, mode, *schedule, at.day, uuid7())


def options_row(
    folder_id: int | None, options: dict[str, Any], created_at: int, updated_at: int
) -> dict[str, Any]:
    """The study_options row for a folder's options (None: the collection's, row 0)."""
    return {
        "id": folder_id or COLLECTION,
        "options": json.dumps(options),
        "created_at": created_at,
        "updated_at": updated_at,
    }
