"""Encoding of operation-log entries: one changeset per entry, checksummed.

An entry is JSON `{"seq": n, "sum": sha256(seq + body), "body": "<changeset JSON>"}`. The body
is kept as a string so the checksum covers the exact bytes written, and the seq is inside the
checksum so an entry stored under the wrong key is caught too.
"""

from __future__ import annotations

import hashlib
import json

from pydantic import ValidationError

from app.domain import LexicalError
from app.store.changes import Changeset


class CorruptEntryError(LexicalError):
    """A log entry is torn, altered or not an entry at all."""


def _checksum(seq: int, body: str) -> str:
    return hashlib.sha256(f"{seq}:{body}".encode()).hexdigest()


def encode_entry(seq: int, changeset: Changeset) -> str:
    body = changeset.model_dump_json()
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
        return seq, Changeset.model_validate_json(body)
    except ValidationError as exc:
        raise CorruptEntryError("A saved edit has an unknown shape.") from exc
