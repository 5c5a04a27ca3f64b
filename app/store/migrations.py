"""Numbered schema migrations tracked in `PRAGMA user_version`.

Migration N (1-based) is `MIGRATIONS[N - 1]`; adding version 2 means appending one function.
Each migration runs in its own transaction together with the version bump, so a failure leaves
the database at the previous version rather than half-migrated.
"""

from __future__ import annotations

from collections.abc import Callable

from app.domain import LexicalError
from app.store.db import Database
from app.study.model import DAY_MS, DEFAULT_DAY_START_HOUR, CardState

# Search rows share one FTS table; rowid = id * 4 + kind keeps deletes on the rowid index.
FOLDER_KIND, WORD_KIND, NOTE_KIND = 1, 2, 3


def _fts_triggers(table: str, kind: int, title: str, meanings: str, body: str) -> list[str]:
    def insert(ref: str) -> str:
        values = ", ".join(e.replace("$", ref) for e in (title, meanings, body))
        return (
            f"INSERT INTO search(rowid, title, meanings, body) VALUES ({ref}.id * 4 + {kind}, "
            f"{values});"
        )

    delete = f"DELETE FROM search WHERE rowid = OLD.id * 4 + {kind};"
    return [
        f"CREATE TRIGGER {table}_search_ai AFTER INSERT ON {table} BEGIN {insert('NEW')} END",
        f"CREATE TRIGGER {table}_search_ad AFTER DELETE ON {table} BEGIN {delete} END",
        f"CREATE TRIGGER {table}_search_au AFTER UPDATE ON {table} "
        f"BEGIN {delete} {insert('NEW')} END",
    ]


_V1_TABLES = [
    """CREATE TABLE folder (
        id INTEGER PRIMARY KEY,
        parent_id INTEGER REFERENCES folder(id),
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        emoji TEXT NOT NULL DEFAULT '',
        color TEXT NOT NULL DEFAULT 'none',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL)""",
    "CREATE INDEX folder_children ON folder(parent_id, name_key)",
    """CREATE TABLE word (
        id INTEGER PRIMARY KEY,
        folder_id INTEGER NOT NULL REFERENCES folder(id),
        term TEXT NOT NULL,
        term_key TEXT NOT NULL,
        meanings TEXT NOT NULL DEFAULT '[]',
        notes TEXT NOT NULL DEFAULT '',
        color TEXT NOT NULL DEFAULT 'none',
        lang TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL)""",
    "CREATE INDEX word_by_folder ON word(folder_id, term_key)",
    """CREATE TABLE note (
        id INTEGER PRIMARY KEY,
        folder_id INTEGER NOT NULL REFERENCES folder(id),
        title TEXT NOT NULL,
        body TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL)""",
    "CREATE INDEX note_by_folder ON note(folder_id)",
    """CREATE VIRTUAL TABLE search USING fts5(
        title, meanings, body,
        tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3')""",
]

_V1_TRIGGERS = [
    *_fts_triggers("folder", FOLDER_KIND, "$.name", "''", "''"),
    *_fts_triggers(
        "word",
        WORD_KIND,
        "$.term",
        "coalesce((SELECT group_concat(value, '; ') FROM json_each($.meanings)), '')",
        "$.notes",
    ),
    *_fts_triggers("note", NOTE_KIND, "$.title", "''", "$.body"),
]


def _v1_initial_schema(db: Database) -> None:
    for statement in _V1_TABLES + _V1_TRIGGERS:
        db.execute(statement)


def _v2_plain_text_note_search(db: Database) -> None:
    for event in ("ai", "ad", "au"):
        db.execute(f"DROP TRIGGER note_search_{event}")
    for statement in _fts_triggers("note", NOTE_KIND, "$.title", "''", "md_text($.body)"):
        db.execute(statement)
    db.execute(f"DELETE FROM search WHERE rowid IN (SELECT id * 4 + {NOTE_KIND} FROM note)")
    db.execute(
        f"INSERT INTO search(rowid, title, meanings, body) "
        f"SELECT id * 4 + {NOTE_KIND}, title, '', md_text(body) FROM note"
    )


# The assistant's own records. They are not collection data: undo never touches them and
# backups/exports leave them out (see AGENT_TABLES in app/store/changes.py, decision 009).
_V3_AGENT_TABLES = [
    """CREATE TABLE conversation (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        agent TEXT NOT NULL,
        refs TEXT NOT NULL DEFAULT '{}',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL)""",
    """CREATE TABLE message (
        id INTEGER PRIMARY KEY,
        conversation_id INTEGER NOT NULL REFERENCES conversation(id),
        role TEXT NOT NULL,
        agent TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'ok',
        body TEXT NOT NULL,
        steps TEXT NOT NULL DEFAULT '[]',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL)""",
    "CREATE INDEX message_by_conversation ON message(conversation_id, id)",
    """CREATE TABLE usage (
        id INTEGER PRIMARY KEY,
        conversation_id INTEGER,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        agent TEXT NOT NULL,
        tools TEXT NOT NULL DEFAULT '[]',
        first_token_ms INTEGER,
        total_ms INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL)""",
    # Agents name words by term without their folder ("delete aorta"): one index lookup.
    "CREATE INDEX word_by_term ON word(term_key)",
]


