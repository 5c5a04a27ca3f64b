"""The JSON backup: a documented, versioned file of the whole workspace (docs/backup-format.md).

Written one item per line so it stays readable and diffable; read strictly: the file must say
`"format": "lexical-backup"`, a version this app knows, and every item must pass the same rules
as the forms. Version 2 added study progress (cards, reviews, study options); version 1 files
are still read, as files without it. Version 3 added a folder's default language, 4 a review's
study day, 5 every folder's, word's, note's and review's global id and each word's seed basis
(decision 040). Settings, API keys, conversations and study sessions are never part of it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from app.domain import InvalidInput
from app.store.transfer.checks import build_workspace
from app.store.transfer.model import KNOWN_REVIEW_FIELDS, REVIEW_FIELDS
from app.store.transfer.parsed import ParsedImport
from app.store.transfer.read import RawWorkspace
from app.store.transfer.steps import Steps
from app.store.transfer.study_checks import StudySections
from app.store.transfer.text import decode_text

FORMAT = "lexical-backup"
VERSION = 6  # 4: each review keeps its study day; 5: global ids and seed bases; 6: hashed fuzz
HASHED_FUZZ_VERSION = 6  # due dates drawn as decision 045 draws them
STUDY_VERSION = 2  # the first version with study progress
SECTIONS = ("folders", "words", "notes")
STUDY_SECTIONS = ("cards", "reviews", "study_options")


def dump_backup(raw: RawWorkspace, exported_at_ms: int) -> bytes:
    """The backup file for `raw`, as UTF-8 bytes."""
    stamp = datetime.fromtimestamp(exported_at_ms / 1000, UTC).isoformat(timespec="seconds")
    return "".join(_lines(raw, stamp.replace("+00:00", "Z"))).encode()


def _lines(raw: RawWorkspace, stamp: str) -> Iterator[str]:
    sections = (*SECTIONS, *STUDY_SECTIONS)
    yield "{\n"
    yield f'"format": "{FORMAT}",\n"version": {VERSION},\n"exported_at": "{stamp}",\n'
    yield f'"contains": {json.dumps(list(sections))},\n'
    yield f'"review_fields": {json.dumps(list(REVIEW_FIELDS))},\n'
    contents: tuple[list[Any], ...] = (
        *(raw.folders, raw.words, raw.notes, raw.cards, raw.reviews, raw.options),
    )
    for index, (section, items) in enumerate(zip(sections, contents, strict=True)):
        # Reviews can number a million: arrays without spaces keep each near 90 bytes.
        separators = (",", ":") if section == "reviews" else None
        yield f'"{section}": [\n'
        yield ",\n".join(
            json.dumps(item, ensure_ascii=False, separators=separators) for item in items
        )
        yield "\n]" + (",\n" if index < len(sections) - 1 else "\n")
    yield "}\n"


def parse_backup(name: str, data: bytes) -> Steps[ParsedImport]:
    """Read a backup file into a checked workspace, or raise InvalidInput saying what is wrong."""
    document = _load(decode_text(data, "backup"))
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InvalidInput(
            f'This JSON file is not a Lexical backup (it does not say "format": "{FORMAT}").'
        )
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise InvalidInput("This backup has no valid version number.")
    if version > VERSION:
        raise InvalidInput(
            f"This backup was made by a newer version of Lexical (format version {version}; "
            f"this app reads up to {VERSION}). Update the app to restore it."
        )
    folders, words, notes = (_section(document, section) for section in SECTIONS)
    study = _study(document) if version >= STUDY_VERSION else None
    workspace = yield from build_workspace(folders, words, notes, "backup", study)
    return ParsedImport(name=name, kind="backup", workspace=workspace, item_label="Word")


def _study(document: dict[str, Any]) -> StudySections:
    if document.get("review_fields") not in [list(fields) for fields in KNOWN_REVIEW_FIELDS]:
        raise InvalidInput(
            'This backup cannot be imported: its "review_fields" are not the ones this '
            "version of Lexical writes, so its reviews cannot be read safely."
        )
    cards, reviews, options = (_section(document, section) for section in STUDY_SECTIONS)
    return StudySections(cards, reviews, options, document["version"] < HASHED_FUZZ_VERSION)


def _section(document: dict[str, Any], section: str) -> list[Any]:
    items = document.get(section)
    if not isinstance(items, list):
        raise InvalidInput(f'This backup is incomplete: "{section}" is missing or not a list.')
    return items


# Arrays and objects nested deeper than this are refused before parsing: a backup needs a
# handful of levels, and the C parser's recursion per level overflows the browser's stack long
# before Python's recursion limit could stop it (the import then never ends).
MAX_JSON_NESTING = 200
TOO_DEEP = "This JSON file is nested too deeply to be a Lexical backup."
# Only brackets, quotes and backslashes matter for nesting; every other byte goes (a UTF-8
# sequence never holds an ASCII byte), so a large backup is checked in a fraction of its parse.
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"\\')
_ESCAPED = re.compile(rb"\\.", re.DOTALL)
_STRING = re.compile(rb'"[^"]*"')
_OPEN_CLOSE = bytes.maketrans(b"[]{}", b"()()")


def _too_deep(text: str) -> bool:
    """Whether arrays and objects in JSON `text` nest deeper than MAX_JSON_NESTING (brackets
    inside strings do not count). Each pass drops the innermost pairs, so a file within the
    limit is empty of pairs after that many passes; what is left open counts too."""
    marks = _STRING.sub(b"", _ESCAPED.sub(b"", text.encode().translate(None, _NOT_STRUCTURE)))
    marks = marks.translate(_OPEN_CLOSE)
    for _ in range(MAX_JSON_NESTING):
        inner = marks.replace(b"()", b"")
        if inner == marks:
            return marks.count(b"(") > MAX_JSON_NESTING
        marks = inner
    return b"()" in marks or marks.count(b"(") > MAX_JSON_NESTING


def _load(text: str) -> Any:
    if _too_deep(text):
        raise InvalidInput(TOO_DEEP)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"This file is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}). "
            "It may be truncated or damaged."
        ) from exc
    except RecursionError as exc:
        raise InvalidInput(TOO_DEEP) from exc
    except ValueError as exc:  # an integer with thousands of digits: Python's advice is no help
        raise InvalidInput(
            "This JSON file holds a number too long to read, so it is not a Lexical backup."
        ) from exc
