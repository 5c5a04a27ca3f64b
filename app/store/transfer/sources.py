"""Which reader a file goes to, and which writer each export uses."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath

from app.domain import InvalidInput
from app.store.transfer import MAX_FILE_BYTES, SUPPORTED, ZIP_MAGIC, ExportKind
from app.store.transfer.anki import read_anki
from app.store.transfer.backup import dump_backup, parse_backup
from app.store.transfer.csv_io import export_csv, read_csv
from app.store.transfer.database_file import export_database, parse_database
from app.store.transfer.field_guess import guess
from app.store.transfer.foreign import is_sqlite
from app.store.transfer.mapping import build
from app.store.transfer.parsed import ParsedImport
from app.store.transfer.read import RawWorkspace
from app.store.transfer.records import ImportChoices, RecordSource, TableMapping
from app.store.transfer.steps import Steps

# The mapping the user last chose for a table's layout (its key), if any.
Recall = Callable[[str], TableMapping | None]


def write_export(kind: ExportKind, raw: RawWorkspace, now_ms: int) -> bytes:
    if kind == "json":
        return dump_backup(raw, now_ms)
    if kind == "sqlite":
        return export_database(raw)
    return export_csv(raw)


def read_file(name: str, data: bytes, recall: Recall) -> Steps[ParsedImport]:
    """Recognise the file by its content (SQLite, zip) or else its name, and read it; a word
    list or deck is mapped as the user last mapped its layout, or else as guessed."""
    if not data:
        raise InvalidInput("This file is empty.")
    if len(data) > MAX_FILE_BYTES:
        raise InvalidInput(
            f"This file is {len(data) / 1_048_576:,.0f} MB; Lexical imports files of up to "
            f"{MAX_FILE_BYTES // 1_048_576} MB."
        )
    suffix = PurePosixPath(name.replace("\\", "/")).suffix.lower()
    if is_sqlite(data) or suffix in (".sqlite", ".sqlite3", ".db"):
        return (yield from parse_database(name, data))
    if data.startswith(ZIP_MAGIC) or suffix in (".apkg", ".colpkg"):
        return (yield from mapped((yield from read_anki(name, data)), recall))
    if suffix == ".json" or data[:256].lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return (yield from parse_backup(name, data))
    if suffix in (".csv", ".tsv", ".txt"):
        return (yield from mapped((yield from read_csv(name, data)), recall))
    raise InvalidInput(f"Lexical cannot import this kind of file. {SUPPORTED}")


def mapped(source: RecordSource, recall: Recall) -> Steps[ParsedImport]:
    mappings = []
    for table in source.tables:
        known = recall(table.key)
        mappings.append(known if known is not None and known.fits(table) else guess(table))
    return (yield from build(source, ImportChoices(tuple(mappings))))
