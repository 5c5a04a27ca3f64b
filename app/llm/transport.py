"""The HTTP seam between model clients and the outside world.

The browser implements `Transport` with `fetch` (app/browser/); tests implement it with recorded
or scripted responses, or with a real socket to a loopback emulator. Bodies are bytes so the
clients own JSON encoding and SSE parsing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class HttpRequest:
    method: str
    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes | None = None
    timeout_s: float = 60.0


class HttpResponse(Protocol):
    """A response whose body may still be arriving: read it whole or chunk by chunk, once."""

    @property
    def status(self) -> int: ...

    @property
    def headers(self) -> Mapping[str, str]: ...

    async def read(self) -> bytes: ...

    def chunks(self) -> AsyncIterator[bytes]: ...


class Transport(Protocol):
    """Sends one request. Raises `errors.ProviderError` of kind "offline" when nothing answers
    and "timeout" when `timeout_s` passes before the headers arrive."""

    async def send(self, request: HttpRequest) -> HttpResponse: ...
