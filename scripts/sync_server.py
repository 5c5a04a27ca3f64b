"""The sync server (`make sync-server`): pycrdt-websocket's y-websocket server, rooms in SQLite.

Only wiring of the library, no sync logic of ours (decision 041): the room is the URL's path (a
device's sync code), each room's updates are kept by pycrdt-store's SQLiteYStore in one database
under the data folder, keyed by room, and loaded into the room's document when it opens, so a
restart (even after SIGKILL) serves what was there. Faults of the library's room are worked
around below (decision 041): sends to a device that has left, or at once on one connection,
which closed connections or stopped the server; a room that did not yet watch its document
when it served its first devices; a room closed before its updates were written. uvicorn
serves it as ASGI, over websockets (its sans-I/O implementation: the older one fails a send
that starts while another waits for a slow device, its own keepalive pings included). Listens
on loopback unless told otherwise: put it behind a TLS proxy to reach it from elsewhere.

A device sends its first upload (and what it changed while offline) as one message: about
0.7 KB a word with its reviews, so 70 MB at 100,000 words. uvicorn refuses messages over 16 MiB
by default, which stopped collections of about 24,000 words from ever syncing; the limit here
is `--max-message-mb` (256 by default: about 350,000 words).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Awaitable, Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

import uvicorn
from anyio import Event, Lock, sleep
from pycrdt import Channel, Doc, Subscription, TransactionEvent
from pycrdt.store import SQLiteYStore, YDocNotFound
from pycrdt.websocket import ASGIServer, WebsocketServer, YRoom

MAX_MESSAGE_MB = 256


class _Connection(Channel):
    """A device's connection, where what is sent after the device has gone is dropped.

    A room sends each update to every device in tasks of its own: one sent to a device that had
    just left raised (uvicorn's ClientDisconnected, or a RuntimeError once the connection's ASGI
    call had ended), which ended the room's tasks and with them the server's, so every device
    was refused until a restart (tests/sync/test_server_connections.py)."""

    def __init__(self, websocket: Channel) -> None:
        self._websocket = websocket
        self._gone = False
        # One send at a time: websockets fails a second send while the first waits for the
        # device to take a big message in (an AssertionError in its drain, which closed the
        # connection: a paired 100,000-word device reconnecting was refused every time).
        self._sending = Lock()

    @property
    def path(self) -> str:
        return self._websocket.path

    async def send(self, message: bytes) -> None:
        async with self._sending:
            if self._gone:
                return
            with suppress(OSError):  # ClientDisconnected: gone, and not read yet
                await self._websocket.send(message)

    async def recv(self) -> bytes:
        try:
            return await self._websocket.recv()
        except StopAsyncIteration:  # the device disconnected
            self._gone = True
            raise


class _Store(SQLiteYStore):
    """A room's updates in the data folder's database, counting those the room has still to
    write: the room writes each in a task of its own, which closing the room cancelled, so what
    a device sent just before it left (its last edit, as a phone's tab is closed) was never
    stored (tests/sync/test_server_connections.py: none of 20)."""

    def __init__(self, name: str, database: str) -> None:
        super().__init__(path=name)
        self.db_path = database  # the library's documented way: a per-instance path
        self._handed = 0  # updates of the document since `watch`
        self._written = 0

    def watch(self, doc: Doc) -> Subscription:
        """Count `doc`'s updates from now on, as the room hands each to `write`."""
        return doc.observe(self._count)

    def _count(self, _event: TransactionEvent) -> None:
        self._handed += 1

    async def write(self, data: bytes) -> None:
        try:
            await super().write(data)
        finally:
            self._written += 1

    async def all_written(self) -> None:
        while self._written < self._handed:  # noqa: ASYNC110 (a count, not one event)
            await sleep(0.01)


class _Server(WebsocketServer):
    """pycrdt-websocket's server, with each room backed by the data folder's store."""

    def __init__(self, database: Path) -> None:
        super().__init__(rooms_ready=False)
        self._database = str(database)
        self._opening: dict[str, Event] = {}

    async def serve(self, websocket: Channel) -> None:
        await super().serve(_Connection(websocket))

    async def get_room(self, name: str) -> YRoom:
        """The room `name`, once it has loaded its stored updates and watches its document.

        A room watches its document (to send each update to the other devices and store it)
        only once ready: a device served before then, because it connected while another's
        connection was loading the room, had its updates applied unwatched, reaching no one
        and never stored (tests/sync/test_server_connections.py). Every connection waits instead."""
        opening = self._opening.get(name)
        if opening is not None:
            await opening.wait()
        elif name not in self.rooms:
            opening = self._opening[name] = Event()
            try:
                self.rooms[name] = await self._opened(name)
            finally:
                del self._opening[name]
                opening.set()
        if name not in self.rooms:
            raise RuntimeError(f"the room {name!r} could not be opened")
        return self.rooms[name]

    async def _opened(self, name: str) -> YRoom:
        store = _Store(name, self._database)
        room = YRoom(ready=False, ystore=store, log=self.log)
        assert self._task_group is not None  # the ASGI app runs inside the server
        await self._task_group.start(store.start)
        # Not ready while loading, so the stored updates are not written back as new ones.
        with suppress(YDocNotFound):  # a room's first connection: nothing stored yet
            await store.apply_updates(room.ydoc)
        room.ready = True
        await self.start_room(room)
        await room.ydoc_observed.wait()
        store.watch(room.ydoc)  # before any device is served: the room's updates, one for one
        return room

    async def delete_room(self, *, name: str | None = None, room: YRoom | None = None) -> None:
        """Close a room its last device has left, once its updates are written, and its store
        with it (the library left each store's database open: 42 more open files after 150
        devices came and went one at a time)."""
        if room is None:
            assert name is not None
            room = self.rooms[name]
        store = room.ystore
        if isinstance(store, _Store):
            await store.all_written()
        if room.clients:  # a device came meanwhile
            return
        await super().delete_room(room=room)
        if store is not None:
            await store.stop()


Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def app(data: Path) -> Callable[[dict[str, Any], Receive, Send], Awaitable[None]]:
    """The ASGI app: the websocket server runs (its task group open) for uvicorn's lifespan."""
    data.mkdir(parents=True, exist_ok=True)
    server = _Server(data / "rooms.sqlite")
    asgi = ASGIServer(server)

    async def served(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            async with server:
                await asgi(scope, receive, send)
        else:
            await asgi(scope, receive, send)

    return served


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("SYNC_HOST") or "127.0.0.1")
    parser.add_argument("--port", type=int, default=int(os.environ.get("SYNC_PORT") or 8765))
    data = os.environ.get("SYNC_DATA") or "sync-data"
    parser.add_argument("--data", type=Path, default=Path(data))
    limit = int(os.environ.get("SYNC_MAX_MESSAGE_MB") or MAX_MESSAGE_MB)
    parser.add_argument("--max-message-mb", type=int, default=limit)
    args = parser.parse_args()
    uvicorn.run(
        app(args.data),
        host=args.host,
        port=args.port,
        ws="websockets-sansio",
        ws_max_size=args.max_message_mb * 1024 * 1024,
        log_level="info",
    )


if __name__ == "__main__":
    main()
