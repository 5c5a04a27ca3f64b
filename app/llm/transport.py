"""The HTTP seam between model clients and the outside world.

The browser implements `Transport` with `fetch` (app/browser/); tests implement it with recorded
or scripted responses, or with a real socket to a loopback emulator. Bodies are bytes so the
clients own JSON encoding and SSE parsing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from app.llm.messages import CancelSignal


@dataclass(frozen=True)
class HttpRequest:
    method: str
    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes | None = None
    # Before the headers arrive, and then between two chunks of the body.
    timeout_s: float = 60.0
    # When it is an `app.llm.cancel.CancelToken`, the transport aborts the request on Stop.
    cancel: CancelSignal | None = field(default=None, compare=False)


class HttpResponse(Protocol):
    """A response whose body may still be arriving: read it whole or chunk by chunk, once.

    Reading raises `errors.ProviderError`: "stream_cut" when the connection breaks before the
    body is complete, "timeout" when no byte arrives for `timeout_s`, "stopped" on cancel."""

    @property
    def status(self) -> int: ...

    @property
    def headers(self) -> Mapping[str, str]: ...

    async def read(self) -> bytes: ...

    def chunks(self) -> AsyncIterator[bytes]: ...


class Transport(Protocol):
    """Sends one request. Raises `errors.ProviderError` of kind "offline" when nothing answers
    and "timeout" when `timeout_s` passes before the headers arrive. Headers are sent exactly
    as given; response header names may come in any case."""

    async def send(self, request: HttpRequest) -> HttpResponse: ...
