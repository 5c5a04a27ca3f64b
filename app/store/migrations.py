"""Numbered schema migrations tracked in `PRAGMA user_version`.

Migration N (1-based) is `MIGRATIONS[N - 1]`; adding version 2 means appending one function.
Each migration runs in its own transaction together with the version bump, so a failure leaves
the database at the previous version rather than half-migrated.
"""

from __future__ import annotations

from collections.abc import Callable

from app.domain import LexicalError
from app.store.db import Database

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


MIGRATIONS: list[Callable[[Database], None]] = [
    _v1_initial_schema,
    _v2_plain_text_note_search,
    _v3_agent_memory,
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
