"""Encoding of operation-log entries: one changeset per entry, checksummed.

An entry is JSON `{"seq": n, "sum": sha256(seq + body), "body": "<changeset JSON>"}`. The body
is kept as a string so the checksum covers the exact bytes written, and the seq is inside the
checksum so an entry stored under the wrong key is caught too.

A body's changes are written as runs: consecutive changes of one table and operation whose rows
have the same columns, the columns named once and each row a list of values
(`{"table", "op", "columns": [old's, new's], "old": [[...], ...], "new": [[...], ...]}`, null
for a side a change has not). Rescheduling 200,000 cards writes a changeset of 200,000 card
updates: as objects with a key per value it took 2.4 s to encode and 8 s to read back in the
page, 131 MB; as runs, about half the time and a third of the bytes (decision 039). Entries
written before runs, a change per object, are read as they always were.

The log is replayed before the first screen, which is drawn before pydantic is imported
(decision 025), so a body's shape is checked here by hand: exactly what the `Change` and
`Changeset` types say, nothing looser.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from itertools import chain, groupby
from typing import Any, cast, get_args

from app.domain import LexicalError
from app.store.changes import TABLES, Change, Changeset, Op, Row, Table

_OPS: tuple[Op, ...] = get_args(Op)
# What a row's values may be: the capture triggers' SQLite values. No booleans: SQLite has
# none, so a `true` was not written by Lexical (`bool` is its own type, so a type test keeps
# it out).
_SCALARS = frozenset((int, float, str, type(None)))


class CorruptEntryError(LexicalError):
    """A log entry is torn, altered or not an entry at all."""


def _checksum(seq: int, body: str) -> str:
    return hashlib.sha256(f"{seq}:{body}".encode()).hexdigest()


def encode_entry(seq: int, changeset: Changeset) -> str:
    body = json.dumps(
        {"label": changeset.label, "changes": [_run(*run) for run in _runs(changeset.changes)]},
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return json.dumps({"seq": seq, "sum": _checksum(seq, body), "body": body})


def _columns(row: Row | None) -> tuple[str, ...] | None:
    return None if row is None else tuple(row)


def _runs(changes: list[Change]) -> groupby[tuple[object, ...], Change]:
    return groupby(changes, lambda c: (c.table, c.op, _columns(c.old), _columns(c.new)))


def _run(key: tuple[object, ...], changes: Iterator[Change]) -> dict[str, object]:
    table, op, old_columns, new_columns = key
    run = list(changes)
    return {
        "table": table,
        "op": op,
        "columns": [old_columns, new_columns],
        # Every change of the run has the side its columns name (`_runs`).
        "old": None
        if old_columns is None
        else [list(c.old.values()) for c in run if c.old is not None],
        "new": None
        if new_columns is None
        else [list(c.new.values()) for c in run if c.new is not None],
    }


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
    return Changeset(
        label=data["label"],
        changes=list(
            chain.from_iterable(_unrun(c) if "columns" in c else [_change(c)] for c in changes)
        ),
    )


def _unrun(data: Any) -> list[Change]:
    """The changes of a run, refusing any that is not one as `_run` writes it."""
    if data["table"] not in TABLES or data["op"] not in _OPS:
        raise ValueError("unknown table or operation")
    old_columns, new_columns = data["columns"]
    olds, news = (
        _rows(data[side], columns) for side, columns in (("old", old_columns), ("new", new_columns))
    )
    if olds is None and news is None:
        raise ValueError("a run without rows")
    if olds is not None and news is not None and len(olds) != len(news):
        raise ValueError("a run's old and new rows differ in number")
    count = len(olds if olds is not None else news or [])
    table, op = cast(Table, data["table"]), cast(Op, data["op"])
    return [
        Change(table, op, None if olds is None else olds[i], None if news is None else news[i])
        for i in range(count)
    ]


def _rows(rows: Any, columns: Any) -> list[Row] | None:
    """One side of a run as rows: None, or lists of SQLite values, one per named column."""
    if rows is None and columns is None:
        return None
    if (
        type(columns) is not list
        or len(set(columns)) != len(columns)
        or not set(map(type, columns)) <= {str}
        or type(rows) is not list
        or not set(map(type, rows)) <= {list}
        or not set(map(len, rows)) <= {len(columns)}
        or not set(map(type, chain.from_iterable(rows))) <= _SCALARS
    ):
        raise TypeError("a run's rows must be lists of values, one per named column")
    return [dict(zip(columns, row, strict=True)) for row in rows]


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
    """A row as the capture triggers write it: column names to SQLite values."""
    if data is None:
        return None
    if not isinstance(data, dict) or not set(map(type, data.values())) <= _SCALARS:
        raise TypeError("a row must map columns to numbers, texts or nulls")
    return cast(Row, data)
