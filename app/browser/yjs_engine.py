"""The sync model's engine in the page: Yjs, through static/sync.js and Pyodide's JS interop.

It implements app/sync/engine.py's protocols as tests/sync/pycrdt_engine.py does on pycrdt, so
the same model and adapter run here. Values are strings on both sides (decision 040); text
positions arrive in code points and Yjs counts UTF-16 code units, so they are converted here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from pyodide.ffi import create_proxy, to_js

from app.browser.scripts import import_script
from app.sync.engine import MapContents, SharedList, SharedMap, SharedText, Touched

MODULE = "./static/sync.js"
ROOTS = ("folders", "words", "notes", "reviews", "collection")


async def load_module() -> Any:
    """static/sync.js and the Yjs bundle it imports: loaded only once sync is turned on."""
    return await import_script(MODULE)


def _units(text: str, index: int) -> int:
    """Code points to UTF-16 code units (a character beyond the BMP is two)."""
    return len(text[:index].encode("utf-16-le")) // 2


class YText:
    def __init__(self, text: Any) -> None:
        self._text = text

    def value(self) -> str:
        return str(self._text.toString())

    def splice(self, index: int, delete: int, insert: str) -> None:
        current = self.value()
        start, end = _units(current, index), _units(current, index + delete)
        if end > start:
            self._text.delete(start, end - start)
        if insert:
            self._text.insert(start, insert)


class YList:
    def __init__(self, array: Any) -> None:
        self._array = array

    def items(self) -> list[str]:
        return [str(item) for item in self._array.toArray()]

    def splice(self, index: int, delete: int, insert: list[str]) -> None:
        if delete:
            self._array.delete(index, delete)
        if insert:
            self._array.insert(index, to_js(insert))


class YMap:
    def __init__(self, module: Any, shared: Any) -> None:
        self._js = module
        self._map = shared

    def _kind(self, key: str) -> tuple[str, Any]:
        value = self._map.get(key)
        return str(self._js.kind(value)), value

    def names(self) -> Iterator[str]:
        return iter([str(key) for key in self._js.keys(self._map)])

    def text_value(self, key: str) -> str | None:
        kind, value = self._kind(key)
        return str(value) if kind == "string" else None

    def text_values(self, keys: Sequence[str]) -> list[str | None]:
        return list(json.loads(str(self._js.textValues(self._map, json.dumps(list(keys))))))

    def contents(self, keys: Sequence[str]) -> list[MapContents | None]:
        # Keys in and contents out as JSON: one crossing each way, not one per key or value.
        read = json.loads(str(self._js.contents(self._map, json.dumps(list(keys)))))
        return [None if row is None else MapContents(*row) for row in read]

    def set(self, key: str, value: str) -> None:
        self._map.set(key, value)

    def delete(self, key: str) -> None:
        if self._map.has(key):
            self._map.delete(key)

    def map(self, key: str) -> SharedMap | None:
        kind, value = self._kind(key)
        return YMap(self._js, value) if kind == "map" else None

    def text(self, key: str) -> SharedText | None:
        kind, value = self._kind(key)
        return YText(value) if kind == "text" else None

    def sequence(self, key: str) -> SharedList | None:
        kind, value = self._kind(key)
        return YList(value) if kind == "list" else None

    def new_map(self, key: str) -> SharedMap:
        return YMap(self._js, self._js.setNew(self._map, key, "map", None))

    def new_text(self, key: str, value: str) -> SharedText:
        return YText(self._js.setNew(self._map, key, "text", value))

    def new_sequence(self, key: str, items: list[str]) -> SharedList:
        return YList(self._js.setNew(self._map, key, "list", to_js(items)))


class YjsEngine:
    """One Yjs document; `module` is static/sync.js (`load_module`)."""

    def __init__(self, module: Any) -> None:
        self.js = module
        self.doc = module.newDoc()
        self._roots = {name: YMap(module, module.root(self.doc, name)) for name in ROOTS}
        self._remote: list[Callable[[Touched], None]] = []
        self._local: list[Callable[[bytes], None]] = []
        # Kept for the document's life: Yjs calls them on every transaction.
        self._proxies = [create_proxy(self._touched), create_proxy(self._sent)]
        module.onRemoteChange(self.doc, to_js(list(ROOTS)), self._proxies[0])
        module.onLocalUpdate(self.doc, self._proxies[1])

    def _touched(self, pairs: Any) -> None:
        touched = {(str(name), str(key)) for name, key in json.loads(str(pairs))}
        for callback in self._remote:
            callback(touched)

    def _sent(self, update: Any) -> None:
        data = bytes(update.to_py())
        for callback in self._local:
            callback(data)

    def root(self, name: str) -> SharedMap:
        return self._roots[name]

    def transaction(self) -> AbstractContextManager[None]:
        return self._transaction()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        began = self.js.begin(self.doc)
        try:
            yield
        finally:
            if began:
                self.js.end(self.doc)

    def encode_state(self) -> bytes:
        return bytes(self.js.encodeState(self.doc).to_py())

    def apply_update(self, update: bytes) -> None:
        self.js.applyUpdate(self.doc, to_js(update))

    def on_local_update(self, callback: Callable[[bytes], None]) -> None:
        self._local.append(callback)

    def on_remote_change(self, callback: Callable[[Touched], None]) -> None:
        self._remote.append(callback)
