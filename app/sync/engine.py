"""What the sync model needs of a CRDT engine: maps, text, lists, transactions and updates.

The model (app/sync/model.py) is written against these protocols only, so one model runs on
two engines: Yjs in the page, called through Pyodide's JS interop (there is no Pyodide wheel of
pycrdt), and pycrdt (Yjs's Rust port, the same update format) in the CPython tests. Neither is
imported by the app: the engine is handed in (decision 040).

Values are text: numbers in Yjs are JavaScript doubles and pycrdt reads them back as floats, so
the model writes every scalar as JSON and reads it back exactly. Text positions count code
points, as Python strings do; each engine converts to its own unit (UTF-16 code units in Yjs,
UTF-8 bytes in pycrdt).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

# (root name, key of the row in that root) of every row a remote update touched.
Touched = set[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class MapContents:
    """What a nested map holds, read at once: its text values, and the value of each of its
    texts and the items of each of its lists, by key."""

    strings: dict[str, str]
    texts: dict[str, str]
    lists: dict[str, list[str]]


class SharedText(Protocol):
    """A text that merges concurrent edits character by character."""

    def value(self) -> str: ...

    def splice(self, index: int, delete: int, insert: str) -> None: ...


class SharedList(Protocol):
    """A list of text items that keeps every item inserted concurrently."""

    def items(self) -> list[str]: ...

    def splice(self, index: int, delete: int, insert: list[str]) -> None: ...


class SharedMap(Protocol):
    """A map of text values, nested maps, texts and lists; concurrent writes of one key keep
    one of them (the same on every replica)."""

    def names(self) -> Iterator[str]: ...

    def text_value(self, key: str) -> str | None:
        """The key's value when it is text, else None."""

    def text_values(self, keys: Sequence[str]) -> list[str | None]:
        """`text_value` of each key, read at once."""

    def contents(self, keys: Sequence[str]) -> list[MapContents | None]:
        """What the nested map at each key holds (None where there is none), read at once: in
        the page one call into JavaScript for them all, where reading field by field made
        a few hundred calls a row (a first sync's reads were half its time, 2026-12-07)."""

    def set(self, key: str, value: str) -> None: ...

    def delete(self, key: str) -> None: ...

    def map(self, key: str) -> SharedMap | None:
        """The nested map at `key`, if there is one."""

    def text(self, key: str) -> SharedText | None: ...

    def sequence(self, key: str) -> SharedList | None:
        """The nested list at `key`, if there is one."""

    def new_map(self, key: str) -> SharedMap: ...

    def new_text(self, key: str, value: str) -> SharedText: ...

    def new_sequence(self, key: str, items: list[str]) -> SharedList: ...


class Engine(Protocol):
    """One CRDT document and its updates."""

    def root(self, name: str) -> SharedMap:
        """The top-level map `name` (top-level types exist on every replica by name)."""

    def transaction(self) -> AbstractContextManager[None]:
        """Group writes into one local update."""

    def encode_state(self) -> bytes:
        """The whole document as one update (what a new device loads)."""

    def apply_update(self, update: bytes) -> None:
        """Merge an update from another replica (then `on_remote_change` callbacks run). Updates
        may come late, twice or out of order: the engine keeps what it cannot place yet."""

    def on_local_update(self, callback: Callable[[bytes], None]) -> None:
        """Call `callback` with the update of each local transaction, to send out."""

    def on_remote_change(self, callback: Callable[[Touched], None]) -> None:
        """Call `callback` with the rows an update from elsewhere touched, however it came in
        (in the page the provider applies updates to the document itself)."""
