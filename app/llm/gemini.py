"""Gemini's REST API: `generateContent` and `streamGenerateContent?alt=sse` (v1beta).

The key travels in the `x-goog-api-key` header, never in the URL. The system prompt is
`systemInstruction`; tools are `functionDeclarations` with parameters translated by
`gemini_schema`; calls come back as `functionCall` parts and are answered with
`functionResponse` parts whose `response` is an object. Gemini may omit call ids, so ids are
made from the turn's position (stable across retries) and never sent back. The model's parts
are kept as they came (`Message.raw`) and replayed unchanged: Gemini 3 rejects a follow-up
whose parts lost their `thoughtSignature`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from app.llm import failures
from app.llm.errors import ProviderError
from app.llm.gemini_schema import function_parameters
from app.llm.messages import (
    CancelSignal,
    FinishReason,
    Message,
    ModelRequest,
    ModelResponse,
    TextSink,
    ToolCall,
    ToolResult,
    ToolSpec,
    Usage,
)
from app.llm.transport import Transport
from app.llm.wire import Wire, parse_event

RAW_PARTS = "gemini_parts"  # Message.raw = {RAW_PARTS: [the model's parts, unchanged]}
SYNTHETIC_ID = "gemini-"  # prefix of call ids made up here, never sent to Gemini
_FINISH: dict[str, FinishReason] = {
    "STOP": "stop",
    "FUNCTION_CALL": "tool_calls",  # what the aimock emulator sends after a function call
    "MAX_TOKENS": "length",
}
_MAX_MODEL_PAGES = 5


def _model_parts(message: Message) -> list[dict[str, Any]]:
    raw = message.raw
    if isinstance(raw, dict) and isinstance(raw.get(RAW_PARTS), list):
        return list(raw[RAW_PARTS])
    parts: list[dict[str, Any]] = [{"text": message.text}] if message.text else []
    for call in message.tool_calls:
        function_call: dict[str, Any] = {"name": call.name, "args": call.arguments}
        if not call.id.startswith(SYNTHETIC_ID):
            function_call["id"] = call.id
        parts.append({"functionCall": function_call})
    return parts


def _contents(request: ModelRequest) -> list[dict[str, Any]]:
    contents: list[dict[str, Any]] = []
    for message in request.messages:
        if message.role == "user":
            contents.append({"role": "user", "parts": [{"text": message.text}]})
        elif message.role == "assistant":
            contents.append({"role": "model", "parts": _model_parts(message)})
        else:
            contents.append({"role": "user", "parts": [_answer(r) for r in message.tool_results]})
    return contents


def _answer(result: ToolResult) -> dict[str, Any]:
    response: dict[str, Any] = {"name": result.name, "response": result.content}
    if not result.call_id.startswith(SYNTHETIC_ID):
        response["id"] = result.call_id
    return {"functionResponse": response}


def _declaration(tool: ToolSpec) -> dict[str, Any]:
    declaration: dict[str, Any] = {"name": tool.name, "description": tool.description}
    parameters = function_parameters(tool.parameters)
    if parameters is not None:
        declaration["parameters"] = parameters
    return declaration


def request_body(request: ModelRequest) -> dict[str, Any]:
    body: dict[str, Any] = {"contents": _contents(request)}
    if request.system:
        body["systemInstruction"] = {"parts": [{"text": request.system}]}
    if request.tools:
        body["tools"] = [{"functionDeclarations": [_declaration(t) for t in request.tools]}]
        mode = "AUTO" if request.tool_choice == "auto" else "NONE"
        body["toolConfig"] = {"functionCallingConfig": {"mode": mode}}
    config: dict[str, Any] = {"maxOutputTokens": request.max_output_tokens}
    if request.temperature is not None:
        config["temperature"] = request.temperature
    body["generationConfig"] = config
    return body


def _plain_text(part: dict[str, Any]) -> bool:
    return set(part) == {"text"} and isinstance(part["text"], str)


@dataclass
class TurnAssembler:
    """Builds one turn from `GenerateContentResponse` objects (one, or one per SSE event)."""

    turn: int  # position of this turn in the conversation, for stable synthetic ids
    parts: list[dict[str, Any]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    finish: str | None = None
    blocked: str = ""
    usage: Usage | None = None

    def add(self, payload: dict[str, Any]) -> str:
        """Take one response object; returns the answer text it adds (thoughts excluded)."""
        added = ""
        for part in self._candidate_parts(payload):
            if not isinstance(part, dict):
                raise ValueError("a part that is not an object")
            if _plain_text(part) and self.parts and _plain_text(self.parts[-1]):
                self.parts[-1] = {"text": self.parts[-1]["text"] + part["text"]}
            else:
                self.parts.append(part)
            if isinstance(part.get("text"), str) and not part.get("thought"):
                added += part["text"]
        feedback = payload.get("promptFeedback") or {}
        if feedback.get("blockReason"):
            self.blocked = f"prompt blocked: {feedback['blockReason']}"
        metadata = payload.get("usageMetadata")
        if isinstance(metadata, dict):
            self.usage = Usage(
                input_tokens=int(metadata.get("promptTokenCount") or 0),
                output_tokens=int(metadata.get("candidatesTokenCount") or 0)
                + int(metadata.get("thoughtsTokenCount") or 0),
            )
        self.text.append(added)
        return added

    def _candidate_parts(self, payload: dict[str, Any]) -> list[Any]:
        candidates = payload.get("candidates") or []
        if not candidates:
            return []
        candidate = candidates[0]
        self.finish = candidate.get("finishReason") or self.finish
        return list((candidate.get("content") or {}).get("parts") or [])

    @property
    def shown(self) -> str:
        return "".join(self.text)

    @property
    def finished(self) -> bool:
        return self.finish is not None or bool(self.blocked)

    def result(self) -> ModelResponse:
        calls = [
            ToolCall(
                id=str(p["functionCall"].get("id") or f"{SYNTHETIC_ID}{self.turn}-{i}"),
                name=str(p["functionCall"]["name"]),
                arguments=dict(p["functionCall"].get("args") or {}),
            )
            for i, p in enumerate(x for x in self.parts if "functionCall" in x)
        ]
        finish = _FINISH.get(self.finish or "", "other")
        if calls and finish == "stop":
            finish = "tool_calls"  # Gemini itself says STOP after a function call
        return ModelResponse(
            message=Message(
                role="assistant",
                text=self.shown,
                tool_calls=tuple(calls),
                raw={RAW_PARTS: self.parts},
            ),
            finish_reason=finish,
            usage=self.usage or Usage(),
            finish_detail="" if finish != "other" else self.blocked or str(self.finish),
        )


def key_header(key: str) -> dict[str, str]:
    return {"x-goog-api-key": key}


def model_url(base_url: str, model: str, method: str) -> str:
    """A model method's address, e.g. `.../models/gemini-2.5-flash:generateContent`."""
    name = quote(model.removeprefix("models/"), safe="")
    return f"{base_url.rstrip('/')}/models/{name}:{method}"


