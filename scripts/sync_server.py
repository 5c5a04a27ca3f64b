"""The sync server (`make sync-server`): pycrdt-websocket's y-websocket server, rooms in SQLite.

Only wiring of the library, no sync logic of ours (decision 041): the room is the URL's path (a
device's sync code), each room's updates are kept by pycrdt-store's SQLiteYStore in one database
under the data folder, keyed by room, and loaded into the room's document when it opens, so a
restart (even after SIGKILL) serves what was there. Two faults of the library's room are worked
around below (decision 041): a send to a device that has left, which stopped the server, and a
room that did not yet watch its document when it served its first devices. uvicorn serves it
as ASGI, over websockets. Listens on loopback unless told otherwise: put it behind a TLS proxy
to reach it from elsewhere.

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
from anyio import Event
from pycrdt import Channel
from pycrdt.store import SQLiteYStore, YDocNotFound
from pycrdt.websocket import ASGIServer, WebsocketServer, YRoom

MAX_MESSAGE_MB = 256


class _Connection(Channel):
    """A device's connection, where what is sent after the device has gone is dropped.

    A room sends each update to every device in tasks of its own: one sent to a device that had
    just left raised, which ended the room's tasks and with them the server's, so every device
    was refused until a restart (tests/sync/test_server_connections.py)."""

    def __init__(self, websocket: Channel) -> None:
        self._websocket = websocket

    @property
    def path(self) -> str:
        return self._websocket.path

    async def send(self, message: bytes) -> None:
        with suppress(OSError):  # uvicorn's ClientDisconnected
            await self._websocket.send(message)

    async def recv(self) -> bytes:
        return await self._websocket.recv()


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
        and never stored (tests/sync/test_server_reopen.py). Every connection waits instead."""
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
        store = SQLiteYStore(path=name)
        store.db_path = self._database  # the library's documented way: a per-instance path
        room = YRoom(ready=False, ystore=store, log=self.log)
        assert self._task_group is not None  # the ASGI app runs inside the server
        await self._task_group.start(store.start)
        # Not ready while loading, so the stored updates are not written back as new ones.
        with suppress(YDocNotFound):  # a room's first connection: nothing stored yet
            await store.apply_updates(room.ydoc)
        room.ready = True
        await self.start_room(room)
        await room.ydoc_observed.wait()
        return room


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
        ws="websockets",
        ws_max_size=args.max_message_mb * 1024 * 1024,
        log_level="info",
    )


if __name__ == "__main__":
    main()
