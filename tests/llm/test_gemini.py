"""Gemini generateContent / streamGenerateContent: requests, answers, signatures and failures."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from app.llm.errors import ProviderError
from app.llm.gemini import RAW_PARTS, GeminiClient, request_body
from app.llm.messages import Message, ModelRequest, ModelResponse, ToolResult
from tests.llm import gemini_fixtures as fx
from tests.llm.conformance import assert_gemini_request, assert_gemini_response
from tests.llm.samples import GEMINI_KEY, PLAIN, REQUEST
from tests.llm.transports import Reply, ScriptedTransport, sse

BASE = "https://generativelanguage.googleapis.com/v1beta"


def client(transport: ScriptedTransport, model: str = "gemini-3-pro-preview") -> GeminiClient:
    return GeminiClient(transport, model=model, base_url=BASE, api_key=GEMINI_KEY)


def complete(
    transport: ScriptedTransport, request: ModelRequest = REQUEST, *, stream: bool = True
) -> tuple[ModelResponse, list[str]]:
    shown: list[str] = []
    sink = shown.append if stream else None
    return asyncio.run(client(transport).complete(request, sink)), shown


@pytest.mark.parametrize("request_", [REQUEST, PLAIN])
def test_every_request_we_build_is_valid_for_the_gemini_types(request_: ModelRequest) -> None:
    assert_gemini_request(request_body(request_))


def test_the_fixtures_are_real_gemini_shapes() -> None:
    for payload in [fx.CALLS, *fx.TEXT_STREAM, fx.BLOCKED, fx.MODELS_PAGE_1]:
        if "models" not in payload:
            assert_gemini_response(payload)


def test_the_request_speaks_gemini() -> None:
    body = request_body(REQUEST)
    assert body["systemInstruction"] == {"parts": [{"text": "You are the Architect."}]}
    roles = [c["role"] for c in body["contents"]]
    assert roles == ["user", "model", "user", "model", "user"]
    call = body["contents"][1]["parts"][0]["functionCall"]
    assert call == {
        "name": "ADD_WORDS",
        "args": {"folder": "Cardiology", "words": ["aorta"]},
        "id": "call_abc",
    }
    answer = body["contents"][2]["parts"][0]["functionResponse"]
    assert answer == {"name": "ADD_WORDS", "response": {"added": 1}, "id": "call_abc"}
    declarations = body["tools"][0]["functionDeclarations"]
    assert [d["name"] for d in declarations] == ["ADD_WORDS", "GET_FOLDER_STRUCTURE"]
    assert "parameters" not in declarations[1]
    assert body["toolConfig"] == {"functionCallingConfig": {"mode": "AUTO"}}
    assert body["generationConfig"] == {"maxOutputTokens": 512, "temperature": 0.2}
    forced = request_body(REQUEST.model_copy(update={"tool_choice": "none"}))
    assert forced["toolConfig"]["functionCallingConfig"]["mode"] == "NONE"


def test_a_request_without_system_or_tools_sends_neither() -> None:
    assert set(request_body(PLAIN)) == {"contents", "generationConfig"}


def test_function_calls_get_stable_ids_and_thoughts_stay_out_of_the_text() -> None:
    transport = ScriptedTransport(Reply(body=fx.CALLS), Reply(body=fx.CALLS))
    first, _ = complete(transport, stream=False)
    again, _ = complete(ScriptedTransport(Reply(body=fx.CALLS)), stream=False)
    calls = first.message.tool_calls
    assert [(c.name, c.arguments) for c in calls] == [
        ("ADD_WORDS", {"folder": "Cardiology", "words": ["aorta"]}),
        ("GET_FOLDER_STRUCTURE", {}),
    ]
    assert calls[0].id != calls[1].id
    assert [c.id for c in calls] == [c.id for c in again.message.tool_calls]
    assert first.message.text == ""  # the thought is not part of the answer
    assert first.finish_reason == "tool_calls"  # Gemini says STOP; a call was made
    assert (first.usage.input_tokens, first.usage.output_tokens) == (210, 65)
    sent = transport.requests[0]
    assert sent.url == f"{BASE}/models/gemini-3-pro-preview:generateContent"
    assert sent.headers["x-goog-api-key"] == GEMINI_KEY
    assert GEMINI_KEY not in sent.url
    assert GEMINI_KEY.encode() not in (sent.body or b"")


def test_the_model_turn_goes_back_exactly_as_it_came_signatures_included() -> None:
    turn, _ = complete(ScriptedTransport(Reply(body=fx.CALLS)), stream=False)
    answers = Message(
        role="tool",
        tool_results=tuple(
            ToolResult(call_id=c.id, name=c.name, content={"ok": True})
            for c in turn.message.tool_calls
        ),
    )
    follow_up = REQUEST.model_copy(update={"messages": (*REQUEST.messages, turn.message, answers)})
    body = request_body(follow_up)
    assert body["contents"][-2] == {
        "role": "model",
        "parts": fx.CALLS["candidates"][0]["content"]["parts"],
    }
    # Ids Lexical made up are never sent to Gemini.
    assert body["contents"][-1]["parts"] == [
        {"functionResponse": {"name": "ADD_WORDS", "response": {"ok": True}}},
        {"functionResponse": {"name": "GET_FOLDER_STRUCTURE", "response": {"ok": True}}},
    ]
    assert_gemini_request(body)
    json.dumps(turn.message.raw)  # conversation memory stores it as JSON


def test_a_streamed_answer_arrives_piece_by_piece_and_keeps_the_late_signature() -> None:
    transport = ScriptedTransport(Reply(body=sse(*fx.TEXT_STREAM, crlf=True)), seed=5)
    response, shown = complete(transport)
    assert "".join(shown) == "An aorta is the main artery 🫀."
    assert response.message.text == "An aorta is the main artery 🫀."
    assert response.message.raw == {
        RAW_PARTS: [
            {"text": "An aorta is the main artery 🫀."},
            {"text": "", "thoughtSignature": fx.SIGNATURE},
        ]
    }
    assert response.finish_reason == "stop"
    sent = transport.requests[0]
    assert sent.url == f"{BASE}/models/gemini-3-pro-preview:streamGenerateContent?alt=sse"
    assert GEMINI_KEY not in sent.url


def test_the_emulators_function_call_finish_reason_is_accepted() -> None:
    payload = fx.answer([{"functionCall": {"name": "X", "args": {"a": 1}}}], "FUNCTION_CALL")
    response, _ = complete(ScriptedTransport(Reply(body=sse(payload))))
    assert response.finish_reason == "tool_calls"
    assert response.message.tool_calls[0].arguments == {"a": 1}


def test_a_call_id_given_by_gemini_is_kept_and_sent_back() -> None:
    payload = fx.answer([{"functionCall": {"id": "fc-9", "name": "X", "args": {}}}])
    response, _ = complete(ScriptedTransport(Reply(body=payload)), stream=False)
    assert response.message.tool_calls[0].id == "fc-9"


def test_a_blocked_prompt_or_a_safety_stop_says_why() -> None:
    blocked, _ = complete(ScriptedTransport(Reply(body=fx.BLOCKED)), stream=False)
    assert (blocked.finish_reason, blocked.finish_detail) == (
        "other",
        "prompt blocked: PROHIBITED_CONTENT",
    )
    safety, _ = complete(ScriptedTransport(Reply(body=sse(fx.answer([], "SAFETY")))))
    assert (safety.finish_reason, safety.finish_detail) == ("other", "SAFETY")
    long, _ = complete(ScriptedTransport(Reply(body=sse(fx.answer([{"text": "a"}], "MAX_TOKENS")))))
    assert long.finish_reason == "length"


def test_models_are_listed_across_pages_and_only_if_they_generate() -> None:
    transport = ScriptedTransport(Reply(body=fx.MODELS_PAGE_1), Reply(body=fx.MODELS_PAGE_2))
    assert asyncio.run(client(transport).list_models()) == ["gemini-2.5-flash", "gemini-2.5-pro"]
    first, second = transport.requests
    assert first.url == f"{BASE}/models?pageSize=1000"
    assert second.url.endswith("&pageToken=Chdtb2RlbHMvZ2VtaW5pLTIuNS1mbGFzaA%3D%3D")
    assert all(
        r.headers["x-goog-api-key"] == GEMINI_KEY and GEMINI_KEY not in r.url
        for r in transport.requests
    )


def test_a_model_name_pasted_with_its_prefix_is_accepted() -> None:
    transport = ScriptedTransport(Reply(body=fx.CALLS))
    asyncio.run(client(transport, "models/gemini-2.5-flash").complete(PLAIN))
    assert transport.requests[0].url == f"{BASE}/models/gemini-2.5-flash:generateContent"


def failure(reply: Reply, *, stream: bool = True) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        complete(ScriptedTransport(reply), stream=stream)
    assert GEMINI_KEY not in str(caught.value)
    return caught.value


@pytest.mark.parametrize(
    ("status", "body", "kind", "retry_after"),
    [
        (400, fx.BAD_KEY, "bad_key", None),
        (403, fx.FORBIDDEN, "permission", None),
        (429, fx.PER_DAY, "quota", None),
        (429, fx.PER_MINUTE, "rate_limited", 7.0),
        (503, fx.OVERLOADED, "server", None),
        (404, fx.NOT_FOUND, "bad_request", None),
    ],
)
def test_each_error_becomes_its_kind(
    status: int, body: dict[str, Any], kind: str, retry_after: float | None
) -> None:
    error = failure(Reply(status=status, body=body))
    assert (error.kind, error.status, error.retry_after_s) == (kind, status, retry_after)
    assert error.message.endswith(".")


def test_an_error_inside_the_stream_after_text_keeps_the_text() -> None:
    error = failure(Reply(body=sse(fx.TEXT_STREAM[0], fx.OVERLOADED)))
    assert (error.kind, error.partial) == ("stream_cut", "An aorta")


def test_a_stream_without_a_finish_reason_was_cut() -> None:
    error = failure(Reply(body=sse(*fx.TEXT_STREAM[:2])))
    assert (error.kind, error.partial) == ("stream_cut", "An aorta is the main artery")


def test_an_answer_that_is_not_a_response_is_a_bad_response() -> None:
    assert failure(
        Reply(body={"candidates": [{"content": {"parts": ["x"]}}]}), stream=False
    ).kind == ("bad_response")
    assert failure(Reply(body=sse([1, 2]))).kind == "bad_response"
