"""Validating untrusted item lists from a whole-file import (a JSON backup, a foreign SQLite
file): counted against their limit, checked in chunks so a big file reports progress, and
refused as a whole with a message naming the first bad item, so a restore never writes half a
file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from app.domain import InvalidInput
from app.inputs import user_message
from app.store.transfer.steps import CHUNK, Progress, Steps

T = TypeVar("T")
ItemT = TypeVar("ItemT", bound=BaseModel)


def check_limit(items: Sequence[Any], limit: int, noun: str, source: str) -> None:
    if len(items) > limit:
        raise InvalidInput(
            f"This {source} has {len(items):,} {noun}; Lexical imports at most {limit:,}."
        )


class _HasGid(Protocol):
    @property
    def gid(self) -> str | None: ...


def check_unique_gids(items: Sequence[_HasGid], noun: str, source: str) -> None:
    """Refuse a file where two items of one kind share a global id: they would be one row
    everywhere else (decision 040), and the second insert would break the unique index."""
    seen: set[str] = set()
    for number, item in enumerate(items, start=1):
        if item.gid is None:
            continue
        if item.gid in seen:
            raise InvalidInput(
                f"This {source} cannot be imported: {noun} {number:,} has the same global id "
                f"as an earlier {noun} ({item.gid})."
            )
        seen.add(item.gid)


def validate_items(
    model: type[ItemT], raw: Sequence[Any], label: str, source: str
) -> Steps[list[ItemT]]:
    """`raw` validated as `model` objects; `label` names one item in messages ("Word")."""
    adapter = TypeAdapter(list[model])  # type: ignore[valid-type]
    return validate_chunks(adapter, model.model_validate, raw, label, source)


def validate_chunks(
    adapter: TypeAdapter[list[T]],
    check_one: Callable[[Any], object],
    raw: Sequence[Any],
    label: str,
    source: str,
) -> Steps[list[T]]:
    """`raw` validated by `adapter` a chunk at a time; when a chunk fails, `check_one` finds
    the first bad item of it so the message can say which and why."""
    checked: list[T] = []
    for start in range(0, len(raw), CHUNK):
        chunk = raw[start : start + CHUNK]
        try:
            checked.extend(adapter.validate_python(chunk))
        except ValidationError:
            _raise_first_error(check_one, chunk, start, label, source)
        yield Progress(f"Checking {label.lower()}s", start + len(chunk), len(raw))
    return checked


def _raise_first_error(
    check_one: Callable[[Any], object],
    chunk: Sequence[Any],
    start: int,
    label: str,
    source: str,
) -> None:
    for offset, item in enumerate(chunk):
        try:
            check_one(item)
        except ValidationError as exc:
            name = _item_name(item)
            raise InvalidInput(
                f"This {source} cannot be imported: {label.lower()} {start + offset + 1:,}"
                f"{name} is not valid: {user_message(exc)}"
            ) from exc


def _item_name(item: Any) -> str:
    if isinstance(item, dict):
        for key in ("name", "term", "title"):
            value = item.get(key)
            if isinstance(value, str) and value.strip():
                shown = value.strip()[:60]
                return f' ("{shown}")'
    return ""
