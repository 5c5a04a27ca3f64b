"""Provider-neutral conversation types shared by the agents and every wire-format client.

A client turns a `ModelRequest` into its provider's JSON and the provider's answer back into a
`ModelResponse`. Provider-specific data that must be replayed unchanged (Gemini's
`thoughtSignature` parts, for instance) rides along in `raw` and is never interpreted elsewhere.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["user", "assistant", "tool"]
FinishReason = Literal["stop", "tool_calls", "length", "stopped", "other"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ToolCall(_Frozen):
    """One function call the model asked for; `arguments` is already parsed JSON (may be invalid
    for the tool, which the agent loop checks)."""

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    # The model's own text when it was not a JSON object (then `arguments` is empty), so the
    # agent loop can quote it in its one repair try.
    arguments_text: str | None = None


class ToolResult(_Frozen):
    """The answer to one `ToolCall`, sent back to the model. `content` must be a JSON object."""

    call_id: str
    name: str
    content: dict[str, Any]


class Message(_Frozen):
    """One turn of the conversation.

    - user: `text`
    - assistant: `text` and/or `tool_calls`; `raw` keeps the provider's own message/parts so a
      follow-up can send them back unchanged
    - tool: `tool_results` (one message may answer several calls of the previous assistant turn)
    """

    role: Role
    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_results: tuple[ToolResult, ...] = ()
    raw: Any = None


class ToolSpec(_Frozen):
    """What the model sees of a tool: its name, a description and a JSON schema of parameters."""

    name: str
    description: str
    parameters: dict[str, Any]


class ModelRequest(_Frozen):
    system: str
    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = ()
    # "none" forces a text answer (used when the agent loop hits its limits).
    tool_choice: Literal["auto", "none"] = "auto"
    max_output_tokens: int = 2048
    temperature: float | None = None


class Usage(_Frozen):
    input_tokens: int = 0
    output_tokens: int = 0


class ModelResponse(_Frozen):
    """A complete model turn. `message` is the assistant `Message` to append to the history."""

    message: Message
    finish_reason: FinishReason = "stop"
    usage: Usage = Usage()
    # The provider's own reason when `finish_reason` is "other" (e.g. "SAFETY",
    # "MALFORMED_FUNCTION_CALL", "content_filter", "prompt blocked: OTHER").
    finish_detail: str = ""


TextSink = Callable[[str], None]


class CancelSignal(Protocol):
    """Set by the UI's Stop button; clients check it between chunks and stop reading."""

    @property
    def cancelled(self) -> bool: ...


class ModelClient(Protocol):
    """One provider + model. `complete` streams text deltas to `on_text` as they arrive (when
    given) and returns the whole turn; it raises `errors.ProviderError` on failure. Stop
    raises kind "stopped" and a failure after text was shown raises "stream_cut"; both carry
    the text shown so far in `partial` (tool calls of an unfinished turn are never returned)."""

    provider: str
    model: str

    def complete(
        self,
        request: ModelRequest,
        on_text: TextSink | None = None,
        cancel: CancelSignal | None = None,
    ) -> Awaitable[ModelResponse]: ...

    def list_models(self) -> Awaitable[list[str]]: ...
