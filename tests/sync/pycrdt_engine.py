"""The sync model's engine on pycrdt (Yjs's Rust port): what the CPython tests run it on.

The page implements the same protocols (app/sync/engine.py) on Yjs through JS interop.
pycrdt counts text positions in UTF-8 bytes; the protocols count code points.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from pycrdt import Array, Doc, Map, Text

from app.sync.engine import MapContents, SharedList, SharedMap, SharedText, Touched

ROOTS = ("folders", "words", "notes", "reviews", "collection")


def _bytes(text: str, index: int) -> int:
    return len(text[:index].encode())


class PyText:
    def __init__(self, text: Text) -> None:
        self._text = text

    def value(self) -> str:
        return str(self._text)

    def splice(self, index: int, delete: int, insert: str) -> None:
        current = str(self._text)
        start, end = _bytes(current, index), _bytes(current, index + delete)
        if end > start:
            del self._text[start:end]
        if insert:
            self._text.insert(start, insert)


class PyList:
    def __init__(self, array: Array[Any]) -> None:
        self._array = array

    def items(self) -> list[str]:
        return [str(item) for item in self._array]

    def splice(self, index: int, delete: int, insert: list[str]) -> None:
        if delete:
            del self._array[index : index + delete]
        for offset, item in enumerate(insert):
            self._array.insert(index + offset, item)


class PyMap:
    def __init__(self, shared: Map[Any]) -> None:
        self._map = shared

    def names(self) -> Iterator[str]:
        return iter(list(self._map.keys()))

    def text_value(self, key: str) -> str | None:
        value = self._map.get(key)
        return value if isinstance(value, str) else None

    def text_values(self, keys: Sequence[str]) -> list[str | None]:
        return [self.text_value(key) for key in keys]

    def contents(self, keys: Sequence[str]) -> list[MapContents | None]:
        found: list[MapContents | None] = []
        for key in keys:
            row = self._map.get(key)
            if not isinstance(row, Map):
                found.append(None)
                continue
            items = list(row.items())
            found.append(
                MapContents(
                    {name: value for name, value in items if isinstance(value, str)},
                    {name: str(value) for name, value in items if isinstance(value, Text)},
                    {
                        name: [str(item) for item in value]
                        for name, value in items
                        if isinstance(value, Array)
                    },
                )
            )
        return found

    def set(self, key: str, value: str) -> None:
        self._map[key] = value

    def delete(self, key: str) -> None:
        if key in self._map:
            del self._map[key]

    def map(self, key: str) -> SharedMap | None:
        value = self._map.get(key)
        return PyMap(value) if isinstance(value, Map) else None

    def text(self, key: str) -> SharedText | None:
        value = self._map.get(key)
        return PyText(value) if isinstance(value, Text) else None

    def sequence(self, key: str) -> SharedList | None:
        value = self._map.get(key)
        return PyList(value) if isinstance(value, Array) else None

    def new_map(self, key: str) -> SharedMap:
        self._map[key] = Map()
        return PyMap(self._map[key])

    def new_text(self, key: str, value: str) -> SharedText:
        self._map[key] = Text(value)
        return PyText(self._map[key])

    def new_sequence(self, key: str, items: list[str]) -> SharedList:
        self._map[key] = Array(items)
        return PyList(self._map[key])


class PycrdtEngine:
    def __init__(self) -> None:
        self.doc = Doc()
        self._roots = {name: self.doc.get(name, type=Map) for name in ROOTS}
        self._remote: list[Callable[[Touched], None]] = []
        self._local: list[Callable[[bytes], None]] = []
        self._applying = False
        self._touched: Touched = set()
        for name, root in self._roots.items():
            root.observe_deep(self._observer(name))
        self.doc.observe(self._sent)

    def _observer(self, name: str) -> Callable[[Any], None]:
        def observe(events: Any) -> None:
            if not self._applying:
                return
            for event in events:
                path = list(event.path)
                if path:
                    self._touched.add((name, str(path[0])))
                else:
                    self._touched.update((name, str(key)) for key in event.keys)

        return observe

    def _sent(self, event: Any) -> None:
        if not self._applying:
            for callback in self._local:
                callback(bytes(event.update))

    def root(self, name: str) -> SharedMap:
        return PyMap(self._roots[name])

    def _contents(self) -> dict[str, dict[str, Any]]:
        return {name: dict(root.to_py() or {}) for name, root in self._roots.items()}

    def transaction(self) -> AbstractContextManager[None]:
        return self._transaction()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self.doc.transaction():
            yield

    def encode_state(self) -> bytes:
        return bytes(self.doc.get_update())

    def apply_update(self, update: bytes) -> None:
        # Yjs reports the rows a waiting update touched once an update it needed comes and it
        # is applied (static/sync.js's observeDeep, node, 2026-12-07); pycrdt 0.14's events
        # miss them, so the rows are also compared before and after.
        before = self._contents()
        self._applying = True
        try:
            self.doc.apply_update(update)
        finally:
            self._applying = False
        after = self._contents()
        for name in ROOTS:
            keys = before[name].keys() | after[name].keys()
            changed = {k for k in keys if before[name].get(k) != after[name].get(k)}
            self._touched |= {(name, key) for key in changed}
        touched, self._touched = self._touched, set()
        if touched:
            for callback in self._remote:
                callback(touched)

    def on_local_update(self, callback: Callable[[bytes], None]) -> None:
        self._local.append(callback)

    def on_remote_change(self, callback: Callable[[Touched], None]) -> None:
        self._remote.append(callback)
