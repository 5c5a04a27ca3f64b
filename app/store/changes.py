"""Row-level change capture, replay and inversion: the basis of undo/redo and the operation log.

TEMP triggers (generated from `PRAGMA table_info`, so they follow every migration) copy each
written row of the base tables into a temp table as JSON. What they capture is exactly what
SQLite wrote, including cascades, so inverting it undoes a command and re-applying it replays one.
FTS rows are not captured: the base-table triggers rebuild them whenever changes are applied.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import groupby
from typing import Literal

from app.store.db import Database
from app.store.staging import insert_rows

Table = Literal[
    "folder",
    "word",
    "note",
    "card",
    "review",
    "study_options",
    "study_session",
    "conversation",
    "message",
    "usage",
]
Op = Literal["insert", "update", "delete"]
# The user's collection: what undo steps, backups and exports are made of.
COLLECTION_TABLES: tuple[Table, ...] = ("folder", "word", "note")
# Study progress: in backups and exports with the collection, but grades are written apart from
# the edit undo stack (decision 011), so "undo my last edit" never takes back a grade.
STUDY_TABLES: tuple[Table, ...] = ("card", "review", "study_options", "study_session")
# The assistant's conversations and usage log: logged for durability like everything else, but
# written only outside undo steps and never part of backups or exports (decision 009).
AGENT_TABLES: tuple[Table, ...] = ("conversation", "message", "usage")
TABLES: tuple[Table, ...] = COLLECTION_TABLES + STUDY_TABLES + AGENT_TABLES
Row = dict[str, int | float | str | None]  # float: a card's FSRS stability and difficulty
BATCH = 16  # below this many rows in a run, one statement per row is cheaper than staging


@dataclass(frozen=True, slots=True)
class Change:
    """One row written: `old` is None for an insert, `new` is None for a delete."""

    table: Table
    op: Op
    old: Row | None = None
    new: Row | None = None


@dataclass(frozen=True, slots=True)
class Changeset:
    """Everything one user-visible step wrote, with the label shown in Undo/Redo menus."""

    label: str
    changes: list[Change]


def columns(db: Database, table: Table) -> list[str]:
    return [row["name"] for row in db.all(f"PRAGMA main.table_info({table})")]


def install_capture(db: Database) -> None:
    """Create the temp capture table and one trigger per table and operation."""
    db.execute(
        "CREATE TEMP TABLE IF NOT EXISTS captured "
        "(seq INTEGER PRIMARY KEY, tbl TEXT, op TEXT, old TEXT, new TEXT)"
    )
    for table in TABLES:
        for op in OPS:
            _install_trigger(db, table, op)


OPS: tuple[Op, ...] = ("insert", "update", "delete")


def _install_trigger(db: Database, table: Table, op: Op) -> None:
    cols = [(row["name"], row["type"]) for row in db.all(f"PRAGMA main.table_info({table})")]
    old = _json_row("OLD", cols) if op != "insert" else "NULL"
    new = _json_row("NEW", cols) if op != "delete" else "NULL"
    db.execute(f"DROP TRIGGER IF EXISTS temp.capture_{table}_{op}")
    db.execute(
        f"CREATE TEMP TRIGGER capture_{table}_{op} AFTER {op.upper()} ON main.{table} "
        f"BEGIN INSERT INTO captured(tbl, op, old, new) "
        f"VALUES ('{table}', '{op}', {old}, {new}); END"
    )


@contextmanager
def uncaptured(db: Database, table: Table, op: Op) -> Iterator[None]:
    """Leave the block's `op` writes to `table` uncaptured: for a writer of many rows that
    makes their changes itself, as the trigger would have (app/store/schedules.py), for
    less than parsing the trigger's JSON back costs."""
    db.execute(f"DROP TRIGGER temp.capture_{table}_{op}")
    try:
        yield
    finally:
        _install_trigger(db, table, op)


