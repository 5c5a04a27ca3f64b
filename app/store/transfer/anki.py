"""Importing Anki decks (`.apkg`, `.colpkg`): decks become folders, notes become words.

A package is a zip holding an SQLite collection: `collection.anki21` (Anki 2.1) or
`collection.anki2` (legacy). Since Anki 2.1.50 the default export is `collection.anki21b`,
compressed with zstd, which cannot be read here; such packages carry a stand-in
`collection.anki2` whose only note asks to update Anki. Both cases get a message that says how
to export in the older format. `Parent::Child` deck names become nested folders. The notes of
each note type are read as records of its fields (as text) and tags; which field becomes the
term, the meanings or the notes is the mapping step's (app.store.transfer.mapping). The review
log comes along as study histories (app.store.transfer.anki_history). Media files are counted,
never read.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from app.domain import NAME_MAX, InvalidInput
from app.store.transfer import MAX_COLLECTION_BYTES
from app.store.transfer.anki_history import read_histories
from app.store.transfer.foreign import open_foreign, require_tables, tables
from app.store.transfer.html_text import html_to_text
from app.store.transfer.records import FieldTable, Record, RecordSource
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
TAGS = "Tags"
DEFAULT_DECK = ("Default",)
_NOTETYPES = "SELECT id, name FROM notetypes"


def read_anki(name: str, data: bytes) -> Steps[RecordSource]:
    archive = open_zip(data, WHAT)
    members = set(archive.namelist())
    chosen = CURRENT if CURRENT in members else LEGACY if LEGACY in members else None
    if chosen is None:
        if COMPRESSED in members:
            raise InvalidInput(NEWER_FORMAT)
        raise InvalidInput(f"This {WHAT} has no Anki collection in it.")
    collection = read_member(archive, chosen, MAX_COLLECTION_BYTES, WHAT)
    conn = open_foreign(collection, "Anki collection")
    remarks: list[str] = []
    try:
        require_tables(conn, ("col", "notes", "cards"), f"This {WHAT} is not an Anki collection.")
        if chosen == LEGACY and (COMPRESSED in members or _is_update_stub(conn)):
            raise InvalidInput(NEWER_FORMAT)
        tables, number_of_note = yield from _read_notes(conn)
        study = yield from read_histories(conn, number_of_note, _cloze_models(conn), remarks)
    except sqlite3.Error as exc:
        raise InvalidInput(f"This {WHAT} is damaged and cannot be read ({exc}).") from exc
    finally:
        conn.close()
    if not tables:
        raise InvalidInput(f"This {WHAT} has no notes Lexical can import.")
    media = len(members - PACKAGE_FILES)
    if media:
        remarks.append(f"{media:,} media file{'s' if media != 1 else ''} ignored.")
    return RecordSource(name, "anki", "Note", "Default", tables, remarks, study)


def _is_update_stub(conn: sqlite3.Connection) -> bool:
    rows = conn.execute("SELECT flds FROM notes LIMIT 2").fetchall()
    return len(rows) == 1 and UPDATE_NOTE in str(rows[0][0]).casefold()


@dataclass
class _NoteType:
    name: str
    fields: list[str]
    records: list[Record] = field(default_factory=list)
    audio: set[int] = field(default_factory=set)

    def table(self) -> FieldTable:
        count = len(self.records)
        return FieldTable(
            key=f"anki:{self.name}\x1f{FIELD_SEPARATOR.join(self.fields)}",
            title=f'Note type "{self.name}" ({count:,} note{"s" if count != 1 else ""})',
            fields=(*self.fields, TAGS),
            records=self.records,
            audio=frozenset(self.audio),
        )


def _read_notes(conn: sqlite3.Connection) -> Steps[tuple[list[FieldTable], dict[int, int]]]:
    """A table of records per note type (each note's fields as text, then its tags), and note
    id -> the note's number in the file (its records' `line`), which histories follow."""
    decks = _deck_paths(conn)
    types = _note_types(conn)
    total = int(conn.execute("SELECT count(*) FROM notes").fetchone()[0])
    rows = conn.execute(
        "SELECT n.id, n.mid, n.flds, n.tags, (SELECT CASE WHEN c.odid THEN c.odid ELSE c.did END "
        "FROM cards c WHERE c.nid = n.id ORDER BY c.ord LIMIT 1) FROM notes n ORDER BY n.id"
    )
    number_of_note: dict[int, int] = {}
    for number, (note, mid, flds, tags, deck) in enumerate(rows, start=1):
        raw = str(flds).split(FIELD_SEPARATOR)
        kind = types.get(str(mid))
        if kind is None or len(raw) > len(kind.fields):
            kind = types.setdefault(
                f"{mid}:{len(raw)}",
                _NoteType(f"Unnamed ({len(raw)} fields)", _numbered(len(raw))),
            )
        values = [html_to_text(v) for v in raw] + [""] * (len(kind.fields) - len(raw))
        kind.audio.update(i for i, v in enumerate(raw) if "[sound:" in v)
        folder = decks.get(str(deck), DEFAULT_DECK)
        kind.records.append(Record(number, folder, (*values, " ".join(str(tags or "").split()))))
        number_of_note[note] = number
        if number % CHUNK == 0:
            yield Progress("Reading notes", number, total)
    return [t.table() for t in types.values() if t.records], number_of_note


def _numbered(count: int) -> list[str]:
    return [f"Field {i + 1}" for i in range(count)]


def _note_types(conn: sqlite3.Connection) -> dict[str, _NoteType]:
    """Note type id -> its name and field names. Newer collections keep them in tables, older
    ones in JSON columns of `col`."""
    names = tables(conn)
    if "notetypes" in names and "fields" in names:
        found = {str(i): _NoteType(str(n), []) for i, n in conn.execute(_NOTETYPES)}
        for ntid, name in conn.execute("SELECT ntid, name FROM fields ORDER BY ntid, ord"):
            found.setdefault(str(ntid), _NoteType("Unnamed", [])).fields.append(str(name))
        return found
    return {
        mid: _NoteType(
            str(model.get("name", "Unnamed")),
            [str(f.get("name", "")) for f in model.get("flds", []) if isinstance(f, dict)],
        )
        for mid, model in _col_json(conn, "models")
    }


def _deck_paths(conn: sqlite3.Connection) -> dict[str, tuple[str, ...]]:
    """Deck id -> folder names. Newer collections keep decks in a table, with names split by
    \\x1f; older ones in a JSON column of `col`, with names split by `::`."""
    if "decks" in tables(conn):
        rows = conn.execute("SELECT id, name FROM decks").fetchall()
        named = ((str(i), str(n).replace(FIELD_SEPARATOR, "::")) for i, n in rows)
    else:
        named = ((i, str(d.get("name", ""))) for i, d in _col_json(conn, "decks"))
    return {deck_id: _deck_folders(name) for deck_id, name in named}


def _deck_folders(name: str) -> tuple[str, ...]:
    parts = (" ".join(html_to_text(p).split())[:NAME_MAX] for p in name.split("::"))
    return tuple(p for p in parts if p) or DEFAULT_DECK


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
