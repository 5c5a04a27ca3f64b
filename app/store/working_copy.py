"""Where the open workspace's database lives: a file, its working copy, not SQLite's in-memory
database (decision 035).

Under Pyodide a file's bytes sit in the file system's JavaScript buffers, outside WebAssembly's
memory, which only ever grows: an in-memory database of 178 MB (100,000 words with their study
history) took Pyodide's memory to 1 GB with its own buffer, that buffer doubled at the first
write past its end, and each snapshot's copy. As a file it takes about 40 MB of it, SQLite's
page cache included. Snapshots read the file as an `Image`, a piece at a time.

This is the plain-file version, which CPython runs; the browser's (app/browser/working_copy.py)
hands a loaded snapshot's buffer to the file system as the file, without a copy, and takes
images without copying the whole file in one task.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import os
import tempfile
from dataclasses import dataclass
from typing import Protocol

from app.store import Store, empty_image

# Snapshots are read, hashed and written in pieces of this size, each in a task of its own, so
# that none of them holds the page up for long (hashing and handing over a megabyte take a few ms).
PIECE_BYTES = 1 << 20


class Image(Protocol):
    """A database's bytes as they were at one moment, read a piece (PIECE_BYTES) at a time."""

    @property
    def length(self) -> int: ...

    def piece(self, index: int) -> bytes: ...

    def close(self) -> None:
        """Let go of what the image holds (it is not read again)."""


def piece_count(image: Image) -> int:
    """How many pieces `image` is read in (an empty image is one empty piece)."""
    return max(1, math.ceil(image.length / PIECE_BYTES))


def sha256_hex(image: Image) -> str:
    checksum = hashlib.sha256()
    for index in range(piece_count(image)):
        checksum.update(image.piece(index))
    return checksum.hexdigest()


@dataclass(frozen=True)
class BytesImage:
    """An image held as Python bytes."""

    data: bytes

    @property
    def length(self) -> int:
        return len(self.data)

    def piece(self, index: int) -> bytes:
        return self.data[index * PIECE_BYTES : (index + 1) * PIECE_BYTES]

    def close(self) -> None:
        pass


class WorkingCopies:
    """The workspace's working copies, files in one folder (a temporary one by default), each
    opened as a `Store`; a store opened here is let go of with `discard`, which deletes its file."""

    def __init__(self, folder: str | None = None) -> None:
        if folder is None:
            # Removed with this object: a reload's copies never pile up.
            self._temporary = tempfile.TemporaryDirectory(prefix="lexical-")
            folder = self._temporary.name
        self._folder = folder
        self._numbers = itertools.count()

    def _path(self) -> str:
        # A new name each time: the copy being replaced stays open until the new one is ready.
        return os.path.join(self._folder, f"workspace-{next(self._numbers)}.sqlite")

    def open(self, image: Image) -> Store:
        """A store on a new copy of `image`; sqlite3.Error if it is not a database."""
        path = self._path()
        self.place(image, path)
        try:
            return Store.open(path)
        except BaseException:
            os.remove(path)
            raise

    def new(self) -> Store:
        """A store for a new, empty collection (from the build's image where there is one)."""
        shipped = empty_image.shipped()
        if shipped is None:
            return Store.open(self._path())
        return self.open(BytesImage(shipped))

    def place(self, image: Image, path: str) -> None:
        """Write `image` as the file at `path`."""
        with open(path, "wb") as file:
            for index in range(piece_count(image)):
                file.write(image.piece(index))
        image.close()

    def image(self, store: Store) -> Image:
        """The database of `store` (opened here) as it is now, whatever is written after."""
        with open(store.path, "rb") as file:
            return BytesImage(file.read())

    def discard(self, store: Store) -> None:
        """Close `store` and delete its file."""
        store.close()
        os.remove(store.path)