def _json_row(ref: str, cols: list[tuple[str, str]]) -> str:
    return "json_object(" + ", ".join(f"'{c}', {_json_value(ref, c, t)}" for c, t in cols) + ")"


def _json_value(ref: str, column: str, declared: str) -> str:
    """The column as a JSON value. SQLite's JSON functions write a REAL with 15 significant
    digits (208.03389382921952 became 208.03389382922 after a reload, issue 26). `quote` is
    not exact either before SQLite 3.43: it keeps 15 digits when its own reading says they
    give the double back, and that reading is off by one unit in the last place for about 4
    doubles in 10,000 (Pyodide's 3.39.0, 2026-12-07), 1 in 10,000 of those in [1, 10) on
    Debian's 3.40.1. Twenty digits after the point, always written, were exact for every one
    of 300,000 random doubles on both; `json` passes them through as a number."""
    value = f"{ref}.{column}"
    if declared.upper() != "REAL":
        return value
    digits = f"printf('%!.20e', {value})"
    exact = f"CASE typeof({value}) WHEN 'real' THEN {digits} ELSE json_quote({value}) END"
    return f"json({exact})"


def take_captured(db: Database) -> list[Change]:
    """Return and forget what the triggers recorded since the last call."""
    # Plain tuples: a reschedule captures a row per card, 200,000 of them (about 25 % faster).
    rows = db.tuples("SELECT tbl, op, old, new FROM temp.captured ORDER BY seq")
    db.execute("DELETE FROM temp.captured")
    loads = json.loads
    return [
        Change(
            table=table,
            op=op,
            old=None if old is None else loads(old),
            new=None if new is None else loads(new),
        )
        for table, op, old, new in rows
    ]


def invert(changes: Iterable[Change]) -> list[Change]:
    """The changes that undo `changes`: reverse order, inserts and deletes swapped."""
    swapped: dict[Op, Op] = {"insert": "delete", "delete": "insert", "update": "update"}
    return [
        Change(table=c.table, op=swapped[c.op], old=c.new, new=c.old)
        for c in reversed(list(changes))
    ]


def apply(db: Database, changes: Iterable[Change]) -> None:
    """Write `changes` by primary key. Idempotent: inserts and updates upsert the full new row,
    deletes ignore missing rows, so replaying a log that overlaps a snapshot is harmless.
    Consecutive changes of one kind are written together (app.store.staging), so undoing an
    import of 100,000 words takes seconds."""
    known = {table: set(columns(db, table)) for table in TABLES}
    for (table, delete, _), run in groupby(_rows(changes, known), key=lambda r: r[:3]):
        rows = [row for *_, row in run]
        if delete:
            ids = json.dumps([row["id"] for row in rows])
            db.execute(f"DELETE FROM {table} WHERE id IN (SELECT value FROM json_each(?))", (ids,))
        elif len(rows) < BATCH:
            for row in rows:
                _upsert(db, table, row)
        else:
            # Ascending ids: FTS5 flushes its pending index whenever a rowid goes backwards,
            # and an undo replays rows in reverse. A stable sort keeps repeats of one id in order.
            insert_rows(db, table, sorted(rows, key=lambda row: int(row["id"] or 0)), upsert=True)


def _rows(
    changes: Iterable[Change], known: dict[Table, set[str]]
) -> Iterator[tuple[Table, bool, tuple[str, ...], Row]]:
    """(table, is delete, columns, row) of each change, refusing malformed ones."""
    for change in changes:
        row = change.new if change.new is not None else change.old
        if row is None or not set(row) <= known[change.table] or "id" not in row:
            raise ValueError(f"malformed change for table {change.table}")
        yield change.table, change.op == "delete", tuple(row), row


def _upsert(db: Database, table: Table, row: Row) -> None:
    insert = f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})"
    updates = ", ".join(f"{n} = excluded.{n}" for n in row if n != "id")
    db.execute(f"{insert} ON CONFLICT(id) DO UPDATE SET {updates}", list(row.values()))
