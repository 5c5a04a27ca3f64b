"""The workspace's working copy in the browser: a file in Pyodide's file system whose bytes stay
in JavaScript (decision 035), handled by static/working_copy.js.

A loaded snapshot's buffer becomes the file as it is, with room to grow, and a snapshot reads
the file a piece at a time, copy on write, so neither the database nor a copy of it ever enters
WebAssembly's memory, and no task copies the whole of it.
"""

from __future__ import annotations

from typing import Any

import pyodide_js
from pyodide.ffi import to_js

from app.browser.scripts import import_script
from app.store import Store
from app.store.working_copy import PIECE_BYTES, Image, WorkingCopies, piece_count

SCRIPT = "./static/working_copy.js"


def capacity(length: int) -> int:
    """The buffer a database of `length` bytes is given: room for an eighth more (MEMFS's own
    step) before a write past its end copies it into a bigger one."""
    return length + length // 8 + PIECE_BYTES


class BufferImage:
    """A database in the first `length` bytes of a JS Uint8Array (a snapshot as loaded)."""

    def __init__(self, buffer: Any, length: int) -> None:
        self.buffer = buffer
        self._length = length

    @property
    def length(self) -> int:
        return self._length

    def piece(self, index: int) -> bytes:
        start = index * PIECE_BYTES
        return bytes(self.buffer.subarray(start, min(self._length, start + PIECE_BYTES)).to_bytes())

    def close(self) -> None:
        self.buffer = None


class _FileImage:
    """An image static/working_copy.js keeps of a file, copy on write."""

    def __init__(self, image: Any) -> None:
        self._image = image

    @property
    def length(self) -> int:
        return int(self._image.length)

    def piece(self, index: int) -> bytes:
        return bytes(self._image.piece(index).to_bytes())

    def close(self) -> None:
        self._image.close()


class BrowserCopies(WorkingCopies):
    """Working copies placed and imaged in JavaScript, outside WebAssembly's memory."""

    def __init__(self, script: Any) -> None:
        super().__init__()
        self._script = script

    @classmethod
    async def prepare(cls) -> BrowserCopies:
        return cls(await import_script(SCRIPT))

    def place(self, image: Image, path: str) -> None:
        if isinstance(image, BufferImage):
            buffer = image.buffer
        else:  # the empty collection's image, a few hundred kilobytes of Python bytes
            buffer = to_js(b"".join(image.piece(index) for index in range(piece_count(image))))
        self._script.place(pyodide_js.FS, path, buffer, image.length, capacity(image.length))
        image.close()

    def image(self, store: Store) -> Image:
        return _FileImage(self._script.image(pyodide_js.FS, store.path, PIECE_BYTES))
