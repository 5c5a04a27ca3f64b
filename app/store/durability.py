"""Durability: two alternating snapshots plus an append-only operation log.

The browser supplies the storage (IndexedDB) through `DurableBackend`; the logic lives here so it
is tested under CPython. Each edit costs one small log append whatever the database size. Every
`snapshot_every` edits the whole database is written into the OLDER of two slots, and the log is
trimmed only up to the other slot's seq, so a damaged newest snapshot can always fall back to
the previous one plus the log. Boot never silently starts empty: every problem is reported.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import asdict, dataclass, field, fields
from typing import Protocol

from app.domain import LexicalError
from app.store import Store
from app.store.changes import Changeset
from app.store.oplog import CorruptEntryError, decode_entry, encode_entry
from app.store.working_copy import BytesImage, Image, WorkingCopies, piece_count, sha256_hex

SLOTS = (0, 1)
SNAPSHOT_EVERY = 200  # edits between snapshots
SNAPSHOT_BYTES = 1_000_000  # logged bytes between snapshots


@dataclass(frozen=True, kw_only=True)
class SnapshotHeader:
    """What marks a slot complete: written after every piece of its data is in."""

    slot: int
    seq: int  # the last log entry contained in this snapshot
    schema_version: int
    length: int
    checksum: str
    pieces: int = 1  # how many pieces the data was written in (older snapshots: one, inline)

    def __post_init__(self) -> None:
        # Read back from storage that may be damaged: a wrong type is refused here, before
        # anything trusts it.
        for name in ("slot", "seq", "schema_version", "length", "pieces"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"snapshot header: {name} must be a whole number")
        if not isinstance(self.checksum, str):
            raise TypeError("snapshot header: checksum must be text")

    def as_row(self) -> dict[str, int | str]:
        """The header's own fields, as stored (a record's data and digest are not)."""
        return {f.name: getattr(self, f.name) for f in fields(SnapshotHeader)}


@dataclass(frozen=True, kw_only=True)
class SnapshotRecord(SnapshotHeader):
    """A snapshot as read back: its header and all of its data."""

    data: Image
    # sha256 of `data` as the backend that read it computed it, when it can do so faster than
    # Python (the browser hashes natively: 65 ms instead of 185 ms for 56 MB). Never stored.
    digest: str | None = None

    @classmethod
    def read(cls, header: SnapshotHeader, data: Image, digest: str | None = None) -> SnapshotRecord:
        """The record of a slot whose header and data were read back."""
        return cls(
            slot=header.slot,
            seq=header.seq,
            schema_version=header.schema_version,
            length=header.length,
            checksum=header.checksum,
            pieces=header.pieces,
            data=data,
            digest=digest,
        )

    @classmethod
    def of(cls, slot: int, seq: int, store: Store) -> SnapshotRecord:
        data = store.snapshot()
        return cls(
            slot=slot,
            seq=seq,
            schema_version=store.schema_version,
            length=len(data),
            checksum=hashlib.sha256(data).hexdigest(),
            data=BytesImage(data),
        )

    def intact(self) -> bool:
        if self.data.length != self.length:
            return False
        return (self.digest or sha256_hex(self.data)) == self.checksum


class DurableBackend(Protocol):
    """Persistent storage for snapshots and log entries (IndexedDB in the browser).

    A snapshot is written as `clear_slot`, then `put_piece` for each piece of its data in
    order, then `put_header`; each is committed before the next begins. `load_headers`
    returns the header of each slot that has one; `load_snapshot` a slot's header and its
    pieces joined in order, read together (None if the slot has no header; a missing piece
    leaves the data short, which `intact` notices).
    """

    async def load_headers(self) -> list[SnapshotHeader]: ...
    async def load_snapshot(self, slot: int) -> SnapshotRecord | None: ...
    async def clear_slot(self, slot: int) -> None: ...
    async def put_piece(self, slot: int, index: int, data: bytes) -> None: ...
    async def put_header(self, header: SnapshotHeader) -> None: ...
    async def append_op(self, seq: int, text: str) -> None: ...
    async def ops_after(self, seq: int) -> list[tuple[int, str]]: ...
    async def trim_ops(self, upto_seq: int) -> None: ...


@dataclass(frozen=True)
class LogEntry:
    """One operation-log entry as stored, readable or not."""

    seq: int
    text: str


@dataclass(frozen=True)
class BootReport:
    """What a start loaded, replayed and could not restore, told to the user if damaged."""

    snapshot_seq: int | None  # which snapshot was used (None: started from an empty database)
    replayed: int  # edits replayed from the log on top of it
    seq: int  # the last edit now contained in the workspace
    problems: list[str]  # what was damaged and skipped, in plain words
    started_empty: bool  # saved data existed but none of it could be read
    # The log from the first entry that failed: the user's to keep.
    unrestored: list[LogEntry] = field(default_factory=list)

    @property
    def damaged(self) -> bool:
        return bool(self.problems)

    def unrestored_json(self) -> bytes:
        """The entries that could not be restored, as they were stored, for the user to keep."""
        return json.dumps(
            {"lexical": "unrestored edits", "entries": [asdict(e) for e in self.unrestored]},
            ensure_ascii=False,
            indent=1,
        ).encode()

    def message(self) -> str:
        if not self.damaged:
            return f"Restored your workspace ({self.seq:,} edits)."
        kept = (
            "Nothing could be restored."
            if self.started_empty
            else (f"Your workspace was restored up to edit {self.seq:,}.")
        )
        return f"{kept} {' '.join(self.problems)}"


class Durability:
    def __init__(
        self,
        backend: DurableBackend,
        *,
        copies: WorkingCopies | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        snapshot_bytes: int = SNAPSHOT_BYTES,
    ) -> None:
        self._backend = backend
        self._copies = copies or WorkingCopies()
        self._every = snapshot_every
        # A big log (a bulk paste writes every row into one entry) makes boot replay slow:
        # past this many logged bytes a snapshot is cheaper than replaying them next time.
        self._max_bytes = snapshot_bytes
        self._bytes_since_snapshot = 0
        self._store: Store | None = None
        self._seq = 0
        self._since_snapshot = 0
        self._slot_seq = dict.fromkeys(SLOTS, -1)  # -1: empty or damaged, overwrite first

    @property
    def store(self) -> Store:
        if self._store is None:
            raise LexicalError("The workspace has not been loaded yet.")
        return self._store

    @property
    def seq(self) -> int:
        return self._seq

    async def boot(self) -> BootReport:
        """Load the newest readable snapshot, replay the log after it and report."""
        problems: list[str] = []
        headers = await self._backend.load_headers()
        store, snapshot_seq = await self._newest_snapshot(headers, problems)
        base = snapshot_seq or 0
        ops = await self._backend.ops_after(base)
        self._seq = base + _replay(store, base, ops, problems)
        self._store = store
        report = BootReport(
            snapshot_seq=snapshot_seq,
            replayed=self._seq - base,
            seq=self._seq,
            problems=problems,
            started_empty=bool(problems) and self._seq == 0,
            unrestored=[LogEntry(seq=seq, text=text) for seq, text in ops if seq > self._seq],
        )
        if problems:
            # Secure what was recovered now (even nothing, after a total loss) in both slots,
            # numbered past every damaged entry and copy: none is ever replayed on top of newer
            # edits or taken for newer than this, the next edit's entry has a free place, and
            # the damage (reported once, here) is not reported again at every start.
            damaged = [h.seq + 1 for h in headers if h.seq > self._seq]
            self._seq = max([self._seq, *(seq for seq, _ in ops), *damaged])
            for _slot in SLOTS:
                await self.snapshot()
        return report

    async def _newest_snapshot(
        self, headers: list[SnapshotHeader], problems: list[str]
    ) -> tuple[Store, int | None]:
        """Open the newest snapshot that is intact; the older slot is read only if the newest
        is damaged. Not reading it otherwise halves what a start reads and holds in memory (the
        database once, not twice); if it is damaged, it is the next to be overwritten anyway,
        and a start that needs it checks it then."""
        chosen: tuple[Store, int] | None = None
        for header in sorted(headers, key=lambda h: h.seq, reverse=True):
            if chosen is not None:
                self._slot_seq[header.slot] = header.seq
                continue
            record = await self._backend.load_snapshot(header.slot)
            store = self._open(record) if record is not None else None
            if record is None or store is None:
                problems.append(f"The saved copy from edit {header.seq:,} is damaged.")
                continue
            chosen = (store, record.seq)
            self._slot_seq[record.slot] = record.seq
        return chosen if chosen is not None else (self._copies.new(), None)

    def _open(self, record: SnapshotRecord) -> Store | None:
        """A store from `record`, or None if it is damaged. A too-new schema is not damage: that
        error propagates so the data is never overwritten by an older app."""
        if not record.intact():
            record.data.close()
            return None
        try:
            store = self._copies.open(record.data)
        except sqlite3.Error:
            return None
        if store.quick_check():
            return store
        self._copies.discard(store)
        return None

    def close(self) -> None:
        """Let go of the workspace (its working copy is deleted)."""
        if self._store is not None:
            self._copies.discard(self._store)
            self._store = None

    async def persist(self, changeset: Changeset) -> tuple[int, str]:
        """Append one log entry for `changeset`; returns its seq and the entry as written
        (other tabs are sent the same text, so it is encoded only once). Once this returns the
        edit is durable; a snapshot that falls due (`snapshot_due`) is left to the caller, so
        that writing the whole database never delays "Saved"."""
        # The seq is taken only once the entry is written: a failed write that the save queue
        # retries must reuse it, or the log would have a gap that boot reads as damage.
        seq = self._seq + 1
        entry = encode_entry(seq, changeset)
        await self._backend.append_op(seq, entry)
        self._seq = seq
        self._since_snapshot += 1
        self._bytes_since_snapshot += len(entry)
        return seq, entry

    @property
    def snapshot_due(self) -> bool:
        """Enough edits or logged bytes have piled up since the last snapshot."""
        return self._since_snapshot >= self._every or self._bytes_since_snapshot >= self._max_bytes

    async def snapshot(self) -> None:
        """Write the whole database into the older slot, then trim the log behind the other.

        Only the copy of the database is taken in one go (it must be of one moment); it is
        then hashed and written a piece at a time, each piece its own transaction, so the page
        stays responsive and edits are saved meanwhile. The older slot is emptied first and
        its header comes last: a crash part way leaves no header there, and the other slot
        plus the log restore everything."""
        slot = min(SLOTS, key=lambda s: self._slot_seq[s])
        seq, edits, logged = self._seq, self._since_snapshot, self._bytes_since_snapshot
        image = self._copies.image(self.store)
        try:
            schema_version = self.store.schema_version
            self._slot_seq[slot] = -1  # emptied from now on: the slot to overwrite next time
            await self._backend.clear_slot(slot)
            checksum = hashlib.sha256()
            pieces = piece_count(image)
            for index in range(pieces):
                piece = image.piece(index)
                checksum.update(piece)
                await self._backend.put_piece(slot, index, piece)
        finally:
            image.close()
        header = SnapshotHeader(
            slot=slot,
            seq=seq,
            schema_version=schema_version,
            length=image.length,
            checksum=checksum.hexdigest(),
            pieces=pieces,
        )
        await self._backend.put_header(header)
        self._slot_seq[slot] = seq
        # Edits saved while the pieces were written are not in this snapshot: they count
        # towards the next one.
        self._since_snapshot -= edits
        self._bytes_since_snapshot -= logged
        older = self._slot_seq[1 - slot]
        if older > 0:
            await self._backend.trim_ops(older)


def _replay(store: Store, base: int, ops: list[tuple[int, str]], problems: list[str]) -> int:
    """Apply consecutive entries after `base`; stop at the first gap or bad entry."""
    count = 0
    for seq, text in sorted(ops):
        expected = base + count + 1
        try:
            if seq != expected:
                raise LexicalError(f"Edit {expected:,} is missing.")
            entry_seq, changeset = decode_entry(text)
            if entry_seq != seq:
                raise CorruptEntryError(f"Edit {seq:,} is stored in the wrong place.")
            store.apply_logged(changeset.changes)
        except (LexicalError, ValueError, sqlite3.Error) as exc:
            reason = (
                exc.message if isinstance(exc, LexicalError) else "An edit could not be applied."
            )
            problems.append(f"{reason} Edits after {expected - 1:,} were not restored.")
            break
        count += 1
    return count