class GeminiClient:
    provider = "gemini"

    def __init__(
        self,
        transport: Transport,
        *,
        model: str,
        base_url: str,
        api_key: str,
        timeout_s: float = 60.0,
    ) -> None:
        self.model = model.removeprefix("models/")
        self._base = base_url.rstrip("/")
        self._headers = key_header(api_key)
        self._wire = Wire(transport, "Gemini", self.model, secret=api_key, timeout_s=timeout_s)

    def _url(self, method: str) -> str:
        return model_url(self._base, self.model, method)

    async def complete(
        self,
        request: ModelRequest,
        on_text: TextSink | None = None,
        cancel: CancelSignal | None = None,
    ) -> ModelResponse:
        body = request_body(request)
        assembler = TurnAssembler(turn=len(request.messages))
        if on_text is None:
            http = self._wire.request(
                "POST", self._url("generateContent"), self._headers, body, cancel
            )
            payload = await self._wire.json(http)
            try:
                assembler.add(payload)
                return assembler.result()
            except (KeyError, TypeError, ValueError, AttributeError):
                raise failures.bad_response(self._wire.label) from None
        url = self._url("streamGenerateContent") + "?alt=sse"
        headers = {**self._headers, "accept": "text/event-stream"}
        response = await self._wire.send(self._wire.request("POST", url, headers, body, cancel))
        try:
            async for data in self._wire.events(response, cancel):
                payload = parse_event(self._wire, data, assembler.shown)
                try:
                    delta = assembler.add(payload)
                except (KeyError, TypeError, ValueError, AttributeError):
                    raise failures.bad_response(self._wire.label, assembler.shown) from None
                if delta:
                    on_text(delta)
        except ProviderError as error:
            raise self._wire.interrupted(error, assembler.shown) from None
        if not assembler.finished:
            raise failures.stream_cut(self._wire.label, assembler.shown)
        return assembler.result()

    async def list_models(self) -> list[str]:
        """Models that can `generateContent`, following pages."""
        names: list[str] = []
        token = ""
        for _ in range(_MAX_MODEL_PAGES):
            url = f"{self._base}/models?pageSize=1000" + (
                f"&pageToken={quote(token)}" if token else ""
            )
            payload = await self._wire.json(self._wire.request("GET", url, self._headers))
            try:
                names += [
                    str(m["name"]).removeprefix("models/")
                    for m in payload.get("models") or []
                    if "generateContent" in (m.get("supportedGenerationMethods") or [])
                ]
                token = str(payload.get("nextPageToken") or "")
            except (KeyError, TypeError, AttributeError):
                raise failures.bad_response(self._wire.label) from None
            if not token:
                break
        return sorted(set(names))
