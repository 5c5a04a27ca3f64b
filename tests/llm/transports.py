"""Transports for CPython tests: a scripted one (fixture bytes cut at random places) and a real
socket one (http.client in a thread) for talking to the aimock emulator on loopback."""

from __future__ import annotations

import asyncio
import http.client
import itertools
import json
import random
import socket
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from app.llm.errors import ProviderError
from app.llm.transport import HttpRequest, HttpResponse


def sse(*payloads: Any, done: bool = False, crlf: bool = False) -> bytes:
    """An SSE body with one event per payload (JSON unless already a string)."""
    end = "\r\n" if crlf else "\n"
    events = [p if isinstance(p, str) else json.dumps(p, ensure_ascii=False) for p in payloads]
    if done:
        events.append("[DONE]")
    return "".join(f"data: {e}{end}{end}" for e in events).encode()


@dataclass
class Reply:
    """One scripted answer. `cut_after` raises that error after the body's bytes; `hang`
    never finishes the body (for Stop and timeouts); `error` fails the send itself."""

    status: int = 200
    body: bytes | str | dict[str, Any] = b""
    headers: dict[str, str] = field(default_factory=dict)
    error: ProviderError | None = None
    cut_after: ProviderError | None = None
    hang: bool = False

    def encoded(self) -> bytes:
        if isinstance(self.body, dict):
            return json.dumps(self.body).encode()
        return self.body.encode() if isinstance(self.body, str) else self.body


class ScriptedResponse:
    def __init__(self, reply: Reply, pieces: list[bytes]) -> None:
        self._reply = reply
        self._pieces = pieces
        self.closed = False

    @property
    def status(self) -> int:
        return self._reply.status

    @property
    def headers(self) -> Mapping[str, str]:
        return self._reply.headers

    async def read(self) -> bytes:
        return b"".join([piece async for piece in self.chunks()])

    async def chunks(self) -> AsyncIterator[bytes]:
        try:
            for piece in self._pieces:
                await asyncio.sleep(0)
                yield piece
            if self._reply.hang:
                await asyncio.Event().wait()
            if self._reply.cut_after is not None:
                raise self._reply.cut_after
        finally:
            self.closed = True


class ScriptedTransport:
    """Plays `replies` in order, records every request and fails on one too many."""

    def __init__(self, *replies: Reply, seed: int = 0) -> None:
        self.replies = list(replies)
        self.requests: list[HttpRequest] = []
        self.responses: list[ScriptedResponse] = []
        self.requested = asyncio.Event()  # set by the first request
        self._random = random.Random(seed)

    async def send(self, request: HttpRequest) -> HttpResponse:
        self.requests.append(request)
        self.requested.set()
        assert self.replies, f"unexpected request to {request.url}"
        reply = self.replies.pop(0)
        await asyncio.sleep(0)
        if reply.error is not None:
            raise reply.error
        response = ScriptedResponse(reply, self._cut(reply.encoded()))
        self.responses.append(response)
        return response

    def _cut(self, data: bytes) -> list[bytes]:
        points = sorted(self._random.sample(range(1, len(data)), min(max(len(data) - 1, 0), 12)))
        edges = [0, *points, len(data)] if data else [0, 0]
        return [data[a:b] for a, b in itertools.pairwise(edges) if b > a]

    def json_sent(self, index: int = -1) -> Any:
        body = self.requests[index].body
        assert body is not None
        return json.loads(body)


class _SocketResponse:
    def __init__(self, connection: http.client.HTTPConnection, response: http.client.HTTPResponse):
        self._connection = connection
        self._response = response

    @property
    def status(self) -> int:
        return self._response.status

    @property
    def headers(self) -> Mapping[str, str]:
        return {k.lower(): v for k, v in self._response.getheaders()}

    async def read(self) -> bytes:
        return b"".join([chunk async for chunk in self.chunks()])

    async def chunks(self) -> AsyncIterator[bytes]:
        try:
            while True:
                try:
                    chunk = await asyncio.to_thread(self._response.read1, 65536)
                except (http.client.IncompleteRead, ConnectionError) as error:
                    raise ProviderError("stream_cut", "the connection broke") from error
                except TimeoutError as error:
                    raise ProviderError("timeout", "no data arrived in time") from error
                if not chunk:
                    return
                yield chunk
        finally:
            self._connection.close()


class SocketTransport:
    """Real HTTP/1.1 over a socket, for a server on this machine only."""

    def __init__(self) -> None:
        self.requests: list[HttpRequest] = []

    async def send(self, request: HttpRequest) -> HttpResponse:
        self.requests.append(request)
        url = urlsplit(request.url)
        assert url.hostname in ("127.0.0.1", "localhost"), "tests talk to loopback only"
        connection = http.client.HTTPConnection(url.netloc, timeout=request.timeout_s)
        target = url.path + (f"?{url.query}" if url.query else "")
        try:
            await asyncio.to_thread(
                connection.request, request.method, target, request.body, dict(request.headers)
            )
            response = await asyncio.to_thread(connection.getresponse)
        except (ConnectionError, http.client.RemoteDisconnected, socket.gaierror) as error:
            connection.close()
            raise ProviderError("offline", "nothing answered") from error
        except TimeoutError as error:
            connection.close()
            raise ProviderError("timeout", "no answer in time") from error
        return _SocketResponse(connection, response)
