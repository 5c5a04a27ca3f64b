"""What both wire-format clients share: sending JSON, reading JSON or SSE, mapping failures.

A `Wire` knows the transport, the provider's label and model for sentences, and the secret
to keep out of any message. Everything here raises `ProviderError` only.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from app.llm import failures
from app.llm.cancel import stopped, unless_cancelled
from app.llm.errors import ProviderError
from app.llm.messages import CancelSignal
from app.llm.sse import SseParser
from app.llm.transport import HttpRequest, HttpResponse, Transport

# Failures that are safe to retry as they are when nothing of the answer was shown yet.
_BEFORE_ANY_TEXT = frozenset({"timeout", "offline", "server", "rate_limited", "bad_response"})


@dataclass(frozen=True)
class Wire:
    transport: Transport
    label: str  # "Gemini", "OpenAI", "the server at localhost:11434"
    model: str
    secret: str = ""
    timeout_s: float = 60.0

    def request(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: Any = None,
        cancel: CancelSignal | None = None,
        *,
        timeout_s: float | None = None,
    ) -> HttpRequest:
        """A JSON request; `body` already in bytes is sent as it is, with the caller's
        content-type (a multipart upload). `timeout_s`: this request's own wait."""
        if body is None or isinstance(body, bytes):
            encoded, all_headers = body, headers
        else:
            encoded = json.dumps(body, ensure_ascii=False).encode()
            all_headers = {"content-type": "application/json", **headers}
        return HttpRequest(
            method=method,
            url=url,
            headers=dict(all_headers),
            body=encoded,
            timeout_s=timeout_s or self.timeout_s,
            cancel=cancel,
        )

    async def send(self, request: HttpRequest) -> HttpResponse:
        """Send and return a 2xx response; anything else becomes a typed error."""
        try:
            response = await unless_cancelled(self.transport.send(request), request.cancel)
        except ProviderError as error:
            raise self._restated(error, request.url, request.timeout_s) from None
        if not 200 <= response.status < 300:
            body = await self._read(response, request.cancel)
            raise failures.from_http(
                response.status,
                response.headers,
                body,
                label=self.label,
                model=self.model,
                secrets=(self.secret,),
            )
        return response

    async def whole(self, request: HttpRequest) -> tuple[Mapping[str, str], bytes]:
        """Send, and read a 2xx answer's headers and whole body."""
        response = await self.send(request)
        return response.headers, await self._read(response, request.cancel)

    async def json(self, request: HttpRequest) -> Any:
        _headers, body = await self.whole(request)
        try:
            return json.loads(body)
        except ValueError:
            raise failures.bad_response(self.label) from None

    async def events(
        self, response: HttpResponse, cancel: CancelSignal | None
    ) -> AsyncIterator[str]:
        """The `data` of each SSE event as it completes. Raises `stream_cut` when the body
        ends in the middle of an event."""
        parser = SseParser()
        chunks = response.chunks()
        try:
            while True:
                try:
                    chunk = await unless_cancelled(anext(chunks), cancel)
                except StopAsyncIteration:
                    break
                for event in parser.feed(chunk):
                    yield event.data
        except ProviderError as error:
            raise self._restated(error, "") from None
        finally:
            close = getattr(chunks, "aclose", None)
            if close is not None:
                await close()
        if parser.mid_event:
            raise failures.stream_cut(self.label, "")

    def interrupted(self, error: ProviderError, partial: str) -> ProviderError:
        """What a failure mid-answer means once `partial` text has been shown."""
        if error.kind == "stopped":
            return stopped(partial)
        if not partial and error.kind in _BEFORE_ANY_TEXT:
            return error
        if error.kind in ("bad_key", "permission", "quota", "bad_request"):
            return ProviderError(error.kind, error.message, status=error.status, partial=partial)
        return failures.stream_cut(self.label, partial)

    def stream_error(self, payload: Mapping[str, Any]) -> ProviderError:
        """An `{"error": ...}` object sent inside a stream, as if it had been the answer."""
        error = payload.get("error")
        status = error.get("code") if isinstance(error, dict) else None
        return failures.from_http(
            status if isinstance(status, int) else 500,
            {},
            json.dumps(payload).encode(),
            label=self.label,
            model=self.model,
            secrets=(self.secret,),
        )

    async def _read(self, response: HttpResponse, cancel: CancelSignal | None) -> bytes:
        try:
            return await unless_cancelled(response.read(), cancel)
        except ProviderError as error:
            raise self._restated(error, "") from None

    def _restated(
        self, error: ProviderError, url: str, waited: float | None = None
    ) -> ProviderError:
        """Transports know what failed but not whom we were talking to: say it plainly."""
        if error.kind == "offline":
            return failures.offline(self.label, urlsplit(url).netloc or self.label)
        if error.kind == "timeout":
            return failures.timeout(self.label, seconds=waited or self.timeout_s)
        if error.kind == "stream_cut":
            return failures.stream_cut(self.label, error.partial)
        return error


def parse_event(wire: Wire, data: str, partial: str) -> dict[str, Any]:
    """One SSE event's JSON object; an `{"error": ...}` event raises as that error (callers
    restate any failure with `Wire.interrupted` and the text shown so far)."""
    try:
        payload = json.loads(data)
    except ValueError:
        raise failures.bad_response(wire.label, partial) from None
    if not isinstance(payload, dict):
        raise failures.bad_response(wire.label, partial)
    if "error" in payload:
        raise wire.stream_error(payload)
    return payload
