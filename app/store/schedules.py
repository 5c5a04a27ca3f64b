"""Reads and writes for rescheduling many cards at once (app/studying/reschedule.py): each
card's review log as plain numbers with its stored schedule, and one set-based write of new
schedules. A collection of 200,000 cards has over a million reviews: these make no object
per review but the numbers themselves, and write with three statements, not one a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from app.store.changes import Change, columns, uncaptured
from app.store.db import Database
from app.store.staging import STAGE, stage_values

# The card columns a schedule is written to, in the order the replay gives them
# (app/study/fast_replay.py's Schedule).
COLUMNS = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses")
Stored = tuple[Any, ...]  # a card's COLUMNS as stored


@dataclass(frozen=True, slots=True)
class CardLogs:
    """The cards of a scope that have reviews, and their logs, as columns: card i's reviews
    are `reviews[starts[i]:starts[i + 1]]`, in the order logged, each (card id, rating,
    study day, reviewed at)."""

    ids: list[int]
    folders: list[int]
    words: list[int]
    directions: list[str]
    stored: list[Stored]
    reviews: list[tuple[int, int, int, int]]
    starts: list[int]  # one more than there are cards


def card_logs(db: Database, where: str, params: Sequence[Any]) -> CardLogs:
    """Every card kept by `where` (over card "c") that has reviews, with its log."""
    cards = db.tuples(
        f"SELECT c.id, c.folder_id, c.word_id, c.direction, {', '.join(COLUMNS)}, "
        "(SELECT count(*) FROM review r WHERE r.card_id = c.id) AS reviews "
        f"FROM card c WHERE {where} AND EXISTS (SELECT 1 FROM review r WHERE r.card_id = c.id) "
        "ORDER BY c.id",
        params,
    )
    reviews = db.tuples(
        "SELECT r.card_id, r.rating, r.study_day, r.reviewed_at FROM review r "
        f"JOIN card c ON c.id = r.card_id WHERE {where} ORDER BY r.card_id, r.id",
        params,
    )
    return CardLogs(
        ids=[row[0] for row in cards],
        folders=[row[1] for row in cards],
        words=[row[2] for row in cards],
        directions=[row[3] for row in cards],
        stored=[row[4:-1] for row in cards],
        reviews=reviews,
        starts=list(accumulate((row[-1] for row in cards), initial=0)),
    )


def write_schedules(
    db: Database, schedules: Sequence[tuple[int, Stored, Stored]], now: int
) -> tuple[list[Change], list[int]]:
    """Write (card id, schedule as read, new schedule) for each card whose stored schedule is
    still the one read, in one UPDATE. Returns the changes written, each as the capture
    trigger would have made it (tests/store/test_schedules.py holds them equal), and the ids
    of the cards left as they were because they changed since they were read (a grade given
    while the replay ran, say)."""
    names = ("id", "reps_read", "last_review_read", *COLUMNS)
    stage_values(db, names, ((card_id, read[6], read[5], *new) for card_id, read, new in schedules))
    unchanged = "c.reps IS s.reps_read AND c.last_review IS s.last_review_read"
    moved = [
        int(row[0])
        for row in db.tuples(
            f"SELECT s.id FROM {STAGE} s LEFT JOIN main.card c ON c.id = s.id "
            f"WHERE c.id IS NULL OR NOT ({unchanged})"
        )
    ]
    fields = columns(db, "card")
    before = db.tuples(
        f"SELECT c.*, {', '.join(f's.{n}' for n in COLUMNS)} FROM {STAGE} s "
        f"JOIN main.card c ON c.id = s.id WHERE {unchanged} ORDER BY c.id"
    )
    count = len(fields)
    sets = ", ".join(f"{n} = s.{n}" for n in COLUMNS)
    with uncaptured(db, "card", "update"):
        db.execute(
            f"UPDATE main.card AS c SET {sets}, updated_at = ? FROM {STAGE} AS s "
            f"WHERE c.id = s.id AND {unchanged}",
            (now,),
        )
    db.execute(f"DROP TABLE {STAGE}")
    changes = []
    for row in before:
        old = dict(zip(fields, row[:count], strict=True))
        new = old.copy()  # the row as the trigger's NEW sees it: the same keys, in order
        new.update(zip(COLUMNS, row[count:], strict=True))
        new["updated_at"] = now
        changes.append(Change("card", "update", old, new))
    return changes, moved
