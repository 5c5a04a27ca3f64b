"""The model clients' `Transport` over the browser's `fetch`.

One AbortController per request serves three purposes: the Stop button (a `CancelToken` on
the request), a timeout that runs until the headers arrive and then between two chunks of
the body (a stream that stalls is cut, one that keeps flowing may take as long as it needs),
and letting go of a body nobody reads any more. The body is read with a ReadableStream
reader, chunk by chunk as bytes. Headers go out exactly as given; no cookies, no referrer.
A request that fails before any answer (no network, DNS, refused, CORS) is "offline".
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from typing import Any

import js
from pyodide.ffi import JsException

from app.browser.dom import found, js_object
from app.browser.timers import Timeout
from app.llm.cancel import CancelToken
from app.llm.errors import ProviderError
from app.llm.transport import HttpRequest, HttpResponse


class _Abort:
    """The request's AbortController, and why it fired."""

    def __init__(self, request: HttpRequest) -> None:
        self.controller = js.AbortController.new()
        self.reason = ""  # "timeout", "stopped" or "closed" once fired
        self._timeout_s = request.timeout_s
        self._timer: Timeout | None = None
        cancel = request.cancel
        self._unsubscribe = (
            cancel.on_cancel(lambda: self.fire("stopped"))
            if isinstance(cancel, CancelToken)
            else None
        )
        self.rearm()

    def fire(self, reason: str) -> None:
        if not self.reason:
            self.reason = reason
            self.controller.abort()

    def rearm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = Timeout(self._timeout_s, lambda: self.fire("timeout"))

    def release(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def error(self, *, reading_body: bool) -> ProviderError:
        if self.reason == "stopped":
            return ProviderError("stopped", "Stopped.")
        if self.reason == "timeout":
            return ProviderError("timeout", "No answer in time.")
        if reading_body:
            return ProviderError("stream_cut", "The connection broke mid-answer.")
        return ProviderError("offline", "The request could not be sent.")


class FetchResponse:
    def __init__(self, response: Any, abort: _Abort) -> None:
        self._response = response
        self._abort = abort
        self.status = int(response.status)
        # Under CORS only the headers the server exposes are visible (Retry-After may not be).
        self.headers: Mapping[str, str] = {
            str(name).lower(): str(value) for name, value in response.headers.entries()
        }

    async def read(self) -> bytes:
        return b"".join([chunk async for chunk in self.chunks()])

    async def chunks(self) -> AsyncIterator[bytes]:
        body = self._response.body
        finished = False
        try:
            if not found(body):
                finished = True
                return
            reader = body.getReader()
            while True:
                try:
                    result = await reader.read()
                except JsException:
                    raise self._abort.error(reading_body=True) from None
                if result.done:
                    finished = True
                    return
                self._abort.rearm()
                yield bytes(result.value.to_bytes())
        finally:
            if not finished:
                self._abort.fire("closed")  # stop the download nobody will read
            self._abort.release()


class FetchTransport:
    async def send(self, request: HttpRequest) -> HttpResponse:
        abort = _Abort(request)
        options: dict[str, Any] = {
            "method": request.method,
            "headers": js_object(**request.headers),
            "signal": abort.controller.signal,
            "credentials": "omit",
            "referrerPolicy": "no-referrer",
            "cache": "no-store",
        }
        if request.body is not None:
            # Bytes as they are: a JSON body is UTF-8, but an audio upload is not text.
            body = js.Uint8Array.new(len(request.body))
            body.assign(request.body)
            options["body"] = body
        try:
            response = await js.fetch(request.url, js_object(**options))
        except JsException:
            abort.release()
            raise abort.error(reading_body=False) from None
        except asyncio.CancelledError:
            abort.fire("stopped")
            abort.release()
            raise
        abort.rearm()
        return FetchResponse(response, abort)
