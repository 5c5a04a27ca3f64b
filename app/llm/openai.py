"""OpenAI Chat Completions, for OpenAI itself and any server that speaks the same wire format
(Ollama at http://localhost:11434/v1, LM Studio, the llama.cpp server, Groq).

Requests: the system prompt as the first message; assistant turns with `tool_calls` whose
`arguments` are JSON strings and whose `content` is "" (some compatible servers reject null);
one `tool` message per result. Streaming reads SSE chunks, assembling tool calls from deltas
keyed by `index`, until `data: [DONE]`. OpenAI itself takes `max_completion_tokens` (its
reasoning models refuse `max_tokens`); compatible servers get `max_tokens`, the name all of
them understand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from app.llm import failures
from app.llm.errors import ProviderError
from app.llm.messages import (
    CancelSignal,
    FinishReason,
    Message,
    ModelRequest,
    ModelResponse,
    TextSink,
    ToolCall,
    Usage,
)
from app.llm.sse import DONE
from app.llm.transport import Transport
from app.llm.wire import Wire, parse_event

TokenParam = Literal["max_completion_tokens", "max_tokens"]
_FINISH: dict[str, FinishReason] = {
    "stop": "stop",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "length": "length",
}
# Model ids on OpenAI's list that cannot chat (audio, images, embeddings, moderation).
_NOT_CHAT = ("embedding", "whisper", "tts", "dall-e", "moderation", "transcribe", "image", "sora")


def _tool_call_json(call: ToolCall) -> dict[str, Any]:
    arguments = call.arguments_text
    if arguments is None:
        arguments = json.dumps(call.arguments, ensure_ascii=False)
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": arguments},
    }


def _messages_json(request: ModelRequest) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if request.system:
        out.append({"role": "system", "content": request.system})
    for message in request.messages:
        if message.role == "user":
            out.append({"role": "user", "content": message.text})
        elif message.role == "assistant":
            turn: dict[str, Any] = {"role": "assistant", "content": message.text}
            if message.tool_calls:
                turn["tool_calls"] = [_tool_call_json(c) for c in message.tool_calls]
            out.append(turn)
        else:
            out.extend(
                {
                    "role": "tool",
                    "tool_call_id": result.call_id,
                    "content": json.dumps(result.content, ensure_ascii=False),
                }
                for result in message.tool_results
            )
    return out


def request_body(
    request: ModelRequest, *, model: str, stream: bool, token_param: TokenParam
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        "messages": _messages_json(request),
        token_param: request.max_output_tokens,
    }
    if request.tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": tool.parameters,
                },
            }
            for tool in request.tools
        ]
        body["tool_choice"] = request.tool_choice
    if request.temperature is not None:
        body["temperature"] = request.temperature
    if stream:
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}
    return body


def _tool_call(call_id: str, name: str, arguments: str) -> ToolCall:
    try:
        parsed = json.loads(arguments) if arguments.strip() else {}
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        return ToolCall(id=call_id, name=name, arguments=parsed)
    return ToolCall(id=call_id, name=name, arguments_text=arguments)


def _usage(payload: dict[str, Any]) -> Usage | None:
    usage = payload.get("usage")
    if not isinstance(usage, dict):
        return None
    return Usage(
        input_tokens=int(usage.get("prompt_tokens") or 0),
        output_tokens=int(usage.get("completion_tokens") or 0),
    )


def _response(
    text: str, calls: list[ToolCall], reason: str | None, usage: Usage | None
) -> ModelResponse:
    finish = _FINISH.get(reason or "stop", "other")
    if calls and finish == "stop":
        finish = "tool_calls"  # some compatible servers say "stop" after calling tools
    return ModelResponse(
        message=Message(role="assistant", text=text, tool_calls=tuple(calls)),
        finish_reason=finish,
        usage=usage or Usage(),
        finish_detail="" if finish != "other" else str(reason),
    )


def parse_completion(payload: Any) -> ModelResponse:
    """A non-streamed `chat.completion` object. Raises ValueError/KeyError/TypeError when
    it is not one."""
    choice = payload["choices"][0]
    message = choice["message"]
    calls = [
        _tool_call(str(c["id"]), str(c["function"]["name"]), str(c["function"]["arguments"]))
        for c in message.get("tool_calls") or []
    ]
    return _response(
        str(message.get("content") or ""), calls, choice.get("finish_reason"), _usage(payload)
    )


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


@dataclass
class StreamAssembler:
    """Builds one turn from `chat.completion.chunk` objects."""

    text: list[str] = field(default_factory=list)
    calls: dict[int, _PartialCall] = field(default_factory=dict)
    finish: str | None = None
    usage: Usage | None = None

    def add(self, chunk: dict[str, Any]) -> str:
        """Take one chunk; returns the text it adds."""
        self.usage = _usage(chunk) or self.usage
        added = ""
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            added += str(delta.get("content") or "")
            for position, piece in enumerate(delta.get("tool_calls") or []):
                self._add_call_piece(piece, position)
            self.finish = choice.get("finish_reason") or self.finish
        self.text.append(added)
        return added

    def _add_call_piece(self, piece: dict[str, Any], position: int) -> None:
        index = piece.get("index")
        call = self.calls.setdefault(index if isinstance(index, int) else position, _PartialCall())
        call.id = call.id or str(piece.get("id") or "")
        function = piece.get("function") or {}
        call.name = call.name or str(function.get("name") or "")
        call.arguments.append(str(function.get("arguments") or ""))

    @property
    def shown(self) -> str:
        return "".join(self.text)

    def result(self) -> ModelResponse:
        calls = [
            _tool_call(call.id or f"call_{index}", call.name, "".join(call.arguments))
            for index, call in sorted(self.calls.items())
        ]
        return _response(self.shown, calls, self.finish, self.usage)


def auth_headers(key: str) -> dict[str, str]:
    """The bearer key; keyless local servers get no Authorization header at all."""
    return {"authorization": f"Bearer {key}"} if key else {}


# Servers whose answer to a streamed request was empty, no bytes or [DONE] alone (llama.cpp's
# server does that when a streamed request with tools ends in a tool call): asked unstreamed
# from then on in this page, so their tool calls arrive. The whole answer is then shown at once.
_UNSTREAMED: set[str] = set()
# Unstreamed, the whole answer comes at once, so its wait covers all of it, not the first words.
UNSTREAMED_WAIT = 3.0  # times the seconds set in AI settings


class OpenAIClient:
    def __init__(
        self,
        transport: Transport,
        *,
        model: str,
        base_url: str,
        api_key: str = "",
        provider: str = "openai",
        label: str = "OpenAI",
        token_param: TokenParam = "max_completion_tokens",
        timeout_s: float = 60.0,
    ) -> None:
        self.provider = provider
        self.model = model
        self._base = base_url.rstrip("/")
        self._key = api_key
        self._token_param: TokenParam = token_param
        self._wire = Wire(transport, label, model, secret=api_key, timeout_s=timeout_s)

    def _headers(self, stream: bool = False) -> dict[str, str]:
        accept = "text/event-stream" if stream else "application/json"
        return {"accept": accept, **auth_headers(self._key)}

    async def complete(
        self,
        request: ModelRequest,
        on_text: TextSink | None = None,
        cancel: CancelSignal | None = None,
    ) -> ModelResponse:
        stream = on_text is not None and self._base not in _UNSTREAMED
        body = request_body(request, model=self.model, stream=stream, token_param=self._token_param)
        http = self._wire.request(
            "POST",
            f"{self._base}/chat/completions",
            self._headers(stream),
            body,
            cancel,
            timeout_s=None if stream else self._wire.timeout_s * UNSTREAMED_WAIT,
        )
        if on_text is None or not stream:
            payload = await self._wire.json(http)
            try:
                whole = parse_completion(payload)
            except (KeyError, IndexError, TypeError, ValueError):
                raise failures.bad_response(self._wire.label) from None
            if on_text is not None and whole.message.text:
                on_text(whole.message.text)
            return whole
        response = await self._wire.send(http)
        assembler = StreamAssembler()
        done = False
        try:
            async for data in self._wire.events(response, cancel):
                if data.strip() == DONE:
                    done = True
                    break
                delta = assembler.add(parse_event(self._wire, data, assembler.shown))
                if delta:
                    on_text(delta)
        except ProviderError as error:
            raise self._wire.interrupted(error, assembler.shown) from None
        if assembler.finish is None and not assembler.shown and not assembler.calls:
            # Nothing at all arrived, not even a finish (no bytes, or [DONE] alone): ask again,
            # unstreamed.
            _UNSTREAMED.add(self._base)
            return await self.complete(request, on_text, cancel)
        if assembler.finish is None and not done:
            raise failures.stream_cut(self._wire.label, assembler.shown)
        return assembler.result()  # [DONE], or a server that ends without it after finishing

    async def list_models(self) -> list[str]:
        http = self._wire.request("GET", f"{self._base}/models", self._headers())
        payload = await self._wire.json(http)
        try:
            ids = sorted({str(entry["id"]) for entry in payload["data"]})
        except (KeyError, TypeError):
            raise failures.bad_response(self._wire.label) from None
        if self.provider == "openai":
            ids = [i for i in ids if not any(word in i for word in _NOT_CHAT)]
        return ids
