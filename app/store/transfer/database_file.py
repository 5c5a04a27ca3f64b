"""The workspace as an SQLite file: export, and restore after checking it really is Lexical's.

The export is a fresh database at the current schema holding only the workspace tables (folders,
words, notes and their search index) and the study progress (cards, reviews, study options),
serialised like `Store.snapshot`: whatever else the live database may hold (settings,
conversations, study sessions, keys) is never in it. A restored file must pass the SQLite
integrity check, carry a schema version this app knows (older ones are migrated in memory
first) and have Lexical's tables; its rows then go through the same checks as a JSON backup.
"""

from __future__ import annotations

import dataclasses
import sqlite3

from app.domain import InvalidInput
from app.store.db import Database
from app.store.migrations import SchemaTooNewError, migrate
from app.store.schedules import stale
from app.store.staging import insert_rows
from app.store.transfer.checks import build_workspace
from app.store.transfer.foreign import open_foreign, require_tables
from app.store.transfer.parsed import ParsedImport
from app.store.transfer.read import RawWorkspace, raw_workspace, stored_seed
from app.store.transfer.steps import Steps
from app.store.transfer.study_checks import StudySections
from app.store.transfer.study_rows import REVIEW_INSERT, options_row
from app.store.words import meanings_json

WHAT = "Lexical database"
STUDY_SCHEMA = 4  # the schema version that added study progress (migrations._v4_study)
NOT_LEXICAL = (
    "This SQLite file is not a Lexical database (it lacks Lexical's folder, word and note "
    "tables). To import words from another app, export them as CSV."
)


def export_database(raw: RawWorkspace) -> bytes:
    db = Database.open()
    migrate(db)
    with db.transaction():
        insert_rows(db, "folder", [{**f, "name_key": f["name"].casefold()} for f in raw.folders])
        insert_rows(
            db,
            "word",
            [
                {
                    **w,
                    "term_key": w["term"].casefold(),
                    "meanings": meanings_json(w["meanings"]),
                    # The columns as they are: NULL where the basis is the word's own id.
                    "seed": stored_seed(w["seed"], w["id"]),
                }
                for w in raw.words
            ],
        )
        insert_rows(db, "note", raw.notes)
        folder_of = {w["id"]: w["folder_id"] for w in raw.words}
        insert_rows(db, "card", [{**c, "folder_id": folder_of[c["word_id"]]} for c in raw.cards])
        db.executemany(REVIEW_INSERT, raw.reviews)
        insert_rows(db, "study_options", [options_row(**o) for o in raw.options])
    data = db.serialize()
    db.close()
    return data


def parse_database(name: str, data: bytes) -> Steps[ParsedImport]:
    raw = read_database(data)
    study = (
        StudySections(raw.cards, raw.reviews, raw.options, raw.stale_dues)
        if raw.has_study
        else None
    )
    workspace = yield from build_workspace(raw.folders, raw.words, raw.notes, WHAT, study)
    return ParsedImport(name=name, kind="database", workspace=workspace, item_label="Word")


def read_database(data: bytes) -> RawWorkspace:
    """Every item of a Lexical database file, or InvalidInput saying why it cannot be read."""
    conn = open_foreign(data, WHAT)
    try:
        db = Database(conn)
        version = int(db.scalar("PRAGMA user_version"))
        if version < 1:
            raise InvalidInput(NOT_LEXICAL)
        require_tables(conn, ("folder", "word", "note"), NOT_LEXICAL)
        try:
            migrate(db)  # brings an older file up to date; refuses a newer one with the reason
        except sqlite3.Error as exc:
            # It passed SQLite's integrity check, so this is not damage: another app's tables
            # under Lexical's names.
            raise InvalidInput(NOT_LEXICAL) from exc
        # A file from before study progress has none, unlike one that has no cards yet.
        return dataclasses.replace(
            raw_workspace(db),
            has_study=version >= STUDY_SCHEMA,
            # An older file migrated: marked if a card's due date was fuzzed the old way.
            stale_dues=stale(db),
        )
    except SchemaTooNewError as exc:
        raise InvalidInput(exc.message) from exc
    except (sqlite3.Error, ValueError) as exc:
        raise InvalidInput(f"This {WHAT} is damaged and cannot be restored ({exc}).") from exc
    finally:
        conn.close()
