"""The shared vocabulary of Lexical: typed ids, read models, validated command inputs and errors.

Read models (`Folder`, `Word`, `Note`) are what queries return; command inputs (`NewFolder`,
`WordPatch`, ...) are what the UI and the agent tools hand to the store, already checked here so
the store never sees an empty name or a control character.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, Literal, NewType, TypeVar, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError

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

_LANG = re.compile(r"([a-z]{2,3})(?:-([a-z]{4}))?(?:-([a-z]{2}|[0-9]{3}))?", re.IGNORECASE)


# Unicode categories Cc (control characters, a fixed set) and Cs (lone surrogates, which SQLite
# cannot store as UTF-8), as one regex scan: a bulk paste checks millions of characters.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _bad_chars(text: str, *, lines: bool = False) -> bool:
    """Whether `text` holds a control character or lone surrogate (tab, CR, LF allowed with
    `lines`)."""
    return (_CONTROL_BUT_LINES if lines else _CONTROL).search(text) is not None


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
            raise ValueError(f"each meaning must be at most {MEANING_MAX:,} characters")
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
    match = _LANG.fullmatch(value)
    if match is None:
        raise ValueError("must be a language tag such as en, es-MX or zh-Hant-TW")
    language, script, region = match.groups()
    parts = [language.lower(), script.title() if script else "", region.upper() if region else ""]
    return "-".join(p for p in parts if p)


Name = Annotated[str, AfterValidator(check_name)]
Text = Annotated[str, AfterValidator(check_text)]
Meanings = Annotated[list[str], AfterValidator(check_meanings)]
Emoji = Annotated[str, AfterValidator(check_emoji)]
Lang = Annotated[str, AfterValidator(check_lang)]


# --- read models ------------------------------------------------------------------------------


class _ReadModel(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class Folder(_ReadModel):
    id: FolderId
    parent_id: FolderId | None
    name: str
    emoji: str
    color: Colour
    lang: str = ""  # the default language of its words; '' inherits the parent's
    created_at: int
    updated_at: int


class Word(_ReadModel):
    id: WordId
    folder_id: FolderId
    term: str
    meanings: list[str]
    notes: str
    color: Colour
    lang: str
    created_at: int
    updated_at: int


class Note(_ReadModel):
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


# --- command inputs ---------------------------------------------------------------------------


class _Input(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class _Patch(_Input):
    def changes(self) -> dict[str, Any]:
        """Only the fields the caller set, so an absent field never overwrites stored data."""
        return {k: v for k, v in self.model_dump(exclude_unset=True).items() if v is not None}


class NewFolder(_Input):
    name: Name
    parent_id: FolderId | None = None
    emoji: Emoji = ""
    color: Colour = "none"
    lang: Lang = ""


class FolderPatch(_Patch):
    name: Name | None = None
    emoji: Emoji | None = None
    color: Colour | None = None
    lang: Lang | None = None


class NewWord(_Input):
    folder_id: FolderId
    term: Name
    meanings: Meanings = []
    notes: Text = ""
    color: Colour = "none"
    lang: Lang = ""


class WordPatch(_Patch):
    term: Name | None = None
    meanings: Meanings | None = None
    notes: Text | None = None
    color: Colour | None = None
    lang: Lang | None = None


class NewNote(_Input):
    folder_id: FolderId
    title: Name
    body: Text = ""


class NotePatch(_Patch):
    title: Name | None = None
    body: Text | None = None


# --- error messages ---------------------------------------------------------------------------


InputT = TypeVar("InputT", bound=BaseModel)


def parse_input(model: type[InputT], data: Any) -> InputT:
    """Validate untrusted data (a tool call, a form) into `model`, or raise `InvalidInput`."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InvalidInput(user_message(exc)) from exc


# Field names as the forms label them, where the attribute name is not already that word.
FIELD_LABELS = {
    "lang": "Language",
    "color": "Colour",
    "parent_id": "Parent folder",
    "timeout_s": "Seconds to wait for an answer",
}


def user_message(exc: ValidationError) -> str:
    """Turn pydantic's error list into one sentence, e.g. "Name must not be empty."."""
    parts = []
    for error in exc.errors():
        names = [FIELD_LABELS.get(p, p) for p in error["loc"] if isinstance(p, str)]
        ctx = error.get("ctx") or {}
        text = str(ctx["error"]) if "error" in ctx else error["msg"][:1].lower() + error["msg"][1:]
        text = text.rstrip(".")  # one full stop, at the very end
        if names:
            parts.append(f"{' '.join(names).replace('_', ' ').capitalize()} {text}")
        else:  # about the whole form: the message is a sentence of its own
            parts.append(text[:1].upper() + text[1:])
    return "; ".join(parts) + "."
