"""The conformance checks themselves can fail: unknown keys, wrong spellings, bad enum values."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tests.llm import gemini_fixtures as gx
from tests.llm.conformance import (
    assert_gemini_request,
    assert_gemini_response,
    assert_openai_chunk,
    assert_openai_request,
)

GOOD_OPENAI = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize(
    "body",
    [
        {**GOOD_OPENAI, "max_output_tokens": 5},  # the Gemini spelling
        {**GOOD_OPENAI, "messages": [{"role": "tool", "content": "{}"}]},  # no tool_call_id
        {**GOOD_OPENAI, "messages": [{"role": "user", "content": "hi", "name": 1}]},
        {**GOOD_OPENAI, "tools": [{"function": {"name": "x"}}]},  # no "type": "function"
    ],
)
def test_a_wrong_openai_request_is_caught(body: dict[str, object]) -> None:
    with pytest.raises((AssertionError, ValueError)):
        assert_openai_request(body)


def test_a_wrong_openai_chunk_is_caught() -> None:
    with pytest.raises(ValidationError, match=r"choices\.0\.index"):
        assert_openai_chunk({"object": "chat.completion.chunk", "choices": [{"delta": {}}]})


@pytest.mark.parametrize(
    "body",
    [
        {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "system_instruction": {}},
        {"contents": [{"role": "user", "parts": [{"function_call": {"name": "x"}}]}]},
        {"tools": [{"functionDeclarations": [{"name": "x", "parameters": {"type": "STRINGY"}}]}]},
        {"toolConfig": {"functionCallingConfig": {"mode": "SOMETIMES"}}},
    ],
)
def test_a_wrong_gemini_request_is_caught(body: dict[str, object]) -> None:
    with pytest.raises((AssertionError, ValueError, UserWarning)):
        assert_gemini_request(body)


def test_the_emulators_function_call_finish_reason_is_not_real_gemini() -> None:
    # aimock says FUNCTION_CALL where Gemini says STOP; the client accepts both, the types not.
    with pytest.raises(UserWarning):
        assert_gemini_response(
            gx.answer([{"functionCall": {"name": "x", "args": {}}}], "FUNCTION_CALL")
        )
