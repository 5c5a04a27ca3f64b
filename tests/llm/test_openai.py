"""OpenAI Chat Completions: the requests we build and the answers we read, in real shapes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from app.llm import openai
from app.llm.errors import ProviderError
from app.llm.messages import ModelRequest, ModelResponse
from app.llm.openai import UNSTREAMED_WAIT, OpenAIClient, request_body
from tests.llm import openai_fixtures as fx
from tests.llm.conformance import (
    assert_openai_chunk,
    assert_openai_completion,
    assert_openai_request,
)
from tests.llm.samples import KEY, PLAIN, REQUEST
from tests.llm.transports import Reply, ScriptedTransport, sse

BASE = "https://api.openai.com/v1"


@pytest.fixture(autouse=True)
def _streaming_servers() -> Iterator[None]:
    """Each test starts with no server remembered as answering only unstreamed."""
    yield
    openai._UNSTREAMED.clear()


def client(transport: ScriptedTransport, **options: Any) -> OpenAIClient:
    return OpenAIClient(transport, model="gpt-4.1-mini", base_url=BASE, api_key=KEY, **options)


def complete(
    transport: ScriptedTransport, request: ModelRequest = REQUEST, **options: Any
) -> tuple[ModelResponse, list[str]]:
    shown: list[str] = []
    response = asyncio.run(client(transport, **options).complete(request, shown.append))
    return response, shown


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("request_", [REQUEST, PLAIN])
def test_every_request_we_build_is_a_valid_chat_completions_request(
    stream: bool, request_: ModelRequest
) -> None:
    for param in ("max_completion_tokens", "max_tokens"):
        assert_openai_request(
            request_body(request_, model="gpt-4.1-mini", stream=stream, token_param=param)  # type: ignore[arg-type]
        )


def test_the_request_carries_the_whole_history_in_openai_terms() -> None:
    body = request_body(REQUEST, model="m", stream=True, token_param="max_completion_tokens")
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "user"]
    call_turn = body["messages"][2]
    assert call_turn["content"] == ""  # never null: some compatible servers reject it
    arguments = call_turn["tool_calls"][0]["function"]["arguments"]
    assert json.loads(arguments) == {"folder": "Cardiology", "words": ["aorta"]}
    assert body["messages"][3] == {
        "role": "tool",
        "tool_call_id": "call_abc",
        "content": '{"added": 1}',
    }
    assert body["tools"][0]["type"] == "function"
    assert body["tools"][0]["function"]["parameters"]["required"] == ["folder", "words"]
    assert body["tool_choice"] == "auto"
    assert body["max_completion_tokens"] == 512
    assert body["stream_options"] == {"include_usage": True}


def test_a_request_without_tools_sends_no_tool_choice_and_no_temperature() -> None:
    body = request_body(PLAIN, model="m", stream=False, token_param="max_tokens")
    assert "tools" not in body
    assert "tool_choice" not in body
    assert "temperature" not in body
    assert body["max_tokens"] == 2048
    assert "stream" not in body


def test_forcing_a_text_answer_keeps_the_tools_but_says_none() -> None:
    body = request_body(
        REQUEST.model_copy(update={"tool_choice": "none"}),
        model="m",
        stream=False,
        token_param="max_completion_tokens",
    )
    assert body["tool_choice"] == "none"
    assert len(body["tools"]) == 2


def test_the_fixtures_are_real_openai_shapes() -> None:
    for payload in [*fx.TEXT_STREAM, *fx.TOOL_STREAM]:
        assert_openai_chunk(payload)
    assert_openai_completion(fx.TEXT_COMPLETION)
    assert_openai_completion(fx.TOOL_COMPLETION)


def test_a_streamed_answer_arrives_piece_by_piece_with_usage() -> None:
    transport = ScriptedTransport(Reply(body=sse(*fx.TEXT_STREAM, done=True)))
    response, shown = complete(transport)
    assert "".join(shown) == "An aorta is the main artery 🫀."
    assert response.message.text == "An aorta is the main artery 🫀."
    assert response.finish_reason == "stop"
    assert (response.usage.input_tokens, response.usage.output_tokens) == (120, 30)
    sent = transport.requests[0]
    assert sent.url == f"{BASE}/chat/completions"
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert sent.headers["accept"] == "text/event-stream"
    assert KEY not in sent.url
    assert KEY.encode() not in (sent.body or b"")


def test_streamed_tool_calls_are_assembled_by_index() -> None:
    transport = ScriptedTransport(Reply(body=sse(*fx.TOOL_STREAM, done=True, crlf=True)), seed=3)
    response, shown = complete(transport)
    assert shown == []
    calls = response.message.tool_calls
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        (
            "call_DdmO9pD3xa9XTPNJ32zg2hcA",
            "ADD_WORDS",
            {"folder": "Cardiology", "words": ["aorta"]},
        ),
        ("call_2", "GET_FOLDER_STRUCTURE", {}),
    ]
    assert response.finish_reason == "tool_calls"


@pytest.mark.parametrize("seed", range(8))
def test_any_cut_of_the_stream_gives_the_same_turn(seed: int) -> None:
    body = sse(*fx.TOOL_STREAM, *fx.TEXT_STREAM[1:3], done=True)
    first, _ = complete(ScriptedTransport(Reply(body=body), seed=0))
    again, _ = complete(ScriptedTransport(Reply(body=body), seed=seed))
    assert again == first


def test_a_whole_tool_call_in_one_delta_without_index_is_read() -> None:
    # Some compatible servers (older Ollama) send each call whole and without an index.
    call = {"id": "c1", "type": "function", "function": {"name": "X", "arguments": '{"a": 1}'}}
    body = sse(fx.chunk({"tool_calls": [call]}), fx.chunk({}, "stop"), done=True)
    response, _ = complete(ScriptedTransport(Reply(body=body)))
    assert response.message.tool_calls[0].arguments == {"a": 1}
    assert response.finish_reason == "tool_calls"


def test_non_streamed_answers_with_text_or_tool_calls() -> None:
    transport = ScriptedTransport(Reply(body=fx.TEXT_COMPLETION), Reply(body=fx.TOOL_COMPLETION))
    openai = client(transport)
    text = asyncio.run(openai.complete(PLAIN))
    assert text.message.text == "Hello!"
    assert text.usage.output_tokens == 30
    assert "stream" not in transport.json_sent(0)
    tools = asyncio.run(openai.complete(REQUEST))
    good, bad = tools.message.tool_calls
    assert good.arguments == {"folder": "A", "words": ["b"]}
    assert good.arguments_text is None
    assert bad.arguments == {}
    assert bad.arguments_text == '{"folder": "A", "words": [oops'


def test_history_with_unparseable_arguments_is_sent_back_as_the_model_wrote_it() -> None:
    transport = ScriptedTransport(Reply(body=fx.TOOL_COMPLETION))
    turn = asyncio.run(client(transport).complete(REQUEST)).message
    body = request_body(
        REQUEST.model_copy(update={"messages": (*REQUEST.messages, turn)}),
        model="m",
        stream=False,
        token_param="max_tokens",
    )
    assert body["messages"][-1]["tool_calls"][1]["function"]["arguments"].endswith("[oops")
    assert_openai_request(body)


def test_a_content_filter_stop_is_reported_with_its_reason() -> None:
    body = sse(fx.chunk({"content": "Partly"}), fx.chunk({}, "content_filter"), done=True)
    response, _ = complete(ScriptedTransport(Reply(body=body)))
    assert (response.finish_reason, response.finish_detail) == ("other", "content_filter")


def test_a_keyless_local_server_gets_no_authorization_header() -> None:
    transport = ScriptedTransport(Reply(body=fx.TEXT_COMPLETION))
    local = OpenAIClient(
        transport,
        model="llama3.2",
        base_url="http://localhost:11434/v1/",
        provider="openai_compatible",
        label="the server at localhost:11434",
        token_param="max_tokens",
    )
    asyncio.run(local.complete(PLAIN))
    assert transport.requests[0].url == "http://localhost:11434/v1/chat/completions"
    assert "authorization" not in transport.requests[0].headers
    assert transport.json_sent()["max_tokens"] == 2048


def test_models_are_listed_without_the_ones_that_cannot_chat() -> None:
    transport = ScriptedTransport(Reply(body=fx.MODELS), Reply(body=fx.MODELS))
    assert asyncio.run(client(transport).list_models()) == ["gpt-4.1-mini", "gpt-4o"]
    assert transport.requests[0].method == "GET"
    assert transport.requests[0].url == f"{BASE}/models"
    compatible = client(transport, provider="openai_compatible")
    assert len(asyncio.run(compatible.list_models())) == 4


def failure(reply: Reply) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        complete(ScriptedTransport(reply))
    assert KEY not in str(caught.value)
    assert KEY not in caught.value.message
    return caught.value


def test_a_bad_key_never_quotes_the_key_back() -> None:
    error = failure(Reply(status=401, body=fx.BAD_KEY))
    assert error.kind == "bad_key"
    assert not error.retryable
    assert "sk-" not in error.message
    assert "Test key" in error.message


def test_insufficient_quota_is_not_a_rate_limit() -> None:
    error = failure(Reply(status=429, body=fx.NO_QUOTA, headers={"retry-after": "20"}))
    assert error.kind == "quota"
    assert not error.retryable


def test_a_rate_limit_carries_the_retry_after_header() -> None:
    error = failure(Reply(status=429, body=fx.RATE_LIMITED, headers={"Retry-After": "7"}))
    assert (error.kind, error.retry_after_s, error.retryable) == ("rate_limited", 7.0, True)
    assert "7 s" in error.message


def test_a_stream_that_ends_without_finishing_is_cut_and_keeps_the_text() -> None:
    error = failure(Reply(body=sse(*fx.TEXT_STREAM[:3])))
    assert (error.kind, error.partial) == ("stream_cut", "An aorta is the main artery 🫀.")


def test_an_error_event_mid_stream_keeps_the_text() -> None:
    body = sse(fx.TEXT_STREAM[1], {"error": {"message": "overloaded", "type": "server_error"}})
    error = failure(Reply(body=body))
    assert (error.kind, error.partial) == ("stream_cut", "An aorta is ")


def test_garbage_in_the_stream_is_a_bad_response() -> None:
    assert failure(Reply(body=sse("{not json"))).kind == "bad_response"
    assert failure(Reply(body=b"<html>proxy error</html>")).kind == "stream_cut"


def test_a_non_streamed_answer_that_is_not_a_completion_is_a_bad_response() -> None:
    transport = ScriptedTransport(Reply(body={"choices": []}))
    with pytest.raises(ProviderError) as caught:
        asyncio.run(client(transport).complete(PLAIN))
    assert caught.value.kind == "bad_response"


@pytest.mark.parametrize("empty", [b"", sse(done=True)], ids=["no-bytes", "only-done"])
def test_an_empty_stream_is_asked_again_without_streaming_and_the_server_is_remembered(
    empty: bytes,
) -> None:
    # llama.cpp's server answers a streamed request with tools that ends in a tool call with
    # an empty 200 (no bytes, or no chunk before [DONE]): nothing arrived, so nothing is
    # "cut"; the same request unstreamed works.
    base = "http://127.0.0.1:8080/v1"
    transport = ScriptedTransport(
        Reply(body=empty), Reply(body=fx.TOOL_COMPLETION), Reply(body=fx.TEXT_COMPLETION)
    )
    local = OpenAIClient(transport, model="smollm2", base_url=base, provider="local")
    shown: list[str] = []
    first = asyncio.run(local.complete(REQUEST, shown.append))
    assert [c.name for c in first.message.tool_calls] == [
        c.name
        for c in asyncio.run(
            client(ScriptedTransport(Reply(body=fx.TOOL_COMPLETION))).complete(REQUEST)
        ).message.tool_calls
    ]
    assert transport.json_sent(0)["stream"] is True
    assert "stream" not in transport.json_sent(1)
    # The whole answer comes at once, so its wait is longer than the first words' (issue 25).
    waits = [r.timeout_s for r in transport.requests[:2]]
    assert waits == [60.0, 60.0 * UNSTREAMED_WAIT]
    again = OpenAIClient(transport, model="smollm2", base_url=base, provider="local")
    text = asyncio.run(again.complete(PLAIN, shown.append))
    assert "stream" not in transport.json_sent(2)  # remembered for this server
    assert text.message.text == "Hello!"
    assert shown == ["Hello!"]


def test_an_empty_stream_twice_is_said_plainly_not_as_a_cut_answer() -> None:
    transport = ScriptedTransport(Reply(body=b""), Reply(body=b'{"choices": []}'))
    with pytest.raises(ProviderError) as caught:
        asyncio.run(client(transport).complete(REQUEST, lambda _t: None))
    assert caught.value.kind != "stream_cut"
    assert "stopped mid-way" not in caught.value.message
