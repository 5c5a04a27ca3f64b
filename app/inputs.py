"""Command inputs: what the UI's forms and the agents' tools hand to the store, validated.

Each field follows the rules in app.domain (`check_name`, `check_text`, ...), so the store
never sees an empty name or a control character; `parse_input` turns a failure into one
sentence for the user. pydantic is imported here and not by the read path, so the first screen
is drawn before it loads (decision 025).
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError

from app.domain import (
    Colour,
    FolderId,
    InvalidInput,
    check_emoji,
    check_lang,
    check_meanings,
    check_name,
    check_text,
)

Name = Annotated[str, AfterValidator(check_name)]
Text = Annotated[str, AfterValidator(check_text)]
Meanings = Annotated[list[str], AfterValidator(check_meanings)]
Emoji = Annotated[str, AfterValidator(check_emoji)]
Lang = Annotated[str, AfterValidator(check_lang)]


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