def _v3_agent_memory(db: Database) -> None:
    for statement in _V3_AGENT_TABLES:
        db.execute(statement)


# Study progress (decision 011). Cards exist only for words that were studied: a word with no
# card in a direction is new there, so adding words writes nothing here. `folder_id` repeats the
# word's folder (kept by a trigger) so due counts per folder read one index without a join.
# Reviews keep the card's schedule as it was before, so a grade can be undone exactly, even
# after a reload, and stats can tell reviews of learned cards from first sightings.
_V4_STUDY_TABLES = [
    """CREATE TABLE card (
        id INTEGER PRIMARY KEY,
        word_id INTEGER NOT NULL REFERENCES word(id),
        folder_id INTEGER NOT NULL,
        direction TEXT NOT NULL,
        state INTEGER NOT NULL,
        step INTEGER,
        stability REAL,
        difficulty REAL,
        due INTEGER NOT NULL,
        last_review INTEGER,
        reps INTEGER NOT NULL DEFAULT 0,
        lapses INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL)""",
    "CREATE UNIQUE INDEX card_by_word ON card(word_id, direction)",
    "CREATE INDEX card_by_folder ON card(folder_id, direction, due)",
    "CREATE INDEX card_by_due ON card(due)",
    # A million rows is an ordinary Anki history, so a review is a few numbers: what changed
    # is kept as columns (the card's schedule before the grade, state 0 = new), not as JSON.
    """CREATE TABLE review (
        id INTEGER PRIMARY KEY,
        card_id INTEGER NOT NULL,
        session_id INTEGER,
        rating INTEGER NOT NULL,
        reviewed_at INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL DEFAULT 0,
        mode TEXT NOT NULL,
        state_before INTEGER NOT NULL,
        step_before INTEGER,
        stability_before REAL,
        difficulty_before REAL,
        due_before INTEGER,
        last_review_before INTEGER)""",
    "CREATE INDEX review_by_card ON review(card_id)",
    # The stats page and the day's counts read reviews by time: with the columns they need in
    # the index they read the index alone, wherever the rows lie (an imported history is not
    # in time order). About six bytes more per review than the time alone.
    "CREATE INDEX review_by_time ON review(reviewed_at, state_before, rating, card_id)",
    "CREATE INDEX review_by_session ON review(session_id) WHERE session_id IS NOT NULL",
    # One row per folder that sets its own options (id = folder id); 0 holds the collection's.
    """CREATE TABLE study_options (
        id INTEGER PRIMARY KEY,
        options TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL)""",
    """CREATE TABLE study_session (
        id INTEGER PRIMARY KEY,
        scope TEXT NOT NULL,
        mode TEXT NOT NULL,
        current TEXT,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL)""",
    "CREATE INDEX study_session_open ON study_session(finished_at)",
    # Due counts read how many words of each folder have no meaning (and so are not studied).
    "CREATE INDEX word_without_meaning ON word(folder_id) WHERE meanings = '[]'",
    # A word's progress follows it: into another folder, and out with it when it is deleted.
    """CREATE TRIGGER word_card_moved AFTER UPDATE OF folder_id ON word
        WHEN NEW.folder_id IS NOT OLD.folder_id
        BEGIN UPDATE card SET folder_id = NEW.folder_id WHERE word_id = NEW.id; END""",
    """CREATE TRIGGER word_card_deleted AFTER DELETE ON word
        BEGIN DELETE FROM card WHERE word_id = OLD.id; END""",
    # A card's history goes with it, however the card goes (a word deleted, an undone import).
    """CREATE TRIGGER card_review_deleted AFTER DELETE ON card
        BEGIN DELETE FROM review WHERE card_id = OLD.id; END""",
    """CREATE TRIGGER folder_options_deleted AFTER DELETE ON folder
        BEGIN DELETE FROM study_options WHERE id = OLD.id; END""",
]


def _v4_study(db: Database) -> None:
    for statement in _V4_STUDY_TABLES:
        db.execute(statement)


def _v5_folder_language(db: Database) -> None:
    # The language tag words added to a folder take when they give none (issue 11); '' means
    # the folder inherits its nearest ancestor's.
    db.execute("ALTER TABLE folder ADD COLUMN lang TEXT NOT NULL DEFAULT ''")


def _v6_voice_timings(db: Database) -> None:
    # A voice turn's own timings (app.voice.timings); NULL for every other entry, and for a
    # turn that had none (typed: no speech-to-text; failed: no first audio).
    db.execute("ALTER TABLE usage ADD COLUMN speech_to_text_ms INTEGER")
    db.execute("ALTER TABLE usage ADD COLUMN first_audio_ms INTEGER")


