"""Encoding of operation-log entries: one changeset per entry, checksummed.

An entry is JSON `{"seq": n, "sum": sha256(seq + body), "body": "<changeset JSON>"}`. The body
is kept as a string so the checksum covers the exact bytes written, and the seq is inside the
checksum so an entry stored under the wrong key is caught too.

The log is replayed before the first screen, which is drawn before pydantic is imported
(decision 025), so a body's shape is checked here by hand: exactly what the `Change` and
`Changeset` types say, nothing looser.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, cast, get_args

from app.domain import LexicalError
from app.store.changes import TABLES, Change, Changeset, Op, Row, Table

_OPS: tuple[Op, ...] = get_args(Op)


class CorruptEntryError(LexicalError):
    """A log entry is torn, altered or not an entry at all."""


def _checksum(seq: int, body: str) -> str:
    return hashlib.sha256(f"{seq}:{body}".encode()).hexdigest()


def encode_entry(seq: int, changeset: Changeset) -> str:
    body = json.dumps(
        {
            "label": changeset.label,
            "changes": [
                {"table": c.table, "op": c.op, "old": c.old, "new": c.new}
                for c in changeset.changes
            ],
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return json.dumps({"seq": seq, "sum": _checksum(seq, body), "body": body})


def decode_entry(text: str) -> tuple[int, Changeset]:
    """Return (seq, changeset) or raise `CorruptEntryError` with what was wrong."""
    try:
        entry = json.loads(text)
        seq, checksum, body = entry["seq"], entry["sum"], entry["body"]
    except (ValueError, TypeError, KeyError) as exc:
        raise CorruptEntryError("A saved edit is unreadable (torn or damaged).") from exc
    if not isinstance(seq, int) or not isinstance(body, str) or checksum != _checksum(seq, body):
        raise CorruptEntryError("A saved edit failed its checksum.")
    try:
        return seq, _changeset(json.loads(body))
    except (ValueError, TypeError, KeyError) as exc:
        raise CorruptEntryError("A saved edit has an unknown shape.") from exc


def _changeset(data: Any) -> Changeset:
    if not isinstance(data, dict) or not isinstance(data["label"], str):
        raise TypeError("not a changeset")
    changes = data["changes"]
    if not isinstance(changes, list):
        raise TypeError("changes must be a list")
    return Changeset(label=data["label"], changes=[_change(c) for c in changes])


def _change(data: Any) -> Change:
    if not isinstance(data, dict) or data["table"] not in TABLES or data["op"] not in _OPS:
        raise ValueError("unknown table or operation")
    return Change(
        table=cast(Table, data["table"]),
        op=cast(Op, data["op"]),
        old=_row(data.get("old")),
        new=_row(data.get("new")),
    )


def _row(data: Any) -> Row | None:
    """A row as the capture triggers write it: column names to SQLite values (no booleans:
    SQLite has none, so a `true` was not written by Lexical)."""
    if data is None:
        return None
    if not isinstance(data, dict) or not all(
        (isinstance(value, int | float | str) and not isinstance(value, bool)) or value is None
        for value in data.values()
    ):
        raise TypeError("a row must map columns to numbers, texts or nulls")
    return cast(Row, data)
