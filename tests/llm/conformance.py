"""Wire conformance: check bodies against the official SDKs' pydantic types (test-only deps).

The `openai` request types are TypedDicts that silently drop unknown keys, so a body counts as
valid only when validating it gives back exactly the same body. `google-genai` types forbid
unknown keys and warn on unknown enum values; warnings are errors here, and a round trip
through the type must give back the same JSON, which also rejects snake_case spellings.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

from google.genai import types as genai
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.chat import completion_create_params as params
from pydantic import BaseModel, TypeAdapter

_STREAMING = TypeAdapter(params.CompletionCreateParamsStreaming)
_NON_STREAMING = TypeAdapter(params.CompletionCreateParamsNonStreaming)
_GEMINI_REQUEST_FIELDS: dict[str, Any] = {
    "contents": TypeAdapter(list[genai.Content]),
    "systemInstruction": genai.Content,
    "tools": TypeAdapter(list[genai.Tool]),
    "toolConfig": genai.ToolConfig,
    "generationConfig": genai.GenerationConfig,
}


def _materialised(value: Any) -> Any:
    """Validated TypedDicts hold lazy iterators for `Iterable[...]` fields: consume them."""
    if isinstance(value, dict):
        return {k: _materialised(v) for k, v in value.items()}
    if isinstance(value, list | tuple | Iterator) or type(value).__name__ == "ValidatorIterator":
        return [_materialised(v) for v in value]
    return value


def assert_openai_request(body: dict[str, Any]) -> None:
    adapter = _STREAMING if body.get("stream") else _NON_STREAMING
    assert _materialised(adapter.validate_python(body)) == body


def assert_openai_completion(payload: dict[str, Any]) -> None:
    ChatCompletion.model_validate(payload)


def assert_openai_chunk(payload: dict[str, Any]) -> None:
    ChatCompletionChunk.model_validate(payload)


def _round_trip(kind: Any, value: Any) -> Any:
    text = json.dumps(value)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if isinstance(kind, TypeAdapter):
            parsed = kind.validate_json(text)
            return kind.dump_python(parsed, mode="json", by_alias=True, exclude_none=True)
        assert issubclass(kind, BaseModel)
        return kind.model_validate_json(text).model_dump(
            mode="json", by_alias=True, exclude_none=True
        )


def assert_gemini_request(body: dict[str, Any]) -> None:
    assert set(body) <= set(_GEMINI_REQUEST_FIELDS), set(body) - set(_GEMINI_REQUEST_FIELDS)
    for key, value in body.items():
        assert _round_trip(_GEMINI_REQUEST_FIELDS[key], value) == value, key


def assert_gemini_response(payload: dict[str, Any]) -> None:
    _round_trip(genai.GenerateContentResponse, payload)