def _v7_review_days(db: Database) -> None:
    # The learner's study day of each review, which FSRS counts elapsed days in (decision 036).
    # The time zone of earlier reviews was not kept: they are counted in UTC, with the
    # collection's day start.
    db.execute("ALTER TABLE review ADD COLUMN study_day INTEGER")
    hour = db.scalar(
        "SELECT json_extract(options, '$.day_start_hour') FROM study_options "
        "WHERE id = 0 AND json_valid(options)"
    )
    start = hour if type(hour) is int and 0 <= hour <= 23 else DEFAULT_DAY_START_HOUR
    db.execute("UPDATE review SET study_day = (reviewed_at - ?) / ?", (start * 3_600_000, DAY_MS))


# Rows that sync (issue 27, decision 040) get a global id; cards and study options derive
# theirs (a card's from its word and direction, a folder's options from the folder), so they
# need none of their own. A review's id is counted from when it was given, other rows' from
# when they were made. Reviews stay in the order they were written within a millisecond too.
_GLOBAL_IDS = {
    "folder": "created_at",
    "word": "created_at",
    "note": "created_at",
    "review": "reviewed_at",
}
# SQLite cannot add a column whose default is not a constant, so each table is copied into a
# new one with it (its rows keep their ids, so the search index, keyed on them, stays right).
_GID_COLUMN = "gid TEXT NOT NULL DEFAULT (uuid7())"
# What seeds the fuzz of a word's cards (app/study/model.py card_seed): NULL for the word's
# local id, as before this schema, so no stored schedule changes; a word that came from another
# device keeps the seed it has there, so its cards replay alike on both (decision 040).
_SEED_COLUMN = "seed TEXT"


def _v8_global_ids(db: Database) -> None:
    # Triggers name the tables they write: dropped while the tables are swapped, then made
    # again exactly as they were (the tables' own indexes go and come with them).
    kept = [
        row["sql"]
        for row in db.all(
            "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND (type = 'trigger' OR "
            f"(type = 'index' AND tbl_name IN ({', '.join('?' * len(_GLOBAL_IDS))}))) "
            "ORDER BY type = 'trigger', rowid",
            list(_GLOBAL_IDS),
        )
    ]
    for row in db.all("SELECT name FROM sqlite_schema WHERE type = 'trigger'"):
        db.execute(f"DROP TRIGGER {row['name']}")
    for table, made in _GLOBAL_IDS.items():
        sql = str(db.scalar("SELECT sql FROM sqlite_schema WHERE name = ?", (table,)))
        extra = [_GID_COLUMN, *([_SEED_COLUMN] if table == "word" else [])]
        head, _, _ = sql.rpartition(")")
        db.execute(f"{head.replace(table, f'{table}_v8', 1)}, {', '.join(extra)})")
        names = ", ".join(row["name"] for row in db.all(f"PRAGMA main.table_info({table})"))
        db.execute(
            f"INSERT INTO {table}_v8 ({names}, gid) SELECT {names}, uuid7({made}) FROM {table} "
            "ORDER BY id"
        )
        db.execute(f"DROP TABLE {table}")
        db.execute(f"ALTER TABLE {table}_v8 RENAME TO {table}")
        db.execute(f"CREATE UNIQUE INDEX {table}_by_gid ON {table}(gid)")
    for statement in kept:
        db.execute(statement)


def _v9_hashed_fuzz(db: Database) -> None:
    # The fuzz of review intervals is now drawn from a hash (decision 045): the due date of a
    # card in review was drawn otherwise and is not its log's replay any more. Replaying needs
    # the scheduler and the folders' options, which a start does not load: the collection is
    # marked (a row here, in no undo step, log or backup) and the page replays every card
    # once they are (app/studying/reschedule.py `rescheduling_stale`), then clears the mark.
    # Only a card in review has a fuzzed due date (a learning step's wait is not fuzzed).
    db.execute("CREATE TABLE stale_schedules (id INTEGER PRIMARY KEY CHECK (id = 0))")
    db.execute(
        "INSERT INTO stale_schedules SELECT 0 WHERE EXISTS (SELECT 1 FROM card WHERE state = ?)",
        (int(CardState.REVIEW),),
    )


MIGRATIONS: list[Callable[[Database], None]] = [
    _v1_initial_schema,
    _v2_plain_text_note_search,
    _v3_agent_memory,
    _v4_study,
    _v5_folder_language,
    _v6_voice_timings,
    _v7_review_days,
    _v8_global_ids,
    _v9_hashed_fuzz,
]
SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNewError(LexicalError):
    """The data was written by a newer Lexical; opening it here could corrupt it."""


def schema_version(db: Database) -> int:
    return int(db.scalar("PRAGMA user_version"))


def migrate(db: Database, target: int = SCHEMA_VERSION) -> int:
    """Bring the database up to `target` (default: the newest) and return the new version."""
    current = schema_version(db)
    if current > SCHEMA_VERSION:
        raise SchemaTooNewError(
            f"This data was saved by a newer version of Lexical (schema {current}; this app "
            f"knows up to {SCHEMA_VERSION}). Update the app to open it."
        )
    for version in range(current + 1, target + 1):
        with db.transaction():
            MIGRATIONS[version - 1](db)
            db.execute(f"PRAGMA user_version = {version}")
    return max(current, target)
