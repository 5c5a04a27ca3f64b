"""The sync server (`make sync-server`): pycrdt-websocket's y-websocket server, rooms in SQLite.

Only wiring of the library, no sync logic of ours (decision 041): the room is the URL's path (a
device's sync code), each room's updates are kept by pycrdt-store's SQLiteYStore in one database
under the data folder, keyed by room, and loaded into the room's document when it opens, so a
restart (even after SIGKILL) serves what was there. uvicorn serves it as ASGI, over websockets.
Listens on loopback unless told otherwise: put it behind a TLS proxy to reach it from elsewhere.

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
from pycrdt.store import SQLiteYStore, YDocNotFound
from pycrdt.websocket import ASGIServer, WebsocketServer, YRoom

MAX_MESSAGE_MB = 256


class _Server(WebsocketServer):
    """pycrdt-websocket's server, with each room backed by the data folder's store."""

    def __init__(self, database: Path) -> None:
        super().__init__(rooms_ready=False)
        self._database = str(database)

    async def get_room(self, name: str) -> YRoom:
        if name not in self.rooms:
            store = SQLiteYStore(path=name)
            store.db_path = self._database  # the library's documented way: a per-instance path
            room = YRoom(ready=False, ystore=store, log=self.log)
            self.rooms[name] = room
            assert self._task_group is not None  # the ASGI app runs inside the server
            await self._task_group.start(store.start)
            # Not ready while loading, so the stored updates are not written back as new ones.
            with suppress(YDocNotFound):  # a room's first connection: nothing stored yet
                await store.apply_updates(room.ydoc)
            room.ready = True
        room = self.rooms[name]
        await self.start_room(room)
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
