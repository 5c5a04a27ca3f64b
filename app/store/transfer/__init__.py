"""Import and export of the whole workspace, study progress included: JSON backup, SQLite
database, CSV word lists and Anki decks with their review history (see docs/backup-format.md
and docs/decisions/006-import-export.md, 013-study-history-transfer.md).

This module is the light front door: names, limits and a few functions. The readers, planner and
writers behind them (zipfile, csv, html.parser, pydantic models, and py-fsrs for an Anki
history) load on first use, so the app starts without them; that is why the functions import
inside their bodies.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from app.store.db import Database
    from app.store.transfer.parsed import ParsedImport
    from app.store.transfer.plan import PlanSummary
    from app.store.transfer.sources import Recall
    from app.store.transfer.steps import Steps
    from app.study.days import Moment

Mode = Literal["merge", "replace"]
SourceKind = Literal["backup", "database", "csv", "anki"]
ExportKind = Literal["json", "sqlite", "csv"]

# --- limits (documented in docs/backup-format.md) --------------------------------------------
MAX_FILE_BYTES = 100 * 1024 * 1024
MAX_COLLECTION_BYTES = 256 * 1024 * 1024  # an Anki collection once unzipped
MAX_ZIP_ENTRIES = 100_000
MAX_FOLDERS = 50_000
MAX_WORDS = 500_000
MAX_NOTES = 50_000
MAX_CARDS = 2 * MAX_WORDS  # one per direction
MAX_REVIEWS = 2_000_000
MAX_TIMESTAMP = 253_402_300_799_999  # 9999-12-31 in milliseconds
MAX_ID = 2**53 - 1  # ids stay exact in JavaScript numbers too

ZIP_MAGIC = b"PK\x03\x04"  # how an Anki package (a zip archive) starts

# What each export is called and how it is served: (file name suffix, media type).
EXPORT_FILES: dict[ExportKind, tuple[str, str]] = {
    "json": ("backup.json", "application/json"),
    "sqlite": ("database.sqlite", "application/vnd.sqlite3"),
    "csv": ("words.csv", "text/csv"),
}
ACCEPTED = ".json,.sqlite,.sqlite3,.db,.csv,.tsv,.txt,.apkg,.colpkg"
SUPPORTED = (
    "Lexical imports JSON backups (.json), Lexical databases (.sqlite, .db), word lists "
    "(.csv, .tsv, .txt) and Anki decks (.apkg, .colpkg)."
)


_READERS = ("app.store.transfer.sources", "app.store.transfer.plan", "app.store.transfer.read")


def load_readers() -> None:
    """Import what reading and planning an import need (about 0.1-0.25 s in the browser), so
    the Import dialog can do it while the user picks a file instead of after."""
    for name in _READERS:
        importlib.import_module(name)


def read_import(name: str, data: bytes, recall: Recall = lambda _key: None) -> Steps[ParsedImport]:
    """Read and check a file (as progress steps); raises InvalidInput saying what is wrong.
    `recall` gives the field mapping the user last chose for a layout of a word list or deck."""
    from app.store.transfer.sources import read_file  # noqa: PLC0415

    return read_file(name, data, recall)


def export_workspace(db: Database, kind: ExportKind, now_ms: int) -> bytes:
    from app.store.transfer.read import raw_workspace  # noqa: PLC0415
    from app.store.transfer.sources import write_export  # noqa: PLC0415

    return write_export(kind, raw_workspace(db), now_ms)


def preview_import(
    db: Database, parsed: ParsedImport, mode: Mode, now: Moment
) -> Steps[PlanSummary]:
    """What importing `parsed` with `mode` would change; writes nothing."""
    from app.store.transfer.plan import plan_import  # noqa: PLC0415
    from app.store.transfer.read import existing  # noqa: PLC0415

    plan = yield from plan_import(parsed, existing(db, contents=mode == "merge"), mode, now)
    return plan.summary


def import_parsed(
    db: Database, now: Moment, parsed: ParsedImport, mode: Mode
) -> tuple[PlanSummary, str]:
    """Apply the import; returns what was done and the Undo label."""
    from app.store.transfer.apply import apply_import  # noqa: PLC0415

    return apply_import(db, now, parsed, mode)
