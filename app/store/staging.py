"""Set-based writes of many rows: stage them in a temp table, then move them with one statement.

SQLite's full-text index flushes its pending terms at the end of every statement, so writing
100,000 words with one statement per row costs about eight times as much as writing them with a
single `INSERT ... SELECT`. The triggers (search index, change capture) still fire per row.
Table and column names always come from code, never from data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.store.db import Database

STAGE = "temp.staged_rows"
Row = Mapping[str, Any]


def _stage(db: Database, rows: Sequence[Row]) -> list[str]:
    """Copy `rows` (all with the keys of the first) into the staging table; returns the keys."""
    names = list(rows[0])
    stage_values(db, names, ([row[n] for n in names] for row in rows))
    return names


def stage_values(db: Database, names: Sequence[str], values: Iterable[Sequence[Any]]) -> None:
    """Copy rows given as values in the order of `names` into the staging table (emptied
    first); dropped with `DROP TABLE` when done."""
    db.execute(f"DROP TABLE IF EXISTS {STAGE}")
    db.execute(f"CREATE TABLE {STAGE} ({', '.join(names)})")
    db.executemany(f"INSERT INTO {STAGE} VALUES ({', '.join('?' * len(names))})", values)


def insert_rows(db: Database, table: str, rows: Sequence[Row], *, upsert: bool = False) -> None:
    """Insert `rows` in order; with `upsert`, a row whose id exists replaces that row's columns."""
    if not rows:
        return
    names = _stage(db, rows)
    columns = ", ".join(names)
    conflict = ""
    if upsert:
        updates = ", ".join(f"{n} = excluded.{n}" for n in names if n != "id")
        # "WHERE true" keeps SQLite from reading ON CONFLICT as a join constraint.
        conflict = f" WHERE true ORDER BY rowid ON CONFLICT(id) DO UPDATE SET {updates}"
    else:
        conflict = " ORDER BY rowid"
    db.execute(f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM {STAGE}{conflict}")
    db.execute(f"DROP TABLE {STAGE}")


def update_rows(db: Database, table: str, rows: Sequence[Row]) -> None:
    """Set the given columns of each row (matched by its `id`)."""
    if not rows:
        return
    names = _stage(db, rows)
    sets = ", ".join(f"{n} = s.{n}" for n in names if n != "id")
    db.execute(f"UPDATE main.{table} SET {sets} FROM {STAGE} AS s WHERE {table}.id = s.id")
    db.execute(f"DROP TABLE {STAGE}")
