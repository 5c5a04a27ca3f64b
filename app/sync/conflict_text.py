"""Conflicts in words a person can choose between: what changed on two devices, and each value.

A conflict (app/sync/model.py) names a row by global id and holds raw register values: folder
references as global ids, colours as keys, study options as stored JSON. Here each becomes the
row's name and where it is ("Word “perro” in “Spanish”"), the field ("term") and one line per
value ("“perrito”"), read from the document so rows this device has not drawn yet are named too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.sync.model import COLLECTION, DELETED, OPTIONS, Conflict, Document
from app.text.rejected import shown

KIND_NAMES = {"folders": "Folder", "words": "Word", "notes": "Note"}
FIELD_NAMES = {
    "parent": "place",
    "folder": "folder",
    "name": "name",
    "term": "term",
    "title": "title",
    "emoji": "emoji",
    "color": "colour",
    "lang": "language",
    OPTIONS: "study options",
    DELETED: "deletion",
}
# Study options by stored key: how each reads with its value.
OPTION_TEXT: dict[str, Callable[[Any], str]] = {
    "retention": lambda v: f"{round(float(v) * 100)}% retention",
    "new_per_day": lambda v: f"{v} new a day",
    "reviews_per_day": lambda v: f"{v} reviews a day",
    "directions": lambda v: f"directions: {v}",
    "accents_optional": lambda v: "accents optional" if v else "accents required",
    "articles_optional": lambda v: "articles optional" if v else "articles required",
    "day_start_hour": lambda v: f"the day starts at {v}:00",
    "parameters": lambda v: "own FSRS parameters" if v else "FSRS-6's default parameters",
}


@dataclass(frozen=True, slots=True)
class Choice:
    label: str
    value: Any


@dataclass(frozen=True, slots=True)
class DescribedConflict:
    """One conflict to show: `choices[0]` is the value every device shows for now."""

    key: str  # names the conflict in the page's buttons
    conflict: Conflict
    subject: str
    field: str
    choices: tuple[Choice, ...]


def conflict_key(conflict: Conflict) -> str:
    return f"{conflict.root}:{conflict.gid}:{conflict.field}"


def described(doc: Document, conflicts: list[Conflict]) -> list[DescribedConflict]:
    found = []
    for conflict in conflicts:
        values = (conflict.kept, *conflict.others)
        labels = _labels(doc, conflict, values)
        found.append(
            DescribedConflict(
                conflict_key(conflict),
                conflict,
                _subject(doc, conflict),
                FIELD_NAMES.get(conflict.field, conflict.field),
                tuple(Choice(label, value) for label, value in zip(labels, values, strict=True)),
            )
        )
    return found


def _quoted(text: object) -> str:
    # Another device wrote it: bounded and cleaned like any text shown back.
    return f"“{shown(str(text))}”"


def _folder_name(doc: Document, gid: object) -> str:
    state = doc.state("folders", gid) if isinstance(gid, str) else None
    return "a folder not here yet" if state is None else _quoted(state.fields.get("name"))


def _subject(doc: Document, conflict: Conflict) -> str:
    if conflict.root == COLLECTION:
        return "Study options for the whole collection"
    state = doc.state(conflict.root, conflict.gid)
    if state is None:
        return KIND_NAMES[conflict.root]
    if conflict.root == "folders":
        return f"Folder {_quoted(state.fields.get('name'))}"
    name = _quoted(state.fields.get("term" if conflict.root == "words" else "title"))
    folder = _folder_name(doc, state.fields.get("folder"))
    return f"{KIND_NAMES[conflict.root]} {name} in {folder}"


def _labels(doc: Document, conflict: Conflict, values: tuple[Any, ...]) -> list[str]:
    field = conflict.field
    if field == OPTIONS:
        return _option_labels(values, parent=conflict.root != COLLECTION)
    return [_label(doc, field, value) for value in values]


def _label(doc: Document, field: str, value: Any) -> str:
    if field == "parent":
        return "the top level" if value is None else _folder_name(doc, value)
    if field == "folder":
        return _folder_name(doc, value)
    if field == DELETED:
        return "deleted" if value else "not deleted"
    if field == "color":
        return "no colour" if value in (None, "none") else str(value)
    if field in ("emoji", "lang") and not value:
        return f"no {FIELD_NAMES[field]}"
    return _quoted(value) if field in ("name", "term", "title") else str(value)


def _option_labels(values: tuple[Any, ...], *, parent: bool) -> list[str]:
    """Each version of the options by what sets it apart from the others."""
    parsed = [_options(value) for value in values]
    keys = sorted({key for options in parsed if options for key in options})
    differing = [key for key in keys if len({json.dumps(o.get(key)) for o in parsed if o}) > 1]
    labels = []
    for options in parsed:
        if options is None:
            labels.append("the parent folder's options" if parent else "the defaults")
            continue
        parts = [
            OPTION_TEXT[key](options[key]) if key in OPTION_TEXT else f"{key}: {options[key]}"
            for key in differing
            if key in options
        ]
        labels.append(", ".join(parts) or "options of its own")
    return labels


def _options(value: Any) -> dict[str, Any] | None:
    try:
        parsed = json.loads(value) if isinstance(value, str) else None
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None
