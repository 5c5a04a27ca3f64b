"""The database facade: nested savepoints, snapshots and read-only handles."""

from __future__ import annotations

import sqlite3

import pytest

from app.domain import LexicalError
from app.inputs import NewFolder
from app.store import Store
from app.store.db import Database


def _db() -> Database:
    db = Database.open()
    db.execute("CREATE TABLE t (x INTEGER)")
    return db


def test_nested_transaction_rolls_back_only_the_inner_block() -> None:
    db = _db()

    def inner_block_fails() -> None:
        with db.transaction():
            db.execute("INSERT INTO t VALUES (2)")
            raise RuntimeError

    with db.transaction():
        db.execute("INSERT INTO t VALUES (1)")
        with pytest.raises(RuntimeError):
            inner_block_fails()
        assert db.in_transaction
    assert [r["x"] for r in db.all("SELECT x FROM t")] == [1]
    assert not db.in_transaction


def test_outer_failure_rolls_back_everything() -> None:
    db = _db()

    def outer_block_fails() -> None:
        with db.transaction():
            db.execute("INSERT INTO t VALUES (1)")
            with db.transaction():
                db.execute("INSERT INTO t VALUES (2)")
            raise RuntimeError

    with pytest.raises(RuntimeError):
        outer_block_fails()
    assert db.scalar("SELECT count(*) FROM t") == 0


def test_helpers_and_snapshot_round_trip() -> None:
    db = _db()
    db.executemany("INSERT INTO t VALUES (?)", [(1,), (2,)])
    assert db.first("SELECT x FROM t ORDER BY x")["x"] == 1  # type: ignore[index]
    assert db.first("SELECT x FROM t WHERE x = 9") is None
    assert db.scalar("SELECT sum(x) FROM t") == 3
    copy = Database.from_bytes(db.serialize())
    assert copy.scalar("SELECT sum(x) FROM t") == 3


def test_read_only_store_refuses_writes_at_both_levels() -> None:
    writer = Store.open()
    writer.create_folder(NewFolder(name="Kept"))
    reader = Store.from_snapshot(writer.snapshot(), read_only=True)
    assert [f.name for f in reader.folders()] == ["Kept"]
    assert reader.search("kept")
    with pytest.raises(LexicalError, match="read-only"):
        reader.create_folder(NewFolder(name="Nope"))
    db = Database.from_bytes(writer.snapshot())
    db.make_read_only()
    with pytest.raises(sqlite3.OperationalError):
        db.execute("DELETE FROM folder")
