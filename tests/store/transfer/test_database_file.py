"""The SQLite export and restore: exact round trips, and only Lexical databases accepted."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings

from app.domain import InvalidInput
from app.store.migrations import SCHEMA_VERSION
from app.store.transfer.read import raw_workspace
from tests.store.helpers import assert_index_in_sync, make_store
from tests.store.transfer.workspaces import (
    Spec,
    assert_refused,
    build,
    database_at,
    parse,
    sample_store,
    specs,
)


def _sqlite(*statements: str, version: int = 0) -> bytes:
    conn = sqlite3.connect(":memory:")
    for statement in statements:
        conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {version}")
    return conn.serialize()


def test_the_export_is_a_lexical_database_at_the_current_schema() -> None:
    data = sample_store().export("sqlite")
    conn = sqlite3.connect(":memory:")
    conn.deserialize(data)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    terms = {r[0] for r in conn.execute("SELECT term FROM word")}
    assert terms == {"mitosis", "célula"}
    # The search index is part of it, so the file works as a workspace straight away.
    assert conn.execute("SELECT count(*) FROM search WHERE search MATCH 'mitosis'").fetchone()[0]


@settings(max_examples=30, deadline=None)
@given(specs(study=True))
def test_sqlite_round_trip_property(spec: Spec) -> None:
    original = build(spec)
    restored = make_store()
    restored.import_parsed(parse("lexical.sqlite", original.export("sqlite")), "replace")
    assert raw_workspace(restored._db) == raw_workspace(original._db)
    assert_index_in_sync(restored)


def test_a_database_at_an_older_schema_version_is_migrated_before_reading() -> None:
    parsed = parse("old.db", database_at(1))
    assert [f.name for f in parsed.workspace.folders] == ["Old"]
    assert parsed.modes == ("merge", "replace")


def _damaged() -> bytes:
    data = bytearray(sample_store().export("sqlite"))
    for offset in range(1024, len(data) - 512, 97):
        data[offset] ^= 0x5A
    return bytes(data)


def _newer() -> bytes:
    store = sample_store()
    store._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    return store.snapshot()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"SQLite format 3\x00" + b"\x00" * 20, "not an SQLite database file"),
        (b"hello, not a database at all", "not an SQLite database file"),
        (sample_store().export("sqlite")[:3000], "damaged"),
        (_damaged(), "damaged"),
        (_sqlite("CREATE TABLE t (x)"), "not a Lexical database"),
        (
            _sqlite("CREATE TABLE folder (x)", "CREATE TABLE word (x)", version=1),
            "not a Lexical database",
        ),
        (
            _sqlite(
                "CREATE TABLE f (x)",
                "CREATE VIEW folder AS SELECT 1",
                "CREATE VIEW word AS SELECT 1",
                "CREATE VIEW note AS SELECT 1",
                version=1,
            ),
            "not a Lexical database",
        ),
        (
            _sqlite(
                "CREATE TABLE folder (x)",
                "CREATE TABLE word (x)",
                "CREATE TABLE note (x)",
                version=2,
            ),
            "not a Lexical database",
        ),
        (_newer(), "newer version of Lexical"),
    ],
)
def test_files_that_are_not_lexical_databases_are_refused(data: bytes, message: str) -> None:
    assert_refused("x.sqlite", data, message)


def test_a_database_with_unreadable_rows_is_refused() -> None:
    store = sample_store()
    store._db.execute("DROP TRIGGER word_search_au")  # the index would refuse it
    store._db.execute("UPDATE word SET meanings = 'not json'")
    with pytest.raises(InvalidInput, match="damaged"):
        parse("x.db", store.snapshot())
    store = sample_store()
    store._db.execute("UPDATE folder SET name = '' WHERE id = 1")
    with pytest.raises(InvalidInput, match="Name must not be empty"):
        parse("x.db", store.snapshot())
