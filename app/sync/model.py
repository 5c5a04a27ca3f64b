"""How a collection lies in a CRDT document (decision 040).

Top-level maps hold one entry per synced row, keyed by its global id:
- `folders`, `words`, `notes`: a nested map per row. Each scalar field is a *register*: the key
  `field` holds the value the row was made with, and each later write adds `field|<write id>`
  and deletes the keys it saw. So after a merge the keys left are the concurrent writes: one
  when the edits were in sequence, two or more when two devices edited the field while apart.
  The newest write id is the field's value on every device; the others are kept as conflict
  records (`conflicts`) until someone writes the field again. `deleted` is a register too (a
  tombstone: a delete and an edit made apart keep the delete, and the edit's values).
  A word's meanings are a shared list and its notes a shared text, a note's body a shared text:
  they merge item by item and character by character instead.
- `reviews`: one JSON text per review, written once (reviews are append-only; every device's
  are kept). Undoing a grade, or forgetting progress, writes it again with `deleted`.
- `collection`: the collection's own registers (its study options).
Cards are not in the document: a card is the replay of its word's reviews in a direction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Final, Literal

from app.ids import uuid7
from app.sync.engine import Engine, MapContents, SharedList, SharedMap, SharedText

Kind = Literal["folders", "words", "notes"]
KINDS: tuple[Kind, ...] = ("folders", "words", "notes")
Root = Kind | Literal["collection"]
REVIEWS = "reviews"
COLLECTION: Final = "collection"
DELETED = "deleted"
OPTIONS = "options"
# Each kind's registers (local column names; references hold global ids), and its merged texts
# and lists. Timestamps are registers too, but a difference in them is no conflict to show.
FIELDS: dict[Kind, tuple[str, ...]] = {
    "folders": ("parent", "name", "emoji", "color", "lang", OPTIONS, "created_at", "updated_at"),
    "words": ("folder", "term", "color", "lang", "seed", "created_at", "updated_at"),
    "notes": ("folder", "title", "created_at", "updated_at"),
}
TEXTS: dict[Kind, tuple[str, ...]] = {"folders": (), "words": ("notes",), "notes": ("body",)}
LISTS: dict[Kind, tuple[str, ...]] = {"folders": (), "words": ("meanings",), "notes": ()}
# A word's seed (what its cards' fuzz is drawn from) is no one's to choose either.
QUIET = frozenset({"created_at", "updated_at", "seed"})
SEPARATOR = "|"


@dataclass(frozen=True, slots=True)
class Conflict:
    """A field two devices changed while apart: the value every device shows (`kept`) and
    the others, newest first, until the field is written again ("keep this / that")."""

    root: Root
    gid: str
    field: str
    kept: Any
    others: tuple[Any, ...]


def _grouped(strings: Mapping[str, str], fields: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
    """Each register's current writes among a row's text values, as (write id, JSON value),
    newest first; the value the row was made with has the empty write id, older than every
    write."""
    heads: dict[str, list[tuple[str, str]]] = {field: [] for field in fields}
    for key, value in strings.items():
        name, _, write = key.partition(SEPARATOR)
        if name in heads:
            heads[name].append((write, value))
    for writes in heads.values():
        writes.sort(reverse=True)
    return heads


def _heads(row: SharedMap, field: str) -> list[tuple[str, str]]:
    """One register's writes, newest first, reading only its keys' values."""
    strings = {
        key: value
        for key in row.names()
        if key.partition(SEPARATOR)[0] == field and (value := row.text_value(key)) is not None
    }
    return _grouped(strings, (field,))[field]


def read(row: SharedMap, field: str) -> Any:
    heads = _heads(row, field)
    return json.loads(heads[0][1]) if heads else None


def write(row: SharedMap, field: str, value: Any) -> None:
    """Write the register, replacing every write this replica has seen (a no-op when it
    already reads so, with no conflict)."""
    heads = _heads(row, field)
    text = json.dumps(value, ensure_ascii=False)
    if len(heads) == 1 and heads[0][1] == text:
        return
    for write_id, _ in heads:
        row.delete(f"{field}{SEPARATOR}{write_id}" if write_id else field)
    row.set(f"{field}{SEPARATOR}{uuid7().replace('-', '')}", text)


def _conflicts(
    root: Root, gid: str, heads: Mapping[str, list[tuple[str, str]]]
) -> Iterator[Conflict]:
    """The registers among `heads` (each field's writes, newest first) that hold two or more
    different values."""
    for field, writes in heads.items():
        if field in QUIET:
            continue
        kept = writes[0][1] if writes else None
        others = list(dict.fromkeys(v for _, v in writes if v != kept))
        if kept is not None and others:
            yield Conflict(root, gid, field, json.loads(kept), tuple(map(json.loads, others)))


def splice_text(text: SharedText, old: str, new: str) -> None:
    """Turn `old` into `new` by the fewest splices, right to left so positions stay valid."""
    for tag, i1, i2, j1, j2 in reversed(
        SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    ):
        if tag != "equal":
            text.splice(i1, i2 - i1, new[j1:j2])


def splice_list(shared: SharedList, old: list[str], new: list[str]) -> None:
    for tag, i1, i2, j1, j2 in reversed(
        SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    ):
        if tag != "equal":
            shared.splice(i1, i2 - i1, new[j1:j2])


@dataclass(frozen=True, slots=True)
class RowState:
    """A row as the document has it now, fields resolved."""

    gid: str
    deleted: bool
    fields: Mapping[str, Any]
    parent_write: str  # the write id of a folder's parent (for cycles; "" as made)
    # Every field has a value: an update can arrive in part (Yjs applies a write's delete
    # before the insert it waits for), and a row missing fields waits until they come.
    complete: bool = True
    conflicts: tuple[Conflict, ...] = ()


def _state(kind: Kind, gid: str, contents: MapContents) -> RowState:
    heads = _grouped(contents.strings, (*FIELDS[kind], DELETED))
    values: dict[str, Any] = {f: json.loads(h[0][1]) if h else None for f, h in heads.items()}
    complete = all(heads.values())
    for name in TEXTS[kind]:
        values[name] = contents.texts.get(name, "")
        complete = complete and name in contents.texts
    for name in LISTS[kind]:
        values[name] = contents.lists.get(name, [])
        complete = complete and name in contents.lists
    parents = heads.get("parent") or [("", "")]
    deleted = bool(values.pop(DELETED))
    conflicts = tuple(_conflicts(kind, gid, heads))
    return RowState(gid, deleted, values, parents[0][0], complete, conflicts)


class Document:
    """The collection's document on one engine: reading and writing rows by global id."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.roots = {kind: engine.root(kind) for kind in KINDS}
        self.reviews = engine.root(REVIEWS)
        self.collection = engine.root(COLLECTION)
        # (root, key) of every row written here since `take_written`, as a remote update
        # reports what it touched: whoever keeps reads of the document reads these again.
        self._written: set[tuple[str, str]] = set()

    def take_written(self) -> set[tuple[str, str]]:
        written, self._written = self._written, set()
        return written

    def row(self, kind: Kind, gid: str) -> SharedMap | None:
        return self.roots[kind].map(gid)

    def state(self, kind: Kind, gid: str) -> RowState | None:
        return self.states(kind, [gid])[0]

    def states(self, kind: Kind, gids: Sequence[str]) -> list[RowState | None]:
        """The rows `gids` as the document has them now (None where there is none), read
        in one go."""
        return [
            None if contents is None else _state(kind, gid, contents)
            for gid, contents in zip(gids, self.roots[kind].contents(gids), strict=True)
        ]

    def gids(self, kind: Kind) -> list[str]:
        return list(self.roots[kind].names())

    def put(
        self, kind: Kind, gid: str, values: Mapping[str, Any], before: Mapping[str, Any] | None
    ) -> None:
        """Write a row's values (`before`: what this device had, None for a new row): fields
        that changed become writes, texts and lists are spliced."""
        self._written.add((kind, gid))
        row = self.row(kind, gid)
        if row is None:
            row = self.roots[kind].new_map(gid)
            for field in FIELDS[kind]:
                row.set(field, json.dumps(values.get(field), ensure_ascii=False))
            row.set(DELETED, "false")
            for name in TEXTS[kind]:
                row.new_text(name, str(values.get(name) or ""))
            for name in LISTS[kind]:
                row.new_sequence(name, list(values.get(name) or []))
            return
        if read(row, DELETED):
            write(row, DELETED, False)
        for field in FIELDS[kind]:
            if field in values and (before is None or before.get(field) != values[field]):
                write(row, field, values[field])
        # Texts and lists are spliced from what the document has to what this device wrote:
        # remote changes are written here as soon as they come, so the two differ only for an
        # edit made inside a long step (an agent turn), whose text then wins whole.
        for name in TEXTS[kind]:
            text = row.text(name)
            if text is not None and name in values:
                splice_text(text, text.value(), str(values[name]))
        for name in LISTS[kind]:
            shared = row.sequence(name)
            if shared is not None and name in values:
                splice_list(shared, shared.items(), list(values[name]))

    def delete(self, kind: Kind, gid: str) -> None:
        self._written.add((kind, gid))
        row = self.row(kind, gid)
        if row is not None and not read(row, DELETED):
            write(row, DELETED, True)

    def set_options(self, folder: str | None, options: str | None) -> None:
        """A folder's study options (None: the collection's) as stored JSON, or None to take
        its parent's. The collection's registers sit in the `collection` root itself, which
        every replica has by name (a nested map made on two devices would keep only one)."""
        row = self.collection if folder is None else self.row("folders", folder)
        if row is not None:
            self._written.add((COLLECTION, OPTIONS) if folder is None else ("folders", folder))
            write(row, OPTIONS, options)

    def settle(self, conflict: Conflict, value: Any) -> None:
        """Write a conflict's field again with `value`: the write replaces every write this
        replica has seen, so the field holds one value once the others have it."""
        root = conflict.root
        row = self.collection if root == COLLECTION else self.row(root, conflict.gid)
        if row is not None:
            self._written.add((root, conflict.gid or OPTIONS))
            write(row, conflict.field, value)

    def collection_options(self) -> str | None:
        value = read(self.collection, OPTIONS)
        return value if isinstance(value, str) else None

    def review(self, gid: str) -> dict[str, Any] | None:
        return self.reviews_of([gid])[0]

    def reviews_of(self, gids: Sequence[str]) -> list[dict[str, Any] | None]:
        """The review records `gids` (None where there is none), read in one go."""
        return [
            None if text is None else dict(json.loads(text))
            for text in self.reviews.text_values(gids)
        ]

    def put_review(self, gid: str, record: Mapping[str, Any]) -> None:
        text = json.dumps(dict(record), sort_keys=True, ensure_ascii=False)
        self._written.add((REVIEWS, gid))
        if self.reviews.text_value(gid) != text:
            self.reviews.set(gid, text)

    def collection_conflicts(self) -> list[Conflict]:
        return list(_conflicts(COLLECTION, "", {OPTIONS: _heads(self.collection, OPTIONS)}))

    def conflicts(self) -> list[Conflict]:
        """Every field two devices changed while apart (the adapter keeps them from its reads
        instead: this reads the whole document)."""
        found = [
            conflict
            for kind in KINDS
            for gid in self.gids(kind)
            if (state := self.state(kind, gid)) is not None
            for conflict in state.conflicts
        ]
        return found + self.collection_conflicts()
