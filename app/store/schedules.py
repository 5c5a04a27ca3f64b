"""Reads and writes for rescheduling many cards at once (app/studying/reschedule.py): each
card's review log as plain numbers with its stored schedule, and one set-based write of new
schedules. A collection of 200,000 cards has over a million reviews: these make no object
per review but the numbers themselves, and write with three statements, not one a card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from operator import itemgetter
from typing import Any

from app.store.changes import Change, columns, uncaptured
from app.store.db import Database
from app.store.staging import STAGE, stage_values
from app.study.model import SEED_BASIS_SQL, CardState, Direction

# The card columns a schedule is written to, in the order the replay gives them
# (app/study/fast_replay.py's Schedule).
COLUMNS = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses")
Row = tuple[Any, ...]  # a card's row, its columns in the table's order


@dataclass(frozen=True, slots=True)
class CardLogs:
    """The cards of a scope that have reviews, and their logs, as columns: card i's reviews
    are `reviews[starts[i]:starts[i + 1]]`, in the order logged, each (card id, rating,
    study day, reviewed at)."""

    fields: list[str]  # the card table's columns, in order
    rows: list[Row]  # each card's row as read
    stored: list[Row]  # each card's COLUMNS as read
    folders: list[int]
    seeds: list[tuple[str, Direction]]  # each card's seed basis and direction (card_seed)
    reviews: list[tuple[int, int, int, int]]
    starts: list[int]  # one more than there are cards


def card_logs(db: Database, where: str, params: Sequence[Any]) -> CardLogs:
    """Every card kept by `where` (over card "c") that has reviews, with its log."""
    fields = columns(db, "card")
    found = db.tuples(
        f"SELECT {', '.join(f'c.{n}' for n in fields)}, "
        "(SELECT count(*) FROM review r WHERE r.card_id = c.id) AS reviews, "
        f"(SELECT {SEED_BASIS_SQL} FROM word w WHERE w.id = c.word_id) AS basis "
        f"FROM card c WHERE {where} AND EXISTS (SELECT 1 FROM review r WHERE r.card_id = c.id) "
        "ORDER BY c.id",
        params,
    )
    # In card order, as the index of reviews by card holds them: a join with the cards of some
    # folders would sort 1.3 million rows instead (1.9 against 1.1 s at 200,000 cards).
    kept = (
        "JOIN card c ON c.id = r.card_id"
        if where == "1"
        else (f"WHERE r.card_id IN (SELECT c.id FROM card c WHERE {where})")
    )
    reviews = db.tuples(
        "SELECT r.card_id, r.rating, r.study_day, r.reviewed_at FROM review r "
        f"{kept} ORDER BY r.card_id, r.id",
        params,
    )
    count = len(fields)
    rows = [row[:count] for row in found]
    folder, direction = itemgetter(fields.index("folder_id")), itemgetter(fields.index("direction"))
    return CardLogs(
        fields=fields,
        rows=rows,
        stored=list(map(_picker(fields, COLUMNS), rows)),
        folders=list(map(folder, rows)),
        seeds=[(row[count + 1], direction(row)) for row in found],
        reviews=reviews,
        starts=list(accumulate((row[count] for row in found), initial=0)),
    )


def _picker(fields: list[str], names: Sequence[str]) -> Callable[[Row], Row]:
    """A function from a row to the tuple of its `names` columns."""
    return itemgetter(*(fields.index(n) for n in names))


def write_schedules(
    db: Database, fields: Sequence[str], schedules: Sequence[tuple[Row, Row]], now: int
) -> tuple[list[Change], list[int]]:
    """Write each (card's row as read, its new COLUMNS) whose card is still the row read, in
    one UPDATE. Returns the changes written, each as the capture trigger would have made it
    (tests/store/test_schedules.py holds them equal), and the ids of the cards left as they
    were because they changed since they were read (a grade given while the replay ran)."""
    names = (*(f"read_{n}" for n in fields), *COLUMNS)
    stage_values(db, names, ((*read, *new) for read, new in schedules))
    unchanged = " AND ".join(f"c.{n} IS s.read_{n}" for n in fields)
    sets = ", ".join(f"{n} = s.{n}" for n in COLUMNS)
    with uncaptured(db, "card", "update"):
        written = {
            row[0]
            for row in db.tuples(
                f"UPDATE main.card AS c SET {sets}, updated_at = ? FROM {STAGE} AS s "
                f"WHERE c.id = s.read_id AND {unchanged} RETURNING id",
                (now,),
            )
        }
    db.execute(f"DROP TABLE {STAGE}")
    key = fields.index("id")
    moved = [int(read[key]) for read, _ in schedules if read[key] not in written]
    left, changes = set(moved), []
    for read, schedule in schedules:
        old = dict(zip(fields, read, strict=True))
        if old["id"] in left:
            continue
        new = old.copy()  # the row as the trigger's NEW sees it: the same keys, in order
        new.update(zip(COLUMNS, schedule, strict=True))
        new["updated_at"] = now
        changes.append(Change("card", "update", old, new))
    return changes, moved


def stale(db: Database) -> bool:
    """Whether stored schedules may not be their logs' replays: due dates drawn with the fuzz
    before decision 045's (schema 8 and older, backups before version 6), until every card
    has been replayed (`mark_stale`, `clear_stale`)."""
    return bool(db.scalar("SELECT EXISTS (SELECT 1 FROM stale_schedules)"))


def mark_stale(db: Database) -> None:
    """Cards were written with due dates of the old fuzz (an older file imported): if any is in
    review (the only state whose due date is fuzzed), every card is to be replayed."""
    db.execute(
        "INSERT OR IGNORE INTO stale_schedules SELECT 0 "
        "WHERE EXISTS (SELECT 1 FROM card WHERE state = ?)",
        (int(CardState.REVIEW),),
    )


def clear_stale(db: Database) -> None:
    """Every card has been replayed since `stale` said so. Not logged: a start from a snapshot
    taken before this marks the collection again and replays it once more, changing nothing."""
    db.execute("DELETE FROM stale_schedules")
