"""The shared vocabulary of Lexical: typed ids, read models, the rules names and texts follow,
and errors.

Read models (`Folder`, `Word`, `Note`) are what queries return: plain frozen dataclasses built
from rows the store wrote, so the first screen needs no validation library (decision 025).
Command inputs, checked against the rules here before the store sees them, are in app.inputs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NewType, get_args

FolderId = NewType("FolderId", int)
WordId = NewType("WordId", int)
NoteId = NewType("NoteId", int)

Colour = Literal[
    "none", "red", "orange", "yellow", "green", "teal", "blue", "purple", "pink", "gray"
]
COLOURS: tuple[Colour, ...] = get_args(Colour)

NAME_MAX = 200
MEANING_MAX = 2_000
MEANINGS_MAX = 50
TEXT_MAX = 50_000
EMOJI_MAX = 16
# Folder nesting, for folders made in the app and in every file it imports: a backup the app
# wrote always restores.
MAX_FOLDER_DEPTH = 64


class LexicalError(Exception):
    """A failure the user should hear about; `message` is a plain sentence fit for the UI."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(LexicalError):  # noqa: N818 - names read as plain words at call sites
    """The folder, word or note asked for does not exist (any more)."""


class Conflict(LexicalError):  # noqa: N818 - names read as plain words at call sites
    """The change would break a rule such as unique sibling names or an acyclic folder tree."""


class InvalidInput(LexicalError):  # noqa: N818 - names read as plain words at call sites
    """The input failed validation."""


# --- validators -------------------------------------------------------------------------------

_LANG = r"(?i)([a-z]{2,3})(?:-([a-z]{4}))?(?:-([a-z]{2}|[0-9]{3}))?"


# Unicode categories Cc (control characters, a fixed set) and Cs (lone surrogates, which SQLite
# cannot store as UTF-8), as one regex scan: a bulk paste checks millions of characters.
# Compiled once: every imported word runs these, and `re.search` with a string looks the
# pattern up in re's cache on each call.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _bad_chars(text: str, *, lines: bool = False) -> bool:
    """Whether `text` holds a control character or lone surrogate (tab, CR, LF allowed with
    `lines`)."""
    if lines:
        return _CONTROL_BUT_LINES.search(text) is not None
    return _CONTROL.search(text) is not None


def check_name(value: str) -> str:
    """A single-line label (folder name, word term, note title)."""
    value = value.strip()
    if not value:
        raise ValueError("must not be empty")
    if len(value) > NAME_MAX:
        raise ValueError(f"must be at most {NAME_MAX} characters (it has {len(value):,})")
    if _bad_chars(value):
        raise ValueError("must be one line without tabs or control characters")
    return value


def check_text(value: str) -> str:
    """Free text (word notes, note body): multi-line, bounded."""
    value = value.strip()
    if len(value) > TEXT_MAX:
        raise ValueError(f"must be at most {TEXT_MAX:,} characters (it has {len(value):,})")
    if _bad_chars(value, lines=True):
        raise ValueError("must not contain control characters")
    return value


def check_meanings(values: list[str]) -> list[str]:
    """Strip each meaning and drop the empty ones before applying the limits."""
    kept = [m.strip() for m in values if m.strip()]
    if len(kept) > MEANINGS_MAX:
        raise ValueError(f"must be at most {MEANINGS_MAX} meanings (there are {len(kept)})")
    for meaning in kept:
        if len(meaning) > MEANING_MAX:
            too_long = f"must each be at most {MEANING_MAX:,} characters (one has {len(meaning):,})"
            raise ValueError(too_long)
        if _bad_chars(meaning, lines=True):
            raise ValueError("must not contain control characters")
    return kept


def check_emoji(value: str) -> str:
    value = value.strip()
    if len(value) > EMOJI_MAX:
        raise ValueError(f"must be at most {EMOJI_MAX} characters")
    if _bad_chars(value) or any(c.isspace() or (c.isascii() and c.isalnum()) for c in value):
        raise ValueError("must be an emoji, not letters, digits or spaces")
    return value


def check_lang(value: str) -> str:
    """Accept a BCP 47 shape (language[-Script][-REGION]) and normalise its case."""
    value = value.strip()
    if not value:
        return ""
    match = re.fullmatch(_LANG, value)
    if match is None:
        raise ValueError("must be a language tag such as en, es-MX or zh-Hant-TW")
    language, script, region = match.groups()
    parts = [language.lower(), script.title() if script else "", region.upper() if region else ""]
    return "-".join(p for p in parts if p)


# --- read models ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Folder:
    """A folder as stored: its place in the tree, how it looks and its words' language."""

    id: FolderId
    parent_id: FolderId | None
    name: str
    emoji: str
    color: Colour
    lang: str = ""  # the default language of its words; '' inherits the parent's
    created_at: int
    updated_at: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Word:
    """A word as stored: its term, meanings in order, notes, colour and language."""

    id: WordId
    folder_id: FolderId
    term: str
    meanings: list[str]
    notes: str
    color: Colour
    lang: str
    created_at: int
    updated_at: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Note:
    """A note as stored in a folder: a title and a Markdown body."""

    id: NoteId
    folder_id: FolderId
    title: str
    body: str
    created_at: int
    updated_at: int


def default_lang(path: Sequence[Folder]) -> str:
    """The language tag a new word in the last folder of `path` (root first) takes when it
    gives none: the folder's own, else its nearest ancestor's."""
    return next((folder.lang for folder in reversed(path) if folder.lang), "")
