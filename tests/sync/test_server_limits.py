"""The real sync server (scripts/sync_server.py) takes a collection's whole document in one
message: y-websocket sends a device's first upload, and everything it changed while offline, as
one update. A collection of 30,000 words is a 21 MB update (0.7 KB a word with its reviews,
measured with pycrdt, 2026-12-07) and uvicorn refuses messages over 16 MiB by default: the
server closed the connection ("1009 message too big"), stored nothing, and the device retried
for ever while its toolbar said "Synced" between attempts.
"""

from __future__ import annotations

import asyncio
import base64
import random
import time
from collections.abc import Callable

from pycrdt import (
    Doc,
    Map,
    YMessageType,
    YSyncMessageType,
    create_sync_message,
    create_update_message,
    handle_sync_message,
)
from websockets.asyncio.client import ClientConnection, connect

from e2e.sync_devices import SyncServer

WORDS = 40_000  # about 27 MB of update: over uvicorn's default limit


def _collection(notes: Callable[[], str] = lambda: "n" * 600) -> bytes:
    doc: Doc = Doc()
    words: Map[object] = doc.get("words", type=Map)
    with doc.transaction():
        for index in range(WORDS):
            words[f"w{index}"] = Map({"term": f"word {index}", "notes": notes()})
    return doc.get_update()


def _unlike() -> str:
    """600 characters that compress little: the server compresses what it sends
    (permessage-deflate), and a document of like notes makes a small message."""
    return base64.b64encode(random.randbytes(450)).decode()


async def _server_copy(socket: ClientConnection) -> Doc:
    """Ask for the server's document (sync step 1) and read its answer (step 2): the server
    answers in order, so after everything sent before."""
    doc: Doc = Doc()
    await socket.send(create_sync_message(doc))
    while True:
        message = await asyncio.wait_for(socket.recv(), timeout=60)
        assert isinstance(message, bytes)
        if message[0] == YMessageType.SYNC and message[1] == YSyncMessageType.SYNC_STEP2:
            handle_sync_message(message[1:], doc)
            return doc


async def _upload(url: str, update: bytes) -> None:
    async with connect(url, max_size=None) as socket:
        await socket.send(create_update_message(update))
        await _server_copy(socket)  # refused: the connection closes before the answer


async def _download(url: str) -> Doc:
    async with connect(url, max_size=None) as socket:
        return await _server_copy(socket)


def test_a_big_collection_uploaded_in_one_message_is_kept(server: SyncServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/room-of-a-big-collection"
    update = _collection()
    assert len(update) > 16 * 1024 * 1024
    asyncio.run(_upload(url, update))
    received = asyncio.run(_download(url))
    assert len(received.get("words", type=Map)) == WORDS


async def _asked_twice(url: str) -> int:
    """Ask for the server's document twice at once, as a device far behind does when its
    first request meets a reconnect; returns how many answers came on the one connection."""
    async with connect(url, max_size=None) as socket:
        request = create_sync_message(Doc())
        await socket.send(request)
        await socket.send(request)
        time.sleep(2)  # noqa: ASYNC251 (a device busy applying what came: nothing read)
        answers = 0
        while answers < 2:
            message = await asyncio.wait_for(socket.recv(), timeout=60)
            assert isinstance(message, bytes)
            if message[0] == YMessageType.SYNC and message[1] == YSyncMessageType.SYNC_STEP2:
                answers += 1
        return answers


def test_two_big_answers_at_once_reach_the_device(server: SyncServer) -> None:
    """The server sent each in a task of its own, and websockets fails a send that starts
    while another waits for the device to take a big message in: the connection closed, and a
    paired device of 100,000 words reconnecting after a reload was refused every time."""
    url = f"ws://127.0.0.1:{server.port}/room-asked-twice"
    asyncio.run(_upload(url, _collection(_unlike)))
    assert asyncio.run(_asked_twice(url)) == 2
