"""Stop: reading ends at once, the connection is let go, and what arrived is kept."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.llm.cancel import CancelToken, unless_cancelled
from app.llm.errors import ProviderError
from app.llm.gemini import GeminiClient
from app.llm.messages import ModelClient
from app.llm.openai import OpenAIClient
from tests.llm import gemini_fixtures as gx
from tests.llm import openai_fixtures as ox
from tests.llm.samples import KEY, PLAIN
from tests.llm.transports import Reply, ScriptedTransport, sse


def clients(transport: ScriptedTransport) -> dict[str, ModelClient]:
    return {
        "openai": OpenAIClient(transport, model="m", base_url="https://x.test/v1", api_key=KEY),
        "gemini": GeminiClient(transport, model="m", base_url="https://y.test/v1beta", api_key=KEY),
    }


FIRST_WORDS = {
    "openai": sse(*ox.TEXT_STREAM[:2]),
    "gemini": sse(gx.TEXT_STREAM[0]),
}


@pytest.mark.parametrize("provider", ["openai", "gemini"])
def test_stop_mid_stream_keeps_the_partial_answer_and_closes_the_stream(provider: str) -> None:
    transport = ScriptedTransport(Reply(body=FIRST_WORDS[provider], hang=True))
    client = clients(transport)[provider]
    token = CancelToken()
    shown: list[str] = []

    def on_text(delta: str) -> None:
        shown.append(delta)
        token.cancel()  # the user presses Stop as the first words appear

    with pytest.raises(ProviderError) as caught:
        asyncio.run(client.complete(PLAIN, on_text, token))
    assert caught.value.kind == "stopped"
    assert caught.value.partial == "".join(shown) != ""
    assert transport.responses[0].closed
    assert transport.requests[0].cancel is token  # so the browser can abort the fetch


def test_stop_before_the_headers_arrive_ends_the_wait() -> None:
    token = CancelToken()

    class Slow:
        async def send(self, request: Any) -> Any:
            token.cancel()
            await asyncio.Event().wait()

    client = OpenAIClient(Slow(), model="m", base_url="https://x.test/v1", api_key=KEY)
    with pytest.raises(ProviderError) as caught:
        asyncio.run(client.complete(PLAIN, print, token))
    assert (caught.value.kind, caught.value.partial) == ("stopped", "")


def test_a_plain_cancel_signal_is_checked_between_chunks() -> None:
    class Flag:
        cancelled = False

    flag = Flag()
    transport = ScriptedTransport(Reply(body=sse(*ox.TEXT_STREAM, done=True)))
    client = clients(transport)["openai"]

    def on_text(delta: str) -> None:
        flag.cancelled = True

    with pytest.raises(ProviderError) as caught:
        asyncio.run(client.complete(PLAIN, on_text, flag))
    assert (caught.value.kind, caught.value.partial) == ("stopped", "An aorta is ")


def test_listeners_hear_stop_once_and_late_listeners_at_once() -> None:
    token = CancelToken()
    heard: list[str] = []
    unsubscribe = token.on_cancel(lambda: heard.append("gone"))
    unsubscribe()
    token.on_cancel(lambda: heard.append("early"))
    token.cancel()
    token.cancel()
    token.on_cancel(lambda: heard.append("late"))
    assert heard == ["early", "late"]


def test_work_started_after_stop_is_dropped_without_warnings() -> None:
    token = CancelToken()
    token.cancel()

    async def work() -> int:
        return 1

    async def run() -> None:
        with pytest.raises(ProviderError):
            await unless_cancelled(work(), token)

    asyncio.run(run())


def test_an_outside_cancellation_is_not_mistaken_for_stop() -> None:
    token = CancelToken()

    async def run() -> None:
        task = asyncio.ensure_future(unless_cancelled(asyncio.Event().wait(), token))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run())
