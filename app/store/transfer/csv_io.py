"""Words as CSV: export with folder paths, and import any reasonable word list.

Columns: `folder, term, meanings, notes, lang, color`. A folder path joins names with `/`; a `/`
inside a name is written `\\/` and a backslash `\\\\`, so every name survives the round trip.
Meanings share one cell, one per line (the cell is quoted). A row with a folder but no term
keeps an empty folder. A cell a spreadsheet would run as a formula is written after a `'`
(and read back without it). On import the delimiter (comma, semicolon or tab) is detected and the
rows are read as records; which column is what (and whether the first row names them) is the
mapping step's (app.store.transfer.mapping), shared with Anki decks (docs/backup-format.md).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from itertools import islice
from pathlib import PurePosixPath

from app.domain import InvalidInput, check_name
from app.store.transfer import MAX_WORDS
from app.store.transfer.field_guess import is_header, normal_name
from app.store.transfer.read import RawWorkspace
from app.store.transfer.records import FieldTable, Record, RecordSource
from app.store.transfer.steps import CHUNK, Progress, Steps
from app.store.transfer.text import decode_text

COLUMNS = ("folder", "term", "meanings", "notes", "lang", "color")
DELIMITERS = ("\t", ";", ",")
SAMPLE_CHARS = 64 * 1024
SAMPLE_ROWS = 50
MAX_COLUMNS = 50


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


# --- cells a spreadsheet would run ---------------------------------------------------------

# OWASP's CSV injection list: a cell starting with one of these is a formula to a spreadsheet
# ("=HYPERLINK(…)" sends data away when clicked). Such cells are written after a "'", which
# spreadsheets take as "text"; reading takes one "'" off again, and a value that itself began
# with "'" before such a character gets one more, so every value comes back as it was.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def defuse(cell: str) -> str:
    return "'" + cell if cell.lstrip("'").startswith(_FORMULA_START) else cell


def restore(cell: str) -> str:
    return (
        cell[1:] if cell.startswith("'") and cell.lstrip("'").startswith(_FORMULA_START) else cell
    )


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
    writer.writerows([defuse(cell) for cell in row] for row in rows)
    return ("\ufeff" + out.getvalue()).encode()


# --- import -------------------------------------------------------------------------------


def read_csv(name: str, data: bytes) -> Steps[RecordSource]:
    """The file's rows as one table of records; its first row may be column names, which the
    mapping step decides (app.store.transfer.field_guess)."""
    text = decode_text(data, "CSV file", " (in a spreadsheet: CSV UTF-8)")
    if not text.strip():
        raise InvalidInput("This CSV file is empty.")
    suffix = PurePosixPath(name).suffix.lower()
    delimiter = detect_delimiter(text[:SAMPLE_CHARS], "\t" if suffix == ".tsv" else ",")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    total_lines = text.count("\n") + 1
    rows: list[tuple[int, list[str]]] = []
    remarks: list[str] = []
    line = 1
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                if len(rows) > MAX_WORDS:
                    remarks.append(f"Only the first {MAX_WORDS:,} rows were read.")
                    break
                rows.append((line, row))
                if len(rows) % CHUNK == 0:
                    yield Progress("Reading rows", reader.line_num, total_lines)
            line = reader.line_num + 1
    except csv.Error as exc:
        raise InvalidInput(
            f"Line {reader.line_num:,} of this CSV file cannot be read ({exc}). A quoted "
            "field may be missing its closing quote."
        ) from exc
    if not rows:
        raise InvalidInput("This CSV file has no words Lexical can import.")
    width = max(len(row) for _line, row in rows)
    if width > MAX_COLUMNS:
        remarks.append(f"Only the first {MAX_COLUMNS} of its {width:,} columns were read.")
        width = MAX_COLUMNS
    records = [Record(n, (), _padded([restore(cell) for cell in row], width)) for n, row in rows]
    header = records[0].values
    named = "\x1f".join(normal_name(c) for c in header) if is_header(header) else f"{width}"
    table = FieldTable(
        key=f"csv:{named}",
        title="the word list",
        fields=tuple(f"Column {i + 1}" for i in range(width)),
        records=records,
        header=header,
    )
    return RecordSource(name, "csv", "Line", default_folder(name), [table], remarks)


def _padded(row: list[str], width: int) -> tuple[str, ...]:
    return tuple(row[:width]) + ("",) * (width - len(row))


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


def default_folder(file_name: str) -> str:
    """Where rows without a folder go: a folder named after the file (or "Imported")."""
    stem = PurePosixPath(file_name.replace("\\", "/")).stem
    try:
        return check_name(stem)
    except ValueError:
        return "Imported"
