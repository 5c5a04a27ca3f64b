"""The rows sync reads (app/sync): tables or chosen rows keyed by global id, and the next ids.

Sync compares what the document says with what this database holds and writes the difference
through `Store.apply_remote`; this is the SQL it needs, kept in the store like all SQL.
"""

from __future__ import annotations

import json
from collections.abc import Collection
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

    def rows_of(self, table: Table, gids: Collection[str]) -> dict[str, Row]:
        """The rows with these global ids (those this database has), by global id."""
        sql = f"SELECT * FROM {table} WHERE gid IN (SELECT value FROM json_each(?)) ORDER BY id"
        return {r["gid"]: dict(r) for r in self._db.all(sql, (json.dumps(list(gids)),))}

    def ids(self, table: Table) -> dict[str, int]:
        """Every row's local id by global id."""
        return {r["gid"]: int(r["id"]) for r in self._db.all(f"SELECT gid, id FROM {table}")}

    def row(self, table: Table, row_id: object) -> Row | None:
        found = self._db.first(f"SELECT * FROM {table} WHERE id = ?", (row_id,))
        return None if found is None else dict(found)

    def cards(self, word_ids: Collection[int] | None = None) -> dict[tuple[int, str], Row]:
        """Every card (or the cards of `word_ids`) by word and direction."""
        if word_ids is None:
            found = self._db.all("SELECT * FROM card")
        else:
            sql = "SELECT * FROM card WHERE word_id IN (SELECT value FROM json_each(?))"
            found = self._db.all(sql, (json.dumps(list(word_ids)),))
        return {(r["word_id"], r["direction"]): dict(r) for r in found}

    def reviews_of(self, card_ids: Collection[int]) -> list[Row]:
        sql = "SELECT * FROM review WHERE card_id IN (SELECT value FROM json_each(?)) ORDER BY id"
        return [dict(r) for r in self._db.all(sql, (json.dumps(list(card_ids)),))]

    def options(self) -> dict[int, Row]:
        return {r["id"]: dict(r) for r in self._db.all("SELECT * FROM study_options")}

    def next_id(self, table: Table) -> int:
        return int(self._db.scalar(f"SELECT coalesce(max(id), 0) + 1 FROM {table}"))
