"""The scripted model is strict: it records, streams, raises, refuses extra calls, and a test
that leaves a reply unasked fails."""

from __future__ import annotations

import asyncio

import pytest

from app.llm.errors import ProviderError
from app.llm.messages import Message, ModelRequest, ModelResponse
from tests.llm.scripted import ScriptedModel, UnexpectedCall, call, reply
from tests.script_check import replies_all_asked_for


def _request(text: str) -> ModelRequest:
    return ModelRequest(system="s", messages=(Message(role="user", text=text),))


def _complete(model: ScriptedModel, text: str, **options: object) -> ModelResponse:
    return asyncio.run(model.complete(_request(text), **options))  # type: ignore[arg-type]


def test_turns_play_in_order_and_every_request_is_recorded() -> None:
    model = ScriptedModel(
        "plain text",
        reply("", call("ADD_WORD", term="a")),
        lambda request: reply(f"you said {request.messages[-1].text}"),
    )
    assert _complete(model, "1").message.text == "plain text"
    second = _complete(model, "2")
    assert second.finish_reason == "tool_calls"
    assert second.message.tool_calls[0].arguments == {"term": "a"}
    assert _complete(model, "3").message.text == "you said 3"
    assert [r.messages[-1].text for r in model.requests] == ["1", "2", "3"]
    with pytest.raises(UnexpectedCall, match="#4 was not in the script"):
        _complete(model, "4")


@pytest.mark.unused_replies
def test_a_reply_left_in_the_script_fails_the_test() -> None:
    leftover = pytest.raises(
        AssertionError, match="1 scripted reply was never asked for; the next is 'not asked'"
    )
    with leftover, replies_all_asked_for():
        _complete(ScriptedModel("asked", "not asked"), "1")
    with replies_all_asked_for():
        _complete(ScriptedModel("asked"), "1")


def test_every_test_checks_its_scripts(request: pytest.FixtureRequest) -> None:
    assert "_every_scripted_reply_is_asked_for" in request.fixturenames


def test_text_streams_in_word_chunks() -> None:
    chunks: list[str] = []
    _complete(ScriptedModel("Hello there,  world"), "x", on_text=chunks.append)
    assert chunks == ["Hello ", "there,  ", "world"]


def test_errors_stream_their_partial_text_then_raise() -> None:
    chunks: list[str] = []
    cut = ProviderError("stream_cut", "cut", partial="half an")
    with pytest.raises(ProviderError) as raised:
        _complete(ScriptedModel(cut), "x", on_text=chunks.append)
    assert raised.value.kind == "stream_cut"
    assert chunks == ["half ", "an"]


class _Stopped:
    cancelled = True


def test_a_cancelled_stream_stops_with_what_was_sent() -> None:
    with pytest.raises(ProviderError) as raised:
        _complete(ScriptedModel("never heard"), "x", cancel=_Stopped())
    assert (raised.value.kind, raised.value.partial) == ("stopped", "")


def test_ids_are_unique_and_models_are_listed() -> None:
    assert call("A").id != call("A").id
    model = ScriptedModel(provider="demo", model="m1")
    assert asyncio.run(model.list_models()) == ["m1"]
    assert (model.provider, model.remaining) == ("demo", 0)
