"""Words as CSV: export with folder paths, and import any reasonable word list.

Columns: `folder, term, meanings, notes, lang, color`. A folder path joins names with `/`; a `/`
inside a name is written `\\/` and a backslash `\\\\`, so every name survives the round trip.
Meanings share one cell, one per line (the cell is quoted). A row with a folder but no term
keeps an empty folder. On import the delimiter (comma, semicolon or tab) and a header row are
detected; without a header the columns are read as term, meanings, notes. Rows that cannot be
used are reported with their line number and the reason (docs/backup-format.md).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from itertools import islice
from pathlib import PurePosixPath

from app.domain import InvalidInput, check_name
from app.store.transfer import MAX_WORDS
from app.store.transfer.builder import RowProblemError, WorkspaceBuilder
from app.store.transfer.model import ParsedImport
from app.store.transfer.read import RawWorkspace
from app.store.transfer.steps import CHUNK, Progress, Steps
from app.store.transfer.text import decode_text

COLUMNS = ("folder", "term", "meanings", "notes", "lang", "color")
ALIASES = {
    "folder": "folder", "folder path": "folder", "path": "folder", "deck": "folder",
    "term": "term", "word": "term", "front": "term", "expression": "term",
    "meanings": "meanings", "meaning": "meanings", "definition": "meanings",
    "definitions": "meanings", "translation": "meanings", "back": "meanings",
    "notes": "notes", "note": "notes", "extra": "notes",
    "lang": "lang", "language": "lang",
    "color": "color", "colour": "color",
}  # fmt: skip
HEADERLESS = ("term", "meanings", "notes")
DELIMITERS = ("\t", ";", ",")
SAMPLE_CHARS = 64 * 1024
SAMPLE_ROWS = 50


# --- folder paths -------------------------------------------------------------------------


def join_path(names: list[str]) -> str:
    return "/".join(n.replace("\\", "\\\\").replace("/", "\\/") for n in names)


def split_path(path: str) -> list[str]:
    """The folder names in `path`; `\\/` is a slash inside a name, `\\\\` a backslash, and
    blank parts (leading, trailing or doubled slashes) are ignored."""
    if "\\" not in path:
        return [n.strip() for n in path.split("/") if n.strip()]
    names: list[str] = []
    current: list[str] = []
    chars = iter(path)
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            current.append(following if following in "/\\" and following else "\\" + following)
        elif char == "/":
            names.append("".join(current))
            current = []
        else:
            current.append(char)
    names.append("".join(current))
    return [n.strip() for n in names if n.strip()]


# --- export -------------------------------------------------------------------------------


def export_csv(raw: RawWorkspace) -> bytes:
    """All words (and empty folders) as CSV in UTF-8 with a byte-order mark, so spreadsheet
    apps read accents right; our importer accepts it with or without."""
    names = {f["id"]: f["name"] for f in raw.folders}
    parents = {f["id"]: f["parent_id"] for f in raw.folders}
    paths: dict[int, str] = {}

    def path(folder_id: int) -> str:
        if folder_id not in paths:
            chain: list[str] = []
            current: int | None = folder_id
            while current is not None:
                chain.append(names[current])
                current = parents[current]
            paths[folder_id] = join_path(chain[::-1])
        return paths[folder_id]

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    used = {w["folder_id"] for w in raw.words} | {p for p in parents.values() if p is not None}
    rows = [[path(f["id"]), "", "", "", "", ""] for f in raw.folders if f["id"] not in used]
    for w in raw.words:
        meanings = "\n".join(" ".join(m.split()) if "\n" in m else m for m in w["meanings"])
        rows.append([path(w["folder_id"]), w["term"], meanings, w["notes"], w["lang"], w["color"]])
    rows.sort(key=lambda r: (r[0].casefold(), r[1].casefold()))
    writer.writerows(rows)
    return ("\ufeff" + out.getvalue()).encode()


# --- import -------------------------------------------------------------------------------


def parse_csv(name: str, data: bytes) -> Steps[ParsedImport]:
    text = decode_text(data, "CSV file")
    if not text.strip():
        raise InvalidInput("This CSV file is empty.")
    suffix = PurePosixPath(name).suffix.lower()
    delimiter = detect_delimiter(text[:SAMPLE_CHARS], "\t" if suffix == ".tsv" else ",")
    records = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    total_lines = text.count("\n") + 1
    builder = WorkspaceBuilder(default_folder(name))
    try:
        first = next(records)
        columns = header_columns(first)
        if columns is None:
            columns = list(HEADERLESS)
            builder.remarks.append("No header row: the columns were read as term, meanings, notes.")
            _add_row(builder, 1, _cells(first, columns))
        else:
            _note_ignored(builder, first, columns)
        line = records.line_num + 1
        for record in records:
            if len(builder.words) >= MAX_WORDS:
                builder.remarks.append(f"Only the first {MAX_WORDS:,} words were read.")
                break
            _add_row(builder, line, _cells(record, columns))
            line = records.line_num + 1
            if len(builder.words) % CHUNK == 0:
                yield Progress("Reading rows", line, total_lines)
    except csv.Error as exc:
        raise InvalidInput(
            f"Line {records.line_num:,} of this CSV file cannot be read ({exc}). A quoted "
            "field may be missing its closing quote."
        ) from exc
    if not builder.words and not builder.folders:
        problem = f" ({builder.skipped[0].reason})" if builder.skipped else ""
        raise InvalidInput(f"This CSV file has no words Lexical can import{problem}.")
    return builder.parsed(name, "csv", "Line")


def _note_ignored(builder: WorkspaceBuilder, header: list[str], columns: list[str | None]) -> None:
    unknown = [c.strip() for c, k in zip(header, columns, strict=True) if k is None and c.strip()]
    if unknown:
        builder.remarks.append(f"Ignored columns: {', '.join(unknown)}.")


def _add_row(builder: WorkspaceBuilder, line: int, cells: dict[str, str]) -> None:
    """One record: a word, a folder on its own (folder but no term), or a skipped row."""
    if not any(v.strip() for v in cells.values()):
        return
    folder = split_path(cells.get("folder", ""))
    term = cells.get("term", "")
    rest = [v for k, v in cells.items() if k not in ("folder", "term") and v.strip()]
    if not term.strip() and folder and not rest:
        try:
            builder.folder(folder)
        except RowProblemError as exc:
            builder.skip(line, "", str(exc))
        return
    fields = {
        "term": term,
        "meanings": cells.get("meanings", "").replace("\r\n", "\n").split("\n"),
        "notes": cells.get("notes", ""),
        "lang": cells.get("lang", ""),
        "color": cells.get("color", "").strip().lower() or "none",
    }
    builder.word(line, folder, fields)


def detect_delimiter(sample: str, preferred: str) -> str:
    """The delimiter that splits the sample's rows into the same number (>1) of fields most
    consistently; `preferred` wins ties and is the answer for single-column files."""

    def score(delimiter: str) -> tuple[float, int, bool]:
        rows = csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter)
        try:
            counts = [len(r) for r in islice(rows, SAMPLE_ROWS) if any(c.strip() for c in r)]
        except csv.Error:
            return (0.0, 0, False)
        if not counts:
            return (0.0, 0, False)
        width, hits = Counter(counts).most_common(1)[0]
        return (hits / len(counts) if width > 1 else 0.0, width, delimiter == preferred)

    best = max(DELIMITERS, key=score)
    return best if score(best)[0] > 0 else preferred


def header_columns(cells: list[str]) -> list[str | None] | None:
    """The column meaning of each header cell, or None if `cells` is not a header. A header
    names the term column and either one more known column or nothing unknown, so a first row
    such as `word,a unit of language` still counts as data."""
    keys = [ALIASES.get(c.strip().casefold()) for c in cells]
    named = [k for c, k in zip(cells, keys, strict=True) if c.strip()]
    known = [k for k in named if k is not None]
    if "term" not in known or (len(known) < 2 and None in named):
        return None
    return keys


def _cells(record: list[str], columns: list[str | None]) -> dict[str, str]:
    cells: dict[str, str] = {}
    for key, value in zip(columns, record, strict=False):
        if key is not None and key not in cells:
            cells[key] = value
    return cells


def default_folder(file_name: str) -> str:
    """Where rows without a folder go: a folder named after the file (or "Imported")."""
    stem = PurePosixPath(file_name.replace("\\", "/")).stem
    try:
        return check_name(stem)
    except ValueError:
        return "Imported"
