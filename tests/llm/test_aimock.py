"""Both clients against the real `@copilotkit/aimock` emulator on loopback, over real sockets:
streaming, tool calls and their follow-up turns, retries after 429, server errors, a cut
stream, Stop, a refused key, and the emulator's journal showing where the key went."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from app.llm.cancel import CancelToken
from app.llm.errors import ProviderError
from app.llm.messages import Message, ModelRequest, ToolResult
from app.llm.retry import RetryingClient
from app.llm.settings import Provider, ProviderSettings, make_client
from tests.llm.aimock import get_json, running_aimock
from tests.llm.samples import TOOLS
from tests.llm.transports import SocketTransport

KEY = "aimock-test-key-0123456789"
STORY = "Once upon a time a word wandered from Greek into Latin and then into English."
FIXTURES = [
    {
        "match": {"userMessage": "define aorta"},
        "response": {"content": "The aorta is the main artery 🫀."},
    },
    {
        "match": {"userMessage": "make cardiology", "hasToolResult": False},
        "response": {
            "toolCalls": [
                {"name": "ADD_WORDS", "arguments": {"folder": "Cardiology", "words": ["aorta"]}}
            ]
        },
    },
    {
        "match": {"userMessage": "make cardiology", "hasToolResult": True},
        "response": {"content": "Created Cardiology with 1 word."},
    },
    *(
        fixture
        for name in ("busy-openai", "busy-gemini")
        for fixture in (
            {
                "match": {"userMessage": name, "sequenceIndex": 0},
                "response": {
                    "error": {"message": "Rate limited", "type": "rate_limit_error"},
                    "status": 429,
                    "retryAfter": 2,
                },
            },
            {
                "match": {"userMessage": name, "sequenceIndex": 1},
                "response": {"content": "Back again."},
            },
        )
    ),
    {
        "match": {"userMessage": "broken"},
        "response": {"error": {"message": "Internal error", "type": "server_error"}, "status": 500},
    },
    {
        "match": {"userMessage": "cut story"},
        "response": {"content": STORY},
        "chunkSize": 8,
        "latency": 30,  # chunks reach the socket before the cut
        "truncateAfterChunks": 3,
    },
    {
        "match": {"userMessage": "slow story"},
        "response": {"content": STORY},
        "chunkSize": 8,
        "latency": 150,
    },
    # Only for the model list: the emulator lists the models its fixtures name.
    *(
        {"match": {"model": model, "userMessage": "never asked"}, "response": {"content": "-"}}
        for model in ("lexical-chat-1", "text-embedding-3-small")
    ),
]


@pytest.fixture(scope="module")
def aimock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_aimock(FIXTURES, tmp_path_factory.mktemp("aimock"), KEY) as url:
        yield url


def settings(url: str, provider: Provider, key: str = KEY) -> ProviderSettings:
    base = f"{url}/v1beta" if provider == "gemini" else f"{url}/v1"
    return ProviderSettings(provider=provider, model="test-model", base_url=base, api_key=key)


def ask(text: str) -> ModelRequest:
    return ModelRequest(
        system="You are the Scholar.", messages=(Message(role="user", text=text),), tools=TOOLS
    )


class Waits:
    def __init__(self) -> None:
        self.seen: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.seen.append(seconds)


def client(
    url: str, provider: Provider, waits: Waits | None = None, key: str = KEY
) -> RetryingClient:
    sleep = (waits or Waits()).sleep
    return make_client(settings(url, provider, key), SocketTransport(), sleep=sleep)


PROVIDERS: list[Provider] = ["openai", "gemini"]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("stream", [True, False])
def test_an_answer_arrives(aimock: str, provider: Provider, stream: bool) -> None:
    shown: list[str] = []
    response = asyncio.run(
        client(aimock, provider).complete(ask("define aorta"), shown.append if stream else None)
    )
    assert response.message.text == "The aorta is the main artery 🫀."
    assert response.finish_reason == "stop"
    assert "".join(shown) == (response.message.text if stream else "")
    if stream:
        assert len(shown) > 1  # it really came piece by piece


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("stream", [True, False])
def test_a_tool_call_and_its_follow_up_turn(aimock: str, provider: Provider, stream: bool) -> None:
    model = client(aimock, provider)
    sink = print if stream else None
    request = ask("make cardiology")
    first = asyncio.run(model.complete(request, sink))
    (call,) = first.message.tool_calls
    assert (call.name, call.arguments) == (
        "ADD_WORDS",
        {"folder": "Cardiology", "words": ["aorta"]},
    )
    assert first.finish_reason == "tool_calls"
    answer = Message(
        role="tool",
        tool_results=(ToolResult(call_id=call.id, name=call.name, content={"added": 1}),),
    )
    follow_up = request.model_copy(update={"messages": (*request.messages, first.message, answer)})
    second = asyncio.run(model.complete(follow_up, sink))
    assert second.message.text == "Created Cardiology with 1 word."


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_rate_limit_is_waited_out_then_the_answer_comes(aimock: str, provider: Provider) -> None:
    waits = Waits()
    response = asyncio.run(client(aimock, provider, waits).complete(ask(f"busy-{provider}"), print))
    assert response.message.text == "Back again."
    assert len(waits.seen) == 1
    assert 2.0 <= waits.seen[0] <= 2.2  # the emulator's Retry-After


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_server_error_is_retried_three_times_then_explained(
    aimock: str, provider: Provider
) -> None:
    waits = Waits()
    with pytest.raises(ProviderError) as caught:
        asyncio.run(client(aimock, provider, waits).complete(ask("broken"), print))
    assert (caught.value.kind, caught.value.status) == ("server", 500)
    assert len(waits.seen) == 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_cut_stream_keeps_what_arrived(aimock: str, provider: Provider) -> None:
    shown: list[str] = []
    with pytest.raises(ProviderError) as caught:
        asyncio.run(client(aimock, provider).complete(ask("cut story"), shown.append))
    assert caught.value.kind == "stream_cut"
    assert caught.value.partial == "".join(shown)
    assert STORY.startswith(caught.value.partial)
    assert 0 < len(caught.value.partial) < len(STORY)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_stop_mid_answer_keeps_the_partial_text(aimock: str, provider: Provider) -> None:
    token = CancelToken()
    shown: list[str] = []

    def on_text(delta: str) -> None:
        shown.append(delta)
        token.cancel()

    with pytest.raises(ProviderError) as caught:
        asyncio.run(client(aimock, provider).complete(ask("slow story"), on_text, token))
    assert (caught.value.kind, caught.value.partial) == ("stopped", shown[0])


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_wrong_key_is_refused_plainly_and_not_retried(aimock: str, provider: Provider) -> None:
    waits = Waits()
    wrong = "wrong-key-abcdefghijklmnopqrstuvwxyz"
    with pytest.raises(ProviderError) as caught:
        asyncio.run(client(aimock, provider, waits, key=wrong).complete(ask("define aorta"), print))
    assert caught.value.kind == "bad_key"
    assert waits.seen == []
    assert wrong not in caught.value.message


def test_models_are_listed_from_the_server(aimock: str) -> None:
    assert asyncio.run(client(aimock, "openai").list_models()) == ["lexical-chat-1"]
    compatible = client(aimock, "openai_compatible")
    assert asyncio.run(compatible.list_models()) == ["lexical-chat-1", "text-embedding-3-small"]


def test_the_journal_shows_the_key_went_only_in_the_provider_header(aimock: str) -> None:
    # The emulator checks the key (so a 200 proves it arrived in a header it knows) and
    # journals such headers as "[REDACTED]": the key must then appear nowhere else.
    for provider in PROVIDERS:
        asyncio.run(client(aimock, provider).complete(ask("define aorta"), print))
    entries = get_json(f"{aimock}/__aimock/journal", KEY)
    seen = {
        "/v1beta/" in e["path"]: e
        for e in entries
        if e["response"]["status"] == 200 and "define aorta" in json.dumps(e["body"])
    }
    assert set(seen) == {True, False}
    for entry in seen.values():
        assert KEY not in json.dumps(entry)
    assert seen[True]["headers"]["x-goog-api-key"] == "[REDACTED]"
    assert "authorization" not in seen[True]["headers"]
    assert any(e["path"].endswith(":streamGenerateContent?alt=sse") for e in entries)
    assert seen[False]["headers"]["authorization"] == "[REDACTED]"
    assert "x-goog-api-key" not in seen[False]["headers"]
