"""The sync adapter: local changesets into the document, the document's changes into the store.

Local: each changeset the store's listeners receive becomes writes to the document, row by row
and field by field (app/sync/model.py), in one transaction, so one update goes out.
Remote: the rows an update touched are written to the database as the document now resolves
them, through `Store.apply_remote` (the ordinary `apply()`), so they are saved, logged and
followed by a second tab like any edit. What that writes is not sent back (no echo), and rows
that already read as the document says are not written at all. The adapter keeps its reads of
the document and reads again only what an update touched or this device wrote; an update of
many rows (a first sync) is written a piece at a time (`flush_steps`, decision 044).

The database is a function of the document: a folder is shown if it is not deleted and its
parent is shown (a cycle of moves made apart is broken the same way everywhere: the folder of
the cycle whose move is oldest goes to the top level); a word or note if its folder is shown;
a card, in each direction, is the replay of the word's live reviews, in order of when they were
given. A row deleted along with its container (a folder's words, a word's reviews) is not
tombstoned itself: it is hidden while its container is, so what another device moved out of
the folder meanwhile stays, and undoing the delete brings everything back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Container, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.store import Store
from app.store.changes import Change, Changeset, Table
from app.store.study_queries import COLLECTION as COLLECTION_ROW
from app.store.words import meanings_json
from app.study.days import Moment
from app.study.fast_replay import fast_replayed
from app.study.model import CardState, Direction, Progress, Rating, card_seed
from app.study.options import DEFAULT_OPTIONS
from app.studying.reschedule import rescheduled_after_moves, rescheduled_by
from app.sync.engine import Engine, Touched
from app.sync.model import (
    COLLECTION,
    KINDS,
    OPTIONS,
    REVIEWS,
    Conflict,
    Document,
    Kind,
    RowState,
)

Row = dict[str, Any]
TABLE_OF: dict[Kind, Table] = {"folders": "folder", "words": "word", "notes": "note"}
KIND_OF: dict[str, Kind] = {table: kind for kind, table in TABLE_OF.items()}
ROOT_KIND: dict[str, Kind] = {kind: kind for kind in KINDS}
# Rows read or written per step of `flush_steps`: a piece takes a few ms in the page, so a
# 20 ms slice holds several and no task nears 50 ms.
PIECE = 100
# `start_steps` reports progress in thousandths: putting the rows in is the first 30 %.
PROGRESS, PUBLISHED = 1000, 300
READ_BATCH = 500  # rows read from the document in one call (one JSON text each way in the page)
REVIEW_FIELDS = ("rating", "reviewed_at", "study_day", "duration_ms", "mode")
SCHEDULE = ("state", "step", "stability", "difficulty", "due", "last_review")
# Each card's live reviews, (word's global id, direction): [(when, review's global id, record)].
_CardLogs = dict[tuple[str, str], list[tuple[int, str, dict[str, Any]]]]
LABEL = "Synced"


@dataclass
class _Lookup:
    """Local ids to rows, from the changeset first (rows it deleted are gone from the
    database), then from the database."""

    store: Store
    rows: dict[tuple[Table, object], Row] = field(default_factory=dict)

    def add(self, changes: Iterable[Change]) -> None:
        for change in changes:
            for row in (change.old, change.new):
                if row is not None:
                    self.rows[(change.table, row.get("id"))] = dict(row)

    def get(self, table: Table, row_id: object) -> Row | None:
        if row_id is None:
            return None
        key = (table, row_id)
        if key not in self.rows:
            found = self.store.synced.row(table, row_id)
            if found is None:
                return None
            self.rows[key] = found
        return self.rows[key]

    def gid(self, table: Table, row_id: object) -> str | None:
        row = self.get(table, row_id)
        return None if row is None else str(row["gid"])


class SyncAdapter:
    """Keeps one store and one document in step; `engine` is Yjs in the page, pycrdt in tests."""

    def __init__(self, store: Store, engine: Engine) -> None:
        self.store = store
        self.doc = Document(engine)
        self._applying = False
        self._pending: Touched = set()
        self._reads = _Reads()
        self._held = False
        self._big: Callable[[], None] | None = None
        # Kept from the reads a flush makes anyway, so they cost no extra pass over the document.
        self._conflicts: tuple[Conflict, ...] = ()
        self._conflict_listeners: list[Callable[[], None]] = []
        self._unsubscribe = store.subscribe(self._publish)
        engine.on_remote_change(self._remote)

    def start(self) -> None:
        """`start_steps` at once (the tests; the page runs it in slices)."""
        for _ in self.start_steps():
            pass

    def start_steps(self) -> Generator[tuple[int, int], None, None]:
        """Pair: put every local row the document lacks into it, then take in everything it
        has that this database lacks, yielding (done, of) after each small piece, so that
        pairing a device that holds 100,000 words never holds the page (it was one task of
        35 s). Each piece of rows goes in as its own transaction, so as its own update to the
        server. Remote updates meanwhile wait (`hold`): the last steps write them too."""
        self._held = True
        changes = [
            Change(table, "insert", None, row)
            for table in ("folder", "word", "note", "review")
            for row in self.store.synced.rows(table).values()
        ]
        changes += [
            Change("study_options", "insert", None, r) for r in self.store.synced.options().values()
        ]
        yield 0, PROGRESS
        for begin in range(0, len(changes), PIECE):
            piece = changes[begin : begin + PIECE]
            self._publish(Changeset("Pair", piece), present=self._present(piece))
            yield (begin + len(piece)) * PUBLISHED // len(changes), PROGRESS
        self._reads.begin(self.doc)
        self._pending |= self._reads.every_key(self.doc)
        for done, of in self.flush_steps():
            yield PUBLISHED + done * (PROGRESS - PUBLISHED) // max(1, of), PROGRESS
        self._held = False

    def _present(self, piece: list[Change]) -> set[tuple[str, str]]:
        """The rows of `piece` the document has already (kept on this device, or another
        device's): they are not written again. Read now, a piece at a time, so a row that came
        from the server since the pairing began is not overwritten by this device's copy."""
        present: set[tuple[str, str]] = set()
        for kind, table in TABLE_OF.items():
            gids = [str(c.new["gid"]) for c in piece if c.table == table and c.new]
            present |= {(kind, s.gid) for s in self.doc.states(kind, gids) if s is not None}
        gids = [str(c.new["gid"]) for c in piece if c.table == "review" and c.new]
        records = self.doc.reviews_of(gids)
        present |= {(REVIEWS, gid) for gid, r in zip(gids, records, strict=True) if r is not None}
        return present

    def close(self) -> None:
        self._unsubscribe()

    def conflicts(self) -> list[Conflict]:
        """Fields two devices changed while apart, on every device alike."""
        return list(self._conflicts)

    def on_conflicts(self, listener: Callable[[], None]) -> None:
        """Call `listener` whenever the conflicts change (found, or settled here or elsewhere)."""
        self._conflict_listeners.append(listener)

    def keep(self, conflict: Conflict, value: object) -> None:
        """Settle a conflict with one of its values ("keep this / that"): written again, it
        replaces every write this device has seen, so once the update reaches the others the
        field holds one value everywhere."""
        with self.doc.engine.transaction():
            self.doc.settle(conflict, value)
        self._recheck()
        self.flush()

    def _found(self, conflicts: Iterable[Conflict]) -> None:
        found = tuple(sorted(conflicts, key=lambda c: (c.root, c.gid, c.field)))
        if found != self._conflicts:
            self._conflicts = found
            for listener in self._conflict_listeners:
                listener()

    def _recheck(self) -> None:
        """Read again the rows in conflict: a local write can settle a conflict, never make one."""
        if not self._conflicts:
            return
        found: list[Conflict] = []
        for root, gid in dict.fromkeys((c.root, c.gid) for c in self._conflicts):
            kind = ROOT_KIND.get(root)
            if kind is None:
                found += self.doc.collection_conflicts()
            elif (state := self.doc.state(kind, gid)) is not None:
                found += state.conflicts
        self._found(found)

    # --- local changes into the document ------------------------------------------------------

    def _publish(self, changeset: Changeset, *, present: Container[tuple[str, str]] = ()) -> None:
        if self._applying:
            return  # what the document just said: sending it back would echo
        lookup = _Lookup(self.store)
        lookup.add(changeset.changes)
        deleted = {
            (c.table, (c.old or {}).get("id")) for c in changeset.changes if c.op == "delete"
        }
        # Options last: they ride on their folder's row, which the same changeset may make.
        ordered = sorted(changeset.changes, key=lambda c: c.table == "study_options")
        with self.doc.engine.transaction():
            for change in ordered:
                if change.table in KIND_OF:
                    self._publish_row(KIND_OF[change.table], change, lookup, deleted, present)
                elif change.table == "review":
                    self._publish_review(change, lookup, deleted, present)
                elif change.table == "study_options":
                    self._publish_options(change, lookup, deleted)
        self._recheck()

    def _publish_row(
        self,
        kind: Kind,
        change: Change,
        lookup: _Lookup,
        deleted: set[tuple[Table, Any]],
        present: Container[tuple[str, str]],
    ) -> None:
        row = change.new if change.new is not None else change.old
        assert row is not None
        gid = str(row["gid"])
        if (kind, gid) in present:
            return
        if change.new is None:
            container = ("folder", row.get("parent_id" if kind == "folders" else "folder_id"))
            if container not in deleted:
                self.doc.delete(kind, gid)
            return
        before = None if change.old is None else _values(kind, change.old, lookup)
        self.doc.put(kind, gid, _values(kind, change.new, lookup), before)

    def _publish_review(
        self,
        change: Change,
        lookup: _Lookup,
        deleted: set[tuple[Table, Any]],
        present: Container[tuple[str, str]],
    ) -> None:
        if change.op == "update":
            return  # only the schedule it kept changed, which follows from the log
        row = change.new if change.new is not None else change.old
        assert row is not None
        gid = str(row["gid"])
        if (REVIEWS, gid) in present:
            return
        card = lookup.get("card", row["card_id"])
        word = None if card is None else lookup.get("word", card["word_id"])
        if card is None or word is None:
            return
        if change.new is None and ("word", word["id"]) in deleted:
            return  # gone with its word: hidden while the word is deleted
        record = {name: row[name] for name in REVIEW_FIELDS}
        record |= {
            "word": word["gid"],
            "direction": card["direction"],
            "deleted": change.new is None,
        }
        self.doc.put_review(gid, record)

    def _publish_options(
        self, change: Change, lookup: _Lookup, deleted: set[tuple[Table, Any]]
    ) -> None:
        row = change.new if change.new is not None else change.old
        assert row is not None
        if row["id"] == COLLECTION_ROW:
            self.doc.set_options(None, _options_text(change))
            return
        if ("folder", row["id"]) in deleted:
            return
        folder = lookup.gid("folder", row["id"])
        if folder is not None:
            self.doc.set_options(folder, _options_text(change))

    # --- the document's changes into the store ------------------------------------------------

    def _remote(self, touched: Touched) -> None:
        self._pending |= touched
        if self._held:
            return
        if self._big is not None and self.big():
            self._held = True
            self._big()
        else:
            self.flush()

    def flush(self, *, everything: bool = False) -> None:
        """Write what the document says to the database: everything, or what the updates
        since the last flush touched and what this device wrote meanwhile (the reads kept of
        those rows are stale). Waits while a step is open (an agent turn): its changes would
        join the step, and the step's undo would take them back."""
        if self.store.busy:
            return
        touched = self._pending | self.doc.take_written()
        if not touched and not everything:
            return
        self._pending = set()
        if everything or not self._reads.loaded:
            self._reads.read_all(self.doc)
            wanted = None
        else:
            wanted = self._reads.wanted(self._reads.refresh(self.doc, touched))
        self._found(self._reads.conflicts(self.doc))
        self._write(wanted)

    def big(self) -> bool:
        """The updates waiting are many rows (a first sync): write them with `flush_steps`,
        a piece at a time, rather than in one go."""
        return self._reads.loaded and len(self._pending) > PIECE

    def on_big(self, callback: Callable[[], None]) -> None:
        """When an update brings many rows, hold and call `callback` instead of writing them
        at once: it is to run `flush_steps`, then `resume()`."""
        self._big = callback

    def hold(self, held: bool) -> None:
        """While held, remote updates only wait (`flush_steps` is writing them)."""
        self._held = held

    def resume(self) -> None:
        """After steps run in slices: let go, and write what came meanwhile, in steps again
        (`on_big`) when it is many rows."""
        self._held = False
        self._remote(set())

    def flush_steps(self) -> Generator[tuple[int, int], None, None]:
        """What `flush` does, yielding (rows done, rows in all) after each small piece, so the
        page can run it in slices (app/browser/slices.py) and stay responsive during a first
        sync. Edits made on this device between pieces are published as usual and read again
        before the next piece; updates that arrive meanwhile wait for the next flush."""
        while self.store.busy:
            yield 0, 0
        touched = sorted(self._pending | self.doc.take_written())
        self._pending = set()
        total = len(touched)
        affected = _Affected({kind: set() for kind in KINDS}, set())
        for start in range(0, total, PIECE):
            self._reads.refresh(self.doc, set(touched[start : start + PIECE]), affected)
            yield start, 2 * total
        pieces = _pieces(self._reads.wanted(affected))
        self._found(self._reads.conflicts(self.doc))
        for index, piece in enumerate(pieces):
            while self.store.busy:
                yield total, 2 * total
            # Rows written here since the last piece: read again, and written next flush.
            written = self.doc.take_written()
            self._reads.refresh(self.doc, written, affected)
            self._pending |= written
            # Folders are compared in the first piece, deleted in the last: in between their
            # ids are all a piece needs.
            self._write(piece, first=index == 0, last=index == len(pieces) - 1)
            yield total + min(total, (index + 1) * PIECE), 2 * total

    def _write(
        self, wanted: dict[Kind, set[str]] | None, *, first: bool = True, last: bool = True
    ) -> None:
        self._applying = True
        try:
            materializer = _Materializer(
                self.store, self._reads, wanted, folder_rows=first or last, folder_deletes=last
            )
            changes = materializer.rows()
            if changes:
                # With what the triggers wrote too (a moved word's cards), so that cards a move
                # or other options now schedule otherwise are replayed, as after a local move.
                written = self.store.apply_remote(changes, LABEL)
                rescheduled_by(self.store, written)
                rescheduled_after_moves(self.store, written)
            study = materializer.reviews()
            if study:
                self.store.apply_remote(study, LABEL)
        finally:
            self._applying = False


def _pieces(wanted: dict[Kind, set[str]]) -> list[dict[Kind, set[str]]]:
    """`wanted` in pieces of about PIECE words and notes; every piece has all the folders
    (their rows first, their deletes in the last piece, after their contents')."""
    contents: tuple[Kind, ...] = ("words", "notes")
    rows = [(kind, gid) for kind in contents for gid in sorted(wanted[kind])]
    pieces = []
    for start in range(0, max(1, len(rows)), PIECE):
        piece: dict[Kind, set[str]] = {"folders": wanted["folders"], "words": set(), "notes": set()}
        for kind, gid in rows[start : start + PIECE]:
            piece[kind].add(gid)
        pieces.append(piece)
    return pieces


def _options_text(change: Change) -> str | None:
    value = None if change.new is None else change.new.get("options")
    return value if isinstance(value, str) else None


def _values(kind: Kind, row: Mapping[str, Any], lookup: _Lookup) -> Row:
    """A local row as the document's fields: references as global ids."""
    if kind == "folders":
        return {
            "parent": lookup.gid("folder", row["parent_id"]),
            **{
                name: row[name]
                for name in ("name", "emoji", "color", "lang", "created_at", "updated_at")
            },
        }
    common = {
        "folder": lookup.gid("folder", row["folder_id"]),
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }
    if kind == "words":
        seed = row["seed"] if row["seed"] is not None else str(row["id"])
        return {
            **common,
            **{name: row[name] for name in ("term", "color", "lang", "notes")},
            "seed": seed,
            "meanings": json.loads(str(row["meanings"])),
        }
    return {**common, "title": row["title"], "body": row["body"]}


@dataclass
class _Affected:
    """What a flush must look at again: rows an update touched or this device wrote, and the
    words whose reviews changed."""

    rows: dict[Kind, set[str]]
    reviewed: set[str]


@dataclass
class _Reads:
    """The document as last read: every row's state, every review's record, whose reviews are
    each word's, and the folders shown. A flush reads again only the rows an update touched,
    since each read crosses into JavaScript in the page (a whole read of 10,000 words and
    100,000 reviews took 3.6 s in CPython, 2026-12-07)."""

    states: dict[Kind, dict[str, RowState]] = field(default_factory=dict)
    reviews: dict[str, dict[str, Any]] = field(default_factory=dict)
    of_word: dict[str, set[str]] = field(default_factory=dict)
    shown: dict[str, tuple[str | None, int]] = field(default_factory=dict)
    collection_options: str | None = None
    loaded: bool = False  # read whole once: before that, every flush reads everything

    def read_all(self, doc: Document) -> None:
        self.begin(doc)
        self._read(doc, list(self.every_key(doc)))
        self.shown = _shown_folders(self.states["folders"])

    def begin(self, doc: Document) -> None:
        """Loaded, with nothing read yet: the rows are read by the flush that follows."""
        self.loaded = True
        self.collection_options = doc.collection_options()
        self.states = {kind: {} for kind in KINDS}
        self.reviews, self.of_word, self.shown = {}, {}, {}

    @staticmethod
    def every_key(doc: Document) -> set[tuple[str, str]]:
        """Every row of the document, as an update touching all of them would report it."""
        keys: set[tuple[str, str]] = {(k, gid) for k in KINDS for gid in doc.gids(k)}
        keys |= {(REVIEWS, gid) for gid in doc.reviews.names()}
        return keys | {(COLLECTION, OPTIONS)}

    def refresh(
        self, doc: Document, touched: Iterable[tuple[str, str]], into: _Affected | None = None
    ) -> _Affected:
        affected = into or _Affected({kind: set() for kind in KINDS}, set())
        touched = list(touched)
        for root, key in touched:
            kind = ROOT_KIND.get(root)
            if kind is not None:
                affected.rows[kind].add(key)
            elif root == COLLECTION:
                self.collection_options = doc.collection_options()
            elif root == REVIEWS and (old := self.reviews.get(key)) is not None:
                affected.reviewed.add(str(old["word"]))
        for record in self._read(doc, touched):
            affected.reviewed.add(str(record["word"]))
        return affected

    def _read(self, doc: Document, rows: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
        """Read `rows` (root, key) again, a batch of each root at a time; returns the review
        records found."""
        found: list[dict[str, Any]] = []
        by_root: dict[str, list[str]] = {}
        for root, key in rows:
            by_root.setdefault(root, []).append(key)
        for root in (*KINDS, REVIEWS):
            keys = by_root.get(root, [])
            for start in range(0, len(keys), READ_BATCH):
                batch = keys[start : start + READ_BATCH]
                if root == REVIEWS:
                    for gid, record in zip(batch, doc.reviews_of(batch), strict=True):
                        self._put_review(gid, record)
                        if record is not None:
                            found.append(record)
                    continue
                kind = ROOT_KIND[root]
                for gid, state in zip(batch, doc.states(kind, batch), strict=True):
                    if state is None:
                        self.states[kind].pop(gid, None)
                    else:
                        self.states[kind][gid] = state
        return found

    def _put_review(self, gid: str, record: dict[str, Any] | None) -> None:
        old = self.reviews.pop(gid, None)
        if old is not None:
            self.of_word.get(str(old["word"]), set()).discard(gid)
        if record is not None:
            self.reviews[gid] = record
            self.of_word.setdefault(str(record["word"]), set()).add(gid)

    def wanted(self, affected: _Affected) -> dict[Kind, set[str]]:
        """The rows a flush looks at: those affected, every folder, and the words and notes
        of folders shown or hidden since the last flush."""
        shown = _shown_folders(self.states["folders"])
        flipped = set(shown) ^ set(self.shown)
        self.shown = shown
        wanted = {kind: set(affected.rows[kind]) for kind in KINDS}
        wanted["folders"] = set(self.states["folders"])
        wanted["words"] |= affected.reviewed
        if flipped:
            for kind in ("words", "notes"):
                wanted[kind] |= {
                    gid
                    for gid, state in self.states[kind].items()
                    if state.fields.get("folder") in flipped
                }
        return wanted

    def conflicts(self, doc: Document) -> list[Conflict]:
        found = [c for kind in KINDS for s in self.states[kind].values() for c in s.conflicts]
        return found + doc.collection_conflicts()


class _Materializer:
    """The changes that make the database say what the document says: of every row, or of
    the rows `wanted` (`_Reads.wanted`), with the folders shown as the reads last worked out."""

    def __init__(
        self,
        store: Store,
        reads: _Reads,
        wanted: dict[Kind, set[str]] | None,
        *,
        folder_rows: bool = True,
        folder_deletes: bool = True,
    ) -> None:
        self.store = store
        self.reads = reads
        self.states = reads.states
        self.shown = reads.shown
        self.wanted = wanted
        self.folder_rows = folder_rows
        self.folder_deletes = folder_deletes
        whole_folders = folder_rows or folder_deletes
        if wanted is None:
            self.local = {kind: store.synced.rows(TABLE_OF[kind]) for kind in KINDS}
        else:
            self.local = {
                "folders": store.synced.rows("folder") if whole_folders else {},
                "words": store.synced.rows_of("word", wanted["words"]),
                "notes": store.synced.rows_of("note", wanted["notes"]),
            }
        self.ids: dict[Kind, dict[str, int]] = {
            kind: {gid: int(row["id"]) for gid, row in self.local[kind].items()} for kind in KINDS
        }
        if not whole_folders:
            self.ids["folders"] = store.synced.ids("folder")
        self._next = {kind: store.synced.next_id(TABLE_OF[kind]) for kind in KINDS}

    def _id(self, kind: Kind, gid: str) -> int:
        if gid not in self.ids[kind]:
            self.ids[kind][gid] = self._next[kind]
            self._next[kind] += 1
        return self.ids[kind][gid]

    def _visible(self, kind: Kind, state: RowState) -> bool:
        if kind == "folders":
            return state.gid in self.shown
        return state.complete and not state.deleted and state.fields["folder"] in self.shown

    def rows(self) -> list[Change]:
        inserts: list[Change] = []
        deletes: list[Change] = []
        order = sorted(self.shown, key=lambda gid: self.shown[gid][1])  # parents first
        for kind in KINDS:
            if kind == "folders":
                gids = order if self.folder_rows else []
            elif self.wanted is None:
                gids = list(self.states[kind])
            else:
                gids = [gid for gid in self.wanted[kind] if gid in self.states[kind]]
            for gid in gids:
                state = self.states[kind][gid]
                if not self._visible(kind, state):
                    continue
                desired = self._row(kind, state)
                current = self.local[kind].get(gid)
                if current is None:
                    inserts.append(Change(TABLE_OF[kind], "insert", None, desired))
                elif any(current.get(k) != v for k, v in desired.items()):
                    inserts.append(
                        Change(TABLE_OF[kind], "update", current, {**current, **desired})
                    )
            if kind == "folders" and not self.folder_deletes:
                continue  # their contents may be in a later piece: deleted after those
            for gid, current in self.local[kind].items():
                found = self.states[kind].get(gid)
                if found is None or not self._visible(kind, found):
                    deletes.append(Change(TABLE_OF[kind], "delete", current, None))
        # Contents go before their folders; a folder's children before it.
        deletes.sort(key=lambda c: (c.table == "folder", -int((c.old or {}).get("id") or 0)))
        return inserts + (self._options() if self.folder_rows else []) + deletes

    def _row(self, kind: Kind, state: RowState) -> Row:
        f = state.fields
        stamps = {"gid": state.gid, "created_at": f["created_at"], "updated_at": f["updated_at"]}
        row_id = self._id(kind, state.gid)
        if kind == "folders":
            parent = self.shown[state.gid][0]
            return {
                "id": row_id,
                "parent_id": None if parent is None else self._id("folders", parent),
                "name": f["name"],
                "name_key": str(f["name"]).casefold(),
                **{name: f[name] for name in ("emoji", "color", "lang")},
                **stamps,
            }
        folder_id = self._id("folders", str(f["folder"]))
        if kind == "words":
            seed = f["seed"] if f["seed"] != str(row_id) else None
            return {
                "id": row_id,
                "folder_id": folder_id,
                "term": f["term"],
                "term_key": str(f["term"]).casefold(),
                "meanings": meanings_json(list(f["meanings"])),
                **{name: f[name] for name in ("notes", "color", "lang")},
                "seed": seed,
                **stamps,
            }
        return {
            "id": row_id,
            "folder_id": folder_id,
            "title": f["title"],
            "body": f["body"],
            **stamps,
        }

    def _options(self) -> list[Change]:
        desired: dict[int, str] = {}
        collection = self.reads.collection_options
        if collection is not None:
            desired[COLLECTION_ROW] = collection
        for gid in self.shown:
            options = self.states["folders"][gid].fields["options"]
            if isinstance(options, str):
                desired[self._id("folders", gid)] = options
        current = self.store.synced.options()
        now = self.store.now()
        changes = []
        for row_id, options in desired.items():
            row = current.get(row_id)
            if row is None:
                new: Row = {"id": row_id, "options": options, "created_at": now, "updated_at": now}
                changes.append(Change("study_options", "insert", None, new))
            elif row["options"] != options:
                changes.append(
                    Change(
                        "study_options",
                        "update",
                        row,
                        {**row, "options": options, "updated_at": now},
                    )
                )
        shown_ids = {self.ids["folders"].get(gid) for gid in self.shown} | {COLLECTION_ROW}
        changes += [
            Change("study_options", "delete", row, None)
            for row_id, row in current.items()
            if row_id not in desired and row_id in shown_ids
        ]
        return changes

    def reviews(self) -> list[Change]:
        """Each card's reviews as the document has them, in order of when they were given,
        and the card as their replay; a card whose reviews are all gone goes too."""
        words, by_card = self._logged()
        if self.wanted is None:
            cards = self.store.synced.cards()
            local_reviews = list(self.store.synced.rows("review").values())
        else:
            cards = self.store.synced.cards([int(w["id"]) for w in words.values()])
            local_reviews = self.store.synced.reviews_of([int(c["id"]) for c in cards.values()])
        of_card: dict[int, list[Row]] = {}
        for row in local_reviews:
            of_card.setdefault(int(row["card_id"]), []).append(row)
        options = self.store.study.options_map()
        # Cards, then the reviews they lose, then the reviews written again: runs of one kind,
        # which the store writes a run at a time (one statement a row took 15 % of a piece).
        cards_written: list[Change] = []
        gone: list[Change] = []
        written: list[Change] = []
        next_card = self.store.synced.next_id("card")
        next_review = self.store.synced.next_id("review")
        for (word_gid, direction), found in sorted(by_card.items()):
            word = words[word_gid]
            card = cards.pop((int(word["id"]), direction), None)
            found.sort(key=lambda item: (item[0], item[1]))
            have = sorted(of_card.get(int(card["id"]), []) if card else [], key=lambda r: r["id"])
            if card is not None and [r["gid"] for r in have] == [g for _, g, _ in found]:
                continue  # the same log: the card is already its replay (moves are rescheduled)
            basis = word["seed"] if word["seed"] is not None else str(word["id"])
            history = [
                (Rating(r["rating"]), Moment.logged(r["reviewed_at"], r["study_day"]))
                for _, _, r in found
            ]
            steps = fast_replayed(
                history,
                options.get(word["folder_id"], DEFAULT_OPTIONS),
                card_seed(basis, _direction(direction)),
            )
            old_card = card
            if card is None:
                card = {
                    "id": next_card,
                    "word_id": word["id"],
                    "folder_id": word["folder_id"],
                    "direction": direction,
                    "created_at": found[0][0],
                }
                next_card += 1
            new_card = {**card, **_schedule(steps[-1]), "updated_at": found[-1][0]}
            cards_written.append(
                Change("card", "insert" if old_card is None else "update", old_card, new_card)
            )
            # Reviews are written again in their order, so the log reads by id as it merged.
            kept = {r["gid"]: r for r in have}
            gone += [Change("review", "delete", row, None) for row in have]
            before: Progress | None = None
            for (_, gid, record), after in zip(found, steps, strict=True):
                old = kept.get(gid, {})
                review = {
                    "id": next_review,
                    "gid": gid,
                    "card_id": card["id"],
                    "session_id": old.get("session_id"),
                    **{name: record[name] for name in REVIEW_FIELDS},
                    **_before(before),
                }
                next_review += 1
                written.append(Change("review", "insert", None, review))
                before = after
        # Cards left with no live review: their reviews were undone or forgotten elsewhere (a
        # card's trigger takes its reviews with it).
        deleted = [Change("card", "delete", card, None) for card in cards.values()]
        return [*cards_written, *gone, *written, *deleted]

    def _logged(self) -> tuple[dict[str, Row], _CardLogs]:
        """The words whose cards are written (by global id) and the live reviews of each of
        their cards, (word, direction): (when, review's global id, its record)."""
        records: Iterable[tuple[str, dict[str, Any]]]
        if self.wanted is None:
            words = self.store.synced.rows("word")
            records = self.reads.reviews.items()
        else:  # the affected words as they are now written, new ones with their ids
            words = self.store.synced.rows_of("word", self.wanted["words"])
            records = [
                (gid, self.reads.reviews[gid])
                for word in words
                for gid in self.reads.of_word.get(word, ())
            ]
        by_card: _CardLogs = {}
        for gid, record in records:
            if record.get("deleted") or record["word"] not in words:
                continue
            key = (str(record["word"]), str(record["direction"]))
            by_card.setdefault(key, []).append((int(record["reviewed_at"]), gid, record))
        return words, by_card


def _direction(text: str) -> Direction:
    return "reverse" if text == "reverse" else "forward"


def _schedule(progress: Progress) -> Row:
    return {
        "state": int(progress.state),
        "step": progress.step,
        "stability": progress.stability,
        "difficulty": progress.difficulty,
        "due": progress.due,
        "last_review": progress.last_review,
        "reps": progress.reps,
        "lapses": progress.lapses,
    }


def _before(progress: Progress | None) -> Row:
    if progress is None:
        return {f"{name}_before": None for name in SCHEDULE} | {"state_before": int(CardState.NEW)}
    values = _schedule(progress)
    return {f"{name}_before": values[name] for name in SCHEDULE}


def _shown_folders(states: Mapping[str, RowState]) -> dict[str, tuple[str | None, int]]:
    """Each folder shown, with its parent there and its depth. A folder is shown when it is
    not deleted and its parent is shown; a parent not here yet (its update still on the way)
    hides it until it comes. Moves made apart can make a cycle: of the folders in it, the one
    whose move is oldest (write id, then global id, the same on every device) loses its move
    and goes to the top level."""
    parent: dict[str, str | None] = {}
    for gid, state in states.items():
        if state.complete and not state.deleted:
            value = state.fields["parent"]
            parent[gid] = value if isinstance(value, str) else None
    broken: set[str] = set()
    for start in list(parent):
        path: list[str] = []
        node: str | None = start
        while node is not None and node in parent and node not in broken and node not in path:
            path.append(node)
            node = parent[node]
        if node is not None and node in path:
            cycle = path[path.index(node) :]
            loser = min(cycle, key=lambda g: (states[g].parent_write, g))
            parent[loser] = None
            broken.add(loser)
    shown: dict[str, tuple[str | None, int]] = {}

    def depth(gid: str) -> int | None:
        chain: list[str] = []
        node: str | None = gid
        while node is not None and node not in shown:
            if node not in parent:
                return None  # deleted or not here yet
            chain.append(node)
            node = parent[node]
        base = -1 if node is None else shown[node][1]
        for offset, member in enumerate(reversed(chain), start=1):
            shown[member] = (parent[member], base + offset)
        return shown[gid][1]

    for gid in parent:
        depth(gid)
    return shown
