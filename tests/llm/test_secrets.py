"""The key goes to the provider's host in a header and nowhere else: not in URLs, bodies,
error sentences, exception text, tracebacks or logs."""

from __future__ import annotations

import asyncio
import json
import logging
import traceback
from typing import Any

import pytest

from app.llm.errors import ProviderError
from app.llm.failures import redact
from app.llm.settings import ProviderSettings, make_client
from tests.llm import gemini_fixtures as gx
from tests.llm.samples import GEMINI_KEY, KEY, REQUEST
from tests.llm.transports import Reply, ScriptedTransport, sse


def echoing(key: str) -> list[Reply]:
    """Failures whose bodies quote the key back, as careless servers and proxies do."""
    quoted = {"error": {"message": f"Invalid header value {key}", "type": "invalid_request_error"}}
    return [
        Reply(status=400, body=quoted),
        Reply(status=401, body=quoted),
        Reply(status=403, body=quoted),
        Reply(status=429, body=quoted),
        Reply(status=500, body=f"upstream said: {key}"),
        Reply(status=422, body=f"<html>{key}</html>"),
        Reply(body=sse({"error": {"message": key, "code": 400}})),
        Reply(body=sse(f"not json {key}")),
        Reply(error=ProviderError("offline", f"refused {key}")),
        Reply(error=ProviderError("timeout", f"slow {key}")),
        Reply(body=b"data: {}", cut_after=ProviderError("stream_cut", f"cut {key}")),
    ]


SETTINGS = {
    "openai": ProviderSettings(provider="openai", api_key=KEY),
    "gemini": ProviderSettings(provider="gemini", api_key=GEMINI_KEY),
    "compatible": ProviderSettings(
        provider="openai_compatible",
        model="m",
        base_url="https://api.groq.com/openai/v1",
        api_key=KEY,
    ),
}


async def _no_sleep(_: float) -> None:
    return None


@pytest.mark.parametrize("name", list(SETTINGS))
@pytest.mark.parametrize("stream", [True, False])
def test_no_failure_ever_shows_the_key(name: str, stream: bool, caplog: Any) -> None:
    settings = SETTINGS[name]
    key = settings.api_key.get_secret_value()
    caplog.set_level(logging.DEBUG)
    for reply in echoing(key):
        transport = ScriptedTransport(reply, reply, reply)  # room for retries
        client = make_client(settings, transport, sleep=_no_sleep)
        with pytest.raises(ProviderError) as caught:
            asyncio.run(client.complete(REQUEST, print if stream else None))
        error = caught.value
        shown = " ".join(
            [
                error.message,
                error.partial,
                str(error),
                repr(error),
                *traceback.format_exception(error),
            ]
        )
        assert key not in shown, (reply, error.message)
        for sent in transport.requests:
            assert key not in sent.url
            assert key.encode() not in (sent.body or b"")
            assert sum(key in v for v in sent.headers.values()) == 1
    assert key not in caplog.text


def test_key_shaped_text_is_masked_even_when_it_is_not_our_key() -> None:
    text = "keys sk-proj-abcdefghijklmnop and AIzaSyA1234567890abcdef and gsk_abcdefghijklmnop"
    assert redact(text) == "keys [hidden] and [hidden] and [hidden]"
    assert redact("model gpt-4o not found") == "model gpt-4o not found"


def test_a_rejected_request_still_quotes_the_harmless_part_of_the_reason() -> None:
    body = {
        "error": {
            "message": "Invalid 'messages[1].content': too long.",
            "type": "invalid_request_error",
        }
    }
    transport = ScriptedTransport(Reply(status=400, body=body))
    client = make_client(SETTINGS["openai"], transport)
    with pytest.raises(ProviderError) as caught:
        asyncio.run(client.complete(REQUEST))
    assert caught.value.kind == "bad_request"
    assert "Invalid 'messages[1].content': too long." in caught.value.message


def test_gemini_streams_errors_inside_a_list_and_they_are_read() -> None:
    body = json.dumps([gx.PER_DAY]).encode()
    transport = ScriptedTransport(Reply(status=429, body=body))
    client = make_client(SETTINGS["gemini"], transport)
    with pytest.raises(ProviderError) as caught:
        asyncio.run(client.complete(REQUEST, print))
    assert caught.value.kind == "quota"
