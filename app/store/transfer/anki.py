"""Importing Anki decks (`.apkg`, `.colpkg`): decks become folders, notes become words.

A package is a zip holding an SQLite collection: `collection.anki21` (Anki 2.1) or
`collection.anki2` (legacy). Since Anki 2.1.50 the default export is `collection.anki21b`,
compressed with zstd, which cannot be read here; such packages carry a stand-in
`collection.anki2` whose only note asks to update Anki. Both cases get a message that says how
to export in the older format. `Parent::Child` deck names become nested folders; a note's
first field is the term, the lines of its second field the meanings, and any other fields and
tags go into the word's notes. The review log comes along as study histories
(app.store.transfer.anki_history). Media files are counted, never read.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

from app.domain import MEANING_MAX, MEANINGS_MAX, NAME_MAX, TEXT_MAX, InvalidInput
from app.store.transfer import MAX_COLLECTION_BYTES
from app.store.transfer.anki_history import read_histories
from app.store.transfer.builder import WorkspaceBuilder
from app.store.transfer.foreign import open_foreign, require_tables, tables
from app.store.transfer.html_text import html_to_text
from app.store.transfer.model import ParsedImport
from app.store.transfer.steps import CHUNK, Progress, Steps
from app.store.transfer.zips import open_zip, read_member

WHAT = "Anki package"
LEGACY, CURRENT, COMPRESSED = "collection.anki2", "collection.anki21", "collection.anki21b"
PACKAGE_FILES = frozenset({LEGACY, CURRENT, COMPRESSED, "media", "meta"})
NEWER_FORMAT = (
    "This deck was exported in the newer Anki format, which Lexical cannot read. In Anki, "
    'choose File > Export, pick "Anki Deck Package (*.apkg)" and tick "Support older Anki '
    'versions", then import that file.'
)
UPDATE_NOTE = "please update to the latest anki version"
FIELD_SEPARATOR = "\x1f"


def parse_anki(name: str, data: bytes) -> Steps[ParsedImport]:
    archive = open_zip(data, WHAT)
    members = set(archive.namelist())
    chosen = CURRENT if CURRENT in members else LEGACY if LEGACY in members else None
    if chosen is None:
        if COMPRESSED in members:
            raise InvalidInput(NEWER_FORMAT)
        raise InvalidInput(f"This {WHAT} has no Anki collection in it.")
    collection = read_member(archive, chosen, MAX_COLLECTION_BYTES, WHAT)
    conn = open_foreign(collection, "an Anki collection")
    try:
        require_tables(conn, ("col", "notes", "cards"), f"This {WHAT} is not an Anki collection.")
        if chosen == LEGACY and (COMPRESSED in members or _is_update_stub(conn)):
            raise InvalidInput(NEWER_FORMAT)
        builder = WorkspaceBuilder("Default")
        word_of_note = yield from _read_notes(conn, builder)
        study = yield from read_histories(conn, word_of_note, _cloze_models(conn), builder.remarks)
    except sqlite3.Error as exc:
        raise InvalidInput(f"This {WHAT} is damaged and cannot be read ({exc}).") from exc
    finally:
        conn.close()
    media = len(members - PACKAGE_FILES)
    if media:
        builder.remarks.append(f"{media:,} media file{'s' if media != 1 else ''} ignored.")
    if not builder.words:
        raise InvalidInput(f"This {WHAT} has no notes Lexical can import.")
    return builder.parsed(name, "anki", "Note", study)


def _is_update_stub(conn: sqlite3.Connection) -> bool:
    rows = conn.execute("SELECT flds FROM notes LIMIT 2").fetchall()
    return len(rows) == 1 and UPDATE_NOTE in str(rows[0][0]).casefold()


def _read_notes(conn: sqlite3.Connection, builder: WorkspaceBuilder) -> Steps[dict[int, int]]:
    """Add a word per note; returns note id -> word id (the note's number in the file) for the
    notes that became words, which their cards' histories follow."""
    decks = _deck_paths(conn)
    fields = _field_names(conn)
    total = int(conn.execute("SELECT count(*) FROM notes").fetchone()[0])
    rows = conn.execute(
        "SELECT n.id, n.mid, n.flds, n.tags, (SELECT CASE WHEN c.odid THEN c.odid ELSE c.did END "
        "FROM cards c WHERE c.nid = n.id ORDER BY c.ord LIMIT 1) FROM notes n ORDER BY n.id"
    )
    word_of_note: dict[int, int] = {}
    for number, (note, mid, flds, tags, deck) in enumerate(rows, start=1):
        names = fields.get(str(mid), [])
        values = {**note_fields(flds, tags, names), "id": number}
        if builder.word(number, decks.get(str(deck), ["Default"]), values) is not None:
            word_of_note[note] = number
        if number % CHUNK == 0:
            yield Progress("Reading notes", number, total)
    return word_of_note


def note_fields(flds: Any, tags: Any, names: list[str]) -> dict[str, Any]:
    """A word's fields from a note: term from the first field, meanings from the lines of the
    second (into the notes instead if they are too many or too long), the rest as notes."""
    values = [html_to_text(v) for v in str(flds).split(FIELD_SEPARATOR)]
    values += [""] * (2 - len(values))
    term = " ".join(values[0].split("\n"))
    meanings = values[1].split("\n") if values[1] else []
    extras: list[str] = []
    if len(meanings) > MEANINGS_MAX or any(len(m) > MEANING_MAX for m in meanings):
        extras.append(values[1])
        meanings = []
    for index, value in enumerate(values[2:], start=2):
        if value:
            label = names[index] if index < len(names) else f"Field {index + 1}"
            extras.append(f"{label}: {value}")
    tag_text = " ".join(str(tags or "").split())
    if tag_text:
        extras.append(f"Tags: {tag_text}")
    notes = "\n\n".join(extras)
    if len(notes) > TEXT_MAX:
        notes = notes[: TEXT_MAX - 1] + "…"
    return {"term": term, "meanings": meanings, "notes": notes}


def _deck_paths(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Deck id -> folder names. Newer collections keep decks in a table, with names split by
    \\x1f; older ones in a JSON column of `col`, with names split by `::`."""
    if "decks" in tables(conn):
        rows = conn.execute("SELECT id, name FROM decks").fetchall()
        named = ((str(i), str(n).replace(FIELD_SEPARATOR, "::")) for i, n in rows)
    else:
        named = ((i, str(d.get("name", ""))) for i, d in _col_json(conn, "decks"))
    return {deck_id: _deck_folders(name) for deck_id, name in named}


def _deck_folders(name: str) -> list[str]:
    parts = (" ".join(html_to_text(p).split())[:NAME_MAX] for p in name.split("::"))
    return [p for p in parts if p] or ["Default"]


def _field_names(conn: sqlite3.Connection) -> dict[str, list[str]]:
    if "fields" in tables(conn):
        names: dict[str, list[str]] = {}
        for ntid, name in conn.execute("SELECT ntid, name FROM fields ORDER BY ntid, ord"):
            names.setdefault(str(ntid), []).append(str(name))
        return names
    return {
        mid: [str(f.get("name", "")) for f in model.get("flds", []) if isinstance(f, dict)]
        for mid, model in _col_json(conn, "models")
    }


def _cloze_models(conn: sqlite3.Connection) -> set[str]:
    """Ids of cloze note types, whose second card is the second deletion, not a reverse card.
    Only older collections say so in plain JSON; newer ones keep it in a protobuf blob, and
    their cards are taken as standard ones."""
    return {mid for mid, model in _col_json(conn, "models") if model.get("type") == 1}


def _col_json(conn: sqlite3.Connection, column: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The entries of a JSON object column of `col` (decks, models) that are objects."""
    row = conn.execute(f"SELECT {column} FROM col LIMIT 1").fetchone()
    try:
        parsed = json.loads(row[0]) if row and isinstance(row[0], str) else {}
    except (ValueError, RecursionError):
        parsed = {}
    if isinstance(parsed, dict):
        yield from ((str(k), v) for k, v in parsed.items() if isinstance(v, dict))
