"""Two tabs, one writer: a Web Lock decides which tab may change the collection.

The tab holding the lock writes and broadcasts each saved edit on a BroadcastChannel; other
tabs are read-only followers that apply those edits live, and wait in the lock's queue so the
next one takes over when the writer closes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import js
from pyodide.ffi import create_proxy

from app.browser.dom import found, js_object

LOCK_NAME = "lexical-writer"
CHANNEL_NAME = "lexical-edits"


def _hold_forever(_resolve: Any, _reject: Any) -> None:
    """Executor of a promise that never settles: the lock stays held while the tab lives."""


class WriterLock:
    """Try for the writer lock now; if taken, queue for it and call `on_promoted` later."""

    def __init__(self) -> None:
        self._proxies: list[Any] = []

    def _proxy(self, fn: Callable[..., Any]) -> Any:
        proxy = create_proxy(fn)
        self._proxies.append(proxy)
        return proxy

    async def acquire_now(self) -> bool:
        if not hasattr(js.navigator, "locks"):
            return True  # no Web Locks (very old browser): behave as a single tab
        got: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def granted(lock: Any) -> Any:
            got.set_result(found(lock))
            if not found(lock):
                return None
            return js.Promise.new(self._proxy(_hold_forever))

        js.navigator.locks.request(LOCK_NAME, js_object(ifAvailable=True), self._proxy(granted))
        return await got

    def wait_for_turn(self, on_promoted: Callable[[], None]) -> None:
        def granted(_lock: Any) -> Any:
            on_promoted()
            return js.Promise.new(self._proxy(_hold_forever))

        js.navigator.locks.request(LOCK_NAME, self._proxy(granted))


class EditChannel:
    """Broadcast saved edits (seq, encoded entry) to the other tabs of this origin."""

    def __init__(self, on_edit: Callable[[int, str], None]) -> None:
        self._channel = js.BroadcastChannel.new(CHANNEL_NAME)

        def received(event: Any) -> None:
            data = event.data
            on_edit(int(data.seq), str(data.text))

        self._listener = create_proxy(received)
        self._channel.onmessage = self._listener

    def send(self, seq: int, text: str) -> None:
        self._channel.postMessage(js_object(seq=seq, text=text))
