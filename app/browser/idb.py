"""IndexedDB storage for the durability layer: two snapshot slots and the operation log.

A slot is a header keyed by its number (0 or 1) and the pieces of its data keyed by
[slot, index] in the same object store; a snapshot from before pieces keeps its data inline.

Implements `DurableBackend` from app.store.durability. Writes use `durability: "strict"`
transactions and resolve only on `complete`, so "Saved" in the UI means flushed to disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Callable
from typing import Any

import js
from pyodide.ffi import JsException, create_proxy, to_js

from app.browser.dom import found, js_object
from app.browser.working_copy import BufferImage, capacity
from app.domain import LexicalError
from app.store.durability import SnapshotHeader, SnapshotRecord

DB_NAME = "lexical"
DB_VERSION = 1
SNAPSHOTS = "snapshots"
OPS = "ops"


class StorageError(LexicalError):
    """IndexedDB refused or failed a request (quota, private mode, a browser bug)."""


def _explain(error: Any) -> str:
    name = getattr(error, "name", "") if error is not None else ""
    if name == "QuotaExceededError":
        return "Your browser's storage for this site is full. Free some space or export a backup."
    detail = getattr(error, "message", "") if error is not None else ""
    return (
        f"The browser could not save ({name or 'unknown error'}{': ' + detail if detail else ''})."
    )


def _wait(target: Any, ok_event: str, value: Any = None) -> asyncio.Future[Any]:
    """A future settled by `ok_event` (or `error`/`abort`) on an IDB request or transaction."""
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    proxies: list[Any] = []

    def settle(result: Any, error: Any = None) -> None:
        # An aborted transaction fires "error" and then "abort": unhook every handler before
        # freeing the proxies, or the second event calls into a destroyed one.
        for name in (ok_event, "error", "abort"):
            setattr(target, f"on{name}", None)
        for proxy in proxies:
            proxy.destroy()
        if future.done():
            return
        if error is not None:
            future.set_exception(StorageError(_explain(error)))
        else:
            future.set_result(result)

    def on_ok(_event: Any) -> None:
        settle(value if value is not None else getattr(target, "result", None))

    def on_error(_event: Any) -> None:
        settle(None, target.error or js.Error.new("aborted"))

    for name, handler in ((ok_event, on_ok), ("error", on_error), ("abort", on_error)):
        proxy = create_proxy(handler)
        proxies.append(proxy)
        setattr(target, f"on{name}", proxy)
    return future


async def _sha256_hex(buffer: Any) -> str | None:
    """The browser's own SHA-256 of `buffer` (about three times faster than hashing in
    Python); None where it has none (Web Crypto needs a secure context, and a page served over
    plain http on a LAN is not one), and Python checks the data instead."""
    subtle = getattr(js.crypto, "subtle", None)
    if not found(subtle):
        return None
    digest = await subtle.digest("SHA-256", buffer)
    return str(js.Uint8Array.new(digest).to_bytes().hex())


class IndexedDbBackend:
    """`DurableBackend` over one IndexedDB database."""

    def __init__(self, db: Any) -> None:
        self._db = db

    @classmethod
    async def open(cls) -> IndexedDbBackend:
        request = js.indexedDB.open(DB_NAME, DB_VERSION)

        def upgrade(_event: Any) -> None:
            db = request.result
            names = list(db.objectStoreNames)
            if SNAPSHOTS not in names:
                db.createObjectStore(SNAPSHOTS, js_object(keyPath="slot"))
            if OPS not in names:
                db.createObjectStore(OPS, js_object(keyPath="seq"))

        upgrade_proxy = create_proxy(upgrade)
        request.onupgradeneeded = upgrade_proxy
        try:
            db = await _wait(request, "success")
        finally:
            upgrade_proxy.destroy()
        return cls(db)

    def _tx(self, store: str, mode: str) -> Any:
        if mode == "readwrite":
            return self._db.transaction(store, mode, js_object(durability="strict"))
        return self._db.transaction(store, mode)

    async def load_headers(self) -> list[SnapshotHeader]:
        # Headers have number keys and pieces [slot, index] arrays, which IndexedDB sorts
        # after every number: this range holds the headers only.
        rows = await _wait(
            self._tx(SNAPSHOTS, "readonly")
            .objectStore(SNAPSHOTS)
            .getAll(js.IDBKeyRange.bound(-math.inf, math.inf)),
            "success",
        )
        return [_header(row) for row in rows]

    async def load_snapshot(self, slot: int) -> SnapshotRecord | None:
        # The header and the pieces in one transaction, so a snapshot being written meanwhile
        # is seen either whole or not at all. Both requests are made before either is awaited:
        # a transaction with nothing pending when its task ends commits.
        store = self._tx(SNAPSHOTS, "readonly").objectStore(SNAPSHOTS)
        span = js.IDBKeyRange.bound(to_js([slot, 0]), to_js([slot, math.inf]))
        header_read = _wait(store.get(slot), "success")
        pieces_read = _wait(store.getAll(span), "success")
        row, rows = await header_read, await pieces_read
        if not found(row):
            return None
        pieces = {(int(piece.slot[0]), int(piece.slot[1])): piece.data for piece in rows}
        joined, length = _joined(row, pieces)
        digest = await _sha256_hex(joined.subarray(0, length))
        return SnapshotRecord.read(_header(row), BufferImage(joined, length), digest)

    async def _write(self, store: str, request: Callable[[Any], object]) -> None:
        """Run one write request in a strict transaction and wait until it has committed."""
        tx = self._tx(store, "readwrite")
        try:
            request(tx.objectStore(store))
        except JsException as exc:
            # Some failures (a closed connection, an uncloneable value) throw right away
            # instead of aborting the transaction; the save queue must hear of them the same way.
            raise StorageError(_explain(exc)) from None
        # Otherwise the transaction commits only when the current task ends, after the page
        # has redrawn for the edit; committing now overlaps the write with the redraw. A
        # transaction that already aborted refuses; its abort event then says why.
        with contextlib.suppress(JsException):
            tx.commit()
        await _wait(tx, "complete", True)

    async def clear_slot(self, slot: int) -> None:
        pieces = js.IDBKeyRange.bound(to_js([slot, 0]), to_js([slot, math.inf]))
        await self._write(SNAPSHOTS, lambda store: (store.delete(slot), store.delete(pieces)))

    async def put_piece(self, slot: int, index: int, data: bytes) -> None:
        row = js_object(slot=to_js([slot, index]), data=js.Uint8Array.new(to_js(data)))
        await self._write(SNAPSHOTS, lambda store: store.put(row))

    async def put_header(self, header: SnapshotHeader) -> None:
        row = js_object(**header.as_row())
        await self._write(SNAPSHOTS, lambda store: store.put(row))

    async def append_op(self, seq: int, text: str) -> None:
        await self._write(OPS, lambda store: store.add(js_object(seq=seq, text=text)))

    async def ops_after(self, seq: int) -> list[tuple[int, str]]:
        tx = self._tx(OPS, "readonly")
        rows = await _wait(
            tx.objectStore(OPS).getAll(js.IDBKeyRange.lowerBound(seq, True)), "success"
        )
        return [_op(row) for row in rows]

    async def trim_ops(self, upto_seq: int) -> None:
        await self._write(OPS, lambda store: store.delete(js.IDBKeyRange.upperBound(upto_seq)))


def _header(row: Any) -> SnapshotHeader:
    return SnapshotHeader(
        slot=row.slot,
        seq=row.seq,
        schema_version=row.schema_version,
        length=row.length,
        checksum=row.checksum,
        pieces=getattr(row, "pieces", 1),
    )


def _joined(header: Any, pieces: dict[tuple[int, int], Any]) -> tuple[Any, int]:
    """A slot's data as one buffer and its length: inline in its header (snapshots written
    before they came in pieces), or its pieces in order, in a buffer with room for the working
    copy to grow (app/browser/working_copy.py). A missing piece leaves the data short, which
    the length check then reports as damage."""
    if found(getattr(header, "data", None)):
        return header.data, int(header.data.length)
    parts = [pieces.get((int(header.slot), i)) for i in range(int(header.pieces))]
    present = [part for part in parts if part is not None]
    length = sum(int(part.length) for part in present)
    joined = js.Uint8Array.new(capacity(length))
    offset = 0
    for part in present:
        joined.set(part, offset)
        offset += int(part.length)
    return joined, length


def _op(row: Any) -> tuple[int, str]:
    """A log row as (seq, entry text). A row without its text (damage behind the app's back)
    keeps all it has, as JSON, for the text: it then fails to decode like a torn entry, so
    boot restores up to it, says so and offers it for download."""
    text = getattr(row, "text", None)
    return int(row.seq), text if isinstance(text, str) else str(js.JSON.stringify(row))
