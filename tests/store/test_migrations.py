"""Schema migrations: from empty, from every earlier version, and refusing newer data."""

from __future__ import annotations

import pytest

from app.domain import FolderId
from app.store import Store, changes
from app.store.db import Database
from app.store.migrations import SCHEMA_VERSION, SchemaTooNewError, migrate, schema_version


def _schema(db: Database) -> list[tuple[str, str, str]]:
    rows = db.all("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
    return [(r["type"], r["name"], r["sql"]) for r in rows]


def test_from_empty_reaches_head() -> None:
    db = Database.open()
    assert migrate(db) == SCHEMA_VERSION
    assert schema_version(db) == SCHEMA_VERSION
    assert {"folder", "word", "note", "search"} <= {name for _, name, _ in _schema(db)}


@pytest.mark.parametrize("start", range(SCHEMA_VERSION))
def test_from_every_earlier_version_matches_a_fresh_head(start: int) -> None:
    fresh = Database.open()
    migrate(fresh)
    old = Database.open()
    migrate(old, target=start)
    assert schema_version(old) == start
    migrate(old)
    assert _schema(old) == _schema(fresh)


def test_migrating_twice_changes_nothing() -> None:
    db = Database.open()
    migrate(db)
    before = _schema(db)
    migrate(db)
    assert _schema(db) == before


def test_a_newer_schema_is_refused_with_a_clear_message() -> None:
    db = Database.open()
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNewError, match="newer version of Lexical"):
        Store(db)


def test_a_snapshot_migrates_when_opened() -> None:
    db = Database.open()
    db.execute("CREATE TABLE other (x)")  # an image needs at least one page to serialize
    store = Store.from_snapshot(db.serialize())
    assert store.schema_version == SCHEMA_VERSION


def _one_folder_at(version: int) -> Database:
    db = Database.open()
    migrate(db, target=version)
    db.execute("INSERT INTO folder VALUES (1, NULL, 'F', 'f', '', 'none', 0, 0)")
    return db


def test_v2_reindexes_markdown_notes_as_plain_text() -> None:
    db = _one_folder_at(1)
    db.execute("INSERT INTO note VALUES (1, 1, 'T', '*stress* the `first` syllable', 0, 0)")
    migrate(db)
    assert db.scalar("SELECT body FROM search WHERE rowid = 7") == "stress the first syllable"
    assert [r[0] for r in db.all("SELECT rowid FROM search WHERE search MATCH 'syllable'")] == [7]


def test_v3_adds_the_assistant_tables_and_the_term_index() -> None:
    db = _one_folder_at(2)
    db.execute("INSERT INTO word VALUES (1, 1, 'Aorta', 'aorta', '[]', '', 'none', '', 0, 0)")
    migrate(db)
    names = {name for _, name, _ in _schema(db)}
    assert {"conversation", "message", "usage", "word_by_term"} <= names
    plan = db.all("EXPLAIN QUERY PLAN SELECT id FROM word WHERE term_key = 'aorta'")
    assert "word_by_term" in " ".join(str(r["detail"]) for r in plan)
    assert db.scalar("SELECT count(*) FROM word") == 1


def test_v4_adds_study_tables_and_keeps_progress_with_its_word() -> None:
    db = _one_folder_at(3)
    db.execute("INSERT INTO folder VALUES (2, NULL, 'G', 'g', '', 'none', 0, 0)")
    db.execute("INSERT INTO word VALUES (1, 1, 'Aorta', 'aorta', '[]', '', 'none', '', 0, 0)")
    migrate(db)
    db.execute(
        "INSERT INTO card (id, word_id, folder_id, direction, state, due, created_at, "
        "updated_at) VALUES (1, 1, 1, 'forward', 2, 0, 0, 0)"
    )
    db.execute(
        "INSERT INTO review (card_id, rating, reviewed_at, mode, state_before) "
        "VALUES (1, 3, 0, 'flashcard', 0)"
    )
    db.execute("UPDATE word SET folder_id = 2")
    assert db.scalar("SELECT folder_id FROM card") == 2
    db.execute("DELETE FROM word")
    assert db.scalar("SELECT count(*) FROM card") == db.scalar("SELECT count(*) FROM review") == 0
    assert db.scalar("SELECT count(*) FROM word") == 0


def test_v5_gives_every_folder_an_empty_default_language() -> None:
    db = _one_folder_at(4)
    migrate(db)
    assert db.scalar("SELECT lang FROM folder WHERE id = 1") == ""
    assert Store(db).folder(FolderId(1)).lang == ""


def test_v6_adds_voice_timings_to_the_usage_log_and_keeps_its_entries() -> None:
    db = Database.open()
    migrate(db, target=5)
    db.execute(
        "INSERT INTO usage (provider, model, agent, first_token_ms, total_ms, outcome, "
        "created_at, updated_at) VALUES ('gemini', 'm', 'scholar', 40, 100, 'ok', 7, 7)"
    )
    migrate(db)
    [record] = Store(db).conversations.usage()
    assert (record.agent, record.first_token_ms, record.total_ms) == ("scholar", 40, 100)
    assert (record.speech_to_text_ms, record.first_audio_ms) == (None, None)
    assert Store(db).conversations.usage_summary().voice is None


def test_v6_replays_usage_rows_logged_before_it() -> None:
    db = Database.open()
    migrate(db)
    old_row = {
        "id": 1,
        "conversation_id": None,
        "provider": "openai",
        "model": "m",
        "agent": "speech",
        "tools": "[]",
        "first_token_ms": None,
        "total_ms": 900,
        "outcome": "ok",
        "detail": "",
        "created_at": 7,
        "updated_at": 7,
    }
    changes.apply(db, [changes.Change(table="usage", op="insert", new=old_row)])
    [record] = Store(db).conversations.usage()
    assert (record.total_ms, record.first_audio_ms) == (900, None)


@pytest.mark.parametrize(("options", "hour"), [(None, 4), ('{"day_start_hour": 0}', 0)])
def test_reviews_logged_before_schema_7_get_their_study_day(options: str | None, hour: int) -> None:
    # Their time zone was never kept: UTC, with the collection's day start (decision 036).
    db = Database.open()
    migrate(db, target=6)
    if options is not None:
        db.execute(
            "INSERT INTO study_options (id, options, created_at, updated_at) VALUES (0, ?, 0, 0)",
            (options,),
        )
    at = 1_795_400_000_000 + 2 * 3_600_000  # 2 a.m. UTC
    db.execute(
        "INSERT INTO review (card_id, rating, reviewed_at, mode, state_before) "
        "VALUES (1, 3, ?, 'typing', 0)",
        (at - at % 86_400_000 + 2 * 3_600_000,),
    )
    migrate(db)
    day = (at - at % 86_400_000) // 86_400_000
    assert db.scalar("SELECT study_day FROM review") == (day - 1 if hour > 2 else day)
