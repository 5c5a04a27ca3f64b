"""The rows sync reads (app/sync): whole tables keyed by global id, and the next free ids.

Sync compares what the document says with what this database holds and writes the difference
through `Store.apply_remote`; this is the SQL it needs, kept in the store like all SQL.
"""

from __future__ import annotations

from typing import Any

from app.store.changes import Table
from app.store.db import Database

Row = dict[str, Any]
SYNCED_TABLES: tuple[Table, ...] = ("folder", "word", "note", "review")


class Synced:
    def __init__(self, db: Database) -> None:
        self._db = db

    def rows(self, table: Table) -> dict[str, Row]:
        """Every row of a synced table by global id."""
        return {r["gid"]: dict(r) for r in self._db.all(f"SELECT * FROM {table} ORDER BY id")}

    def row(self, table: Table, row_id: object) -> Row | None:
        found = self._db.first(f"SELECT * FROM {table} WHERE id = ?", (row_id,))
        return None if found is None else dict(found)

    def cards(self) -> dict[tuple[int, str], Row]:
        return {(r["word_id"], r["direction"]): dict(r) for r in self._db.all("SELECT * FROM card")}

    def options(self) -> dict[int, Row]:
        return {r["id"]: dict(r) for r in self._db.all("SELECT * FROM study_options")}

    def next_id(self, table: Table) -> int:
        return int(self._db.scalar(f"SELECT coalesce(max(id), 0) + 1 FROM {table}"))
