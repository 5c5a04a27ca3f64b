"""Helpers for the store tests: a store with a deterministic clock, a full dump, index checks."""

from __future__ import annotations

import itertools
import sqlite3
from typing import Any

from app.store import Store
from app.store.db import Database, register_functions

Dump = dict[str, list[tuple[Any, ...]]]


def make_store() -> Store:
    ticks = itertools.count(1_700_000_000_000)
    return Store(Database.open(), clock=lambda: next(ticks))


def _connect(store: Store) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.deserialize(store.snapshot())
    register_functions(conn)
    return conn


def dump(store: Store) -> Dump:
    """Every row of every table, including the search index, in a comparable form."""
    conn = _connect(store)
    return {
        table: conn.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
        for table in ("folder", "word", "note", "search")
    }


def assert_index_in_sync(store: Store) -> None:
    """The FTS rows must be exactly what the base tables say they should be."""
    conn = _connect(store)
    expected = conn.execute(
        "SELECT id * 4 + 1, name, '', '' FROM folder UNION ALL "
        "SELECT id * 4 + 2, term, coalesce((SELECT group_concat(value, '; ') "
        "FROM json_each(meanings)), ''), notes FROM word UNION ALL "
        "SELECT id * 4 + 3, title, '', md_text(body) FROM note ORDER BY 1"
    ).fetchall()
    actual = conn.execute("SELECT rowid, title, meanings, body FROM search ORDER BY 1").fetchall()
    assert actual == expected
    conn.execute("INSERT INTO search(search) VALUES ('integrity-check')")
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
