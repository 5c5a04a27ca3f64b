"""Scale guards: the hot queries must use their indexes rather than scan whole tables."""

from __future__ import annotations

import pytest

from app.store.db import Database
from app.store.migrations import migrate


@pytest.mark.parametrize(
    ("sql", "index"),
    [
        (
            "SELECT * FROM word WHERE folder_id = 1 ORDER BY term_key, id LIMIT 200 OFFSET 0",
            "word_by_folder",
        ),
        ("SELECT * FROM word WHERE folder_id = 1 AND term_key = 'x'", "word_by_folder"),
        ("SELECT * FROM folder WHERE parent_id IS 1 AND name_key = 'x'", "folder_children"),
        ("SELECT * FROM folder WHERE parent_id IS NULL ORDER BY name_key, id", "folder_children"),
        ("SELECT * FROM note WHERE folder_id = 1 ORDER BY id", "note_by_folder"),
    ],
)
def test_hot_queries_use_an_index(sql: str, index: str) -> None:
    db = Database.open()
    migrate(db)
    plan = " ".join(row["detail"] for row in db.all(f"EXPLAIN QUERY PLAN {sql}"))
    assert index in plan
    assert "SCAN word" not in plan
