"""Durability: log entries, replay after a kill at any point, damage reports and fallbacks."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import hashlib
import json
from collections.abc import Awaitable, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain import FolderId, LexicalError
from app.inputs import NewFolder, NewWord, WordPatch
from app.saving import SaveQueue
from app.store import Changeset, Store, working_copy
from app.store.changes import Change
from app.store.durability import Durability, SnapshotHeader, SnapshotRecord
from app.store.migrations import SCHEMA_VERSION, SchemaTooNewError
from app.store.oplog import CorruptEntryError, decode_entry, encode_entry
from app.store.working_copy import BytesImage
from tests.fake_sleep import Sleeper
from tests.store.helpers import Dump, assert_index_in_sync, dump


class BrowserKilledError(Exception):
    """The browser died in the middle of a write."""


class MemoryBackend:
    """What IndexedDB provides, kept in dicts: each slot's header (an older snapshot is one
    whole record there), the pieces of their data, the log; `appends` records every log write.
    With `writes_left` set, the browser is killed at that write: what is stored stays."""

    def __init__(self) -> None:
        self.snapshots: dict[int, SnapshotHeader] = {}
        self.pieces: dict[tuple[int, int], bytes] = {}
        self.ops: dict[int, str] = {}
        self.appends: list[tuple[int, str]] = []
        self.writes_left: int | None = None
        self.reads: list[str | int] = []  # "headers", or the slot whose data was read
        self.while_writing: Callable[[], Awaitable[None]] | None = None

    def _write(self) -> None:
        if self.writes_left == 0:
            raise BrowserKilledError
        if self.writes_left is not None:
            self.writes_left -= 1

    async def load_headers(self) -> list[SnapshotHeader]:
        self.reads.append("headers")
        return [SnapshotHeader(**h.as_row()) for h in self.snapshots.values()]

    async def load_snapshot(self, slot: int) -> SnapshotRecord | None:
        self.reads.append(slot)
        header = self.snapshots.get(slot)
        if header is None or isinstance(header, SnapshotRecord):
            return header
        data = b"".join(self.pieces.get((slot, i), b"") for i in range(header.pieces))
        return SnapshotRecord.read(header, BytesImage(data))

    async def clear_slot(self, slot: int) -> None:
        self._write()
        self.snapshots.pop(slot, None)
        for key in [k for k in self.pieces if k[0] == slot]:
            del self.pieces[key]

    async def put_piece(self, slot: int, index: int, data: bytes) -> None:
        self._write()
        self.pieces[slot, index] = data
        if self.while_writing is not None:
            await self.while_writing()

    async def put_header(self, header: SnapshotHeader) -> None:
        self._write()
        self.snapshots[header.slot] = header

    async def append_op(self, seq: int, text: str) -> None:
        self._write()
        if seq in self.ops:  # as IndexedDB's add(): the write aborts, the entry stays
            raise LexicalError("The browser could not save (Error: aborted).")
        self.ops[seq] = text
        self.appends.append((seq, text))

    async def ops_after(self, seq: int) -> list[tuple[int, str]]:
        return sorted((s, t) for s, t in self.ops.items() if s > seq)

    async def trim_ops(self, upto_seq: int) -> None:
        self._write()
        for seq in [s for s in self.ops if s <= upto_seq]:
            del self.ops[seq]


def _edit(store: Store, n: int) -> None:
    """Edit number n, one command each: folders, words, a rename and an undo."""
    if n % 5 == 0:
        store.create_folder(NewFolder(name=f"Folder {n}"))
    elif n % 5 == 3:
        word = store.words(store.folders()[-1].id)[-1]
        store.update_word(word.id, WordPatch(notes=f"note {n}"))
    elif n % 5 == 4:
        store.undo()
    else:
        folder = store.folders()[-1]
        store.add_word(NewWord(folder_id=folder.id, term=f"w{n}", meanings=["m"]))


async def _session(
    backend: MemoryBackend, edits: int, every: int
) -> tuple[list[Dump], list[MemoryBackend]]:
    """Run `edits` persisted steps; return the state and the backend after each of them."""
    durability = Durability(backend, snapshot_every=every)
    await durability.boot()
    store = durability.store
    pending: list[Changeset] = []
    store.subscribe(pending.append)
    states, backends = [dump(store)], [copy.deepcopy(backend)]
    for n in range(edits):
        _edit(store, n)
        for changeset in pending:
            await durability.persist(changeset)
            states.append(dump(store))
            backends.append(copy.deepcopy(backend))
        pending.clear()
        # What the save queue does once "Saved" is shown; a kill may come before or after it.
        before = copy.deepcopy(backend.snapshots)
        if durability.snapshot_due:
            await durability.snapshot()
        if backend.snapshots != before:
            states.append(states[-1])
            backends.append(copy.deepcopy(backend))
    return states, backends


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 6), st.data())
def test_a_kill_after_any_edit_reloads_exactly_that_state(every: int, data: st.DataObject) -> None:
    states, backends = asyncio.run(_session(MemoryBackend(), edits=12, every=every))
    cut = data.draw(st.integers(0, len(states) - 1))
    durability = Durability(backends[cut])
    report = asyncio.run(durability.boot())
    killed = backends[cut]
    assert not report.damaged
    assert report.seq == max([0, *killed.ops, *(r.seq for r in killed.snapshots.values())])
    assert dump(durability.store) == states[cut]
    assert_index_in_sync(durability.store)


def test_log_is_trimmed_only_behind_the_older_snapshot() -> None:
    states, backends = asyncio.run(_session(MemoryBackend(), edits=12, every=4))
    last = backends[-1]
    seqs = sorted(r.seq for r in last.snapshots.values())
    assert len(seqs) == 2
    assert min(last.ops) == seqs[0] + 1
    del last.snapshots[max(last.snapshots, key=lambda s: last.snapshots[s].seq)]
    durability = Durability(last)
    asyncio.run(durability.boot())
    assert dump(durability.store) == states[-1]


def test_a_corrupt_entry_stops_replay_at_the_last_good_state() -> None:
    states, backends = asyncio.run(_session(MemoryBackend(), edits=10, every=1000))
    backend = backends[-1]
    backend.ops[6] = backend.ops[6][:-20]  # torn write
    durability = Durability(backend)
    report = asyncio.run(durability.boot())
    assert report.damaged
    assert report.seq == 5
    assert report.replayed == 5
    assert "unreadable" in report.message()
    assert "up to edit 5" in report.message()
    assert dump(durability.store) == states[5]


def test_what_could_not_be_restored_is_kept_for_the_user_to_download() -> None:
    _, backends = asyncio.run(_session(MemoryBackend(), edits=8, every=1000))
    backend = backends[-1]
    backend.ops[6] = '{"seq": 6, "other": 1}'  # a record that is no entry at all
    report = asyncio.run(Durability(backend).boot())
    assert report.seq == 5
    assert [(e.seq, e.text) for e in report.unrestored] == [
        (6, '{"seq": 6, "other": 1}'),
        (7, backend.appends[6][1]),
        (8, backend.appends[7][1]),
    ]
    clean = asyncio.run(Durability(backend).boot())  # the recovery was secured
    assert not clean.damaged
    assert clean.unrestored == []


def test_after_recovery_new_edits_never_mix_with_the_damaged_ones() -> None:
    states, backends = asyncio.run(_session(MemoryBackend(), edits=10, every=1000))
    backend = backends[-1]
    backend.ops[3] = "{not json"
    durability = Durability(backend)
    asyncio.run(durability.boot())
    assert dump(durability.store) == states[2]
    emitted: list[Changeset] = []
    durability.store.subscribe(emitted.append)
    durability.store.create_folder(NewFolder(name="After recovery"))
    asyncio.run(durability.persist(emitted[0]))
    again = Durability(backend)
    report = asyncio.run(again.boot())
    assert not report.damaged
    assert dump(again.store) == dump(durability.store)


def test_a_damaged_newest_snapshot_falls_back_to_the_other_slot() -> None:
    states, backends = asyncio.run(_session(MemoryBackend(), edits=12, every=4))
    backend = backends[-1]
    newest = max(backend.snapshots.values(), key=lambda r: r.seq)
    backend.pieces[newest.slot, 0] = b"garbage" * 100
    durability = Durability(backend)
    report = asyncio.run(durability.boot())
    assert report.damaged
    assert f"edit {newest.seq}" in report.message()
    assert dump(durability.store) == states[-1]
    healed = asyncio.run(backend.load_snapshot(newest.slot))
    assert healed is not None
    assert healed.intact()
    assert healed.seq == max(r.seq for r in backend.snapshots.values())


def test_a_start_reads_the_older_snapshot_only_if_the_newest_is_damaged() -> None:
    states, backends = asyncio.run(_session(MemoryBackend(), edits=12, every=4))
    backend = backends[-1]
    newest, older = sorted(backend.snapshots.values(), key=lambda r: r.seq, reverse=True)
    backend.reads.clear()
    assert not asyncio.run(Durability(backend).boot()).damaged
    assert backend.reads == ["headers", newest.slot]
    backend.pieces[newest.slot, 0] = b"garbage"
    backend.reads.clear()
    durability = Durability(backend)
    asyncio.run(durability.boot())
    assert backend.reads[:3] == ["headers", newest.slot, older.slot]
    assert dump(durability.store) == states[-1]


def test_nothing_readable_is_reported_never_silent() -> None:
    _, backends = asyncio.run(_session(MemoryBackend(), edits=12, every=4))
    backend = backends[-1]
    for slot, record in list(backend.snapshots.items()):
        backend.snapshots[slot] = dataclasses.replace(record, checksum="0" * 64)
    durability = Durability(backend)
    report = asyncio.run(durability.boot())
    assert report.started_empty
    assert report.damaged
    assert report.message().startswith("Nothing could be restored.")


def test_after_a_total_loss_new_work_is_saved_and_restored() -> None:
    _, backends = asyncio.run(_session(MemoryBackend(), edits=12, every=4))
    backend = backends[-1]
    for slot, record in list(backend.snapshots.items()):
        backend.snapshots[slot] = dataclasses.replace(record, checksum="0" * 64)
    for seq in backend.ops:
        backend.ops[seq] = "{torn"
    durability = Durability(backend)
    lost = asyncio.run(durability.boot())
    assert lost.started_empty
    assert lost.unrestored  # told, and offered the raw entries
    emitted: list[Changeset] = []
    durability.store.subscribe(emitted.append)
    durability.store.create_folder(NewFolder(name="Starting over"))
    asyncio.run(durability.persist(emitted[0]))
    again = Durability(backend)
    report = asyncio.run(again.boot())
    assert not report.damaged
    assert [f.name for f in again.store.folders()] == ["Starting over"]


def test_fresh_start_is_not_damage() -> None:
    durability = Durability(MemoryBackend())
    report = asyncio.run(durability.boot())
    assert not report.damaged
    assert report.snapshot_seq is None
    assert report.seq == 0


def test_persist_writes_one_small_entry_whatever_the_database_size() -> None:
    sizes = []
    for words in (0, 3_000):
        backend = MemoryBackend()
        durability = Durability(backend, snapshot_every=1000)
        asyncio.run(durability.boot())
        store = durability.store
        folder = store.create_folder(NewFolder(name="Big")).id
        rows = store.preview_bulk(folder, "\n".join(f"w{i}" for i in range(words))).rows
        store.bulk_add(folder, rows)
        emitted: list[Changeset] = []
        store.subscribe(emitted.append)
        store.create_folder(NewFolder(name="One more"))
        asyncio.run(durability.persist(emitted[0]))
        assert len(backend.appends) == 1
        assert backend.snapshots == {}
        sizes.append(len(backend.appends[0][1]))
    assert sizes[0] == sizes[1] < 1_000


def test_a_snapshot_from_a_newer_app_is_refused_not_overwritten() -> None:
    backend = MemoryBackend()
    store = Store.open()
    store.create_folder(NewFolder(name="x"))
    record = SnapshotRecord.of(0, 1, store)
    raw = bytearray(store.snapshot())
    raw[60:64] = (SCHEMA_VERSION + 1).to_bytes(4, "big")  # user_version in the file header
    backend.snapshots[0] = dataclasses.replace(
        record, data=BytesImage(bytes(raw)), checksum=hashlib.sha256(raw).hexdigest()
    )
    with pytest.raises(SchemaTooNewError):
        asyncio.run(Durability(backend).boot())
    kept = backend.snapshots[0]
    assert isinstance(kept, SnapshotRecord)
    assert kept.data == BytesImage(bytes(raw))


def test_entries_round_trip_and_reject_damage() -> None:
    changeset = Changeset(label="Ünï 🧪", changes=[])
    text = encode_entry(7, changeset)
    assert decode_entry(text) == (7, changeset)
    entry = json.loads(text)
    for broken in (
        text[: len(text) // 2],
        "null",
        "[]",
        json.dumps({**entry, "seq": 8}),
        json.dumps({**entry, "body": entry["body"].replace("Ünï", "Uni")}),
        json.dumps({**entry, "body": "{}", "sum": "x"}),
    ):
        with pytest.raises(CorruptEntryError):
            decode_entry(broken)


def _signed(seq: int, body: object) -> str:
    """An entry whose checksum is right, whatever its body: as if written by hand."""
    text = json.dumps(body)
    checksum = hashlib.sha256(f"{seq}:{text}".encode()).hexdigest()  # as app/store/oplog.py says
    return json.dumps({"seq": seq, "sum": checksum, "body": text})


GOOD_CHANGE = {"table": "folder", "op": "insert", "old": None, "new": {"id": 1, "name": "A"}}


@pytest.mark.parametrize(
    "body",
    [
        [],
        {"changes": []},
        {"label": 1, "changes": []},
        {"label": "x", "changes": {}},
        {"label": "x", "changes": [None]},
        {"label": "x", "changes": [{**GOOD_CHANGE, "table": "sqlite_master"}]},
        {"label": "x", "changes": [{**GOOD_CHANGE, "op": "drop"}]},
        {"label": "x", "changes": [{**GOOD_CHANGE, "new": ["id", 1]}]},
        {"label": "x", "changes": [{**GOOD_CHANGE, "new": {"id": True}}]},
        {"label": "x", "changes": [{**GOOD_CHANGE, "new": {"id": {"nested": 1}}}]},
        {"label": "x", "changes": [{"op": "insert", "new": {"id": 1}}]},
    ],
)
def test_an_entry_of_the_wrong_shape_is_corrupt_even_with_a_right_checksum(body: object) -> None:
    with pytest.raises(CorruptEntryError, match="unknown shape"):
        decode_entry(_signed(3, body))


def test_an_entry_of_the_right_shape_decodes_to_its_changes() -> None:
    seq, changeset = decode_entry(_signed(3, {"label": "Add", "changes": [GOOD_CHANGE]}))
    assert seq == 3
    assert changeset == Changeset(
        label="Add", changes=[Change(table="folder", op="insert", new={"id": 1, "name": "A"})]
    )


def test_store_for_booted_folder_ids_continue() -> None:
    _, backends = asyncio.run(_session(MemoryBackend(), edits=6, every=2))
    durability = Durability(backends[-1])
    asyncio.run(durability.boot())
    before = {f.id for f in durability.store.folders()}
    created = durability.store.create_folder(NewFolder(name="New after boot"))
    assert created.id not in before
    assert created.id > FolderId(0)


def test_a_big_log_entry_triggers_a_snapshot_so_boot_need_not_replay_it() -> None:
    backend = MemoryBackend()
    durability = Durability(backend, snapshot_every=1000, snapshot_bytes=50_000)
    asyncio.run(durability.boot())
    store = durability.store
    emitted: list[Changeset] = []
    store.subscribe(emitted.append)
    folder = store.create_folder(NewFolder(name="Big")).id
    text = "\n".join(f"w{i}" for i in range(2_000))
    store.bulk_add(folder, store.preview_bulk(folder, text).rows)
    for changeset in emitted:
        seq, entry = asyncio.run(durability.persist(changeset))
        assert decode_entry(entry) == (seq, changeset)
    assert backend.snapshots == {}  # the edit is saved before any snapshot is written
    assert durability.snapshot_due
    asyncio.run(durability.snapshot())
    assert len(backend.snapshots) == 1
    rebooted = Durability(backend)
    report = asyncio.run(rebooted.boot())
    assert report.replayed == 0
    assert rebooted.store.word_count(folder) == 2_000


class FlakyBackend(MemoryBackend):
    """Fails the next `fail_appends` log writes and `fail_snapshots` snapshot writes."""

    def __init__(self) -> None:
        super().__init__()
        self.fail_appends = 0
        self.fail_snapshots = 0

    async def append_op(self, seq: int, text: str) -> None:
        if self.fail_appends:
            self.fail_appends -= 1
            raise LexicalError("storage is full")
        await super().append_op(seq, text)

    async def put_piece(self, slot: int, index: int, data: bytes) -> None:
        if self.fail_snapshots:
            self.fail_snapshots -= 1
            raise LexicalError("storage is full")
        await super().put_piece(slot, index, data)


async def _persist_with_retries(durability: Durability, changesets: list[Changeset]) -> None:
    """What the save queue does: the head entry is retried until it is written."""
    for changeset in changesets:
        while True:
            try:
                await durability.persist(changeset)
                break
            except LexicalError:
                continue


def _words_edited(
    backend: MemoryBackend, every: int, *terms: str
) -> tuple[Durability, Store, list[Changeset]]:
    """A booted workspace with one folder holding `terms`, and the changesets not yet saved."""
    durability = Durability(backend, snapshot_every=every)
    asyncio.run(durability.boot())
    store = durability.store
    emitted: list[Changeset] = []
    store.subscribe(emitted.append)
    folder = store.create_folder(NewFolder(name="F")).id
    for term in terms:
        store.add_word(NewWord(folder_id=folder, term=term))
    return durability, store, emitted


def test_a_failed_log_write_retried_leaves_no_gap_in_the_log() -> None:
    backend = FlakyBackend()
    durability, store, emitted = _words_edited(backend, 1000, "cell")
    backend.fail_appends = 2
    asyncio.run(_persist_with_retries(durability, emitted))
    assert sorted(backend.ops) == [1, 2]
    rebooted = Durability(backend)
    report = asyncio.run(rebooted.boot())
    assert not report.damaged
    assert report.replayed == 2
    assert dump(rebooted.store) == dump(store)


def test_a_failed_snapshot_keeps_the_written_entry_and_never_duplicates_it() -> None:
    backend = FlakyBackend()
    durability, store, emitted = _words_edited(backend, 2, "cell", "atom")
    backend.fail_snapshots = 1

    async def snapshot_if_due() -> None:
        if durability.snapshot_due:
            await durability.snapshot()

    async def save(changesets: list[Changeset]) -> None:
        queue = SaveQueue(
            durability.persist, lambda _: None, when_saved=snapshot_if_due, sleep=Sleeper()
        )
        for changeset in changesets:
            queue.push(changeset)
        await queue.flush()

    asyncio.run(save(emitted))
    assert [seq for seq, _ in backend.appends] == [1, 2, 3]
    assert backend.snapshots == {}
    store.add_word(NewWord(folder_id=store.folders()[0].id, term="ion"))
    asyncio.run(save(emitted[3:]))
    assert [seq for seq, _ in backend.appends] == [1, 2, 3, 4]
    assert len(backend.snapshots) == 1  # the failed one was retried after the next edit
    rebooted = Durability(backend)
    asyncio.run(rebooted.boot())
    assert dump(rebooted.store) == dump(store)


def test_a_digest_from_the_backend_stands_in_for_hashing_in_python() -> None:
    store = Store.open()
    store.create_folder(NewFolder(name="F"))
    record = SnapshotRecord.of(0, 1, store)
    assert record.intact()
    assert dataclasses.replace(record, digest=record.checksum).intact()
    assert not dataclasses.replace(record, digest="0" * 64).intact()  # the bytes changed
    assert "digest" not in dataclasses.replace(record, digest=record.checksum).as_row()


def _booted(backend: MemoryBackend) -> Durability:
    durability = Durability(backend)
    report = asyncio.run(durability.boot())
    assert not report.damaged
    return durability


def test_a_kill_at_any_moment_of_a_snapshot_loses_nothing_and_reports_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(working_copy, "PIECE_BYTES", 4096)
    states, backends = asyncio.run(_session(MemoryBackend(), edits=12, every=4))
    saved = backends[-1]
    assert len(saved.snapshots) == 2  # both slots full: one of them is overwritten
    writes = 0
    while True:
        backend = copy.deepcopy(saved)
        writer = _booted(backend)
        backend.writes_left = writes
        try:
            asyncio.run(writer.snapshot())
        except BrowserKilledError:
            pass
        else:
            break
        finally:
            backend.writes_left = None
        # A slot left without its header (emptied, some pieces in) is passed over in silence.
        assert dump(_booted(backend).store) == states[-1]
        writes += 1
    pieces = [len(p) for p in backend.pieces.values()]
    assert writes > 3  # emptying the slot, several pieces, the header
    assert max(pieces) == 4096
    assert len(pieces) == sum(h.pieces for h in backend.snapshots.values())
    assert dump(_booted(backend).store) == states[-1]


def test_a_header_whose_piece_is_missing_is_damage_and_the_other_slot_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(working_copy, "PIECE_BYTES", 4096)
    states, backends = asyncio.run(_session(MemoryBackend(), edits=12, every=4))
    backend = backends[-1]
    newest = max(backend.snapshots.values(), key=lambda r: r.seq)
    assert newest.pieces > 1
    del backend.pieces[newest.slot, 1]
    durability = Durability(backend)
    report = asyncio.run(durability.boot())
    assert f"The saved copy from edit {newest.seq} is damaged." in report.problems
    assert dump(durability.store) == states[-1]


def test_edits_saved_while_a_snapshot_is_written_are_kept_and_count_towards_the_next() -> None:
    backend = MemoryBackend()
    durability, store, emitted = _words_edited(backend, 2, "cell")
    asyncio.run(_persist_with_retries(durability, emitted))
    assert durability.snapshot_due

    async def edit_meanwhile() -> None:
        backend.while_writing = None
        store.add_word(NewWord(folder_id=store.folders()[0].id, term="atom"))
        await durability.persist(emitted[-1])

    backend.while_writing = edit_meanwhile
    asyncio.run(durability.snapshot())
    [header] = backend.snapshots.values()
    assert header.seq == 2  # the database as it was when the snapshot began
    assert durability.seq == 3
    assert not durability.snapshot_due  # one edit since the snapshot of edit 2
    store.add_word(NewWord(folder_id=store.folders()[0].id, term="ion"))
    asyncio.run(durability.persist(emitted[-1]))
    assert durability.snapshot_due
    assert dump(_booted(backend).store) == dump(store)


@pytest.mark.parametrize(
    "damage", [{"seq": "7"}, {"slot": 0.5}, {"length": None}, {"pieces": True}, {"checksum": 7}]
)
def test_a_header_of_the_wrong_types_is_refused_as_it_is_read(damage: dict[str, object]) -> None:
    fields = {"slot": 0, "seq": 7, "schema_version": 1, "length": 10, "checksum": "ab"}
    with pytest.raises(TypeError, match="snapshot header"):
        SnapshotHeader(**{**fields, **damage})  # type: ignore[arg-type]
