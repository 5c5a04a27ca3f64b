"""A loopback double of a llama.cpp server's OpenAI-compatible API, where Lexical met it in
issue 14, for end-to-end tests of the page against a local server.

What it does, as the servers in the issue did:
- The API is under /v1 only; any other path is a 404 `{"detail":"Not Found"}` (the FastAPI
  answer of llama-cpp-python's server; ggml-org's llama-server serves /models and
  /chat/completions without /v1 too, and says "File Not Found" elsewhere).
- A streamed chat request that offers tools gets a 200 event stream with no chunk before
  `data: [DONE]`, so the model's tool call never arrives (what issue 14 saw; users of other
  llama.cpp-based servers report the same empty stream, while the same request unstreamed
  carries the call).
- A prompt longer than the context (`n_ctx` tokens, counted as four characters each) is refused
  with llama.cpp's HTTP 400 `exceed_context_size_error`, naming both sizes.
- Otherwise it answers unstreamed, in llama.cpp's `chat.completion` shape. The model's turn comes
  from `script`: for the first phrase found in the latest user message that has one, the turns
  in order (the last repeats), each a text or tool calls. After a tool result it says "Done.".
- Cross-origin requests from the page are allowed, as llama.cpp allows them.

Every request is recorded (method, path, JSON body) for the tests to assert on.
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

MODEL = "qwen2.5-1.5b-instruct-q4_k_m.gguf"
DONE_TEXT = "Done."
CHARS_PER_TOKEN = 4
NOT_FOUND = {"detail": "Not Found"}


@dataclass(frozen=True)
class Call:
    """A tool call the model makes."""

    name: str
    arguments: Mapping[str, Any]


Turn = str | Sequence[Call]  # what the model says: a text, or tool calls


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    body: Mapping[str, Any]

    @property
    def streamed(self) -> bool:
        return self.body.get("stream") is True


@dataclass
class LlamaServer:
    url: str
    script: Mapping[str, Sequence[Turn]]
    n_ctx: int = 8_192
    received: list[Received] = field(default_factory=list)
    _used: dict[str, int] = field(default_factory=dict)

    def chats(self) -> list[Received]:
        return [r for r in self.received if r.path == "/v1/chat/completions"]

    def turn(self, messages: Sequence[Mapping[str, Any]]) -> Turn:
        """The model's next turn for a conversation that does not end in a tool result."""
        for message in reversed(messages):
            if message.get("role") != "user":
                continue
            text = str(message.get("content") or "")
            phrase = next((p for p in self.script if p in text), None)
            if phrase is not None:
                turns = self.script[phrase]
                used = self._used.get(phrase, 0)
                self._used[phrase] = used + 1
                return turns[min(used, len(turns) - 1)]
        raise AssertionError(f"the script has no turn for {messages[-1]!r}")


def prompt_tokens(body: Mapping[str, Any]) -> int:
    prompt = json.dumps([body.get("messages"), body.get("tools")], ensure_ascii=False)
    return len(prompt) // CHARS_PER_TOKEN


def overflow(tokens: int, n_ctx: int) -> dict[str, Any]:
    return {
        "error": {
            "code": 400,
            "message": (
                f"request ({tokens} tokens) exceeds the available context size ({n_ctx} "
                "tokens), try increasing it"
            ),
            "type": "exceed_context_size_error",
            "n_prompt_tokens": tokens,
            "n_ctx": n_ctx,
        }
    }


def completion(turn: Turn, tokens: int, number: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if isinstance(turn, str):
        message["content"] = turn
    else:
        message["tool_calls"] = [
            {
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
                "id": f"call_{number}_{index}",
            }
            for index, call in enumerate(turn)
        ]
    return {
        "choices": [
            {
                "finish_reason": "stop" if isinstance(turn, str) else "tool_calls",
                "index": 0,
                "message": message,
            }
        ],
        "created": 1_764_000_000 + number,
        "model": MODEL,
        "system_fingerprint": "b6000-double",
        "object": "chat.completion",
        "usage": {"completion_tokens": 12, "prompt_tokens": tokens, "total_tokens": tokens + 12},
        "id": f"chatcmpl-double{number}",
    }


MODELS = {
    "object": "list",
    "data": [{"id": MODEL, "object": "model", "created": 1_764_000_000, "owned_by": "llamacpp"}],
}


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the tests read `received` instead."""

    def _cors(self) -> None:
        self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or "*")

    def _json(self, status: int, payload: Any) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self._cors()
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _record(self) -> Received:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        received = Received(self.command, self.path, json.loads(raw) if raw else {})
        self.server.double.received.append(received)
        return received

    def do_OPTIONS(self) -> None:
        self.send_response(200)
        self._cors()
        self.send_header("Access-Control-Allow-Methods", "GET, POST")
        self.send_header("Access-Control-Allow-Headers", "*")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        received = self._record()
        if received.path == "/v1/models":
            self._json(200, MODELS)
        else:
            self._json(404, NOT_FOUND)

    def do_POST(self) -> None:
        received = self._record()
        if received.path != "/v1/chat/completions":
            self._json(404, NOT_FOUND)
            return
        double, body = self.server.double, received.body
        tokens = prompt_tokens(body)
        if tokens > double.n_ctx:
            self._json(400, overflow(tokens, double.n_ctx))
        elif received.streamed and body.get("tools"):
            self._empty_stream()
        else:
            messages = body["messages"]
            ended_by_tool = messages[-1]["role"] == "tool"
            turn = DONE_TEXT if ended_by_tool else double.turn(messages)
            self._json(200, completion(turn, tokens, len(double.received)))

    def _empty_stream(self) -> None:
        self.send_response(200)
        self._cors()
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(b"data: [DONE]\n\n")  # HTTP/1.0: closing the connection ends the body


class _Server(http.server.ThreadingHTTPServer):
    double: LlamaServer


@contextmanager
def running_llama_server(script: Mapping[str, Sequence[Turn]]) -> Iterator[LlamaServer]:
    """The double, listening on a free loopback port while the block runs."""
    server = _Server(("127.0.0.1", 0), _Handler)
    host, port = server.server_address[:2]
    server.double = LlamaServer(f"http://{host!s}:{port}", script)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.double
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
